"""Leaderboard ratings (``archive/ratings.py``) on SQLite and PostgreSQL (the ``db_url`` fixture).

The stored tables are checked against a table computed in memory, by the same ``Ledger``,
straight from the logs' outcomes: equal on both backends means the two backends hold the same
table, and equal after several refreshes means the incremental refresh is a full recompute.
"""

from __future__ import annotations

import math

import pytest
from sqlalchemy import delete, func, select, update

from archive import Archive
from archive import ratings
from archive.models import Game, RatingHistory, RatingWatermark
from archive.ratings import Ledger, Seat, wilson
from archive.uploads import Uploads
from replay.games import get

BOTS = ("honest", "bluffer", "random")
CHAMPIONSHIP = 300


def championship_logs(count: int = CHAMPIONSHIP, start: int = 0, **options):
    """Coup between the three bots, the seat order rotating game by game."""
    coup = get("coup")
    logs = []
    for seed in range(start, start + count):
        k = seed % 3
        logs.append(coup.selfplay(seed, bots=BOTS[k:] + BOTS[:k], players=3, **options))
    return logs


@pytest.fixture(scope="module")
def logs():
    return championship_logs()


def seats_of(log) -> list[Seat]:
    outcome = log.replay().outcome()
    winners = set(outcome.winners)
    return [Seat(seat, p.name, p.bot, (seat in winners) if winners else None)
            for seat, p in sorted(log.players.items())]


def in_memory(logs, first_row: int = 1) -> tuple[Ledger, list[dict]]:
    """The table a full recompute gives, rows numbered as a fresh archive numbers them."""
    return ratings.compute((first_row + i, "coup", seats_of(log)) for i, log in enumerate(logs))


def ingest(archive: Archive, logs) -> None:
    data = "\n".join(log.canonical_json() for log in logs).encode()
    results = archive.ingest_bytes(data, "championship.jsonl")
    assert {r.status for r in results} <= {"stored", "stored_with_findings"}, results[:3]


def stored_table(archive: Archive, kind: str = "bot") -> dict[str, tuple]:
    return {r["name"]: (r["mu"], r["sigma"], r["games"], r["wins"], r["rated_games"], r["score"])
            for r in ratings.leaderboard(archive.engine, "coup", kind)}


def memory_table(ledger: Ledger, kind: str = "bot") -> dict[str, tuple]:
    return {name: (r["mu"], r["sigma"], r["games"], r["wins"], r["rated_games"], r["score"])
            for name, r in ((n, ratings.row_json(n, s)) for n, s in ledger.table("coup", kind).items())}


def stored_history(archive: Archive) -> list[tuple]:
    with archive.engine.connect() as conn:
        rows = conn.execute(select(RatingHistory.game_id, RatingHistory.kind, RatingHistory.name,
                                   RatingHistory.mu, RatingHistory.sigma, RatingHistory.ordinal)
                            .order_by(RatingHistory.game_id, RatingHistory.kind, RatingHistory.name)).all()
    return [tuple(r) for r in rows]


def memory_history(history: list[dict]) -> list[tuple]:
    return sorted((h["game_id"], h["kind"], h["name"], h["mu"], h["sigma"], h["ordinal"]) for h in history)


