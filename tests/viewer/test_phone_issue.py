"""Issue 12's server-side parts: titles and previews without spoilers, the theme toggle on every
page, the embed script, the plotly bundle, and the smaller fixes (passed-out games, contract
symbols, recent games in date order, the error page's damaged code, names in log.json, stats
without bots, the upload form)."""

from __future__ import annotations

import json
import re
from html import unescape

from tests.conftest import SAMPLE_LOGS

from .conftest import code_of, load

PASSED_OUT = SAMPLE_LOGS / "selfplay" / "kopi-bridge_2026-06-08_2.json"


def test_titles_and_previews_name_the_game_and_players_not_the_result(client):
    replay = load("seed3").replay()
    html = client.get(f"/r/{code_of('seed3')}?players=Ann,Bo,Cy,Di").get_data(as_text=True)
    title = re.search(r"<title>(.*?)</title>", html).group(1)
    assert title.startswith("Floating bridge: Ann, Bo, Cy, Di")
    previews = re.findall(r'<meta (?:property|name)="(?:og:[a-z]+|description|twitter:[a-z]+)" content="([^"]*)"', html)
    assert len(previews) >= 6
    for text in [title, *previews]:
        assert replay.contract.symbol not in unescape(text) and "won" not in unescape(text)
    assert 'property="og:title" content="Floating bridge: Ann, Bo, Cy, Di"' in html


def test_the_page_opens_without_the_result_in_its_banner_for_scripts(client):
    """The server draws the final position (for readers without JavaScript) but marks what a
    scripted page hides until the stepper has drawn step 0, and draws the banner of an asked-for
    step in the auction with the high bid, not the contract."""
    html = client.get(f"/r/{code_of('seed3')}?step=1").get_data(as_text=True)
    replay = load("seed3").replay()
    first = replay.steps[1]
    assert f"{first.action.symbol} by {first.seat.full_name}" in html
    assert re.search(r'<span class="contract" id="banner-contract" hidden>', html)
    assert 'class="role decl"' not in html  # the declarer is not known at step 1
    assert '<div class="board" id="board">' in html and 'class="record spoiler-guard"' in html


def test_every_page_has_the_theme_toggle_and_the_boot_script(client, archived):
    for path in ("/", "/games", "/stats", "/upload", f"/r/{code_of('seed3')}", f"/g/{archived['seed3']}", "/nowhere"):
        html = client.get(path).get_data(as_text=True)
        assert 'id="theme-toggle"' in html, path
        assert re.search(r'<script src="/static/boot\.[0-9a-f]{10}\.js"></script>', html), path
    fixed = client.get("/stats?theme=dark").get_data(as_text=True)
    assert '<html lang="en" data-theme="dark" data-theme-fixed>' in fixed
    odd = client.get('/?theme="><script>').get_data(as_text=True)
    assert '<html lang="en" data-theme="auto">' in odd


def test_embed_script_and_plain_oembed_iframe(client):
    script = client.get("/embed.js")
    assert script.status_code == 200 and script.mimetype == "application/javascript"
    assert b"game-replay:height" in script.get_data() and "max-age" in script.headers["Cache-Control"]
    page = client.get(f"/r/{code_of('seed3')}").get_data(as_text=True)
    assert "/embed.js" in page  # offered in the embed snippet
    body = client.get(f"/oembed?url=http://localhost/r/{code_of('seed3')}").get_json()
    assert body["html"].startswith("<iframe ") and "<script" not in body["html"]


def test_the_smallest_plotly_bundle_is_chosen():
    from viewer.view import plotly_bundle

    assert plotly_bundle([{"id": "a", "svg": "<svg/>"}]) is None
    assert plotly_bundle([{"id": "a", "figure": {"data": [{"type": "scatter"}, {"type": "bar"}]}}]) == "plotly-basic.min.js"
    assert plotly_bundle([{"id": "a", "figure": {"data": [{"type": "heatmap"}]}}]) == "plotly.min.js"


def test_bridge_and_uno_charts_need_no_chart_library(client):
    html = client.get(f"/r/{code_of('seed3')}").get_data(as_text=True)
    assert "data-plotly" not in html and "plotly" not in html
    assert html.count('class="chart chart-svg"') == 3  # race, trick map, hand strength (a code has no times)


