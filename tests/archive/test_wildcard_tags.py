"""Wildcard player/winner filters on the tag plan: the names they match come from ``counters``
plus the pending ``counter_deltas``, summed before anything is cut, so names down to zero games
never crowd out the real ones and a key's deltas are all added up.

Each test runs on SQLite and on a real PostgreSQL (``db_url``) and checks the tag plan's
listing against the general plan's.
"""

from __future__ import annotations

import pytest
from sqlalchemy import text

import archive.queries as queries_module
from archive import Archive
from archive.queries import _prefix_range
from archive.summaries import delta_rows

from .test_store import _logged_game

SEATS = "NESW"


def _players(*names: str) -> dict:
    return {seat: {"name": name} for seat, name in zip(SEATS, names)}


def _ids(page) -> list[str]:
    return [g.public_id for g in page.items]


def _same_as_general_plan(archive: Archive, monkeypatch, **query) -> list[str]:
    """The tag plan's listing (one long page, and page by page), checked against the general
    plan's; returns its games."""
    for sort in ("-started_at", "started_at"):
        whole = archive.list(sort=sort, limit=1000, **query)
        walked, cursor = [], None
        while True:
            page = archive.list(sort=sort, limit=2, cursor=cursor, **query)
            walked += _ids(page)
            cursor = page.next_cursor
            if cursor is None:
                break
        monkeypatch.setattr(queries_module, "TAG_PLAN", False)
        try:
            general = archive.list(sort=sort, limit=1000, **query)
        finally:
            monkeypatch.setattr(queries_module, "TAG_PLAN", True)
        assert _ids(whole) == walked == _ids(general), (query, sort)
        assert whole.total == general.total == len(walked), (query, sort)
        assert whole.total_exact and general.total_exact
    return walked


def _found(archive: Archive, value: str, listed_only: bool, name: str = "player"):
    with archive.engine.connect() as conn:
        return archive.queries._wildcard_tags(conn, name, value, listed_only)


def test_names_with_no_listed_game_do_not_crowd_out_the_listed_ones(db_url, monkeypatch):
    """More zero-count names than the old cut (WILDCARD_TAGS * 4 + 1 rows), sorting before the
    one name with a listed game: ``listed=True`` still finds its game, by its tag."""
    monkeypatch.setattr(queries_module, "WILDCARD_TAGS", 2)
    with Archive(db_url) as archive:
        for i in range(4):  # 16 names starting "aa", each with unlisted uploads only
            names = [f"Aa{i}{seat}" for seat in SEATS]
            (r,) = archive.ingest_bytes(_logged_game(300 + i, _players(*names), started=f"2026-02-0{i + 1}T00:00:00Z"),
                                        f"u{i}.json", origin="upload", listed=False)
            assert r.status == "stored"
        (listed,) = archive.ingest_bytes(_logged_game(310, _players("Axel", "Bob", "Cy", "Di"),
                                                      started="2026-02-09T00:00:00Z"), "l.json")
        with archive.engine.connect() as conn:
            zero = conn.execute(text("SELECT COUNT(*) FROM counters WHERE kind = 'tag' AND key LIKE 'player:aa%' "
                                     "AND listed_games = 0")).scalar_one()
        assert zero == 16 > queries_module.WILDCARD_TAGS * 4 + 1
        assert _same_as_general_plan(archive, monkeypatch, player="a*", listed=True) == [listed.public_id]
        # the tag plan keeps the wildcard as its one name's tag (no fall-back to the general plan)
        assert _found(archive, "a*", listed_only=True) == {"player:axel": 1}
        assert _found(archive, "aa*", listed_only=True) == {}
        assert _same_as_general_plan(archive, monkeypatch, player="*x*", listed=True) == [listed.public_id]
        assert _same_as_general_plan(archive, monkeypatch, player="aa*", listed=True) == []
        # every game counts without the listed filter: 17 names, past WILDCARD_TAGS
        assert _found(archive, "a*", listed_only=False) is None
        assert len(_same_as_general_plan(archive, monkeypatch, player="a*")) == 5
        assert len(_same_as_general_plan(archive, monkeypatch, player="aa*", listed=False)) == 4
        monkeypatch.setattr(queries_module, "WILDCARD_TAGS", 200)
        assert _found(archive, "a*", listed_only=True) == {"player:axel": 1}
        assert len(_found(archive, "a*", listed_only=False)) == 17
        assert _same_as_general_plan(archive, monkeypatch, player="a*", listed=True) == [listed.public_id]


