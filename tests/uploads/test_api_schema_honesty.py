"""The OpenAPI document says what the API does, and the API does what it says (review item 10).

Each case a schemathesis run with ``--checks all`` once found: a missing ``Authorization``
answered 403 instead of 401; schema-valid requests refused (a junk ``contract``, a triage step
past the game's end, a control character in a stats ``name``, an empty multipart upload, a
``{}`` body); an ``offset`` above the schema's maximum accepted. "Valid" here is what the
document served at ``/api/openapi.json`` says, read by the JSON Schema validator schemathesis
uses (``jsonschema_rs``, formats checked).
"""

from __future__ import annotations

import io
import json

import jsonschema_rs

from replay.games import get as get_game
import pytest

from .conftest import ADMIN, table_counts
from .logs import as_bytes, clean_log

ADMIN_ROUTES = [("get", "/api/quarantine", "/api/quarantine"),
                ("delete", "/api/games/{id}", "/api/games/{id}"),
                ("delete", "/api/quarantine/{id}", "/api/quarantine/1")]


@pytest.fixture
def doc(client):
    return client.get("/api/openapi.json").json


@pytest.fixture
def game(client, archive):
    """A public game's id and its last step."""
    archive.ingest_bytes(as_bytes(clean_log(3)), "g.json")
    public_id = archive.list(limit=1).items[0].public_id
    last = client.get(f"/api/games/{public_id}/triage").json["last_step"]
    return public_id, last


def _resolve(doc, node):
    while isinstance(node, dict) and "$ref" in node:
        target = doc
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        node = target
    return node


def _validator(doc, schema):
    # The document's components travel along, so a $ref inside resolves as it does in the document.
    return jsonschema_rs.Draft202012Validator({**schema, "components": doc["components"]}, validate_formats=True)


def query_param_valid(doc, path, method, name, value) -> bool:
    [param] = [p for p in doc["paths"][path][method]["parameters"] if p["name"] == name]
    return _validator(doc, param["schema"]).is_valid(int(value) if param["schema"].get("type") == "integer"
                                                     and value.lstrip("-").isdigit() else value)


def body_valid(doc, media_type, body) -> bool:
    schema = doc["paths"]["/api/logs"]["post"]["requestBody"]["content"][media_type]["schema"]
    return _validator(doc, _resolve(doc, schema)).is_valid(body)


# --- a missing Authorization header: 401 with a challenge, as declared -----------------------------

@pytest.mark.parametrize("method, path, url", ADMIN_ROUTES)
def test_no_credentials_is_401_with_a_bearer_challenge(client, doc, game, method, path, url):
    response = getattr(client, method)(url.format(id=game[0]))
    assert response.status_code == 401
    assert response.headers["WWW-Authenticate"].startswith("Bearer")
    assert "admin token" in response.json["error"]
    declared = doc["paths"][path][method]["responses"]["401"]
    assert declared["headers"]["WWW-Authenticate"]["required"] is True


@pytest.mark.parametrize("method, path, url", ADMIN_ROUTES)
def test_wrong_credentials_stay_403_and_change_nothing(client, archive, game, method, path, url):
    before = table_counts(archive)
    response = getattr(client, method)(url.format(id=game[0]), headers={"Authorization": "Bearer wrong-token"})
    assert response.status_code == 403
    assert "WWW-Authenticate" not in response.headers
    assert table_counts(archive) == before


def test_admin_off_is_still_404_not_a_challenge(tmp_path):
    from viewer.app import create_app

    app = create_app({"TESTING": True, "DB": f"sqlite:///{tmp_path / 'a.db'}"})
    response = app.test_client().get("/api/quarantine")
    assert response.status_code == 404 and "WWW-Authenticate" not in response.headers


# --- schema-valid requests are accepted; what the server refuses, the schema forbids ----------------

@pytest.mark.parametrize("value, accepted", [
    ("junk", False), ("3S", True), ("2NT", True), ("7n", True), ("3\u2660", True), ("8S", False),
    ("", False), ("3S\n", False), (" 3S", False), ("pass", False),
])
def test_contract_filter_schema_and_server_agree(client, doc, value, accepted):
    assert query_param_valid(doc, "/api/games", "get", "contract", value) is accepted
    response = client.get("/api/games", query_string={"contract": value})
    assert response.status_code == (200 if accepted else 400)
    if not accepted:
        assert "contract" in response.json["error"] and "must be" in response.json["error"]


def test_triage_step_past_the_games_end_is_404_and_documented(client, doc, game):
    public_id, last = game
    assert query_param_valid(doc, "/api/games/{id}/triage", "get", "step", str(last + 1))
    response = client.get(f"/api/games/{public_id}/triage?step={last + 1}")
    assert response.status_code == 404
    assert f"steps 0 to {last}" in response.json["error"]
    assert "404" in doc["paths"]["/api/games/{id}/triage"]["get"]["responses"]
    assert client.get(f"/api/games/{public_id}/triage?step={last}").json["selected"] == last


