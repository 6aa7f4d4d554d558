"""Coup's board in the generic shell: every Coup sample's page, JSON twin and embed, every step
rendered on the server, the turn's stack, turns as chapters, charts, escaping, and above all
hidden information: in one seat's view no other seat's face-down card (nor its drawn cards, nor a
bluff that seat could not know) is anywhere in the page or the data it embeds.
"""

from __future__ import annotations

import json
import re
from html import unescape
from html.parser import HTMLParser
from typing import Any

import pytest

from tests.conftest import SAMPLE_LOGS

from viewer.view import full_steps

from .test_pages import data_block

COUP_SAMPLES = sorted(p for p in (SAMPLE_LOGS / "coup").rglob("*") if p.suffix in (".json", ".log"))
#: the samples whose every step is checked in every seat's view (the rest: a few steps each)
EVERY_STEP = ("champ-3p_g11.json", "champ-5p_g21.json", "refusal-and-kick.log", "card-not-held.json",
              "card-not-in-deck.json", "wrong-card.json", "must-coup-and-more.json")
EVIL = "<img src=x onerror=alert(1)>"
CARD_NAMES = {"D": "Duke", "A": "Assassin", "B": "Ambassador", "C": "Captain", "E": "Contessa"}


@pytest.fixture
def coup_archive(app) -> dict[str, tuple[str, Any]]:
    """Every Coup sample in the app's archive: file name -> (public id, judged replay)."""
    from replay.log import read_path
    from viewer.app import get_archive

    assert len(COUP_SAMPLES) >= 20, COUP_SAMPLES
    out = {}
    with app.app_context():
        archive = get_archive()
        for path in COUP_SAMPLES:
            results = archive.ingest_paths([str(path)])
            assert results and results[0].public_id, (path, results)
            out[path.name] = (results[0].public_id, read_path(str(path))[0].log.replay())
    return out


# --- reading a page ----------------------------------------------------------------------------

class SeatBoxes(HTMLParser):
    """Each ``.coup-seat`` box's cards: seat -> [(state, text)], in page order."""

    def __init__(self) -> None:
        super().__init__()
        self.boxes: dict[str, list[list[str]]] = {}
        self.seat: str | None = None
        self.depth = 0
        self.card: list[str] | None = None
        self.card_depth = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = (a.get("class") or "").split()
        if self.seat is None and tag == "div" and "coup-seat" in classes:
            self.seat, self.depth = a["data-seat"], 0
            self.boxes[self.seat] = []
        if self.seat is None:
            return
        self.depth += 1
        if "coup-card" in classes:
            self.card = [a.get("data-card-state", ""), ""]
            self.card_depth = self.depth
            self.boxes[self.seat].append(self.card)

    def handle_endtag(self, tag):
        if self.seat is None:
            return
        if self.card is not None and self.depth == self.card_depth:
            self.card = None
        self.depth -= 1
        if self.depth == 0:
            self.seat = None

    def handle_data(self, data):
        if self.card is not None:
            self.card[1] += data


def seat_cards(html: str) -> dict[str, list[list[str]]]:
    parser = SeatBoxes()
    parser.feed(html)
    return parser.boxes


def json_blocks(html: str) -> list[Any]:
    return [json.loads(m) for m in re.findall(r'<script type="application/json"[^>]*>(.*?)</script>', html, re.S)]


def walk(value: Any, path: str = ""):
    """Every (path, key, value) in a JSON value."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield path, k, v
            yield from walk(v, f"{path}.{k}")
    elif isinstance(value, list):
        for n, v in enumerate(value):
            yield from walk(v, f"{path}[{n}]")


# keyed by the replay's id, and holding the replay itself: an id alone is reused once its object
# is gone, and another test's replay would then get this one's steps (seen as a flaky failure)
_steps: dict[tuple[int, str | None], tuple[Any, list[dict[str, Any]]]] = {}


def steps_of(replay, seat: str | None) -> list[dict[str, Any]]:
    """``steps_json(seat)`` with the texts as the page words them: players' names for seats."""
    from viewer.games.coup.view import log_names, named_texts

    key = (id(replay), seat)
    if key not in _steps or _steps[key][0] is not replay:
        words = named_texts(replay, seat or "all", log_names(replay))
        _steps[key] = (replay, [{**s, **w} for s, w in zip(replay.steps_json(seat), words)])
    return _steps[key][1]


