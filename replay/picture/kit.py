"""Shapes every game's drawing shares: cards face up and face down, name plates, the header.

Each function returns a tuple of shapes (``replay.picture.scene``) to add to a scene, so the
games' pictures look alike: the same cards, the same plates, the same header.

>>> items = card(10, 20, "A♠", colour=BLACK)
>>> [type(i).__name__ for i in items], items[1].text
(['Rect', 'Text'], 'A♠')
>>> len(card_back(10, 20)), plate(600, 40, "Ann", to_act=True)[0].stroke == HIGHLIGHT
(2, True)
"""

from __future__ import annotations

from .scene import (BLACK, CARD, CARD_BACK, CARD_EDGE, HIGHLIGHT, INK, MUTED, PANEL, RED, Item, Rect,
                    Table, Text, WIDTH)
from .text import fit

#: a card's size on the canvas (a game may pass its own)
CARD_W, CARD_H = 56, 80
#: a name plate's size
PLATE_W, PLATE_H = 220, 44


def suit_colour(text: str) -> str:
    """Red for hearts and diamonds, black otherwise.

    >>> suit_colour("Q♥"), suit_colour("10♣")
    ('#c81e1e', '#111827')
    """
    return RED if any(s in text for s in "♥♦") else BLACK


def card(x: float, y: float, label: str, colour: str | None = None, w: float = CARD_W, h: float = CARD_H,
         face: str = CARD, lit: bool = False, size: float | None = None) -> tuple[Item, ...]:
    """A card face up with ``label`` (``A♠``, ``R5``, ``Duke``) in the middle; ``lit`` rings it
    (the card just played, a winning card)."""
    edge = HIGHLIGHT if lit else CARD_EDGE
    return (Rect(x, y, w, h, fill=face, stroke=edge, stroke_width=3 if lit else 1, radius=6),
            Text(x + w / 2, y + h / 2, label, size or min(h * 0.34, w * (0.34 if len(label) > 2 else 0.42)),
                 fill=colour or suit_colour(label), anchor="mm", bold=True, max_width=w - 4))


def card_back(x: float, y: float, w: float = CARD_W, h: float = CARD_H) -> tuple[Item, ...]:
    """A card face down."""
    return (Rect(x, y, w, h, fill=CARD_BACK, stroke=CARD_EDGE, radius=6),
            Rect(x + 5, y + 5, w - 10, h - 10, stroke="#93c5fd", stroke_width=1, radius=4))


def fan(x: float, y: float, labels: list[str | None], step: float = 30, w: float = CARD_W,
        h: float = CARD_H) -> tuple[Item, ...]:
    """Cards side by side from ``x`` (overlapping when ``step < w``); ``None`` is a card back."""
    out: list[Item] = []
    for n, label in enumerate(labels):
        out.extend(card_back(x + n * step, y, w, h) if label is None else card(x + n * step, y, label, w=w, h=h))
    return tuple(out)


def plate(cx: float, cy: float, name: str, detail: str = "", to_act: bool = False, won: bool = False,
          w: float = PLATE_W, h: float = PLATE_H) -> tuple[Item, ...]:
    """A player's name plate centred on (``cx``, ``cy``): the name, cut to fit, and a second
    line ``detail`` (a count, a score); ringed for the seat to act, gold for a winner."""
    x, y = cx - w / 2, cy - h / 2
    items: list[Item] = [Rect(x, y, w, h, fill=HIGHLIGHT if won else PANEL,
                              stroke=HIGHLIGHT if to_act or won else None, stroke_width=3, radius=8)]
    ink = BLACK if won else INK
    if detail:
        items.append(Text(cx, y + 4, name, 18, fill=ink, anchor="mt", bold=True, max_width=w - 12))
        items.append(Text(cx, y + h - 4, detail, 14, fill=BLACK if won else MUTED, anchor="mb", max_width=w - 12))
    else:
        items.append(Text(cx, cy, name, 20, fill=ink, anchor="mm", bold=True, max_width=w - 12))
    return tuple(items)


def header(title: str, caption: str = "", height: float = 56) -> tuple[Item, ...]:
    """The bar across the top: the game's title on the left, ``caption`` (the step: ``Trick 3:
    Ann plays Q♥``) on the right."""
    items: list[Item] = [Rect(0, 0, WIDTH, height, fill=PANEL),
                         Text(24, height / 2, title, 26, anchor="lm", bold=True, max_width=420)]
    if caption:
        items.append(Text(WIDTH - 24, height / 2, caption, 22, fill=MUTED, anchor="rm", max_width=WIDTH - 500))
    return tuple(items)


def short_name(table: Table, seat: str, width: float = 400, size: float = 20) -> str:
    """``seat``'s player's name cut to ``width`` at ``size`` bold: for names inside a sentence or
    an alt text (a name as long as a book costs the scene nothing).

    >>> short_name(Table("Coup", ("1",), {"1": "x" * 10_000}), "1", width=100).endswith("…")
    True
    """
    return fit(table.name(seat), size, True, width)
