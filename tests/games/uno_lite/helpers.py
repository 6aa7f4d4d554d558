"""Small logs for the UNO Lite tests, written as a bot would write them."""

from __future__ import annotations

import copy
from typing import Any

P1_HAND = ["R5", "G7", "B1", "Y9", "R2", "G2", "B8"]
P2_HAND = ["B3", "B4", "G1", "G3", "Y1", "Y2", "Y3"]


def log_dict(events: list[dict[str, Any]], end: dict[str, Any] | None = None, **fields: Any) -> dict[str, Any]:
    """P1 holds R5 G7 B1 Y9 R2 G2 B8, P2 holds no red and no 9, the starter is R9, P1 first."""
    data: dict[str, Any] = {
        "format": "uno-lite/1",
        "game_id": "test/1",
        "players": {"P1": {"name": "Ann", "id": "tg:11"}, "P2": {"name": "unobot", "bot": "greedy-1"}},
        "first_player": "P1",
        "hands": {"P1": list(P1_HAND), "P2": list(P2_HAND)},
        "starter": "R9",
        "events": copy.deepcopy(events),
    }
    if end is not None:
        data["end"] = end
    data.update(fields)
    return data


def play(seat: str, card: str) -> dict[str, Any]:
    return {"type": "play", "seat": seat, "card": card}


def draw(seat: str, card: str) -> dict[str, Any]:
    return {"type": "draw", "seat": seat, "card": card}


def pass_(seat: str) -> dict[str, Any]:
    return {"type": "pass", "seat": seat}


#: P1 plays R1..R7 in order; P2 (numbers 8 and 9 only, no red) draws a card it cannot play each
#: time and passes. P1's hand empties with the last event: a clean game that P1 wins.
WIN_P1_HAND = ["R1", "R2", "R3", "R4", "R5", "R6", "R7"]
WIN_P2_HAND = ["G9", "G9", "B8", "B8", "B9", "Y8", "Y9"]
_WIN_DRAWS = ["G8", "G1", "G2", "G3", "G4", "G5"]


def p1_wins_dict(end: dict[str, Any] | None = None, extra_events: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    events: list[dict[str, Any]] = []
    for number in range(1, 8):
        events.append(play("P1", f"R{number}"))
        if number < 7:
            events.append(draw("P2", _WIN_DRAWS[number - 1]))
            events.append(pass_("P2"))
    events += extra_events or []
    data = log_dict(events, end)
    data["hands"] = {"P1": list(WIN_P1_HAND), "P2": list(WIN_P2_HAND)}
    return data
