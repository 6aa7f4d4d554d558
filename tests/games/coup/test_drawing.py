"""Coup's pictures: no view hands the drawing a face-down card it did not see (each seat's and
the onlooker's, on several seeds and table sizes), hostile names draw cut to fit, the first
public step gives nothing away and the last shows the winner."""

from __future__ import annotations

import io
from collections import Counter

import pytest
from PIL import Image

from replay.games.coup import GAME
from replay.games.base import common_view as common
from replay.games.coup.drawing import NAMES, caption, draw
from replay.picture import picture, scene_at
from replay.picture.scene import HIGHLIGHT, PUBLIC, Rect, Table, Text

GAMES = [(seed, players) for seed in (1, 5, 9, 23) for players in (2, 4, 6)]
CHARACTERS = set(NAMES.values())
HOSTILE = ("<script>alert(1)</script>&amp;", "\u202eevil" + "x" * 10_000, "李小龍 Жанна <b>", "]]><x/>")


@pytest.fixture(scope="module", params=GAMES, ids=lambda g: f"seed{g[0]}-{g[1]}p")
def judged(request):
    seed, players = request.param
    return GAME.judge(GAME.selfplay(seed=seed, bots=("honest", "bluffer", "random"), players=players))


def faces(scene) -> Counter:
    """The influence cards drawn face up: texts that are exactly a character's name."""
    return Counter(i.text for i in scene.items if isinstance(i, Text) and i.text in CHARACTERS)


def png_size(data: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(data)) as image:
        return image.size


def test_the_selfplay_games_have_what_the_views_must_hide(judged):
    # the fixture games are worth testing on: replacements, and across them exchanges and bluffs
    kinds = {s["kind"] for s in judged.steps_json()}
    assert {"action", "lose"} <= kinds


def test_every_games_set_shows_replacements_exchanges_and_bluffs():
    kinds, bluffs = set(), set()
    for seed, players in GAMES:
        steps = GAME.judge(GAME.selfplay(seed=seed, bots=("honest", "bluffer", "random"), players=players)).steps_json()
        kinds |= {s["kind"] for s in steps}
        bluffs |= {s.get("bluff") for s in steps}
    assert {"replace", "exchange", "challenge", "block", "reveal"} <= kinds and {True, False} <= bluffs


def test_a_seats_view_holds_no_other_seats_hidden_card(judged):
    open_steps = GAME.view_steps(judged, None)
    for seat in judged.seats:
        seen = GAME.view_steps(judged, seat)
        assert len(seen) == len(open_steps)
        for mine, full in zip(seen, open_steps):
            assert mine["deck"] is None and mine["deck_size"] == full["deck_size"]
            for other in judged.seats:
                assert mine["hands"][other] == (full["hands"][other] if other == seat else None)
                assert mine["faceup"][other] == full["faceup"][other]  # lost cards are open to all
            if full["seat"] != seat:
                assert "bluff" not in mine
                if full["kind"] == "replace":
                    assert mine["card"] is None
                if full["kind"] == "exchange":
                    assert mine["drawn"] is None and mine["kept"] is None


def test_the_onlookers_view_holds_no_hidden_card_at_all(judged):
    open_steps = GAME.view_steps(judged, None)
    seen = GAME.view_steps(judged, PUBLIC)
    assert len(seen) == len(open_steps)
    for public, full in zip(seen, open_steps):
        assert set(public["hands"].values()) == {None} and public["deck"] is None
        assert "bluff" not in public
        assert public["faceup"] == full["faceup"] and public["coins"] == full["coins"]
        assert public["influence"] == full["influence"] and public["winner"] == full["winner"]
        if full["kind"] == "replace":
            assert public["card"] is None
        if full["kind"] == "exchange":
            assert public["drawn"] is None and public["kept"] is None
        if full["kind"] in ("reveal", "lose", "block"):  # shown to the table
            assert public["card"] == full["card"]