def test_a_keys_pending_deltas_are_all_added_up(db_url, monkeypatch):
    """A name's pending deltas in more rows than the old cut, the rows inside the cut summing
    to minus its folded count: the name is still found, with its games, until and after folding."""
    monkeypatch.setattr(queries_module, "WILDCARD_TAGS", 2)
    with Archive(db_url) as archive:
        (r,) = archive.ingest_bytes(_logged_game(320, _players("Axel", "Bob", "Cy", "Di"),
                                                 started="2026-02-01T00:00:00Z"), "g.json")
        game_id = archive.ids.decode(r.public_id)
        with archive.engine.execution_options(write=True).begin() as conn:
            share = archive.summaries.game_share(conn, game_id)
            assert share.listed
            for sign in (-1, 1) * 5:  # ten rows per key, adding up to nothing: one statement each
                archive.summaries.add(conn, delta_rows(share.counts, sign=sign, listed=True), merged=True)
        with archive.engine.connect() as conn:
            pending = conn.execute(text("SELECT COUNT(*) FROM counter_deltas WHERE kind = 'tag' "
                                        "AND key = 'player:axel'")).scalar_one()
        assert pending == 10 > queries_module.WILDCARD_TAGS * 4 + 1
        for query in ({"player": "a*"}, {"player": "a*", "listed": True}, {"player": "*e*"}):
            assert _same_as_general_plan(archive, monkeypatch, **query) == [r.public_id], query
        for listed_only in (True, False):
            assert _found(archive, "a*", listed_only) == {"player:axel": 1}
            assert _found(archive, "*xe*", listed_only) == {"player:axel": 1}
        archive.summaries.fold()
        assert _found(archive, "a*", listed_only=True) == {"player:axel": 1}
        assert _same_as_general_plan(archive, monkeypatch, player="a*", listed=True) == [r.public_id]


def test_a_name_whose_games_are_gone_is_no_match(db_url, monkeypatch):
    """A deleted game's names keep counter rows at zero, folded or not: no tag, no game."""
    monkeypatch.setattr(queries_module, "WILDCARD_TAGS", 1)
    with Archive(db_url) as archive:
        (gone,) = archive.ingest_bytes(_logged_game(330, _players("Abe", "Ada", "Al", "Ari"),
                                                   started="2026-02-01T00:00:00Z"), "gone.json", origin="upload")
        (kept,) = archive.ingest_bytes(_logged_game(331, _players("Ann", "Bob", "Cy", "Di"),
                                                   started="2026-02-02T00:00:00Z"), "kept.json")
        assert _found(archive, "a*", listed_only=False) is None  # five names: past WILDCARD_TAGS
        assert archive.admin.delete_row(archive.ids.decode(gone.public_id))
        assert _found(archive, "a*", listed_only=False) == {"player:ann": 1}
        assert _same_as_general_plan(archive, monkeypatch, player="a*") == [kept.public_id]
        assert _same_as_general_plan(archive, monkeypatch, player="ab*") == []


