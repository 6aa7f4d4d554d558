"""Hold'em's pictures: what each view's drawing is handed and draws, hostile names, the link
preview of step 0, the winners at the end, and the animations.

A card is hidden from a view at a step when it is another seat's hole card that seat has not
shown by then: worked out here from the open steps (a ``show`` step of the seat), not from the
replay's own bookkeeping, and looked for in everything ``draw`` is handed and everything it draws.
"""

from __future__ import annotations

import io
import json
import random
import re

import av
import pytest
from PIL import Image

from replay.games import get
from replay.games.holdem.drawing import card_label, draw, seat_points
from replay.log import read_path
from replay.picture import animation, picture, scene_at, scenes, views
from replay.picture.scene import CARD_BACK, HIGHLIGHT, PANEL, PUBLIC, Rect, Table, Text

from .helpers import log as ns_log, random_hand, random_setup

GAME = get("holdem")
#: a card as the picture writes it (``A♠``, ``10♥``)
LABEL = re.compile(r"(10|[2-9JQKA])[♠♥♦♣]")


def _replays() -> list[tuple[str, object]]:
    out = []
    for players, seed in ((2, 1), (2, 8), (3, 4), (6, 7), (6, 21), (10, 11), (10, 30)):
        out.append((f"bots-{players}-{seed}", GAME.judge(GAME.selfplay(seed=seed, players=players))))
    rng = random.Random(5)
    for n in range(6):  # random legal hands to a showdown, some seats mucking there
        hand = random_hand(rng, random_setup(rng, n=rng.choice((2, 4, 7, 10))))
        actions = list(hand["actions"])
        for i, action in enumerate(actions):
            if " sm " in action and rng.random() < 0.4:
                actions[i] = action.split(" sm ")[0] + " sm"
        replay = GAME.judge(ns_log(hand, actions))
        if replay.findings:  # a muck the rules refuse there: the hand as played
            replay = GAME.judge(ns_log(hand))
        out.append((f"random-{n}", replay))
    for name in ("nine-handed-side-pots.phh", "cash-6max-dollars.phh", "chat-table.json", "timeout.json"):
        entry = read_path(str(GAME.sample_logs / name))[0]
        out.append((name, GAME.judge(entry.log)))
    return out


REPLAYS = _replays()


def _table(replay, view: str | None, names: dict[str, str] | None = None) -> Table:
    return Table(GAME.title, tuple(replay.seats), names or {}, view)


def _texts(scene) -> list[str]:
    return [item.text for item in scene.items if isinstance(item, Text)]


def _hidden(open_steps: list[dict], view: str | None) -> list[set[str]]:
    """Each step's cards the view may not see: other seats' hole cards not yet shown."""
    shown: set[str] = set()
    out = []
    for step in open_steps:
        if step["kind"] == "show":
            shown.add(step["seat"])
        out.append({card for seat, cards in step["hole"].items() if seat != view and seat not in shown
                    for card in cards if card != "??"})
    return out


def test_the_sample_hands_cover_what_the_views_hide():
    """The hands below deal known cards, show some, muck some and fold some."""
    kinds = {step["kind"] for _, replay in REPLAYS for step in replay.steps_json()}
    assert {"hole", "show", "muck", "fold", "board"} <= kinds


@pytest.mark.parametrize("name,replay", REPLAYS, ids=[name for name, _ in REPLAYS])
def test_a_hidden_card_never_reaches_the_drawing(name, replay):
    open_steps = GAME.view_steps(replay, None)
    for view in (PUBLIC, *replay.seats):
        seen = GAME.view_steps(replay, view)
        assert len(seen) == len(open_steps)
        table = _table(replay, view)
        for i, (step, hidden) in enumerate(zip(seen, _hidden(open_steps, None if view == PUBLIC else view))):
            data = json.dumps(step, ensure_ascii=False)
            leaked = [card for card in hidden if f'"{card}"' in data or card in step["text"]]
            assert not leaked, (name, view, i, leaked)
            drawn = " ".join(_texts(draw(table, seen[:i + 1])))
            labels = {card_label(card) for card in hidden}
            assert not [label for label in labels if label in drawn], (name, view, i)


