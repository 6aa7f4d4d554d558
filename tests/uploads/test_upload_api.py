"""POST /api/logs and the upload form: results, limits, hostile input, tokens, CSRF, rate limit."""

from __future__ import annotations

import io
import json
import random

import pytest
import zstandard

from .conftest import form_token, table_counts
from .logs import XSS_NAME, as_bytes, clean_log, revoke_log, truncated, xss_log


def upload(client, *files: tuple[str, bytes], **headers):
    data = {"files": [(io.BytesIO(content), name) for name, content in files]}
    return client.post("/api/logs", data=data, content_type="multipart/form-data", headers=headers)


# --- the ordinary path -------------------------------------------------------------------------

def test_three_files_each_get_their_own_result(client, archive):
    clean, revoke = as_bytes(clean_log(1)), as_bytes(revoke_log())
    response = upload(client, ("clean.json", clean), ("revoke.json", revoke), ("cut.json", truncated(clean)))
    assert response.status_code == 201
    files = {f["file"]: f for f in response.json["files"]}
    assert files["clean.json"]["status"] == "stored"
    assert files["revoke.json"]["status"] == "stored_with_findings"
    assert files["cut.json"]["status"] == "refused"
    assert "not JSON" in files["cut.json"]["reason"]
    assert response.json["stored"] == 2
    game = files["revoke.json"]["games"][0]
    assert game["triage_url"].startswith(game["url"] + "/triage?step=")
    assert game["finding_url"] == game["url"] + "#" + game["triage_url"].rsplit("=", 1)[1]
    assert archive.count() == 2


def test_revoke_link_points_at_the_revoke_step(client):
    log = revoke_log()
    response = upload(client, ("revoke.json", as_bytes(log)))
    game = response.json["files"][0]["games"][0]
    from replay.log import parse_log

    expected = next(f.step for f in parse_log(log).replay().findings if f.kind == "revoke")
    assert game["triage_url"].endswith(f"?step={expected}")
    page = client.get(game["triage_url"])
    assert page.status_code == 200
    assert f'<span id="selected-step">{expected}</span>' in page.text


def test_raw_json_jsonl_and_zstd_bodies(client, archive):
    one = as_bytes(clean_log(11))
    assert client.post("/api/logs", data=one, content_type="application/json").status_code == 201
    batch = b"\n".join(as_bytes(clean_log(s)) for s in (12, 13, 14))
    response = client.post("/api/logs?name=batch.jsonl", data=batch, content_type="application/x-ndjson")
    assert response.status_code == 201
    assert [g["status"] for g in response.json["files"][0]["games"]] == ["stored"] * 3
    packed = zstandard.ZstdCompressor().compress(as_bytes(clean_log(15)))
    response = client.post("/api/logs?name=g.json.zst", data=packed, content_type="application/zstd")
    assert response.status_code == 201
    assert archive.count() == 5


def test_duplicate_links_to_the_existing_game(client):
    data = as_bytes(clean_log(21))
    first = upload(client, ("a.json", data)).json["files"][0]["games"][0]
    again = upload(client, ("b.json", data))
    assert again.status_code == 200
    game = again.json["files"][0]["games"][0]
    assert game["status"] == "duplicate"
    assert game["url"] == first["url"]
    assert "delete_token" not in game  # only the first uploader may delete


def test_batch_with_a_bad_line_stores_the_rest(client, archive):
    batch = as_bytes(clean_log(31)) + b"\n{not json\n" + as_bytes(clean_log(32))
    response = upload(client, ("mixed.jsonl", batch))
    assert response.status_code == 201
    result = response.json["files"][0]
    assert [g["status"] for g in result["games"]] == ["stored", "refused", "stored"]
    assert "1 of 3 games" in result["reason"]
    assert archive.count() == 2
    assert archive.quarantine().total == 0


# --- hostile input -----------------------------------------------------------------------------

