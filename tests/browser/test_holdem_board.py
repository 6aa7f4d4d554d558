"""Texas hold'em in Chromium, at 375 x 812 and 1366 x 900: a 4-seat hand with a side pot stepped
to the end, every step drawn as the replay gives it (board cards, hole cards or card backs,
stacks, bets, pot), the streets as ↑/↓ chapters, taps and swipes, nothing later than the current
step on the board, in a seat's view no other seat's hole card in the page before it is shown
(and a card never shown nowhere in that page), hostile names kept as text, and the chance-to-win
chart drawn from the view's own steps."""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from tests.conftest import SAMPLE_LOGS
from tests.viewer.test_holdem_pages import EVIL, NEVER_SHOWN, hand_log

pytestmark = pytest.mark.browser

SIZES = [(375, 812), (1366, 900)]
SEATS = ("p1", "p2", "p3", "p4")
SUITS = {"c": "\u2663", "d": "\u2666", "h": "\u2665", "s": "\u2660"}

READ_TABLE = """() => ({
  board: [...document.querySelectorAll('#hd-board .hd-card')].map(c => c.getAttribute('data-card') || '??'),
  seats: Object.fromEntries([...document.querySelectorAll('.hd-seat')].map(box => [box.dataset.seat, {
    cards: [...box.querySelectorAll('[data-cards] .hd-card')].map(c => c.getAttribute('data-card') || '??'),
    stack: box.querySelector('[data-stack]').textContent,
    folded: box.classList.contains('folded'), toAct: box.classList.contains('to-act')}])),
  bets: Object.fromEntries([...document.querySelectorAll('.hd-bet')].map(b => [b.dataset.betFor, b.hidden ? '' : b.textContent])),
  pot: document.querySelector('#hd-pot').textContent,
  step: +document.querySelector('#step-no').textContent,
  wide: document.documentElement.scrollWidth})"""
#: every card the page draws (outside the embedded data): its data-card, or its face's text
DRAWN_CARDS = """() => [...document.querySelectorAll('.hd-card')].map(c => c.getAttribute('data-card') || '??')"""


def money(x) -> str:
    return f"{x:,}" if float(x).is_integer() else f"{x:,.2f}"


def face(card: str) -> str:
    return ("10" if card[0] == "T" else card[0]) + SUITS[card[1]]


@pytest.fixture(scope="module")
def holdem_hand(viewer_server):
    """The hand in the archive: (public id, replay)."""
    from replay.games import get, names
    from viewer.app import get_archive

    if "holdem" not in names():
        pytest.skip("holdem is not registered yet (the lead's entry point)")
    game = get("holdem")
    data = hand_log()
    with viewer_server.server.app.app_context():
        stored = get_archive().ingest_bytes(json.dumps(data).encode(), "holdem-4p.json")[0]
    replay = game.judge(game.parse(data))
    assert not replay.findings, [f.to_json() for f in replay.findings]
    return stored.public_id, replay


def open_page(chromium, url: str, width: int, height: int):
    context = chromium.new_context(viewport={"width": width, "height": height}, is_mobile=width < 700,
                                   has_touch=width < 700)
    page = context.new_page()
    page.set_default_timeout(15000)
    page.errors, page.dialogs = [], []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.on("console", lambda msg: page.errors.append(msg.text) if msg.type == "error" else None)
    page.on("dialog", lambda d: (page.dialogs.append(d.message), d.dismiss()))
    page.goto(url)
    page.locator("html.js-ready").wait_for(state="attached")
    return context, page


def swipe(page, selector: str, dx: float) -> None:
    """A finger across the element (touch events through the DevTools protocol)."""
    box = page.locator(selector).bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp = page.context.new_cdp_session(page)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for n in range(1, 6):
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x + dx * n / 5, "y": y}]})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


