"""Analyses kept by the archive (``archive/analyses.py``), on SQLite and PostgreSQL.

A game is solved once: the second request, the same game read from its replay code, and
``archive analyse`` after a page asked all use the stored analysis. The solver calls are
counted through the game module's real ``analyse`` hook (wrapped, still solving), not by
mocking the store. The stats are checked against the analyses worked out directly.
"""

from __future__ import annotations

import json
from collections import defaultdict
from datetime import datetime, timedelta, timezone

import pytest

from replay.games.floating_bridge.bots import play_game
from replay.codec import decode, encode
from replay.games.floating_bridge import FloatingBridge
from replay.games.floating_bridge.analysis import analyse

SEEDS = (13, 7, 11)  # quick to solve


@pytest.fixture
def solver_calls(monkeypatch):
    """How many times the bridge module's analysis hook really ran."""
    calls = []
    real = FloatingBridge.analyse

    def counted(self, replay):
        calls.append(replay.log.game_id)
        return real(self, replay)

    monkeypatch.setattr(FloatingBridge, "analyse", counted)
    return calls


def ingest(archive, seeds=SEEDS, **kw):
    ids = {}
    for seed in seeds:
        log = play_game(seed)
        [result] = archive.ingest_bytes(log.canonical_json(indent=1).encode(), f"g{seed}.json", **kw)
        ids[seed] = result.public_id
    return ids


def test_a_game_is_solved_once_and_shared_with_its_code(archive, solver_calls):
    ids = ingest(archive, seeds=(7,))
    game = archive.get(ids[7])
    first = archive.analysis(game.log, public_id=ids[7])
    assert len(solver_calls) == 1
    second = archive.analysis(archive.get(ids[7]).log, public_id=ids[7])
    assert second == first and len(solver_calls) == 1
    # the same game read from its replay code (no names, times nor trick announcements)
    from_code = archive.analysis(decode(encode(game.log)))
    assert from_code == first and len(solver_calls) == 1
    # what is kept is the analysis itself, with steps for the events
    expected = analyse(game.replay(), values=True)
    assert [c["card"] for c in first["cards"]] == [str(c.card) for c in expected.cards]
    replay = game.replay()
    assert [c["step"] for c in first["cards"]] == [replay.event_steps[c.event] for c in expected.cards]
    assert all(set(c["values"]) >= set(c["best"]) for c in first["cards"])
    # nothing was analysed at ingest
    ingest(archive, seeds=(8,))
    assert len(solver_calls) == 1


def test_another_analyser_version_is_solved_again(archive, solver_calls, monkeypatch):
    ids = ingest(archive, seeds=(13,))
    log = archive.get(ids[13]).log
    archive.analysis(log, public_id=ids[13])
    monkeypatch.setattr(FloatingBridge, "analysis_version", property(lambda self: "test-2"))
    assert archive.analyses.pending() == 1  # the stored one is of another version
    archive.analysis(log)
    assert len(solver_calls) == 2
    assert archive.analyses.pending() == 0  # the game stays linked to its (new) analysis
    archive.analysis(log)
    assert len(solver_calls) == 2


def test_archive_analyse_fills_what_pages_did_not(archive, solver_calls):
    ids = ingest(archive)
    archive.analysis(archive.get(ids[13]).log, public_id=ids[13])  # a page asked for this one
    assert archive.analyses.pending() == 2
    seen = []
    counts = archive.analyse_pending(limit=1, progress=lambda done, total, row, error: seen.append((done, total, error)))
    assert counts == {"analysed": 1, "shared": 0, "failed": 0, "skipped": 0, "left": 1}
    assert seen == [(1, 1, None)]
    counts = archive.analyse_pending()
    assert counts == {"analysed": 1, "shared": 0, "failed": 0, "skipped": 0, "left": 0}
    assert len(solver_calls) == 3
    assert archive.analyse_pending() == {"analysed": 0, "shared": 0, "failed": 0, "skipped": 0, "left": 0}
    assert len(solver_calls) == 3


def test_a_copy_already_analysed_from_its_code_is_shared(archive, solver_calls):
    log = play_game(11)
    archive.analysis(decode(encode(log)))  # opened from its code before it was archived
    ingest(archive, seeds=(11,))
    assert archive.analyse_pending() == {"analysed": 0, "shared": 1, "failed": 0, "skipped": 0, "left": 0}
    assert len(solver_calls) == 1


