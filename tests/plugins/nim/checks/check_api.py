"""The JSON API takes Nim's logs and describes its schema."""

from __future__ import annotations

import json

import pytest

from .conftest import CLEAN


@pytest.fixture
def client(tmp_path):
    from viewer.app import create_app

    return create_app({"TESTING": True, "DB": f"sqlite:///{tmp_path / 'archive.db'}"}).test_client()


def test_post_a_log(client):
    response = client.post("/api/logs", data=CLEAN[0].read_bytes(), content_type="application/json")
    assert response.status_code == 201, response.get_data(as_text=True)
    body = response.get_json()
    assert "nim" in json.dumps(body)


def test_api_games_lists_its_facts(client):
    for path in CLEAN:
        client.post("/api/logs?listed=1", data=path.read_bytes(), content_type="application/json")
    response = client.get("/api/games?game=nim")
    assert response.status_code == 200, response.get_data(as_text=True)
    items = response.get_json()["items"]
    assert items and all(item["game"] == "nim" and "moves" in item["facts"] for item in items)


def _reachable(document: dict, start) -> list[dict]:
    """Every schema object reachable from ``start`` through ``$ref``s into the document."""
    seen, out, todo = set(), [], [start]
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/") and ref not in seen:
                seen.add(ref)
                target = document
                for part in ref[2:].split("/"):
                    target = target[part]
                todo.append(target)
            out.append(node)
            todo.extend(node.values())
        elif isinstance(node, list):
            todo.extend(node)
    return out


def test_openapi_describes_its_log_schema(client):
    document = client.get("/api/openapi.json").get_json()
    body = document["paths"]["/api/logs"]["post"]["requestBody"]
    schemas = _reachable(document, body)
    formats = [s for s in schemas if s.get("const") == "nim/1" or "nim/1" in (s.get("enum") or ())]
    assert formats, "the OpenAPI document's POST /api/logs body does not describe nim/1 logs"
