"""The replay on a phone, for every game with a board (parametrised over GAME_SAMPLES: a new
game's board gets these tests by having a sample listed there): board and controls on the first
screen at 375 x 812, swipe and tap to step, nothing after the current step shown; layouts at
320, 375, 768 and 1366 px; the embed in a 320 x 400 frame on another origin."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import Server, code_of, games_with_boards, log_of

pytestmark = pytest.mark.browser
GAMES = games_with_boards()


def phone(chromium, width: int = 375, height: int = 812):
    context = chromium.new_context(viewport={"width": width, "height": height}, device_scale_factor=2,
                                   is_mobile=width < 700, has_touch=width < 700)
    page = context.new_page()
    page.set_default_timeout(15000)
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.on("console", lambda msg: page.errors.append(msg.text) if msg.type == "error" else None)
    return context, page


def ready(page) -> None:
    page.locator("html.js-ready").wait_for(state="attached")


def shown_step(page) -> int:
    return int(page.locator("#step-no").text_content())


def in_viewport(page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    return box is not None and box["y"] >= 0 and box["x"] >= 0 and box["y"] + box["height"] <= size["height"] + 0.5 \
        and box["x"] + box["width"] <= size["width"] + 0.5


def swipe(page, selector: str, dx: float) -> None:
    """A finger moving across the element (real touch events through the DevTools protocol)."""
    box = page.locator(selector).bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for n in range(1, 6):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x + dx * n / 5, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def visible_text(page) -> str:
    """What a reader can read: the rendered text (innerText skips hidden elements) and the title."""
    return page.evaluate("document.body.innerText") + "\n" + page.title()


def spoilers(page, viewer_server, game: str) -> list[str]:
    """Texts that would give the end away at step 0."""
    data = page.request.get(f"{viewer_server.url}/g/{viewer_server.games[game]}.json").json()
    if game == "floating-bridge":
        replay = log_of("seed3").replay()
        return [replay.contract.symbol, f"wins trick", "Declarer’s side won", "Defenders won", "DECLARER"]
    names = data.get("names") or {}
    winners = data["replay"].get("winners") or []
    words = []
    for seat in winners:
        for who in {seat, names.get(seat) or seat}:
            words += [f"{who} won", f"{who} wins"]
    return words


@pytest.mark.parametrize("game", GAMES)
def test_board_and_controls_fit_the_first_screen_and_swipes_step(chromium, viewer_server, game):
    context, page = phone(chromium)
    try:
        page.goto(f"{viewer_server.url}/g/{viewer_server.games[game]}")
        ready(page)
        assert shown_step(page) == 0 and page.evaluate("window.scrollY") == 0
        for part in ("#board", "#controls", "#step-text"):
            assert in_viewport(page, part), part
        # the board is not under the dock
        board, dock = page.locator("#board").bounding_box(), page.locator("#dock").bounding_box()
        assert board["y"] + board["height"] <= dock["y"] + 1
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
        swipe(page, "#board", -140)
        expect(page.locator("#step-no")).to_have_text("1")
        swipe(page, "#board", 140)
        expect(page.locator("#step-no")).to_have_text("0")
        page.locator("#board").tap()
        expect(page.locator("#step-no")).to_have_text("1")
        page.locator('[data-go="prev"]').tap()
        expect(page.locator("#step-no")).to_have_text("0")
        # controls stay on screen while the page scrolls
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        page.wait_for_timeout(100)
        assert page.evaluate("window.scrollY") > 0 and in_viewport(page, "#controls")
        page.locator('[data-go="next"]').tap()
        expect(page.locator("#step-no")).to_have_text("1")
        assert page.errors == []
    finally:
        context.close()


@pytest.mark.parametrize("game", GAMES)
def test_step_zero_gives_nothing_away(chromium, viewer_server, game):
    context, page = phone(chromium)
    try:
        page.goto(f"{viewer_server.url}/g/{viewer_server.games[game]}")
        ready(page)
        page.wait_for_selector("#charts.charts-ready", state="attached")
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        page.wait_for_timeout(300)
        if page.locator("#charts figure.chart-svg").count():  # opened once near the screen
            expect(page.locator("#charts svg.svg-chart").first).to_be_attached()
        text = visible_text(page)
        for word in spoilers(page, viewer_server, game):
            assert word not in text, word
        # no record link and no chart mark after step 0 can be seen
        later = page.evaluate("""() => [...document.querySelectorAll('[data-step]')]
            .filter(e => +e.getAttribute('data-step') > 0)
            .filter(e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0
                           && getComputedStyle(e).visibility === 'visible'; })
            .map(e => e.outerHTML.slice(0, 80))""")
        assert later == []
        meta = page.evaluate("""() => [...document.querySelectorAll('meta[property^="og:"], meta[name="description"]')]
            .map(m => m.content).join(' | ')""")
        for word in spoilers(page, viewer_server, game):
            assert word not in meta, word
        # the whole game, on request, and remembered
        page.locator("#whole-game").check()
        page.reload()
        ready(page)
        assert page.locator("#whole-game").is_checked()
        assert page.evaluate("document.querySelectorAll('[data-step].future').length") > 0
        assert page.locator("[data-step].future").first.evaluate("e => getComputedStyle(e).visibility") == "visible"
        assert page.errors == []
    finally:
        context.close()


def test_bridge_banner_follows_the_auction(chromium, viewer_server):
    replay = log_of("seed3").replay()
    last_call = max(s.index for s in replay.steps if s.kind == "call")
    context, page = phone(chromium)
    try:
        page.goto(f"{viewer_server.url}/r/{code_of('seed3')}#1")
        ready(page)
        first = replay.steps[1]
        assert page.locator("#banner-bid").is_visible()
        assert page.locator("#banner-bid-text").text_content() == f"{first.action.symbol} by {first.seat.full_name}"
        assert page.locator("#banner-contract").is_hidden() and page.locator(".role.decl").count() == 0
        page.evaluate(f"location.hash = '#{last_call}'")
        expect(page.locator("#banner-contract")).to_be_visible()
        assert replay.contract.symbol in page.locator("#banner-contract").text_content()
        assert page.locator(f'.seat[data-seat="{replay.declarer.name}"] .role.decl').count() == 1
        assert page.locator("#banner-partner").is_hidden()  # not called yet
        page.keyboard.press("ArrowRight")
        expect(page.locator("#banner-partner")).to_be_visible()
    finally:
        context.close()


def test_trick_cards_keep_their_spot(chromium, viewer_server):
    replay = log_of("seed3").replay()
    lead = next(s for s in replay.steps if s.kind == "play")
    context, page = phone(chromium)
    try:
        page.goto(f"{viewer_server.url}/r/{code_of('seed3')}#{lead.index}")
        ready(page)
        card = page.locator(f'#trick [data-slot="{lead.seat.name}"] .card')
        before = card.bounding_box()
        assert before["height"] >= 40 and before["width"] >= 30  # readable on a phone
        for _ in range(3):
            page.keyboard.press("ArrowRight")
            after = card.bounding_box()
            assert (round(after["x"]), round(after["y"])) == (round(before["x"]), round(before["y"]))
        assert page.locator("#trick .card").count() == 4
    finally:
        context.close()


@pytest.mark.parametrize("width", [320, 375, 768, 1366])
@pytest.mark.parametrize("game", GAMES)
def test_layouts_at_four_widths(chromium, viewer_server, game, width):
    height = 900 if width > 700 else 812 if width == 375 else 640
    context, page = phone(chromium, width, height)
    try:
        page.goto(f"{viewer_server.url}/g/{viewer_server.games[game]}")
        ready(page)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert in_viewport(page, "#controls")
        if width >= 375:
            assert in_viewport(page, "#board")
        page.keyboard.press("End")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        context.close()


def test_embed_fits_a_small_frame_and_grows_to_its_content(chromium, viewer_server):
    code = code_of("seed3")
    blog_html = (f'<!doctype html><meta charset="utf-8"><title>My blog</title><p>Look at this hand</p>'
                 f'<iframe id="embed" src="{viewer_server.url}/embed/r/{code}" width="320" height="400" '
                 f'style="border:0"></iframe><p id="after">after</p>'
                 f'<script src="{viewer_server.url}/embed.js" async></script>')

    def blog(environ, start_response):
        start_response("200 OK", [("Content-Type", "text/html; charset=utf-8")])
        return [blog_html.encode()]

    other = Server(blog)
    context = chromium.new_context(viewport={"width": 360, "height": 700})
    page = context.new_page()
    try:
        assert other.url != viewer_server.url
        page.goto(other.url)
        frame = page.frame_locator("#embed")
        frame.locator("html.js-ready").wait_for(state="attached")
        frame_box = page.locator("#embed").bounding_box()
        controls = frame.locator("#controls").bounding_box()
        assert controls["y"] + controls["height"] <= frame_box["y"] + frame_box["height"] + 1
        frame.locator('[data-go="next"]').click()
        frame.locator('[data-go="next"]').click()
        assert frame.locator("#step-no").text_content() == "2"
        # the script sizes the frame to its content, and again when the record is opened
        expect(page.locator("#embed")).to_have_attribute("data-game-replay-sized", re.compile(r"^\d+$"))
        closed = page.locator("#embed").bounding_box()["height"]
        frame.locator(".embed-record summary").click()
        page.wait_for_function("() => +document.getElementById('embed').getAttribute('data-game-replay-sized') > %d" % (closed + 100))
        grown = page.locator("#embed").bounding_box()["height"]
        inner = frame.locator("html").evaluate("e => e.scrollHeight")
        assert grown > closed + 100 and abs(grown - inner) <= 2
    finally:
        context.close()
        other.close()


def test_the_theme_toggle_is_on_every_page_and_remembered(chromium, viewer_server):
    context = chromium.new_context(viewport={"width": 1366, "height": 900}, color_scheme="light")
    page = context.new_page()
    try:
        page.goto(f"{viewer_server.url}/")
        page.locator("#theme-toggle").click()
        assert page.locator("html").get_attribute("data-theme") == "dark"
        for path in ("/stats", "/games", "/upload", f"/r/{code_of('seed3')}"):
            page.goto(viewer_server.url + path)
            assert page.locator("html").get_attribute("data-theme") == "dark", path
            assert page.locator("#theme-toggle").is_visible(), path
        # the spades segment of the suit chart stays visible on the dark panel
        fill = page.locator("#chart-hands rect.suit-S").first.evaluate("e => getComputedStyle(e).fill")
        panel = page.locator("#chart-hands").evaluate("e => getComputedStyle(e.closest('.card-box')).backgroundColor")
        assert fill != panel and fill == "rgb(148, 163, 184)"
        page.locator("#theme-toggle").click()
        page.goto(f"{viewer_server.url}/games")
        assert page.locator("html").get_attribute("data-theme") == "light"
    finally:
        context.close()


def test_a_board_script_that_fails_to_load_leaves_the_page_readable(chromium, viewer_server):
    context, page = phone(chromium)
    try:
        page.route("**/games/floating-bridge/board.*.js", lambda route: route.abort())
        page.goto(f"{viewer_server.url}/r/{code_of('seed3')}")
        assert page.locator("#board").evaluate("e => getComputedStyle(e).visibility") == "hidden"
        expect(page.locator("html")).not_to_have_class(re.compile(r"\bjs\b"), timeout=8000)
        assert page.locator("#board").evaluate("e => getComputedStyle(e).visibility") == "visible"
    finally:
        context.close()
