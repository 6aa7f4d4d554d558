"""Stepping never gives the result away: cards not reached yet are dimmed, unfinished tricks hide their winner."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from .conftest import code_of, log_of

pytestmark = pytest.mark.browser


def test_future_cards_are_dimmed_and_unfinished_tricks_hide_the_winner(page, viewer_server):
    replay = log_of("seed3").replay()
    step = 27
    page.goto(f"{viewer_server.url}/r/{code_of('seed3')}#{step}")
    page.locator("html.js-ready").wait_for(state="attached")
    cells = page.locator("#play [data-step]")
    steps = [int(s) for s in cells.evaluate_all("els => els.map(e => e.getAttribute('data-step'))")]
    future = cells.evaluate_all("els => els.map(e => e.classList.contains('future'))")
    assert any(s > step for s in steps) and any(s <= step for s in steps)
    assert future == [s > step for s in steps]
    # the winner column of a trick not finished by this step is hidden, finished ones show
    finished = sum(1 for s in replay.steps[: step + 1] if s.trick_winner is not None)
    rows = page.locator("#play tbody tr")
    for n in range(rows.count()):
        winner_cell = rows.nth(n).locator("td").last
        if n < finished:
            expect(winner_cell).to_be_visible()
        else:
            expect(winner_cell).to_be_hidden()
    # at the end nothing is dimmed
    page.keyboard.press("End")
    expect(page.locator("#play .future")).to_have_count(0)
