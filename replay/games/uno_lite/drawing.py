"""UNO Lite's picture of a step: both hands (face down where the view hides them), the top of
the discard pile, the draw pile, and what happened.

>>> from replay.picture.scene import PUBLIC, Table, Text
>>> from replay.games.uno_lite.bots import play_game
>>> from replay.games.uno_lite import GAME
>>> replay = play_game(seed=3).replay()
>>> steps = GAME.view_steps(replay, PUBLIC)
>>> scene = draw(Table("UNO Lite", ("P1", "P2"), {"P1": "Ann"}, PUBLIC), steps[:1])
>>> [i.text for i in scene.items if isinstance(i, Text)][:3]
['UNO Lite', 'P2', '7 cards']
"""

from __future__ import annotations

from typing import Any, Sequence

from ...picture.kit import CARD_H, CARD_W, card, card_back, header, plate
from ...picture.scene import HIGHLIGHT, INK, MUTED, PUBLIC, Item, Rect, Scene, Table, Text

#: a card's face colour by its colour letter
FACES = {"R": "#dc2626", "G": "#16a34a", "B": "#2563eb", "Y": "#eab308"}
MAX_SHOWN = 16


def public_steps(open_steps: list[dict[str, Any]], by_seat: dict[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """The onlooker's steps: no hand open, a drawn card named only... never (each step as the
    seat that did not act saw it, with both hands hidden)."""
    out = []
    for n, step in enumerate(open_steps):
        other = next((s for s in by_seat if s != step["seat"]), None)
        seen = dict(by_seat[other][n]) if other is not None else dict(step)
        seen["hands"] = {seat: None for seat in step["hands"]}
        out.append(seen)
    return out


def _uno_card(x: float, y: float, code: str, lit: bool = False) -> tuple[Item, ...]:
    return card(x, y, code[1:], colour="#ffffff", face=FACES.get(code[:1], "#6b7280"), lit=lit)


def _hand(y: float, cards: list[str] | None, count: int) -> list[Item]:
    items: list[Item] = []
    shown = min(count, MAX_SHOWN)
    step = min(CARD_W + 6, 900 / max(1, shown))
    x0 = 600 - (step * (shown - 1) + CARD_W) / 2
    for n in range(shown):
        if cards is None:
            items.extend(card_back(x0 + n * step, y))
        else:
            items.extend(_uno_card(x0 + n * step, y, cards[n]))
    if count > MAX_SHOWN:
        items.append(Text(x0 + step * shown + CARD_W + 10, y + CARD_H / 2, f"+{count - MAX_SHOWN}", 20,
                          fill=MUTED, anchor="lm"))
    return items


def draw(table: Table, steps: Sequence[dict[str, Any]]) -> Scene:
    """The last of ``steps`` as a picture (1200x630)."""
    step = steps[-1]
    items: list[Item] = list(header(table.title, step["text"] if step["i"] else ""))
    top_seat, bottom_seat = table.seats[1], table.seats[0]
    for seat, plate_y, hand_y in ((top_seat, 100, 130), (bottom_seat, 590, 480)):
        count = step["hand_sizes"][seat]
        won = step.get("winner") == seat
        items.extend(plate(600 if seat == top_seat else 600, plate_y, table.name(seat),
                           f"{count} card{'s' if count != 1 else ''}", to_act=step["to_act"] == seat, won=won))
        items.extend(_hand(hand_y if seat == top_seat else hand_y - 0, step["hands"][seat], count))
    # the draw pile and the discard pile in the middle
    items.extend(card_back(480, 275))
    items.append(Text(508, 370, f"{step['pile_size']}", 18, fill=MUTED, anchor="mt"))
    items.extend(_uno_card(660, 275, step["top"], lit=step["kind"] == "play"))
    if step["kind"] == "draw":
        drawn = step.get("drawn")
        items.append(Text(600, 400, "drew " + (drawn or "a card"), 20, fill=HIGHLIGHT if drawn else INK, anchor="mt"))
    alt = f"{table.title}: {', '.join(table.name(s) for s in table.seats)}, step {step['i']}"
    return Scene(items=tuple(items), alt=alt)
