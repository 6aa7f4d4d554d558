"""A log may name its seats freely (Coup's and party cards' seats are player ids): a seat called
``public`` or ``all`` must never turn the onlooker's view, or the open view, into one seat's."""

from __future__ import annotations

import json

from replay.games import get
from replay.log import parse_log
from replay.picture import PUBLIC, resolve_view, scene_at, views
from replay.picture.scene import Text


def renamed(seat_name: str):
    """A 3-player Coup game whose seat ``1`` is called ``seat_name`` (every place a seat is named)."""
    game = get("coup")
    data = game.selfplay(seed=3, players=3).to_json_dict()
    text = json.dumps(data).replace('"1"', json.dumps(seat_name))
    return parse_log(json.loads(text)).replay()


def faces(scene) -> set[str]:
    return {item.text for item in scene.items if isinstance(item, Text)}


def test_a_seat_called_public_is_not_the_public_view():
    replay = renamed("public")
    assert "public" in replay.game.seat_order(replay.log)
    assert resolve_view(replay, "public") == PUBLIC
    assert views(replay).count("public") == 1
    hand = {"A": "Ambassador", "C": "Captain"}  # seat 1's hand in seed 3's deal (the open view shows it)
    public = faces(scene_at(replay, step=0, view="public"))
    open_ = faces(scene_at(replay, step=0, view="all"))
    assert set(hand.values()) & open_  # the open view shows the seat's cards: the check below can fail
    assert not set(hand.values()) & public


def test_a_seat_called_all_is_not_the_open_view():
    replay = renamed("all")
    assert resolve_view(replay, "all", step=0) is None
    assert views(replay).count("all") == 1
