"""Studies in the viewer: made from a code, an archived game, an upload or a study/1 file,
their pages for every game (the main line and a branch made through the API with a move the
engine offers), revisions read only, 409 on a stale save with nothing lost, and bad requests
(ids, revisions, lines, bodies) answered with their own 4xx. A real app over real SQLite."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from replay.codec import encode
from replay.games import get, names
from replay.study import MAX_STUDY_BYTES, StudyGame

GAMES = names()


@pytest.fixture
def app(tmp_path: Path):
    from viewer.app import create_app

    return create_app({"TESTING": True, "DB": f"sqlite:///{tmp_path / 'archive.db'}",
                       "UPLOAD_RATE_PER_MINUTE": 100000, "UPLOAD_RATE_BURST": 100000,
                       "STUDY_RATE_PER_MINUTE": 100000, "STUDY_RATE_BURST": 100000})


@pytest.fixture
def client(app):
    return app.test_client()


def make_study(client, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/api/studies", json=body)
    assert response.status_code == 201, response.get_data(as_text=True)
    return response.get_json()


def study_json(client, study_id: str, rev: int | None = None) -> dict[str, Any]:
    response = client.get(f"/api/studies/{study_id}" + (f"?rev={rev}" if rev else ""))
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_json()


class Parsed(HTMLParser):
    """Every element of a page and the text of its JSON script blocks, by id."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: dict[str, str] = {}
        self._script: str | None = None
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, dict(attrs)))
        if tag == "script":
            self._script = dict(attrs).get("id") or ""
            self.scripts[self._script] = ""

    def handle_data(self, data: str) -> None:
        if self._script is not None:
            self.scripts[self._script] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._script = None


def study_data(html: str) -> dict[str, Any]:
    return json.loads(Parsed(html).scripts["study-data"])


