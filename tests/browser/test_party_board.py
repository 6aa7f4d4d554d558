"""The party-cards board in Chromium: stepping a game round by round with the engine's scores,
hostile card texts shown as text, the round picture escaped, ``#round-N`` and ``?round=N``
links, and a seat's view loaded as its own page."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.conftest import SAMPLE_LOGS

pytestmark = pytest.mark.browser

PARTY = SAMPLE_LOGS / "party-cards"
GAMES = {"random34": PARTY / "selfplay-random-34.json", "greedy33": PARTY / "selfplay-random-greedy-33.json",
         "hostile": PARTY / "hostile-texts.json"}
IMG = "<img src=x onerror=alert(1)>"


def replay_of(name: str):
    from replay.log import read_path

    return read_path(str(GAMES[name]))[0].log.replay()


@pytest.fixture(scope="module")
def party(viewer_server):
    """The party-cards games in the test viewer's archive: name -> public id."""
    from viewer.app import get_archive

    app = viewer_server.server.app
    ids = {}
    with app.app_context():
        archive = get_archive()
        for name, path in GAMES.items():
            ids[name] = archive.ingest_paths([str(path)])[0].public_id
    return ids


def shown_scores(page, seats):
    return {seat: int(page.locator(f'#party-scores [data-score="{seat}"]').inner_text()) for seat in seats}


def step_no(page) -> int:
    return int(page.locator("#step-no").inner_text())


def test_stepping_round_by_round_shows_the_engines_scores(page, viewer_server, party):
    replay = replay_of("greedy33")
    steps = replay.steps_json()
    picks = [s["i"] for s in steps if s["kind"] == "pick"]
    page.goto(f"{viewer_server.url}/g/{party['greedy33']}#0")
    page.locator("html.js-ready").wait_for(state="attached")
    assert step_no(page) == 0
    for n, pick in enumerate(picks, start=1):
        page.keyboard.press("ArrowDown")  # one round
        expect(page.locator("#step-no")).to_have_text(str(pick))
        assert shown_scores(page, replay.seats) == steps[pick]["scores"], n
        expect(page.locator("#party-round")).to_have_text(f"Round {n}")
        expect(page.locator("#party-submissions .won")).to_have_count(1)
        expect(page.locator("#step-words")).to_have_text(steps[pick]["text"])
    # then step by step to the end: the final scores and the winner
    while step_no(page) < len(steps) - 1:
        page.keyboard.press("ArrowRight")
    assert shown_scores(page, replay.seats) == replay.scores
    expect(page.locator("#outcome")).to_have_text(f"{replay.name(replay.winner)} won")
    page.keyboard.press("ArrowUp")  # back one round
    expect(page.locator("#step-no")).to_have_text(str(max(p for p in picks if p < len(steps) - 1)))
    # a round's start names its czar
    first_round = next(s for s in steps if s["kind"] == "round")
    page.goto(f"{viewer_server.url}/g/{party['greedy33']}#{first_round['i']}")
    expect(page.locator("#step-words")).to_have_text(first_round["text"])
    assert first_round["text"].startswith("Round 1: ") and first_round["text"].endswith(" is the czar")
    assert page.errors == []


def test_hostile_texts_show_as_text_and_open_no_dialog(page, viewer_server, party):
    page.goto(f"{viewer_server.url}/g/{party['hostile']}#0")
    page.locator("html.js-ready").wait_for(state="attached")
    for key in ["ArrowDown", "End", "Home", "End"]:
        page.keyboard.press(key)
    page.keyboard.press("Home")
    expect(page.locator("#party-hands .party-card", has_text=IMG)).to_have_count(1)
    expect(page.locator("#party-scores .player-name", has_text=IMG)).to_have_count(1)
    page.keyboard.press("End")
    expect(page.locator("#party-submissions .party-author", has_text=IMG)).to_have_count(1)
    assert page.locator("#viewer img, #party-rounds img").count() == 0
    assert page.locator("script:not([src]):not([type='application/json'])").count() == 0
    # the round picture: the text escaped in the SVG, and opening it runs nothing
    svg_url = f"{viewer_server.url}/g/{party['hostile']}/round/1.svg"
    response = page.request.get(svg_url)
    body = response.text()
    assert response.headers["content-type"].startswith("image/svg+xml")
    # (names are cut to their plates, so only the start of the hostile name may be there)
    assert "&lt;img src=x" in body and "<img" not in body and IMG not in body
    page.goto(svg_url)
    page.wait_for_timeout(300)
    assert page.dialogs == [] and page.errors == []


def test_round_links_open_at_that_rounds_pick(page, viewer_server, party):
    replay = replay_of("random34")
    steps = replay.steps_json()
    picks = [s["i"] for s in steps if s["kind"] == "pick"]
    base = f"{viewer_server.url}/g/{party['random34']}"
    page.goto(f"{base}#round-3")
    page.locator("html.js-ready").wait_for(state="attached")
    expect(page.locator("#step-no")).to_have_text(str(picks[2]))
    expect(page.locator("#party-round")).to_have_text("Round 3")
    assert page.evaluate("location.hash") == f"#{picks[2]}"
    # a link on the page to another round
    page.evaluate("location.hash = '#round-1'")
    expect(page.locator("#step-no")).to_have_text(str(picks[0]))
    # the round page: ?round=N opens there too, and its share link names it
    page.goto(f"{base}?round=2")
    page.locator("html.js-ready").wait_for(state="attached")
    expect(page.locator("#step-no")).to_have_text(str(picks[1]))
    expect(page.locator("#party-round-link")).to_have_attribute("href", f"/g/{party['random34']}?round=2#round-2")
    og = page.locator('meta[property="og:image"]').get_attribute("content")
    assert og == f"{base}/picture.png?step={picks[1]}&view=public"  # round 2's pick, as an onlooker saw it
    # rounds not reached yet keep their winner hidden in the record
    expect(page.locator('#party-rounds tr[data-round="4"] .party-result').first).to_be_hidden()
    expect(page.locator('#party-rounds tr[data-round="2"] .party-result').first).to_be_visible()
    assert page.errors == []


def test_a_seat_view_is_its_own_page_with_anonymous_answers(page, viewer_server, party):
    replay = replay_of("random34")
    steps = replay.steps_json("p2")
    reveal = next(s for s in steps if s["kind"] == "reveal" and s["czar"] != "p2")
    page.goto(f"{viewer_server.url}/g/{party['random34']}#{reveal['i']}")
    page.locator("html.js-ready").wait_for(state="attached")
    expect(page.locator("#party-hands .party-hand")).to_have_count(len(replay.seats))
    page.select_option("#perspective", "p2")
    page.wait_for_url("**?view=p2#*")
    page.locator("html.js-ready").wait_for(state="attached")
    expect(page.locator("#step-no")).to_have_text(str(reveal["i"]))
    expect(page.locator("#party-hands .party-hand")).to_have_count(1)
    authors = page.locator("#party-submissions .party-author").all_inner_texts()
    assert authors and all(a in ("anonymous", "anonymous (yours)") for a in authors)
    page.keyboard.press("ArrowRight")  # the pick names every author
    expect(page.locator("#party-submissions .party-author", has_text="anonymous")).to_have_count(0)
    assert page.errors == []
