"""Issue 24's rough edges a reader sees, in Chromium at 1366x900 and at 375x812: the Coup claims
table and chart count only up to the step shown; players' names (not seat ids) in step texts,
view labels and chart legends; chart labels and legends that fit and do not overlap; a hidden
chart shows no current-step mark; no "(true) TRUE"; a party banner at every step; and the view
kept in the address bar for every game."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.conftest import SAMPLE_LOGS
from viewer.view import full_steps

pytestmark = pytest.mark.browser

SIZES = [(1366, 900), (375, 812)]
EARLY_DECISION = SAMPLE_LOGS / "selfplay" / "kopi-bridge_2026-02-12_1.json"  # the race is decided at trick 1


@pytest.fixture(params=SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def sized(request, chromium):
    width, height = request.param
    phone = width < 600
    context = chromium.new_context(viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone)
    page = context.new_page()
    page.set_default_timeout(20000)
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    yield page
    context.close()


def ingest(viewer_server, path) -> str:
    from viewer.app import get_archive

    with viewer_server.app.app_context():
        return get_archive().ingest_paths([str(path)])[0].public_id


def replay_of(path):
    from replay.log import read_path

    return read_path(str(path))[0].log.replay()


def ready(page) -> None:
    page.locator("html.js-ready").wait_for(state="attached")


def go_to(page, step: int) -> None:
    page.evaluate("i => window.GameViewer.go(i)", step)
    expect(page.locator("#step-no")).to_have_text(str(step))


def table_counts(page) -> dict[str, list[int]]:
    """The claims table's numbers, per seat (its rows are in seat order)."""
    seats = json.loads(page.locator("#replay-data").text_content())["game"]["seats"]
    rows = page.evaluate("""() => Array.from(document.querySelectorAll('#coup-counts tbody tr'))
        .map(r => Array.from(r.querySelectorAll('td')).map(td => +td.textContent))""")
    return dict(zip(seats, rows))


def draw_charts(page) -> None:
    page.locator("#charts").scroll_into_view_if_needed()
    page.wait_for_selector("#charts.charts-ready", state="attached")


def overlaps(a: dict, b: dict) -> bool:
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


# --- Coup: the claims table and chart as of the step shown ----------------------------------------

def test_coup_claims_count_only_up_to_the_step_shown_in_every_view(sized, viewer_server):
    from viewer.games.coup.view import claim_counts

    page = sized
    path = SAMPLE_LOGS / "coup" / "selfplay" / "champ-3p_g11.json"
    replay = replay_of(path)
    public_id = viewer_server.games["coup"]
    seats = tuple(replay.seats)
    for view in ("all", *seats):
        steps = replay.steps_json(None if view == "all" else view)
        page.goto(f"{viewer_server.url}/g/{public_id}?view={view}#0")
        ready(page)
        assert table_counts(page) == {s: [0] * 5 for s in seats}, view  # nothing claimed at the deal
        middle = len(steps) // 2
        for step in (1, middle, len(steps) - 1):
            go_to(page, step)
            want = claim_counts(steps[:step + 1], seats)
            assert table_counts(page) == {s: [want[s][k] for k in ("claims", "bluffs", "caught", "won", "lost")] for s in seats}, (view, step)
        go_to(page, 0)
        assert table_counts(page) == {s: [0] * 5 for s in seats}, view
    # the chart of claims and challenges grows with the steps too
    page.goto(f"{viewer_server.url}/g/{public_id}#0")
    ready(page)
    draw_charts(page)
    expect(page.locator("#chart-claims .js-plotly-plot")).to_be_attached(timeout=30000)
    bars = "() => document.querySelector('#chart-claims .chart-plot').data.map(t => t.y.reduce((a, b) => a + b, 0))"
    page.wait_for_timeout(300)
    assert page.evaluate(bars) == [0, 0, 0, 0]
    go_to(page, len(replay.steps_json()) - 1)
    page.wait_for_timeout(300)
    assert sum(page.evaluate(bars)) > 0
    assert page.errors == []