def secrets_of(replay, seat: str) -> set[str]:
    """Every text the open view says and ``seat``'s view words otherwise: a drawn card, another
    seat's exchange, a bluff mark, a finding naming face-down cards."""
    from viewer.games.coup.view import view_findings

    open_steps, mine = steps_of(replay, None), steps_of(replay, seat)
    out = set()
    for o, m in zip(open_steps, mine):
        for key in ("text", "turn_text", "plain"):
            if o[key] != m[key]:
                out.add(o[key])
    for o, m in zip(view_findings(replay, "all"), view_findings(replay, seat)):
        if o["message"] != m["message"]:
            out.add(o["message"])
    return out


def assert_seat_view_hides(html: str, replay, seat: str, index: int, secrets: set[str]) -> None:
    """The page of ``seat``'s view at step ``index`` names no card that view may not see."""
    seats = list(replay.seats)
    open_step = steps_of(replay, None)[index]
    mine = steps_of(replay, seat)
    # the page, its attributes and its scripts: no text only the open view has
    for text in (html, unescape(html)):
        for secret in secrets:
            assert secret not in text, (seat, index, secret)
    # the seat boxes: another seat's face-down cards are card backs, its lost cards face up
    boxes = seat_cards(html)
    assert set(boxes) == set(seats)
    for other in seats:
        cards = boxes[other]
        up = [text for state, text in cards if state == "up"]
        assert up == [CARD_NAMES[c] for c in open_step["faceup"][other]], (other, index)
        down = [text for state, text in cards if state == "down"]
        if other == seat:
            assert down == [CARD_NAMES[c] for c in open_step["hands"][seat]], (other, index)
        else:
            assert down == [], (seat, other, index, "a face-down card of another seat is named")
            backs = [text for state, text in cards if state == "back"]
            assert len(backs) == open_step["influence"][other], (other, index)
            assert all(t.strip() == "face-down card" for t in backs)
    # every embedded JSON: the other seats' face-down cards are null, the deck is a count, and
    # nothing carries drawn or kept cards or a bluff flag; marks on other seats' claims are public
    blocks = json_blocks(html)
    assert len(blocks) == (2 if 'id="charts-data"' in html else 1)  # the board's data, the charts
    data = {**blocks[0], "steps": full_steps(blocks[0]["steps"])}  # whole, as stepper.js rebuilds them
    assert data["game"]["perspective"] == seat and len(data["steps"]) == len(mine)
    me = seats.index(seat)
    for shown, s in zip(data["steps"], mine):
        for n, other in enumerate(seats):
            assert shown["h"][n] == (s["hands"][seat] if other == seat else None), (s["i"], other)
        assert shown["x"] == (s["turn_text"] or s["text"]) and shown["e"] == s["text"]
        assert shown["h"][me] == s["hands"][seat]
    for block in [*blocks, data]:
        for path, key, value in walk(block):
            assert key not in ("hands", "drawn", "kept", "bluff"), (path, key)
            if key == "deck":
                assert isinstance(value, int), path
    for s in data["steps"]:
        for e in s["st"]:
            if e.get("m") in ("bluff", "true") and e["s"] != seat:
                assert e.get("caught") or e.get("shown"), (s["i"], e)  # the whole table saw it settled


# --- pages for every sample ----------------------------------------------------------------------

def test_every_coup_sample_renders_with_its_json_twin_and_embed(client, coup_archive):
    for name, (public_id, replay) in coup_archive.items():
        response = client.get(f"/g/{public_id}")
        assert response.status_code == 200, name
        html = response.get_data(as_text=True)
        steps = replay.steps_json()
        final = steps_of(replay, None)[-1]
        assert 'class="page-replay game-coup"' in html and 'title="Next turn (↓)"' in html
        assert re.search(r'<script src="/static/games/coup/board\.[0-9a-f]{10}\.js"', html)
        assert re.search(r'<link rel="stylesheet" href="/static/games/coup/board\.[0-9a-f]{10}\.css"', html)
        assert (final["turn_text"] or final["text"]) in unescape(html), name
        data = data_block(html)
        assert data["board"] == "coup" and len(data["steps"]) == len(steps) == replay.step_count
        for seat in replay.seats:
            assert f'<option value="{seat}">' in html
        body = client.get(f"/g/{public_id}.json").get_json()
        assert body["replay"] == json.loads(json.dumps(replay.to_json()))
        assert full_steps(body["steps"]) == json.loads(json.dumps(steps))
        embed = client.get(f"/embed/g/{public_id}")
        assert embed.status_code == 200 and "coup-turns" in embed.get_data(as_text=True), name
        assert client.get(f"/g/{public_id}.pbn").status_code == 404
        for tag in re.findall(r"<script\b[^>]*>", html):
            assert "src=" in tag or 'type="application/json"' in tag, tag