def branch_with_legal_move(client, study_id: str) -> tuple[int, dict[str, Any]]:
    """A step of the main line where the engine offers moves (from the API), and one of them."""
    last = study_data(client.get(f"/s/{study_id}").get_data(as_text=True))["lines"][0]["last"]
    for step in range(last // 2, last):
        moves = client.get(f"/api/studies/{study_id}/moves?line=main&step={step}").get_json()
        if moves["moves"]:
            return step, moves["moves"][-1]
    raise AssertionError("no step of the game offers a move")


# --- every game: made from a code, the main line and a branch ---------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_every_game_studies_from_a_code_with_a_branch(client, game):
    log = get(game).selfplay(seed=5)
    made = make_study(client, {"source": {"kind": "code", "ref": encode(log)}, "title": f"A {game} study"})
    assert made["rev"] == 1 and made["url"] == f"/s/{made['id']}" and len(made["owner_token"]) >= 32
    page = client.get(made["url"])
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    data = study_data(html)
    assert (data["id"], data["rev"], data["line"], data["editable"]) == (made["id"], 1, "main", False)
    assert 'id="board"' in html and 'id="replay-data"' in html and '<section id="study"' in html
    assert f"A {game} study" in html

    step, move = branch_with_legal_move(client, made["id"])
    doc = study_json(client, made["id"])["study"]
    doc["branches"].append({"id": "b1", "parent": "main", "at": step, "moves": [move["event"]], "title": "what if"})
    doc["notes"].append({"line": "b1", "step": step + 1, "comment": "the *other* move", "glyph": "!?"})
    saved = client.put(f"/api/studies/{made['id']}", json={"base": 1, "study": doc},
                       headers={"X-Study-Token": made["owner_token"]})
    assert saved.status_code == 200, saved.get_data(as_text=True)
    assert saved.get_json()["rev"] == 2

    branch = client.get(f"{made['url']}?line=b1")
    assert branch.status_code == 200
    data = study_data(branch.get_data(as_text=True))
    assert data["line"] == "b1" and data["rev"] == 2
    [line] = [line for line in data["lines"] if line["id"] == "b1"]
    assert (line["parent"], line["at"], line["first"]) == ("main", step, move["text"])
    assert data["notes"][str(step + 1)]["html"] == '<p dir="auto">the <em>other</em> move</p>'
    # the main line lists the branch where it leaves
    main = study_data(client.get(made["url"]).get_data(as_text=True))
    assert main["children"][str(step)] == [{"id": "b1", "title": "what if", "first": move["text"]}]
    # its embed shows the branch's notes, read only
    embed = client.get(f"/embed{made['url']}?line=b1")
    assert embed.status_code == 200
    assert study_data(embed.get_data(as_text=True))["notes"][str(step + 1)]["comment"] == "the *other* move"
    # the branch's replay is the engine's judgement of the branch's own game
    expected = StudyGame.load(doc).line("b1").replay.step_count
    replay = client.get(f"/s/{made['id']}.json?line=b1").get_json()["replay"]
    assert len(replay["steps"]) == expected


@pytest.mark.parametrize("game", GAMES)
def test_every_game_exports_its_study_as_json_that_imports_again(client, game):
    made = make_study(client, {"source": {"kind": "code", "ref": encode(get(game).selfplay(seed=2))}})
    exported = client.get(f"/s/{made['id']}/study.json")
    assert exported.status_code == 200 and "attachment" in exported.headers["Content-Disposition"]
    again = make_study(client, {"study": json.loads(exported.data)})
    assert study_json(client, again["id"])["study"] == study_json(client, made["id"])["study"]


# --- the other sources --------------------------------------------------------------------------------

def test_a_code_link_keeps_its_players_names(client):
    log = get("uno-lite").selfplay(seed=4)
    code = encode(log)
    made = make_study(client, {"source": {"kind": "code", "ref": f"http://example.org/r/{code}?players=Ann,Bo"}})
    study = study_json(client, made["id"])["study"]
    players = study["log"]["players"]
    assert [players[seat]["name"] for seat in list(players)[:2]] == ["Ann", "Bo"]
    assert "Ann" in client.get(made["url"]).get_data(as_text=True)


def test_an_archived_game_makes_a_study_and_an_unknown_id_is_404(app, client):
    from viewer.app import get_archive

    log = get("coup").selfplay(seed=3)
    with app.app_context():
        [result] = get_archive().ingest_bytes(log.canonical_json().encode(), "coup.json")
    made = make_study(client, {"source": {"kind": "game", "ref": result.public_id}})
    study = study_json(client, made["id"])["study"]
    assert study["source"] == {"kind": "game", "ref": result.public_id}
    assert study["log"]["format"] == "coup/1"
    missing = client.post("/api/studies", json={"source": {"kind": "game", "ref": "nosuchgame"}})
    assert missing.status_code == 404 and "nosuchgame" in missing.get_json()["error"]


def test_an_upload_makes_a_study_that_keeps_no_token(client):
    log = get("party-cards").selfplay(seed=3)
    uploaded = client.post("/api/logs", data=log.canonical_json().encode(), content_type="application/json")
    assert uploaded.status_code == 201
    token = uploaded.get_json()["files"][0]["games"][0]["token"]
    made = make_study(client, {"source": {"kind": "upload", "ref": token}})
    stored = study_json(client, made["id"])
    assert stored["study"]["source"] == {"kind": "upload", "ref": None}
    for url in (made["url"], f"/api/studies/{made['id']}", f"/s/{made['id']}.json", f"/s/{made['id']}/study.json",
                f"/embed/s/{made['id']}"):
        assert token not in client.get(url).get_data(as_text=True), url
    wrong = client.post("/api/studies", json={"source": {"kind": "upload", "ref": "x" * 32}})
    assert wrong.status_code == 404


def test_import_takes_the_title_given(client):
    doc = StudyGame.new(get("holdem").selfplay(seed=1), title="old").with_note("main", 1, comment="hi").to_json()
    made = make_study(client, {"study": doc, "title": "new", "listed": True})
    stored = study_json(client, made["id"])
    assert stored["study"]["title"] == "new" and stored["listed"] is True
    assert stored["study"]["notes"] == doc["notes"]
    listing = client.get("/api/studies").get_json()
    assert [s["id"] for s in listing["studies"]] == [made["id"]] and listing["total"] == 1
    assert made["id"] in client.get("/studies").get_data(as_text=True)


# --- the replay pages' button -----------------------------------------------------------------------

def test_study_this_game_button_makes_a_study_without_javascript(client):
    code = encode(get("floating-bridge").selfplay(seed=3))
    page = Parsed(client.get(f"/r/{code}?players=Ann").get_data(as_text=True))
    [form] = [attrs for tag, attrs in page.elements if tag == "form" and attrs.get("id") == "study-start"]
    assert form["action"] == "/s/new" and form["method"] == "post"
    fields = {a["name"]: a["value"] for tag, a in page.elements if tag == "input" and a.get("type") == "hidden"
              and a.get("name") in ("kind", "ref", "players")}
    assert fields == {"kind": "code", "ref": code, "players": "Ann"}
    # a browser that says the post is same-site makes the study at once
    made = client.post("/s/new", data=fields, headers={"Sec-Fetch-Site": "same-origin"})
    assert made.status_code == 303
    location = made.headers["Location"]
    assert re.fullmatch(r"/s/[A-Za-z0-9]+#owner=[A-Za-z0-9_-]{32,}", location)
    study_id = location[3:].split("#")[0]
    assert study_json(client, study_id)["study"]["log"]["players"]["N"]["name"] == "Ann"
    # without that header (an old browser, no JavaScript): the form with a CSRF token, then the study
    asked = client.post("/s/new", data=fields)
    assert asked.status_code == 200
    form = Parsed(asked.get_data(as_text=True))
    token = next(a["value"] for tag, a in form.elements if tag == "input" and a.get("name") == "csrf_token")
    made = client.post("/s/new", data={**fields, "csrf_token": token, "title": "Mine"})
    assert made.status_code == 303 and "#owner=" in made.headers["Location"]
    # another site's form makes nothing
    refused = client.post("/s/new", data=fields, headers={"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"})
    assert refused.status_code == 403


def test_the_button_is_on_archived_and_upload_pages_but_not_on_embeds_or_studies(app, client):
    from viewer.app import get_archive

    log = get("uno-lite").selfplay(seed=8)
    with app.app_context():
        [result] = get_archive().ingest_bytes(log.canonical_json().encode(), "uno.json")
    assert 'id="study-start"' in client.get(f"/g/{result.public_id}").get_data(as_text=True)
    assert 'id="study-start"' not in client.get(f"/embed/g/{result.public_id}").get_data(as_text=True)
    made = make_study(client, {"source": {"kind": "game", "ref": result.public_id}})
    assert 'id="study-start"' not in client.get(made["url"]).get_data(as_text=True)


# --- revisions, conflicts, tokens ----------------------------------------------------------------------

def test_a_stale_save_is_409_and_nothing_is_lost(client):
    made = make_study(client, {"source": {"kind": "code", "ref": encode(get("uno-lite").selfplay(seed=1))}})
    token = {"X-Study-Token": made["owner_token"]}
    doc = study_json(client, made["id"])["study"]
    first = StudyGame.load(doc).with_note("main", 2, comment="first editor").to_json()
    second = StudyGame.load(doc).with_note("main", 3, comment="second editor").to_json()
    assert client.put(f"/api/studies/{made['id']}", json={"base": 1, "study": first}, headers=token).status_code == 200
    stale = client.put(f"/api/studies/{made['id']}", json={"base": 1, "study": second}, headers=token)
    assert stale.status_code == 409
    assert stale.get_json()["latest"] == 2 and "revision 2" in stale.get_json()["error"]
    stored = study_json(client, made["id"])
    assert stored["latest"] == 2 and [n["comment"] for n in stored["study"]["notes"]] == ["first editor"]
    # the second editor applies the change again on the latest and saves
    again = StudyGame.load(stored["study"]).with_note("main", 3, comment="second editor").to_json()
    assert client.put(f"/api/studies/{made['id']}", json={"base": 2, "study": again}, headers=token).get_json()["rev"] == 3
    assert [n["comment"] for n in study_json(client, made["id"])["study"]["notes"]] == ["first editor", "second editor"]
    # every revision stays readable
    assert study_json(client, made["id"], 1)["study"]["notes"] == []


def test_writes_need_the_owner_token(client):
    made = make_study(client, {"source": {"kind": "code", "ref": encode(get("coup").selfplay(seed=1))}})
    doc = study_json(client, made["id"])["study"]
    for headers in ({}, {"X-Study-Token": "wrong"}, {"X-Study-Token": made["owner_token"][:-1]}):
        put = client.put(f"/api/studies/{made['id']}", json={"base": 1, "study": doc}, headers=headers)
        assert put.status_code == 403 and "token" in put.get_json()["error"]
        listed = client.post(f"/api/studies/{made['id']}/listed", json={"listed": True}, headers=headers)
        assert listed.status_code == 403
    assert study_json(client, made["id"])["latest"] == 1 and study_json(client, made["id"])["listed"] is False


def test_revision_pages_are_read_only_and_say_which(client):
    made = make_study(client, {"source": {"kind": "code", "ref": encode(get("uno-lite").selfplay(seed=2))}})
    doc = StudyGame.load(study_json(client, made["id"])["study"]).with_note("main", 1, comment="later").to_json()
    client.put(f"/api/studies/{made['id']}", json={"base": 1, "study": doc},
               headers={"X-Study-Token": made["owner_token"]})
    old = client.get(f"/s/{made['id']}/1")
    assert old.status_code == 200
    html = old.get_data(as_text=True)
    data = study_data(html)
    assert (data["rev"], data["latest"], data["notes"]) == (1, 2, {})
    assert 'data-readonly="1"' in html and "Revision 1 of 2, read-only" in html
    assert data["urls"]["latest"] == f"/s/{made['id']}"
    assert study_data(client.get(f"/s/{made['id']}").get_data(as_text=True))["notes"]["1"]["comment"] == "later"
    assert client.get(f"/s/{made['id']}/1.json").get_json()["rev"] == 1
    assert client.put(f"/s/{made['id']}/1").status_code == 405


def test_bad_ids_revisions_and_lines_are_404_with_a_message(client):
    made = make_study(client, {"source": {"kind": "code", "ref": encode(get("uno-lite").selfplay(seed=2))}})
    for url, words in ((f"/s/nosuch", "no study"), (f"/s/{made['id']}/7", "no revision 7"),
                       (f"/s/{made['id']}?line=b9", "no line 'b9'"), (f"/s/{made['id']}?line=%3Cb%3E", "no line"),
                       (f"/embed/s/{made['id']}?line=zz", "no line"), (f"/s/{made['id']}.json?line=zz", "no line"),
                       (f"/api/studies/{made['id']}?rev=5", "no revision 5"), ("/api/studies/nosuch", "no study"),
                       (f"/api/studies/{made['id']}/moves?line=b2", "no line"),
                       (f"/api/studies/{made['id']}/moves?step=99999", "has steps"),
                       (f"/s/{made['id']}/study.xyz", "no 'xyz' export")):
        response = client.get(url, headers={"Accept": "application/json"})
        assert response.status_code == 404, url
        assert words in response.get_json()["error"], (url, response.get_json())
    page = client.get(f"/s/{made['id']}?line=%3Cscript%3E")
    assert page.status_code == 404 and "<script>" not in page.get_data(as_text=True)


def test_a_study_whose_game_is_not_installed_says_so(app, client):
    from viewer.services.study import studies

    made = make_study(client, {"source": {"kind": "code", "ref": encode(get("uno-lite").selfplay(seed=2))}})
    with app.app_context():
        # a stored revision written by a site with another game installed
        from archive.models import StudyRevision
        from sqlalchemy import update

        doc = studies().get(made["id"]).data
        doc["log"]["format"] = "chess-like/1"
        raw = json.dumps(doc).encode()
        dictionary_id, compressed = studies().archive.compressor.compress(raw)
        with studies().engine.begin() as conn:
            conn.execute(update(StudyRevision).values(data=compressed, dictionary_id=dictionary_id))
    response = client.get(made["url"])
    assert response.status_code == 422
    text = response.get_data(as_text=True)
    assert "cannot be shown here" in text and "chess-like/1" in text and "not a known format" in text


# --- bodies ------------------------------------------------------------------------------------------

def test_bodies_too_large_or_malformed_are_refused_with_their_reason(client):
    made = make_study(client, {"source": {"kind": "code", "ref": encode(get("uno-lite").selfplay(seed=2))}})
    token = {"X-Study-Token": made["owner_token"]}
    cases = [
        (b"{not json", 400, "not JSON"), (b"[1, 2]", 400, "JSON object"), (b"", 400, "no body"),
        (json.dumps({"source": {"kind": "dice", "ref": "x"}}).encode(), 400, "source.kind"),
        (json.dumps({"source": {"kind": "code"}}).encode(), 400, "source.ref"),
        (json.dumps({"source": {"kind": "code", "ref": "x"}, "study": {}}).encode(), 400, "send one of"),
        (json.dumps({"source": {"kind": "code", "ref": "x"}, "colour": 1}).encode(), 400, "unknown field"),
        (json.dumps({"source": {"kind": "code", "ref": "x"}, "title": "t" * 201}).encode(), 400, "title"),
        (json.dumps({"study": {"log": {"format": "uno-lite/1"}}}).encode(), 422, "log"),
        (json.dumps({"study": {"format": "study/2", "log": {}}}).encode(), 422, "format"),
        (b"{" + b" " * (MAX_STUDY_BYTES + 70 * 1024) + b"}", 413, "bytes"),
    ]
    for body, status, words in cases:
        response = client.post("/api/studies", data=body, content_type="application/json")
        assert response.status_code == status, (body[:60], response.get_json())
        assert words in response.get_json()["error"], (body[:60], response.get_json())
    doc = study_json(client, made["id"])["study"]
    bad_note = {**doc, "notes": [{"line": "main", "step": 10**6, "comment": "x"}]}
    for body, status, words in (({"base": 1}, 400, "study"), ({"base": "1", "study": doc}, 400, "base"),
                                ({"base": 1, "study": bad_note}, 422, "notes.0.step"),
                                ({"base": 1, "study": {**doc, "notes": [{"step": 1, "glyph": "?!?"}]}}, 422, "glyph")):
        response = client.put(f"/api/studies/{made['id']}", json=body, headers=token)
        assert response.status_code == status, (body.keys(), response.get_json())
        assert words in response.get_json()["error"]
    huge = client.put(f"/api/studies/{made['id']}", data=b"x" * (MAX_STUDY_BYTES + 70 * 1024),
                      content_type="application/json", headers=token)
    assert huge.status_code == 413
    assert study_json(client, made["id"])["latest"] == 1


def test_moves_follow_the_view_and_the_filter(client):
    made = make_study(client, {"source": {"kind": "code", "ref": encode(get("floating-bridge").selfplay(seed=3))}})
    step, _ = branch_with_legal_move(client, made["id"])
    every = client.get(f"/api/studies/{made['id']}/moves?step={step}").get_json()
    seat = every["to_act"]
    assert every["total"] == len(every["moves"]) >= 1 and all(m["seat"] == seat for m in every["moves"])
    own = client.get(f"/api/studies/{made['id']}/moves?step={step}&view={seat}").get_json()
    assert own["moves"] == every["moves"]
    other = next(s for s in ("N", "E", "S", "W") if s != seat)
    assert client.get(f"/api/studies/{made['id']}/moves?step={step}&view={other}").get_json()["moves"] == []
    word = every["moves"][0]["text"].split()[-1]
    found = client.get(f"/api/studies/{made['id']}/moves?step={step}&q={word.lower()}").get_json()
    assert found["moves"] and all(word.lower() in m["text"].lower() for m in found["moves"])
    assert found["total"] == every["total"]


def test_a_game_log_posted_as_it_is_makes_a_study_of_it(client):
    log = get("coup").selfplay(seed=6)
    made = make_study(client, json.loads(log.canonical_json()))
    stored = study_json(client, made["id"])["study"]
    assert stored["source"] == {"kind": "file", "ref": None} and stored["log"]["format"] == "coup/1"
    broken = json.loads(log.canonical_json())
    broken["events"] = [{"type": "no-such-event"}]
    refused = client.post("/api/studies", json=broken)
    assert refused.status_code == 422 and "game log" in refused.get_json()["error"]


def test_the_new_study_form_says_what_is_wrong_with_its_game(client):
    bad_kind = client.get("/s/new?kind=dice&ref=x")
    assert bad_kind.status_code == 400 and "source.kind must be code, game or upload" in bad_kind.get_data(as_text=True)
    bad_code = client.get("/s/new?kind=code&ref=%3Cscript%3E")
    assert bad_code.status_code == 404
    text = bad_code.get_data(as_text=True)
    assert "not a replay code" in text and "<script>" not in text
    good = client.get(f"/s/new?kind=code&ref={encode(get('coup').selfplay(seed=1))}")
    assert good.status_code == 200 and "A study of this Coup game" in good.get_data(as_text=True)
    assert good.headers["Cache-Control"] == "no-store"
    # an upload's token may be in this form's address: it is sent on to no other site
    assert ("meta", {"name": "referrer", "content": "same-origin"}) in Parsed(good.get_data(as_text=True)).elements
    refused = client.post("/s/new", data={"kind": "game", "ref": "nosuch"}, headers={"Sec-Fetch-Site": "same-origin"})
    assert refused.status_code == 404 and "nosuch" in refused.get_data(as_text=True)


def test_a_step_opens_without_javascript_and_the_listing_pages(client):
    made = make_study(client, {"source": {"kind": "code", "ref": encode(get("uno-lite").selfplay(seed=3))},
                               "listed": True})
    doc = StudyGame.load(study_json(client, made["id"])["study"]).with_note("main", 4, comment="here").to_json()
    client.put(f"/api/studies/{made['id']}", json={"base": 1, "study": doc}, headers={"X-Study-Token": made["owner_token"]})
    page = Parsed(client.get(made["url"]).get_data(as_text=True))
    [link] = [a["href"] for tag, a in page.elements if tag == "a" and "study-note-step" in (a.get("class") or "")]
    assert link == "?step=4#4"
    at_step = json.loads(Parsed(client.get(made["url"] + "?step=4").get_data(as_text=True)).scripts["replay-data"])
    assert at_step["initial"]["step"] == 4
    for query in ("", "?page=abc", "?page=0", "?page=99"):
        listing = client.get("/studies" + query)
        assert listing.status_code == 200
    assert made["id"] in client.get("/studies").get_data(as_text=True)
    assert client.get("/api/studies?page=0").status_code == 400
    assert client.get("/api/studies?per_page=2").get_json()["per_page"] == 2


@pytest.mark.parametrize("game", GAMES)
def test_the_page_links_every_study_export_its_game_has_and_each_answers(client, game):
    module = get(game)
    made = make_study(client, {"source": {"kind": "code", "ref": encode(module.selfplay(seed=4))}})
    doc = StudyGame.load(study_json(client, made["id"])["study"]).with_note("main", 1, comment="a note").to_json()
    client.put(f"/api/studies/{made['id']}", json={"base": 1, "study": doc}, headers={"X-Study-Token": made["owner_token"]})
    page = Parsed(client.get(made["url"]).get_data(as_text=True))
    links = [a["href"] for tag, a in page.elements if tag == "a" and "download" in a
             and "/study." in a.get("href", "")]
    assert links == [f"/s/{made['id']}/study.json"] + [f"/s/{made['id']}/study{f.suffix}" for f in module.study_formats]
    for f in module.study_formats:
        response = client.get(f"/s/{made['id']}/study{f.suffix}")
        assert response.status_code == 200 and response.mimetype == f.media_type
        assert f.looks_like(response.data.decode(f.encoding))
    old = client.get(f"/s/{made['id']}/1/study.json")
    assert old.status_code == 200 and json.loads(old.data)["notes"] == []


@pytest.mark.parametrize("game", GAMES)
def test_a_study_file_imports_in_every_format_its_game_has(client, game):
    module = get(game)
    study = StudyGame.new(module.selfplay(seed=7), title="from a file").with_note("main", 2, comment="noted here")
    files = [("study.json", study.export_json())] + [(f"deal{f.suffix}", f.write(study)) for f in module.study_formats]
    for name, text in files:
        made = make_study(client, {"file": {"name": name, "text": text}})
        stored = StudyGame.load(study_json(client, made["id"])["study"])
        assert stored.note("main", 2).comment == "noted here", name
        assert stored.line("main").replay.step_count == study.line("main").replay.step_count
    unreadable = client.post("/api/studies", json={"file": {"name": "notes.txt", "text": "just some words"}})
    assert unreadable.status_code == 422 and "not a study file this site reads" in unreadable.get_json()["error"]
    assert client.post("/api/studies", json={"file": "text"}).status_code == 400


def test_study_saves_have_their_own_rate_limit(tmp_path):
    """Making and saving studies spends the "studies" bucket (429 past it), not the uploads'."""
    from viewer.app import create_app

    app = create_app({"TESTING": True, "DB": f"sqlite:///{tmp_path / 'limits.db'}",
                      "STUDY_RATE_PER_MINUTE": 1, "STUDY_RATE_BURST": 1,
                      "UPLOAD_RATE_PER_MINUTE": 100000, "UPLOAD_RATE_BURST": 100000})
    client = app.test_client()
    log = get("uno-lite").selfplay(seed=2)
    first = client.post("/api/studies", json=json.loads(log.canonical_json()))
    assert first.status_code == 201, first.get_json()
    second = client.post("/api/studies", json=json.loads(log.canonical_json()))
    assert second.status_code == 429
    assert "study saves" in second.get_json()["error"]
