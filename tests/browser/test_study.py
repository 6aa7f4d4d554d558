"""Studies in the browser, for every game with a board: a study made from a replay page's
"Study this game" button, a comment written with `c`, a glyph, a what-if branch started with
"Try another move" (a legal move the server lists), marks on the board; all still there after a
reload, in the embed, and for a reader in another browser context (who gets no edit controls).

Real parts only: the viewer app on loopback over a real SQLite archive (the studies' tables
included), Debian's Chromium through Playwright. One page per game carries the whole story, so
the suite stays quick on a small machine.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import GAME_SAMPLES, Server, games_with_boards

pytestmark = pytest.mark.browser
GAMES = games_with_boards()
NOTE = "#study-panel .study-now-html"      # the note of the step shown (study.js)
GLYPH = "#study-panel .study-glyph-badge"
LINE = "#study-panel .study-line-bar"
CORNER = {"x": 3, "y": 3}  # a tap on a seat's own area, not on a card in it
COMMENT = "Here the *better* move was elsewhere"


@pytest.fixture(scope="module")
def study_server(tmp_path_factory):
    """The viewer with every game's sample archived; rate limits high enough for a test run
    (every save is a write, as an upload is)."""
    from viewer.app import create_app, get_archive

    db = tmp_path_factory.mktemp("study") / "archive.db"
    generous = {}
    for prefix in ("UPLOAD_RATE", "STUDY_RATE", "STUDIES_RATE"):
        generous[f"{prefix}_PER_MINUTE"] = 100000
        generous[f"{prefix}_BURST"] = 100000
    app = create_app({"DB": f"sqlite:///{db}", **generous})
    with app.app_context():
        archive = get_archive()
        games = {name: archive.ingest_paths([str(GAME_SAMPLES[name])])[0].public_id for name in GAMES}
    server = Server(app)
    server.games = games
    yield server
    server.close()


def new_page(chromium, **options):
    context = chromium.new_context(**({"viewport": {"width": 1280, "height": 900}} | options))
    page = context.new_page()
    page.set_default_timeout(20000)
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.on("console", lambda msg: page.errors.append(msg.text) if msg.type == "error" else None)
    page.on("dialog", lambda dialog: dialog.dismiss())
    return context, page


def ready(page) -> None:
    page.locator("html.js-ready").wait_for(state="attached")
    page.locator("#study-panel").wait_for(state="attached")


def shown_step(page) -> int:
    return int(page.locator("#step-no").text_content())


def go(page, step: int) -> None:
    page.evaluate("step => GameViewer.go(step)", step)
    expect(page.locator("#step-no")).to_have_text(str(step))


def saved(page, action) -> None:
    """Do what saves (the page reloads on success) and wait for the new page."""
    with page.expect_navigation(wait_until="load"):
        action()
    ready(page)


def study_id(page) -> str:
    return page.evaluate("JSON.parse(document.getElementById('study-data').textContent).id")


def study_rev(page) -> int:
    return page.evaluate("JSON.parse(document.getElementById('study-data').textContent).rev")


def a_step_with_moves(page, server, sid: str, line: str = "main", start: int = 1,
                      at_least: int = 1, cards: bool = False) -> tuple[int, list[dict]]:
    """The first step from ``start`` of ``line`` after which the engine lists ``at_least`` moves
    (and, with ``cards``, whose board shows a card that can be marked)."""
    last = page.evaluate("GameViewer.last")
    for step in range(start, last):
        if cards:
            go(page, step)
            if not page.locator("#board [data-card]:visible").count():
                continue
        got = page.request.get(f"{server.url}/api/studies/{sid}/moves?line={line}&step={step}&view=all")
        assert got.ok, got.text()
        moves = got.json()["moves"]
        if len(moves) >= at_least:
            return step, moves
    raise AssertionError(f"no step of line {line} has a move to try")


def make_study(page, server, game: str) -> str:
    """A study of ``game``'s sample made with the replay page's button: the page it opens is
    the study's, and this browser holds its owner token."""
    page.goto(f"{server.url}/g/{server.games[game]}")
    page.locator("html.js-ready").wait_for(state="attached")
    button = page.get_by_role("button", name=re.compile("Study this game"))
    with page.expect_navigation(url=re.compile(r"/s/[^/?#]+"), wait_until="load"):
        button.click()
    ready(page)
    expect(page.locator("html.study-owner")).to_be_attached()
    assert "owner=" not in page.url  # the token left the address bar (and the history)
    return study_id(page)


