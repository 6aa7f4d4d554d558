"""Open Graph and Twitter tags, and the page title (issue 24, item 6).

Scrapers take the first of a tag: every page carries exactly one of each, a party round's
(``?round=N``) when a round is asked for. The title and every preview tag go through one
function (``viewer.meta.meta_text``) that drops control characters and bidi overrides.
"""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path

import pytest

HOST = "http://localhost"
GAMES = ("floating-bridge", "uno-lite", "coup", "party-cards")
#: the tags a preview is made of: exactly one of each on every replay page
ONCE = ("description", "og:type", "og:site_name", "og:title", "og:description", "og:url",
        "twitter:card", "twitter:title", "twitter:description")
HOSTILE_NAME = "\u202eAnn\x07 Lee\nX\u200f"


class Head(HTMLParser):
    """Every ``<meta>`` of a page as (name or property, content), in order, and the title."""

    def __init__(self) -> None:
        super().__init__()
        self.meta: list[tuple[str, str]] = []
        self.title: list[str] = []
        self._in_title = False
        self._in_head = True  # the page's title is the head's; an SVG chart's <title>s are tooltips

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "meta" and (attrs.get("property") or attrs.get("name")):
            self.meta.append((attrs.get("property") or attrs.get("name"), attrs.get("content") or ""))
        self._in_title = tag == "title" and self._in_head

    def handle_endtag(self, tag):
        if tag == "title":
            self._in_title = False
        elif tag == "head":
            self._in_head = False

    def handle_data(self, data):
        if self._in_title:
            self.title.append(data)

    def all(self, key: str) -> list[str]:
        return [content for k, content in self.meta if k == key]

    def one(self, key: str) -> str:
        found = self.all(key)
        assert len(found) == 1, (key, found)
        return found[0]


def head_of(text: str) -> Head:
    parser = Head()
    parser.feed(text)
    return parser


def selfplay_json(game: str) -> dict:
    """A seeded bot game of ``game`` as its log's JSON object."""
    from replay.games import get

    bots = {"floating-bridge": ("random",) * 4, "uno-lite": ("random", "greedy"),
            "coup": ("honest", "bluffer", "random"), "party-cards": ("random", "greedy", "random")}[game]
    return json.loads(get(game).selfplay(5, bots).canonical_json())


def code_of_json(data: dict) -> str:
    """The code of a log given as JSON."""
    from replay.codec import encode
    from replay.log import parse_log

    return encode(parse_log(json.dumps(data)))


@pytest.fixture
def hostile_ids(app, tmp_path: Path) -> dict[str, str]:
    """For every game, an archived game whose first player's name holds a right-to-left
    override, a bell, a line break and a direction mark."""
    from viewer.app import get_archive

    ids = {}
    with app.app_context():
        archive = get_archive()
        for game in GAMES:
            data = selfplay_json(game)
            first = next(iter(data["players"]))
            data["players"][first]["name"] = HOSTILE_NAME
            path = tmp_path / f"{game}.json"
            path.write_text(json.dumps(data), encoding="utf-8")
            result = archive.ingest_paths([str(path)])[0]
            assert result.public_id, result
            ids[game] = result.public_id
    return ids


def plain_image(head: Head) -> str | None:
    found = head.all("og:image")
    return found[0] if found else None


