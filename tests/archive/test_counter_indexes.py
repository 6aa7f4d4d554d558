"""Revision 0010: on PostgreSQL the counters' indexes by games and by key_lc hold no tag counters,
and the leaderboards still read them; up and down on both backends."""

from __future__ import annotations

import re

import pytest
from sqlalchemy import event, inspect, text

from archive import Archive
from replay.games.floating_bridge.bots import play_game

from .test_scale import _migrate
from .test_store import _pretty

PARTIAL = ("ix_counters_games", "ix_counters_listed_games", "ix_counters_key_lc")


def _partial(archive: Archive) -> dict[str, bool]:
    """Each of the three indexes, and whether it leaves the tag counters out."""
    if archive.engine.dialect.name != "postgresql":
        return {i["name"]: False for i in inspect(archive.engine).get_indexes("counters") if i["name"] in PARTIAL}
    with archive.engine.connect() as conn:
        return {name: "<> 'tag'" in definition for name, definition in conn.execute(text(
            "SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'counters'")) if name in PARTIAL}


def _boards(archive: Archive) -> list:
    name = next(iter(archive.stats("player", limit=1)))["player"]
    return [archive.stats("player"), archive.stats("bot"), archive.stats("player", listed_only=True),
            archive.stats("player", name=name.upper())]


def test_leaderboards_read_the_indexes_without_tags(db_url):
    with Archive(db_url) as archive:
        for seed in range(6):
            archive.ingest_bytes(_pretty(play_game(seed=90 + seed)), f"{seed}.json")
        postgres = archive.engine.dialect.name == "postgresql"
        assert _partial(archive) == dict.fromkeys(PARTIAL, postgres)
        boards = _boards(archive)
        assert boards[0] and boards[1] and boards[3] == [r for r in boards[0] if r["player"] == boards[3][0]["player"]]
        if postgres:
            # the statements the leaderboards run: the kind is a literal in each (a plan made for
            # a parameter, as a prepared statement gets, could not use a partial index), and
            # each, explained with sequential scans off, reads one of the partial indexes
            seen: list[tuple[str, dict]] = []

            def keep(conn, cursor, statement, parameters, context, executemany):
                if "FROM counters" in statement and "counter_deltas" not in statement:
                    seen.append((statement, parameters))

            event.listen(archive.engine, "before_cursor_execute", keep)
            try:
                archive.stats("player", limit=5)
                archive.stats("bot", listed_only=True, limit=5)
                archive.stats("player", name="nobody")
            finally:
                event.remove(archive.engine, "before_cursor_execute", keep)
            assert len(seen) == 3
            assert [re.findall(r"counters\.kind = '(\w+)'", statement) for statement, _ in seen] == [
                ["player"], ["bot"], ["player"]]
            with archive.engine.connect() as conn:
                conn.exec_driver_sql("SET enable_seqscan = off")
                for statement, parameters in seen:
                    plan = "\n".join(r[0] for r in conn.exec_driver_sql("EXPLAIN " + statement, parameters))
                    assert any(name in plan for name in PARTIAL), plan
        with pytest.raises(ValueError, match="tag"):
            archive.summaries.top("tag", listed_only=False, name_lc=None, limit=3)
        _migrate(archive, "0009", down=True)  # through 0012's downgrade: the counters' old columns
        assert _partial(archive) == dict.fromkeys(PARTIAL, False)
        _migrate(archive, "head")  # and up again: the same leaderboards
        assert _boards(archive) == boards
        assert _partial(archive) == dict.fromkeys(PARTIAL, postgres)
        archive.ingest_bytes(_pretty(play_game(seed=99)), "99.json")
        after = _boards(archive)
        assert sum(r["games"] for r in after[1]) == sum(r["games"] for r in boards[1]) + 1


def test_derived_rows_have_no_foreign_keys_and_go_with_their_game(db_url):
    """Revision 0011: players, findings, facts and rating history without foreign keys to games
    (up and down on both backends, rows and indexes kept); deleting a game deletes them."""
    tables = ("game_players", "game_findings", "game_facts", "rating_history")

    def references() -> dict[str, int]:
        found = inspect(archive.engine)
        return {t: sum(k["referred_table"] == "games" for k in found.get_foreign_keys(t)) for t in tables}

    def rows(game_id: int | None = None) -> dict[str, list]:
        where = "" if game_id is None else f" WHERE game_id = {int(game_id)}"
        found = inspect(archive.engine)
        # (but game_players.deal_score: migration 0015's, gone below it, back empty until fill-deals)
        columns = {t: ", ".join(c["name"] for c in found.get_columns(t) if c["name"] != "deal_score") for t in tables}
        with archive.engine.connect() as conn:
            return {t: sorted(map(tuple, conn.execute(text(f"SELECT {columns[t]} FROM {t}{where}")))) for t in tables}

    def indexes() -> dict[str, set[str]]:
        found = inspect(archive.engine)
        return {t: {i["name"] for i in found.get_indexes(t)} for t in tables}

    with Archive(db_url) as archive:
        ids = [archive.ids.decode(archive.ingest_bytes(_pretty(play_game(seed=60 + seed)), f"{seed}.json",
                                                       origin="upload")[0].public_id) for seed in range(4)]
        archive.refresh_ratings()
        assert references() == dict.fromkeys(tables, 0)
        before, kept_indexes = rows(), indexes()
        assert all(before[t] for t in ("game_players", "game_facts", "rating_history"))
        _migrate(archive, "0010", down=True)
        assert references() == dict.fromkeys(tables, 1)
        assert rows() == before and indexes() == kept_indexes
        _migrate(archive, "head")
        assert references() == dict.fromkeys(tables, 0)
        assert rows() == before and indexes() == kept_indexes
        assert any(rows(ids[1]).values())
        archive.admin.delete_row(ids[1])
        assert rows(ids[1]) == dict.fromkeys(tables, [])
        assert rows(ids[2]) == {t: [r for r in before[t] if r[0] == ids[2]] for t in tables}
