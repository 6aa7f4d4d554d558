"""Party cards' pictures: no view hands the drawing a hand or an answer it did not see (each
seat's and the onlooker's, on several seeds), long and hostile card texts and names draw cut
to fit, the first public step gives nothing away, the last shows the winner, and a round's
picture is the drawing of its pick."""

from __future__ import annotations

import io
import re

import pytest
from PIL import Image

from replay.games.party_cards import GAME
from replay.games.party_cards.drawing import draw, round_step, wrap
from replay.games.party_cards.image import round_scene
from replay.games.party_cards.replay import RoundError
from replay.picture import picture, scene_at
from replay.picture.fonts import measure
from replay.picture.scene import HIGHLIGHT, PUBLIC, Rect, Table, Text

from .helpers import LOBBY, answer, log_dict, pick, reveal, round_, won_dict

SEEDS = (2, 7, 13, 31)
LONG = ("An extremely long answer " * 40)[:1000]  # the longest card text a log may hold
HOSTILE = ("<script>alert(1)</script> </svg>", "\u202eevil override", LONG, "]]><x/> & \"q\"")
#: names as a link may give them (``players=``): markup, 10,000 characters, a direction override
NAMES = ("<img src=x onerror=alert(1)>", "\u202egnp.exe" + "x" * 10_000, "李小龍 Жанна", "Di & \"co\"")


@pytest.fixture(scope="module", params=SEEDS, ids=lambda s: f"seed{s}")
def judged(request):
    return GAME.judge(GAME.selfplay(seed=request.param, bots=("random",) if request.param % 2 else ("greedy",)))


def shown(scene) -> str:
    """Every text of the scene, one space between words."""
    return re.sub(r"\s+", " ", " ".join(i.text for i in scene.items if isinstance(i, Text)))


def png_size(data: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(data)) as image:
        return image.size


def hidden_answers(full: dict, seen: dict, seat: str | None) -> list[str]:
    """The texts of the submissions in ``full`` that ``seat`` (None: an onlooker) had not seen:
    every other seat's before the reveal."""
    if full["revealed"]:
        return []
    return [" / ".join(c["text"] for c in s["cards"]) for s in full["submissions"] if s["seat"] != seat]


def test_a_seats_view_holds_no_other_seats_hand_or_unrevealed_answer(judged):
    open_steps = GAME.view_steps(judged, None)
    for seat in judged.seats:
        seen = GAME.view_steps(judged, seat)
        assert len(seen) == len(open_steps)
        for mine, full in zip(seen, open_steps):
            for other in judged.seats:
                assert mine["hands"][other] == (full["hands"][other] if other == seat else None)
            if full["seat"] != seat and full["kind"] in ("draw", "swap"):
                assert mine["cards"] is None
            if not full["revealed"]:
                assert all(s["seat"] == seat for s in mine["submissions"])
            elif full["choice"] is None:
                assert all(s["seat"] is None for s in mine["submissions"])


def test_the_onlookers_view_holds_no_hand_and_no_author_before_the_pick(judged):
    open_steps = GAME.view_steps(judged, None)
    seen = GAME.view_steps(judged, PUBLIC)
    assert len(seen) == len(open_steps)
    picked = 0
    for public, full in zip(seen, open_steps):
        assert set(public["hands"].values()) == {None} and public["cards"] is None
        assert public["scores"] == full["scores"] and public["answered"] == full["answered"]
        if not full["revealed"]:
            assert not public["submissions"]
        else:
            assert [s["cards"] for s in public["submissions"]] == [s["cards"] for s in full["submissions"]]
            assert not any(s["mine"] for s in public["submissions"])
            if full["choice"] is None:
                assert all(s["seat"] is None for s in public["submissions"])
            else:
                picked += 1
                assert [s["seat"] for s in public["submissions"]] == [s["seat"] for s in full["submissions"]]
    assert picked  # the games do reach picks


def test_the_drawing_shows_no_answer_its_view_did_not_see(judged):
    open_steps = GAME.view_steps(judged, None)
    checked = 0
    for view in (PUBLIC, *judged.seats):
        steps = GAME.view_steps(judged, view)
        table = Table("Party Cards", judged.seats, view=view)
        for n, (seen, full) in enumerate(zip(steps, open_steps)):
            if full["kind"] != "answer":
                continue
            text = shown(draw(table, steps[:n + 1]))
            for hidden in hidden_answers(full, seen, None if view == PUBLIC else view):
                checked += 1
                assert re.sub(r"\s+", " ", hidden)[:40] not in text, (view, n)
            for seat, hand in full["hands"].items():
                for card in hand or []:
                    if view != seat and card["text"] not in " ".join(c["text"] for s in full["submissions"]
                                                                     if s["seat"] == view for c in s["cards"]):
                        assert card["text"][:40] not in text
    assert checked


def test_the_first_public_step_shows_no_result_and_no_card(judged):
    scene = scene_at(judged)
    text = shown(scene)
    assert "wins" not in text and "scores" not in text
    for hand in GAME.view_steps(judged, None)[0]["hands"].values():
        for card in hand or []:
            assert card["text"][:30] not in text
    assert not [i for i in scene.items if isinstance(i, Rect) and i.fill == HIGHLIGHT]


def test_the_last_step_shows_the_winner(judged):
    assert judged.winner is not None
    names = {seat: f"Player {seat}" for seat in judged.seats}
    for view in ("all", "public", judged.seats[0]):
        scene = scene_at(judged, step=judged.step_count - 1, view=view, names=names)
        assert f"Player {judged.winner} wins the game" in shown(scene)
        assert len([i for i in scene.items if isinstance(i, Rect) and i.fill == HIGHLIGHT]) == 1


