"""UNO Lite's board data, read from the judged game's public API only.

The replay object (``replay.games.uno_lite``'s ``UnoReplay``) offers ``steps_json(seat=None)``
(per step: ``i``, ``kind``, ``seat``, ``card``, ``drawn``, ``text``, ``hands`` per seat (``None``
for a hand that seat cannot see), ``hand_sizes``, ``top``, ``pile_size``, ``to_act``, ``turn``,
``winner``, ``t``), ``findings``, ``winners``, ``turns`` and ``end_reason``. Nothing here
imports the UNO package, so the viewer loads without it.

Cards are written as the log writes them: colour letter then number (``R5``).
"""

from __future__ import annotations

import re
from typing import Any

from .. import log_names, seat_label as label

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


#: stands for a seat while the replay words a step, so that names never meet its wording
_TOKEN = "\x00{}\x00"
_TOKENS = re.compile("\x00(\\d+)\x00")


def named_texts(replay: Any, names: dict[str, Any]) -> list[dict[str, Any]]:
    """Each step's text with players' names for seats: ``x`` as the open view words it, ``xs``
    each seat's own wording where it differs (a draw by the other seat names no card). The
    replay words each step with a stand-in for its seat; the stand-ins become names after.

    >>> from replay.games.uno_lite.bots import play_game
    >>> replay = play_game(seed=3).replay()
    >>> texts = named_texts(replay, {"P1": "Ann"})
    >>> [t["x"].split(" ")[0] for t in texts[1:3]]
    ['Ann', 'P2']
    """
    seats = seats_of(replay)
    tokens = {seat: _TOKEN.format(n) for n, seat in enumerate(seats)}
    shown = [label(names, seat) for seat in seats]

    def words(text: str) -> str:  # one pass: a name is never read again, whatever it holds
        return _TOKENS.sub(lambda m: shown[int(m.group(1))], text)

    out = []
    for step in replay.steps:
        stand_in = step._replace(seat=tokens.get(step.seat, step.seat))
        text = stand_in.text_for(None)
        own = {seat: stand_in.text_for(tokens[seat]) for seat in seats}
        item: dict[str, Any] = {"x": words(text)}
        differs = {seat: words(t) for seat, t in own.items() if t != text}
        if differs:
            item["xs"] = differs
        out.append(item)
    return out


def title(game: Any) -> str:
    r = game.replay
    winners = list(r.winners)
    turns = f"{r.turns} turn{'' if r.turns == 1 else 's'}"
    if winners:
        who = ", ".join(game.names.get(s) or s for s in winners)
        return f"UNO Lite: {who} won in {turns}"
    return f"UNO Lite: {str(r.end_reason).replace('_', ' ')} after {turns}"


def perspectives(replay: Any) -> list[tuple[str, str]]:
    names = log_names(replay)
    return [("all", "both hands")] + [(s, f"{label(names, s)}\u2019s view") for s in seats_of(replay)]


def chapters(steps: list[dict[str, Any]]) -> dict[str, Any]:
    """A chapter is a turn: it ends with a play or a pass."""
    return {"ends": [s["i"] for s in steps if s["kind"] in TURN_ENDS], "before": None}


def compact_steps(replay: Any, steps: list[dict[str, Any]],
                  names: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The open steps, short keys, plus each seat's own wording where it differs (a draw by the
    other seat names no card); seats are written as their players' names (``names``)."""
    seats = seats_of(replay)
    texts = named_texts(replay, names or {})
    out = []
    for s, words in zip(steps, texts):
        step = {
            "i": s["i"], "k": s["kind"], "s": s["seat"], "x": words["x"],
            "h": [s["hands"][seat] for seat in seats], "top": s["top"], "pile": s["pile_size"],
            "ta": s["to_act"], "turn": s["turn"], "d": s["drawn"], "c": s["card"], "w": s["winner"],
        }
        if "xs" in words:
            step["xs"] = words["xs"]
        if s.get("t") is not None:
            step["t"] = s["t"]
        out.append(step)
    return out


def turn_rows(steps: list[dict[str, Any]], marks: dict[int, list[dict[str, Any]]],
              perspective: str = "all", names: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The record: one row per turn, its seat and its actions (each a link to its step). A card
    drawn by the other seat is marked ``hidden`` from a seat's perspective."""
    rows: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    for s in steps[1:]:
        if current is None or current["seat"] != s["seat"] or current["ended"]:
            current = {"number": len(rows) + 1, "seat": s["seat"], "name": label(names or {}, s["seat"]),
                       "actions": [], "ended": False}
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
    names = {s: game.names.get(s) for s in seats}
    compact = compact_steps(replay, steps, names)
    data = {
        "steps": compact,
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
        "drawn_by": label(names, current["seat"]) if current["kind"] == "draw" else None,
        "outcome": {"winners": list(replay.winners), "end": replay.end_reason, "turns": replay.turns,
                    "final": index == last},
        "step": {"text": compact[index].get("xs", {}).get(perspective, compact[index]["x"]),
                 "kind": current["kind"], "turn": current["turn"]},
        "winner_names": [label(names, w) for w in replay.winners],
        "turn_rows": turn_rows(steps, marks, perspective, names),
        "data": data,
    }
