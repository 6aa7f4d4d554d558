"""The games browser, stats and triage across games: a game filter, and which game each row is."""

from __future__ import annotations

import json

from replay.games import names

from .conftest import load


def test_games_listing_says_which_game_and_filters_by_game(client, archived):
    every = client.get("/games.json?per_page=100").get_json()
    assert every["total"] == len(archived)
    assert {g["game"] for g in every["games"]} == {"floating-bridge"}
    assert all(g["seats"] == ["N", "E", "S", "W"] for g in every["games"])
    bridge = client.get("/games.json?game=floating-bridge").get_json()
    assert bridge["total"] == len(archived) and bridge["filters"] == {"game": "floating-bridge"}
    assert client.get("/games.json?game=uno-lite").get_json()["total"] == 0
    page = client.get("/games?game=floating-bridge").get_data(as_text=True)
    assert '<option value="floating-bridge" selected>Floating bridge</option>' in page
    assert all(f'<option value="{n}"' in page for n in names())  # every registered game is offered
    assert page.count('<td class="game" data-game="floating-bridge">Floating bridge</td>') == len(archived)


def test_an_unknown_game_filter_is_a_400_that_names_it(client, archived):
    for path in ("/games.json?game=chess", "/games?game=chess", "/stats.json?game=chess", "/stats?game=chess"):
        response = client.get(path)
        assert response.status_code == 400, path
        body = response.get_data(as_text=True)
        assert "game must be one of" in body and "chess" in body


def test_stats_for_one_game(client, archived):
    every = client.get("/stats.json?by=player").get_json()
    bridge = client.get("/stats.json?by=player&game=floating-bridge").get_json()
    # every archived game here is bridge: the same people, and the game's leaderboard beside them
    assert bridge["game"] == "floating-bridge" and every["rows"]
    assert sorted(r["name"] for r in bridge["rows"]) == sorted(r["name"] for r in every["rows"])
    assert all("rating" in r for r in bridge["rows"]) and not any("rating" in r for r in every["rows"])
    assert "game" not in every
    assert client.get("/stats.json?by=player&game=uno-lite").get_json()["rows"] == []
    page = client.get("/stats?by=player&game=floating-bridge").get_data(as_text=True)
    assert '<option value="floating-bridge" selected>' in page and "&amp;game=floating-bridge" in page


def test_think_times_count_moves_of_any_game_but_not_chat():
    from viewer.services.stats import think_times

    log = load("seed3").model_copy(deep=True)
    data = json.loads(log.canonical_json())
    for i, event in enumerate(data["events"]):
        event["t"] = 1000 * (i + 1)
    data["events"].insert(2, {"type": "chat", "seat": "N", "text": "hi", "t": 2500})
    from replay.log import parse_log

    times = think_times(parse_log(data))
    moves = [e for e in data["events"] if e["type"] not in ("chat", "trick")]
    assert sum(len(v) for v in times.values()) == len(moves)
    assert times[data["events"][0]["seat"]][0] == 1000  # the first call: from the start


def test_bridge_triage_keeps_its_contract_line_and_seat_order(client, archived):
    data = client.get(f"/g/{archived['revoke']}/triage.json").get_json()
    assert data["game"]["game"] == "floating-bridge" and data["game"]["seats"] == ["N", "E", "S", "W"]
    assert [f["name"] for f in data["game"]["shown"]] == ["contract", "declarer", "result"]
    plays = [e for e in data["timeline"] if e["type"] == "play"]
    assert plays and all(len(e["text"]) == 2 for e in plays)  # cards as the log writes them: "H2"
    page = client.get(f"/g/{archived['revoke']}/triage").get_data(as_text=True)
    from replay.games import get

    contract = get("floating-bridge").fact("contract").shown(data["game"]["facts"]["contract"])
    assert f"Contract: {contract}" in page  # as the game shows it (its Fact.show)
