"""archive.uploads on SQLite and on a real PostgreSQL server: tokens, publish, delete, stats."""

from __future__ import annotations

import doctest

import pytest
from sqlalchemy import func, select

from .logs import as_bytes, clean_log, revoke_log


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def uploads(request, tmp_path, monkeypatch):
    from archive import Archive
    from archive.uploads import Uploads

    monkeypatch.delenv("GAME_REPLAY_DB", raising=False)
    if request.param == "sqlite":
        archive = Archive(f"sqlite:///{tmp_path / 'a.db'}")
        yield Uploads(archive)
        archive.close()
        return
    server = request.getfixturevalue("postgres_server")
    name = server.create_database()
    archive = Archive(server.url(name))
    try:
        yield Uploads(archive)
    finally:
        archive.close()
        server.drop_database(name)


def _blobs(uploads) -> int:
    from archive.models import Blob

    with uploads.engine.connect() as conn:
        return conn.execute(select(func.count()).select_from(Blob)).scalar_one()


def test_upload_tokens_publish_and_delete(uploads):
    [first] = uploads.ingest(as_bytes(clean_log(1)), "a.json")
    [second] = uploads.ingest(as_bytes(clean_log(2)), "b.json")
    assert first.status == "stored" and not first.listed and first.public_id is None
    assert first.token != second.token and first.delete_token != second.delete_token
    assert uploads.by_token(first.token).game_id == clean_log(1)["game_id"]
    assert uploads.by_token("x" * 32) is None and uploads.by_token("../../etc") is None
    [again] = uploads.ingest(as_bytes(clean_log(1)), "again.json")
    assert again.status == "duplicate" and again.token == first.token and again.delete_token is None

    from archive.uploads import UploadTokenError

    with pytest.raises(UploadTokenError):
        uploads.publish(first.token, second.delete_token)
    assert uploads.by_token(first.token).listed is False
    public_id = uploads.publish(first.token, first.delete_token)
    assert uploads.is_listed(public_id) is True
    assert uploads.archive.list(listed=True).total == 1

    blobs = _blobs(uploads)
    assert uploads.delete(second.token, first.delete_token) is False
    assert uploads.archive.count() == 2 and _blobs(uploads) == blobs
    assert uploads.delete(second.token, second.delete_token) is True
    assert uploads.by_token(second.token) is None
    assert uploads.archive.count() == 1 and _blobs(uploads) == blobs - 1


def test_admin_deletes_and_listed_stats(uploads):
    archive = uploads.archive
    archive.ingest_bytes(as_bytes(revoke_log()), "revoke.json")
    archive.ingest_bytes(as_bytes(clean_log(5, bot="random")), "random.json")
    uploads.ingest(as_bytes(clean_log(6, bot="random")), "hidden.json")  # unlisted: not in stats
    archive.ingest_bytes(b"\xff\xfe not a log", "bad.json")
    stats = {r["name"]: r for r in uploads.listed_stats("bot")}
    random_bot = next(n for n in stats if n.startswith("random"))
    assert stats[random_bot]["games"] == 1 and stats[random_bot]["seats"] == 4  # one listed game, four seats
    assert sum(r["findings"] for r in stats.values()) >= 1
    [quarantined] = archive.quarantine().items
    assert uploads.delete_quarantined(quarantined.id) is True
    assert uploads.delete_quarantined(quarantined.id) is False
    assert archive.quarantine().total == 0
    public_id = archive.list(listed=True, bot="random").items[0].public_id
    assert uploads.delete_game(public_id) is True
    assert archive.get(public_id) is None
    assert uploads.delete_game(public_id) is False


def test_docstring_examples():
    import archive.uploads
    import viewer.ratelimit

    for module in (archive.uploads, viewer.ratelimit):
        result = doctest.testmod(module)
        assert result.attempted > 0 and result.failed == 0, module.__name__


@pytest.mark.postgres
def test_web_upload_on_postgresql(postgres_server):
    """The upload API on PostgreSQL: a NUL in a name (which PostgreSQL text cannot hold) is a 422."""
    from viewer.app import create_app

    name = postgres_server.create_database()
    try:
        app = create_app({"TESTING": True, "DB": postgres_server.url(name)})
        client = app.test_client()
        log = clean_log(7)
        log["players"]["E"]["bot"] = "bot\u0000"
        refused = client.post("/api/logs", data=as_bytes(log), content_type="application/json")
        assert refused.status_code == 422 and "players.E.bot" in refused.json["files"][0]["reason"]
        stored = client.post("/api/logs", data=as_bytes(revoke_log()), content_type="application/json")
        assert stored.status_code == 201
        game = stored.json["files"][0]["games"][0]
        assert client.get(game["triage_url"]).status_code == 200
        assert client.get("/games.json?player=%2A").status_code == 200
        assert client.delete(f"/api/uploads/{game['token']}",
                             headers={"X-Delete-Token": game["delete_token"]}).status_code == 200
        with app.app_context():
            from viewer.app import get_archive

            assert get_archive().count() == 0
            get_archive().close()
    finally:
        postgres_server.drop_database(name)