@pytest.mark.parametrize("kind", ["code", "archived"])
def test_a_party_round_preview_is_the_rounds_alone(client, app, tmp_path, kind):
    data = selfplay_json("party-cards")
    if kind == "code":
        path = f"/r/{code_of_json(data)}"
    else:
        from viewer.app import get_archive

        file = tmp_path / "party.json"
        file.write_text(json.dumps(data), encoding="utf-8")
        with app.app_context():
            path = f"/g/{get_archive().ingest_paths([str(file)])[0].public_id}"
    from replay.games import get

    drawn = get("party-cards").has_drawing
    plain = head_of(client.get(path).get_data(as_text=True))
    for n in (1, 2):
        head = head_of(client.get(f"{path}?round={n}").get_data(as_text=True))
        for key in ONCE + ("og:image", "twitter:image"):
            head.one(key)
        assert head.one("twitter:card") == "summary_large_image"
        assert head.one("og:title").startswith(f"Party Cards, round {n}:")
        assert head.one("twitter:title") == head.one("og:title")
        assert head.one("og:url").startswith(f"{HOST}{path}?") and head.one("og:url").endswith(f"round={n}")
        assert head.one("og:description") == head.one("twitter:description") == head.one("description")
        assert head.one("og:description") != plain.one("og:description")
        assert head.one("og:image") != plain_image(plain)  # the round's own picture, not the deal's
        # chats draw PNG and JPEG, never SVG: once party cards draw themselves, the round's is a PNG
        if drawn:
            assert head.one("og:image:type") == "image/png", head.one("og:image")
            picture = client.get(head.one("og:image"))
            assert picture.status_code == 200 and picture.mimetype == "image/png"
            assert picture.data[:8] == b"\x89PNG\r\n\x1a\n"
    # without a round: the game's preview, one of each; the deal's PNG once the game has a drawing
    for key in ONCE:
        plain.one(key)
    if drawn:
        assert plain.one("twitter:card") == "summary_large_image"
        assert plain.one("og:image:type") == "image/png" and "/picture.png" in plain.one("og:image")
    else:
        assert plain.one("twitter:card") == "summary" and not plain.all("og:image")
    assert plain.one("og:url") == f"{HOST}{path}" or plain.one("og:url").startswith(f"{HOST}{path}?players=")


@pytest.mark.parametrize("game", GAMES)
def test_title_and_preview_tags_drop_control_and_bidi_characters(client, hostile_ids, game):
    """Every game's page: one of each preview tag, none of them (nor the title, nor the embed's
    title) keeping a control character or a bidi mark from a player's name."""
    for path in (f"/g/{hostile_ids[game]}", f"/embed/g/{hostile_ids[game]}"):
        head = head_of(client.get(path).get_data(as_text=True))
        title = "".join(head.title)
        assert "Ann Lee X" in title, title
        assert not any(ch in title for ch in "\u202e\u200f\x07\n"), repr(title)
        if path.startswith("/embed/"):
            continue
        for key in ONCE:
            value = head.one(key)
            assert not any(ch in value for ch in "\u202e\u200f\x07\n"), (key, repr(value))
        assert "Ann Lee X" in head.one("og:title") and head.one("og:title") == head.one("twitter:title")
        for key in ("og:image:alt", "twitter:image:alt"):  # the picture's words too, where there is one
            for value in head.all(key):
                assert not any(ch in value for ch in "\u202e\u200f\x07\n"), (key, repr(value))


@pytest.mark.parametrize("game", GAMES)
def test_preview_tags_are_one_of_each_on_embed_pages_too(client, hostile_ids, game):
    """Embeds are shared too: the same tags as the page, one of each; the large card with the
    deal's PNG for a game with a drawing, the summary card without."""
    from replay.games import get

    page = head_of(client.get(f"/g/{hostile_ids[game]}").get_data(as_text=True))
    embed = head_of(client.get(f"/embed/g/{hostile_ids[game]}").get_data(as_text=True))
    for key in ONCE:
        assert embed.one(key) == page.one(key), key
    if get(game).has_drawing:
        assert embed.one("twitter:card") == "summary_large_image"
        assert embed.one("og:image") == page.one("og:image")
        assert embed.one("og:image").startswith(f"{HOST}/g/{hostile_ids[game]}/picture.png")
    else:
        assert embed.one("twitter:card") == "summary" and not embed.all("og:image")


def test_meta_text_is_one_line_without_controls_or_bidi_marks():
    from markupsafe import Markup

    from viewer.meta import meta_text

    assert meta_text("\u202eAnn\u202c\x00 &\tBo\r\n\u2028Cy\u2066\ufeff") == "Ann & Bo Cy"
    assert meta_text("x" * 50, 10) == "x" * 9 + "\u2026"
    escaped = meta_text(Markup("&lt;b&gt;\u202eAnn"))
    assert isinstance(escaped, Markup) and escaped == "&lt;b&gt;Ann"