def _zstd_bomb() -> bytes:
    return zstandard.ZstdCompressor(level=3).compress(b"\0" * (64 * 1024 * 1024))


HOSTILE = {
    "50 MB file": ("big.json", lambda: b"[" + b" " * (50 * 1024 * 1024) + b"]", 413, "bytes"),
    "zstd bomb": ("bomb.json.zst", _zstd_bomb, 413, "inflates past the limit"),
    "binary noise": ("noise.json", lambda: random.Random(7).randbytes(64 * 1024), 422, "not UTF-8"),
    "deep JSON": ("deep.json", lambda: b"[" * 200_000 + b"]" * 200_000, 422, "nested deeper"),
    "deep inside a log": ("deep2.json", lambda: as_bytes({**clean_log(5), "meta": {}})[:-2]
                          + b'"x": ' + b"[" * 5000 + b"]" * 5000 + b"}}", 422, "nested deeper"),
    "path name": ("../../etc/passwd", lambda: as_bytes(clean_log(6)), 400, "may not contain a path"),
    "backslash name": ("..\\..\\boot.ini", lambda: as_bytes(clean_log(6)), 400, "may not contain a path"),
    "empty file": ("empty.json", lambda: b"", 400, "empty"),
}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_hostile_upload_is_refused_and_changes_nothing(client, archive, case):
    name, make, status, reason = HOSTILE[case]
    before = table_counts(archive)
    response = upload(client, (name, make()))
    assert response.status_code == status, response.json
    body = response.json
    text = body.get("error") or body["files"][0]["reason"]
    assert reason in text
    assert table_counts(archive) == before


def test_hostile_raw_body_is_refused_and_changes_nothing(client, archive):
    before = table_counts(archive)
    huge = client.post("/api/logs", data=b"{" + b" " * (50 * 1024 * 1024), content_type="application/json")
    assert huge.status_code == 413 and "at most" in huge.json["error"]
    deep = client.post("/api/logs", data=b"{\"a\":" * 100_000, content_type="application/json")
    assert deep.status_code == 422
    odd = client.post("/api/logs", data=b"x", content_type="image/png")
    assert odd.status_code == 415 and "image/png" in odd.json["error"]
    nothing = client.post("/api/logs", data={}, content_type="multipart/form-data")
    assert nothing.status_code == 400 and "no files" in nothing.json["error"]
    assert table_counts(archive) == before


def test_too_many_files_is_refused(client, app, archive):
    before = table_counts(archive)
    files = [(f"g{i}.json", as_bytes(clean_log(100 + i))) for i in range(app.config.get("UPLOAD_MAX_FILES", 20) + 1)]
    response = upload(client, *files)
    assert response.status_code == 413
    assert "at most 20" in response.json["error"]
    assert table_counts(archive) == before


def test_xss_name_is_echoed_as_data_only(client):
    name = "<img src=x onerror=alert(1)>.json"
    token = form_token(client)
    form = client.post("/upload", data={"csrf_token": token, "files": [(io.BytesIO(b"junk"), name)]})
    assert form.status_code == 422
    assert name not in form.text and "&lt;img src=x onerror=alert(1)&gt;.json" in form.text
    response = upload(client, (name, as_bytes(xss_log())))
    assert response.status_code == 201
    assert response.mimetype == "application/json"
    game = response.json["files"][0]["games"][0]
    for path in (game["url"], game["triage_url"]):
        page = client.get(path)
        assert page.status_code == 200
        assert XSS_NAME not in page.text
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page.text or "\\u003cscript\\u003e" in page.text


# --- unlisted, public, delete --------------------------------------------------------------------

def _stored(client, seed: int = 41) -> dict:
    return upload(client, ("g.json", as_bytes(clean_log(seed)))).json["files"][0]["games"][0]