def test_party_wins_count_only_the_picks_up_to_the_step_shown(sized, viewer_server):
    page = sized
    page.goto(f"{viewer_server.url}/g/{viewer_server.games['party-cards']}#0")
    ready(page)
    draw_charts(page)
    expect(page.locator("#chart-wins .js-plotly-plot")).to_be_attached(timeout=30000)
    page.wait_for_timeout(300)
    shown = "() => { const t = document.querySelector('#chart-wins .chart-plot').data[0]; return [t.y, t.text]; }"
    wins, texts = page.evaluate(shown)
    assert sum(wins) == 0 and not any(texts), (wins, texts)  # no round has been picked at the deal
    rounds = page.evaluate("window.GameViewer.data.game.rounds")
    first_pick = rounds[0]["pick"]
    go_to(page, first_pick)
    page.wait_for_timeout(300)
    wins, texts = page.evaluate(shown)
    assert sum(wins) == 1 and sum(1 for t in texts if t) == 1 and "round 2:" not in "".join(texts)
    assert page.errors == []


# --- names, not seat ids ---------------------------------------------------------------------------

def test_uno_and_coup_say_players_names_in_steps_views_and_legends(sized, viewer_server):
    page = sized
    uno_id, coup_id = viewer_server.games["uno-lite"], viewer_server.games["coup"]
    page.goto(f"{viewer_server.url}/g/{uno_id}#1")
    ready(page)
    data = json.loads(page.locator("#replay-data").text_content())
    data["steps"] = full_steps(data["steps"])
    names = data["game"]["names"]
    assert all(names.values()), names
    mover = data["steps"][1]["s"]
    words = page.locator("#step-words").text_content()
    assert words.startswith(names[mover] + " ") and not re.match(r"P[12]\b", words), words
    labels = page.locator("#perspective option").all_text_contents()
    assert [f"{names[s]}\u2019s view" for s in data["game"]["seats"]] == labels[1:]
    draw_charts(page)
    legend = page.locator("#chart-hands .chart-legend li").all_text_contents()
    assert legend == [names[s] for s in data["game"]["seats"]]

    page.goto(f"{viewer_server.url}/g/{coup_id}#1")
    ready(page)
    data = json.loads(page.locator("#replay-data").text_content())
    data["steps"] = full_steps(data["steps"])
    names = data["game"]["names"]
    words = page.locator("#step-words").text_content()
    assert words.startswith(names[data["steps"][1]["s"]] + " "), words
    assert not re.match(r"\d ", words)
    labels = page.locator("#perspective option").all_text_contents()
    assert [f"{names[s]}\u2019s view" for s in data["game"]["seats"]] == labels[1:]
    assert page.locator("#coup-counts tbody th").all_text_contents() == [names[s] for s in data["game"]["seats"]]
    draw_charts(page)
    expect(page.locator("#chart-coins .legendtext").first).to_be_attached(timeout=30000)
    assert page.locator("#chart-coins .legendtext").all_text_contents() == [names[s] for s in data["game"]["seats"]]
    assert page.errors == []


# --- charts ----------------------------------------------------------------------------------------

def test_the_tricks_race_note_fits_in_its_picture(sized, viewer_server):
    page = sized
    replay = replay_of(EARLY_DECISION)
    public_id = ingest(viewer_server, EARLY_DECISION)
    page.goto(f"{viewer_server.url}/g/{public_id}#{len(replay.steps) - 1}")
    ready(page)
    draw_charts(page)
    page.locator("#reveal").check()  # the race shows the sides: shown with the partner revealed
    note = page.locator("#chart-race text.c-note", has_text="decided")
    expect(note).to_be_visible()
    assert note.text_content() == "decided: trick 1"
    box, picture = note.bounding_box(), page.locator("#chart-race svg.svg-chart").bounding_box()
    assert box["x"] >= picture["x"] - 0.5 and box["x"] + box["width"] <= picture["x"] + picture["width"] + 0.5, (box, picture)
    assert box["y"] >= picture["y"] - 0.5, (box, picture)
    assert page.errors == []