@pytest.mark.parametrize("width,height", SIZES)
def test_every_step_is_drawn_as_the_replay_gives_it(chromium, viewer_server, holdem_hand, width, height):
    public_id, replay = holdem_hand
    steps = replay.steps_json()
    assert len({tuple(p["seats"]) for p in steps[-1]["pots"]}) >= 2 or any(len(s["pots"]) > 1 for s in steps)
    context, page = open_page(chromium, f"{viewer_server.url}/g/{public_id}#0", width, height)
    try:
        for index, step in enumerate(steps):
            if index:
                page.keyboard.press("ArrowRight")
            shown = page.evaluate(READ_TABLE)
            assert shown["step"] == index
            assert shown["wide"] <= width, (index, shown["wide"])
            assert shown["board"] == step["board"], index
            for seat in SEATS:
                box = shown["seats"][seat]
                assert box["cards"] == step["hole"][seat], (index, seat)
                assert box["stack"] == money(step["stacks"][seat]), (index, seat)
                assert box["folded"] == (seat in step["folded"]), (index, seat)
                assert box["toAct"] == (step["to_act"] == seat), (index, seat)
                bet = step["bets"].get(seat) or 0
                assert shown["bets"][seat] == (money(bet) if bet else ""), (index, seat)
            assert shown["pot"] == money(step["pot"]), index
        names = replay.log.players
        outcome = page.locator("#outcome").text_content()
        assert outcome.endswith(" won") and all(names[w].name in outcome for w in replay.winners)
        assert page.errors == [] and page.dialogs == []
    finally:
        context.close()


def test_streets_are_chapters_and_taps_and_swipes_step(chromium, viewer_server, holdem_hand):
    public_id, replay = holdem_hand
    steps = replay.steps_json()
    starts = [s["i"] for s in steps if s["kind"] == "board"]
    context, page = open_page(chromium, f"{viewer_server.url}/g/{public_id}#0", 375, 812)
    try:
        page.keyboard.press("ArrowDown")  # the hole cards are dealt: betting starts
        first = int(page.locator("#step-no").text_content())
        assert steps[first]["kind"] == "hole" and steps[first + 1]["kind"] not in ("hole",)
        for start in starts:  # the flop, the turn, the river
            page.keyboard.press("ArrowDown")
            expect(page.locator("#step-no")).to_have_text(str(start))
            assert page.evaluate(DRAWN_CARDS)[:len(steps[start]["board"])]  # drawn on the board
        page.keyboard.press("ArrowUp")
        expect(page.locator("#step-no")).to_have_text(str(starts[-2]))
        page.keyboard.press("ArrowLeft")
        expect(page.locator("#step-no")).to_have_text(str(starts[-2] - 1))
        page.keyboard.press("Home")
        swipe(page, "#board", -140)
        expect(page.locator("#step-no")).to_have_text("1")
        swipe(page, "#board", 140)
        expect(page.locator("#step-no")).to_have_text("0")
        page.locator("#board .hd-felt").tap()
        expect(page.locator("#step-no")).to_have_text("1")
        assert page.errors == []
    finally:
        context.close()


@pytest.mark.parametrize("width,height", SIZES)
def test_nothing_later_than_the_step_is_on_the_board(chromium, viewer_server, holdem_hand, width, height):
    public_id, replay = holdem_hand
    steps = replay.steps_json()
    river = steps[-1]["board"]
    for step in steps:
        if step["kind"] != "board" or len(step["board"]) == 5:
            continue
        context, page = open_page(chromium, f"{viewer_server.url}/g/{public_id}#{step['i']}", width, height)
        try:
            drawn = page.evaluate(DRAWN_CARDS)
            text = page.evaluate("document.querySelector('#viewer').innerText + document.querySelector('.record').innerText")
            for card in river[len(step["board"]):]:  # the turn and the river are absent on the flop
                assert card not in drawn and face(card) not in text, (step["i"], card)
            assert page.locator('#hd-board .hd-card').count() == len(step["board"])
        finally:
            context.close()


@pytest.mark.parametrize("seat", SEATS)
def test_a_seat_view_shows_no_other_seats_hole_card_before_the_showdown(chromium, viewer_server, holdem_hand, seat):
    public_id, replay = holdem_hand
    mine = replay.steps_json(seat)
    every = replay.steps_json()
    own = set(every[-1]["hole"][seat])
    first_show = next(s["i"] for s in mine if s["kind"] == "show")
    width, height = SIZES[seat in ("p2", "p4")]
    context, page = open_page(chromium, f"{viewer_server.url}/g/{public_id}?view={seat}#0", width, height)
    try:
        assert page.locator("#perspective").input_value() == seat
        html = page.content()
        if seat != "p4":  # p4's cards are never shown: not in any other view's page at all
            for card in NEVER_SHOWN:
                assert f'"{card}"' not in html and face(card) not in html, card
        for index in range(first_show):
            if index:
                page.keyboard.press("ArrowRight")
            expect(page.locator("#step-no")).to_have_text(str(index))
            board = set(every[index]["board"])
            drawn = [c for c in page.evaluate(DRAWN_CARDS) if c != "??"]
            assert set(drawn) <= own | board, (seat, index, drawn)
            text = page.evaluate("document.body.innerText")
            for other in SEATS:
                if other != seat:
                    for card in every[-1]["hole"][other]:
                        assert face(card) not in text or card in board, (seat, index, card)
            # another seat's dealt cards are card backs
            for other in SEATS:
                if other != seat and every[index]["hole"][other]:
                    backs = page.locator(f'.hd-seat[data-seat="{other}"] .hd-card.back')
                    assert backs.count() == 2, (seat, index, other)
        assert page.errors == []
    finally:
        context.close()


