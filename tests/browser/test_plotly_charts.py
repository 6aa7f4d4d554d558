"""Charts a board gives as plotly figures (as the Coup and party-cards boards may): the basic
plotly.js bundle loads only when the charts come into view, and points after the current step
are left out. The bridge board stands in, its charts swapped for one plotly figure."""

from __future__ import annotations

import dataclasses
import re

import pytest
from playwright.sync_api import expect

from .conftest import Server, code_of, log_of

pytestmark = pytest.mark.browser


def figure_charts(replay):
    ends = [s.index for s in replay.steps if s.trick_winner is not None]
    return [{"id": "race", "title": "Declarer's tricks", "mark": "step", "figure": {
        "data": [{"type": "scatter", "mode": "lines+markers", "x": list(range(1, len(ends) + 1)),
                  "y": [replay.steps[i].declarer_side_tricks for i in ends], "customdata": ends}],
        "layout": {"height": 260, "title": {"text": "Declarer's tricks"}}}}]


@pytest.fixture
def figure_server(tmp_path):
    from viewer import games
    from viewer.app import create_app

    board = games.board_for("floating-bridge")
    games._boards["floating-bridge"] = dataclasses.replace(board, charts=figure_charts)
    server = Server(create_app({"DB": f"sqlite:///{tmp_path / 'a.db'}"}))
    try:
        yield server
    finally:
        server.close()
        games._boards["floating-bridge"] = board


def test_plotly_figures_load_the_basic_bundle_when_seen_and_stop_at_the_step(chromium, figure_server):
    replay = log_of("seed3").replay()
    ends = [s.index for s in replay.steps if s.trick_winner is not None]
    context = chromium.new_context(viewport={"width": 375, "height": 812}, is_mobile=True, has_touch=True)
    page = context.new_page()
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    try:
        page.goto(f"{figure_server.url}/r/{code_of('seed3')}#{ends[2]}")
        page.locator("html.js-ready").wait_for(state="attached")
        page.wait_for_timeout(500)
        assert not [u for u in requests if "plotly" in u]  # below the first screen: not loaded yet
        page.locator("#charts").scroll_into_view_if_needed()
        expect(page.locator("#chart-race .js-plotly-plot")).to_be_attached(timeout=30000)
        plotly = [u for u in requests if "plotly" in u]
        assert len(plotly) == 1 and "/static/plotly-basic." in plotly[0]
        shown = lambda: page.locator("#chart-race .chart-plot").evaluate("d => d.data[0].x.length")  # noqa: E731
        expect(page.locator("#charts")).to_have_class(re.compile(r"\bcharts-drawn\b"))
        assert shown() == 3  # tricks 1 to 3: none after the step
        page.keyboard.press("End")
        page.wait_for_timeout(300)
        assert shown() == len(ends)
    finally:
        context.close()
