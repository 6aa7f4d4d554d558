"""Studies: the problems a review of issue 28 found, each shown to stay fixed through the app.

Each test sends what the review sent (a branch of announcements, a body nested too deep, a
seat's view of a branch of another seat's bluff, notes that only break the limits once joined,
listing a study after its page was cached, an upload's study listed) and checks the clear
answer, never a 500, and that nothing hidden reaches a seat's page."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from replay.codec import encode
from replay.games import get
from replay.study import MAX_COMMENT_BYTES, StudyGame

from .test_study_pages import make_study, study_data


@pytest.fixture
def client(tmp_path: Path):
    from viewer.app import create_app

    app = create_app({"TESTING": True, "DB": f"sqlite:///{tmp_path / 'archive.db'}",
                      "UPLOAD_RATE_PER_MINUTE": 100000, "UPLOAD_RATE_BURST": 100000,
                      "STUDY_RATE_PER_MINUTE": 100000, "STUDY_RATE_BURST": 100000})
    return app.test_client()


def test_a_branch_of_announcements_or_chat_is_refused_with_its_reason(client) -> None:
    data = StudyGame.new(get("floating-bridge").selfplay(seed=2)).to_json()
    for moves, reason in (([{"type": "trick", "winner": "E"}], "move 1 (trick E) is not legal there"),
                          ([{"type": "chat", "seat": "N", "text": "hi"}], "moves only")):
        data["branches"] = [{"id": "b1", "parent": "main", "at": 18, "moves": moves}]
        response = client.post("/api/studies", json={"study": data})
        assert response.status_code == 422, response.get_data(as_text=True)
        assert reason in response.get_json()["error"]


def test_a_body_nested_too_deep_is_a_400(client) -> None:
    body = '{"study":' + "[" * 100_000 + "]" * 100_000 + "}"
    response = client.post("/api/studies", data=body, content_type="application/json")
    assert response.status_code == 400
    assert "nested deeper" in response.get_json()["error"]


def _coup_bluff_study(client) -> tuple[str, str, str]:
    """A Coup study whose branch's first move is a claim, and the seat that did not make it."""
    log = get("coup").selfplay(seed=1)
    study = StudyGame.new(log)
    moves = study.moves("main", 0)
    claim = next(m for m in moves if "claiming" in m.text)
    made = make_study(client, {"study": study.with_branch("main", 0, [claim.event])[0].to_json()})
    other = next(s for s in get("coup").seat_order(log) if s != claim.seat)
    return made["id"], claim.text, other


def test_a_seat_view_words_a_branch_as_that_seat_saw_it(client) -> None:
    study_id, words, other = _coup_bluff_study(client)
    assert "(true)" in words or "(bluff" in words or "(false)" in words  # the open words know the truth
    open_page = client.get(f"/s/{study_id}").get_data(as_text=True)
    assert words in open_page
    # (the JSON twin, like every game's, is the game with every card open)
    for address in (f"/s/{study_id}?view={other}", f"/embed/s/{study_id}?view={other}"):
        text = client.get(address).get_data(as_text=True)
        assert words not in text, address
    seen = study_data(client.get(f"/s/{study_id}?view={other}").get_data(as_text=True))["lines"][1]["first"]
    assert seen and "claiming" in seen and "(true)" not in seen


def test_notes_over_a_limit_once_joined_are_refused_not_stored(client) -> None:
    data = StudyGame.new(get("uno-lite").selfplay(seed=3)).to_json()
    half = "a" * (MAX_COMMENT_BYTES // 2 + 10)
    data["notes"] = [{"line": "main", "step": 3, "comment": half}, {"line": "main", "step": 3, "comment": half}]
    response = client.post("/api/studies", json={"study": data})
    assert response.status_code in (413, 422), response.get_data(as_text=True)
    assert "joined" in response.get_json()["error"]
    assert client.get("/api/studies").get_json()["total"] == 0


def test_listing_a_study_shows_on_its_page_at_once(client) -> None:
    made = make_study(client, {"source": {"kind": "code", "ref": encode(get("uno-lite").selfplay(seed=4))}})
    before = client.get(f"/s/{made['id']}")
    assert study_data(before.get_data(as_text=True))["listed"] is False
    answer = client.post(f"/api/studies/{made['id']}/listed", json={"listed": True},
                         headers={"X-Study-Token": made["owner_token"]})
    assert answer.status_code == 200, answer.get_data(as_text=True)
    after = client.get(f"/s/{made['id']}", headers={"If-None-Match": before.headers.get("ETag", "")})
    assert after.status_code == 200
    assert study_data(after.get_data(as_text=True))["listed"] is True


def _upload(client) -> str:
    log = get("coup").selfplay(seed=6)
    response = client.post("/api/logs", data=log.canonical_json(), content_type="application/json")
    assert response.status_code == 201, response.get_data(as_text=True)
    return response.get_json()["files"][0]["games"][0]["token"]


def test_a_study_of_an_upload_stays_unlisted_and_keeps_no_token(client) -> None:
    token = _upload(client)
    refused = client.post("/api/studies", json={"source": {"kind": "upload", "ref": token}, "listed": True})
    assert refused.status_code == 422 and "stays unlisted" in refused.get_json()["error"]
    made = make_study(client, {"source": {"kind": "upload", "ref": token}})
    listed = client.post(f"/api/studies/{made['id']}/listed", json={"listed": True},
                         headers={"X-Study-Token": made["owner_token"]})
    assert listed.status_code == 422
    stored: dict[str, Any] = client.get(f"/api/studies/{made['id']}").get_json()["study"]
    assert stored["source"] == {"kind": "upload", "ref": None}
    assert token not in json.dumps(stored)
    # a study sent with an upload's reference of its own is refused, not kept
    stored["source"] = {"kind": "upload", "ref": token}
    response = client.post("/api/studies", json={"study": stored})
    assert response.status_code == 422 and "keeps no reference" in response.get_json()["error"]


def test_a_save_with_a_wrong_token_is_refused_before_the_study_is_read(client) -> None:
    made = make_study(client, {"source": {"kind": "code", "ref": encode(get("uno-lite").selfplay(seed=5))}})
    # a study that would take judging to refuse: the wrong token is what the answer names
    response = client.put(f"/api/studies/{made['id']}", json={"base": 1, "study": {"log": {}}},
                          headers={"X-Study-Token": "x" * 32})
    assert response.status_code == 403
    assert "owner token" in response.get_json()["error"]