def test_passed_out_games_read_once_and_contracts_use_suit_symbols(client, app):
    from viewer.app import get_archive

    with app.app_context():
        get_archive().ingest_paths([str(PASSED_OUT), str(SAMPLE_LOGS / "selfplay" / "family-bridge_2026-05-30_1.json")])
    home = client.get("/").get_data(as_text=True)
    assert "passed out passed out" not in re.sub(r"<[^>]+>|\s+", " ", home).replace("  ", " ")
    assert "passed out" in home
    # the contract as the game shows it (Fact.shown: bridge's own symbols), in its own column
    from replay.games import get

    shown = get("floating-bridge").fact("contract").shown("1S")
    games = client.get("/games?game=floating-bridge").get_data(as_text=True)
    assert f'data-fact="contract">{shown}<' in games


def test_recent_games_are_newest_first(client, app):
    from viewer.app import get_archive

    newer = SAMPLE_LOGS / "selfplay" / "kopi-bridge_2026-07-09_1.json"
    older = SAMPLE_LOGS / "selfplay" / "family-bridge_2026-05-30_1.json"
    with app.app_context():
        get_archive().ingest_paths([str(newer)])
        get_archive().ingest_paths([str(older)])  # ingested last, played first
    home = client.get("/").get_data(as_text=True)
    dates = re.findall(r'<td><a href="/g/[^"]+">(\d{4}-\d\d-\d\d \d\d:\d\d)</a></td>', home)
    assert len(dates) == 2 and dates == sorted(dates, reverse=True)


def test_the_error_page_offers_the_damaged_code_again(client):
    code = code_of("seed3")
    damaged = code[:-3] + ("A" if code[-3] != "A" else "B") + code[-2:]
    response = client.get(f"/r/{damaged}")
    assert response.status_code == 400
    assert f'value="{damaged}"' in response.get_data(as_text=True)


def test_log_json_keeps_the_names_of_the_link(client):
    code = code_of("seed3")
    body = json.loads(client.get(f"/r/{code}/log.json?players=Ann,Bo,Cy,Di").get_data())
    assert [body["players"][s]["name"] for s in "NESW"] == ["Ann", "Bo", "Cy", "Di"]
    page = client.get(f"/r/{code}?players=Ann,Bo,Cy,Di").get_data(as_text=True)
    assert f'href="/r/{code}/log.json?players=Ann,Bo,Cy,Di"' in page


def test_stats_without_bot_players_shows_the_players(client, app):
    from viewer.app import get_archive

    data = json.loads(load("seed3").canonical_json())
    for seat in data["players"].values():
        seat.pop("bot", None)
    with app.app_context():
        get_archive().ingest_bytes(json.dumps(data).encode(), "people.json")
    html = client.get("/stats").get_data(as_text=True)
    assert "No public games yet." not in html
    assert 'id="stats-table"' in html and "Shu Fen" in html
    assert '<option value="player" selected>' in html


def test_the_upload_form_needs_a_file(client):
    html = client.get("/upload").get_data(as_text=True)
    assert re.search(r'<input id="upload-files" name="files" type="file" multiple required', html)


def test_findings_write_cards_with_suit_symbols(client, archived):
    page = client.get(f"/g/{archived['revoke']}").get_data(as_text=True)
    triage = client.get(f"/g/{archived['revoke']}/triage").get_data(as_text=True)
    listed = triage[triage.index('id="finding-list"'):]
    listed = listed[:listed.index("</ol>")]
    timeline = triage[triage.index('aria-labelledby="timeline-title"'):]
    for html in (page, listed, timeline):
        assert "East plays ♥2 but holds spades" in html and "East plays H2" not in html


def test_stats_charts_need_only_the_basic_plotly_bundle():
    from viewer.services.stats import stats_charts
    from viewer.view import plotly_bundle

    rows = [{"name": "greedy-1", "games": 3, "declarer_success_rate": 0.5, "findings_per_100_games": 0,
             "think_ms_median": 1200, "think_ms": [900, 1200, 4000]}]
    charts = stats_charts(rows, "greedy-1")
    assert {c["id"] for c in charts} >= {"games", "think_hist"}
    assert plotly_bundle([{"figure": {"data": c["data"]}} for c in charts]) == "plotly-basic.min.js"
    hist = next(c for c in charts if c["id"] == "think_hist")["data"][0]
    assert sum(hist["y"]) == 3
