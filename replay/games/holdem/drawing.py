"""Texas hold'em's picture of a step: the table, its 2 to 10 seats around it (each with its
name, stack, bet and two hole cards, face up where the view sees them), the dealer button, the
board, the pot(s), the seat to act, and at the end who won what.

The drawing reads only the steps it is handed (``GAME.view_steps``: as the view saw them), so a
card the view did not see is a ``??`` and is drawn as a back. The header words the step from the
steps' fields with the players' names (the steps' own texts name seats).

>>> from replay.picture.scene import PUBLIC, Table, Text
>>> from replay.games.holdem import GAME
>>> replay = GAME.judge(GAME.selfplay(seed=3, players=3))
>>> steps = GAME.view_steps(replay, PUBLIC)
>>> scene = draw(Table("Texas hold'em", ("p1", "p2", "p3"), {"p1": "Ann"}, PUBLIC), steps[:1])
>>> texts = [i.text for i in scene.items if isinstance(i, Text)]
>>> texts[:2], "Ann" in texts, "10,000" in texts
(["Texas hold'em", '3 players · blinds 50/100'], True, True)
>>> caption(Table("Texas hold'em", ("p1", "p2", "p3"), {"p2": "Bo"}), steps[:6])
'Bo wins 100'
"""

from __future__ import annotations

import math
import re
from decimal import Decimal
from typing import Any, Mapping, Sequence

from ...picture.kit import card, card_back, header, plate
from ...picture.scene import BLACK, HIGHLIGHT, MUTED, PUBLIC, WIDTH, Circle, Item, Rect, Scene, Table, Text
from ...picture.text import fit
from .cards import parse_cards
from .evaluator import describe, rank

#: the table's felt and its rim
FELT, RIM = "#15803d", "#5b3a1a"
#: the table: a rounded oblong in the middle of the canvas
TABLE = (130, 150, 940, 340)
#: the ellipse the seats sit on (centre and half axes) and how far in their bets are (0 centre, 1 seat)
CENTRE, AXES, BET_IN = (600, 343), (505, 212), 0.62
#: the board's cards
BOARD_W, BOARD_H, BOARD_GAP, BOARD_Y = 60, 84, 8, 296
_RANK = {"T": "10"}
_SUIT = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
_STREET = {3: "Flop", 4: "Turn", 5: "River"}


def card_label(text: str) -> str | None:
    """A card as PHH writes it as the picture shows it; ``None`` for an unknown card (a back).

    >>> card_label("Ah"), card_label("Td"), card_label("??")
    ('A♥', '10♦', None)
    """
    if len(text) != 2 or text[1] not in _SUIT:
        return None
    return _RANK.get(text[0], text[0]) + _SUIT[text[1]]


def amount(value: Any, places: int = 0) -> str:
    """An amount as the table writes it: whole chips with thousands' commas, or dollars and
    cents to the table's ``places``.

    >>> amount(1250), amount(12.5, 2), amount(187.5, 2), amount(0)
    ('1,250', '12.50', '187.50', '0')
    """
    if value is None:
        return ""
    if places > 0:
        return f"{Decimal(str(value)):,.{places}f}"
    if isinstance(value, float) and not value.is_integer():
        return f"{Decimal(str(value)):,}"
    return f"{int(value):,}"