@pytest.mark.parametrize("name,replay", REPLAYS[:4], ids=[name for name, _ in REPLAYS[:4]])
def test_a_seat_sees_its_own_cards_and_the_onlooker_none(name, replay):
    seat = replay.seats[0]
    dealt = next(i for i, step in enumerate(replay.steps_json()) if step["kind"] == "hole" and step["seat"] == seat)
    own = GAME.view_steps(replay, seat)[dealt]
    public = GAME.view_steps(replay, PUBLIC)[dealt]
    assert "??" not in own["hole"][seat] and public["hole"][seat] == ["??", "??"]
    texts = _texts(draw(_table(replay, seat), GAME.view_steps(replay, seat)[:dealt + 1]))
    assert any(LABEL.fullmatch(t) for t in texts)  # its two cards face up
    texts = _texts(draw(_table(replay, PUBLIC), GAME.view_steps(replay, PUBLIC)[:dealt + 1]))
    assert not any(LABEL.search(t) for t in texts)


HOSTILE = {"p1": "<script>alert(1)</script>", "p2": "x" * 10_000, "p3": "\u202eevil\u202c name",
           "p4": "Иван Петров", "p5": "王小明", "p6": "Σωκράτης", "p7": "&amp; <b>b</b>", "p8": "A\u202e" * 5_000,
           "p9": "\n\t\x07", "p10": "♠♥♦♣"}


@pytest.mark.parametrize("step", [None, 5, -1])
@pytest.mark.parametrize("view", [None, "public", "p2"])
def test_hostile_names_draw(step, view):
    replay = REPLAYS[5][1]  # ten seats
    last = len(replay.steps_json()) - 1
    png = picture(replay, step=last if step == -1 else step, view=view, names=HOSTILE)
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG" and image.size == (1200, 630)


def test_hostile_names_are_cut_inside_the_captions():
    replay = REPLAYS[5][1]
    steps = GAME.view_steps(replay, "p2")
    table = _table(replay, "p2", HOSTILE)
    for i in range(len(steps)):
        for text in _texts(draw(table, steps[:i + 1])):
            if text not in HOSTILE.values():  # a plate's name is cut by the renderer, to its width
                assert "x" * 100 not in text  # a 10,000-character name is cut before it goes into a line


@pytest.mark.parametrize("name,replay", REPLAYS, ids=[name for name, _ in REPLAYS])
def test_step_0_in_public_shows_no_result_and_no_card(name, replay):
    names = {seat: f"Player {seat}" for seat in replay.seats}
    steps = GAME.view_steps(replay, PUBLIC)
    scene = draw(_table(replay, PUBLIC, names), steps[:1])
    texts = _texts(scene)
    assert not any(LABEL.search(t) for t in texts)
    assert not any("wins" in t for t in texts)
    assert not [item for item in scene.items if isinstance(item, Rect) and item.fill == HIGHLIGHT]
    for seat in replay.seats:
        assert f"Player {seat}" in texts
    # each seat's two backs: a card back is a blue rectangle with a ring inside it
    backs = [item for item in scene.items if isinstance(item, Rect) and item.fill == CARD_BACK]
    assert len(backs) == 2 * len(replay.seats)


@pytest.mark.parametrize("name,replay", [(n, r) for n, r in REPLAYS if r.winners],
                         ids=[n for n, r in REPLAYS if r.winners])
def test_the_last_step_shows_the_winners(name, replay):
    names = {seat: f"Player {seat}" for seat in replay.seats}
    won = replay.to_json()["winnings"]
    for view in (None, PUBLIC, replay.seats[-1]):
        steps = GAME.view_steps(replay, view)
        scene = draw(_table(replay, view, names), steps)
        texts = _texts(scene)
        for seat in replay.winners:
            amount = f"{won[seat]:,.2f}" if isinstance(won[seat], float) else f"{won[seat]:,}"
            assert any(t.startswith(f"Player {seat} wins {amount}") for t in texts), (texts, seat, amount)
        gold = [item for item in scene.items if isinstance(item, Rect) and item.fill == HIGHLIGHT]
        assert len(gold) == len(replay.winners)  # a gold plate each


