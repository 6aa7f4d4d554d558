"""Texas hold'em in the archive: PHH files ingested (a large .phhs piece by piece), the facts
filtered on, and the figures poker players read first (VPIP, PFR, showdowns won, bb/100) per bot,
on SQLite and on a real PostgreSQL server."""

from __future__ import annotations

import json
from collections import defaultdict

from click.testing import CliRunner

import archive.ingest as ingest_module
from archive import Archive
from replay.games import get
from replay.games.holdem import phh
from replay.games.holdem.bots import play_game
from tests.archive.conftest import db_url  # noqa: F401 - the archive tests' SQLite and PostgreSQL fixture
from viewer.cli import cli

GAME = get("holdem")


def _hands(count: int, players: int = 6) -> list:
    return [play_game(seed, bots=("tag", "call", "random"), players=players) for seed in range(count)]


def _preflop_figures(logs) -> dict[str, dict[str, int]]:
    """Per bot, counted from the replays' steps (not from the game's counters): hands, hands with a
    preflop call or raise, hands with a preflop raise."""
    out: dict[str, dict[str, int]] = defaultdict(lambda: {"hands": 0, "vpip": 0, "pfr": 0})
    for log in logs:
        steps = GAME.judge(log).steps_json()
        for seat, player in log.players.items():
            mine = [s for s in steps if s["seat"] == seat and s["street"] == "preflop"]
            row = out[player.bot]
            row["hands"] += 1
            row["vpip"] += any(s["kind"] in ("call", "bet", "raise") for s in mine)
            row["pfr"] += any(s["kind"] in ("bet", "raise") for s in mine)
    return out


def test_bot_figures_are_summed_from_every_seat(db_url, tmp_path):
    logs = _hands(24)
    folder = tmp_path / "hands"
    folder.mkdir()
    for log in logs:
        (folder / f"{log.game_id}.json").write_text(log.canonical_json(), encoding="utf-8")
    expected = _preflop_figures(logs)
    with Archive(db_url) as archive:
        results = archive.ingest_paths([str(folder)])
        assert {r.status for r in results} == {"stored"} and len(results) == 24
        rows = {r["bot"]: r for r in archive.stats(by="bot", game="holdem")}
    assert set(rows) == set(expected)
    for bot, want in expected.items():
        figures = rows[bot]["figures"]
        assert figures["vpip"]["n"] == want["hands"]
        assert figures["vpip"]["value"] == round(100 * want["vpip"] / want["hands"], 2), bot
        assert figures["pfr"]["value"] == round(100 * want["pfr"] / want["hands"], 2), bot
        assert figures["bb_per_100"]["interval"] is not None
    assert rows["call-1"]["figures"]["pfr"]["value"] == 0.0  # the calling bot never raises
    # the winnings balance: what the bots won in big blinds sums to nothing (no rake in self-play)
    total = sum(r["figures"]["bb_per_100"]["value"] * r["figures"]["bb_per_100"]["n"] for r in rows.values())
    assert abs(total) < 1e-6 * 100 * 24 * 6 + 0.5


def test_facts_filter_hands(tmp_path):
    samples = GAME.sample_logs
    with Archive(f"sqlite:///{tmp_path / 'a.db'}") as archive:
        results = archive.ingest_paths([str(samples)])
        stored = [archive.get(r.public_id) for r in results if r.status in ("stored", "stored with findings")]
        replays = [game.replay() for game in stored]
        shown = [r for r in replays if r.checked and r.to_json()["street"] == "showdown"]
        page = archive.list(game="holdem", showdown="yes", limit=100)
        assert page.total == len(shown) and 0 < len(shown) < len(replays)
        dollars = archive.list(game="holdem", stakes="0.25/0.50", limit=100)
        assert dollars.total == 1 and "6max" in dollars.items[0].source
        nine = archive.list(game="holdem", variant="nt", fact="seats>=9", limit=100)
        assert nine.total == sum(1 for r in replays if len(r.log.seats) >= 9) >= 1


