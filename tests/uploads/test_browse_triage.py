"""The games browser, stats and triage pages (and their JSON), and the admin pages."""

from __future__ import annotations

import json

import pytest

from replay.log import parse_log

from .conftest import ADMIN, form_token
from .logs import XSS_NAME, as_bytes, clean_log, revoke_log, wrong_winner_log, xss_log


@pytest.fixture
def filled(app, archive):
    """A public archive: greedy and random self-play, a revoke, a wrong trick winner, an XSS name."""
    logs = [clean_log(s) for s in range(1, 5)] + [clean_log(s, bot="random") for s in range(5, 8)]
    logs += [revoke_log(), wrong_winner_log(), xss_log()]
    for i, log in enumerate(logs):
        archive.ingest_bytes(as_bytes(log), f"g{i}.json")
    return {"logs": logs, "by_id": {s.game_id: s.public_id for s in archive.list(limit=100).items}}


def test_games_filters_by_bot_and_finding_kind(client, filled):
    random_games = client.get("/games.json?bot=random").json
    assert random_games["total"] == 3
    assert all(any((p.get("bot") or "").startswith("random") for p in g["players"].values())
               for g in random_games["games"])
    revokes = client.get("/games.json?finding_kind=revoke").json
    assert [g["finding_kinds"] for g in revokes["games"]] == [["revoke"]]
    winners = client.get("/games.json?finding_kind=wrong_trick_winner").json
    assert winners["total"] == 1
    page = client.get("/games?finding_kind=revoke")
    assert page.status_code == 200
    assert page.text.count('<tr data-id=') == 1


