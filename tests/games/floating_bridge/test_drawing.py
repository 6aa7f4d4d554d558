"""Floating bridge's pictures (issue 27): what each view may see, and what the picture shows.

The hiding is checked on the data the drawing is handed (``GAME.view_steps``) and on the
scene drawn from it: a card still in a hand the view does not see is in neither. The partner
card is named aloud when it is called, so it is public from then on; who holds it is not.
"""

from __future__ import annotations

import io
import json

import pytest
from PIL import Image

from replay.games.floating_bridge import GAME
from replay.games.floating_bridge.bots import play_game
from replay.games.floating_bridge.drawing import caption, draw, label
from replay.picture import animation, picture, scene_at, scenes
from replay.picture.scene import CARD, CARD_BACK, HIGHLIGHT, PUBLIC, Rect, Table, Text

SEATS = ("N", "E", "S", "W")
VIEWS = (*SEATS, PUBLIC)
NAMES = {"N": "Ann", "E": "Bob", "S": "Cat", "W": "Dev"}
HOSTILE = {"N": "<b>Ann</b>&amp;<script>x</script>", "E": "\u202eevil" + "y" * 10_000,
           "S": "李小龍 Ωμέγα", "W": "Dev\x07\n♠"}
SEEDS = (1, 2, 7, 23)  # in game 2 the partner card is never played


@pytest.fixture(scope="module", params=[*[(seed, "bridgebot") for seed in SEEDS], (38, "all-tricks")],
                ids=lambda p: f"{p[1]}-{p[0]}")
def replay(request):
    seed, rules = request.param
    return play_game(seed=seed, rules=rules).replay()