def test_a_large_phhs_file_is_ingested_piece_by_piece(tmp_path, monkeypatch):
    """A .phhs file larger than STREAM_BYTES is read in pieces cut before a hand's [n] table: every
    hand is stored, named by its line in the whole file, and every byte comes back."""
    logs = _hands(60, players=3)
    text = phh.write_games(logs)
    path = tmp_path / "session.phhs"
    path.write_text(text, encoding="utf-8")
    monkeypatch.setattr(ingest_module, "STREAM_BYTES", 4_000)
    monkeypatch.setattr(ingest_module, "PIECE_BYTES", 3_000)
    starts = [number for number, line in enumerate(text.split("\n"), start=1) if line.startswith("[")]
    assert len(starts) == 60
    with Archive(f"sqlite:///{tmp_path / 'a.db'}") as archive:
        pieces = list(archive.iter_ingest([str(path)]))
        assert len(pieces) > 5  # came in pieces, not as one input
        results = [r for _, found in pieces for r in found]
        assert [r.status for r in results] == ["stored"] * 60
        assert [int(r.source.rpartition(":")[2]) for r in results] == starts
        kept = sorted((int(source.rpartition(":")[2]), data) for source, data in archive.iter_inputs()
                      if source.startswith(f"{path}:"))
        assert [line for line, _ in kept][0] == 1 and len(kept) == len(pieces)
        back = b"".join(data for _, data in kept)
        assert back == path.read_bytes()
        for result, log in zip(results, logs):
            stored = archive.get(result.public_id)
            assert stored.replay().to_json()["payoffs"] == GAME.judge(log).to_json()["payoffs"]


def test_cli_stats_show_the_figures(tmp_path):
    logs = _hands(8)
    folder = tmp_path / "hands"
    folder.mkdir()
    (folder / "all.phhs").write_text(phh.write_games(logs), encoding="utf-8")
    db = f"sqlite:///{tmp_path / 'a.db'}"
    runner = CliRunner()
    done = runner.invoke(cli, ["ingest", "--db", db, str(folder)])
    assert done.exit_code == 0, done.output
    shown = runner.invoke(cli, ["archive", "stats", "--db", db, "--game", "holdem", "--by", "player"],
                          env={"COLUMNS": "250"})
    assert shown.exit_code == 0, shown.output
    assert "VPIP" in shown.output and "bb/100 (95%)" in shown.output
    rows = json.loads(runner.invoke(cli, ["archive", "stats", "--db", db, "--game", "holdem", "--json"]).output)
    assert all("figures" in r for r in rows)


def test_a_game_too_large_in_a_streamed_file_is_refused_alone(tmp_path, monkeypatch):
    """A piece that grows past the size limit with no hand start to cut at is refused with its
    line; the hands before and after it are stored."""
    logs = _hands(30, players=3)
    text = phh.write_games(logs)
    lines = text.split("\n")
    starts = [i for i, line in enumerate(lines) if line.startswith("[")]
    # hand 15 gets a long comment block: larger than the limit, with no [n] line inside
    middle = starts[15] + 1
    lines[middle:middle] = ["# " + "x" * 200] * 40
    path = tmp_path / "session.phhs"
    path.write_text("\n".join(lines), encoding="utf-8")
    monkeypatch.setattr(ingest_module, "STREAM_BYTES", 2_000)
    monkeypatch.setattr(ingest_module, "PIECE_BYTES", 500)
    with Archive(f"sqlite:///{tmp_path / 'a.db'}", max_input_bytes=6_000) as archive:
        results = archive.ingest_paths([str(path)])
    statuses = [r.status for r in results]
    assert statuses.count("rejected") == 1 and statuses.count("stored") == 29
    (refused,) = [r for r in results if r.status == "rejected"]
    assert refused.source == f"{path}:{starts[15] + 1}" and "over the limit" in refused.error