def test_triage_step_outside_the_schema_is_400(client, doc, game):
    public_id, _ = game
    for value in ("1000000", "-1", "x", "1.5"):
        assert not query_param_valid(doc, "/api/games/{id}/triage", "get", "step", value)
        assert client.get(f"/api/games/{public_id}/triage", query_string={"step": value}).status_code == 400


@pytest.mark.parametrize("value, valid", [("bot\x01", False), ("\tgreedy-1", False), ("greedy-1", True),
                                          ("nobody here", True), ("x" * 101, False)])
def test_stats_name_schema_and_server_agree(client, doc, game, value, valid):
    assert query_param_valid(doc, "/api/stats", "get", "name", value) is valid
    response = client.get("/api/stats", query_string={"name": value})
    # 404 for a well-formed name nobody has: schema-valid, so not a 400
    assert (response.status_code == 400) is (not valid), response.json
    if value == "bot\x01":
        assert "name must be text without control characters" in response.json["error"]


@pytest.mark.parametrize("param, value", [("player", "a\x1fb"), ("bot", "\x00"), ("rules", "x\n"),
                                          ("from", "2026-02-30"), ("to", "20260101"), ("from", "0000-01-01"),
                                          ("has_findings", "true"), ("declarer", "n"), ("page", "0")])
def test_game_filters_the_schema_forbids_are_400(client, doc, param, value):
    assert not query_param_valid(doc, "/api/games", "get", param, value)
    response = client.get("/api/games", query_string={param: value})
    assert response.status_code == 400 and param in response.json["error"]


def test_empty_multipart_upload_is_invalid_by_the_schema_and_refused(client, archive, doc):
    assert not body_valid(doc, "multipart/form-data", {})
    assert not body_valid(doc, "multipart/form-data", {"files": []})
    before = table_counts(archive)
    response = client.post("/api/logs", data={}, content_type="multipart/form-data")
    assert response.status_code == 400 and "no files" in response.json["error"]
    assert table_counts(archive) == before


def test_a_files_part_without_a_filename_is_a_file(client, doc):
    """RFC 7578 makes the filename optional: a schema-valid multipart body without one is read."""
    log = as_bytes(clean_log(4))
    assert body_valid(doc, "multipart/form-data", {"files": [log.decode()]})
    boundary = "b0undary"
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"files\"\r\n"
            f"Content-Type: application/json\r\n\r\n").encode() + log + f"\r\n--{boundary}--\r\n".encode()
    response = client.post("/api/logs", data=body, content_type=f"multipart/form-data; boundary={boundary}")
    assert response.status_code == 201, response.json
    assert response.json["stored"] == 1


def test_empty_json_body_is_invalid_by_the_schema_and_refused(client, archive, doc):
    assert not body_valid(doc, "application/json", {})
    before = table_counts(archive)
    response = client.post("/api/logs", data=b"{}", content_type="application/json")
    assert response.status_code == 422
    assert table_counts(archive) == before


def test_a_real_log_is_valid_by_the_schema_and_stored(client, doc):
    log = clean_log(5)
    assert body_valid(doc, "application/json", log)
    response = client.post("/api/logs", data=json.dumps(log), content_type="application/json")
    assert response.status_code == 201
    assert body_valid(doc, "multipart/form-data", {"files": ["x"]})
    many = client.post("/api/logs", data={"files": [(io.BytesIO(as_bytes(clean_log(6))), "a.json")]},
                       content_type="multipart/form-data")
    assert many.status_code == 201


@pytest.mark.parametrize("value, valid", [("999999", True), ("1000000", False), ("9999999", False),
                                          ("0", True), ("-1", False)])
def test_quarantine_offset_is_held_to_the_schemas_maximum(client, doc, value, valid):
    assert query_param_valid(doc, "/api/quarantine", "get", "offset", value) is valid
    response = client.get("/api/quarantine", query_string={"offset": value},
                          headers={"Authorization": f"Bearer {ADMIN}"})
    assert response.status_code == (200 if valid else 400)
    if not valid:
        assert "offset must be a whole number from 0 to 999999" in response.json["error"]


@pytest.mark.parametrize("value, valid", [("game.json", True), ("../x.json", False), ("a/b", False),
                                          (".", False), (".hidden", True), ("bad\x7fname", False), ("", True)])
def test_upload_name_schema_and_server_agree(client, doc, value, valid):
    assert query_param_valid(doc, "/api/logs", "post", "name", value) is valid
    response = client.post("/api/logs", query_string={"name": value}, data=as_bytes(clean_log(7)),
                           content_type="application/json")
    assert (response.status_code == 400) is (not valid), response.json
