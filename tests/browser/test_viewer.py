"""The issue's browser acceptance list, in Chromium."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from replay.games.floating_bridge.cards import SEATS
from tests.conftest import ROOT

from .conftest import LEGACY_WORKED_EXAMPLE, Server, code_of, log_of

pytestmark = pytest.mark.browser


def shown_step(page) -> int:
    return int(page.locator("#step-no").text_content())


def shown_counts(page) -> dict[str, int]:
    return {s.name: int(page.locator(f'b[data-count="{s.name}"]').text_content()) for s in SEATS}


def wait_ready(page) -> None:
    # (no wait_for_function: the page's CSP rightly forbids the eval it would need)
    page.locator("html.js-ready").wait_for(state="attached")


def test_keyboard_steps_through_the_whole_game_with_the_engines_counts(page, viewer_server):
    replay = log_of("seed3").replay()
    page.goto(f"{viewer_server.url}/r/{code_of('seed3')}?reveal=1")
    wait_ready(page)
    assert shown_step(page) == 0
    last = len(replay.steps) - 1
    checked_tricks = 0
    for index in range(1, last + 1):
        page.keyboard.press("ArrowRight")
        assert shown_step(page) == index
        step = replay.steps[index]
        assert page.locator("#live").text_content() == step.text  # the ARIA live region
        if step.trick_winner is not None:
            assert shown_counts(page) == {s.name: step.tricks_won[s] for s in SEATS}, f"trick {step.trick_number}"
            assert page.locator("#count-decl").text_content() == str(step.declarer_side_tricks)
            assert page.locator("#count-def").text_content() == str(step.defender_tricks)
            checked_tricks += 1
    assert checked_tricks == len(replay.trick_winners)
    page.keyboard.press("ArrowRight")  # past the end: stays
    assert shown_step(page) == last and page.evaluate("location.hash") == f"#{last}"
    page.keyboard.press("Home")
    assert shown_step(page) == 0
    ends = [s.index for s in replay.steps if s.trick_winner is not None]
    page.keyboard.press("ArrowDown")
    assert shown_step(page) == ends[0]
    page.keyboard.press("ArrowDown")
    assert shown_step(page) == ends[1]
    page.keyboard.press("ArrowUp")
    assert shown_step(page) == ends[0]
    page.keyboard.press("End")
    assert shown_step(page) == last
    assert page.errors == []


def test_partner_stays_hidden_until_revealed(page, viewer_server):
    replay = log_of("seed3").replay()
    assert not replay.final.partner_revealed
    page.goto(f"{viewer_server.url}/r/{code_of('seed3')}")
    wait_ready(page)
    page.keyboard.press("End")
    assert page.locator(".role.partner").count() == 0
    assert page.locator("#count-decl").text_content() == "?"
    page.wait_for_selector("#charts.charts-ready", state="attached", timeout=30000)
    expect(page.locator("#chart-race")).to_have_class(re.compile(r"\bchart-hidden\b"))
    page.locator("#reveal").check()
    expect(page.locator("#chart-race")).not_to_have_class(re.compile(r"\bchart-hidden\b"))
    assert page.locator(f'.seat[data-seat="{replay.partner_seat.name}"] .role.partner').count() == 1
    assert page.locator("#count-decl").text_content() == str(replay.final.declarer_side_tricks)
    page.select_option("#perspective", "N")
    assert page.locator(".hidden-hand").count() == 3


def test_buttons_and_clicks_on_calls_and_cards(page, viewer_server):
    replay = log_of("seed3").replay()
    page.goto(f"{viewer_server.url}/r/{code_of('seed3')}")
    wait_ready(page)
    page.click('[data-go="next"]')
    page.click('[data-go="next"]')
    assert shown_step(page) == 2
    page.click('[data-go="prev"]')
    assert shown_step(page) == 1
    page.click('[data-go="end"]')
    assert shown_step(page) == len(replay.steps) - 1
    play = next(s for s in replay.steps if s.kind == "play" and s.trick_number == 3)
    page.click(f'#play a[data-step="{play.index}"]')
    assert shown_step(page) == play.index
    assert page.evaluate("location.hash") == f"#{play.index}"
    assert page.locator("#step-words").text_content() == play.text
    call = next(s for s in replay.steps if s.kind == "call")
    page.click(f'#auction a[data-step="{call.index}"]')
    assert shown_step(page) == call.index


def test_autoplay_reaches_the_end(page, viewer_server):
    replay = log_of("seed3").replay()
    page.goto(f"{viewer_server.url}/r/{code_of('seed3')}")
    wait_ready(page)
    page.select_option("#speed", "200")
    page.keyboard.press("Space")
    assert page.locator('[data-go="play"]').get_attribute("aria-pressed") == "true"
    last = len(replay.steps) - 1
    expect(page.locator("#step-no")).to_have_text(str(last), timeout=60000)
    expect(page.locator('[data-go="play"]')).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("location.hash") == f"#{last}"


def test_fragment_opens_at_that_step(page, viewer_server):
    replay = log_of("seed3").replay()
    step = replay.steps[27]
    page.goto(f"{viewer_server.url}/r/{code_of('seed3')}#27")
    wait_ready(page)
    assert shown_step(page) == 27
    assert page.locator("#step-words").text_content() == step.text
    assert page.locator("#trick .card").count() == len(step.trick)
    assert shown_counts(page) == {s.name: step.tricks_won[s] for s in SEATS}
    # changing the fragment moves the board
    page.evaluate("location.hash = '#5'")
    expect(page.locator("#step-no")).to_have_text("5")


def test_a_legacy_link_opens_the_right_game(page, viewer_server):
    worked = log_of("worked").replay()
    page.goto(f"{viewer_server.url}/#{LEGACY_WORKED_EXAMPLE}")
    page.wait_for_url("**/r/**")
    wait_ready(page)
    from replay.codec import encode

    assert page.url.startswith(f"{viewer_server.url}/r/{encode(worked.log)}")
    assert "3♠" in page.locator(".contract").text_content()
    assert "North" in page.locator(".contract").text_content()
    page.keyboard.press("End")
    assert shown_counts(page) == {s.name: worked.final.tricks_won[s] for s in SEATS}
    winners = page.locator("#play td.winner").all_text_contents()
    assert winners == [s.name for s in worked.trick_winners]


def test_embed_renders_in_an_iframe_on_another_origin(page, viewer_server):
    code = code_of("seed3")
    blog_html = (f'<!doctype html><title>My bridge blog</title><h1>Look at this hand</h1>'
                 f'<iframe id="embed" src="{viewer_server.url}/embed/r/{code}?theme=dark" width="640" height="600"></iframe>'
                 f'<iframe id="page" src="{viewer_server.url}/r/{code}" width="640" height="300"></iframe>')

    def blog(environ, start_response):
        start_response("200 OK", [("Content-Type", "text/html; charset=utf-8")])
        return [blog_html.encode()]

    other = Server(blog)
    try:
        assert other.url != viewer_server.url
        page.goto(other.url)
        frame = page.frame_locator("#embed")
        frame.locator("html.js-ready").wait_for()
        assert "1♠" in frame.locator(".contract").text_content()
        frame.locator('[data-go="next"]').click()
        frame.locator('[data-go="next"]').click()
        assert frame.locator("#step-no").text_content() == "2"
        assert frame.locator("html").get_attribute("data-theme") == "dark"
        # a full replay page refuses to be framed
        urls = [f.url for f in page.frames]
        assert not any(u.startswith(f"{viewer_server.url}/r/") for u in urls), urls
        assert any(u.startswith("chrome-error://") for u in urls), urls
    finally:
        other.close()


def test_script_in_a_player_name_stays_text(page, viewer_server):
    evil = "<script>alert(1)</script>"
    page.goto(f"{viewer_server.url}/r/{code_of('seed3')}?players={quote(evil, safe='')},{quote('<img src=x onerror=alert(2)>', safe='')}")
    wait_ready(page)
    assert page.locator('.seat[data-seat="N"] .player-name').text_content() == evil
    for _ in range(10):
        page.keyboard.press("ArrowRight")
    page.goto(f"{viewer_server.url}/g/{viewer_server.ids['script']}")
    wait_ready(page)
    assert page.locator('.seat[data-seat="N"] .player-name').text_content() == evil
    page.keyboard.press("End")
    page.wait_for_timeout(300)
    assert page.dialogs == []
    assert page.evaluate("document.querySelectorAll('img[src=x]').length") == 0


@pytest.mark.parametrize("path", ["/", "/r/{code}", "/g/{revoke}", "/embed/r/{code}", "/r/bad!!"])
def test_no_horizontal_scroll_at_375px(chromium, viewer_server, path):
    context = chromium.new_context(viewport={"width": 375, "height": 812}, device_scale_factor=2, is_mobile=True)
    page = context.new_page()
    try:
        url = viewer_server.url + path.format(code=code_of("seed3"), revoke=viewer_server.ids["revoke"])
        page.goto(url)
        if "/r/{code}" in path or "/g/" in path:
            if "/embed/" not in path:
                page.wait_for_selector("#charts.charts-ready", state="attached", timeout=30000)
            page.keyboard.press("End")
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
        assert page.evaluate("document.body.scrollWidth") <= 375
    finally:
        context.close()


def test_charts_are_drawn_by_the_server_follow_the_step_and_jump_on_click(page, viewer_server):
    replay = log_of("all_tricks").replay()
    page.goto(f"{viewer_server.url}/g/{viewer_server.ids['all_tricks']}")
    wait_ready(page)
    page.wait_for_selector("#charts.charts-ready", state="attached")
    assert page.locator("#chart-race svg.svg-chart").count() == 1
    assert page.locator("#chart-time svg.svg-chart").count() == 1  # the log has times
    # no chart library is loaded
    assert page.evaluate("typeof window.Plotly") == "undefined"
    assert not [r for r in page.evaluate("performance.getEntriesByType('resource').map(e => e.name)") if "plotly" in r]
    # at step 0 nothing after it is drawn; at the end everything is
    assert page.locator("#chart-tricks [data-step]:not(.later)").count() == 0
    page.keyboard.press("End")
    page.wait_for_timeout(100)
    assert page.locator("#chart-tricks .later").count() == 0
    # click North's card of trick 1 in the trick map: the board jumps to that card
    north_first = next(s for s in replay.steps if s.kind == "play" and s.seat.name == "N")
    cell = page.locator(f'#chart-tricks rect[data-step="{north_first.index}"]').first
    cell.scroll_into_view_if_needed()
    cell.click()
    expect(page.locator("#step-no")).to_have_text(str(north_first.index))
    page.wait_for_timeout(200)

    def centre(selector: str) -> float:
        box = page.locator(selector).first.bounding_box()
        return box["x"] + box["width"] / 2

    # the marks: trick 1's column in the trick map, the step's bar in think time, 0 tricks in the race
    assert abs(centre("#chart-tricks .chart-mark") - centre(f'#chart-tricks rect[data-step="{north_first.index}"]')) < 2
    assert abs(centre("#chart-time .chart-mark") - centre(f'#chart-time rect[data-step="{north_first.index}"]')) < 2
    first_point = replay.steps[0].index
    assert abs(centre("#chart-race .chart-mark") - centre(f'#chart-race circle[data-step="{first_point}"]')) < 2
    # later cards are gone again
    later = next(s for s in replay.steps if s.kind == "play" and s.index > north_first.index)
    assert page.locator(f'#chart-tricks [data-step="{later.index}"]').first.is_hidden()
    assert page.errors == []


def test_without_javascript_the_final_position_and_records_show(chromium, viewer_server):
    replay = log_of("seed3").replay()
    context = chromium.new_context(java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(f"{viewer_server.url}/r/{code_of('seed3')}")
        assert page.locator("#step-words").text_content() == replay.final.text
        assert page.locator("#controls").is_hidden()
        assert page.locator("#play tbody tr").count() == len(replay.trick_winners)
        assert shown_counts(page) == {s.name: replay.final.tricks_won[s] for s in SEATS}
    finally:
        context.close()


SCREENSHOTS = {"": {"width": 1280, "height": 760}, "-phone": {"width": 375, "height": 812}}


@pytest.mark.parametrize("suffix", list(SCREENSHOTS))
def test_screenshot_of_a_mid_game_position(chromium, viewer_server, suffix):
    """Saves docs/screenshot.png (desktop) and docs/screenshot-phone.png (375 px) for bridge."""
    names = "players=Priya,Marcus,%C5%81ucja,Arjun"
    url = f"{viewer_server.url}/r/{code_of('seed3')}?{names}&reveal=1#30"
    viewport = SCREENSHOTS[suffix]
    context = chromium.new_context(viewport=viewport, device_scale_factor=1 if viewport["width"] > 400 else 2,
                                   is_mobile=viewport["width"] < 400)
    page = context.new_page()
    try:
        page.goto(url)
        wait_ready(page)
        assert shown_step(page) == 30
        path = Path(ROOT) / "docs" / f"screenshot{suffix}.png"
        page.screenshot(path=str(path))
        assert path.stat().st_size > 10000
    finally:
        context.close()


@pytest.mark.parametrize("suffix", list(SCREENSHOTS))
def test_screenshot_of_an_uno_game(chromium, viewer_server, suffix):
    """Saves docs/screenshot-uno-lite.png and docs/screenshot-uno-lite-phone.png."""
    viewport = SCREENSHOTS[suffix]
    context = chromium.new_context(viewport=viewport, device_scale_factor=1 if viewport["width"] > 400 else 2,
                                   is_mobile=viewport["width"] < 400)
    page = context.new_page()
    try:
        page.goto(f"{viewer_server.url}/g/{viewer_server.games['uno-lite']}#9")
        wait_ready(page)
        assert shown_step(page) == 9
        path = Path(ROOT) / "docs" / f"screenshot-uno-lite{suffix}.png"
        page.screenshot(path=str(path))
        assert path.stat().st_size > 10000
    finally:
        context.close()


def test_share_copy_link_embed_snippet_and_log_download(chromium, viewer_server):
    import json

    code = code_of("seed3")
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=viewer_server.url)
    page = context.new_page()
    try:
        page.goto(f"{viewer_server.url}/r/{code}#12")
        wait_ready(page)
        page.click("#copy-link")
        expect(page.locator("#copy-link")).to_have_text("Copied")
        assert page.evaluate("navigator.clipboard.readText()") == f"{viewer_server.url}/r/{code}#12"
        # what the reader is looking at goes with the link: the view and "reveal partner"
        page.select_option("#perspective", "E")
        page.locator("#reveal").check()
        page.wait_for_timeout(1600)  # the button reads "Copy link" again
        page.click("#copy-link")
        expect(page.locator("#copy-link")).to_have_text("Copied")
        assert page.evaluate("navigator.clipboard.readText()") == f"{viewer_server.url}/r/{code}?view=E&reveal=1#12"
        assert page.locator("#embed-box").is_hidden()
        page.click("#embed-button")
        snippet = page.locator("#embed-code").input_value()
        assert snippet.startswith(f'<iframe src="{viewer_server.url}/embed/r/{code}"')
        with page.expect_download() as download:
            page.click("text=Download log (JSON)")
        data = json.loads(Path(download.value.path()).read_text())
        assert data["format"] == "floating-bridge/1"
        assert data["hands"] == log_of("seed3").to_json_dict()["hands"]
    finally:
        context.close()
