"""Texas hold'em hand values: the best five-card hand among 5, 6 or 7 cards, as one number.

``rank(cards)`` takes card numbers (``replay.games.holdem.cards``: ``rank * 4 + suit``) and
returns an ``int``: higher is a better hand, equal numbers are a tie (split pot). The number is
``category << 20`` followed by five 4-bit nibbles, the ranks (0 a two .. 12 an ace) that decide
within the category, most significant first: ``CATEGORIES[value >> 20]`` names the category and
``describe(value)`` says the hand in words.

The pure-Python path works on bit masks: one 13-bit mask of ranks per suit; a rank held at least
twice, three times or four times is an AND of those masks, so a hand is a handful of integer
operations and table look-ups (no sorting, no combinations). When the optional C extension
``replay.games.holdem._native`` imports, ``rank`` is its evaluator (same numbers, tested equal);
``rank_python`` is always the pure-Python one.

>>> from replay.games.holdem.cards import parse_cards
>>> describe(rank(parse_cards("KsKd7h7c2s")))
'two pair, kings and sevens'
>>> describe(rank(parse_cards("AhJh9h4h2hKsKd")))
'a flush, ace high'
>>> describe(rank(parse_cards("As2d3c4h5s9d")))
'a straight, five high'
>>> rank(parse_cards("AsKd")) # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: a hand is 5, 6 or 7 cards, not 2
>>> rank(parse_cards("KsKd7h7c2s")) > rank(parse_cards("KhKc7s7d"+"Qs"))
False
>>> rank(parse_cards("KsKd7h7c2s")) == rank(parse_cards("KhKc7s7d2d"))
True
"""

from __future__ import annotations

from types import SimpleNamespace

from typing import Sequence

#: category names, indexed by ``value >> 20``
CATEGORIES = (
    "high card",
    "one pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
)

HIGH_CARD, ONE_PAIR, TWO_PAIR, THREE_OF_A_KIND, STRAIGHT, FLUSH, FULL_HOUSE, FOUR_OF_A_KIND, STRAIGHT_FLUSH = range(9)

_NAMES = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace")
_PLURALS = tuple(name + ("es" if name == "six" else "s") for name in _NAMES)


def _tables():
    size = 1 << 13
    high = [-1] * size  # the highest rank in a mask
    pop = [0] * size  # how many ranks
    top1 = [0] * size  # the top k ranks packed in k nibbles, highest first
    top2 = [0] * size
    top3 = [0] * size
    top5 = [0] * size
    straight = [-1] * size  # the top rank of the highest straight in a mask, -1 if none
    for mask in range(1, size):
        ranks = [r for r in range(12, -1, -1) if mask >> r & 1]
        high[mask] = ranks[0]
        pop[mask] = len(ranks)
        for table, k in ((top1, 1), (top2, 2), (top3, 3), (top5, 5)):
            value = 0
            for i in range(k):
                value = value << 4 | (ranks[i] if i < len(ranks) else 0)
            table[mask] = value
        for top in range(12, 2, -1):
            need = (0b11111 << (top - 4)) if top >= 4 else (0b1111 | 1 << 12)  # 3 = the wheel A2345
            if mask & need == need:
                straight[mask] = top
                break
    return high, pop, top1, top2, top3, top5, straight


_HIGH, _POP, _TOP1, _TOP2, _TOP3, _TOP5, _STRAIGHT = _tables()
del _TOP1  # HIGH does its work


def rank_python(cards: Sequence[int]) -> int:
    """The value of the best five-card hand among ``cards`` (5, 6 or 7 distinct card numbers)."""
    n = len(cards)
    if n < 5 or n > 7:
        raise ValueError(f"a hand is 5, 6 or 7 cards, not {n}")
    s0 = s1 = s2 = s3 = 0
    for c in cards:
        suit = c & 3
        if suit == 0:
            s0 |= 1 << (c >> 2)
        elif suit == 1:
            s1 |= 1 << (c >> 2)
        elif suit == 2:
            s2 |= 1 << (c >> 2)
        else:
            s3 |= 1 << (c >> 2)
    pop = _POP
    m1 = s0 | s1 | s2 | s3
    if m1 >> 13 or pop[s0] + pop[s1] + pop[s2] + pop[s3] != n:
        raise ValueError(f"cards must be distinct numbers 0..51: {list(cards)}")
    return _value(s0, s1, s2, s3)


