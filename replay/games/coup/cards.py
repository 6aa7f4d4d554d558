"""Coup's court deck: five characters, three cards of each (15 cards).

A card is a plain ``int``, the character's place in ``CARD_TEXT`` (``D`` Duke 0, ``A`` Assassin 1,
``B`` Ambassador 2, ``C`` Captain 3, ``E`` Contessa 4). Writers print the letter CoupBots uses;
readers also take the full name, in any case (``parse_card``):

>>> parse_card("D"), parse_card("duke"), parse_card(" Contessa "), card_name(parse_card("b"))
(0, 0, 4, 'Ambassador')
>>> parse_card("King")
Traceback (most recent call last):
...
replay.games.coup.cards.CardParseError: 'King' is not a Coup card (D, A, B, C, E or a character's name)

Actions are letters too (``parse_action``): ``I`` income, ``F`` foreign aid, ``C`` coup, ``T``
tax, ``A`` assassinate, ``S`` steal, ``X`` exchange.

>>> parse_action("t"), parse_action("Foreign aid"), ACTION_CLAIM["S"], BLOCKS["S"]
('T', 'F', 3, (3, 2))
"""

from __future__ import annotations

from typing import Any

from replay.errors import ReplayError

CARD_TEXT: tuple[str, ...] = ("D", "A", "B", "C", "E")
CARD_NAMES: tuple[str, ...] = ("Duke", "Assassin", "Ambassador", "Captain", "Contessa")
KINDS = 5
COPIES = 3
DECK_SIZE = KINDS * COPIES  # 15
HAND_SIZE = 2
START_COINS = 2
DUKE, ASSASSIN, AMBASSADOR, CAPTAIN, CONTESSA = range(5)

#: action letters in the spec's table order (the canonical order of ``legal()``)
ACTIONS: tuple[str, ...] = ("I", "F", "C", "T", "A", "S", "X")
ACTION_NAMES = {"I": "income", "F": "foreign aid", "C": "coup", "T": "tax", "A": "assassinate",
                "S": "steal", "X": "exchange"}
#: the character an action claims (income, foreign aid and coup claim none)
ACTION_CLAIM: dict[str, int] = {"T": DUKE, "A": ASSASSIN, "S": CAPTAIN, "X": AMBASSADOR}
#: the cards that block an action, in the order ``legal()`` lists them
BLOCKS: dict[str, tuple[int, ...]] = {"F": (DUKE,), "A": (CONTESSA,), "S": (CAPTAIN, AMBASSADOR)}
TARGETED = frozenset("CAS")
COST = {"C": 7, "A": 3}
MUST_COUP = 10


class CardParseError(ReplayError, ValueError):
    """Text that is not a Coup card or action."""


_CARD_FROM_TEXT = {t.lower(): i for i, t in enumerate(CARD_TEXT)} | {n.lower(): i for i, n in enumerate(CARD_NAMES)}
_ACTION_FROM_TEXT = {a.lower(): a for a in ACTIONS} | {n: a for a, n in ACTION_NAMES.items()} | {
    "foreign_aid": "F", "foreignaid": "F", "assassination": "A", "assassinate": "A", "exchange": "X"}


def _short_repr(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def parse_card(text: Any) -> int:
    """The card a text names: its letter or its character's name, any case, spaces around."""
    if isinstance(text, str) and len(text) <= 40:
        value = _CARD_FROM_TEXT.get(text.strip().lower())
        if value is not None:
            return value
    raise CardParseError(f"{_short_repr(text)} is not a Coup card (D, A, B, C, E or a character's name)")


def to_card(value: Any) -> int:
    """A card given as text or as a card value 0-4."""
    if isinstance(value, int) and not isinstance(value, bool):
        if 0 <= value < KINDS:
            return value
        raise CardParseError(f"{value!r} is not a card value (0-4)")
    return parse_card(value)


def parse_action(text: Any) -> str:
    """The action letter a text names: its letter or its name, any case."""
    if isinstance(text, str) and len(text) <= 40:
        value = _ACTION_FROM_TEXT.get(text.strip().lower())
        if value is not None:
            return value
    raise CardParseError(f"{_short_repr(text)} is not a Coup action (I, F, C, T, A, S or X)")


def card_text(card: int) -> str:
    return CARD_TEXT[card]


def card_name(card: int) -> str:
    return CARD_NAMES[card]


def full_deck() -> list[int]:
    """The 15 cards in order: ``D D D A A A ... E E E``."""
    return [k for k in range(KINDS) for _ in range(COPIES)]