def expected_stats(logs, by):
    """Per player or bot, worked out from the analyses directly: games, mistakes, tricks lost."""
    out = defaultdict(lambda: {"games": set(), "mistakes": 0, "lost": 0, "cards": 0})
    for n, log in enumerate(logs):
        result = analyse(log.replay())
        for seat, player in log.players.items():
            key = player.name if by == "player" else player.bot
            entry = out[key]
            entry["games"].add(n)
            for c in result.cards:
                if c.seat.name == getattr(seat, "name", seat):
                    entry["cards"] += 1
                    entry["mistakes"] += c.loss > 0
                    entry["lost"] += c.loss
    return {k: {"analysed_games": len(v["games"]), "cards": v["cards"], "mistakes": v["mistakes"],
                "lost": v["lost"], "lost_per_game": round(v["lost"] / len(v["games"]), 3)}
            for k, v in out.items()}


def test_stats_of_a_small_archive_of_known_games(archive):
    logs = [play_game(seed) for seed in SEEDS]
    ingest(archive)
    assert archive.analysis_stats("player") == {}  # nothing analysed yet: nothing counted
    archive.analyse_pending()
    for by in ("player", "bot"):
        assert archive.analysis_stats(by) == expected_stats(logs, by)
    lost = archive.analysis_stats("bot")["greedy-1"]
    assert lost["analysed_games"] == 3 and lost["lost"] > 0  # the greedy bot does throw tricks away
    # names narrow it; listed_only leaves out unlisted uploads
    some = sorted(expected_stats(logs, "player"))[:2]
    assert set(archive.analysis_stats("player", names=some)) == set(some)
    hidden = play_game(14)
    [result] = archive.ingest_bytes(hidden.canonical_json().encode(), "hidden.json", listed=False)
    archive.analyse_pending()
    everyone = archive.analysis_stats("bot")["greedy-1"]["analysed_games"]
    listed = archive.analysis_stats("bot", listed_only=True)["greedy-1"]["analysed_games"]
    assert (everyone, listed) == (4, 3)


def test_deleting_a_game_drops_it_and_its_analysis(archive):
    ids = ingest(archive)
    archive.analyse_pending()
    row = archive.ids.decode(ids[13])
    assert archive.admin.delete_row(row, uploads_only=False)
    assert archive.analysis_stats("bot")["greedy-1"]["analysed_games"] == 2
    # its analysis holds its cards: it goes with it; the others stay
    from sqlalchemy import func, select

    from archive.models import AnalysisSeat, StoredAnalysis

    with archive.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(StoredAnalysis)).scalar_one() == 2
        assert conn.execute(select(func.count(AnalysisSeat.key.distinct()))).scalar_one() == 2


def test_cli_analyse_and_stats(cli_runner, db_url, monkeypatch):
    from archive import Archive

    with Archive(db_url) as archive:
        ingest(archive)
    code, out, err = cli_runner("archive", "analyse", "--db", db_url, "--limit", "2", "--json")
    assert code == 0, err
    assert json.loads(out) == {"analysed": 2, "shared": 0, "failed": 0, "skipped": 0, "left": 1, "errors": []}
    code, out, err = cli_runner("archive", "analyse", "--db", db_url)
    assert code == 0 and "analysed 1 game" in out and "0 left" in out
    code, out, err = cli_runner("archive", "stats", "--by", "bot", "--db", db_url, "--json")
    [row] = json.loads(out)
    assert row["bot"] == "greedy-1" and "analysed_games" not in row  # every game's columns only
    code, out, err = cli_runner("archive", "stats", "--by", "bot", "--db", db_url, "--json", "--game", "floating-bridge")
    [row] = json.loads(out)
    assert row["name"] == "greedy-1" and row["analysed_games"] == 3
    assert row["lost"] == sum(v["lost"] for v in expected_stats([play_game(s) for s in SEEDS], "bot").values())
    code, out, err = cli_runner("archive", "stats", "--by", "bot", "--db", db_url, "--game", "floating-bridge")
    assert code == 0 and "greedy-1" in out and "mistakes" in out
    code, out, err = cli_runner("archive", "analyse", "--db", db_url, "--limit", "0")
    assert code == 2 and "--limit" in err


# --- review fixes: storing, linking, failures, many names -------------------------------------

def _key_of(log):
    from archive.analyses import analyser, analysis_key

    return analysis_key(log, analyser("floating-bridge").action_events)


def _rows(archive, model):
    from sqlalchemy import select

    with archive.engine.connect() as conn:
        return conn.execute(select(model)).all()


def test_a_current_analysis_is_never_rewritten_and_its_links_stay(archive, solver_calls):
    from archive.models import AnalysisSeat, GameAnalysisLink

    ids = ingest(archive, seeds=(7,))
    log = archive.get(ids[7]).log
    first = archive.analysis(log, public_id=ids[7])
    links, seats = _rows(archive, GameAnalysisLink), _rows(archive, AnalysisSeat)
    assert len(links) == 1 and seats
    # a second solver (another request, another process) stores its answer late: the first stands
    version = archive.analyses.version(log)
    assert archive.analyses._store(_key_of(log), "floating-bridge", version, {"cards": []}) is False
    assert archive.analysis(log) == first and len(solver_calls) == 1
    assert _rows(archive, GameAnalysisLink) == links and _rows(archive, AnalysisSeat) == seats