def test_a_hand_that_was_not_finished_says_so():
    replay = dict(REPLAYS)["timeout.json"]
    steps = GAME.view_steps(replay, PUBLIC)
    texts = _texts(draw(_table(replay, PUBLIC), steps))
    assert not any("wins" in t for t in texts)
    assert texts[1].endswith("the hand was not finished")


def test_amounts_in_dollars_keep_their_cents():
    replay = dict(REPLAYS)["cash-6max-dollars.phh"]
    steps = GAME.view_steps(replay, PUBLIC)
    texts = _texts(draw(_table(replay, PUBLIC), steps[:1]))
    assert texts[1] == "6 players · blinds 0.25/0.50"
    assert "50.00" in texts  # a stack of 50 dollars, as the table writes it


def test_the_drawing_is_deterministic():
    replay = REPLAYS[5][1]
    again = GAME.judge(GAME.selfplay(seed=11, players=10))
    for view in ("all", "public", "p4"):
        first = list(scenes(replay, view=view, names=HOSTILE))
        second = list(scenes(again, view=view, names=HOSTILE))
        assert first == second
        assert len(set(first)) == len(first)  # every step looks different from the one before


@pytest.mark.parametrize("count", range(2, 11))
def test_seats_sit_apart_and_on_the_canvas(count):
    assert seat_points(count)[0] == pytest.approx((600, 555), abs=1)  # the first seat at the bottom
    replay = GAME.judge(GAME.selfplay(seed=count, players=count))
    scene = draw(_table(replay, PUBLIC), GAME.view_steps(replay, PUBLIC)[:1])
    boxes = [(item.x, item.y, item.x + item.w, item.y + item.h) for item in scene.items if isinstance(item, Rect)
             and item.y > 0 and item.fill in (PANEL, CARD_BACK)]  # the plates and the cards' backs
    assert len(boxes) == 3 * count
    for n, (x0, y0, x1, y1) in enumerate(boxes):
        assert 0 <= x0 and x1 <= 1200 and 56 <= y0 and y1 <= 630
        for (u0, v0, u1, v1) in boxes[n + 1:]:
            assert x1 <= u0 or u1 <= x0 or y1 <= v0 or v1 <= y0, "two seats overlap"


@pytest.mark.parametrize("index", [0, 6])
def test_the_gif_has_a_frame_a_step(index):
    replay = REPLAYS[index][1]
    count = len(replay.steps_json())
    gif = animation(replay, view="public", format="gif")
    image = Image.open(io.BytesIO(gif))
    assert image.format == "GIF" and image.size == (720, 378)
    assert image.n_frames == count
    mp4 = animation(replay, start=0, end=min(3, count - 1), view=replay.seats[0], format="mp4")
    with av.open(io.BytesIO(mp4)) as video:
        codec = video.streams.video[0].codec_context.name
        frames = list(video.decode(video=0))
    assert codec == "h264"
    assert len(frames) >= min(4, count) and (frames[0].width, frames[0].height) == (720, 378)


BROKEN = sorted(p for p in (GAME.sample_logs / "broken").iterdir() if p.suffix == ".json")


@pytest.mark.parametrize("path", BROKEN, ids=[p.name for p in BROKEN])
def test_hands_with_findings_draw_in_every_view(path):
    """A hand stopped by a finding, or whose setup is not valid, draws from every view."""
    entries = [entry for entry in read_path(str(path)) if entry.ok]
    for entry in entries:
        replay = GAME.judge(entry.log)
        last = len(replay.steps_json()) - 1
        for view in views(replay):
            for step in (None, last):
                image = Image.open(io.BytesIO(picture(replay, step=step, view=view)))
                assert image.size == (1200, 630)
    if path.name == "invalid-setup.json":
        scene = scene_at(GAME.judge(entries[0].log), 0, "public")
        assert _texts(scene)[1].endswith("the setup is not valid")
