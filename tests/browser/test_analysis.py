"""The analysis toggle on the bridge board (Playwright + Chromium, a real viewer and archive).

Off by default: the page, its HTML and its requests hold no analysis at all. Ticked (by
keyboard), it fetches ``/g/<id>/analysis.json`` once and marks every card of the hand to play
GIB style, the played cards, the step text, and a chart with the known blunder of
``tests/games/floating_bridge/blunder.py`` (East ducking ♥A with ♥7 in the last four tricks) marked
and clickable. It is remembered per browser, and works on a phone.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.games.floating_bridge.blunder import blunder_game

pytestmark = pytest.mark.browser
#: words and markup that only the analysis brings
ANALYSIS_MARKERS = ("costs a trick", "held it", "dd-ok", "dd-loss", "analysis-mistake", '"values"', "makeable tricks after")


@pytest.fixture(scope="module")
def blunder(viewer_server):
    from viewer.app import get_archive

    game = blunder_game()
    with viewer_server.app.app_context():
        [result] = get_archive().ingest_bytes(game.bytes(), "blunder.json")
    game.public_id = result.public_id
    return game


def ready(page) -> None:
    page.locator("html.js-ready").wait_for(state="attached")


def requests_of(page) -> list[str]:
    seen: list[str] = []
    page.on("request", lambda request: seen.append(request.url))
    return seen


def test_with_the_toggle_off_the_page_holds_no_analysis(page, viewer_server, blunder):
    seen = requests_of(page)
    page.goto(f"{viewer_server.url}/")
    # every test's page is a fresh browser context: no choice remembered from another test
    assert page.evaluate("localStorage.getItem('game-replay.analysis')") is None
    response = page.goto(f"{viewer_server.url}/g/{blunder.public_id}#{blunder.step - 1}")
    ready(page)
    html = response.text()
    for marker in ANALYSIS_MARKERS:
        assert marker not in html, marker
    toggle = page.locator("#analysis-toggle")
    expect(toggle).not_to_be_checked()
    expect(page.locator("#analysis-box")).to_be_hidden()
    for key in ("ArrowRight", "ArrowRight", "End", "Home"):
        page.keyboard.press(key)
    rendered = page.content()
    for marker in ANALYSIS_MARKERS:
        assert marker not in rendered, marker
    assert page.locator(".dd").count() == 0
    assert not [url for url in seen if "analysis" in url], seen
    assert page.errors == []


def test_the_toggle_marks_every_card_of_the_hand_and_the_blunder(page, viewer_server, blunder):
    from replay.games import get

    seen = requests_of(page)
    before = blunder.step - 1  # East is to play: the duck comes next
    page.goto(f"{viewer_server.url}/g/{blunder.public_id}#{before}")
    ready(page)
    page.locator("#analysis-toggle").focus()
    page.keyboard.press("Space")  # keyboard access: the toggle is a real checkbox
    expect(page.locator("#analysis-toggle")).to_be_checked()
    hand = page.locator(f'[data-hand="{blunder.seat}"]')
    expect(hand.locator(".ranks.marked")).not_to_have_count(0)
    assert [url for url in seen if url.endswith(f"/g/{blunder.public_id}/analysis.json")], seen

    # every card of East's hand is marked, GIB style: the ace keeps the count, the duck costs one
    bridge = get("floating-bridge")
    replay = bridge.judge(bridge.parse(blunder.data))
    held = [str(c) for c in replay.steps[before].hand_cards(replay.steps[blunder.step].seat)]
    cards = hand.locator(".rk")
    assert sorted(cards.evaluate_all("els => els.map(e => e.getAttribute('data-card'))")) == sorted(held)
    marks = dict(zip(cards.evaluate_all("els => els.map(e => e.getAttribute('data-card'))"),
                     cards.locator(".dd").all_text_contents()))
    assert marks[blunder.ace] == "=" and marks[blunder.card] == "-1"
    assert all(re.fullmatch(r"=|-\d+|×", m) for m in marks.values())
    # the other hands are not marked (only the hand to play)
    assert page.locator('[data-hand]:not([data-hand="E"]) .dd').count() == 0

    # the blunder itself: the step text, the play table and the chart (the arrow keys step
    # once the focus leaves the checkbox, as with every form field)
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#step-words")).to_contain_text("East's ♥7 costs a trick; ♥A held it")
    expect(page.locator(f'#play [data-step="{blunder.step}"] .dd')).to_have_text("-1")
    chart = page.locator("#chart-analysis svg.svg-chart")
    expect(chart).to_be_visible()
    marker = chart.locator(f'rect[data-step="{blunder.step}"]')
    expect(marker).to_have_count(1)
    assert "costs a trick" in marker.locator("title").text_content()
    # mistakes after the current step are not shown; from the end, the marker jumps back to it
    page.keyboard.press("Home")
    expect(marker).to_have_class(re.compile(r"\blater\b"))
    expect(page.locator(f'#analysis-mistakes li[data-at="{blunder.step}"]')).to_be_hidden()
    page.keyboard.press("End")
    marker.click()
    expect(page.locator("#step-no")).to_have_text(str(blunder.step))
    page.locator(f'#analysis-mistakes a[data-step="{blunder.step}"]').click()
    expect(page.locator("#step-no")).to_have_text(str(blunder.step))
    assert page.errors == []


def test_the_toggle_is_remembered_and_the_analysis_fetched_once(chromium, viewer_server, blunder):
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.set_default_timeout(15000)
        seen = requests_of(page)
        page.goto(f"{viewer_server.url}/g/{blunder.public_id}#{blunder.step}")
        ready(page)
        page.locator("#analysis-toggle").check()
        expect(page.locator("#analysis-mistakes")).to_be_visible()
        page.reload()
        ready(page)
        expect(page.locator("#analysis-toggle")).to_be_checked()
        expect(page.locator("#step-words")).to_contain_text("costs a trick")
        assert len([url for url in seen if "analysis.json" in url]) == 2  # once per page load
        page.locator("#analysis-toggle").uncheck()
        expect(page.locator(".dd")).to_have_count(0)
        expect(page.locator("#analysis-box")).to_be_hidden()
        expect(page.locator("#step-words")).not_to_contain_text("costs a trick")
    finally:
        context.close()


def test_analysis_on_a_phone(chromium, viewer_server, blunder):
    context = chromium.new_context(viewport={"width": 375, "height": 812}, device_scale_factor=2,
                                   is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.set_default_timeout(15000)
        page.goto(f"{viewer_server.url}/g/{blunder.public_id}#{blunder.step - 1}")
        ready(page)
        page.locator("#analysis-toggle").tap()
        hand = page.locator(f'[data-hand="{blunder.seat}"] .ranks.marked')
        expect(hand).not_to_have_count(0)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 375, f"the page scrolls sideways ({width}px)"
        box = page.locator("#chart-analysis").bounding_box()
        assert box is not None and box["width"] <= 375
    finally:
        context.close()


def test_a_game_stopped_by_a_fatal_finding_says_where_the_analysis_stops(page, viewer_server, blunder):
    """West plays a card already played (fatal: rule checking stops): the analysis covers the
    cards before it and says where and why it stops."""
    import copy
    import json

    from viewer.app import get_archive

    data = copy.deepcopy(blunder.data)
    data["game_id"] = "blunder-fatal"
    plays = [n for n, e in enumerate(data["events"]) if e["type"] == "play"]
    first = data["events"][plays[0]]["card"]
    data["events"][plays[20]]["card"] = first  # played again
    with viewer_server.app.app_context():
        [result] = get_archive().ingest_bytes(json.dumps(data).encode(), "fatal.json")
    page.goto(f"{viewer_server.url}/g/{result.public_id}")
    ready(page)
    page.locator("#analysis-toggle").check()
    note = page.locator("#analysis-body .analysis-note")
    expect(note).to_contain_text("Analysis stops after step")
    expect(note).to_contain_text("fatal finding")
    assert page.errors == []


def test_the_toggle_on_an_upload_page(page, viewer_server):
    """An upload's page (/u/<token>) fetches its own private analysis route."""
    from viewer.services.upload import uploads

    game = blunder_game()
    game.data["game_id"] = "blunder-uploaded"
    with viewer_server.app.app_context():
        [outcome] = uploads().ingest(game.bytes(), "mine.json")
    seen = requests_of(page)
    page.goto(f"{viewer_server.url}/u/{outcome.token}#{game.step}")
    ready(page)
    page.locator("#analysis-toggle").check()
    expect(page.locator("#step-words")).to_contain_text("East's ♥7 costs a trick; ♥A held it")
    assert [url for url in seen if url.endswith(f"/u/{outcome.token}/analysis.json")], seen
    assert page.errors == []


def test_a_refused_analysis_shows_the_servers_reason(page, tmp_path):
    """A client past the rate limit is told the server's own words, not just a status."""
    from replay.codec import encode
    from replay.games import get
    from replay.games.floating_bridge.bots import play_game
    from tests.browser.conftest import Server
    from viewer.app import create_app

    app = create_app({"DB": f"sqlite:///{tmp_path / 'a.db'}", "ANALYSIS_RATE_PER_MINUTE": 1,
                      "ANALYSIS_RATE_BURST": 1})
    server = Server(app)
    try:
        first = encode(get("floating-bridge").parse(blunder_game().data))
        page.goto(f"{server.url}/r/{first}")
        ready(page)
        page.locator("#analysis-toggle").check()
        expect(page.locator("#analysis-mistakes")).to_be_attached()  # loaded (this one is solved)
        page.goto(f"{server.url}/r/{encode(play_game(13))}")  # the toggle is remembered: fetched at once
        ready(page)
        expect(page.locator("#analysis-status")).to_contain_text(
            re.compile(r"could not be loaded: too many analyses of new games from your address: try again in \d+ s"))
    finally:
        server.close()
