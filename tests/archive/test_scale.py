"""Issue 13: tags and counters kept at ingest, keyset pages, batched ingest.

Each test runs on SQLite and on a real PostgreSQL (``db_url``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import text

from archive import Archive, ArchiveError
from archive.ingest import BATCH_GAMES
from archive.writer import IN_FLIGHT
from replay.games.floating_bridge.bots import play_game
from replay.games import get as get_game

from .test_store import _logged_game, _pretty

PLAYERS = [
    {"N": {"name": "Alice", "bot": "greedy-1"}, "E": {"name": "Bob"}, "S": {"name": "Cy"},
     "W": {"name": "Di", "bot": "random-1"}},
    {"N": {"name": "Eve"}, "E": {"name": "Fay", "id": "tg:9"}, "S": {"name": "Alice"}, "W": {"name": "Gus"}},
    {"N": {"name": "Hal", "bot": "greedy-2"}, "E": {"name": "Ivy", "bot": "greedy-2"}, "S": {"name": "Jo"},
     "W": {"name": "Kit"}},
]


def _migrate(archive: Archive, revision: str, down: bool = False) -> None:
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__import__("archive").__file__).parent / "migrations"))
    with archive.engine.execution_options(write=True).begin() as conn:
        config.attributes["connection"] = conn
        (command.downgrade if down else command.upgrade)(config, revision)


def _summaries(archive: Archive) -> tuple[list[tuple], list[tuple]]:
    archive.summaries.fold()
    with archive.engine.connect() as conn:
        tags = [tuple(r) for r in conn.execute(text(
            "SELECT tag, started_key, game_id, listed, num FROM game_tags ORDER BY tag, started_key, game_id"))]
        counters = [tuple(r) for r in conn.execute(text(
            "SELECT kind, key, key_lc, games, seats, role_games, role_won, wins, findings, listed_games, listed_seats, "
            "listed_role_games, listed_role_won, listed_wins, listed_findings FROM counters ORDER BY kind, key"))]
        assert conn.execute(text("SELECT COUNT(*) FROM counter_deltas")).scalar_one() == 0
    return tags, [c for c in counters if any(c[3:])]  # a counter brought down to zero is no counter


def _mixed_archive(archive: Archive, sample_logs: Path) -> None:
    archive.ingest_paths([str(sample_logs)])
    uno = get_game("uno-lite")
    bots = list(uno.bots)
    for seed in range(6):
        archive.ingest_bytes(uno.selfplay(seed, bots=(bots[seed % len(bots)], bots[0])).canonical_json().encode(),
                             f"uno-{seed}.json")
    for i in range(6):
        archive.ingest_bytes(_logged_game(700 + i, PLAYERS[i % 3], started=f"2026-05-0{i + 1}T00:00:00Z"),
                             f"p{i}.json")
    uploads = [archive.ingest_bytes(_pretty(play_game(seed=800 + i)), f"u{i}", origin="upload", listed=False)[0]
               for i in range(3)]
    archive.admin.set_listed(archive.ids.decode(uploads[0].public_id), True)  # published
    archive.admin.delete_row(archive.ids.decode(uploads[1].public_id))  # deleted by its uploader


def test_tags_and_counters_kept_at_ingest_are_what_migration_0003_builds(db_url, sample_logs):
    with Archive(db_url) as archive:
        _mixed_archive(archive, sample_logs)
        tags, counters = _summaries(archive)
        assert len({t[2] for t in tags}) == archive.count() > 60
        _migrate(archive, "0002", down=True)
        with archive.engine.connect() as conn:
            left = conn.execute(text("SELECT COUNT(*) FROM games")).scalar_one()
            with pytest.raises(Exception):
                conn.execute(text("SELECT COUNT(*) FROM game_tags"))
        assert left == len({t[2] for t in tags})
        _migrate(archive, "head")  # 0003 again, built from the rows
        assert _summaries(archive) == (tags, counters)


def test_stats_come_from_counters_and_follow_publish_and_delete(db_url):
    with Archive(db_url) as archive:
        for i in range(6):
            archive.ingest_bytes(_logged_game(710 + i, PLAYERS[i % 3]), f"p{i}.json")
        (upload,) = archive.ingest_bytes(_logged_game(720, PLAYERS[0]), "u", origin="upload", listed=False)
        alice = archive.stats(name="alice")
        assert [r["games"] for r in alice] == [5]  # 2 + 2 of PLAYERS[0]/[1] ... and the upload
        assert [r["games"] for r in archive.stats(name="alice", listed_only=True)] == [4]
        bots = {r["bot"]: r for r in archive.stats(by="bot")}
        assert bots["greedy-2"]["games"] == 2 and bots["greedy-2"]["seats"] == 4
        row_id = archive.ids.decode(upload.public_id)
        archive.admin.set_listed(row_id, True)
        assert [r["games"] for r in archive.stats(name="alice", listed_only=True)] == [5]
        assert archive.list(player="alice", listed=True).total == 5
        archive.admin.delete_row(row_id)
        assert [r["games"] for r in archive.stats(name="alice")] == [4]
        assert archive.list(player="alice").total == 4 and archive.count() == 6
        assert archive.stats(by="bot", limit=1)[0]["games"] == max(r["games"] for r in archive.stats(by="bot"))


QUERIES = [{}, {"player": "alice"}, {"bot": "greedy"}, {"bot": "greedy-2"}, {"winner": "alice"},
           {"game": "floating-bridge"}, {"has_findings": False}, {"rules": "bridgebot"},
           {"player": "alice", "bot": "greedy"}, {"started_from": "2026-05-03", "started_to": "2026-05-20"},
           {"fact": "turns>=0"}, {"listed": True}, {"end_reason": "completed", "player": "bob"}]


@pytest.mark.parametrize("sort", ["-started_at", "started_at"])
def test_keyset_pages_walk_the_same_games_as_one_long_page(db_url, sort, monkeypatch):
    import archive.queries as queries_module

    with Archive(db_url) as archive:
        for i in range(30):
            started = f"2026-05-{1 + i % 28:02d}T00:00:00Z"  # ties on the start time too
            archive.ingest_bytes(_logged_game(730 + i, PLAYERS[i % 3], started=started), f"k{i}.json")
        for query in QUERIES:
            whole = archive.list(sort=sort, limit=1000, **query)
            walked, cursor, pages = [], None, 0
            while True:
                page = archive.list(sort=sort, limit=4, cursor=cursor, **query)
                walked += [g.public_id for g in page.items]
                pages += 1
                cursor = page.next_cursor
                if cursor is None:
                    break
            assert walked == [g.public_id for g in whole.items], query
            assert pages == max(1, -(-len(walked) // 4)) or len(walked) % 4 == 0, query
            by_offset = [g.public_id for o in range(0, len(walked), 4)
                         for g in archive.list(sort=sort, limit=4, offset=o, **query).items]
            assert by_offset == walked, query
            monkeypatch.setattr(queries_module, "TAG_PLAN", False)
            general = archive.list(sort=sort, limit=1000, **query)
            monkeypatch.setattr(queries_module, "TAG_PLAN", True)
            assert [g.public_id for g in general.items] == walked, query
            assert general.total == whole.total, query


def test_games_without_a_start_time_come_last_newest_first_on_every_backend(db_url):
    with Archive(db_url) as archive:
        for i in range(3):
            archive.ingest_bytes(_logged_game(760 + i, PLAYERS[0], started=f"2026-05-0{i + 1}T00:00:00Z"), f"s{i}")
        undated = json.loads(_logged_game(770, PLAYERS[1]))
        undated.pop("started_at", None)
        (stored,) = archive.ingest_bytes(json.dumps(undated).encode(), "undated.json")
        first = archive.list(limit=2)
        second = archive.list(limit=2, cursor=first.next_cursor)
        assert second.items[-1].public_id == stored.public_id and second.next_cursor is None
        assert archive.list(sort="started_at", limit=1).items[0].public_id == stored.public_id
        assert stored.public_id not in [g.public_id for g in archive.list(started_to="2027-01-01").items]


def test_a_cursor_from_elsewhere_is_refused(archive):
    archive.ingest_bytes(_logged_game(780, PLAYERS[0], started="2026-05-01T00:00:00Z"), "a")
    archive.ingest_bytes(_logged_game(781, PLAYERS[0], started="2026-05-02T00:00:00Z"), "b")
    cursor = archive.list(limit=1).next_cursor
    assert cursor
    for bad, sort in ((cursor, "-ingested_at"), ("not a cursor", "-started_at"), (cursor[:-3], "-started_at"),
                      ("WyItc3RhcnRlZF9hdCIsMSwtMV0", "-started_at")):
        with pytest.raises(ArchiveError, match="cursor"):
            archive.list(sort=sort, cursor=bad)


def test_a_value_the_database_refuses_quarantines_that_game_alone(db_url, tmp_path):
    folder = tmp_path / "logs"
    folder.mkdir()
    for i in range(3):
        text = _logged_game(790 + i, PLAYERS[0])
        if i == 1:  # PostgreSQL text cannot hold NUL; SQLite can. Names and ids with NUL are refused
            # by the log models (one validation everywhere); a party-cards seat name may still hold it
            from replay.games import get

            text = json.dumps(get("party-cards").selfplay(790).to_json_dict()).replace('"p1"', '"p\\u00001"').encode()
        (folder / f"g{i}.json").write_bytes(text)
    with Archive(db_url) as archive:
        results = archive.ingest_paths([str(folder)])
        statuses = [r.status for r in results]
        if archive.engine.dialect.name == "postgresql":
            assert statuses == ["stored", "quarantined", "stored"]
            assert "the database refused this game" in results[1].error
            assert archive.quarantine().items[0].raw == (folder / "g1.json").read_bytes()
        else:
            assert statuses == ["stored"] * 3
        assert archive.count() == statuses.count("stored")
        assert sorted(s for s, _ in archive.iter_inputs()) == sorted(str(p) for p in folder.iterdir())


def test_a_batch_with_the_same_game_twice_stores_it_once(archive, tmp_path):
    folder = tmp_path / "logs"
    folder.mkdir()
    log = play_game(seed=795)
    (folder / "a.json").write_bytes(_pretty(log))
    (folder / "b.json").write_bytes(_pretty(log, indent=2))
    (folder / "c.jsonl").write_bytes(log.canonical_json().encode() + b"\n\n" + _pretty(play_game(seed=796), None))
    results = archive.ingest_paths([str(folder)])
    assert [r.status for r in results] == ["stored", "duplicate", "duplicate", "stored"]
    assert results[1].public_id == results[0].public_id == results[2].public_id
    assert archive.count() == 2
    assert {s: d for s, d in archive.iter_inputs()} == {str(p): p.read_bytes() for p in folder.iterdir()}


def test_a_folder_walk_streams_files_found_after_the_first_batch_are_taken(archive, tmp_path):
    """Nothing is listed ahead: a folder is read when the walk reaches it."""
    first, later = tmp_path / "logs" / "a", tmp_path / "logs" / "b"
    first.mkdir(parents=True)
    later.mkdir()
    base = json.loads(_logged_game(900, PLAYERS[0]))
    # the first results come once IN_FLIGHT + 1 batches are read (the writer process holds up
    # to IN_FLIGHT); the first folder alone fills one more batch and starts another
    count = (IN_FLIGHT + 2) * BATCH_GAMES + 2
    for i in range(count):
        (first / f"g{i:04d}.json").write_text(json.dumps({**base, "game_id": f"walk-{i}"}), encoding="utf-8")
    seen = []
    for path, results in archive.iter_ingest([str(tmp_path / "logs")]):
        if not seen:  # the first batch is committed; the walk has not reached b/ yet
            (later / "late.json").write_text(json.dumps({**base, "game_id": "walk-late"}), encoding="utf-8")
        seen.append(path)
        assert [r.status for r in results] == ["stored"]
    assert len(seen) == count + 1 and seen[-1] == str(later / "late.json")
    assert archive.count() == count + 1


def test_the_games_page_and_api_page_by_cursor(tmp_path):
    from viewer.app import create_app, get_archive

    app = create_app({"TESTING": True, "DB": f"sqlite:///{tmp_path / 'a.db'}"})
    with app.app_context():
        archive = get_archive()
        for i in range(9):
            archive.ingest_bytes(_logged_game(910 + i, PLAYERS[i % 3], started=f"2026-05-0{i + 1}T00:00:00Z"),
                                 f"w{i}.json")
    client = app.test_client()
    whole = [g["id"] for g in client.get("/games.json?per_page=100&bot=greedy").get_json()["games"]]
    walked, link, pages = [], "/games.json?per_page=2&bot=greedy", 0
    while link:
        page = client.get(link if link.startswith("/") else "/games.json" + link).get_json()
        walked += [g["id"] for g in page["games"]]
        pages += 1
        assert page["next"] is None or "after=" in page["next"]
        link = page["next"]
    assert walked == whole and len(whole) == 6 and pages == 3
    api = client.get("/api/games?per_page=4").get_json()
    again = client.get(f"/api/games?per_page=4&after={api['next_cursor']}").get_json()
    assert len(api["games"]) == 4 and len(again["games"]) == 4 and not set(g["id"] for g in api["games"]) & \
        set(g["id"] for g in again["games"])
    assert client.get("/api/games?after=bm90LWEtY3Vyc29y").status_code == 404