@pytest.mark.parametrize("game", GAMES)
def test_a_study_of_every_game(chromium, study_server, game):
    server = study_server
    context, page = new_page(chromium)
    reader = None
    try:
        sid = make_study(page, server, game)
        assert page.evaluate(f"localStorage.getItem('game-replay.study.{sid}')")
        # a step whose board shows a card to mark (party cards: when its page holds the ids of
        # the cards in hands, "hid")
        marked_cards = game != "party-cards" or page.evaluate("GameViewer.steps.some(s => !!s.hid)")
        step, moves = a_step_with_moves(page, server, sid, cards=marked_cards)

        # a comment with `c`, saved with Ctrl+Enter: the page reloads at the same step
        go(page, step)
        page.locator("body").press("c")
        box = page.locator("#study-comment-text")
        expect(box).to_be_focused()
        box.fill(COMMENT)
        saved(page, lambda: box.press("Control+Enter"))
        assert shown_step(page) == step and study_rev(page) == 2
        expect(page.locator(NOTE + " em")).to_have_text("better")
        expect(page.locator(NOTE)).to_contain_text("move was elsewhere")

        # a glyph (the button toggles: the pressed one is the note's)
        saved(page, lambda: page.locator('[data-glyph="?!"]').click())
        expect(page.locator(GLYPH)).to_have_text("?!")
        expect(page.locator('[data-glyph="?!"]')).to_have_attribute("aria-pressed", "true")
        expect(page.locator(NOTE + " em")).to_have_text("better")  # the comment stays

        # a mark: tapping a seat in Mark mode highlights it and does not step the board
        page.locator('[data-study="mark"]').click()
        seat = page.locator("#board [data-seat]").first
        seat_id = seat.get_attribute("data-seat")
        seat.click(position=CORNER)  # on the seat's own area, not a card in it
        assert shown_step(page) == step
        expect(seat).to_have_class(re.compile(r"\bstudy-mark\b"))
        marks = [{"kind": "seat", "id": seat_id}]
        cards = page.locator("#board [data-card]:visible")
        if cards.count():
            card = cards.first
            marks.append({"kind": "card", "id": card.get_attribute("data-card")})
            card.click()
            expect(card).to_have_class(re.compile(r"\bstudy-mark\b"))
            assert shown_step(page) == step
        saved(page, lambda: page.locator('[data-study="save-marks"]').click())
        expect(page.locator(f'#board [data-seat="{seat_id}"].study-mark').first).to_be_attached()
        stored = page.request.get(f"{server.url}/api/studies/{sid}").json()["study"]["notes"]
        assert [n["highlights"] for n in stored] == [marks]
        if len(marks) > 1:
            expect(page.locator(f'#board [data-card="{marks[1]["id"]}"].study-mark').first).to_be_attached()

        # "Try another move": the legal moves as buttons; one starts a branch that opens
        page.locator("body").press("t")
        choices = page.locator(".study-move")
        expect(choices.first).to_be_visible()
        assert choices.count() == len(moves)
        expect(page.locator(".study-moves-head")).to_contain_text("legal move")
        chosen = moves[-1]
        assert choices.last.text_content() == chosen["text"]
        saved(page, lambda: choices.last.click())
        assert "line=b1" in page.url and shown_step(page) == step + 1
        expect(page.locator(LINE)).to_have_attribute("data-line", "b1")
        data = page.request.get(f"{server.url}/api/studies/{sid}").json()
        assert data["study"]["branches"][0]["moves"] == [chosen["event"]]
        assert data["study"]["branches"][0]["at"] == step and data["rev"] == 5

        # a reload shows it all; `b` goes back to the game as played, at the branch point
        page.reload()
        ready(page)
        expect(page.locator(LINE)).to_have_attribute("data-line", "b1")
        with page.expect_navigation(wait_until="load"):
            page.locator("body").press("b")
        ready(page)
        expect(page.locator(LINE)).to_have_attribute("data-line", "main")
        assert shown_step(page) == step
        expect(page.locator(NOTE + " em")).to_have_text("better")
        expect(page.locator(GLYPH)).to_have_text("?!")
        expect(page.locator('.study-branch-link[data-line="b1"]')).to_be_visible()
        expect(page.locator(f'#board [data-seat="{seat_id}"].study-mark').first).to_be_attached()

        # the embed shows the note, read-only
        page.goto(f"{server.url}/embed/s/{sid}#{step}")
        ready(page)
        expect(page.locator(NOTE + " em")).to_have_text("better")
        assert page.locator(".study-tools").count() == 0
        page.locator("body").press("c")
        assert page.locator("#study-comment-text").count() == 0

        # a reader (another browser, no token) sees the note and the branch, and no edit control
        reader_context, reader = new_page(chromium)
        reader.goto(f"{server.url}/s/{sid}#{step}")
        ready(reader)
        expect(reader.locator(NOTE + " em")).to_have_text("better")
        expect(reader.locator(GLYPH)).to_have_text("?!")
        # beside the step's words, with the controls: this step has a note (on a phone the
        # note itself is further down)
        expect(reader.locator("#step-text .study-flag")).to_have_text("?! \u270e note")
        reader.locator("body").press("ArrowRight")
        expect(reader.locator("#step-text .study-flag")).to_be_hidden()
        reader.locator("body").press("ArrowLeft")
        expect(reader.locator('.study-branch-link[data-line="b1"]')).to_be_visible()
        assert reader.locator(".study-tools, [data-glyph], #study-comment-text").count() == 0
        assert reader.locator("html.study-owner").count() == 0
        reader.locator("body").press("t")
        reader.locator("body").press("c")
        assert reader.locator(".study-move, #study-comment-text").count() == 0
        with reader.expect_navigation(wait_until="load"):
            reader.locator('.study-branch-link[data-line="b1"]').click()
        ready(reader)
        expect(reader.locator(LINE)).to_have_attribute("data-line", "b1")
        assert shown_step(reader) == step + 1
        assert page.errors == [] and reader.errors == []
    finally:
        context.close()
        if reader is not None:
            reader.context.close()