def test_the_drawing_shows_only_the_cards_its_view_saw(judged):
    """Counted on the picture itself: the faces drawn are the lost cards, plus the seat's own
    hand in a seat's view, plus every hand when all is open."""
    for view in (PUBLIC, *judged.seats, None):
        steps = GAME.view_steps(judged, view)
        for n in sorted({0, 1, len(steps) // 3, len(steps) // 2, len(steps) - 1}):
            step = steps[n]
            expected = Counter(NAMES[c] for cards in step["faceup"].values() for c in cards)
            for seat, hand in step["hands"].items():
                if view is None or seat == view:
                    expected.update(NAMES[c] for c in hand)
            scene = draw(Table("Coup", judged.seats, view=view), steps[:n + 1])
            assert faces(scene) == expected, (view, n)


def test_the_first_public_step_shows_no_result_and_no_hidden_card(judged):
    scene = scene_at(judged)  # a link with no step
    texts = [i.text for i in scene.items if isinstance(i, Text)]
    assert not faces(scene) and not any("wins" in t or "loses" in t for t in texts)
    assert not [i for i in scene.items if isinstance(i, Rect) and i.fill == HIGHLIGHT]  # no winner's plate
    assert "The cards are dealt" in texts


def test_the_last_step_shows_the_winner(judged):
    names = {seat: f"Player {seat}" for seat in judged.seats}
    last = judged.step_count - 1
    for view in ("all", "public", judged.seats[0]):
        scene = scene_at(judged, step=last, view=view, names=names)
        texts = [i.text for i in scene.items if isinstance(i, Text)]
        assert f"Player {judged.winner} wins" in texts
        gold = [i for i in scene.items if isinstance(i, Rect) and i.fill == HIGHLIGHT]
        assert len(gold) == 1  # the winner's plate


def test_hostile_names_draw_cut_to_fit_and_add_nothing(judged):
    seats = judged.seats
    hostile = {seat: HOSTILE[n % len(HOSTILE)] for n, seat in enumerate(seats)}
    plain = {seat: f"P{seat}" for seat in seats}
    last = judged.step_count - 1
    for step in (0, last // 2, last):
        for view in ("public", seats[-1]):
            assert png_size(picture(judged, step=step, view=view, names=hostile)) == (1200, 630)
            bad = scene_at(judged, step=step, view=view, names=hostile)
            good = scene_at(judged, step=step, view=view, names=plain)
            assert len(bad.items) == len(good.items)  # a name adds no shape
            assert sum(len(i.text) for i in bad.items if isinstance(i, Text)) < 4000 and len(bad.alt) < 2000
            for item in bad.items:
                if isinstance(item, Text) and any(h[:6] in item.text or "x" * 50 in item.text for h in HOSTILE):
                    assert item.max_width is not None and item.max_width <= 1200, item
            assert faces(bad) == faces(good)


def test_caption_names_players_and_marks_bluffs_only_when_known():
    table = Table("Coup", ("1", "2", "3"), {"1": "Ann", "2": "Bo", "3": "Cy"})
    action = {"kind": "action", "seat": "1", "action": "A", "target": "3", "claim": "A", "out": []}
    assert caption(table, [action]) == "Ann assassinates Cy, claiming Assassin"
    assert caption(table, [dict(action, bluff=False)]) == "Ann assassinates Cy, claiming Assassin (true)"
    block = {"kind": "block", "seat": "3", "card": "E", "out": []}
    assert caption(table, [action, block]) == "Cy blocks, claiming Contessa"
    assert caption(table, [action, block, {"kind": "challenge", "seat": "1", "out": []}]) == "Ann challenges Cy's claim"
    assert caption(table, [{"kind": "replace", "seat": "2", "card": None, "out": []}]) == "Bo draws a replacement card"
    assert caption(table, [{"kind": "lose", "seat": "2", "card": "D", "out": ["2"]}]) == "Bo loses Duke and is out"
    assert caption(table, [{"kind": "exchange", "seat": "2", "drawn": None, "kept": None, "out": []}]) == (
        "Bo exchanges two cards with the deck")


def test_common_keeps_only_what_every_view_agrees_on():
    assert common([{"a": [1, 2], "b": {"x": 1}}, {"a": [1, 2], "b": {"x": 2}}]) == {"a": [1, 2], "b": {"x": None}}
    assert common([{"k": 1, "only": 2}, {"k": 1}]) == {"k": 1}
    assert common([[1, 2], [1, 3]]) == [1, None] and common([[1], [1, 2]]) is None
