"""Cards of Texas hold'em as PHH writes them, and as numbers the engine and the evaluator use.

A card is a number ``0..51``: ``rank * 4 + suit``, ranks ``23456789TJQKA`` (0..12) and suits
``cdhs`` (0..3); an unknown card (``??``, a hidden hole card) is ``None``. Readers accept the
canonical ``Ah``, and also ``10h``, upper-case suits and the suit symbols ``♣♦♥♠``; writers write
the canonical form.

>>> parse_cards("Ac2d"), parse_cards("????"), parse_cards("10h ♠k")
([48, 1], [None, None], None)
>>> parse_cards("10h K♠"), card_text(48), cards_text([48, None])
([34, 47], 'Ac', 'Ac??')
>>> parse_cards("1h")
"""

from __future__ import annotations

import re
from typing import Iterable, Sequence

RANKS = "23456789TJQKA"
SUITS = "cdhs"
#: the suit symbols readers take, and the suit letters they stand for
SYMBOLS = {"♣": "c", "♦": "d", "♥": "h", "♠": "s", "♧": "c", "♢": "d", "♡": "h", "♤": "s"}
UNKNOWN = "??"
DECK = tuple(range(52))

_TEXT = [r + s for r in RANKS for s in SUITS]
_VALUE = {text: i for i, text in enumerate(_TEXT)}
# one card in any accepted spelling: a rank (10 too) then a suit letter or symbol, or ??
_ONE = re.compile(r"\s*(\?\?|(?:10|[2-9TJQKAtjqka])[cdhsCDHS♣♦♥♠♧♢♡♤])", re.UNICODE)


def card_text(card: int | None) -> str:
    """A card number as PHH writes it (``??`` for an unknown card)."""
    return UNKNOWN if card is None else _TEXT[card]


def cards_text(cards: Iterable[int | None]) -> str:
    """Cards written one after another, as PHH writes them: ``Ac2d``."""
    return "".join(UNKNOWN if c is None else _TEXT[c] for c in cards)


def _one(token: str) -> int | None:
    if token == UNKNOWN:
        return None
    rank, suit = token[:-1], token[-1]
    rank = "T" if rank == "10" else rank.upper()
    suit = SYMBOLS.get(suit, suit.lower())
    return _VALUE[rank + suit]


def parse_cards(text: str) -> list[int | None] | None:
    """Cards written one after another (spaces allowed between them) -> their numbers (``None``
    for ``??``), or None when the text is not cards. The canonical form takes a fast path."""
    value = _VALUE
    n = len(text)
    if n % 2 == 0:  # the canonical form: two characters a card
        out = []
        for i in range(0, n, 2):
            token = text[i:i + 2]
            card = value.get(token)
            if card is None and token != UNKNOWN:
                break
            out.append(card)
        else:
            return out
    out = []
    pos = 0
    stripped = text.rstrip()
    while pos < len(stripped):
        match = _ONE.match(stripped, pos)
        if match is None:
            return None
        out.append(_one(match.group(1)))
        pos = match.end()
    return out


def rank_of(card: int) -> int:
    """0 (a two) .. 12 (an ace)."""
    return card >> 2


def suit_of(card: int) -> int:
    """0 clubs, 1 diamonds, 2 hearts, 3 spades."""
    return card & 3


def known(cards: Sequence[int | None]) -> list[int]:
    """The known cards among ``cards``."""
    return [c for c in cards if c is not None]