def test_arrows_are_drawn_over_the_board(chromium, study_server):
    context, page = new_page(chromium)
    try:
        sid = make_study(page, study_server, GAMES[0])
        go(page, 1)
        page.locator('[data-study="arrow"]').click()
        seats = page.locator("#board [data-seat]")
        first, second = seats.nth(0), seats.nth(1)
        ids = [first.get_attribute("data-seat"), second.get_attribute("data-seat")]
        first.click(position=CORNER)
        second.click(position=CORNER)
        assert shown_step(page) == 1
        expect(page.locator("svg.study-arrows line.study-arrow")).to_have_count(1)
        saved(page, lambda: page.locator('[data-study="save-marks"]').click())
        line = page.locator("svg.study-arrows line.study-arrow")
        expect(line).to_have_count(1)
        assert line.get_attribute("data-from") == f"seat:{ids[0]}" and line.get_attribute("data-to") == f"seat:{ids[1]}"
        # the arrow runs from the first seat's centre to the second's, in page coordinates
        box = page.locator("svg.study-arrows").bounding_box()
        a, b = first.bounding_box(), second.bounding_box()
        x1, x2 = float(line.get_attribute("x1")), float(line.get_attribute("x2"))
        assert abs(box["x"] + x1 - (a["x"] + a["width"] / 2)) < 2
        assert abs(box["x"] + x2 - (b["x"] + b["width"] / 2)) < 2
        stored = page.request.get(f"{study_server.url}/api/studies/{sid}").json()["study"]["notes"]
        assert stored[0]["arrows"] == [{"from": {"kind": "seat", "id": ids[0]}, "to": {"kind": "seat", "id": ids[1]}}]
        # at another step, no arrow
        go(page, 2)
        expect(page.locator("svg.study-arrows line")).to_have_count(0)
        # a glyph button toggles: pressed again, it takes the glyph away (the arrow stays)
        go(page, 1)
        saved(page, lambda: page.locator('[data-glyph="!!"]').click())
        expect(page.locator(GLYPH)).to_have_text("!!")
        saved(page, lambda: page.locator('[data-glyph="!!"]').click())
        expect(page.locator(GLYPH)).to_be_hidden()
        expect(page.locator('[data-glyph="!!"]')).to_have_attribute("aria-pressed", "false")
        expect(page.locator("svg.study-arrows line.study-arrow")).to_have_count(1)
        assert page.errors == []
    finally:
        context.close()