def test_championship_of_300_coup_games(db_url, logs):
    """Ratings rank the bots as their win rates do, equal a full in-memory recompute (so the
    same on SQLite and PostgreSQL) after ingests in three batches, one history row per bot per
    rated game, a score that sums to zero."""
    with Archive(db_url) as archive:
        ingest(archive, logs[:120])
        ingest(archive, logs[120:121])
        ingest(archive, logs[121:])
        ledger, history = in_memory(logs)
        table = stored_table(archive)
        assert table == memory_table(ledger)  # exact floats: the same arithmetic in the same order
        assert stored_table(archive, "player") == memory_table(ledger, "player")
        assert stored_history(archive) == memory_history(history)

        board = ratings.leaderboard(archive.engine, "coup", "bot")
        assert [r["name"] for r in board] == ["honest-1", "bluffer-1", "random-1"]
        by_rate = sorted(board, key=lambda r: r["win_rate"], reverse=True)
        assert [r["name"] for r in by_rate] == [r["name"] for r in board]
        decided = sum(1 for log in logs if log.replay().outcome().winners)
        assert decided == CHAMPIONSHIP  # self-play without interruptions always has a winner
        assert all(r["games"] == CHAMPIONSHIP and r["rated_games"] == CHAMPIONSHIP for r in board)
        assert sum(r["wins"] for r in board) == CHAMPIONSHIP
        assert math.isclose(sum(s.score for s in ledger.table("coup", "bot").values()), 0.0, abs_tol=1e-9)
        assert abs(sum(r["score"] for r in board)) < 1e-3
        # a winner +1, each of the two losers -1/2
        for r in board:
            assert math.isclose(r["score"], r["wins"] - (r["games"] - r["wins"]) / 2, abs_tol=1e-3)
            low, high = r["win_rate_95"]
            assert low < r["win_rate"] < high

        with archive.engine.connect() as conn:
            rows = conn.execute(select(RatingHistory.kind, func.count()).group_by(RatingHistory.kind)).all()
            mark = conn.execute(select(RatingWatermark.last_game_id, RatingWatermark.games)).one()
        assert dict(rows) == {"bot": 3 * CHAMPIONSHIP, "player": 3 * CHAMPIONSHIP}
        assert tuple(mark) == (CHAMPIONSHIP, CHAMPIONSHIP)
        first = ratings.history(archive.engine, "bot", "honest-1")["coup"]
        assert len(first) == CHAMPIONSHIP and first[-1]["rating"] == pytest.approx(board[0]["rating"], abs=1e-4)

        # nothing new: nothing done; a forgotten watermark: a full recompute gives the same
        assert archive.refresh_ratings() == 0
        with archive.engine.begin() as conn:
            conn.execute(delete(RatingWatermark))
        assert archive.refresh_ratings() == CHAMPIONSHIP
        assert stored_table(archive) == table
        assert stored_history(archive) == memory_history(history)


def test_published_and_deleted_games_rerate_from_the_start(db_url):
    """A game that becomes public after later games were rated, or one deleted, changes the set
    of games up to the watermark: the next refresh recomputes, in row id order."""
    logs = championship_logs(24, start=500)
    with Archive(db_url) as archive:
        uploads = Uploads(archive)
        ingest(archive, logs[:8])
        (upload,) = uploads.ingest(logs[8].canonical_json().encode(), "upload.json")
        ingest(archive, logs[9:])
        ledger, _ = ratings.compute((row, "coup", seats_of(log))
                                    for row, log in enumerate(logs, start=1) if log is not logs[8])
        assert stored_table(archive) == memory_table(ledger)

        uploads.publish(upload.token, upload.delete_token)
        assert ratings.refresh(archive.engine, batch=5) == 24  # five batches, the last one short
        ledger, history = in_memory(logs)
        assert stored_table(archive) == memory_table(ledger)
        assert stored_history(archive) == memory_history(history)

        public_id = archive.ids.encode(3)
        assert uploads.delete_game(public_id)
        archive.refresh_ratings()
        ledger, history = ratings.compute((row, "coup", seats_of(log))
                                          for row, log in enumerate(logs, start=1) if row != 3)
        assert stored_table(archive) == memory_table(ledger)
        assert stored_history(archive) == memory_history(history)


def test_a_late_commit_below_the_watermark_is_rated(db_url):
    """A game whose row id is below the watermark when it becomes visible (a concurrent ingest
    committing late) is not skipped: the next refresh recomputes with it in id order."""
    logs = championship_logs(12, start=900)
    with Archive(db_url) as archive:
        ingest(archive, logs)
        with archive.engine.begin() as conn:  # as if game 5 had not been committed yet
            conn.execute(update(Game).where(Game.id == 5).values(listed=False))
            conn.execute(delete(RatingWatermark))
        archive.refresh_ratings()
        with archive.engine.begin() as conn:  # ... and now it is, the watermark already at 12
            conn.execute(update(Game).where(Game.id == 5).values(listed=True))
        assert archive.refresh_ratings() == 12
        ledger, history = in_memory(logs)
        assert stored_table(archive) == memory_table(ledger)
        assert stored_history(archive) == memory_history(history)


def test_games_nobody_won_and_people_without_bots(db_url):
    coup = get("coup")
    interrupted = [coup.selfplay(seed, bots=BOTS, players=3, interrupt_rate=1.0) for seed in (0, 1, 4)]
    assert all(not log.replay().outcome().winners for log in interrupted)
    decided = coup.selfplay(7, bots=BOTS, players=3)
    players = dict(decided.players)
    players["1"] = players["1"].model_copy(update={"bot": None, "name": "Ada <b>"})  # a person
    person = decided.model_copy(update={"players": players})
    with Archive(db_url) as archive:
        ingest(archive, interrupted)
        assert ratings.leaderboard(archive.engine, "coup", "bot") == []
        assert ratings.history(archive.engine, "bot", "honest-1") == {}
        ingest(archive, [person])
        bots = {r["name"]: r for r in ratings.leaderboard(archive.engine, "coup", "bot")}
        people = {r["name"]: r for r in ratings.leaderboard(archive.engine, "coup", "player")}
    assert set(bots) == {"bluffer-1", "random-1"}  # the person's seat has no bot
    assert set(people) == {"Ada <b>", "bluffer-2", "random-3"}
    assert all(r["games"] == 1 and r["rated_games"] == 1 for r in people.values())
    assert math.isclose(sum(r["score"] for r in people.values()), 0.0, abs_tol=1e-9)


