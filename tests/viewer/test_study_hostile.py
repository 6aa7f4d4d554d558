"""Hostile annotations (markup and scripts, a 100 KB comment, right-to-left text with bidi
overrides, a hostile title and branch title) are shown as text everywhere a study shows them:
its page, its JSON, its embed, its oEmbed answer and its link preview tags. Pages are parsed
(``html.parser``): no element the text tries to make may exist."""

from __future__ import annotations

import json
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from replay.games import get
from replay.study import StudyGame, render_comment

MARKUP = '<script>alert(1)</script><img src=x onerror=alert(1)>'
TITLE = '</title><script>alert("t")</script>"\'><svg onload=alert(2)>'
RTL = "\u05e9\u05dc\u05d5\u05dd \u202eevil\u202c and \u2067isolated\u2069 \u200f!"
BIG = ("A long comment. " * 6400)[:100 * 1024]  # 100 KB


@pytest.fixture
def app(tmp_path: Path):
    from viewer.app import create_app

    return create_app({"TESTING": True, "DB": f"sqlite:///{tmp_path / 'archive.db'}",
                       "UPLOAD_RATE_PER_MINUTE": 100000, "UPLOAD_RATE_BURST": 100000,
                       "STUDY_RATE_PER_MINUTE": 100000, "STUDY_RATE_BURST": 100000})


@pytest.fixture
def client(app):
    return app.test_client()


class Elements(HTMLParser):
    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: dict[str, str] = {}
        self._script: str | None = None
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, dict(attrs)))
        if tag == "script":
            self._script = dict(attrs).get("id") or dict(attrs).get("src") or ""
            self.scripts[self._script] = ""

    def handle_data(self, data: str) -> None:
        if self._script is not None:
            self.scripts[self._script] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._script = None


def assert_nothing_injected(text: str) -> Elements:
    page = Elements(text)
    for tag, attrs in page.elements:
        assert tag not in ("img", "svg") or not any(k.startswith("on") for k in attrs), (tag, attrs)
        assert not any(k.startswith("on") for k in attrs), (tag, attrs)  # no inline handlers anywhere
        if tag == "script":  # only the site's own: a static file, or a JSON block
            assert attrs.get("src", "").startswith("/static/") or attrs.get("type") == "application/json", attrs
    assert not any(tag == "img" and attrs.get("src") == "x" for tag, attrs in page.elements)
    for name, body in page.scripts.items():
        if name and not name.startswith("/static/"):
            json.loads(body)  # every data block is whole JSON: nothing closed it early
    return page


@pytest.fixture
def hostile(client) -> dict[str, Any]:
    log = get("floating-bridge").selfplay(seed=3)
    study = StudyGame.new(log, title=TITLE)
    moves = study.moves("main", 12)
    study, branch = study.with_branch("main", 12, [moves[-1].event], title=MARKUP)
    study = (study.with_note("main", 1, comment=MARKUP, glyph="??")
             .with_note("main", 2, comment=BIG)
             .with_note("main", 3, comment=RTL, highlights=[{"kind": "seat", "id": "N"}])
             .with_note(branch, 13, comment=f"[click]({MARKUP}) **{MARKUP}**"))
    made = client.post("/api/studies", json={"study": study.to_json(), "listed": True})
    assert made.status_code == 201, made.get_data(as_text=True)
    return {**made.get_json(), "branch": branch}


def test_the_page_shows_hostile_notes_and_titles_as_text(client, hostile):
    response = client.get(hostile["url"])
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    page = assert_nothing_injected(html)
    assert "<script>alert(1)" not in html and "onerror=alert(1)>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;" in html  # the static notes
    assert BIG[:200] in html
    data = json.loads(page.scripts["study-data"])
    assert data["title"] == TITLE
    assert data["notes"]["1"]["comment"] == MARKUP and data["notes"]["1"]["html"] == render_comment(MARKUP)
    assert data["notes"]["2"]["comment"] == BIG
    assert data["notes"]["3"]["comment"] == RTL and 'dir="auto"' in data["notes"]["3"]["html"]
    [line] = [line for line in data["lines"] if line["id"] == hostile["branch"]]
    assert line["title"] == MARKUP
    # the title: text in <title>, the heading and every preview tag
    [heading] = [attrs for tag, attrs in page.elements if tag == "h1"]
    assert heading.get("dir") == "auto"
    metas = {attrs.get("property") or attrs.get("name"): attrs.get("content") for tag, attrs in page.elements
             if tag == "meta"}
    assert "alert(\"t\")" in metas["og:title"] and "<script>" in metas["og:title"]  # as text in an attribute
    assert metas["og:description"].startswith("A study of a Floating bridge game: 4 notes, 1 branch")
    assert metas["og:image"].endswith(f"/s/{hostile['id']}/picture.png")