def owner_page(chromium, server, sid: str, token: str, where: str = "", **options):
    """A browser context that holds the owner token, given as the fragment of its first address."""
    context, page = new_page(chromium, **options)
    page.goto(f"{server.url}/s/{sid}{where}#owner={token}")
    ready(page)
    expect(page.locator("html.study-owner")).to_be_attached()
    return context, page


def api_study(page, server, game: str) -> tuple[str, str]:
    made = page.request.post(f"{server.url}/api/studies",
                             data={"source": {"kind": "game", "ref": server.games[game]}, "title": "API made"})
    assert made.status == 201, made.text()
    body = made.json()
    return body["id"], body["owner_token"]


def test_a_stale_save_is_refused_and_nothing_is_lost(chromium, study_server):
    server = study_server
    setup_context, setup = new_page(chromium)
    sid, token = api_study(setup, server, "uno-lite")
    setup_context.close()
    context_a, a = owner_page(chromium, server, sid, token)
    context_b, b = owner_page(chromium, server, sid, token)
    try:
        # A saves first
        go(a, 2)
        a.locator("body").press("c")
        a.locator("#study-comment-text").fill("A was here")
        saved(a, lambda: a.locator('[data-study="save-comment"]').click())
        # B still shows revision 1: its save is refused, and the text stays
        go(b, 3)
        b.locator("body").press("c")
        text = "B's long thought\nthat must not be lost"
        b.locator("#study-comment-text").fill(text)
        b.locator("#study-comment-text").press("Control+Enter")
        expect(b.locator(".study-conflict")).to_contain_text("Someone saved revision 2 meanwhile")
        assert b.locator("#study-comment-text").input_value() == text
        assert b.locator("#study-comment-text").is_visible()
        draft = b.evaluate(f"JSON.parse(localStorage.getItem('game-replay.study-draft.{sid}'))")
        assert draft == {"line": "main", "step": 3, "text": text}
        assert server_comments(b, server, sid) == {2: "A was here"}
        # applied again on the latest revision: both comments are kept
        saved(b, lambda: b.locator('[data-study="reapply"]').click())
        assert server_comments(b, server, sid) == {2: "A was here", 3: text}
        assert study_rev(b) == 3 and shown_step(b) == 3
        expect(b.locator(NOTE)).to_contain_text("that must not be lost")
        assert b.evaluate(f"localStorage.getItem('game-replay.study-draft.{sid}')") is None
        # a comment typed and never saved survives a reload (or a closed tab) as well
        go(b, 4)
        b.locator("body").press("c")
        b.locator("#study-comment-text").fill("half a thought")
        b.reload()
        ready(b)
        assert shown_step(b) == 4
        b.locator("body").press("c")
        assert b.locator("#study-comment-text").input_value() == "half a thought"
        b.locator("#study-comment-text").press("Escape")  # cancel: the draft is dropped
        expect(b.locator("#study-comment-text")).to_be_hidden()
        assert b.evaluate(f"localStorage.getItem('game-replay.study-draft.{sid}')") is None
        # an old revision is read-only, even for the owner
        a.goto(f"{server.url}/s/{sid}/1#2")
        ready(a)
        assert a.locator(".study-tools, #study-comment-text").count() == 0
        expect(a.locator(".study-empty")).to_be_visible()  # revision 1 had no note
        assert a.errors == []
        assert [e for e in b.errors if "status of 409" not in e] == []  # the refused PUT is logged by Chromium
    finally:
        context_a.close()
        context_b.close()


def server_comments(page, server, sid: str) -> dict[int, str]:
    notes = page.request.get(f"{server.url}/api/studies/{sid}").json()["study"]["notes"]
    return {n["step"]: n["comment"] for n in notes if n["line"] == "main" and n["comment"]}


HOSTILE = ('<img src="x" onerror="window.pwnedA=1"><script>window.pwnedB=2</script>'
           '<b onclick="x()">bold?</b> </p></div><a href="javascript:alert(1)">link</a> '
           '\u202eRTL override\u202c \u05e9\u05dc\u05d5\u05dd \u0645\u0631\u062d\u0628\u0627 \u2067isolate\u2069 ')


