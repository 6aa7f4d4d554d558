"""UNO Lite in Chromium: stepped to the end with the keyboard, the hand sizes shown equal the
engine's at every step, and one seat's view keeps the other hand and its draws hidden."""

from __future__ import annotations

import json

import pytest

from replay.games import get

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def uno_game(viewer_server):
    from viewer.app import get_archive

    game = get("uno-lite")
    log = next(game.selfplay(seed, bots=("greedy", "random")) for seed in range(50)
               if any(e.type == "draw" for e in game.selfplay(seed, bots=("greedy", "random")).events))
    data = json.loads(log.canonical_json())
    data["players"] = {"P1": {"name": "Ann"}, "P2": {"name": "<img src=x onerror=alert(1)>", "bot": "greedy-1"}}
    with viewer_server.server.app.app_context():
        stored = get_archive().ingest_bytes(json.dumps(data).encode(), "uno.json")[0]
    replay = game.judge(game.parse(data))
    return stored.public_id, replay


def shown_step(page) -> int:
    return int(page.locator("#step-no").text_content())


def test_an_uno_game_is_stepped_to_the_end_with_the_keyboard(page, viewer_server, uno_game):
    from viewer.games.uno_lite.view import log_names, named_texts

    public_id, replay = uno_game
    steps = replay.steps_json()
    words = named_texts(replay, log_names(replay))  # players' names for seats
    page.goto(f"{viewer_server.url}/g/{public_id}#0")
    page.locator("html.js-ready").wait_for(state="attached")
    assert shown_step(page) == 0
    for index in range(1, len(steps)):
        page.keyboard.press("ArrowRight")
        step = steps[index]
        assert shown_step(page) == index
        assert page.locator("#live").text_content() == words[index]["x"]
        for seat in ("P1", "P2"):
            shown = page.locator(f'[data-size="{seat}"]').text_content()
            assert shown == str(step["hand_sizes"][seat]), (index, seat)
        assert page.locator("#uno-pile-size").text_content() == str(step["pile_size"])
    assert replay.hand_sizes == {s: int(page.locator(f'[data-size="{s}"]').text_content()) for s in ("P1", "P2")}
    # up and down move by turn (a turn ends with a play or a pass)
    page.keyboard.press("Home")
    ends = [s["i"] for s in steps if s["kind"] in ("play", "pass")]
    page.keyboard.press("ArrowDown")
    assert shown_step(page) == ends[0]
    page.keyboard.press("ArrowDown")
    assert shown_step(page) == ends[1]
    page.keyboard.press("ArrowUp")
    assert shown_step(page) == ends[0]
    assert page.errors == [] and page.dialogs == []
    assert "<img src=x onerror=alert(1)>" in page.locator("body").inner_text()


def test_one_seats_view_hides_the_other_hand_and_its_draws(page, viewer_server, uno_game):
    public_id, replay = uno_game
    steps = replay.steps_json()
    draw = next(s for s in steps if s["kind"] == "draw")
    other = "P2" if draw["seat"] == "P1" else "P1"
    page.goto(f"{viewer_server.url}/g/{public_id}?view={other}#{draw['i']}")
    page.locator("html.js-ready").wait_for(state="attached")
    assert shown_step(page) == draw["i"]
    assert page.locator(".hidden-hand").count() == 1
    name = replay.log.players[draw["seat"]].name
    assert page.locator("#step-words").text_content() == f"{name} draws a card"
    drawn = f'data-drawn-by="{draw["seat"]}"'
    assert page.locator(f"#uno-turns [{drawn}]").first.is_hidden()
    assert page.errors == []
