"""UNO Lite's board in the generic shell: an archived UNO game's page, its JSON twin, embed,
perspectives, turns as chapters, charts, and the listing, stats and triage of UNO games.

These need the UNO Lite game package (``replay.games.uno_lite``), which arrives with the UNO
branch: until it is merged they are skipped, by name, here.
"""

from __future__ import annotations

import json
from html import unescape
import re

import pytest

pytest.importorskip("replay.games.uno_lite", reason="the UNO Lite package comes with the uno branch")

from viewer.view import full_steps  # noqa: E402

from .test_pages import data_block  # noqa: E402

EVIL = "<img src=x onerror=alert(1)>"


def uno_log(seed: int = 3, names: tuple[str, str] = ("Ann", EVIL)):
    from replay.games import get

    game = get("uno-lite")
    log = game.selfplay(seed=seed, bots=("greedy", "greedy"))
    data = json.loads(log.canonical_json())
    data["players"] = {"P1": {"name": names[0]}, "P2": {"name": names[1], "bot": "greedy-1"}}
    return data


@pytest.fixture
def uno(app):
    """An archived UNO game: (public id, its judged replay, its log as JSON)."""
    from replay.games import get
    from viewer.app import get_archive

    data = uno_log()
    with app.app_context():
        results = get_archive().ingest_bytes(json.dumps(data).encode(), "uno.json")
    assert results and results[0].public_id, results
    replay = get("uno-lite").judge(get("uno-lite").parse(data))
    return results[0].public_id, replay, data


def worded(replay) -> list[dict]:
    """The steps' texts as the page words them: players' names for seats."""
    from viewer.games.uno_lite.view import log_names, named_texts

    return named_texts(replay, log_names(replay))


def test_uno_page_draws_the_final_position_with_the_shell(client, uno):
    public_id, replay, _ = uno
    response = client.get(f"/g/{public_id}")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    steps = replay.steps_json()
    final = steps[-1]
    assert worded(replay)[-1]["x"] in unescape(html)
    assert re.search(r'<script src="/static/games/uno-lite/board\.[0-9a-f]{10}\.js"', html)
    assert re.search(r'<link rel="stylesheet" href="/static/games/uno-lite/board\.[0-9a-f]{10}\.css"', html)
    assert 'class="page-replay game-uno-lite"' in html and 'title="Next turn (↓)"' in html
    for seat in ("P1", "P2"):
        size = re.search(rf'<b data-size="{seat}">(\d+)</b>', html)
        assert size and int(size.group(1)) == final["hand_sizes"][seat]
    assert f'<b id="uno-pile-size">{final["pile_size"]}</b>' in html
    # every action links to its step
    for s in steps[1:]:
        assert f'href="#{s["i"]}" data-step="{s["i"]}"' in html
    assert ".pbn" not in html and ".lin" not in html  # bridge's exports are not offered
    for tag in re.findall(r"<script\b[^>]*>", html):
        assert "src=" in tag or 'type="application/json"' in tag, tag


def test_uno_player_names_are_escaped(client, uno):
    public_id, _, _ = uno
    html = client.get(f"/g/{public_id}").get_data(as_text=True)
    assert EVIL not in html and "&lt;img src=x onerror=alert(1)&gt;" in html
    assert data_block(html)["game"]["names"]["P2"] == EVIL


def test_uno_steps_and_turn_chapters_follow_the_engine(client, uno):
    public_id, replay, _ = uno
    data = data_block(client.get(f"/g/{public_id}").get_data(as_text=True))
    steps = replay.steps_json()
    assert len(data["steps"]) == len(steps) and data["board"] == "uno-lite"
    for shown, s, words in zip(data["steps"], steps, worded(replay)):
        assert shown["x"] == words["x"] and shown["top"] == s["top"] and shown["pile"] == s["pile_size"]
        assert shown["h"] == [s["hands"]["P1"], s["hands"]["P2"]] and shown["ta"] == s["to_act"]
    ends = data["chapters"]["ends"]
    assert ends == [s["i"] for s in steps if s["kind"] in ("play", "pass")]
    assert len(ends) == replay.turns
    # a draw by the other seat is worded without its card from a seat's view
    draws = [s for s in data["steps"] if s["k"] == "draw"]
    assert draws, "this seed has draws"
    for d in draws:
        other = "P2" if d["s"] == "P1" else "P1"
        assert d["xs"][other] == worded(replay)[d["i"]]["xs"][other] and d["d"] not in d["xs"][other]
        assert d["xs"][other].endswith(" draws a card")