def test_every_step_of_every_sample_renders_on_the_server(client, coup_archive):
    for name, (public_id, replay) in coup_archive.items():
        for s in steps_of(replay, None):
            html = client.get(f"/g/{public_id}?step={s['i']}").get_data(as_text=True)
            assert f'<span id="step-no">{s["i"]}</span>' in html, (name, s["i"])
            assert (s["turn_text"] or s["text"]) in unescape(html), (name, s["i"])
            assert f'<b id="coup-deck">{s["deck_size"]}</b>' in html
            coins = re.findall(r'data-seat="([^"]+)">.*?<b class="coins" data-coins>(\d+)</b>', html, re.S)
            assert {seat: int(c) for seat, c in coins} == s["coins"], (name, s["i"])
            influence = re.findall(r'data-seat="([^"]+)">.*?<span data-influence>(\d+)</span>', html, re.S)
            assert {seat: int(n) for seat, n in influence} == s["influence"], (name, s["i"])
            cards = seat_cards(html)
            for seat in replay.seats:  # all cards open: face down and face up, by name
                assert [t for st, t in cards[seat] if st == "down"] == [CARD_NAMES[c] for c in s["hands"][seat]]
                assert [t for st, t in cards[seat] if st == "up"] == [CARD_NAMES[c] for c in s["faceup"][seat]]


