"""Coup in Chromium: a 4-seat game stepped to the end with the keyboard, the coins and influence
shown equal the engine's at every step, turns as chapters, and in one seat's view no other
seat's face-down card anywhere in the page's HTML or its embedded data, at any step."""

from __future__ import annotations

import json

import pytest

from replay.games import get
from tests.viewer.test_coup_board import assert_seat_view_hides, secrets_of

pytestmark = pytest.mark.browser

EVIL = "<img src=x onerror=alert(1)>"
READ_SEATS = """() => Array.from(document.querySelectorAll('.coup-seat')).map(box => [
    box.getAttribute('data-seat'), box.querySelector('[data-coins]').textContent,
    box.querySelector('[data-influence]').textContent])"""


@pytest.fixture(scope="module")
def coup_game(viewer_server):
    """A 4-seat self-played game in the archive, a player's name hostile: (public id, replay)."""
    from viewer.app import get_archive

    game = get("coup")
    log = game.selfplay(1, bots=("honest", "bluffer", "random"), players=4)
    data = json.loads(log.canonical_json())
    data["players"]["3"]["name"] = EVIL
    with viewer_server.server.app.app_context():  # the werkzeug server serves the Flask app
        stored = get_archive().ingest_bytes(json.dumps(data).encode(), "coup-4p.json")[0]
    replay = game.judge(game.parse(data))
    assert len(replay.seats) == 4 and not replay.findings and replay.winners
    kinds = {s["kind"] for s in replay.steps_json()}
    assert {"exchange", "replace", "challenge", "block"} <= kinds  # private draws to keep hidden
    return stored.public_id, replay


def shown_step(page) -> int:
    return int(page.locator("#step-no").text_content())


def seats_shown(page) -> dict[str, tuple[int, int]]:
    return {seat: (int(coins), int(influence)) for seat, coins, influence in page.evaluate(READ_SEATS)}


def test_a_4_seat_game_is_stepped_to_the_end_with_the_keyboard(page, viewer_server, coup_game):
    from viewer.games.coup.view import log_names, named_texts

    public_id, replay = coup_game
    steps = replay.steps_json()
    names = log_names(replay)
    words = named_texts(replay, "all", names)  # players' names for seats
    page.goto(f"{viewer_server.url}/g/{public_id}#0")
    page.locator("html.js-ready").wait_for(state="attached")
    assert shown_step(page) == 0
    for index in range(len(steps)):
        if index:
            page.keyboard.press("ArrowRight")
        step = steps[index]
        assert shown_step(page) == index
        assert seats_shown(page) == {s: (step["coins"][s], step["influence"][s]) for s in replay.seats}, index
        assert page.locator("#coup-deck").text_content() == str(step["deck_size"])
        assert page.locator("#step-words").text_content() == (words[index]["turn_text"] or words[index]["text"])
        stack = page.locator("#coup-stack [data-step]").evaluate_all("els => els.map(e => +e.dataset.step)")
        if step["kind"] != "deal":
            assert stack and stack[-1] == index and steps[stack[0]]["kind"] == "action"
    final = seats_shown(page)
    assert {s: c for s, (c, _) in final.items()} == replay.coins
    assert {s for s, (_, n) in final.items() if n == 0} == set(replay.to_json()["eliminated"])
    assert page.locator("#outcome").text_content() == f"{names[replay.winners[0]]} won"
    # up and down move by turn: a turn starts with an action, so a chapter ends before the next
    actions = [s["i"] for s in steps if s["kind"] == "action"]
    page.keyboard.press("Home")
    page.keyboard.press("ArrowDown")
    assert shown_step(page) == actions[1] - 1
    page.keyboard.press("ArrowDown")
    assert shown_step(page) == actions[2] - 1
    page.keyboard.press("ArrowUp")
    assert shown_step(page) == actions[1] - 1
    assert page.errors == [] and page.dialogs == []
    assert EVIL in page.locator("body").inner_text()  # shown as text, never run


def test_a_seat_view_never_holds_another_seats_face_down_card(page, viewer_server, coup_game):
    public_id, replay = coup_game
    seat = "2"
    secrets = secrets_of(replay, seat)
    assert secrets, "other seats' draws and bluffs this view must not see"
    steps = replay.steps_json()
    page.goto(f"{viewer_server.url}/g/{public_id}?view={seat}#0")
    page.locator("html.js-ready").wait_for(state="attached")
    for index in range(len(steps)):
        if index:
            page.keyboard.press("ArrowRight")
        assert shown_step(page) == index
        assert seats_shown(page) == {s: (steps[index]["coins"][s], steps[index]["influence"][s]) for s in replay.seats}
        assert_seat_view_hides(page.content(), replay, seat, index, secrets)
    data = page.evaluate("() => window.GameViewer.data")  # what the script holds, too
    assert data["game"]["perspective"] == seat
    assert all(h is None for s in data["steps"] for n, h in enumerate(s["h"]) if replay.seats[n] != seat)
    # another view is another page, holding that view's steps only
    page.keyboard.press("Home")
    with page.expect_event("load"):  # the address bar shows view=4 at once; then the view's page loads
        page.select_option("#perspective", "4")
    page.wait_for_url("**view=4**")
    page.locator("html.js-ready").wait_for(state="attached")
    assert page.evaluate("() => window.GameViewer.data.game.perspective") == "4"
    assert_seat_view_hides(page.content(), replay, "4", 0, secrets_of(replay, "4"))
    assert page.errors == [] and page.dialogs == []
