"""The "Other tables" panel in the browser (issue 29): a game of a deal played at several tables
lists the others, by keyboard as by mouse, and leads to them and to ``/deal/<key>``.

The module starts its own viewer on loopback over a fresh SQLite archive holding the rotation
tables of one championship deal (``GameModule.play_table``, ``replay.duplicate.rotation``) and a
deal played at one table only.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect

from replay import duplicate
from replay.games import get

from .conftest import Server

pytestmark = pytest.mark.browser

GAME = "floating-bridge"
BOTS = ["random", "greedy"]
HOSTILE = '<img src=x onerror="alert(1)">'


def table_log(deal: int, table: int, name: str | None = None) -> bytes:
    module = get(GAME)
    seats = duplicate.rotation(module.table_seats(BOTS), BOTS)
    data = json.loads(module.play_table(deal, list(seats[table]), table=table).canonical_json())
    if name:
        data["players"]["N"]["name"] = name
    return json.dumps(data).encode()


@pytest.fixture(scope="module")
def deal_server(tmp_path_factory):
    from replay.log import read_logs
    from viewer.app import create_app, get_archive

    db = tmp_path_factory.mktemp("deals") / "archive.db"
    app = create_app({"DB": f"sqlite:///{db}"})
    logs = [table_log(1, t, HOSTILE if t == 2 else None) for t in range(4)]
    with app.app_context():
        archive = get_archive()
        ids = [archive.ingest_bytes(data, f"d1-t{t}.json")[0].public_id for t, data in enumerate(logs)]
        lone = archive.ingest_bytes(table_log(2, 0), "d2-t0.json")[0].public_id
    server = Server(app)
    server.ids, server.lone = ids, lone
    server.key = get(GAME).deal_key(read_logs(logs[0], "x.json")[0].log)
    yield server
    server.close()


def open_game(page, server, public_id: str) -> None:
    page.goto(f"{server.url}/g/{public_id}")
    page.locator("html.js-ready").wait_for(state="attached")


def test_the_panel_leads_to_the_other_tables_and_the_deal_by_keyboard(page, deal_server):
    open_game(page, deal_server, deal_server.ids[0])
    panel = page.locator("#other-tables")
    expect(panel).to_be_visible()
    expect(panel.locator("h2")).to_have_text("Other tables")
    expect(panel).to_contain_text("3 other tables")
    rows = panel.locator("#other-tables-list tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.first).to_be_hidden()  # the results wait behind their summary (they may give the game away)
    # the summary takes the focus and opens with Space (the stepper does not take that Space)
    summary = panel.locator("summary")
    summary.focus()
    expect(summary).to_be_focused()
    page.keyboard.press("Space")
    expect(rows.first).to_be_visible()
    # the note says what the numbers are: over the other tables, this game's result left out
    note = panel.locator("#other-tables-note")
    expect(note).to_be_visible()
    expect(note).to_contain_text("mean over these 3 other tables with a result")
    expect(note).to_contain_text("own result is left out")
    expect(page.locator("button[data-go=play]")).to_have_attribute("aria-pressed", "false")
    # a hostile name shows as text, runs nothing
    expect(panel).to_contain_text(HOSTILE)
    assert page.dialogs == []
    # Tab goes on to the first other table's link; Enter opens that game
    page.keyboard.press("Tab")
    link = rows.first.locator("a")
    expect(link).to_be_focused()
    target = link.get_attribute("href")
    assert target.startswith("/g/") and target != f"/g/{deal_server.ids[0]}"
    page.keyboard.press("Enter")
    page.wait_for_url(f"{deal_server.url}{target}")
    page.locator("html.js-ready").wait_for(state="attached")
    # that game's panel lists the first one among its other tables
    other = page.locator("#other-tables")
    expect(other.locator(f'a[href="/g/{deal_server.ids[0]}"]')).to_have_count(1)
    # "Compare seat by seat" opens the deal's page
    compare = other.locator("#compare-seats")
    compare.focus()
    expect(compare).to_be_focused()
    page.keyboard.press("Enter")
    page.wait_for_url(f"{deal_server.url}/deal/{deal_server.key}")
    expect(page.locator("h1")).to_have_text("Floating bridge: one deal at 4 tables")
    expect(page.locator("#deal-table tbody tr")).to_have_count(4)
    expect(page.locator("#deal-table tfoot tr.seat-means")).to_be_visible()
    # from the deal's page a table's link is reachable and opens its game
    first = page.locator("#deal-table tbody tr").first.locator("a")
    first.focus()
    expect(first).to_be_focused()
    page.keyboard.press("Enter")
    page.wait_for_url(f"{deal_server.url}/g/*")
    assert page.errors == [] and page.dialogs == []


def test_a_game_alone_at_its_deal_has_no_panel(page, deal_server):
    open_game(page, deal_server, deal_server.lone)
    expect(page.locator("#board")).to_be_visible()
    expect(page.locator("#other-tables")).to_have_count(0)


def test_the_panel_fits_a_phone(chromium, deal_server):
    context = chromium.new_context(viewport={"width": 375, "height": 812}, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        page.goto(f"{deal_server.url}/g/{deal_server.ids[1]}")
        page.locator("html.js-ready").wait_for(state="attached")
        panel = page.locator("#other-tables")
        panel.locator("summary").tap()
        expect(panel.locator("#other-tables-list")).to_be_visible()
        # the page never scrolls sideways; the table scrolls inside its own box
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
        box = panel.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 375
        page.goto(f"{deal_server.url}/deal/{deal_server.key}")
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
    finally:
        context.close()