# --- the rules, in memory ---------------------------------------------------------------------

def test_bridge_sides_share_the_score_and_tie():
    ledger = Ledger()
    seats = [Seat("N", "n", "alpha-1", True), Seat("S", "s", "beta-1", True),
             Seat("E", "e", "gamma-1", False), Seat("W", "w", "delta-1", False)]
    history = ledger.add_game(1, "floating-bridge", seats)
    table = ledger.table("floating-bridge", "bot")
    assert {n: s.score for n, s in table.items()} == {"alpha-1": 0.5, "beta-1": 0.5, "gamma-1": -0.5,
                                                       "delta-1": -0.5}
    assert table["alpha-1"].mu == table["beta-1"].mu > 25 > table["gamma-1"].mu == table["delta-1"].mu
    assert len(history) == 8  # 4 bots and 4 players


def test_a_bot_in_several_seats_enters_once():
    ledger = Ledger()
    seats = [Seat("1", "a", "same-1", True), Seat("2", "b", "same-1", False), Seat("3", "c", "other-1", False)]
    history = ledger.add_game(1, "coup", seats)
    table = ledger.table("coup", "bot")
    assert table["same-1"].games == 1 and table["same-1"].wins == 1
    assert math.isclose(table["same-1"].score, 1 - 0.5) and math.isclose(table["other-1"].score, -0.5)
    assert [h["name"] for h in history if h["kind"] == "bot"] == ["other-1", "same-1"]
    # only itself (after merging): counted, not rated
    alone = Ledger()
    assert alone.add_game(1, "coup", [Seat("1", "a", "x-1", True), Seat("2", "b", "x-1", False)]) != []
    assert alone.table("coup", "bot")["x-1"].rated == 0 and alone.table("coup", "bot")["x-1"].games == 1


def test_nobody_won_changes_nothing():
    ledger = Ledger()
    assert ledger.add_game(1, "uno-lite", [Seat("1", "a", "x-1", None), Seat("2", "b", "y-1", None)]) == []
    assert ledger.standings == {}


def test_wilson_interval():
    assert wilson(0, 0) is None
    low, high = wilson(0, 10)
    assert low == 0.0 and 0.27 < high < 0.28
    low, high = wilson(239, 300)
    assert 0.74 < low < 0.75 and 0.83 < high < 0.84


def test_concurrent_refreshes_rate_each_game_once(db_url):
    """Two refreshes at once (two web workers) serialise on the watermark row: the tables come
    out as one full recompute, with no game rated twice."""
    import threading

    logs = championship_logs(40, start=1200)
    with Archive(db_url) as archive:
        ingest(archive, logs)
        with archive.engine.begin() as conn:
            conn.execute(delete(RatingWatermark))  # the next refreshes start from empty
        errors: list[BaseException] = []
        start = threading.Barrier(2)

        def run():
            try:
                start.wait()
                ratings.refresh(archive.engine, batch=3)
            except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
                errors.append(exc)

        threads = [threading.Thread(target=run) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert errors == []
        ledger, history = in_memory(logs)
        assert stored_table(archive) == memory_table(ledger)
        assert stored_history(archive) == memory_history(history)


# --- the update itself, against the library ---------------------------------------------------

from hypothesis import given, settings, strategies as st  # noqa: E402

_RATING = st.tuples(st.floats(-50, 100, allow_nan=False), st.floats(0.001, 20, allow_nan=False))


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(_RATING, st.booleans()), min_size=2, max_size=8)
       .filter(lambda seats: len({won for _, won in seats}) == 2))
def test_rate_places_is_openskills_plackett_luce_to_the_last_bit(seats):
    """``rate_places`` (the refresh's own update) gives exactly what ``openskill``'s
    ``PlackettLuce().rate`` gives for one-member teams tied in two places."""
    mine = ratings.rate_places([r for r, _ in seats], [won for _, won in seats])
    teams = [[ratings.MODEL.rating(mu=mu, sigma=sigma)] for (mu, sigma), _ in seats]
    theirs = ratings.MODEL.rate(teams, ranks=[1 if won else 2 for _, won in seats])
    assert mine == [(float(t[0].mu), float(t[0].sigma)) for t in theirs]