def test_an_analysis_is_kept_even_when_its_game_was_deleted_meanwhile(archive, solver_calls):
    from archive.models import GameAnalysisLink

    log = play_game(13)
    # the game row this request would link is gone (deleted while the solver ran): a foreign
    # key failure on the link must not cost the analysis itself
    found = archive.analyses.get(log, game_row_id=987654)
    assert found["cards"] and archive.analyses.stored(log)
    assert _rows(archive, GameAnalysisLink) == []
    assert archive.analyses.get(log, game_row_id=987654) == found and len(solver_calls) == 1


def test_reading_a_linked_analysis_begins_no_write_transaction(archive):
    from sqlalchemy import event

    ids = ingest(archive, seeds=(7,))
    log = archive.get(ids[7]).log
    archive.analysis(log, public_id=ids[7])
    writes = []

    def begun(conn):
        writes.append(bool(conn.get_execution_options().get("write")))

    event.listen(archive.engine, "begin", begun)
    try:
        for _ in range(3):
            assert archive.analysis(log, public_id=ids[7])["cards"]
    finally:
        event.remove(archive.engine, "begin", begun)
    assert writes and not any(writes)  # read transactions only (SQLite: no BEGIN IMMEDIATE)


def test_one_bad_game_does_not_stop_archive_analyse(archive, monkeypatch, cli_runner, db_url):
    from replay.errors import ReplayError

    ids = ingest(archive)
    bad_id = play_game(7).game_id
    real = FloatingBridge.analyse

    def analyse_or_fail(self, replay):
        if replay.log.game_id == bad_id:
            raise ReplayError("this game no longer judges")  # not a ValueError
        return real(self, replay)

    monkeypatch.setattr(FloatingBridge, "analyse", analyse_or_fail)
    errors = []
    counts = archive.analyse_pending(progress=lambda done, total, row, error: error and errors.append((row, error)))
    assert counts == {"analysed": 2, "shared": 0, "failed": 1, "skipped": 0, "left": 1}
    assert errors == [(str(archive.ids.decode(ids[7])), "ReplayError: this game no longer judges")]
    # the command goes on past it too, and lists it after the run
    code, out, err = cli_runner("archive", "analyse", "--db", db_url)
    assert code == 0, err
    assert "1 failed" in out and "1 game could not be analysed" in err and "no longer judges" in err


def test_stats_for_more_names_than_bind_parameters(archive):
    ingest(archive)
    archive.analyse_pending()
    everyone = archive.analysis_stats("player")
    some = sorted(everyone)[:3]
    # past psycopg's 65,535 bind parameters and this SQLite's own limit (32,766 by default;
    # Debian builds it with 250,000)
    import sqlite3

    limit = sqlite3.connect(":memory:").getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER)
    names = some + [f"nobody-{i}" for i in range(max(70_000, limit + 1))]
    assert archive.analysis_stats("player", names=names) == {n: everyone[n] for n in some}
    assert archive.analysis_stats("player", names=some) == {n: everyone[n] for n in some}


def test_dropping_the_analyses_no_archived_game_links_to(archive, cli_runner, db_url):
    from sqlalchemy import update

    from archive.models import AnalysisSeat, StoredAnalysis

    ids = ingest(archive, seeds=(7,))
    archive.analysis(archive.get(ids[7]).log, public_id=ids[7])  # linked to its archived game
    code_only = play_game(13)
    archive.analysis(decode(encode(code_only)))  # opened only from its code: linked to nothing
    assert len(_rows(archive, StoredAnalysis)) == 2
    assert archive.analyses.drop_unlinked(30) == 0  # both are new
    with archive.engine.begin() as conn:  # make them old
        conn.execute(update(StoredAnalysis).values(created_at=datetime.now(timezone.utc).replace(tzinfo=None)
                                                   - timedelta(days=31)))
    code, out, err = cli_runner("archive", "drop-unlinked-analyses", "--db", db_url)
    assert code == 0, err
    assert "dropped 1 analysis no archived game links to" in out
    [kept] = _rows(archive, StoredAnalysis)
    assert kept.key == _key_of(archive.get(ids[7]).log)
    assert {s.key for s in _rows(archive, AnalysisSeat)} == {kept.key}
    assert not archive.analyses.stored(code_only) and archive.analyses.stored(archive.get(ids[7]).log)
    code, out, err = cli_runner("archive", "drop-unlinked-analyses", "--db", db_url, "--older-than", "-1")
    assert code == 2 and "--older-than" in err