def test_uno_perspective_hides_the_other_hand_and_its_draws(client, uno):
    public_id, replay, _ = uno
    steps = replay.steps_json()
    draw = next(s for s in steps if s["kind"] == "draw")
    other = "P2" if draw["seat"] == "P1" else "P1"
    seen = client.get(f"/g/{public_id}?step={draw['i']}&view={other}").get_data(as_text=True)
    hidden = draw["hand_sizes"][draw["seat"]]
    assert f"{hidden} card{'' if hidden == 1 else 's'} hidden" in seen
    assert worded(replay)[draw["i"]]["xs"][other] in unescape(seen)
    assert f'<option value="{other}" selected>' in seen
    open_page = client.get(f"/g/{public_id}?step={draw['i']}").get_data(as_text=True)
    assert "hidden</div>" not in open_page  # both hands open
    assert worded(replay)[draw["i"]]["x"] in unescape(open_page)


def test_uno_json_twin_embed_and_no_exports(client, uno):
    public_id, replay, _ = uno
    body = client.get(f"/g/{public_id}.json").get_json()
    assert body["replay"] == json.loads(json.dumps(replay.to_json()))
    assert full_steps(body["steps"]) == json.loads(json.dumps(replay.steps_json()))
    assert set(body["names"]) == {"P1", "P2"}
    embed = client.get(f"/embed/g/{public_id}")
    assert embed.status_code == 200 and "uno-turns" in embed.get_data(as_text=True)
    assert client.get(f"/g/{public_id}.pbn").status_code == 404


def test_uno_charts(uno):
    from viewer.games.uno_lite.charts import build_charts

    _, replay, _ = uno
    charts = {c["id"]: c for c in build_charts(replay)}
    assert set(charts) == {"hands", "colours"}
    steps = replay.steps_json()
    sizes = charts["hands"]["series"]["sizes"]
    assert list(sizes) == ["P1", "P2"]
    assert sizes["P1"][0] == 7 and len(sizes["P1"]) == replay.turns + 1
    assert sizes["P1"][-1] == steps[-1]["hand_sizes"]["P1"]
    played = sum(sum(counts) for counts in charts["colours"]["series"]["counts"].values())
    assert played == sum(1 for s in steps if s["kind"] == "play")
    # one block per card played, shown from the step it was played
    svg = charts["colours"]["svg"]
    plays = [s["i"] for s in steps if s["kind"] == "play"]
    assert sorted(int(n) for n in re.findall(r'<rect class="pt [^"]*"[^>]*data-step="(\d+)"', svg)) == plays


def test_uno_games_in_the_listing_stats_and_triage(client, uno, archived):
    public_id, replay, data = uno
    listing = client.get("/games.json?game=uno-lite").get_json()
    assert [g["id"] for g in listing["games"]] == [public_id]
    assert listing["games"][0]["seats"] == ["P1", "P2"]
    page = client.get("/games").get_data(as_text=True)
    assert '<td class="game" data-game="uno-lite">UNO Lite</td>' in page
    stats = client.get("/stats.json?by=player&game=uno-lite").get_json()
    assert {r["name"] for r in stats["rows"]} == {"Ann", EVIL}
    triage = client.get(f"/g/{public_id}/triage.json").get_json()
    assert "contract" not in triage["game"]["facts"] and triage["game"]["seats"] == ["P1", "P2"]
    assert [f["name"] for f in triage["game"]["shown"]] == [f.name for f in replay.game.facts if f.column]
    assert len(triage["timeline"]) == len(data["events"])
    plays = [e for e in triage["timeline"] if e["type"] == "play"]
    assert plays and all(re.fullmatch(r"[RGBY][1-9]", e["text"]) for e in plays)
    html = client.get(f"/g/{public_id}/triage").get_data(as_text=True)
    assert "no contract" not in html and EVIL not in html


def test_uno_record_hides_the_other_seats_drawn_cards_from_a_seats_view(client, uno):
    public_id, replay, _ = uno
    draw = next(s for s in replay.steps_json() if s["kind"] == "draw")
    other = "P2" if draw["seat"] == "P1" else "P1"
    mark = f'data-drawn-by="{draw["seat"]}"'
    open_page = client.get(f"/g/{public_id}").get_data(as_text=True)
    assert re.search(rf'{mark}><span class="sr-only">', open_page)  # shown with all hands open
    seat_page = client.get(f"/g/{public_id}?view={other}").get_data(as_text=True)
    assert re.search(rf'{mark} hidden><span class="sr-only">', seat_page)
    own_page = client.get(f"/g/{public_id}?view={draw['seat']}").get_data(as_text=True)
    assert re.search(rf'{mark}><span class="sr-only">', own_page)