def _value(s0: int, s1: int, s2: int, s3: int) -> int:
    """The value of the best five of the cards in four suit masks (13 bits each, 7 cards at most)."""
    pop = _POP
    # a flush excludes four of a kind and a full house in 7 cards or fewer
    for s in (s0, s1, s2, s3):
        if pop[s] >= 5:
            top = _STRAIGHT[s]
            if top >= 0:
                return STRAIGHT_FLUSH << 20 | top << 16
            return FLUSH << 20 | _TOP5[s]
    m1 = s0 | s1 | s2 | s3
    a01 = s0 & s1
    a23 = s2 & s3
    m2 = a01 | a23 | ((s0 | s1) & (s2 | s3))
    if not m2:  # no pair
        top = _STRAIGHT[m1]
        if top >= 0:
            return STRAIGHT << 20 | top << 16
        return _TOP5[m1]
    high = _HIGH
    quads = a01 & a23
    if quads:
        q = high[quads]
        return FOUR_OF_A_KIND << 20 | q << 16 | high[m1 ^ (1 << q)] << 12
    m3 = (a01 & (s2 | s3)) | (a23 & (s0 | s1))
    if m3:
        t = high[m3]
        bit = 1 << t
        rest = m2 ^ bit
        if rest:
            return FULL_HOUSE << 20 | t << 16 | high[rest] << 12
        top = _STRAIGHT[m1]
        if top >= 0:
            return STRAIGHT << 20 | top << 16
        return THREE_OF_A_KIND << 20 | t << 16 | _TOP2[m1 ^ bit] << 8
    top = _STRAIGHT[m1]
    if top >= 0:
        return STRAIGHT << 20 | top << 16
    p = high[m2]
    bit = 1 << p
    rest = m2 ^ bit
    if rest:
        q = high[rest]
        bits = bit | 1 << q
        return TWO_PAIR << 20 | p << 16 | q << 12 | high[m1 & ~bits] << 8
    return ONE_PAIR << 20 | p << 16 | _TOP3[m1 ^ bit] << 4


def category(value: int) -> str:
    """The category's name: ``"two pair"``."""
    return CATEGORIES[value >> 20]


def describe(value: int) -> str:
    """A hand value in words: ``"two pair, kings and sevens"``, ``"a flush, ace high"``."""
    cat = value >> 20
    if not 0 <= cat <= STRAIGHT_FLUSH:
        raise ValueError(f"not a hand value: {value}")
    n1, n2 = value >> 16 & 15, value >> 12 & 15
    if cat == HIGH_CARD:
        return f"high card, {_NAMES[n1]}"
    if cat == ONE_PAIR:
        return f"a pair of {_PLURALS[n1]}"
    if cat == TWO_PAIR:
        return f"two pair, {_PLURALS[n1]} and {_PLURALS[n2]}"
    if cat == THREE_OF_A_KIND:
        return f"three of a kind, {_PLURALS[n1]}"
    if cat == STRAIGHT:
        return f"a straight, {_NAMES[n1]} high"
    if cat == FLUSH:
        return f"a flush, {_NAMES[n1]} high"
    if cat == FULL_HOUSE:
        return f"a full house, {_PLURALS[n1]} full of {_PLURALS[n2]}"
    if cat == FOUR_OF_A_KIND:
        return f"four of a kind, {_PLURALS[n1]}"
    if n1 == 12:
        return "a royal flush"
    return f"a straight flush, {_NAMES[n1]} high"


try:  # the C extension, a module beside this one (``from . import`` would name the package)
    from ._native import rank as _native_rank, showdowns as _native_showdowns
except ImportError:  # not built (no C compiler at install): the pure-Python code, same answers
    _native = None
else:
    _native = SimpleNamespace(rank=_native_rank, showdowns=_native_showdowns)

#: "native" (the C extension) or "python"
BACKEND = "native" if _native is not None else "python"
rank = _native.rank if _native is not None else rank_python