def strings(value) -> list[str]:
    """Every string in a step's data, keys and values."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*strings(k), *strings(v))]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in strings(v)]
    return []


def symbol_first(code: str) -> str:
    """A card as the steps' texts write it: ``SK`` -> ``♠K``, ``HT`` -> ``♥10``."""
    return {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[code[0]] + ("10" if code[1] == "T" else code[1])


def hidden_cards(open_step: dict, view: str, partner_card: str | None) -> set[str]:
    """The cards of ``open_step`` that ``view`` may not see: every card in another seat's hand
    (all four for an onlooker), but the partner card once it has been called aloud."""
    out = {c for seat, hand in open_step["hands"].items() if seat != view for c in hand}
    return out - {partner_card}


def leaks(texts: list[str], hidden: set[str]) -> set[str]:
    """The hidden cards that step data names: as a value (``SK``) or in a text (``♠K``)."""
    return {code for code in hidden for t in texts if t == code or symbol_first(code) in t}


def faces(scene) -> list[str]:
    """The labels of the cards drawn face up (a text right after a card's white face)."""
    items = scene.items
    return [i.text for n, i in enumerate(items) if isinstance(i, Text) and n
            and isinstance(items[n - 1], Rect) and items[n - 1].fill == CARD]


def test_no_view_is_handed_or_shows_a_card_it_may_not_see(replay):
    open_steps = GAME.view_steps(replay, None)
    partner_card = str(replay.partner_card) if replay.partner_card is not None else None
    table = Table(GAME.title, SEATS, NAMES)
    for view in VIEWS:
        seen = GAME.view_steps(replay, view)
        assert len(seen) == len(open_steps)
        called = None
        for n, (step, open_step) in enumerate(zip(seen, open_steps)):
            called = called or (partner_card if open_step["kind"] == "partner" else None)
            hidden = hidden_cards(open_step, view, called)
            # before the call, the partner card is just one more hidden card
            if called is None and partner_card is not None:
                hidden |= {partner_card} & hidden_cards(open_step, view, None)
            assert not leaks(strings(step), hidden), (view, n)
            for seat in SEATS:
                if seat != view:
                    assert step["hands"][seat] is None
                    assert step["hand_sizes"][seat] == len(open_step["hands"][seat])
            if n in (0, len(seen) // 2, len(seen) - 1):
                scene = draw(Table(GAME.title, SEATS, NAMES, view), seen[:n + 1])
                assert not {label(c) for c in hidden} & set(faces(scene)), (view, n)
        if view != PUBLIC:
            assert seen[-1]["hands"][view] == open_steps[-1]["hands"][view]
    assert table.view is None


def test_the_partner_is_known_to_the_partner_at_once_and_to_the_others_when_the_card_is_played(replay):
    assert replay.partner_seat is not None, replay.summary_line()
    holder = replay.partner_seat.name
    open_steps = GAME.view_steps(replay, None)
    for view in VIEWS:
        seen = GAME.view_steps(replay, view)
        for step, open_step in zip(seen, open_steps):
            knows = view == holder or open_step["partner_revealed"] or open_step["phase"] == "over"
            called = any(s["kind"] == "partner" for s in open_steps[:step["i"] + 1])
            assert step["partner"] == (holder if knows and called else None)
            # the sides' counts would tell who the partner is
            assert step["declarer_side_tricks"] == (open_step["declarer_side_tricks"] if knows else None)
            assert step["defender_tricks"] == (open_step["defender_tricks"] if knows else None)


def test_the_open_view_shows_every_hand_and_the_partner_from_the_call_on(replay):
    open_steps = GAME.view_steps(replay, None)
    called = next((s["i"] for s in open_steps if s["kind"] == "partner"), None)
    for step in open_steps:
        assert all(isinstance(hand, list) for hand in step["hands"].values())
        assert sum(map(len, step["hands"].values())) == 52 - sum(
            1 for s in open_steps[:step["i"] + 1] if s["kind"] == "play")
        expected = replay.partner_seat.name if called is not None and step["i"] >= called else None
        assert step["partner"] == expected


def test_a_bad_view_is_a_clear_error(replay):
    with pytest.raises(ValueError, match="a bridge view is a seat"):
        replay.steps_json("X")


def test_the_link_preview_shows_the_deal_face_down_with_the_names_and_no_result():
    replay = play_game(seed=7).replay()
    scene = scene_at(replay, names=NAMES)
    texts = [i.text for i in scene.items if isinstance(i, Text)]
    backs = [i for i in scene.items if isinstance(i, Rect) and i.fill == CARD_BACK]
    assert len(backs) == 52
    assert faces(scene) == []
    assert set(NAMES.values()) <= set(texts)
    assert not any(isinstance(i, Rect) and i.fill == HIGHLIGHT for i in scene.items)  # no winner
    assert not any("win" in t for t in texts)
    assert caption(Table(GAME.title, SEATS, NAMES, PUBLIC), GAME.view_steps(replay, PUBLIC)[:1]) == \
        "The deal: " + NAMES[replay.log.first_bidder.name] + " bids first"


def test_the_open_view_shows_every_card_face_up():
    replay = play_game(seed=7).replay()
    scene = scene_at(replay, step=0, view="all", names=NAMES)
    texts = {i.text for i in scene.items if isinstance(i, Text)}
    every_card = {c for hand in GAME.view_steps(replay, None)[0]["hands"].values() for c in hand}
    assert {label(c) for c in every_card} <= texts
    assert not any(isinstance(i, Rect) and i.fill == CARD_BACK for i in scene.items)


def test_a_seat_sees_its_own_hand_face_up_and_the_others_face_down():
    replay = play_game(seed=12).replay()
    scene = scene_at(replay, step=0, view="W", names=NAMES)
    texts = {i.text for i in scene.items if isinstance(i, Text)}
    assert {label(c) for c in GAME.view_steps(replay, None)[0]["hands"]["W"]} <= texts
    assert sum(1 for i in scene.items if isinstance(i, Rect) and i.fill == CARD_BACK) == 39


def test_the_last_step_shows_the_result_in_the_winners_names(replay):
    last = replay.step_count - 1
    winners = [NAMES[s] for s in replay.winners]
    assert winners, replay.summary_line()
    for view in ("all", "public", "N"):
        scene = scene_at(replay, step=last, view=view, names=NAMES)
        head = [i.text for i in scene.items if isinstance(i, Text)][1]
        assert head.startswith(" and ".join(winners) + " win with "), head
        gold = {i.text for n, i in enumerate(scene.items) if isinstance(i, Text)
                and isinstance(scene.items[n - 1], Rect) and scene.items[n - 1].fill == HIGHLIGHT}
        assert set(winners) <= gold
        assert not (set(NAMES.values()) - set(winners)) & gold


def test_a_passed_out_deal_says_so():
    data = json.loads(play_game(seed=7).model_dump_json())
    first = data["first_bidder"]
    order = SEATS[SEATS.index(first):] + SEATS[:SEATS.index(first)]
    data["events"] = [{"type": "bid", "seat": s, "bid": "pass", "t": 1000 * (n + 1)} for n, s in enumerate(order)]
    data["end"] = {"reason": "passed_out", "t": 5000}
    replay = GAME.judge(GAME.parse(data))
    scene = scene_at(replay, step=4, view="public", names=NAMES)
    texts = [i.text for i in scene.items if isinstance(i, Text)]
    assert texts[1] == f"{NAMES[order[-1]]} passes: passed out"
    assert "passed out" in texts


def test_captions_name_each_kind_of_step_in_the_players_names():
    replay = play_game(seed=7).replay()
    steps = GAME.view_steps(replay, PUBLIC)
    table = Table(GAME.title, SEATS, NAMES, PUBLIC)
    by_kind = {}
    for n, step in enumerate(steps):
        by_kind.setdefault(step["kind"] + ("-won" if step.get("trick_winner") else ""), caption(table, steps[:n + 1]))
    assert by_kind["call"] == "Ann bids 1♦"
    assert by_kind["partner"] == "Bob calls K♠ as partner card"
    assert by_kind["play"] == "Trick 1: Cat plays 2♥"
    assert by_kind["play-won"] == "Trick 1: Bob plays 4♥, Ann wins it"
    # no seat letter stands for a player who has a name
    unnamed = Table(GAME.title, SEATS, {"N": "Ann"}, PUBLIC)
    assert caption(unnamed, steps[:2]) == "Ann bids 1♦"
    assert caption(unnamed, steps[:3]) == "E bids 1♠"


def test_hostile_names_are_held_raw_and_drawn_clean(replay):
    last = replay.step_count - 1
    for step in (0, last // 2, last):
        scene = scene_at(replay, step=step, view="public", names=HOSTILE)
        texts = [i.text for i in scene.items if isinstance(i, Text)]
        assert set(HOSTILE.values()) <= set(texts)
        data = picture(replay, step=step, view="public", names=HOSTILE)
        with Image.open(io.BytesIO(data)) as image:
            assert image.format == "PNG" and image.size == (1200, 630)


def test_the_drawing_is_deterministic(replay):
    for view in (None, PUBLIC, "S"):
        steps = GAME.view_steps(replay, view)
        table = Table(GAME.title, SEATS, NAMES, view)
        for n in (0, len(steps) // 2, len(steps) - 1):
            assert draw(table, steps[:n + 1]) == draw(table, list(steps[:n + 1]))
    assert picture(replay, step=3, names=NAMES) == picture(replay, step=3, names=NAMES)


def test_a_hand_only_loses_its_card_from_one_step_to_the_next():
    """Per-step changes stay small: the seats that did not play keep their cards' shapes."""
    replay = play_game(seed=38, rules="all-tricks").replay()
    frames = list(scenes(replay, view="public", names=NAMES))
    for before, after in zip(frames, frames[1:]):
        gone = set(before.items) - set(after.items)
        backs = [i for i in gone if isinstance(i, Rect) and i.fill == CARD_BACK]
        assert len(backs) <= 1


def test_a_whole_game_animates_one_frame_per_distinct_step():
    replay = play_game(seed=38, rules="all-tricks").replay()
    frames = list(scenes(replay, names=NAMES))
    assert len(frames) == replay.step_count >= 65
    distinct = 1 + sum(1 for a, b in zip(frames, frames[1:]) if a != b)
    data = animation(replay, format="gif", names=NAMES)
    with Image.open(io.BytesIO(data)) as gif:
        assert gif.format == "GIF" and gif.size == (720, 378)
        assert gif.n_frames == distinct
    assert len(data) <= 500_000, len(data)
    mp4 = animation(replay, format="mp4", names=NAMES)
    assert mp4[4:8] == b"ftyp" and len(mp4) <= 300_000, len(mp4)


def test_an_unfinished_game_shows_no_result():
    data = json.loads(play_game(seed=7).model_dump_json())
    data["events"] = data["events"][:20]
    data["end"] = {"reason": "abandoned", "t": data["events"][-1]["t"] + 1}
    replay = GAME.judge(GAME.parse(data))
    assert replay.result.winner is None
    last = replay.step_count - 1
    for view in ("all", "public", "W"):
        scene = scene_at(replay, step=last, view=view, names=NAMES)
        texts = [i.text for i in scene.items if isinstance(i, Text)]
        assert texts[1].startswith("Trick ") and not any(" win with " in t for t in texts)
        assert not any(isinstance(i, Rect) and i.fill == HIGHLIGHT for i in scene.items)
