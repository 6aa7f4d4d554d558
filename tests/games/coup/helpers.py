"""Small coup/1 logs for the tests, written as a host would write them."""

from __future__ import annotations

import copy
from typing import Any

#: 1 holds Duke and Captain, 2 two Contessas, 3 Assassin and Ambassador (the spec's example)
HANDS = {"1": ["D", "C"], "2": ["E", "E"], "3": ["A", "B"]}


def log_dict(events: list[dict[str, Any]], end: dict[str, Any] | None = None, **fields: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "format": "coup/1",
        "game_id": "test/1",
        "players": {"1": {"name": "bluffer", "bot": "bluffer-0.2"}, "2": {"name": "honest", "bot": "honest-1"},
                    "3": {"name": "Ann", "id": "tg:11"}},
        "first_player": "1",
        "hands": copy.deepcopy(HANDS),
        "events": copy.deepcopy(events),
    }
    if end is not None:
        data["end"] = end
    data.update(fields)
    return data


def act(seat: str, action: str, target: str | None = None) -> dict[str, Any]:
    e = {"type": "action", "seat": seat, "action": action}
    if target is not None:
        e["target"] = target
    return e


def ev(kind: str, seat: str, card: str | None = None, **more: Any) -> dict[str, Any]:
    e: dict[str, Any] = {"type": kind, "seat": seat}
    if card is not None:
        e["card"] = card
    e.update(more)
    return e


#: the spec's example game (less its illegal and chat events), clean
SPEC_EVENTS = [
    act("1", "T"), ev("challenge", "3"), ev("reveal", "1", "D"), ev("lose", "3", "B"), ev("replace", "1", "A"),
    act("2", "S", "1"), ev("block", "1", "C"),
    act("3", "X"), ev("exchange", "3", drawn=["D", "E"], kept=["D"]),
]


def two_seat_win(extra: list[dict[str, Any]] | None = None, end: dict[str, Any] | None = None) -> dict[str, Any]:
    """Seats 1 (D C) and 2 (E E): 1 taxes twice and coups, twice; 2 takes income. 1 wins with 0 coins, 2 ends with 7."""
    events = [act("1", "T"), act("2", "I"), act("1", "T"), act("2", "I"), act("1", "C", "2"), ev("lose", "2", "E"),
              act("2", "I"), act("1", "T"), act("2", "I"), act("1", "T"), act("2", "I"), act("1", "C", "2"),
              ev("lose", "2", "E")]
    data = log_dict(events + (extra or []), end)
    data["players"] = {"1": {"name": "Ann"}, "2": {"name": "Bo"}}
    data["hands"] = {"1": ["D", "C"], "2": ["E", "E"]}
    return data