def test_uploads_are_unlisted_and_not_under_their_public_id(client, app, archive):
    game = _stored(client)
    assert len(game["token"]) >= 32 and "id" not in game
    assert client.get("/games.json").json["total"] == 0
    with app.app_context():
        from viewer.services.upload import uploads

        public_id = uploads().by_token(game["token"]).public_id
    for path in (f"/g/{public_id}", f"/g/{public_id}.json", f"/g/{public_id}/log.json", f"/embed/g/{public_id}",
                 f"/g/{public_id}/triage", f"/api/games/{public_id}",
                 f"/oembed?url=http://localhost/g/{public_id}&format=json"):
        assert client.get(path).status_code == 404, path
    assert client.get(game["url"]).status_code == 200
    assert client.get(game["url"]).headers["Cache-Control"] == "private, no-store"


def test_make_public_needs_the_delete_token(client):
    game = _stored(client)
    wrong = client.post(f"/api/uploads/{game['token']}/publish", headers={"X-Delete-Token": "x" * 32})
    assert wrong.status_code == 403
    assert client.get("/games.json").json["total"] == 0
    right = client.post(f"/api/uploads/{game['token']}/publish", headers={"X-Delete-Token": game["delete_token"]})
    assert right.status_code == 200
    listing = client.get("/games.json").json
    assert [g["id"] for g in listing["games"]] == [right.json["id"]]
    assert client.get(right.json["url"]).status_code == 200
    oembed = client.get(f"/oembed?url=http://localhost{right.json['url']}&format=json")
    assert oembed.status_code == 200 and oembed.json["type"] == "rich"


def test_delete_link_removes_the_game_and_a_wrong_token_changes_nothing(client, archive):
    game = _stored(client)
    other = _stored(client, 42)
    before = table_counts(archive)
    token = form_token(client)
    manage = client.get(game["manage_url"])
    assert manage.status_code == 200 and "Delete this game" in manage.text
    wrong = client.post(f"/u/{game['token']}/delete", data={"csrf_token": token, "delete_token": other["delete_token"]})
    assert wrong.status_code == 403
    assert table_counts(archive) == before
    assert client.get(game["url"]).status_code == 200
    api_wrong = client.delete(f"/api/uploads/{game['token']}", headers={"X-Delete-Token": "nope"})
    assert api_wrong.status_code == 403
    assert table_counts(archive) == before
    done = client.post(f"/u/{game['token']}/delete", data={"csrf_token": token, "delete_token": game["delete_token"]})
    assert done.status_code == 200 and "deleted" in done.text
    assert client.get(game["url"]).status_code == 404
    after = table_counts(archive)
    assert after["games"] == before["games"] - 1
    assert after["blobs"] == before["blobs"] - 1  # its bytes are gone too
    assert client.get(other["url"]).status_code == 200
    again = client.delete(f"/api/uploads/{game['token']}", headers={"X-Delete-Token": game["delete_token"]})
    assert again.status_code == 404


def test_api_delete_with_the_right_token(client, archive):
    game = _stored(client)
    response = client.delete(f"/api/uploads/{game['token']}", headers={"X-Delete-Token": game["delete_token"]})
    assert response.status_code == 200
    assert archive.count() == 0


# --- the form: CSRF and rate limit ---------------------------------------------------------------

def test_form_needs_the_csrf_token(client, archive):
    data = as_bytes(clean_log(51))
    no_cookie = client.post("/upload", data={"files": [(io.BytesIO(data), "g.json")]})
    assert no_cookie.status_code == 403
    token = form_token(client)
    wrong = client.post("/upload", data={"csrf_token": "x" * 43, "files": [(io.BytesIO(data), "g.json")]})
    assert wrong.status_code == 403 and "security token" in wrong.text
    cross = client.post("/upload", data={"csrf_token": token, "files": [(io.BytesIO(data), "g.json")]},
                        headers={"Origin": "https://evil.example"})
    assert cross.status_code == 403
    assert archive.count() == 0
    ok = client.post("/upload", data={"csrf_token": token, "files": [(io.BytesIO(data), "g.json")]})
    assert ok.status_code == 201
    assert "stored" in ok.text and "/u/" in ok.text
    assert archive.count() == 1


