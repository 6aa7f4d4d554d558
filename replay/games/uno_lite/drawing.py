"""UNO Lite's picture of a step: both hands (face down where the view hides them), the draw
pile and the top of the discard pile, the card just drawn (face up only where the view saw it),
the winner at the end, and the step in the players' names in the header.

>>> from replay.picture.scene import PUBLIC, Table, Text
>>> from replay.games.uno_lite.bots import play_game
>>> from replay.games.uno_lite import GAME
>>> replay = play_game(seed=3).replay()
>>> steps = GAME.view_steps(replay, PUBLIC)
>>> table = Table("UNO Lite", ("P1", "P2"), {"P1": "Ann"}, PUBLIC)
>>> scene = draw(table, steps[:1])
>>> [i.text for i in scene.items if isinstance(i, Text)][:3]
['UNO Lite', 'The deal: green 3 starts the pile, Ann plays first', 'P2']
>>> caption(table, steps[:5]), caption(table, steps[:6])
('P2 draws a card', 'P2 passes')
>>> caption(Table("UNO Lite", ("P1", "P2"), {"P2": "Bob"}, "P2"), GAME.view_steps(replay, "P2")[:5])
'Bob draws green 6'
"""

from __future__ import annotations

from typing import Any, Sequence

from ...picture.kit import card, card_back, header, plate
from ...picture.scene import BLACK, HIGHLIGHT, INK, MUTED, Item, Rect, Scene, Table, Text

#: a card's face colour by its colour letter
FACES = {"R": "#dc2626", "G": "#16a34a", "B": "#2563eb", "Y": "#eab308"}
COLOUR_NAMES = {"R": "red", "G": "green", "B": "blue", "Y": "yellow"}
CARD_W, CARD_H = 56, 80
#: a hand shows at most this many cards, then ``+n``
MAX_SHOWN = 16
#: a name in a caption is cut to this many characters (the header cuts the whole line too)
NAME_CHARS = 16
#: where each seat sits, by its place in the table's order: (plate centre y, hand top y)
TOP, BOTTOM = (90, 122), (580, 452)
PILE_X, DISCARD_X, DRAWN_X, PILE_Y = 400, 744, 572, 266


