"""UNO Lite's board data, read from the judged game's public API only.

The replay object (``replay.games.uno_lite``'s ``UnoReplay``) offers ``steps_json(seat=None)``
(per step: ``i``, ``kind``, ``seat``, ``card``, ``drawn``, ``text``, ``hands`` per seat (``None``
for a hand that seat cannot see), ``hand_sizes``, ``top``, ``pile_size``, ``to_act``, ``turn``,
``winner``, ``t``), ``findings``, ``winners``, ``turns`` and ``end_reason``. Nothing here
imports the UNO package, so the viewer loads without it.

Cards are written as the log writes them: colour letter then number (``R5``).
"""

from __future__ import annotations

from typing import Any

COLOURS = {"R": "red", "G": "green", "B": "blue", "Y": "yellow"}
#: step kinds that end a turn (the ↑/↓ keys move by turn)
TURN_ENDS = ("play", "pass")


def card_parts(text: str | None) -> dict[str, Any] | None:
    """``"R5"`` -> its colour letter, colour word and number (``None`` stays ``None``)."""
    if not text:
        return None
    colour = text[0]
    return {"code": text, "colour": colour, "word": COLOURS.get(colour, colour), "number": text[1:]}


def seats_of(replay: Any) -> tuple[str, ...]:
    return tuple(replay.game.seats)


def title(game: Any) -> str:
    r = game.replay
    winners = list(r.winners)
    turns = f"{r.turns} turn{'' if r.turns == 1 else 's'}"
    if winners:
        who = ", ".join(game.names.get(s) or s for s in winners)
        return f"UNO Lite: {who} won in {turns}"
    return f"UNO Lite: {str(r.end_reason).replace('_', ' ')} after {turns}"


def perspectives(replay: Any) -> list[tuple[str, str]]:
    return [("all", "both hands")] + [(s, f"{s}\u2019s view") for s in seats_of(replay)]


def chapters(steps: list[dict[str, Any]]) -> dict[str, Any]:
    """A chapter is a turn: it ends with a play or a pass."""
    return {"ends": [s["i"] for s in steps if s["kind"] in TURN_ENDS], "before": None}


def compact_steps(replay: Any, steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The open steps, short keys, plus each seat's own wording where it differs (a draw by the
    other seat names no card)."""
    seats = seats_of(replay)
    seen = {seat: replay.steps_json(seat) for seat in seats}
    out = []
    for s in steps:
        step = {
            "i": s["i"], "k": s["kind"], "s": s["seat"], "x": s["text"],
            "h": [s["hands"][seat] for seat in seats], "top": s["top"], "pile": s["pile_size"],
            "ta": s["to_act"], "turn": s["turn"], "d": s["drawn"], "c": s["card"], "w": s["winner"],
        }
        texts = {seat: seen[seat][s["i"]]["text"] for seat in seats if seen[seat][s["i"]]["text"] != s["text"]}
        if texts:
            step["xs"] = texts
        if s.get("t") is not None:
            step["t"] = s["t"]
        out.append(step)
    return out


def turn_rows(steps: list[dict[str, Any]], marks: dict[int, list[dict[str, Any]]],
              perspective: str = "all") -> list[dict[str, Any]]:
    """The record: one row per turn, its seat and its actions (each a link to its step). A card
    drawn by the other seat is marked ``hidden`` from a seat's perspective."""
    rows: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    for s in steps[1:]:
        if current is None or current["seat"] != s["seat"] or current["ended"]:
            current = {"number": len(rows) + 1, "seat": s["seat"], "actions": [], "ended": False}
            rows.append(current)
        card = card_parts(s["card"])
        if card is not None and s["kind"] == "draw":
            card["drawn_by"] = s["seat"]  # hidden from the other seat's view (board.js too)
            card["hidden"] = perspective not in ("all", s["seat"])
        current["actions"].append({"step": s["i"], "kind": s["kind"], "card": card,
                                   "findings": marks.get(s["i"], [])})
        current["ended"] = s["kind"] in TURN_ENDS
        current["last_step"] = s["i"]
    return rows


def board_view(game: Any, index: int, perspective: str, options: dict[str, Any]) -> dict[str, Any]:
    """Everything the UNO template and script need at step ``index`` from ``perspective``."""
    replay = game.replay
    seats = seats_of(replay)
    steps = replay.steps_json()
    shown = steps if perspective == "all" else replay.steps_json(perspective)
    current = shown[index]
    findings = [f.to_json() for f in replay.findings]
    marks: dict[int, list[dict[str, Any]]] = {}
    for f in findings:
        marks.setdefault(f["step"], []).append(f)

    players = []
    for seat in seats:
        cards = current["hands"][seat]
        players.append({
            "seat": seat, "name": game.names.get(seat),
            "to_act": current["to_act"] == seat, "visible": cards is not None,
            "count": current["hand_sizes"][seat],
            "cards": [card_parts(c) for c in cards] if cards is not None else [],
            "winner": seat in replay.winners,
        })
    last = len(steps) - 1
    data = {
        "steps": compact_steps(replay, steps),
        "game": {
            "seats": list(seats),
            "names": {s: game.names.get(s) for s in seats},
            "winners": list(replay.winners), "turns": replay.turns,
            "findings": findings, "end": replay.end_reason, "checked": replay.checked,
        },
        "chapters": chapters(steps),
    }
    return {
        "players": players,
        "top": card_parts(current["top"]),
        "pile_size": current["pile_size"],
        "drawn": card_parts(current["drawn"]),
        "drawn_by": current["seat"] if current["kind"] == "draw" else None,
        "outcome": {"winners": list(replay.winners), "end": replay.end_reason, "turns": replay.turns,
                    "final": index == last},
        "step": {"text": current["text"], "kind": current["kind"], "turn": current["turn"]},
        "turn_rows": turn_rows(steps, marks, perspective),
        "data": data,
    }