def test_hostile_comments_are_text(chromium, study_server):
    server = study_server
    context, page = new_page(chromium)
    reader_context, reader = new_page(chromium)
    try:
        sid, token = api_study(page, server, "coup")
        context.close()
        context, page = owner_page(chromium, server, sid, token)
        go(page, 1)
        page.locator("body").press("c")
        huge = HOSTILE + "x" * (100 * 1024 - len(HOSTILE.encode()))
        page.locator("#study-comment-text").fill(huge)
        saved(page, lambda: page.locator("#study-comment-text").press("Control+Enter"))
        for p in (page, reader, "embed"):
            if p == "embed":
                p = reader
                p.goto(f"{server.url}/embed/s/{sid}#1")
                ready(p)
            elif p is reader:
                p.goto(f"{server.url}/s/{sid}#1")
                ready(p)
            comment = p.locator(NOTE)
            expect(comment).to_have_count(1)
            shown = comment.text_content()  # (asserted in pieces: a failure must not print 100 KB)
            assert '<img src="x" onerror="window.pwnedA=1">' in shown[:300], shown[:300]
            assert "<script>window.pwnedB=2</script>" in shown[:300], shown[:300]
            assert "\u202eRTL override\u202c" in shown[:400], shown[:400]
            assert len(shown) > 100000
            # no element of the comment's own: only the renderer's paragraphs
            tags = comment.evaluate("e => [...new Set([...e.querySelectorAll('*')].map(x => x.tagName))]")
            assert set(tags) <= {"P", "BR", "EM", "STRONG", "CODE"}, tags
            assert p.evaluate("[window.pwnedA, window.pwnedB]") == [None, None]
            assert p.locator("img[src=x], a[href^=javascript]").count() == 0
            # the index of notes holds its start, as text
            assert "<img" in p.locator("#study-notes li").first.text_content()[:400]
            # the page still works: the stepper steps, the panel follows
            p.locator("body").press("ArrowRight")
            expect(p.locator("#step-no")).to_have_text("2")
            expect(p.locator(".study-empty")).to_be_visible()
            p.locator("body").press("ArrowLeft")
            expect(p.locator(NOTE + " p").first).to_contain_text("<script>")
            # the comment box is scrolled, not the page stretched
            assert p.evaluate("document.documentElement.scrollWidth") <= 1280
            if "/embed/" in p.url:
                continue
            assert p.errors == []
    finally:
        context.close()
        reader_context.close()


def branches_at(page, server, game: str) -> tuple[str, str, int]:
    """A study with two what-if branches at the same step, made through the API (GET the
    study, add the branches, PUT with base)."""
    sid, token = api_study(page, server, game)
    page.goto(f"{server.url}/s/{sid}")
    ready(page)
    step, moves = a_step_with_moves(page, server, sid, at_least=2)
    got = page.request.get(f"{server.url}/api/studies/{sid}").json()
    study = got["study"]
    study["branches"] = [{"id": "b1", "parent": "main", "at": step, "moves": [moves[0]["event"]], "title": ""},
                         {"id": "b2", "parent": "main", "at": step, "moves": [moves[1]["event"]], "title": "Second try"}]
    put = page.request.put(f"{server.url}/api/studies/{sid}", data={"base": got["rev"], "study": study},
                           headers={"X-Study-Token": token})
    assert put.ok, put.text()
    return sid, token, step


def line_of(page) -> str:
    return page.locator(LINE).get_attribute("data-line")