def test_a_seat_view_holds_no_other_seats_face_down_card(client, coup_archive):
    checked = 0
    for name, (public_id, replay) in coup_archive.items():
        last = replay.step_count - 1
        indexes = range(last + 1) if name in EVERY_STEP else sorted({0, min(1, last), last // 3, last // 2, last})
        for seat in replay.seats:
            secrets = secrets_of(replay, seat)
            for index in indexes:
                html = client.get(f"/g/{public_id}?step={index}&view={seat}").get_data(as_text=True)
                assert f'<option value="{seat}" selected>' in html
                assert_seat_view_hides(html, replay, seat, index, secrets)
                checked += 1
            embed = client.get(f"/embed/g/{public_id}?step={last}&view={seat}").get_data(as_text=True)
            assert_seat_view_hides(embed, replay, seat, last, secrets)
    assert checked > 600


def test_the_checks_catch_a_leak(client, coup_archive):
    """The open view's page fails the seat-view checks: they would catch a leak."""
    public_id, replay = coup_archive["champ-3p_g11.json"]
    html = client.get(f"/g/{public_id}?step=5").get_data(as_text=True)
    with pytest.raises(AssertionError):
        assert_seat_view_hides(html, replay, "1", 5, secrets_of(replay, "1"))
    assert secrets_of(replay, "1"), "this game has replacements or bluffs seat 1 cannot see"


def test_findings_naming_face_down_cards_are_worded_for_the_view(client, coup_archive):
    public_id, replay = coup_archive["card-not-held.json"]
    finding = replay.findings[0]
    assert finding.kind == "card_not_held" and "face down" in finding.message
    own = client.get(f"/g/{public_id}?view={finding.seat}").get_data(as_text=True)
    assert finding.message in unescape(own)  # the seat's own cards: its view may see them
    other = next(s for s in replay.seats if s != finding.seat)
    seen = unescape(client.get(f"/g/{public_id}?view={other}").get_data(as_text=True))
    assert finding.message not in seen
    assert f"{finding.seat}: card not held (its cards are hidden in this view)" in seen


# --- the board ---------------------------------------------------------------------------------

def test_the_turn_stack_and_how_it_resolved(client, coup_archive):
    public_id, replay = coup_archive["champ-3p_g11.json"]
    steps = steps_of(replay, None)
    challenged = next(s for s in steps if s["kind"] == "reveal")
    turn_start = max(s["i"] for s in steps[:challenged["i"]] if s["kind"] == "action")
    end = next((s["i"] - 1 for s in steps[challenged["i"]:] if s["kind"] == "action"), len(steps) - 1)
    html = client.get(f"/g/{public_id}?step={end}").get_data(as_text=True)
    stack = re.search(r'<ol class="coup-stack" id="coup-stack">(.*?)</ol>', html, re.S).group(1)
    linked = [int(i) for i in re.findall(r'data-step="(\d+)"', stack)]
    assert linked == list(range(turn_start, end + 1))
    for s in steps[turn_start:end + 1]:
        assert s["plain"] in unescape(stack)  # the mark says whether a claim was true
    result = re.search(r'<p class="coup-result" id="coup-result">(.*?)</p>', html).group(1)
    assert "its claim was shown" in result or "fails" in result, result
    # the open view marks every claim; the step text is the whole turn so far
    assert f'<span id="step-words">{steps[end]["turn_text"]}</span>' in html
    claims = [s for s in steps[turn_start:end + 1] if s["claim"]]
    assert stack.count('class="coup-mark true"') + stack.count('class="coup-mark bluff"') == len(claims)


def test_claims_are_marked_only_where_the_view_may_know(client, coup_archive):
    public_id, replay = coup_archive["champ-5p_g21.json"]
    steps = replay.steps_json()
    data = data_block(client.get(f"/g/{public_id}").get_data(as_text=True))
    marks = {e["i"]: e.get("m") for s in data["steps"] for e in s["st"] if "cl" in e}
    bluffs = {s["i"]: s["bluff"] for s in steps if "bluff" in s}
    assert bluffs and marks == {i: ("bluff" if b else "true") for i, b in bluffs.items()}
    assert any(bluffs.values()), "this game has bluffs"
    seat = "1"
    view = data_block(client.get(f"/g/{public_id}?view={seat}").get_data(as_text=True))
    for s in view["steps"]:
        for e in s["st"]:
            if "cl" in e and e["s"] == seat:
                assert e["m"] == ("bluff" if bluffs[e["i"]] else "true")
    from viewer.games.coup.view import tally

    counts = tally(view["game"]["count_changes"], tuple(replay.seats))
    open_counts = tally(data["game"]["count_changes"], tuple(replay.seats))
    assert counts[seat] == open_counts[seat]
    assert sum(c["bluffs"] for c in counts.values()) < sum(c["bluffs"] for c in open_counts.values())
    for s, c in counts.items():
        assert c["caught"] == open_counts[s]["caught"] and c["claims"] == open_counts[s]["claims"]


def test_turns_are_the_chapters_and_the_charts_are_public(client, coup_archive):
    public_id, replay = coup_archive["champ-5p_g21.json"]
    steps = replay.steps_json()
    html = client.get(f"/g/{public_id}").get_data(as_text=True)
    data = data_block(html)
    actions = [s["i"] for s in steps if s["kind"] == "action"]
    assert data["chapters"]["ends"] == [a - 1 for a in actions[1:]] + [len(steps) - 1]
    assert len(actions) == replay.turns
    charts = data_block(html, "charts-data")
    assert [c["id"] for c in charts] == ["coins", "influence", "claims"]
    names = {p.name: seat for seat, p in replay.log.players.items()}  # the legend names the players
    coins = {names[t["name"]]: t["y"] for t in charts[0]["figure"]["data"]}
    points = [steps[0]] + [steps[i] for i in data["chapters"]["ends"]]
    assert coins == {seat: [p["coins"][seat] for p in points] for seat in replay.seats}
    influence = {names[t["name"]]: t["y"] for t in charts[1]["figure"]["data"]}
    assert influence["1"][-1] == replay.influence["1"] and influence["1"][0] == 2
    assert charts[0]["figure"]["data"][0]["customdata"] == [p["i"] for p in points]
    bars = {t["name"]: t["y"] for t in charts[2]["figure"]["data"]}
    seats = list(replay.seats)
    claims = [sum(1 for s in steps if s["claim"] and s["seat"] == seat) for seat in seats]
    assert bars["claims made"] == claims
    assert sum(bars["challenges won"]) + sum(bars["challenges lost"]) > 0
    # the charts are the same in every view: they never count a bluff nobody caught
    assert data_block(client.get(f"/g/{public_id}?view=2").get_data(as_text=True), "charts-data") == charts
    uncaught = sum(1 for s in steps if s.get("bluff")) - sum(bars["bluffs caught"])
    assert uncaught > 0


def test_player_names_are_escaped(app, client):
    from replay.games import get
    from viewer.app import get_archive

    game = get("coup")
    data = json.loads(game.selfplay(4, bots=("honest", "bluffer"), players=2).canonical_json())
    data["players"]["2"]["name"] = EVIL
    with app.app_context():
        public_id = get_archive().ingest_bytes(json.dumps(data).encode(), "coup.json")[0].public_id
    for view in ("all", "1", "2"):
        html = client.get(f"/g/{public_id}?view={view}").get_data(as_text=True)
        assert EVIL not in html and "&lt;img src=x onerror=alert(1)&gt;" in html
        assert data_block(html)["game"]["names"]["2"] == EVIL


def test_an_unknown_view_shows_all_cards(client, coup_archive):
    public_id, replay = coup_archive["champ-2p_g1.json"]
    html = client.get(f"/g/{public_id}?view=9&step=1").get_data(as_text=True)
    assert data_block(html)["game"]["perspective"] == "all"
    assert '<option value="all" selected>' in html
