"""The JSON API takes Nim's logs and describes its schema."""

from __future__ import annotations

import json

import pytest

from .conftest import CLEAN


@pytest.fixture
def app(tmp_path):
    from viewer.app import create_app

    return create_app({"TESTING": True, "DB": f"sqlite:///{tmp_path / 'archive.db'}"})


@pytest.fixture
def client(app):
    return app.test_client()


def test_post_a_log(client):
    response = client.post("/api/logs", data=CLEAN[0].read_bytes(), content_type="application/json")
    assert response.status_code == 201, response.get_data(as_text=True)
    body = response.get_json()
    assert body["stored"] == 1 and body["files"][0]["games"][0]["findings"] == 0


def test_api_games_lists_its_facts(app, client):
    from viewer.app import get_archive

    with app.app_context():
        get_archive().ingest_paths([str(p) for p in CLEAN])
    response = client.get("/api/games?game=nim")
    assert response.status_code == 200, response.get_data(as_text=True)
    items = response.get_json()["games"]
    assert len(items) == len(CLEAN)
    assert all(item["game"] == "nim" and "moves" in item["facts"] for item in items), items[0]
    response = client.get("/api/games?game=nim&moves=7")
    assert response.status_code == 200, response.get_data(as_text=True)
    assert {item["facts"]["moves"] for item in response.get_json()["games"]} == {7}
    response = client.get("/api/games?game=nim&heaps=3-x")
    assert response.status_code == 400 and "heaps" in response.get_json()["error"]


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