def annotate(steps: list[dict[str, Any]], places: int, won: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """``steps`` with what the drawing needs beside them: each step's ``places`` (the digits
    after the point the table's amounts have) and, on the last step, ``won``: what each seat
    collected from the pots (a result every view sees once the hand is over)."""
    out = [{**step, "places": places} for step in steps]
    if out and out[-1].get("last") and won:
        out[-1]["won"] = {seat: value for seat, value in won.items() if value}
    return out


def seat_points(count: int, first: int = 0) -> list[tuple[float, float]]:
    """Where ``count`` seats sit around the table, in table order (clockwise on the screen),
    seat ``first`` at the bottom in the middle: evenly spaced along the ellipse around it.

    >>> [(round(x), round(y)) for x, y in seat_points(2)]
    [(600, 555), (600, 131)]
    """
    cx, cy = CENTRE
    a, b = AXES
    samples = 720
    points = [(cx - a * math.sin(2 * math.pi * k / samples), cy + b * math.cos(2 * math.pi * k / samples))
              for k in range(samples + 1)]
    lengths = [0.0]
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        lengths.append(lengths[-1] + math.hypot(x1 - x0, y1 - y0))
    total = lengths[-1]
    out: list[tuple[float, float]] = [(0.0, 0.0)] * count
    k = 0
    for n in range(count):
        want = total * n / count
        while lengths[k + 1] < want:
            k += 1
        out[(first + n) % count] = points[k] if want - lengths[k] <= lengths[k + 1] - want else points[k + 1]
    return out


def _card(x: float, y: float, label: str | None, w: float, h: float, lit: bool = False) -> tuple[Item, ...]:
    """A card face up (``label``) or face down (``None``); a ten's three characters a size smaller."""
    if label is None:
        return card_back(x, y, w, h)
    return card(x, y, label, w=w, h=h, lit=lit, size=min(h * 0.34, w * 0.42, (w - 10) / 2.3 if len(label) > 2 else h))


def _short(name: str, room: float = 260, size: float = 22) -> str:
    """A name cut to ``room`` (at the header's size) to go inside a longer line."""
    return fit(name, size, False, room)


def _new_cards(steps: Sequence[dict[str, Any]]) -> list[str]:
    step = steps[-1]
    before = steps[-2]["board"] if len(steps) > 1 else []
    return step["board"][len(before):]


def _hand_words(hole: Sequence[str], board: Sequence[str]) -> str | None:
    """What a shown hand makes with the whole board, in words (``a flush, ace high``)."""
    cards = parse_cards("".join(hole) + "".join(board))
    if cards is None or len(cards) != 7 or None in cards:
        return None
    return describe(rank(cards))


def _blinds(step: dict[str, Any], places: int) -> str:
    posted = sorted(v for v in (step.get("blinds") or {}).values() if v)
    return "/".join(amount(v, places) for v in posted)


def caption(table: Table, steps: Sequence[dict[str, Any]]) -> str:
    """The header's words for the last of ``steps``, with the players' names."""
    step = steps[-1]
    places = step.get("places", 0)
    if step.get("last") and step.get("winners"):
        won = step.get("won") or {}
        parts = []
        for s in step["winners"]:
            gain = won.get(s)
            parts.append(f"{_short(table.name(s), 200)} wins {amount(gain, places)}" if gain else
                         f"{_short(table.name(s), 200)} wins")
        return " · ".join(parts)
    if step["kind"] == "setup" and str(step.get("text", "")).endswith("not valid"):  # the game's own words
        return f"{len(step['stacks'])} players · the setup is not valid"
    if step.get("last") and all(v is None for v in (step.get("payoffs") or {}).values()):  # not settled
        return f"{_action(table, steps)} · the hand was not finished"
    return _action(table, steps)


def _action(table: Table, steps: Sequence[dict[str, Any]]) -> str:
    """What the last of ``steps`` did, in words."""
    step = steps[-1]
    places = step.get("places", 0)
    kind, seat = step["kind"], step.get("seat")
    who = _short(table.name(seat)) if seat else ""
    if kind == "setup":
        count = len(step["stacks"])
        text = f"{count} players"
        blinds = _blinds(step, places)
        if blinds:
            text += f" · blinds {blinds}"
        antes = re.search(r"antes ([0-9.,/]+)", str(step.get("text", "")))
        if antes:
            text += f" · ante {antes.group(1)}"
        return text
    if kind == "hole":
        labels = [card_label(c) for c in step["hole"].get(seat, [])]
        if labels and None not in labels:
            return f"{who} is dealt {' '.join(str(l) for l in labels)}"
        return f"{who} is dealt two cards"
    if kind == "board":
        shown = " ".join(card_label(c) or "?" for c in _new_cards(steps))
        return f"{_STREET.get(len(step['board']), 'Board')}: {shown}"
    all_in = (" all-in" if seat in step.get("all_in", ()) and
              (len(steps) < 2 or seat not in steps[-2].get("all_in", ())) else "")
    value = amount(step.get("amount"), places)
    if kind == "fold":
        return f"{who} folds"
    if kind == "check":
        return f"{who} checks"
    if kind == "call":
        return f"{who} calls {value}{all_in}"
    if kind == "bet":
        return f"{who} bets {value}{all_in}"
    if kind == "raise":
        return f"{who} raises to {value}{all_in}"
    if kind == "muck":
        return f"{who} mucks"
    if kind == "show":
        hole = step["hole"].get(seat, [])
        labels = [card_label(c) for c in hole]
        text = f"{who} shows {' '.join(l or '?' for l in labels)}"
        words = _hand_words(hole, step["board"])
        return f"{text}: {words}" if words else text
    return f"{who} {kind}".strip()


def _sizes(count: int) -> tuple[float, float, float, float]:
    """A seat's card width and height, its plate's width and height."""
    return (56, 80, 200, 56) if count <= 6 else (48, 68, 172, 56)


def _plate(cx: float, cy: float, name: str, detail: str, to_act: bool, won: bool, w: float,
           h: float) -> list[Item]:
    """The kit's plate, its second line (the stack) as big as the name: it matters at 720 wide."""
    items = list(plate(cx, cy, name, detail, to_act=to_act, won=won, w=w, h=h))
    last = items[-1]
    if isinstance(last, Text) and last.text == detail:
        items[-1] = Text(last.x, last.y, last.text, 18, fill=last.fill, anchor=last.anchor, bold=last.bold,
                         max_width=last.max_width)
    return items


def _mucked(steps: Sequence[dict[str, Any]]) -> set[str]:
    return {s["seat"] for s in steps if s["kind"] == "muck" and s.get("seat")}


def _bet_spot(x: float, y: float, value: str, leftwards: bool) -> list[Item]:
    """Chips in front of a seat, their amount beside them on the side away from the seat's
    neighbours (``leftwards`` for a seat on the right)."""
    return [Circle(x, y, 11, fill="#f8fafc", stroke="#1e3a8a", stroke_width=3),
            Text(x - 16 if leftwards else x + 16, y, value, 20, anchor="rm" if leftwards else "lm", bold=True,
                 max_width=150)]


def _results(table: Table, step: dict[str, Any], winners: list[str], won: Mapping[str, Any],
             places: int) -> list[Item]:
    """Who won what under the board: one winner's name and amount, then what the hand made;
    several winners a line each (three at most, then how many more)."""
    board, folded = step["board"], set(step.get("folded", ()))
    lines: list[tuple[str, str]] = []
    for s in winners:
        name = _short(table.name(s), 240)
        line = f"{name} wins {amount(won[s], places)}" if won.get(s) else f"{name} wins"
        hand = _hand_words(step["hole"].get(s, []), board) if s not in folded else None
        lines.append((line, hand or ""))
    y = BOARD_Y + BOARD_H + 12
    if len(lines) == 1:
        line, hand = lines[0]
        out: list[Item] = [Text(CENTRE[0], y, line, 22, fill=HIGHLIGHT, anchor="mt", bold=True, max_width=500)]
        if hand:
            out.append(Text(CENTRE[0], y + 28, hand, 20, fill=HIGHLIGHT, anchor="mt", max_width=500))
        return out
    out = []
    for n, (line, hand) in enumerate(lines[:3]):
        text = f"{line}: {hand}" if hand and n < 3 else line
        if n == 2 and len(lines) > 3:
            text = f"{line} and {len(lines) - 3} more"
        out.append(Text(CENTRE[0], y + n * 25, text, 20, fill=HIGHLIGHT, anchor="mt", bold=True, max_width=500))
    return out


def draw(table: Table, steps: Sequence[dict[str, Any]]) -> Scene:
    """The last of ``steps`` as a picture (1200x630)."""
    step = steps[-1]
    places = step.get("places", 0)
    seats = list(step["stacks"]) or list(table.seats)
    count = len(seats)
    words = caption(table, steps)
    items: list[Item] = list(header(table.title, words))
    x, y, w, h = TABLE
    items.append(Rect(x - 12, y - 12, w + 24, h + 24, fill=RIM, radius=(h + 24) / 2))
    items.append(Rect(x, y, w, h, fill=FELT, stroke="#0f5132", stroke_width=2, radius=h / 2))

    # the board and the pots in the middle
    board = step["board"]
    left = CENTRE[0] - (5 * BOARD_W + 4 * BOARD_GAP) / 2
    new = set(_new_cards(steps)) if step["kind"] == "board" else set()
    for n in range(5):
        bx = left + n * (BOARD_W + BOARD_GAP)
        if n < len(board):
            label = card_label(board[n])
            items.extend(_card(bx, BOARD_Y, label, BOARD_W, BOARD_H, lit=board[n] in new))
        else:
            items.append(Rect(bx, BOARD_Y, BOARD_W, BOARD_H, stroke="#4ade80", stroke_width=1, radius=6))
    pots = [p for p in step.get("pots") or [] if p.get("amount")]
    if len(pots) > 1:
        pot_text = "Pots " + " · ".join(amount(p["amount"], places) for p in pots)
    else:
        pot_text = f"Pot {amount(step.get('pot', 0), places)}"
    items.append(Text(CENTRE[0], BOARD_Y - 14, pot_text, 22, anchor="mb", bold=True, max_width=640))

    last = bool(step.get("last"))
    winners = list(step.get("winners") or []) if last else []
    won = step.get("won") or {}
    if winners:
        items.extend(_results(table, step, winners, won, places))

    # the seats
    first = seats.index(table.view) if table.view in seats else 0
    points = seat_points(count, first)
    cw, ch, pw, ph = _sizes(count)
    folded, all_in, mucked = set(step.get("folded", ())), set(step.get("all_in", ())), _mucked(steps)
    for seat, (sx, sy) in zip(seats, points):
        sx = min(max(sx, pw / 2 + 10), WIDTH - pw / 2 - 10)  # a plate stays on the canvas
        top = sy - (ch + 6 + ph) / 2
        hole = step["hole"].get(seat) or []
        if seat in folded:
            items.append(Text(sx, top + ch / 2, "mucked" if seat in mucked else "folded", 18, fill=MUTED,
                              anchor="mm"))
        else:
            labels = [card_label(c) for c in hole] if hole else [None, None]
            for n, label in enumerate(labels[:2]):
                cx0 = sx - cw - 3 + n * (cw + 6)
                items.extend(_card(cx0, top, label, cw, ch))
        stack = step["stacks"].get(seat)
        detail = "all-in" if seat in all_in and not stack and not last else amount(stack, places)
        is_winner = seat in winners
        items.extend(_plate(sx, top + ch + 6 + ph / 2, table.name(seat), detail, to_act=step.get("to_act") == seat,
                            won=is_winner, w=pw, h=ph))
        if step.get("button") == seat:
            bx, by = sx + cw + 24, top + ch / 2
            items.append(Circle(bx, by, 15, fill="#f8fafc", stroke=BLACK, stroke_width=2))
            items.append(Text(bx, by, "D", 18, fill=BLACK, anchor="mm", bold=True))
        bet = step["bets"].get(seat)
        if bet:  # the bet in front of the seat
            items.extend(_bet_spot(CENTRE[0] + (sx - CENTRE[0]) * BET_IN, CENTRE[1] + (sy - CENTRE[1]) * BET_IN,
                                   amount(bet, places), sx > CENTRE[0] + 40))
    if table.view in seats:  # whose view this is, in the corner
        items.append(Text(16, 64, f"as {_short(table.name(table.view), 150, 18)} sees it", 18, fill=MUTED,
                          anchor="lt", max_width=260))
    names = ", ".join(_short(table.name(s), 200) for s in seats)
    alt = f"{table.title}: {names}. {words}"
    if table.view not in (None, PUBLIC) and table.view in seats:
        alt += f" (as {_short(table.name(table.view), 200)} saw it)"
    return Scene(items=tuple(items), alt=alt)