def test_names_with_like_and_edge_characters_match_by_their_literal_prefix(db_url, monkeypatch):
    """``%`` and ``_`` in a name are literal; a prefix ending just before the surrogates (or at
    the last code point) still has a range the database can take."""
    names = ["a%_b", "axb", "q\ud7ffz", "r\U0010ffff", "r\U0010fffe"]
    with Archive(db_url) as archive:
        ids = {}
        for i, name in enumerate(names):
            (r,) = archive.ingest_bytes(_logged_game(340 + i, _players(name, f"Bob{i}", f"Cy{i}", f"Di{i}"),
                                                     started=f"2026-02-0{i + 1}T00:00:00Z"), f"{i}.json")
            ids[name] = r.public_id
        assert _found(archive, "a%_*", listed_only=False) == {"player:a%_b": 1}
        assert _same_as_general_plan(archive, monkeypatch, player="a%_*") == [ids["a%_b"]]
        assert _same_as_general_plan(archive, monkeypatch, player="q\ud7ff*") == [ids["q\ud7ffz"]]
        assert _same_as_general_plan(archive, monkeypatch, player="r\U0010ffff*") == [ids["r\U0010ffff"]]
        assert set(_same_as_general_plan(archive, monkeypatch, player="r*")) == {ids["r\U0010ffff"],
                                                                                   ids["r\U0010fffe"]}
        # a PostgreSQL database under a language's collation: the LIKE alone, the same games
        monkeypatch.setattr(archive.queries, "_bytewise", False)
        assert _found(archive, "a%_*", listed_only=False) == {"player:a%_b": 1}
        assert _same_as_general_plan(archive, monkeypatch, player="*\U0010ffff*") == [ids["r\U0010ffff"]]
        assert _same_as_general_plan(archive, monkeypatch, winner="a*") == _same_as_general_plan(
            archive, monkeypatch, winner="a*", started_from="2020-01-01")


def test_prefix_range():
    assert _prefix_range("player:al") == ("player:al", "player:am")
    assert _prefix_range("player:") == ("player:", "player;")
    assert _prefix_range("player:a\ud7ff") == ("player:a\ud7ff", "player:a\ue000")
    assert _prefix_range("player:a\U0010ffff") == ("player:a\U0010ffff", "player:b")
    assert _prefix_range("\U0010ffff\U0010ffff") == ("\U0010ffff\U0010ffff", None)
    low, high = _prefix_range("player:a%_")
    assert low <= "player:a%_\U0010ffff" < high and not low <= "player:a%`" < high


@pytest.mark.postgres
def test_postgresql_finds_a_prefixs_names_by_an_index_range(postgres_server):
    """On PostgreSQL (C collation, as pgserver starts it) the literal prefix of the pattern is a
    range of the counters' primary key, so a wildcard never reads every name."""
    name = postgres_server.create_database()
    try:
        with Archive(postgres_server.url(name)) as archive:
            archive.ingest_bytes(_logged_game(350, _players("Axel", "Bob", "Cy", "Di")), "g.json")
            with archive.engine.execution_options(write=True).begin() as conn:  # enough names to want an index
                conn.execute(text("INSERT INTO counters (kind, key, key_lc, games, seats, role_games, role_won, wins, "
                                  "findings, listed_games, listed_seats, listed_role_games, listed_role_won, "
                                  "listed_wins, listed_findings) "
                                  "SELECT 'tag', 'player:n' || i, 'player:n' || i, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 "
                                  "FROM generate_series(1, 5000) AS i"))
                conn.execute(text("ANALYZE counters"))
            with archive.engine.connect() as conn:
                query = archive.queries._wildcard_query(conn, "player", "ax*", True)
                compiled = query.compile(conn)
                plan = "\n".join(r[0] for r in conn.exec_driver_sql(f"EXPLAIN {compiled}", compiled.params))
                assert archive.queries._wildcard_tags(conn, "player", "ax*", True) == {"player:axel": 1}
                assert archive.queries._bytewise_keys(conn)  # pgserver's initdb --locale=C
        assert "player:ay" in compiled.params.values()
        scans = [line for line in plan.splitlines() if "Index Cond" in line or "Scan" in line]
        on_counters = [i for i, line in enumerate(scans) if " on counters " in line]
        assert on_counters and "Index" in scans[on_counters[0]], plan
        assert "(key)::text >= " in scans[on_counters[0] + 1] and "(key)::text < " in scans[on_counters[0] + 1], plan
    finally:
        postgres_server.drop_database(name)
