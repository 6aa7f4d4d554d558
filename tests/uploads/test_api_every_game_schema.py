"""Issue 25 item 4 "Schemas": ``POST /api/logs`` documents every registered game's log, chosen by
``format`` (a oneOf of each game's ``json_schema()``), not only floating bridge's."""

from __future__ import annotations

from replay.games import get, names


def _resolve(document, node):
    if "$ref" in node:
        return document["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
    return node


def test_post_logs_documents_every_games_log_by_format(client):
    document = client.get("/api/openapi.json").json
    body = document["paths"]["/api/logs"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    log = _resolve(document, body)
    formats = {f"{n}/{get(n).major}": n for n in names()}
    assert set(log["discriminator"]["mapping"]) == set(formats)
    assert len(log["oneOf"]) == len(formats)
    for fmt, name in formats.items():
        ref = log["discriminator"]["mapping"][fmt]
        assert {"$ref": ref} in log["oneOf"]
        schema = _resolve(document, {"$ref": ref})
        own = get(name).json_schema()
        assert schema["properties"]["format"]["const"] == fmt
        assert set(schema["properties"]) == set(own["properties"]), name
        assert schema.get("required") == own.get("required"), name
