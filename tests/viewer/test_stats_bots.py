"""``/stats`` over an archive filled from sample_logs/ (what ``game-replay serve`` shows on first
start) lists the bundled bots: the self-play logs name them in ``players.<seat>.bot``."""

from __future__ import annotations

import re

import pytest

from tests.conftest import SAMPLE_LOGS


@pytest.fixture
def filled(app):
    from viewer.app import get_archive
    from viewer.serve import fill_if_empty

    with app.app_context():
        stored = fill_if_empty(get_archive(), SAMPLE_LOGS)
    assert stored >= 50
    return stored


def test_stats_per_bot_lists_the_sample_bots(client, filled):
    html = client.get("/stats").get_data(as_text=True)
    assert "No public games yet." not in html
    table = html[html.index('id="stats-table"'):]
    shown = re.findall(r'<a href="/stats\?by=bot&amp;name=([^"]+)">', table)
    assert {"greedy-1", "random-1"} <= set(shown)

    every_game = {r["name"] for r in client.get("/stats.json").get_json()["rows"]}
    assert {"greedy-1", "random-1", "honest-1", "bluffer-1"} <= every_game  # bridge, UNO Lite, Coup...
    rows = {r["name"]: r for r in client.get("/stats.json?game=floating-bridge").get_json()["rows"]}
    assert set(rows) == {"greedy-1", "random-1", "cautious-1"}  # cautious: the sample championship
    assert rows["greedy-1"]["games"] > rows["random-1"]["games"] > 0
    assert rows["greedy-1"]["role_games"] > 0 and rows["greedy-1"]["think_ms_median"] is not None
    # every bot row links to its games, and the filter finds them
    listing = client.get("/games?bot=random-1")
    assert listing.status_code == 200 and 'href="/g/' in listing.get_data(as_text=True)


def test_stats_per_player_has_people_and_bots_side_by_side(client, filled):
    rows = {r["name"]: r for r in client.get("/stats.json?by=player").get_json()["rows"]}
    people = [n for n in rows if not n.startswith(("greedy-", "random-"))]
    bots = [n for n in rows if n.startswith(("greedy-", "random-"))]
    assert len(people) >= 10 and len(bots) >= 5