def test_branch_navigation_with_keys_and_with_taps_on_a_phone(chromium, study_server):
    server = study_server
    context, page = new_page(chromium)
    try:
        sid, token, step = branches_at(page, server, "uno-lite")
        page.goto(f"{server.url}/s/{sid}?line=b1#{step + 1}")
        ready(page)
        assert line_of(page) == "b1" and shown_step(page) == step + 1
        for key, expected in (("]", "b2"), ("]", "main"), ("[", "b2"), ("[", "b1")):
            with page.expect_navigation(wait_until="load"):
                page.locator("body").press(key)
            ready(page)
            assert line_of(page) == expected and shown_step(page) == step + 1, (key, expected)
        with page.expect_navigation(wait_until="load"):
            page.locator("body").press("b")
        ready(page)
        assert line_of(page) == "main" and shown_step(page) == step
        # from the branch point itself, ] opens the first branch at its first move
        with page.expect_navigation(wait_until="load"):
            page.locator("body").press("]")
        ready(page)
        assert line_of(page) == "b1" and shown_step(page) == step + 1
        # keys are words while typing in a field
        page.evaluate("document.body.appendChild(Object.assign(document.createElement('input'), {id: 'typing'}))")
        page.locator("#typing").press("b")
        page.wait_for_timeout(200)
        assert line_of(page) == "b1"
        assert page.errors == []
    finally:
        context.close()

    context, phone = new_page(chromium, viewport={"width": 375, "height": 812}, device_scale_factor=2,
                              is_mobile=True, has_touch=True)
    try:
        phone.goto(f"{server.url}/s/{sid}#{step}")
        ready(phone)
        links = phone.locator(".study-branch-link")
        expect(links).to_have_count(2)
        expect(links.nth(1)).to_contain_text("Second try")
        for n in range(2):  # big enough for a finger
            assert links.nth(n).bounding_box()["height"] >= 40
        with phone.expect_navigation(wait_until="load"):
            links.nth(1).tap()
        ready(phone)
        assert line_of(phone) == "b2" and shown_step(phone) == step + 1
        nxt = phone.locator('[data-study="next-line"]')
        assert nxt.bounding_box()["height"] >= 40
        with phone.expect_navigation(wait_until="load"):
            nxt.tap()
        ready(phone)
        assert line_of(phone) == "main"
        with phone.expect_navigation(wait_until="load"):
            phone.locator('[data-study="prev-line"]').tap()
        ready(phone)
        assert line_of(phone) == "b2"
        with phone.expect_navigation(wait_until="load"):
            phone.locator('[data-study="back"]').tap()
        ready(phone)
        assert line_of(phone) == "main" and shown_step(phone) == step
        assert phone.evaluate("document.documentElement.scrollWidth") <= 375
        # the board still steps with a tap when not marking
        phone.locator("#board").tap()
        expect(phone.locator("#step-no")).to_have_text(str(step + 1))
        assert phone.errors == []
    finally:
        context.close()


def test_marking_on_a_phone_does_not_step_and_extending_a_branch(chromium, study_server):
    """A tap on the board marks while marking (the stepper does not see it); at the last step
    of a branch, "Try another move" extends that branch instead of starting another."""
    server = study_server
    setup_context, setup = new_page(chromium)
    sid, token, step = branches_at(setup, server, "uno-lite")
    setup_context.close()
    context, page = owner_page(chromium, server, sid, token, f"?line=b1", viewport={"width": 375, "height": 812},
                               device_scale_factor=2, is_mobile=True, has_touch=True)
    try:
        go(page, step)  # not the last step: a tap would step the board if the stepper saw it
        assert page.evaluate("GameViewer.last") == step + 1
        page.locator('[data-study="mark"]').tap()
        seat = page.locator("#board [data-seat]").first
        seat.tap(position=CORNER)
        page.wait_for_timeout(300)
        assert shown_step(page) == step
        expect(seat).to_have_class(re.compile(r"\bstudy-mark\b"))
        seat.tap(position=CORNER)  # a second tap clears it
        expect(seat).not_to_have_class(re.compile(r"\bstudy-mark\b"))
        assert shown_step(page) == step
        page.locator('[data-study="mark"]').tap()  # marking off: a tap steps again
        page.locator("#board").tap(position=CORNER)
        expect(page.locator("#step-no")).to_have_text(str(step + 1))
        page.locator('[data-study="try"]').tap()
        choice = page.locator(".study-move").first
        expect(choice).to_be_visible()
        expect(page.locator(".study-moves-head")).to_contain_text("continue this line")
        saved(page, lambda: choice.tap())
        assert line_of(page) == "b1" and shown_step(page) == step + 2
        branches = page.request.get(f"{server.url}/api/studies/{sid}").json()["study"]["branches"]
        assert [len(b["moves"]) for b in branches] == [2, 1]
        assert page.errors == []
    finally:
        context.close()


def test_a_token_that_is_not_the_owners_is_told(chromium, study_server):
    server = study_server
    context, page = new_page(chromium)
    try:
        sid, token = api_study(page, server, "holdem")
        page.goto(f"{server.url}/s/{sid}#owner={'x' * len(token)}")
        ready(page)
        go(page, 1)
        page.locator("body").press("c")
        page.locator("#study-comment-text").fill("not mine to write")
        page.locator("#study-comment-text").press("Control+Enter")
        expect(page.locator(".study-status")).to_contain_text("owner key is not accepted")
        assert page.locator("#study-comment-text").input_value() == "not mine to write"
        assert server_comments(page, server, sid) == {}
        assert [e for e in page.errors if "status of 403" not in e] == []
    finally:
        context.close()
