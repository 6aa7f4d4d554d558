"""An archive made by release 0.1 (floating bridge only), and one made by the main branch
before migration 0012 (all four games), migrate to the game-neutral schema with nothing lost,
on SQLite and on PostgreSQL.

``fixtures/archive-0.1.0.db`` was made by release 0.1 (commit 42bbf35) with
``game-replay ingest sample_logs --db sqlite:///archive-0.1.0.db``: 55 games, 3 quarantined
inputs. For PostgreSQL its rows are copied, table by table, into a database at revision 0001
(the schema release 0.1 created there), and the same upgrade runs.

``fixtures/archive-main-1f49517.db`` was made by commit 1f49517 (revision 0011: the bridge
columns still there), with every sample log of the four games and an unlisted upload; for
PostgreSQL its rows are copied into a database at revision 0011. ``*.expected.json`` hold what
every filter and the stats gave on each archive with that commit's code
(``fixtures/record_expected.py``): migration 0012 must give the same games for each.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import json

from sqlalchemy import MetaData, create_engine, inspect, select, text

from archive import Archive

FIXTURES = Path(__file__).parent / "fixtures"
FIXTURE = FIXTURES / "archive-0.1.0.db"
MAIN_FIXTURE = FIXTURES / "archive-main-1f49517.db"
#: the bridge columns migration 0012 turns into facts only
BRIDGE_COLUMNS = ("contract", "declarer", "partner_seat", "result")
#: columns of those tables added since release 0.1 (``game``, ``role`` and ``won`` 0002,
#: ``think_ms`` 0006, ``deal_key`` and ``deal_score`` 0015)
ADDED_SINCE = ("game", "role", "won", "think_ms", "deal_key", "deal_score")
TABLES = ("settings", "dictionaries", "blobs", "games", "game_players", "game_findings", "receipts", "quarantine")


def _snapshot(url: str, dropped: tuple[str, ...] = ()) -> dict[str, list[tuple]]:
    """Every row of release 0.1's tables, as plain tuples, in key order (without the ``games``
    columns ``dropped``)."""
    engine = create_engine(url)
    meta = MetaData()
    meta.reflect(engine, only=TABLES)
    out = {}
    with engine.connect() as conn:
        for name in TABLES:
            table = meta.tables[name]
            old = [c for c in table.columns if c.name not in ADDED_SINCE
                   and not (name == "games" and c.name in dropped)]
            rows = conn.execute(select(*old).order_by(*table.primary_key.columns)).all()
            out[name] = [tuple(r) for r in rows]
    engine.dispose()
    return out


def _upgrade_to(url: str, revision: str) -> None:
    from alembic import command
    from alembic.config import Config

    engine = create_engine(url)
    config = Config()
    config.set_main_option("script_location", str(Path(__import__("archive").__file__).parent / "migrations"))
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, revision)
    engine.dispose()


def _copy_into(source_url: str, target_url: str) -> None:
    src, dst = create_engine(source_url), create_engine(target_url)
    meta = MetaData()
    meta.reflect(src, only=TABLES)
    with src.connect() as a, dst.begin() as b:
        for name in TABLES:
            rows = [dict(r._mapping) for r in a.execute(select(meta.tables[name]))]
            if rows:
                b.execute(meta.tables[name].insert(), rows)
        for name in ("blobs", "games", "receipts", "quarantine"):  # serial ids continue past the copy
            b.execute(text(f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "
                           f"(SELECT COALESCE(MAX(id), 1) FROM {name}))"))
    src.dispose()
    dst.dispose()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def release_0_1_archive(request, tmp_path):
    copy = tmp_path / "archive-0.1.0.db"
    shutil.copy(FIXTURE, copy)
    sqlite_url = f"sqlite:///{copy}"
    if request.param == "sqlite":
        yield sqlite_url, sqlite_url
        return
    server = request.getfixturevalue("postgres_server")
    name = server.create_database()
    try:
        url = server.url(name)
        _upgrade_to(url, "0001")
        _copy_into(sqlite_url, url)
        yield url, sqlite_url
    finally:
        server.drop_database(name)


def test_release_0_1_archive_migrates_with_nothing_lost(release_0_1_archive):
    url, original = release_0_1_archive
    before = _snapshot(original, dropped=BRIDGE_COLUMNS)
    assert len(before["games"]) == 55 and len(before["quarantine"]) == 3
    columns = _bridge_columns(original)
    with Archive(url) as archive:  # opening migrates to head
        after = _snapshot(url, dropped=BRIDGE_COLUMNS)
        assert after == before  # every old row and column as it was, but the bridge columns
        with archive.engine.connect() as conn:
            facts = {(game_id, name): value for game_id, name, value in conn.execute(text(
                "SELECT game_id, name, value FROM game_facts"))}
            games = inspect(conn).get_columns("games")
        assert not {c["name"] for c in games} & set(BRIDGE_COLUMNS)
        # ... whose every value is a fact
        assert columns and all(facts[game_id, name] == value for (game_id, name), value in columns.items())
        page = archive.list(limit=100)
        assert page.total == 55
        assert {g.game for g in page.items} == {"floating-bridge"}
        for summary in page.items:
            game = archive.get(summary.public_id)
            replay = game.replay()
            # roles, winners and facts filled from the old columns agree with judging anew
            outcome = replay.outcome()
            engine = archive.engine
            with engine.connect() as conn:
                players = conn.execute(text(
                    "SELECT seat, role, won FROM game_players WHERE game_id = :g ORDER BY seat"),
                    {"g": archive.ids.decode(summary.public_id)}).all()
                facts = dict(conn.execute(text(
                    "SELECT name, value FROM game_facts WHERE game_id = :g"),
                    {"g": archive.ids.decode(summary.public_id)}).all())
            for seat, role, won in players:
                assert role == outcome.roles.get(seat)
                assert won == ((seat in outcome.winners) if outcome.winners else None)
            assert facts == {k: str(v) for k, v in outcome.facts.items()}
        # the new filters work on migrated rows
        contract_games = archive.list(fact="contract=1S", limit=100).items
        assert contract_games and all(g.facts["contract"] == "1S" for g in contract_games)
        declarer_wins = archive.list(fact="result=declarer", limit=100).total
        assert declarer_wins == sum(1 for g in page.items if g.facts.get("result") == "declarer")
        # and new games go in beside the old ones
        from replay.games.floating_bridge.bots import play_game

        (stored,) = archive.ingest_bytes(play_game(seed=99_999).canonical_json().encode(), "new.json")
        assert stored.status == "stored" and archive.count() == 56


def _bridge_columns(url: str) -> dict[tuple[int, str], str]:
    """``(game row id, column) -> value`` of the bridge columns before the upgrade."""
    engine = create_engine(url)
    with engine.connect() as conn:
        rows = conn.execute(text(f"SELECT id, {', '.join(BRIDGE_COLUMNS)} FROM games")).all()
    engine.dispose()
    return {(row[0], name): value for row in rows for name, value in zip(BRIDGE_COLUMNS, row[1:]) if value is not None}


def _copy_every_table(source_url: str, target_url: str) -> None:
    """Every row of every table (but Alembic's) of ``source_url`` into ``target_url``, at the same revision."""
    src, dst = create_engine(source_url), create_engine(target_url)
    meta = MetaData()
    meta.reflect(dst)
    source = MetaData()
    source.reflect(src)
    with src.connect() as a, dst.begin() as b:
        for table in meta.sorted_tables:
            if table.name == "alembic_version":
                continue
            rows = [dict(r._mapping) for r in a.execute(select(source.tables[table.name]))]
            for row in rows:  # SQLite's booleans come back as they went in; PostgreSQL wants bools
                for column in table.columns:
                    if column.type.python_type is bool and row.get(column.name) is not None:
                        row[column.name] = bool(row[column.name])
            if rows:
                b.execute(table.insert(), rows)
        for table in meta.sorted_tables:
            if "id" in table.c and table.c.id.autoincrement is not False and table.c.id.primary_key:
                sequence = b.execute(text(f"SELECT pg_get_serial_sequence('{table.name}', 'id')")).scalar()
                if sequence:
                    b.execute(text(f"SELECT setval('{sequence}', (SELECT COALESCE(MAX(id), 1) FROM {table.name}))"))
    src.dispose()
    dst.dispose()


@pytest.fixture(params=[
    ("archive-0.1.0", "sqlite"), pytest.param(("archive-0.1.0", "postgresql"), marks=pytest.mark.postgres),
    ("archive-main-1f49517", "sqlite"), pytest.param(("archive-main-1f49517", "postgresql"), marks=pytest.mark.postgres),
], ids=lambda p: "-".join(p))
def old_archive(request, tmp_path):
    """(URL of an archive at the revision its fixture was made at, what every filter gave on it)."""
    fixture, backend = request.param
    copy = tmp_path / f"{fixture}.db"
    shutil.copy(FIXTURES / f"{fixture}.db", copy)
    expected = json.loads((FIXTURES / f"{fixture}.expected.json").read_text())
    sqlite_url = f"sqlite:///{copy}"
    if fixture == "archive-0.1.0":
        _upgrade_to(sqlite_url, "0011")  # what the expected answers were recorded at (before 0012)
    if backend == "sqlite":
        yield sqlite_url, expected
        return
    server = request.getfixturevalue("postgres_server")
    name = server.create_database()
    try:
        url = server.url(name)
        _upgrade_to(url, "0011")
        _copy_every_table(sqlite_url, url)
        yield url, expected
    finally:
        server.drop_database(name)


def test_every_filter_gives_the_same_games_after_the_columns_become_facts(old_archive):
    """Player, bot, winner, contract, declarer, result, end reason, findings, game, rules, listed
    and every fact: each gives the very games (in the same order, both sorts) it gave before
    migration 0012; and the stats the same figures, the declarer and made counters now the
    counted role's (bridge: declarer) games and wins."""
    url, expected = old_archive
    columns = _bridge_columns(url)
    assert columns  # the fixture has the old columns, filled
    with Archive(url) as archive:  # opening runs migration 0012
        with archive.engine.connect() as conn:
            assert not {c["name"] for c in inspect(conn).get_columns("games")} & set(BRIDGE_COLUMNS)
        kinds = set()
        for query in expected["queries"]:
            filters = query["filters"]
            kinds.update(filters)
            for sort, ids in query["ids"].items():
                got = [g.public_id for g in archive.list(sort=sort, limit=500, **filters).items]
                assert got == ids, (filters, sort)
        assert kinds >= {"player", "bot", "winner", "contract", "declarer", "result", "end_reason", "finding_kind",
                         "has_findings", "game", "rules", "listed", "fact"}
        for key, rows in expected["stats"].items():
            by, game = key.split(":")
            game = None if game == "None" else game
            now = archive.stats(by, game=game)
            assert [r[by] for r in now] == [r[by] for r in rows], key
            for old, new in zip(rows, now):
                assert (new["games"], new["seats"], new["findings"]) == (old["games"], old["seats"], old["findings"])
                if game == "floating-bridge":
                    assert (new["role_games"], new["role_won"]) == (old["declarer"], old["made"])
                else:
                    assert "role_games" not in new and "declarer" not in new
            if game is None:  # the counters hold the role figures the old declarer/made counters held
                with archive.engine.connect() as conn:
                    counters = {k: (d, m) for k, d, m in conn.execute(text(
                        "SELECT key, role_games, role_won FROM counters WHERE kind = :kind"), {"kind": by})}
                assert {r[by]: (r["declarer"], r["made"]) for r in rows} == {
                    k: counters[k] for k in (r[by] for r in rows)}
        # wins: what each name's seats won, game by game
        with archive.engine.connect() as conn:
            won = {name: n for name, n in conn.execute(text(
                "SELECT name, COUNT(DISTINCT game_id) FROM game_players WHERE won = :yes AND name IS NOT NULL "
                "GROUP BY name"), {"yes": True})}
        assert {r["player"]: r["wins"] for r in archive.stats("player") if r["wins"]} == won
        # new games go in beside the old ones, and count the same way
        from replay.games.floating_bridge.bots import play_game

        before = archive.count()
        (stored,) = archive.ingest_bytes(play_game(seed=99_998).canonical_json().encode(), "new.json")
        assert stored.status == "stored" and archive.count() == before + 1
        game = archive.get(stored.public_id)
        declarer = game.facts["declarer"]
        name = game.players[declarer].get("name")
        if name:
            assert archive.list(player=name, contract=game.facts["contract"], declarer=declarer).total >= 1