def test_games_other_filters_sort_and_pages(client, filled):
    every = client.get("/games.json?per_page=100").json
    assert every["total"] == len(filled["logs"])
    some = next(g for g in every["games"] if g["facts"].get("contract"))
    by_contract = client.get(f"/games.json?contract={some['facts']['contract']}").json
    assert some["id"] in [g["id"] for g in by_contract["games"]]
    assert all(g["facts"]["contract"] == some["facts"]["contract"] for g in by_contract["games"])
    made = client.get("/games.json?result=declarer").json
    assert all(g["facts"]["result"] == "declarer" for g in made["games"])
    ended = client.get("/games.json?end_reason=completed").json
    assert all(g["end_reason"] == "completed" for g in ended["games"])
    rules = client.get("/games.json?rules=bridgebot").json
    assert rules["total"] >= 1 and all(g["facts"]["rules"] == "bridgebot" for g in rules["games"])
    first_two = client.get("/games.json?per_page=2&sort=started_at").json
    next_two = client.get("/games.json" + first_two["next"]).json
    assert first_two["pages"] == -(-every["total"] // 2)
    starts = [g["started_at"] for g in first_two["games"] + next_two["games"]]
    assert starts == sorted(starts)
    day = some["started_at"][:10]
    on_day = client.get(f"/games.json?from={day}&to={day}").json
    assert some["id"] in [g["id"] for g in on_day["games"]]
    assert all(g["started_at"][:10] == day for g in on_day["games"])
    player = next(p["name"] for p in some["players"].values())
    assert some["id"] in [g["id"] for g in client.get(f"/games.json?player={player}&per_page=100").json["games"]]


@pytest.mark.parametrize("query,word", [
    ("declarer=X", "declarer"), ("result=maybe", "result"), ("end_reason=nope", "end_reason"),
    ("finding_kind=bogus", "finding_kind"), ("from=yesterday", "from"), ("sort=random", "sort"),
    ("page=0", "page"), ("per_page=1000", "per_page"), ("contract=9Z", "contract"), ("player=%00", "player"),
])
def test_games_bad_parameter_is_a_400_that_names_it(client, filled, query, word):
    response = client.get("/games.json?" + query)
    assert response.status_code == 400
    assert word in response.json["error"]
    assert client.get("/games?" + query).status_code == 400


def test_stats_per_bot_and_player(client, filled):
    data = client.get("/stats.json?by=bot").json
    rows = {r["name"]: r for r in data["rows"]}
    greedy = next(r for n, r in rows.items() if n.startswith("greedy"))
    assert greedy["games"] == client.get("/games.json?bot=greedy").json["total"]  # games, not seats
    assert "role_games" not in greedy and "declarer_games" not in greedy  # every game: neutral columns only
    assert greedy["think_ms_median"] is not None and greedy["think_ms_median"] > 0
    bridge = {r["name"]: r for r in client.get("/stats.json?by=bot&game=floating-bridge").json["rows"]}
    greedy_bridge = next(r for n, r in bridge.items() if n.startswith("greedy"))
    if greedy_bridge["role_games"]:
        assert 0 <= greedy_bridge["role_win_rate"] <= 1
    revoke_seat = parse_log(filled["logs"][7]).replay().findings[0].seat.name
    bot = filled["logs"][7]["players"][revoke_seat]["bot"]
    assert rows[bot]["findings"] >= 1
    assert rows[bot]["findings_per_100_games"] == round(100 * rows[bot]["findings"] / rows[bot]["games"], 2)
    one = client.get("/stats.json", query_string={"by": "player", "name": XSS_NAME}).json
    assert one["rows"][0]["games"] == 1
    page = client.get("/stats?by=bot")
    assert page.status_code == 200 and 'id="stats-charts"' in page.text and "plotly" in page.text
    assert client.get("/stats?by=nobody").status_code == 400
    assert client.get("/stats.json?by=bot&name=no-such-bot").status_code == 404


def test_triage_links_timeline_and_state(client, filled):
    log = filled["logs"][8]  # wrong trick winner
    public_id = filled["by_id"][log["game_id"]]
    data = client.get(f"/g/{public_id}/triage.json").json
    replay = parse_log(log).replay()
    finding = replay.findings[0]
    assert data["findings"][0]["board_url"] == f"/g/{public_id}#{finding.step}"
    assert data["selected"] == finding.step
    assert data["state"]["i"] == finding.step
    disagreements = [e for e in data["timeline"] if e.get("disagrees")]
    assert len(disagreements) == 1
    assert "announces" in disagreements[0]["note"] and "engine:" in disagreements[0]["note"]
    assert disagreements[0]["findings"][0]["kind"] == "wrong_trick_winner"
    agreed = [e for e in data["timeline"] if e["type"] == "trick" and not e["disagrees"]]
    assert len(agreed) == len(replay.trick_winners) - 1
    plays = [e for e in data["timeline"] if e["type"] == "play"]
    assert all(e["think_ms"] is not None and e["think_ms"] >= 0 for e in plays)
    assert len(data["timeline"]) == len(log["events"])
    assert data["repro"]["validate"].startswith("game-replay validate ")
    assert data["code_url"] is None or data["code_url"].startswith("/r/")
    picked = client.get(f"/g/{public_id}/triage.json?step=3").json
    assert picked["state"]["i"] == 3 and picked["state"] == {**replay.steps_json()[3], "findings": []}
    page = client.get(f"/g/{public_id}/triage")
    assert "⚠ disagrees" in page.text and f'href="/g/{public_id}#{finding.step}"' in page.text
    assert client.get(f"/g/{public_id}/log.json").data == as_bytes(log)
    assert client.get(f"/g/{public_id}/triage?step=99999").status_code == 400
    assert client.get(f"/g/{public_id}/triage?step=-1").status_code == 400


def test_triage_chat_lines_are_escaped(client, filled):
    log = filled["logs"][9]
    public_id = filled["by_id"][log["game_id"]]
    page = client.get(f"/g/{public_id}/triage")
    assert page.status_code == 200
    assert XSS_NAME not in page.text and "<img src=x" not in page.text
    assert "&lt;img src=x onerror=alert(2)&gt;" in page.text
    for path in ("/games", "/stats?by=player", f"/g/{public_id}"):
        assert XSS_NAME not in client.get(path).text, path


def test_quarantine_needs_the_admin_token(client, archive):
    archive.ingest_bytes(b"\x00\x01<script>alert(1)</script>\xff", "bad.json")
    assert client.get("/admin/quarantine").status_code == 403
    assert client.get("/api/quarantine").status_code == 401  # no credentials: 401 (wrong ones: 403)
    assert client.get("/api/quarantine", headers={"Authorization": "Bearer wrong-token"}).status_code == 403
    listed = client.get("/api/quarantine", headers={"Authorization": f"Bearer {ADMIN}"}).json
    assert listed["total"] == 1 and "not UTF-8" in listed["items"][0]["error"]
    token = form_token(client)
    assert client.post("/admin", data={"csrf_token": token, "token": "nope"}).status_code == 403
    login = client.post("/admin", data={"csrf_token": token, "token": ADMIN})
    assert login.status_code == 303
    page = client.get("/admin/quarantine")
    assert page.status_code == 200
    assert "<script>alert(1)" not in page.text and "\\x00\\x01&lt;script&gt;" in page.text
    item = listed["items"][0]["id"]
    gone = client.post(f"/admin/quarantine/{item}/delete", data={"csrf_token": token})
    assert gone.status_code == 303
    assert archive.quarantine().total == 0


def test_admin_deletes_a_game(client, filled, archive):
    public_id = next(iter(filled["by_id"].values()))
    count = archive.count()
    assert client.delete(f"/api/games/{public_id}").status_code == 401
    assert archive.count() == count
    response = client.delete(f"/api/games/{public_id}", headers={"Authorization": f"Bearer {ADMIN}"})
    assert response.status_code == 200
    assert archive.count() == count - 1
    assert client.get(f"/g/{public_id}").status_code == 404


def test_admin_is_off_without_a_token(tmp_path):
    from viewer.app import create_app

    client = create_app({"TESTING": True, "DB": f"sqlite:///{tmp_path / 'a.db'}"}).test_client()
    assert client.get("/admin").status_code == 404
    assert client.get("/api/quarantine", headers={"Authorization": "Bearer anything"}).status_code == 404


def test_openapi_document_lists_every_api_route(app, client):
    doc = client.get("/api/openapi.json").json
    assert doc["openapi"].startswith("3.1")
    documented = {(path, method.upper()) for path, ops in doc["paths"].items() for method in ops}
    routes = set()
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/") and rule.rule != "/api/openapi.json":
            path = rule.rule.replace("<int:quarantine_id>", "{id}").replace("<public_id>", "{id}") \
                .replace("<token>", "{token}").replace("<study_id>", "{id}")
            routes |= {(path, m) for m in rule.methods - {"HEAD", "OPTIONS"}}
    assert routes == documented
    json.dumps(doc)


def test_admin_login_is_rate_limited(client):
    token = form_token(client)
    codes = [client.post("/admin", data={"csrf_token": token, "token": f"guess-{i}"}).status_code for i in range(7)]
    assert codes[:5] == [403] * 5 and codes[-1] == 429
    assert client.post("/admin", data={"csrf_token": token, "token": ADMIN}).status_code == 429