def public_steps(open_steps: list[dict[str, Any]], by_seat: dict[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """The onlooker's steps: each step as the seat that did not act saw it (so a card drawn
    is not named), with both hands hidden."""
    out = []
    for n, step in enumerate(open_steps):
        other = next((s for s in by_seat if s != step["seat"]), None)
        seen = dict(by_seat[other][n]) if other is not None else dict(step)
        seen["hands"] = {seat: None for seat in step["hands"]}
        out.append(seen)
    return out


def shown(code: str) -> str:
    """A card in words: ``G6`` -> ``green 6``."""
    return f"{COLOUR_NAMES.get(code[:1], code[:1])} {code[1:]}"


def _short(name: str) -> str:
    return name if len(name) <= NAME_CHARS else name[:NAME_CHARS - 1] + "…"


def caption(table: Table, steps: Sequence[dict[str, Any]]) -> str:
    """The header's line for the last of ``steps``, in the players' names."""
    step = steps[-1]
    kind = step["kind"]
    who = _short(table.name(step["seat"])) if step.get("seat") else ""
    if kind == "deal":
        text = f"The deal: {shown(step['top'])} starts the pile"
        if step.get("to_act"):
            text += f", {_short(table.name(step['to_act']))} plays first"
        return text
    if kind == "play":
        text = f"{who} plays {shown(step['card'])}"
        return text + " and wins" if step.get("winner") == step["seat"] else text
    if kind == "draw":
        text = f"{who} draws {shown(step['drawn']) if step.get('drawn') else 'a card'}"
        return ("The discard pile becomes the draw pile; " + text) if step.get("reshuffled") else text
    return f"{who} passes"


def _uno_card(x: float, y: float, code: str, lit: bool = False) -> tuple[Item, ...]:
    return card(x, y, code[1:], colour="#ffffff", face=FACES.get(code[:1], "#6b7280"), lit=lit,
                w=CARD_W, h=CARD_H)


def _hand(y: float, cards: list[str] | None, count: int, drawn: str | None) -> list[Item]:
    items: list[Item] = []
    n_shown = min(count, MAX_SHOWN)
    step = min(CARD_W + 6, 900 / max(1, n_shown))
    x0 = 600 - (step * (n_shown - 1) + CARD_W) / 2
    lit_done = False
    for n in range(n_shown):
        x = x0 + n * step
        if cards is None:
            items.extend(card_back(x, y, CARD_W, CARD_H))
        else:
            lit = not lit_done and cards[n] == drawn
            lit_done = lit_done or lit
            items.extend(_uno_card(x, y, cards[n], lit=lit))
    if count > MAX_SHOWN:
        items.append(Text(x0 + step * (n_shown - 1) + CARD_W + 10, y + CARD_H / 2, f"+{count - MAX_SHOWN}", 22,
                          fill=MUTED, anchor="lm"))
    return items


def draw(table: Table, steps: Sequence[dict[str, Any]]) -> Scene:
    """The last of ``steps`` as a picture (1200x630)."""
    step = steps[-1]
    text = caption(table, steps)
    items: list[Item] = list(header(table.title, text))
    seats = list(table.seats)
    top_seat, bottom_seat = seats[1], seats[0]
    if table.view in seats:  # a seat sees its own hand at the bottom
        bottom_seat, top_seat = table.view, next(s for s in seats if s != table.view)
    winner = step.get("winner")
    drawing = step["kind"] == "draw"
    for seat, (plate_y, hand_y) in ((top_seat, TOP), (bottom_seat, BOTTOM)):
        count = step["hand_sizes"][seat]
        items.extend(plate(600, plate_y, table.name(seat), to_act=step.get("to_act") == seat, won=winner == seat))
        items.append(Text(722, plate_y, f"{count} card{'s' if count != 1 else ''}", 20, fill=INK, anchor="lm"))
        drawn = step.get("drawn") if drawing and step["seat"] == seat else None
        items.extend(_hand(hand_y, step["hands"][seat], count, drawn))
    # the draw pile, the card just drawn, the discard pile
    items.append(Text(PILE_X + CARD_W / 2, PILE_Y - 8, "draw pile", 18, fill=MUTED, anchor="mb"))
    if step["pile_size"]:
        items.extend(card_back(PILE_X, PILE_Y, CARD_W, CARD_H))
    else:
        items.append(Rect(PILE_X, PILE_Y, CARD_W, CARD_H, stroke=MUTED, stroke_width=2, radius=6))
    items.append(Text(PILE_X + CARD_W / 2, PILE_Y + CARD_H + 8, f"{step['pile_size']} left", 18, fill=MUTED,
                      anchor="mt"))
    items.append(Text(DISCARD_X + CARD_W / 2, PILE_Y - 8, "discard", 18, fill=MUTED, anchor="mb"))
    items.extend(_uno_card(DISCARD_X, PILE_Y, step["top"], lit=step["kind"] == "play"))
    if drawing:
        drawn = step.get("drawn")
        items.extend(_uno_card(DRAWN_X, PILE_Y, drawn, lit=True) if drawn else card_back(DRAWN_X, PILE_Y, CARD_W, CARD_H))
        items.append(Text(DRAWN_X + CARD_W / 2, PILE_Y + CARD_H + 8, f"{_short(table.name(step['seat']))} drew", 18,
                          fill=HIGHLIGHT, anchor="mt", max_width=190))
    if winner:
        items.append(Rect(420, 388, 360, 50, fill=HIGHLIGHT, radius=12))
        items.append(Text(600, 413, f"{table.name(winner)} wins", 28, fill=BLACK, anchor="mm", bold=True,
                          max_width=340))
    names = ", ".join(_short(table.name(s)) for s in table.seats)
    return Scene(items=tuple(items), alt=f"{table.title} ({names}), step {step['i']}: {text}")
