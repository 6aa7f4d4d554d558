"""A party-cards round's picture as the viewer serves it (``/r/<code>/round/<n>.svg``, the
``/g/`` and ``/u/`` twins): the round's question with the winning answer filled in and the
players' names from the link, as an SVG that parses, with the headers of its kind of page; and
the same round drawn as the game's picture (``round_scene``) shows the same round."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

from replay.codec import encode
from replay.games.party_cards import GAME
from replay.games.party_cards.image import round_scene
from replay.picture.scene import Text

from tests.games.party_cards.helpers import won_dict

SVG = "{http://www.w3.org/2000/svg}"


def words(svg: bytes) -> str:
    """Every text of the SVG, whitespace collapsed."""
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg" and (root.get("width"), root.get("height")) == ("1200", "630")
    return re.sub(r"\s+", " ", " ".join("".join(t.itertext()) for t in root.iter(f"{SVG}text")))


def scene_words(scene) -> str:
    return re.sub(r"\s+", " ", " ".join(i.text for i in scene.items if isinstance(i, Text)))


def test_a_codes_round_picture_shows_that_round_with_the_links_names(client):
    code = encode(GAME.parse(won_dict()))
    response = client.get(f"/r/{code}/round/1.svg?players=Zed,Yan,Xia,Wu")
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    assert "immutable" in response.headers["Cache-Control"] and response.headers["ETag"]
    assert "sandbox" in response.headers["Content-Security-Policy"]
    shown = words(response.data)
    # round 1: Ann (p1, here Zed) is the czar and picks Bo's (p2, here Yan) "Answer 3."
    assert "Why can't I sleep at night? Answer 3." in shown
    assert "Zed" in shown and "Yan" in shown and "Ann" not in shown
    # round 3's question is not round 1's picture
    assert "mystery box" not in shown
    third = words(client.get(f"/r/{code}/round/3.svg").data)
    assert "What's in the mystery box? Answer 4." in third and "Bo" in third


def test_round_pictures_of_archived_games_and_uploads_keep_their_headers(client, app, tmp_path):
    from viewer.app import get_archive
    from viewer.services.upload import uploads

    data = won_dict()
    path = tmp_path / "won.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with app.app_context():
        [result] = get_archive().ingest_paths([str(path)])
        [outcome] = uploads().ingest(json.dumps(dict(data, game_id="upload/1")).encode(), "mine.json")
    archived = client.get(f"/g/{result.public_id}/round/2.svg")
    assert archived.status_code == 200 and archived.headers["Cache-Control"] == "public, max-age=300"
    assert "the recipe for a perfect Sunday" in words(archived.data)
    uploaded = client.get(f"/u/{outcome.token}/round/2.svg")
    assert uploaded.status_code == 200 and uploaded.headers["Cache-Control"] == "private, no-store"
    assert uploaded.headers["X-Robots-Tag"] == "noindex"
    assert "the recipe for a perfect Sunday" in words(uploaded.data)
    assert client.get(f"/u/{outcome.token}/round/4.svg").status_code == 404


def test_the_round_scene_shows_the_round_the_route_shows(client):
    replay = GAME.judge(GAME.parse(won_dict()))
    code = encode(replay.log)
    for number in range(1, replay.rounds + 1):
        served = words(client.get(f"/r/{code}/round/{number}.svg").data)
        drawn = scene_words(round_scene(replay, number))
        record = replay.round_record(number)
        winner = replay.name(record["winner"])
        answer = next(s for s in record["submissions"] if s["won"])["cards"][0]["text"].rstrip(".")
        for shown in (served, drawn):
            assert winner in shown and answer in shown and replay.name(record["czar"]) in shown


def test_the_round_picture_is_drawn_at_the_step_the_round_link_opens_at():
    from replay.games.party_cards.drawing import round_step
    from viewer.games.party_cards.view import round_marks

    for seed in (3, 7, 34):
        replay = GAME.judge(GAME.selfplay(seed=seed))
        steps = replay.steps_json()
        marks = round_marks(steps)
        assert len(marks) == replay.rounds
        assert [round_step(steps, m["round"]) for m in marks] == [m["open"] for m in marks]


def test_round_pictures_take_from_the_clients_picture_rate(tmp_path):
    """A round's SVG is a drawing like a PNG: past the client's picture burst, a 429; the
    picture already drawn is still answered (from memory, and 304 to its validator)."""
    from viewer.app import create_app

    from replay.codec import encode
    from replay.games import get

    game = get("party-cards")
    log = game.selfplay(seed=5)
    code = encode(log)
    names = ",".join(f"Player{n}" for n in range(len(game.seat_order(log))))
    client = create_app({"TESTING": True, "DB": f"sqlite:///{tmp_path / 'a.db'}", "PICTURE_RATE_BURST": 2,
                         "PICTURE_RATE_PER_MINUTE": 1}).test_client()
    first = client.get(f"/r/{code}/round/1.svg")
    assert first.status_code == 200
    assert client.get(f"/r/{code}/round/2.svg").status_code == 200
    refused = client.get(f"/r/{code}/round/3.svg")
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
    assert client.get(f"/r/{code}/round/1.svg").status_code == 200  # from memory: no token
    assert client.get(f"/r/{code}/round/1.svg", headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    # the validator changes with the names the link gives: the first one's is no match there
    named = client.get(f"/r/{code}/round/1.svg?players={names}", headers={"If-None-Match": first.headers["ETag"]})
    assert named.status_code == 429  # not a 304: to be drawn, and this client's burst is spent
