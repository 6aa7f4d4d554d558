"""UNO Lite's pictures (issue 27): what each view may see, and what the picture shows.

A hand the view does not see is ``null`` in the steps the drawing is handed, and a card the
other seat drew is not named; the scene drawn from them shows no more face-up cards than the
view's own hand, the top of the discard pile and a card it saw drawn.
"""

from __future__ import annotations

import io
from collections import Counter

import pytest
from PIL import Image

from replay.games.uno_lite import GAME
from replay.games.uno_lite.bots import play_game
from replay.games.uno_lite.drawing import FACES, caption, draw, shown
from replay.picture import animation, picture, scene_at, scenes
from replay.picture.scene import CARD_BACK, HIGHLIGHT, PUBLIC, Rect, Table, Text

SEATS = ("P1", "P2")
VIEWS = (*SEATS, PUBLIC)
NAMES = {"P1": "Ann", "P2": "Bob"}
HOSTILE = {"P1": "<img src=x onerror=alert(1)>&lt;", "P2": "\u202eevil" + "z" * 10_000}
COLOUR_OF_FACE = {v: k for k, v in FACES.items()}


@pytest.fixture(scope="module", params=(3, 8, 21))
def replay(request):
    return play_game(seed=request.param).replay()


def faces(scene) -> Counter:
    """The cards drawn face up, as ``R5`` texts (a face's colour and its number)."""
    items = scene.items
    return Counter(COLOUR_OF_FACE[items[n - 1].fill] + i.text for n, i in enumerate(items)
                   if isinstance(i, Text) and n and isinstance(items[n - 1], Rect)
                   and items[n - 1].fill in COLOUR_OF_FACE)


def test_no_view_is_handed_or_shows_a_card_it_may_not_see(replay):
    open_steps = GAME.view_steps(replay, None)
    for view in VIEWS:
        seen = GAME.view_steps(replay, view)
        assert len(seen) == len(open_steps)
        table = Table(GAME.title, SEATS, NAMES, view)
        for n, (step, open_step) in enumerate(zip(seen, open_steps)):
            for seat in SEATS:
                if seat != view:
                    assert step["hands"][seat] is None
                    assert step["hand_sizes"][seat] == len(open_step["hands"][seat])
            drew_unseen = step["kind"] == "draw" and step["seat"] != view
            if drew_unseen:
                assert step["drawn"] is None and step["card"] is None
                assert open_step["drawn"] not in step["text"]  # not named in words either
            allowed = Counter(step["hands"][view] if view in SEATS else [])
            allowed[step["top"]] += 1
            if step["kind"] == "draw" and step["drawn"]:
                allowed[step["drawn"]] += 1
            shown_up = faces(draw(table, seen[:n + 1]))
            assert not shown_up - allowed, (view, n)


def test_a_seat_sees_the_card_it_drew_and_the_other_seat_sees_a_back():
    replay = play_game(seed=3).replay()
    steps = GAME.view_steps(replay, None)
    n = next(i for i, s in enumerate(steps) if s["kind"] == "draw")
    drawer = steps[n]["seat"]
    other = next(s for s in SEATS if s != drawer)
    own = scene_at(replay, step=n, view=drawer, names=NAMES)
    theirs = scene_at(replay, step=n, view=other, names=NAMES)
    drawn = steps[n]["drawn"]
    # the drawn card, lit, beside the pile and in the drawer's hand
    lit = [i for i in own.items if isinstance(i, Rect) and i.stroke == HIGHLIGHT and i.fill == FACES[drawn[0]]]
    assert len(lit) == 2
    assert faces(own)[drawn] >= 2
    assert f"{NAMES[drawer]} draws {shown(drawn)}" in [i.text for i in own.items if isinstance(i, Text)]
    assert f"{NAMES[drawer]} draws a card" in [i.text for i in theirs.items if isinstance(i, Text)]
    their_step = GAME.view_steps(replay, other)[n]
    assert faces(theirs)[drawn] == their_step["hands"][other].count(drawn) + (their_step["top"] == drawn)
    assert sum(1 for i in theirs.items if isinstance(i, Rect) and i.fill == CARD_BACK) == \
        len(steps[n]["hands"][drawer]) + 2  # the drawer's hand, the pile and the card drawn


def test_the_link_preview_shows_the_deal_face_down_with_the_names_and_no_winner(replay):
    scene = scene_at(replay, names=NAMES)
    texts = [i.text for i in scene.items if isinstance(i, Text)]
    backs = [i for i in scene.items if isinstance(i, Rect) and i.fill == CARD_BACK]
    assert len(backs) == 7 + 7 + 1  # both hands and the draw pile
    assert sum(faces(scene).values()) == 1  # the starter only
    assert {"Ann", "Bob"} <= set(texts)
    assert not any("wins" in t for t in texts)
    assert not any(isinstance(i, Rect) and i.fill == HIGHLIGHT for i in scene.items)


def test_the_last_step_marks_the_winner(replay):
    last = len(replay.steps) - 1
    winner = replay.winners[0]
    for view in ("all", "public", "P2"):
        scene = scene_at(replay, step=last, view=view, names=NAMES)
        texts = [i.text for i in scene.items if isinstance(i, Text)]
        assert f"{NAMES[winner]} wins" in texts
        assert texts[1].endswith(" and wins") and texts[1].startswith(NAMES[winner])


def test_captions_name_the_players_never_their_seats(replay):
    steps = GAME.view_steps(replay, PUBLIC)
    table = Table(GAME.title, SEATS, NAMES, PUBLIC)
    for n in range(len(steps)):
        text = caption(table, steps[:n + 1])
        assert "P1" not in text and "P2" not in text
        assert steps[n]["kind"] == "deal" or text.startswith(("Ann ", "Bob ", "The discard pile"))


def test_hostile_names_are_held_raw_and_drawn_clean(replay):
    last = len(replay.steps) - 1
    for step in (0, last):
        scene = scene_at(replay, step=step, view="public", names=HOSTILE)
        assert set(HOSTILE.values()) <= {i.text for i in scene.items if isinstance(i, Text)}
        with Image.open(io.BytesIO(picture(replay, step=step, view="public", names=HOSTILE))) as image:
            assert image.format == "PNG" and image.size == (1200, 630)


def test_the_drawing_is_deterministic(replay):
    for view in (None, PUBLIC, "P1"):
        steps = GAME.view_steps(replay, view)
        table = Table(GAME.title, SEATS, NAMES, view)
        for n in (0, len(steps) // 2, len(steps) - 1):
            assert draw(table, steps[:n + 1]) == draw(table, list(steps[:n + 1]))


def test_a_whole_game_animates_one_frame_per_distinct_step(replay):
    frames = list(scenes(replay, names=NAMES))
    distinct = 1 + sum(1 for a, b in zip(frames, frames[1:]) if a != b)
    data = animation(replay, format="gif", names=NAMES)
    with Image.open(io.BytesIO(data)) as gif:
        assert gif.size == (720, 378) and gif.n_frames == distinct
