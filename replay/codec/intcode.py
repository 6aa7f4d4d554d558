"""Game-neutral integer coding: mixed-radix digits, combination ranks, base 62 text.

A code is one integer built from digits, each with its own radix (the number of options that
were open at that point). ``DigitWriter`` collects ``(digit, radix)`` pairs; the first digit
written is the least significant, so ``DigitReader`` reads them back in the same order with
``divmod``. Nothing here knows about any game: every game reuses it as it is.

>>> w = DigitWriter()
>>> w.put(2, 3); w.put(4, 7)
>>> value = w.value()
>>> value
14
>>> r = DigitReader(value)
>>> r.get(3), r.get(7), r.value
(2, 4, 0)
>>> rank_subset([1, 3], 5), unrank_subset(rank_subset([1, 3], 5), 2, 5)
(4, [1, 3])
"""

from __future__ import annotations

from functools import lru_cache
from math import comb, log2

#: URL-safe, chat-safe: digits and ASCII letters only (no ``-``, ``_``, ``~``, ``.``).
ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
BASE = len(ALPHABET)
CHAR_VALUE: dict[str, int] = {ch: i for i, ch in enumerate(ALPHABET)}

#: ``BINOMIAL[n][k]`` for 0 <= k <= n <= 52.
BINOMIAL: tuple[tuple[int, ...], ...] = tuple(tuple(comb(n, k) for k in range(n + 1)) for n in range(53))


class DigitWriter:
    """Collects digits, least significant first; ``value()`` packs them into one integer."""

    __slots__ = ("digits",)

    def __init__(self) -> None:
        self.digits: list[tuple[int, int]] = []

    def put(self, digit: int, radix: int) -> None:
        """One choice: ``digit`` among ``radix`` options (a radix of 1 costs nothing)."""
        if not 0 <= digit < radix:
            raise ValueError(f"digit {digit} out of range for radix {radix}")
        if radix > 1:
            self.digits.append((digit, radix))

    def value(self) -> int:
        value = 0
        for digit, radix in reversed(self.digits):
            value = value * radix + digit
        return value

    def bits(self) -> float:
        """log2 of the product of the radices: what the digits cost."""
        return sum(log2(r) for _, r in self.digits)


class DigitReader:
    """Reads digits back from an integer in the order they were written."""

    __slots__ = ("value",)

    def __init__(self, value: int) -> None:
        self.value = value

    def get(self, radix: int) -> int:
        if radix <= 1:
            return 0
        self.value, digit = divmod(self.value, radix)
        return digit


def rank_subset(members: list[int], n: int) -> int:
    """The rank of a sorted k-subset of ``range(n)`` among all k-subsets (combinadic).

    Ranks run from 0 to ``C(n, k) - 1``.
    """
    rank = 0
    for i, member in enumerate(members, start=1):
        rank += BINOMIAL[member][i] if member >= i else 0
    return rank


def unrank_subset(rank: int, k: int, n: int) -> list[int]:
    """The sorted k-subset of ``range(n)`` with the given rank (inverse of ``rank_subset``)."""
    out = [0] * k
    candidate = n - 1
    for i in range(k, 0, -1):
        # the largest candidate with C(candidate, i) <= rank
        while candidate >= i and BINOMIAL[candidate][i] > rank:
            candidate -= 1
        if candidate >= i:
            rank -= BINOMIAL[candidate][i]
        out[i - 1] = candidate
        candidate -= 1
    return out


def to_base62(value: int) -> str:
    """Digits of a non-negative integer, most significant first; 0 is the empty string."""
    if value < 0:
        raise ValueError("negative value")
    chunks = []
    alphabet = ALPHABET
    while value:
        value, digit = divmod(value, BASE)
        chunks.append(alphabet[digit])
    return "".join(reversed(chunks))


@lru_cache(maxsize=256)
def _power62(n: int) -> int:
    return BASE ** n


def from_base62(text: str) -> int:
    """The integer whose base-62 digits (most significant first) a text of code characters is
    (``KeyError`` for any other character). Long texts are split in halves, so a code of
    thousands of characters costs a few large multiplications, not one per character."""
    if len(text) <= 48:
        value = 0
        for ch in text:
            value = value * BASE + CHAR_VALUE[ch]
        return value
    low = len(text) // 2
    return from_base62(text[:-low]) * _power62(low) + from_base62(text[-low:])


# --- multisets: a hand of cards where a deck holds several copies of each kind ----------------

@lru_cache(maxsize=4096)
def _count(capacities: tuple[int, ...], start: int, size: int) -> int:
    """How many multisets of ``size`` cards use kinds ``start..`` within their capacities."""
    if size == 0:
        return 1
    if start == len(capacities):
        return 0
    return sum(_count(capacities, start + 1, size - j) for j in range(min(capacities[start], size) + 1))


def multisets(counts: list[int], size: int) -> int:
    """How many multisets of ``size`` items there are with at most ``counts[k]`` of item ``k``.

    >>> multisets([2, 1], 2)  # {0,0} {0,1}
    2
    """
    return _count(tuple(counts), 0, size)


def rank_multiset(cards: list[int], counts: list[int]) -> int:
    """The rank of a multiset (sorted or not) among those of its size within ``counts``."""
    caps = tuple(counts)
    have = [0] * len(caps)
    for c in cards:
        have[c] += 1
    rank, left = 0, len(cards)
    for kind in range(len(caps)):
        # multisets that take fewer of this kind come first
        for fewer in range(have[kind]):
            rank += _count(caps, kind + 1, left - fewer)
        left -= have[kind]
    return rank


def unrank_multiset(rank: int, size: int, counts: list[int]) -> list[int]:
    """The sorted multiset of ``size`` items whose rank is ``rank`` (``rank_multiset``'s inverse);
    ``ValueError`` for a rank out of range.

    >>> unrank_multiset(rank_multiset([3, 0, 0], [2, 2, 2, 2]), 3, [2, 2, 2, 2])
    [0, 0, 3]
    """
    caps = tuple(counts)
    out: list[int] = []
    left = size
    for kind in range(len(caps)):
        for take in range(min(caps[kind], left) + 1):
            block = _count(caps, kind + 1, left - take)
            if rank < block:
                out.extend([kind] * take)
                left -= take
                break
            rank -= block
        else:  # pragma: no cover - rank out of range
            raise ValueError("rank out of range")
    if left:
        raise ValueError("rank out of range")
    return out
