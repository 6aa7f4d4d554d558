"""An archive made by release 0.1 (floating bridge only) migrates to the game-neutral schema
with nothing lost, on SQLite and on PostgreSQL.

``fixtures/archive-0.1.0.db`` was made by release 0.1 (commit 42bbf35) with
``game-replay ingest sample_logs --db sqlite:///archive-0.1.0.db``: 55 games, 3 quarantined
inputs. For PostgreSQL its rows are copied, table by table, into a database at revision 0001
(the schema release 0.1 created there), and the same upgrade runs.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from sqlalchemy import MetaData, create_engine, select, text

from archive import Archive

FIXTURE = Path(__file__).parent / "fixtures" / "archive-0.1.0.db"
TABLES = ("settings", "dictionaries", "blobs", "games", "game_players", "game_findings", "receipts", "quarantine")


def _snapshot(url: str) -> dict[str, list[tuple]]:
    """Every row of release 0.1's tables, as plain tuples, in key order."""
    engine = create_engine(url)
    meta = MetaData()
    meta.reflect(engine, only=TABLES)
    out = {}
    with engine.connect() as conn:
        for name in TABLES:
            table = meta.tables[name]
            old = [c for c in table.columns if c.name not in ("game", "role", "won", "think_ms")]  # added since
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
    before = _snapshot(original)
    assert len(before["games"]) == 55 and len(before["quarantine"]) == 3
    with Archive(url) as archive:  # opening migrates to head
        after = _snapshot(url)
        assert after == before  # every old row and column as it was
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
        assert contract_games and all(g.contract == "1S" for g in contract_games)
        declarer_wins = archive.list(fact="result=declarer", limit=100).total
        assert declarer_wins == sum(1 for g in page.items if g.result == "declarer")
        # and new games go in beside the old ones
        from replay.games.floating_bridge.bots import play_game

        (stored,) = archive.ingest_bytes(play_game(seed=99_999).canonical_json().encode(), "new.json")
        assert stored.status == "stored" and archive.count() == 56
