"""The party-cards board: pages, JSON twins, embeds and round pictures for every sample; hostile
card texts escaped in HTML, JSON, SVG and meta tags; Open Graph tags of one round only; seat
views that embed only what the seat saw; and ``PartyLogger.link()`` storing a game too long
for a code in a real viewer on loopback."""

from __future__ import annotations

import html
import json
import random
import re
from datetime import datetime, timezone
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

from replay.games.party_cards.drawing import round_step
from tests.conftest import SAMPLE_LOGS

PARTY = SAMPLE_LOGS / "party-cards"
SAMPLES = sorted(PARTY.glob("*.json")) + sorted((PARTY / "broken").glob("*.json"))
HOSTILE = PARTY / "hostile-texts.json"
IMG = "<img src=x onerror=alert(1)>"
SVG_NS = "{http://www.w3.org/2000/svg}"


def log_of(path: Path):
    from replay.log import read_path

    return read_path(str(path))[0].log


def code_of(path: Path) -> str:
    from replay.codec import encode

    return encode(log_of(path))


class Meta(HTMLParser):
    """The page's <meta> tags (property or name -> content) and its replay-data JSON."""

    def __init__(self) -> None:
        super().__init__()
        self.meta: dict[str, str] = {}
        self.data_text = ""
        self._in_data = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "meta" and (a.get("property") or a.get("name")):
            self.meta[a.get("property") or a.get("name")] = a.get("content", "")
        if tag == "script" and a.get("id") == "replay-data":
            self._in_data = True

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_data = False

    def handle_data(self, data):
        if self._in_data:
            self.data_text += data


def parse_page(text: str) -> Meta:
    parser = Meta()
    parser.feed(text)
    return parser


def embedded(text: str) -> dict:
    """The page's data, its steps whole (as stepper.js rebuilds them from their changes)."""
    from viewer.view import full_steps

    data = json.loads(parse_page(text).data_text)
    data["steps"] = full_steps(data["steps"])
    return data


@pytest.fixture
def party_ids(app):
    """Every party-cards sample in the app's archive: path name -> public id."""
    from viewer.app import get_archive

    ids = {}
    with app.app_context():
        archive = get_archive()
        for path in SAMPLES:
            results = archive.ingest_paths([str(path)])
            assert results and results[0].public_id, (path, results)
            ids[path.name] = results[0].public_id
    return ids


# --- every sample renders ----------------------------------------------------------------------

@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_every_sample_renders_page_json_embed_and_round_pictures(client, path):
    replay = log_of(path).replay()
    code = code_of(path)
    page = client.get(f"/r/{code}")
    assert page.status_code == 200 and b'id="party-table"' in page.data
    data = embedded(page.get_data(as_text=True))
    assert len(data["steps"]) == replay.step_count and data["board"] == "party-cards"
    twin = client.get(f"/r/{code}.json")
    assert twin.status_code == 200 and twin.get_json()["replay"]["game"] == "party-cards"
    assert client.get(f"/embed/r/{code}").status_code == 200
    for n in range(1, replay.rounds + 1):
        svg = client.get(f"/r/{code}/round/{n}.svg")
        assert svg.status_code == 200 and svg.mimetype == "image/svg+xml"
        root = ET.fromstring(svg.data)
        assert root.tag == SVG_NS + "svg" and root.get("width") == "1200" and root.get("height") == "630"
    assert client.get(f"/r/{code}/round/{replay.rounds + 1}.svg").status_code == 404


def test_archived_games_render_with_their_round_pictures(client, party_ids):
    # every round of every sample from one address: more pictures than a client may draw a minute
    client.application.config["PICTURE_RATE_BURST"] = 1000
    for name, public_id in party_ids.items():
        replay = log_of(next(p for p in SAMPLES if p.name == name)).replay()
        assert client.get(f"/g/{public_id}").status_code == 200, name
        assert client.get(f"/g/{public_id}.json").status_code == 200, name
        assert client.get(f"/embed/g/{public_id}").status_code == 200, name
        for n in range(1, replay.rounds + 1):
            response = client.get(f"/g/{public_id}/round/{n}.svg")
            assert response.status_code == 200, (name, n)
            assert response.headers["Cache-Control"] == "public, max-age=300"
            ET.fromstring(response.data)


# --- the round picture's response --------------------------------------------------------------