def test_a_hidden_race_shows_no_current_step_mark(sized, viewer_server):
    """Hidden (the partner not known yet, "reveal partner" off): no mark shows through."""
    page = sized
    page.goto(f"{viewer_server.url}/g/{viewer_server.ids['seed3']}#1")
    ready(page)
    draw_charts(page)
    expect(page.locator("#chart-race")).to_have_class(re.compile(r"\bchart-hidden\b"))
    page.wait_for_timeout(200)
    assert not page.locator("#chart-race .chart-mark").is_visible()
    assert page.locator("#chart-tricks .chart-mark").count() == 1  # the other charts keep theirs
    assert page.errors == []


@pytest.mark.parametrize("game", ["coup", "party-cards"])
def test_plotly_legends_never_overlap_an_axis_title(sized, viewer_server, game):
    page = sized
    page.goto(f"{viewer_server.url}/g/{viewer_server.games[game]}")
    ready(page)
    go_to(page, int(page.evaluate("window.GameViewer.last")))  # every point drawn, every legend shown
    draw_charts(page)
    expect(page.locator("#charts")).to_have_class(re.compile(r"\bcharts-drawn\b"), timeout=30000)
    checked = 0
    for chart in page.locator("#charts figure.chart").all():
        chart.scroll_into_view_if_needed()
        legend = chart.locator(".legend")
        if not legend.count() or not legend.first.is_visible():
            continue
        for title in chart.locator(".g-xtitle text, .g-ytitle text").all():
            assert not overlaps(legend.first.bounding_box(), title.bounding_box()), (chart.get_attribute("id"), title.text_content())
            checked += 1
    assert checked >= 2
    assert page.errors == []


# --- other text --------------------------------------------------------------------------------------

def test_coup_never_reads_true_twice(sized, viewer_server):
    page = sized
    page.goto(f"{viewer_server.url}/g/{viewer_server.games['coup']}")
    ready(page)
    page.evaluate("() => { const b = document.getElementById('whole-game'); if (b && !b.checked) b.click(); }")
    record = page.locator("#coup-turns").inner_text()
    assert "(true)" not in record and "(a bluff)" not in record  # the marks say it
    assert not re.search(r"\(true\)\s*TRUE", record + page.locator("#coup-stack").inner_text())
    marks = page.locator("#coup-turns .coup-mark.true").all_inner_texts()
    assert marks and all(m.lower() == "true claim" for m in marks)
    assert page.errors == []


def test_the_party_banner_says_something_at_every_step(sized, viewer_server):
    page = sized
    public_id = viewer_server.games["party-cards"]
    page.goto(f"{viewer_server.url}/g/{public_id}#0")
    ready(page)
    last = int(page.evaluate("window.GameViewer.last"))
    empty = []
    for step in range(last + 1):
        go_to(page, step)
        if not page.locator("#outcome").text_content().strip():
            empty.append(step)
    assert empty == []
    go_to(page, 5)
    assert page.locator("#outcome").is_visible()
    assert page.errors == []


# --- the view in the address bar ---------------------------------------------------------------------

@pytest.mark.parametrize("game,seat", [("uno-lite", "P2"), ("floating-bridge", "E"), ("coup", "2")])
def test_changing_the_view_keeps_it_in_the_address_bar(sized, viewer_server, game, seat):
    page = sized
    page.goto(f"{viewer_server.url}/g/{viewer_server.games[game]}#3")
    ready(page)
    page.select_option("#perspective", seat)
    expect(page).to_have_url(re.compile(rf"\?(.*&)?view={seat}(&.*)?#3$"))
    # the view is shown: drawn from the page's data, or (Coup) loaded as a page of its own
    page.wait_for_function("s => { const v = window.GameViewer, own = v && v.data.game.perspective;"
                           " return v && v.perspective === s && (own === undefined || own === s)"
                           " && document.documentElement.classList.contains('js-ready'); }", arg=seat)
    expect(page.locator("#step-no")).to_have_text("3")
    page.select_option("#perspective", "all")
    expect(page).to_have_url(re.compile(r"/g/[^?#]+#3$"))
    assert page.errors == []