def test_hostile_names_are_text_and_the_chart_follows_the_view(chromium, viewer_server, holdem_hand):
    public_id, replay = holdem_hand
    mine = replay.steps_json("p1")
    context, page = open_page(chromium, f"{viewer_server.url}/g/{public_id}?view=p1#0", 1366, 900)
    try:
        assert page.locator('.hd-seat[data-seat="p2"] .player-name').text_content() == EVIL
        assert page.locator("#board img, .record img").count() == 0
        page.keyboard.press("End")
        assert page.locator("#board img, .record img").count() == 0
        # the chart's lines are this view's chances to win (board.js fills them from its steps)
        charts = json.loads(page.locator("#charts-data").text_content())
        chart = next(c for c in charts if c["id"] == "equity")
        data = page.evaluate("window.GameViewer.steps.map(s => s.eq)")
        from replay.games.holdem.equity import step_equities

        expected = step_equities(mine)
        assert [e is None for e in data] == [e is None for e in expected]
        for trace in chart["figure"]["data"]:
            seat = trace["seat"]
            points = [(s["i"], 100 * e[seat]) for s, e in zip(mine, expected) if e and seat in e]
            assert trace["x"] == [i for i, _ in points] and points
            assert trace["y"] == [pytest.approx(y, abs=0.06) for _, y in points]
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        page.locator("#charts.charts-drawn").wait_for(state="attached")
        assert page.errors == [] and page.dialogs == []
    finally:
        context.close()


NINE_HANDED = SAMPLE_LOGS / "holdem" / "nine-handed-side-pots.phh"
INSIDE = """() => {
  const table = document.querySelector('#hd-table').getBoundingClientRect();
  return [...document.querySelectorAll('.hd-seat, .hd-bet:not([hidden])')].map(e => {
    const r = e.getBoundingClientRect();
    return [e.dataset.seat || e.dataset.betFor, r.left >= table.left - 0.5 && r.right <= table.right + 0.5
            && r.top >= table.top - 0.5 && r.bottom <= table.bottom + 0.5];
  }).filter(([, inside]) => !inside).map(([seat]) => seat);
}"""
#: the bets that cover a board card
ON_THE_BOARD = """() => {
  const cards = [...document.querySelectorAll('#hd-board > *')].map(e => e.getBoundingClientRect());
  return [...document.querySelectorAll('.hd-bet:not([hidden])')].filter(e => {
    const r = e.getBoundingClientRect();
    return cards.some(c => r.left < c.right - 1 && r.right > c.left + 1 && r.top < c.bottom - 1 && r.bottom > c.top + 1);
  }).map(e => e.dataset.betFor);
}"""


@pytest.mark.parametrize("width,height", SIZES)
def test_every_seat_fits_on_the_table_and_the_board_above_the_dock(chromium, viewer_server, holdem_hand, width, height):
    from viewer.app import get_archive

    public_id, replay = holdem_hand
    ids = [public_id]
    if NINE_HANDED.is_file():
        with viewer_server.server.app.app_context():
            ids.append(get_archive().ingest_paths([str(NINE_HANDED)])[0].public_id)
    for game_id in ids:
        for step in ("0", "6", "12"):
            context, page = open_page(chromium, f"{viewer_server.url}/g/{game_id}#{step}", width, height)
            try:
                assert page.evaluate(INSIDE) == [], (game_id, step)
                assert page.evaluate(ON_THE_BOARD) == [], (game_id, step)
                assert page.evaluate("document.documentElement.scrollWidth") <= width
                if width < 700:
                    table, dock = page.locator("#hd-table").bounding_box(), page.locator("#dock").bounding_box()
                    assert table["y"] + table["height"] <= dock["y"] + 1, game_id
                assert page.errors == []
            finally:
                context.close()