def hostile_replay():
    data = won_dict()
    for n, seat in enumerate(data["players"]):
        data["players"][seat]["name"] = NAMES[n % len(NAMES)][:200]
        for k, card in enumerate(data["hands"][seat]):
            card["text"] = HOSTILE[(n + k) % len(HOSTILE)]
    return GAME.judge(GAME.parse(data))


def test_hostile_texts_and_names_draw_cut_to_fit():
    replay = hostile_replay()
    assert replay.findings == []
    names = dict(zip(replay.seats, NAMES))
    last = replay.step_count - 1
    for step in range(0, last + 1, 3):
        for view in ("all", "public", "p2"):
            assert png_size(picture(replay, step=step, view=view, names=names)) == (1200, 630)
            scene = scene_at(replay, step=step, view=view, names=names)
            texts = [i for i in scene.items if isinstance(i, Text)]
            assert len(scene.items) < 200 and sum(len(i.text) for i in texts) < 4000
            for item in texts:
                assert item.max_width is not None and item.max_width <= 1200
                # a text fits its room by the fonts' own metrics, or the renderer cuts it
                assert len(item.text) <= 200 or item.max_width < measure(item.text[:200], item.size, item.bold)
    # the 10,000-character answer won round 1: cut, with an ellipsis, inside the question card
    text = shown(round_scene(replay, 1))
    assert "…" in text and "An extremely long answer" in text


def test_long_text_wraps_inside_the_question_card():
    data = won_dict()
    data["hands"]["p2"][0]["text"] = ("An extremely long answer " * 60)[:1000]
    scene = round_scene(GAME.judge(GAME.parse(data)), 1)
    lines = [i for i in scene.items if isinstance(i, Text) and "extremely" in i.text and i.x < 640]
    assert len(lines) > 3 and lines[-1].text.endswith("…")
    assert all(72 <= i.y <= 72 + 400 - 40 for i in lines)


def test_a_round_picture_is_the_drawing_of_its_pick():
    replay = GAME.judge(GAME.parse(won_dict()))
    steps = GAME.view_steps(replay, PUBLIC)
    for number in range(1, replay.rounds + 1):
        n = round_step(steps, number)
        assert steps[n]["kind"] == "pick" and steps[n]["round"] == number
        assert round_scene(replay, number) == scene_at(replay, step=n, view="public")
    text = shown(round_scene(replay, 1))
    assert "Why can't I sleep at night? Answer 3." in text and "Ann picks answer 2: Bo scores" in text
    with pytest.raises(RoundError):
        round_scene(replay, 9)


def test_a_round_without_a_pick_shows_its_blank_and_the_answers_without_authors():
    data = log_dict(LOBBY + [round_("p1", text="Why? ___"), answer("p2", "a3"), answer("p3", "a5"),
                             answer("p4", "a7"), reveal("p3", "p2", "p4")])
    replay = GAME.judge(GAME.parse(data))
    scene = round_scene(replay, 1)
    text = shown(scene)
    assert "Why? ___" in text and "Answer 3." in text and "Ann is the czar" in text
    answers = [i.text for i in scene.items if isinstance(i, Text) and i.x > 640 and 60 < i.y < 472]
    assert answers == ["1", "Answer 5.", "2", "Answer 3.", "3", "Answer 7."]  # numbered, no author
    data = log_dict(LOBBY + [round_("p1", text="Why? ___"), answer("p2", "a3")])
    text = shown(round_scene(GAME.judge(GAME.parse(data)), 1))
    assert "Answer 3." not in text and "Bo: an answer" in text


def test_wrap_cuts_words_wider_than_the_line():
    lines = wrap([("x" * 500, False)], 20, 200, 3)
    assert len(lines) == 3 and lines[-1][-1][0].endswith("…")
    assert all(measure(piece, 20, False) <= 200 for line in lines for piece, _ in line)


def test_the_round_svg_is_the_round_scene_escaped():
    import xml.etree.ElementTree as ET

    from replay.games.party_cards.image import round_svg
    from replay.picture.svg import svg

    data = won_dict()
    data["hands"]["p2"][0]["text"] = "<img src=x onerror=alert(1)> ]]> </svg> \u202eRTL"
    data["players"]["p2"]["name"] = "<b>Bo</b> & \"co\""
    replay = GAME.judge(GAME.parse(data))
    document = round_svg(replay, 1)
    assert document == svg(round_scene(replay, 1))
    root = ET.fromstring(document)  # parses: nothing broke out
    tag = "{http://www.w3.org/2000/svg}"
    assert root.tag == f"{tag}svg" and (root.get("width"), root.get("height")) == ("1200", "630")
    assert all(el.tag.startswith(tag) for el in root.iter())
    assert not [el for el in root.iter() if el.tag.endswith(("}img", "}script", "}b", "}x"))]
    assert "<img" not in document and "&lt;img src=x onerror=alert(1)&gt;" in document and "\u202e" not in document
    text = re.sub(r"\s+", " ", " ".join("".join(t.itertext()) for t in root.iter(f"{tag}text")))
    assert "<img src=x onerror=alert(1)> ]]> </svg> RTL" in text and "<b>Bo</b> & \"co\"" in text
    names = round_svg(replay, 1, {"p2": "Zed"})
    assert "Zed" in names and "&lt;b&gt;Bo" not in names  # the link's names replace the log's
