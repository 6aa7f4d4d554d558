"""UNO Lite cards: four colours, numbers 1-9, two copies of each (72 cards, 36 kinds).

A card is a plain ``int``, ``colour * 9 + (number - 1)``: ``R1`` is 0, ``Y9`` is 35. Colours
are in the order red, green, blue, yellow. Writers print the canonical text ``R5``; readers
are liberal (``parse_card``):

>>> parse_card("R5"), parse_card("5r"), parse_card("red 5"), parse_card("🔴 5️⃣")
(4, 4, 4, 4)
>>> card_text(parse_card("Yellow9")), card_emoji(parse_card("b1"))
('Y9', '🔵1')
>>> playable(parse_card("R5"), parse_card("G5")), playable(parse_card("R5"), parse_card("G6"))
(True, False)
>>> parse_card("R0")
Traceback (most recent call last):
...
replay.games.uno_lite.cards.CardParseError: 'R0' is not a card
"""

from __future__ import annotations

import re
from typing import Any, Iterable

from replay.errors import ReplayError

COLOURS = "RGBY"
COLOUR_NAMES = ("red", "green", "blue", "yellow")
COLOUR_EMOJI = ("\U0001F534", "\U0001F7E2", "\U0001F535", "\U0001F7E1")  # 🔴 🟢 🔵 🟡
KINDS = 36  # distinct cards
COPIES = 2  # copies of each kind in the deck
DECK_SIZE = KINDS * COPIES  # 72
HAND_SIZE = 7

#: canonical text of every card kind, by value
CARD_TEXT: tuple[str, ...] = tuple(f"{c}{n}" for c in COLOURS for n in range(1, 10))
CARD_EMOJI: tuple[str, ...] = tuple(f"{e}{n}" for e in COLOUR_EMOJI for n in range(1, 10))
#: every card kind's colour and number, by value (for speed: no division in hot loops)
COLOUR_OF: tuple[int, ...] = tuple(k // 9 for k in range(KINDS))
NUMBER_OF: tuple[int, ...] = tuple(k % 9 + 1 for k in range(KINDS))
#: PLAYABLE_ON[top] is the frozenset of kinds that may be played on ``top``
PLAYABLE_ON: tuple[frozenset[int], ...] = tuple(
    frozenset(k for k in range(KINDS) if k // 9 == top // 9 or k % 9 == top % 9) for top in range(KINDS))
#: the same, as a sorted tuple (the engine walks it to list a hand's playable cards in order)
PLAYABLE_LIST: tuple[tuple[int, ...], ...] = tuple(tuple(sorted(s)) for s in PLAYABLE_ON)


class CardParseError(ReplayError, ValueError):
    """Text that is not an UNO Lite card (``'R0' is not a card``)."""


_COLOUR_FROM_TEXT = {c.lower(): i for i, c in enumerate(COLOURS)} | {n: i for i, n in enumerate(COLOUR_NAMES)}
_KEYCAP = re.compile("([1-9])\ufe0f?\u20e3")
_COLOUR_WORD = "(?P<{}>r|g|b|y|red|green|blue|yellow)"
_LETTERS_FIRST = re.compile(_COLOUR_WORD.format("c") + r"\s*(?P<n>[1-9])")
_NUMBER_FIRST = re.compile(r"(?P<n>[1-9])\s*" + _COLOUR_WORD.format("c"))
_EMOJI_FIRST = re.compile("(?P<e>[\U0001F534\U0001F7E2\U0001F535\U0001F7E1])\ufe0f?\\s*(?P<n>[1-9])")
_EMOJI_INDEX = {e: i for i, e in enumerate(COLOUR_EMOJI)}
_CACHE: dict[str, int] = {}


def parse_card(text: Any) -> int:
    """The card a text names, liberally read; raises ``CardParseError``.

    Accepted: the canonical ``R5``; lower case ``r5``; number first ``5R``/``5r``; colour
    words ``red 5``/``Red5``/``5 red``; a colour emoji followed by a digit or a keycap emoji
    (``🔴5``, ``🔴 5️⃣``). Spaces around and between the two parts are allowed. Nothing else
    (no zeros, no ``10``, no numbers alone, no ints: a card in a log is always text).

    >>> [card_text(parse_card(t)) for t in ("g9", "9G", "Blue 1", " yellow2 ", "🟢7", "🟡 3️⃣")]
    ['G9', 'G9', 'B1', 'Y2', 'G7', 'Y3']
    >>> parse_card("5")
    Traceback (most recent call last):
    ...
    replay.games.uno_lite.cards.CardParseError: '5' is not a card
    """
    if not isinstance(text, str):
        raise CardParseError(f"{_short_repr(text)} is not a card (a card is text, like 'R5')")
    cached = _CACHE.get(text)
    if cached is not None:
        return cached
    if len(text) > 40:
        raise CardParseError(f"{_short_repr(text)} is not a card")
    key = _KEYCAP.sub(r"\1", text.strip())
    match = _EMOJI_FIRST.fullmatch(key)
    if match:
        value = _EMOJI_INDEX[match["e"]] * 9 + int(match["n"]) - 1
    else:
        lower = key.lower()
        match = _LETTERS_FIRST.fullmatch(lower) or _NUMBER_FIRST.fullmatch(lower)
        if not match:
            raise CardParseError(f"{_short_repr(text)} is not a card")
        value = _COLOUR_FROM_TEXT[match["c"]] * 9 + int(match["n"]) - 1
    if len(_CACHE) < 4096:
        _CACHE[text] = value
    return value


def to_card(value: Any) -> int:
    """A card given as text (any spelling ``parse_card`` reads) or as a card value 0-35.

    >>> to_card(4), to_card("R5")
    (4, 4)
    """
    if isinstance(value, int) and not isinstance(value, bool):
        if 0 <= value < KINDS:
            return value
        raise CardParseError(f"{value!r} is not a card value (0-{KINDS - 1})")
    return parse_card(value)


def card_text(card: int) -> str:
    """The canonical text: ``R5``."""
    return CARD_TEXT[card]


def card_emoji(card: int) -> str:
    """The text the bots print: ``🔴5``."""
    return CARD_EMOJI[card]


def colour(card: int) -> int:
    """0 red, 1 green, 2 blue, 3 yellow."""
    return card // 9


def number(card: int) -> int:
    """1-9."""
    return card % 9 + 1


def playable(card: int, top: int) -> bool:
    """Whether ``card`` matches the colour or the number of the top discard ``top``."""
    return card // 9 == top // 9 or card % 9 == top % 9


def full_deck() -> list[int]:
    """The 72 cards, in order: ``R1, R1, R2, R2, ... Y9, Y9``.

    >>> deck = full_deck(); len(deck), card_text(deck[0]), card_text(deck[-1])
    (72, 'R1', 'Y9')
    """
    return [k for k in range(KINDS) for _ in range(COPIES)]


def cards_text(cards: Iterable[int]) -> list[str]:
    return [CARD_TEXT[c] for c in cards]


def _short_repr(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