def test_api_refuses_cross_site_browser_posts(client, archive):
    response = client.post("/api/logs", data=as_bytes(clean_log(52)), content_type="application/json",
                           headers={"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"})
    assert response.status_code == 403
    assert archive.count() == 0


def test_rate_limit_per_client(tmp_path):
    from viewer.app import create_app

    app = create_app({"TESTING": True, "DB": f"sqlite:///{tmp_path / 'a.db'}",
                      "UPLOAD_RATE_PER_MINUTE": 1, "UPLOAD_RATE_BURST": 2})
    client = app.test_client()
    codes = [client.post("/api/logs", data=as_bytes(clean_log(60 + i)), content_type="application/json").status_code
             for i in range(3)]
    assert codes == [201, 201, 429]
    limited = client.post("/api/logs", data=b"{}", content_type="application/json")
    assert limited.status_code == 429
    assert int(limited.headers["Retry-After"]) >= 1
    assert "too many uploads" in limited.json["error"]
    other = client.post("/api/logs", data=as_bytes(clean_log(70)), content_type="application/json",
                        environ_base={"REMOTE_ADDR": "10.0.0.9"})
    assert other.status_code == 201


def test_security_headers_on_new_pages(client):
    game = _stored(client)
    for path in ("/upload", "/games", "/stats", game["url"] + "/triage", "/api/openapi.json", game["manage_url"]):
        response = client.get(path)
        csp = response.headers["Content-Security-Policy"]
        script = next(p for p in csp.split(";") if p.strip().startswith("script-src"))
        assert "'unsafe-inline'" not in script, path
        assert "frame-ancestors 'none'" in csp, path
        assert response.headers["X-Content-Type-Options"] == "nosniff"
        assert response.headers["X-Frame-Options"] == "DENY"
        assert response.headers["Referrer-Policy"]
        if response.mimetype == "text/html":
            assert "<script>" not in response.text  # no inline script at all


def test_upload_json_is_well_formed(client):
    response = upload(client, ("g.json", as_bytes(clean_log(81))))
    body = json.loads(response.data)
    assert set(body) == {"status", "stored", "files"}
    assert body["status"] == response.status_code


def test_brackets_inside_strings_do_not_count_as_nesting(client):
    log = clean_log(91, chat=True)
    log["events"].append({"type": "chat", "seat": "N", "text": "[" * 500 + "{" * 500})
    response = upload(client, ("chatty.json", as_bytes(log)))
    assert response.status_code == 201


def test_legacy_text_log_uploads(client, sample_logs):
    path = sample_logs / "legacy" / "worked-example.txt"
    response = upload(client, ("worked-example.txt", path.read_bytes()))
    assert response.status_code == 201
    assert response.json["files"][0]["status"] == "stored"


def test_too_many_form_parts_is_refused(client, archive):
    before = table_counts(archive)
    fields = {f"f{i}": "x" for i in range(200)}
    fields["files"] = (io.BytesIO(as_bytes(clean_log(92))), "g.json")
    response = client.post("/api/logs", data=fields, content_type="multipart/form-data")
    assert response.status_code == 413
    assert table_counts(archive) == before


def test_nul_in_a_player_name_is_refused_not_a_server_error(client, archive):
    before = table_counts(archive)
    log = clean_log(93)
    log["players"]["N"]["name"] = "a\u0000b"
    response = upload(client, ("nul.json", as_bytes(log)))
    assert response.status_code == 422
    assert "players.N.name" in response.json["files"][0]["reason"]
    batch = as_bytes(log) + b"\n" + as_bytes(clean_log(94))
    mixed = upload(client, ("nul.jsonl", batch))
    assert mixed.status_code == 201
    assert [g["status"] for g in mixed.json["files"][0]["games"]] == ["refused", "stored"]
    assert table_counts(archive)["games"] == before["games"] + 1
    assert client.get("/stats.json?name=a%00b").status_code == 400