def test_round_svg_headers_forbid_scripts_and_cache_codes(client):
    code = code_of(PARTY / "selfplay-random-31.json")
    response = client.get(f"/r/{code}/round/2.svg")
    assert response.headers["Content-Type"] == "image/svg+xml; charset=utf-8"
    policy = response.headers["Content-Security-Policy"]
    assert "script-src 'none'" in policy and "default-src 'none'" in policy and "sandbox" in policy
    assert "immutable" in response.headers["Cache-Control"] and response.headers["X-Content-Type-Options"] == "nosniff"
    again = client.get(f"/r/{code}/round/2.svg", headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304
    # pages keep the site's own policy
    assert "script-src 'self'" in client.get(f"/r/{code}").headers["Content-Security-Policy"]


def test_round_svg_refuses_bad_rounds_and_other_games(client, app):
    code = code_of(PARTY / "selfplay-random-31.json")
    bad = client.get(f"/r/{code}/round/x1.svg")
    assert bad.status_code == 400 and b"a round is a whole number" in bad.data
    assert client.get(f"/r/{code}/round/0.svg").status_code == 404
    missing = client.get(f"/r/{code}/round/99.svg")
    assert missing.status_code == 404 and b"round 99 is not a round of this game (it has 4)" in missing.data
    from replay.codec import encode
    from tests.viewer.conftest import load

    bridge = client.get(f"/r/{encode(load('seed3'))}/round/1.svg")
    assert bridge.status_code == 404 and b"only party-cards games have round pictures" in bridge.data


# --- hostile texts -----------------------------------------------------------------------------

def test_hostile_texts_are_escaped_in_html_json_and_svg(client):
    code = code_of(HOSTILE)
    text = client.get(f"/r/{code}").get_data(as_text=True)
    assert IMG not in text and "<script>alert(1)</script>" not in text
    assert "&lt;img src=x onerror=alert(1)&gt;" in text  # the name and the card, as text
    data = embedded(text)
    assert IMG in data["game"]["texts"] and data["game"]["names"]["p2"] == IMG
    # the JSON twin carries the texts as JSON strings, exactly
    twin = client.get(f"/r/{code}.json")
    assert twin.mimetype == "application/json"
    hands = twin.get_json()["steps"][0]["hands"]  # the first step is whole
    assert {"id": "a2", "text": IMG} in hands["p1"] and {"id": "a8", "text": "\x00NUL\x07bell"} in hands["p3"]
    # the picture: escaped, parses, and the texts read back as they were written
    svg = client.get(f"/r/{code}/round/1.svg").get_data(as_text=True)
    assert "<img" not in svg and "</svg>" not in svg[:-8] and "&lt;/svg&gt;" in svg
    root = ET.fromstring(svg)
    words = "".join(root.itertext())
    assert "</svg>" in words and "<b>Bold</b>" in words
    assert not root.findall(f".//{SVG_NS}script") and all(t.tag.startswith(SVG_NS) for t in root.iter())


def test_og_tags_are_present_escaped_and_name_the_round_picture(client):
    code = code_of(HOSTILE)
    text = client.get(f"/r/{code}?round=1", base_url="https://replays.example").get_data(as_text=True)
    meta = parse_page(text).meta
    # the picture's address carries the players' names on (every seat, percent-encoded)
    # (the PNG of the round's pick, as an onlooker saw it: the same drawing as /round/1.svg)
    replay = log_of(HOSTILE).replay()
    step = round_step(replay.game.view_steps(replay, None), 1)
    assert meta["og:image"] == (f"https://replays.example/r/{code}/picture.png?players="
                                "%3Cscript%3Ealert%281%29%3C%2Fscript%3E,%3Cimg%20src%3Dx%20onerror%3Dalert%281%29%3E,"
                                f"Bo%20%F0%9F%90%90,Di%20%26%20%22co%22&step={step}&view=public")
    assert meta["og:image:width"] == "1200" and meta["og:image:height"] == "630"
    assert meta["twitter:card"] == "summary_large_image" and meta["twitter:image"] == meta["og:image"]
    assert meta["og:title"] == f"Party Cards, round 1: <script>alert(1)</script> picked {IMG}\u2019s answer"
    assert meta["og:description"].startswith("<b>Bold</b> Emoji")
    head = text[: text.index("</head>")]
    # in the markup every one of them is escaped: no tag from a log text, no broken attribute
    assert "<script>alert" not in head and "<img" not in head and "<b>" not in head
    assert '"quotes"' not in head and "&#34;quotes&#34;" in head
    assert "\u202e" not in meta["og:description"]  # bidi overrides are dropped from previews
    # the picture the tags name is served
    assert client.get(meta["og:image"].replace("https://replays.example", "")).status_code == 200


def test_a_round_preview_gives_away_no_other_round():
    """The OG tags of round N name round N's question, answer, czar and winner, nothing of the
    other rounds, and the page title names no winner."""
    from viewer.app import create_app

    path = PARTY / "selfplay-random-greedy-33.json"
    replay = log_of(path).replay()
    code = code_of(path)
    client = create_app({"TESTING": True, "DB": "sqlite://"}).test_client()
    records = [replay.round_record(n) for n in range(1, replay.rounds + 1)]

    def filled(record):
        won = next(s for s in record["submissions"] if s["won"])
        return "".join(g["text"] for g in won["segments"])

    for n in (2, replay.rounds - 1):
        text = client.get(f"/r/{code}?round={n}").get_data(as_text=True)
        meta = parse_page(text).meta
        shown = " ".join(v for k, v in meta.items() if k.startswith(("og:", "twitter:", "description")))
        assert filled(records[n - 1])[:60] in meta["og:description"]
        for other in records:
            if other["round"] != n and filled(other) != filled(records[n - 1]):
                assert filled(other)[:60] not in shown, (n, other["round"])
        assert "won" not in meta["og:title"] and "won" not in text[text.index("<title>"):text.index("</title>")]
        assert embedded(text)["round_link"] == n


def test_round_parameter_errors_are_specific(client):
    code = code_of(PARTY / "selfplay-random-31.json")
    bad = client.get(f"/r/{code}?round=two")
    assert bad.status_code == 400 and b"round must be a round number (1-4)" in bad.data
    far = client.get(f"/r/{code}?round=7")
    assert far.status_code == 404 and b"round 7 is not a round of this game (it has 4)" in far.data


# --- the steps the page embeds -----------------------------------------------------------------

def test_embedded_scores_rounds_and_chapters_match_the_engine(client):
    path = PARTY / "selfplay-random-34.json"
    replay = log_of(path).replay()
    data = embedded(client.get(f"/r/{code_of(path)}").get_data(as_text=True))
    seats = data["game"]["seats"]
    for step, engine in zip(data["steps"], replay.steps_json()):
        assert dict(zip(seats, step["sc"])) == engine["scores"]
        assert step["r"] == engine["round"] and step["x"] == engine["text"]
    picks = [s["i"] for s in replay.steps_json() if s["kind"] == "pick"]
    assert data["chapters"]["ends"][: len(picks)] == picks
    assert [r["n"] for r in data["game"]["rounds"]] == list(range(1, replay.rounds + 1))
    texts = data["game"]["texts"]
    step = data["steps"][picks[0]]
    winning = next(s for s in step["sub"] if s["w"])
    engine = next(s for s in replay.steps_json()[picks[0]]["submissions"] if s["won"])
    assert "".join(texts[t] for t, _ in winning["g"]) == "".join(g["text"] for g in engine["segments"])
    assert [s["n"] for s in step["sub"]] == list(range(1, len(step["sub"]) + 1))  # the czar's order


def test_a_seat_view_embeds_no_other_seats_hand(client):
    path = PARTY / "selfplay-random-34.json"
    replay = log_of(path).replay()
    open_steps = replay.steps_json()
    played = {c["text"] for s in open_steps for sub in s["submissions"] for c in sub["cards"]}
    seat = "p2"
    held_by_others = {c["text"] for s in open_steps for other, hand in s["hands"].items() if other != seat
                      for c in hand} - played - {c["text"] for s in open_steps for c in (s["hands"][seat])}
    assert len(held_by_others) > 20
    text = client.get(f"/r/{code_of(path)}?view={seat}").get_data(as_text=True)
    data = embedded(text)
    assert data["game"]["perspective"] == seat
    assert not held_by_others & set(data["game"]["texts"])
    unescaped = html.unescape(text)
    assert not [t for t in held_by_others if t in unescaped]
    n = data["game"]["seats"].index(seat)
    for step, seen in zip(data["steps"], replay.steps_json(seat)):
        assert all(h is None for k, h in enumerate(step["h"]) if k != n)
        # before the pick the others' answers have no author; after it they all do
        for sub, engine in zip(step["sub"], seen["submissions"]):
            assert sub["s"] == engine["seat"] and sub["m"] == engine["mine"]
            if step["rv"] and step["ch"] is None and not sub["m"]:
                assert sub["s"] is None
    # the open view does show the other hands
    open_data = embedded(client.get(f"/r/{code_of(path)}").get_data(as_text=True))
    assert held_by_others <= set(open_data["game"]["texts"])


def test_no_card_ids_are_embedded(client):
    """Ids follow the deal in many logs: an anonymous answer's ids could name its author."""
    path = PARTY / "selfplay-random-31.json"
    data = embedded(client.get(f"/r/{code_of(path)}?view=p1").get_data(as_text=True))
    assert not re.search(r'"id"', json.dumps(data["steps"]))


# --- long codes: PartyLogger.link() ------------------------------------------------------------

def long_game(seed: int = 5, rounds: int = 4):
    """A game whose card texts are long and varied (no dictionary helps): its code is far
    over 2,000 characters."""
    from replay.games.party_cards.logger import PartyLogger

    rng = random.Random(seed)
    words = ["".join(rng.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rng.randint(3, 9))) for _ in range(400)]

    def text(n: int) -> str:
        return " ".join(rng.choice(words) for _ in range(n)).capitalize() + "."

    seats = ("p1", "p2", "p3")
    logger = PartyLogger(game_id="grp-9/cah/long", players={"p1": "Ann", "p2": "Bo", "p3": "Cy"},
                         score_limit=rounds, hand_size=3, clock=None,
                         started_at=datetime(2026, 11, 21, 20, 0, tzinfo=timezone.utc))
    ids = iter(range(1, 10_000))
    hands = {s: [(f"a{next(ids)}", text(60)) for _ in range(3)] for s in seats}
    logger.deal(hands)
    for s in seats:
        logger.join(s)
    for r in range(rounds):
        czar = seats[r % 3]
        logger.round(czar, (f"q{r + 1}", text(30) + " ___", 1))
        answered = [s for s in seats if s != czar]
        for s in answered:
            logger.answer(s, [hands[s][0][0]])
            hands[s] = hands[s][1:]
        logger.reveal(answered)
        logger.pick(czar, 1)
        for s in answered:
            card = (f"a{next(ids)}", text(60))
            logger.draw(s, [card])
            hands[s].append(card)
    logger.end("cancelled")
    return logger


