"""``game-replay championship`` (archive/championship.py): the rotation seats every bot in every
seat, a run resumes after a kill without losing or repeating a table, Ctrl-C stops cleanly, a
folder holds one championship, bad parameters write nothing, and the printed leaderboard is
``replay.duplicate.leaderboard``'s."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from archive.championship import MANIFEST, make_plan, parse_table_file, table_file
from archive.records import bot_base
from archive.store import Archive
from replay.clitools import plural
from replay.duplicate import Table, leaderboard, rotation
from replay.games import get, names
from replay.log import read_path
from viewer.cli import cli

ROOT = Path(__file__).resolve().parents[2]
#: fast games a real run may use, the first one with deals is taken
FAST = ("uno-lite", "coup")


def fast_game() -> str:
    for name in FAST:
        if get(name).has_deals:
            return name
    pytest.skip("no fast game has deals yet")


def two_bots(game: str) -> list[str]:
    return list(get(game).bots)[:2]


def covers(tables: list[tuple[str, ...]], seats: int, bots: list[str]) -> bool:
    """Every bot sits in every seat at some table, and every table has every seat."""
    return (all(len(t) == seats for t in tables)
            and {(i, b) for t in tables for i, b in enumerate(t)} == {(i, b) for i in range(seats) for b in bots})


@pytest.mark.parametrize("k", range(1, 7))
@pytest.mark.parametrize("seats", range(1, 11))
def test_rotation_covers_every_bot_in_every_seat(k, seats):
    bots = [f"bot{i}" for i in range(k)]
    tables = rotation(seats, bots)
    assert len(tables) == max(seats, k)
    assert covers(tables, seats, bots)


def test_the_check_can_fail():
    assert not covers([("a", "b"), ("a", "b")], 2, ["a", "b"])
    assert not covers([("a",)], 2, ["a"])


@pytest.mark.parametrize("game", names())
def test_each_games_tables_cover_every_seat(game):
    """For 1..6 bots and each seat count the game plays (``--players`` where it varies)."""
    module = get(game)
    available = list(module.bots) or ["bot"]
    low, high = module.player_counts
    for k in range(1, 7):
        bots = [available[i % len(available)] + (f"#{i}" if i >= len(available) else "") for i in range(k)]
        for options in ([{}] if low is None else [{"players": p} for p in range(low, high + 1)]):
            try:
                seats = module.table_seats(bots, **options)
            except (ValueError, TypeError):
                continue
            assert seats >= 1
            assert covers(rotation(seats, bots), seats, bots), (game, k, options)


def run_cli(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def logs_of(folder: Path) -> dict[tuple[int, int], object]:
    found = {}
    for path in folder.iterdir():
        where = parse_table_file(path.name)
        if where is not None:
            entries = read_path(str(path))
            assert len(entries) == 1 and entries[0].ok, path
            found[where] = entries[0].log
    return found


def test_a_real_run_seats_every_bot_in_every_seat(tmp_path):
    game = fast_game()
    module = get(game)
    bots = list(module.bots)[:3]
    result = run_cli("championship", "--game", game, "--bots", ",".join(bots), "--deals", "2",
                     "--out", str(tmp_path / "run"), "--db", f"sqlite:///{tmp_path / 'a.db'}")
    assert result.exit_code == 0, result.output
    plan = make_plan(game, bots, 2)
    logs = logs_of(tmp_path / "run")
    assert set(logs) == {(d, r) for d, r, _ in plan.all_tables()}
    for deal in (1, 2):
        sat = set()
        for (d, r), log in logs.items():
            if d != deal:
                continue
            seats = [str(s) for s in module.seat_order(log)]
            players = {str(k): v for k, v in log.players.items()}
            assert len(seats) == plan.seats
            for i, seat in enumerate(seats):
                player = players[seat]
                assert bot_base(player.bot) == plan.tables[r][i]
                sat.add((i, bot_base(player.bot)))
        assert sat == {(i, b) for i in range(plan.seats) for b in bots}
        keys = {module.deal_key(log) for (d, _), log in logs.items() if d == deal}
        assert len(keys) == 1 and None not in keys


# -- resume, kill and Ctrl-C (the real command, in a process of its own) -------------------------

def command(game: str, deals: int, folder: Path, db: Path) -> list[str]:
    return [sys.executable, "-m", "viewer.cli", "championship", "--game", game, "--bots", ",".join(two_bots(game)),
            "--deals", str(deals), "--out", str(folder), "--db", f"sqlite:///{db}"]


def env() -> dict[str, str]:
    e = {k: v for k, v in os.environ.items() if not k.startswith("GAME_REPLAY_")}
    e.update(PYTHONPATH=str(ROOT), COLUMNS="120", NO_COLOR="1", TERM="dumb")
    return e


def _as_at_a_terminal() -> None:
    """In the child, before it runs: Ctrl-C's default action, as a command typed at a terminal has
    it. A test run started in the background by a shell without job control (``cmd &``: CI) has
    SIGINT ignored, which every child would inherit, and Python then never raises
    KeyboardInterrupt."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start_and_wait(args: list[str], folder: Path, tables: int) -> subprocess.Popen:
    """Start the command and return once ``tables`` table logs are saved (the process running)."""
    process = subprocess.Popen(args, env=env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               preexec_fn=_as_at_a_terminal)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if folder.is_dir() and sum(parse_table_file(p.name) is not None for p in folder.iterdir()) >= tables:
            return process
        if process.poll() is not None:
            out, err = process.communicate()
            pytest.fail(f"the run ended before {tables} tables: {process.returncode}\n{out}\n{err}")
        time.sleep(0.01)
    process.kill()
    pytest.fail("no tables saved in time")


def snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    return {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in folder.iterdir()
            if parse_table_file(p.name) is not None}


def test_resume_after_a_kill_loses_no_table_and_repeats_none(tmp_path):
    game = fast_game()
    folder, db = tmp_path / "run", tmp_path / "archive.db"
    deals = 40
    plan = make_plan(game, two_bots(game), deals)
    process = start_and_wait(command(game, deals, folder, db), folder, 3)
    process.send_signal(signal.SIGKILL)
    process.communicate()
    assert process.returncode == -signal.SIGKILL
    before = snapshot(folder)
    assert 3 <= len(before) < plan.total, "the kill came too late to test a resume"
    time.sleep(0.02)  # a rewritten file would show a later time
    done = subprocess.run(command(game, deals, folder, db), env=env(), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    after = snapshot(folder)
    expected = {table_file(d, r) for d, r, _ in plan.all_tables()}
    assert set(after) == expected
    assert sorted(p.name for p in folder.iterdir()) == sorted(expected | {MANIFEST}), "stray files (temporary?)"
    for name, kept in before.items():
        assert after[name] == kept, f"{name} was written again"
    assert f"{plural(plan.total - len(before), 'table')} played now" in done.stdout
    with Archive(f"sqlite:///{db}") as archive:
        assert archive.count() == plan.total
        ids = [g.game_id for g in archive.list(limit=plan.total + 10).items]
    assert len(ids) == plan.total and len(set(ids)) == plan.total
    # a third run plays nothing and stores nothing
    again = subprocess.run(command(game, deals, folder, db), env=env(), capture_output=True, text=True, timeout=300)
    assert again.returncode == 0 and "0 tables played now" in again.stdout
    assert f"stored 0, already there {plan.total}" in again.stdout
    assert snapshot(folder) == after


def test_ctrl_c_stops_cleanly(tmp_path):
    game = fast_game()
    folder, db = tmp_path / "run", tmp_path / "archive.db"
    deals = 40
    plan = make_plan(game, two_bots(game), deals)
    process = start_and_wait(command(game, deals, folder, db), folder, 2)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, (out, err)
    assert "Traceback" not in err and "Traceback" not in out
    saved = snapshot(folder)
    assert f"stopped: {len(saved)} of {plan.total} tables played; run the same command again to go on" in err
    assert not [p for p in folder.iterdir() if p.name.startswith(".")], "a temporary file was left"
    for name, (data, _) in saved.items():
        json.loads(data)  # every saved file is whole
    done = subprocess.run(command(game, deals, folder, db), env=env(), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert len(snapshot(folder)) == plan.total


# -- one folder, one championship; bad parameters write nothing ----------------------------------

def test_other_parameters_in_a_used_folder_are_refused(tmp_path):
    game = fast_game()
    folder, db = tmp_path / "run", f"sqlite:///{tmp_path / 'a.db'}"
    bots = ",".join(two_bots(game))
    first = run_cli("championship", "--game", game, "--bots", bots, "--deals", "2", "--out", str(folder), "--db", db)
    assert first.exit_code == 0, first.output
    files = snapshot(folder)
    manifest = (folder / MANIFEST).read_bytes()
    for change in (["--deals", "3"], ["--first-deal", "5"], ["--bots", ",".join(reversed(two_bots(game)))]):
        args = {"--deals": "2", "--bots": bots, **dict(zip(change[::2], change[1::2]))}
        result = run_cli("championship", "--game", game, "--out", str(folder), "--db", db,
                         *[x for kv in args.items() for x in kv])
        assert result.exit_code == 2, (change, result.output)
        assert "holds another championship" in result.output
        assert snapshot(folder) == files and (folder / MANIFEST).read_bytes() == manifest


def test_a_folder_of_logs_without_manifest_is_refused(tmp_path):
    game = fast_game()
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / table_file(1, 0)).write_text("{}")
    result = run_cli("championship", "--game", game, "--bots", ",".join(two_bots(game)), "--deals", "1",
                     "--out", str(folder), "--db", f"sqlite:///{tmp_path / 'a.db'}")
    assert result.exit_code == 2 and "no championship.manifest" in result.output
    assert sorted(p.name for p in folder.iterdir()) == [table_file(1, 0)]


def bad_runs(tmp_path):
    game = fast_game()
    bots = ",".join(two_bots(game))
    yield ["--game", "chess", "--bots", bots, "--deals", "2"], "'chess' is not a known game"
    yield ["--game", game, "--bots", "nobody", "--deals", "2"], "'nobody': not a"
    yield ["--game", game, "--bots", bots, "--deals", "0"], "--deals must be at least 1"
    yield ["--game", game, "--bots", f"{bots},{two_bots(game)[0]}", "--deals", "1"], "named twice"
    yield ["--game", game, "--bots", bots, "--deals", "1", "--players", "11"], "seats"
    without = [n for n in names() if not get(n).has_deals]
    if without:
        yield ["--game", without[0], "--bots", "random", "--deals", "2"], "has no duplicate deals"


def test_bad_parameters_are_clear_errors_and_write_nothing(tmp_path):
    for args, message in bad_runs(tmp_path):
        folder, db = tmp_path / "out", tmp_path / "a.db"
        result = run_cli("championship", *args, "--out", str(folder), "--db", f"sqlite:///{db}")
        assert result.exit_code == 2, (args, result.output)
        assert message in result.output and "Traceback" not in result.output, (args, result.output)
        assert not folder.exists() and not db.exists(), args


# -- the leaderboard -------------------------------------------------------------------------------

def tables_from_logs(game: str, folder: Path) -> list[Table]:
    """The tables as anyone would build them from the saved logs alone (in deal, table order),
    grouped by deal key and deal number."""
    module = get(game)
    tables = []
    for (deal, r), log in sorted(logs_of(folder).items()):
        seats = [str(s) for s in module.seat_order(log)]
        players = {str(k): v for k, v in log.players.items()}
        bots = {s: bot_base(players[s].bot) for s in seats}
        tables.append(Table(f"{module.deal_key(log)}/{deal}", bots, dict(module.deal_scores(module.judge(log)))))
    return tables


def test_the_printed_leaderboard_is_replay_duplicates(tmp_path):
    game = fast_game()
    folder, db = tmp_path / "run", f"sqlite:///{tmp_path / 'a.db'}"
    args = ["championship", "--game", game, "--bots", ",".join(two_bots(game)), "--deals", "6", "--out", str(folder),
            "--db", db]
    text = run_cli(*args)
    assert text.exit_code == 0, text.output
    board = leaderboard(tables_from_logs(game, folder), unit=get(game).deal_unit or "points")
    assert board.deals == 6 and board.duplicated_deals == 6
    as_json = json.loads(run_cli(*args, "--json").output)
    printed = as_json["leaderboard"]
    win_rates = {}
    for standing in printed["standings"]:
        win_rates[standing["bot"]] = standing.pop("win_rate")
    assert printed == json.loads(json.dumps(board.to_json()))
    assert f"{board.deals} deals, {board.tables} tables" in text.output
    rows = [line for line in text.output.splitlines() if line.startswith("│")]
    assert len(rows) == len(board.standings)
    for row, s in zip(rows, board.standings):
        cells = [c.strip() for c in row.strip("│").split("│")]
        assert cells[0] == s.bot and cells[1] == str(s.tables)
        assert cells[2] == s.plain.text() and cells[4] == s.duplicate.text(signed=True)
        rate = win_rates[s.bot]  # Wilson's interval, shown as a range
        assert 0 <= rate["low"] <= rate["mean"] <= rate["high"] <= 1
        assert cells[3] == f"{100 * rate['mean']:.1f}% ({100 * rate['low']:.1f}-{100 * rate['high']:.1f}%)"


def test_keys_shared_by_deal_numbers_and_deals_split_across_keys_are_told():
    from archive.championship import TableResult, rank

    game = fast_game()
    plan = make_plan(game, two_bots(game), 3)
    a, b = two_bots(game)

    def result(deal: int, key: str, first: str, second: str) -> TableResult:
        return TableResult(deal, Table(key, {"x": first, "y": second}, {"x": 1.0, "y": -1.0}), {first: 1.0, second: 0.0})

    results = [result(1, "k1", a, b), result(1, "k1", b, a), result(2, "k1", a, b), result(2, "k1", b, a),
               result(3, "k3", a, b), result(3, "k4", b, a)]
    champ = rank(plan, results)
    assert champ.merged_keys == 1 and champ.split_deals == [3]
    # deals 1 and 2 share key k1 but stay two deals; deal 3's tables, split over two keys, are two
    assert champ.board.deals == 4 and champ.board.duplicated_deals == 2 and champ.board.tables == 6
    assert champ.win_rates[a].mean == 0.5


# -- review of issue 29: stray files, corrupt manifests, huge plans, loose names, win rates ------

def other_game(game: str) -> str:
    """Another game with deals (its logs must be refused in ``game``'s folder)."""
    for name in names():
        if name != game and get(name).has_deals and name in FAST + ("party-cards",):
            return name
    pytest.skip("no second fast game with deals")


def archive_count(db: Path) -> int:
    with Archive(f"sqlite:///{db}") as archive:
        return archive.count()


def championship(game: str, folder: Path, db: Path, deals: int = 1, bots: list[str] | None = None):
    return run_cli("championship", "--game", game, "--bots", ",".join(bots or two_bots(game)), "--deals", str(deals),
                   "--out", str(folder), "--db", f"sqlite:///{db}")


@pytest.mark.parametrize("stray", ["another game", "another table", "other bots", "not a log"])
def test_a_saved_file_that_is_not_its_table_is_refused_before_anything_is_ingested(tmp_path, stray):
    game = fast_game()
    folder = tmp_path / "run"
    assert championship(game, folder, tmp_path / "first.db", deals=2).exit_code == 0
    target = folder / table_file(2, 1)
    if stray == "another game":
        other = other_game(game)
        assert championship(other, tmp_path / "other", tmp_path / "other.db").exit_code == 0
        target.write_bytes((tmp_path / "other" / table_file(1, 0)).read_bytes())
    elif stray == "another table":  # the same game's log, saved under another table's name
        target.write_bytes((folder / table_file(1, 1)).read_bytes())
    elif stray == "other bots":  # deal 2 table 1 as a championship of other bots played it
        others = list(reversed(two_bots(game)))  # the rotation of b,a seats table 1 otherwise
        assert make_plan(game, others, 2).tables[1] != make_plan(game, two_bots(game), 2).tables[1]
        assert championship(game, tmp_path / "o", tmp_path / "o.db", deals=2, bots=others).exit_code == 0
        target.write_bytes((tmp_path / "o" / table_file(2, 1)).read_bytes())
    else:
        target.write_text("{}")
    result = championship(game, folder, tmp_path / "second.db", deals=2)
    assert result.exit_code == 2, result.output
    assert str(target) in result.output and "remove it" in result.output and "Traceback" not in result.output
    assert archive_count(tmp_path / "second.db") == 0  # nothing ingested, from that file or any other
    target.unlink()  # as the message says: the table is played again
    again = championship(game, folder, tmp_path / "second.db", deals=2)
    assert again.exit_code == 0 and "1 table played now" in again.output, again.output


def test_a_manifest_that_is_not_utf8_is_a_clear_error(tmp_path):
    game = fast_game()
    folder = tmp_path / "m1"
    folder.mkdir()
    (folder / MANIFEST).write_bytes(b"\xff\xfe{")
    result = championship(game, folder, tmp_path / "a.db")
    assert result.exit_code == 2 and "not UTF-8" in result.output, result.output
    assert sorted(p.name for p in folder.iterdir()) == [MANIFEST]


@pytest.mark.parametrize("entry,value", [("bots", "A,B"), ("deals", "2"), ("players", "x"), ("game", 3),
                                         ("first_deal", True)])
def test_a_malformed_manifest_is_refused_clearly(tmp_path, entry, value):
    game = fast_game()
    folder = tmp_path / "run"
    assert championship(game, folder, tmp_path / "a.db").exit_code == 0
    manifest = json.loads((folder / MANIFEST).read_text())
    manifest[entry] = ",".join(two_bots(game)) if value == "A,B" else value
    (folder / MANIFEST).write_text(json.dumps(manifest))
    result = championship(game, folder, tmp_path / "a.db")
    assert result.exit_code == 2, result.output
    assert "malformed championship manifest" in result.output and entry in result.output, result.output


def test_too_many_tables_are_refused_before_anything_is_written(tmp_path):
    from archive.championship import MAX_TABLES

    game = fast_game()
    per_deal = len(make_plan(game, two_bots(game), 1).tables)
    for deals, message in ((1_000_000_000, "too many"), (MAX_TABLES // per_deal + 1, "at most")):
        folder, db = tmp_path / "out", tmp_path / "a.db"
        result = championship(game, folder, db, deals=deals)
        assert result.exit_code == 2 and message in result.output, result.output
        assert not folder.exists() and not db.exists()
    assert f"at most {MAX_TABLES:,} tables" in " ".join(run_cli("championship", "--help").output.split())
    # the largest plan is laid out lazily: its tables are counted and tested arithmetically
    plan = make_plan(game, two_bots(game), MAX_TABLES // per_deal)
    assert plan.total <= MAX_TABLES and plan.has(plan.deals, per_deal - 1) and not plan.has(plan.deals + 1, 0)
    assert not plan.has(1, per_deal) and not plan.has(0, 0)
    assert next(iter(plan.all_tables()))[:2] == (1, 0)


def test_an_empty_out_is_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    game = fast_game()
    result = run_cli("championship", "--game", game, "--bots", ",".join(two_bots(game)), "--deals", "1",
                     "--out", "", "--db", f"sqlite:///{tmp_path / 'a.db'}")
    assert result.exit_code == 2 and "--out names no folder" in result.output, result.output
    assert list(tmp_path.iterdir()) == []


def test_a_file_named_without_zero_padding_is_not_a_saved_table(tmp_path):
    from archive.championship import saved_tables

    game = fast_game()
    folder = tmp_path / "run"
    assert championship(game, folder, tmp_path / "a.db").exit_code == 0
    plan = make_plan(game, two_bots(game), 1)
    (folder / table_file(1, 0)).rename(folder / "deal-1-table-0.json")
    assert parse_table_file("deal-1-table-0.json") is None
    assert saved_tables(folder, plan) == {(1, r) for r in range(1, len(plan.tables))}
    again = championship(game, folder, tmp_path / "a.db")
    assert again.exit_code == 0 and "1 table played now" in again.output, again.output
    assert (folder / table_file(1, 0)).is_file()


def test_the_win_rate_interval_is_wilsons():
    from archive.championship import TableResult, WinRate, rank
    from archive.ratings import wilson

    game = fast_game()
    a, b = two_bots(game)
    plan = make_plan(game, [a, b], 3)
    results = [TableResult(d, Table(f"k{d}", {"x": first, "y": second}, {"x": 1.0, "y": -1.0}),
                           {first: 1.0, second: 0.0}) for d in (1, 2, 3) for first, second in ((a, b), (a, b))]
    champ = rank(plan, results)
    never, always = champ.win_rates[b], champ.win_rates[a]
    assert (never.mean, never.n) == (0.0, 6) and (never.low, never.high) == wilson(0, 6) and never.high > 0.3
    assert (always.low, always.high) == wilson(6, 6) and always.low < 0.7 and always.high == 1.0
    assert never.text() == f"0.0% (0.0-{100 * wilson(0, 6)[1]:.1f}%)"
    half = WinRate.of([1.0, 0.0])
    assert 0.0 <= half.low < 0.5 < half.high <= 1.0  # the normal approximation gave 50.0% ± 69.3%
    standing = champ.to_json()["leaderboard"]["standings"][0]
    assert set(standing["win_rate"]) >= {"mean", "low", "high", "n"}