def test_the_branch_page_shows_its_hostile_note_as_text(client, hostile):
    html = client.get(f"{hostile['url']}?line={hostile['branch']}").get_data(as_text=True)
    page = assert_nothing_injected(html)
    data = json.loads(page.scripts["study-data"])
    assert data["notes"]["13"]["html"] == render_comment(f"[click]({MARKUP}) **{MARKUP}**")
    assert "<a " not in data["notes"]["13"]["html"]  # a link is shown as text, never made a link
    # the shared steps show the parent's notes
    assert data["notes"]["1"]["comment"] == MARKUP


def test_the_json_and_the_api_carry_the_text_unchanged(client, hostile):
    body = client.get(f"/s/{hostile['id']}.json").get_json()
    assert body["title"] == TITLE and body["notes"]["1"]["comment"] == MARKUP
    study = client.get(f"/api/studies/{hostile['id']}").get_json()["study"]
    assert study["title"] == TITLE
    assert {n["comment"] for n in study["notes"]} >= {MARKUP, BIG, RTL}
    export = client.get(f"/s/{hostile['id']}/study.json")
    assert json.loads(export.data)["title"] == TITLE
    listing = client.get("/studies").get_data(as_text=True)
    assert_nothing_injected(listing)
    assert "&lt;/title&gt;&lt;script&gt;" in listing


def test_the_embed_shows_the_notes_as_text_and_may_be_framed(client, hostile):
    response = client.get(f"/embed/s/{hostile['id']}")
    assert response.status_code == 200
    assert "frame-ancestors *" in response.headers["Content-Security-Policy"]
    assert "X-Frame-Options" not in response.headers
    html = response.get_data(as_text=True)
    page = assert_nothing_injected(html)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert json.loads(page.scripts["study-data"])["notes"]["3"]["comment"] == RTL
    # the study's own page may not be framed
    assert client.get(hostile["url"]).headers["X-Frame-Options"] == "DENY"


def test_oembed_gives_the_title_as_text_and_an_iframe_only(client, hostile):
    for url in (f"http://localhost/s/{hostile['id']}", f"http://localhost/s/{hostile['id']}/1",
                f"http://localhost/s/{hostile['id']}?line={hostile['branch']}"):
        response = client.get("/oembed", query_string={"url": url})
        assert response.status_code == 200, response.get_json()
        body = response.get_json()
        assert body["type"] == "rich" and body["title"] == TITLE
        assert body["description"] == "A study of a Floating bridge game: 4 notes, 1 branch."
        frame = Elements(body["html"])
        assert [tag for tag, _ in frame.elements] == ["iframe"]
        [(_, attrs)] = frame.elements
        assert attrs["title"] == TITLE and attrs["src"].startswith(f"http://localhost/embed/s/{hostile['id']}")
        assert body["thumbnail_url"].startswith(f"http://localhost/s/{hostile['id']}")
        assert "step=0" in body["thumbnail_url"]
    thumbnail = client.get(body["thumbnail_url"].removeprefix("http://localhost"))
    assert thumbnail.status_code == 200 and thumbnail.mimetype == "image/png"
    assert client.get("/oembed", query_string={"url": "http://localhost/s/nosuch"}).status_code == 404


def test_hostile_ids_and_lines_are_not_echoed_as_markup(client, hostile):
    for url in (f"/s/{hostile['id']}?line=%3Cimg%20src=x%20onerror=alert(1)%3E", "/s/%3Cb%3E",
                f"/embed/s/{hostile['id']}?line=%22%3E%3Cscript%3E"):
        response = client.get(url)
        assert response.status_code == 404
        assert_nothing_injected(response.get_data(as_text=True))
