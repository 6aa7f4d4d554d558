"""Small party-cards logs for the tests, written as a bot would write them."""

from __future__ import annotations

import copy
from typing import Any

SEATS = ("p1", "p2", "p3", "p4")
NAMES = {"p1": "Ann", "p2": "Bo", "p3": "Cy", "p4": "Di"}
#: two cards each: p1 a1 a2, p2 a3 a4, p3 a5 a6, p4 a7 a8
HANDS = {seat: [{"id": f"a{2 * i + 1}", "text": f"Answer {2 * i + 1}."}, {"id": f"a{2 * i + 2}", "text": f"Answer {2 * i + 2}."}]
         for i, seat in enumerate(SEATS)}


def log_dict(events: list[dict[str, Any]], end: dict[str, Any] | None = None, **fields: Any) -> dict[str, Any]:
    """Four invited seats (Ann, Bo, Cy, Di), two cards each, score limit 2."""
    data: dict[str, Any] = {
        "format": "party-cards/1",
        "game_id": "grp-9/cah/4",
        "players": {seat: {"name": NAMES[seat]} for seat in SEATS},
        "score_limit": 2,
        "hand_size": 2,
        "hands": copy.deepcopy(HANDS),
        "events": copy.deepcopy(events),
    }
    if end is not None:
        data["end"] = end
    data.update(fields)
    return data


def join(seat: str, **extra: Any) -> dict[str, Any]:
    return {"type": "join", "seat": seat, **extra}


def decline(seat: str) -> dict[str, Any]:
    return {"type": "decline", "seat": seat}


def leave(seat: str) -> dict[str, Any]:
    return {"type": "leave", "seat": seat}


def round_(czar: str, qid: str = "q1", text: str = "Why can't I sleep at night? ___", pick: int = 1) -> dict[str, Any]:
    return {"type": "round", "czar": czar, "question": {"id": qid, "text": text, "pick": pick}}


def answer(seat: str, *cards: str) -> dict[str, Any]:
    return {"type": "answer", "seat": seat, "cards": list(cards)}


def reveal(*order: str) -> dict[str, Any]:
    return {"type": "reveal", "order": list(order)}


def pick(seat: str, choice: int) -> dict[str, Any]:
    return {"type": "pick", "seat": seat, "choice": choice}


def draw(seat: str, *ids: str) -> dict[str, Any]:
    return {"type": "draw", "seat": seat, "cards": [{"id": i, "text": f"Drawn {i}."} for i in ids]}


def swap(seat: str, discard: list[str], draw_ids: list[str]) -> dict[str, Any]:
    return {"type": "swap", "seat": seat, "discard": discard,
            "draw": [{"id": i, "text": f"Swapped {i}."} for i in draw_ids]}


def chat(seat: str | None, text: str) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "chat", "text": text}
    if seat is not None:
        event["seat"] = seat
    return event


LOBBY = [join("p1"), join("p2"), join("p3"), join("p4")]
#: round 1: Ann is the czar; Bo, Cy and Di answer; the czar sees Cy, Bo, Di and picks 2 (Bo)
ROUND_1 = [round_("p1"), answer("p2", "a3"), answer("p3", "a5"), answer("p4", "a7"), reveal("p3", "p2", "p4"),
           pick("p1", 2)]
DRAWS_1 = [draw("p2", "a9"), draw("p3", "a10"), draw("p4", "a11")]
#: round 2 (pick 2): Bo is the czar and picks Ann (a1, a2)
ROUND_2 = [round_("p2", "q2", "___ plus ___: the recipe for a perfect Sunday.", 2), answer("p1", "a1", "a2"),
           answer("p3", "a6", "a10"), answer("p4", "a8", "a11"), reveal("p1", "p4", "p3"), pick("p2", 1)]
DRAWS_2 = [draw("p1", "a12", "a13"), draw("p3", "a14", "a15"), draw("p4", "a16", "a17")]
#: round 3: Cy is the czar and picks Bo, who reaches the limit (2) and wins
ROUND_3 = [round_("p3", "q3", "What's in the mystery box? ___"), answer("p1", "a12"), answer("p2", "a4"),
           answer("p4", "a16"), reveal("p2", "p1", "p4"), pick("p3", 1)]
GAME = LOBBY + ROUND_1 + DRAWS_1 + ROUND_2 + DRAWS_2 + ROUND_3


def won_dict(end: dict[str, Any] | None = None, extra_events: list[dict[str, Any]] | None = None,
             **fields: Any) -> dict[str, Any]:
    """A clean three-round game that Bo (p2) wins 2-1."""
    return log_dict(GAME + (extra_events or []), end if end is not None else {"reason": "completed", "winner": "p2"},
                    **fields)