@pytest.fixture
def live_viewer(tmp_path):
    from tests.browser.conftest import Server
    from viewer.app import create_app

    server = Server(create_app({"DB": f"sqlite:///{tmp_path / 'archive.db'}"}))
    yield server
    server.close()


def test_link_stores_a_game_too_long_for_a_code_and_links_its_short_id(live_viewer, caplog):
    import urllib.request

    from replay.codec import encode

    logger = long_game()
    assert len(encode(logger.replay.log)) > 2000
    with caplog.at_level("INFO", logger="replay.games.party_cards.logger"):
        link = logger.link(live_viewer.url)
    assert link.stored and link.public_id and link.code is None and link.delete_token
    assert link.url == f"{live_viewer.url}/g/{link.public_id}" and len(link.url) < 100
    assert "would be" in link.notice and link.url in caplog.text
    with urllib.request.urlopen(link.url + ".json") as response:
        stored = json.loads(response.read())
    assert stored["replay"]["game_id"] == "grp-9/cah/long" and stored["replay"]["rounds"] == 4
    with urllib.request.urlopen(f"{link.url}/round/4.svg") as response:
        assert response.headers["Content-Type"].startswith("image/svg+xml")
    # the same game again: the archive already has it, and the link is the same
    assert long_game().link(live_viewer.url).url == link.url


def test_link_keeps_short_games_as_codes_and_can_leave_uploads_unlisted(live_viewer):
    from replay.codec import encode

    short = long_game(rounds=1)
    link = short.link(live_viewer.url, limit=100_000)
    assert not link.stored and link.code == encode(short.replay.log)
    assert link.url == f"{live_viewer.url}/r/{link.code}"
    unlisted = long_game(seed=6).link(live_viewer.url, publish=False)
    assert unlisted.stored and unlisted.public_id is None and unlisted.url.startswith(f"{live_viewer.url}/u/")


def test_link_says_when_the_archive_cannot_store_the_game(tmp_path):
    from replay.games.party_cards.logger import ArchiveLinkError
    from tests.browser.conftest import Server
    from viewer.app import create_app

    server = Server(create_app({"DB": f"sqlite:///{tmp_path / 'a.db'}"}))
    dead = server.url
    server.close()
    logger = long_game()
    with pytest.raises(ArchiveLinkError, match="could not be reached") as caught:
        logger.link("https://replays.example", archive_url=dead)
    assert caught.value.code_url.startswith("https://replays.example/r/g")
    with pytest.raises(ArchiveLinkError, match="must start with http"):
        logger.link("https://replays.example", archive_url="ftp://example")
