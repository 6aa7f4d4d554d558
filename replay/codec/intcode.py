"""Game-neutral integer coding: mixed-radix digits, combination ranks, base 62 text.

A code is one integer built from digits, each with its own radix (the number of options that
were open at that point). ``DigitWriter`` collects ``(digit, radix)`` pairs; the first digit
written is the least significant, so ``DigitReader`` reads them back in the same order with
``divmod``. Nothing here knows about bridge: another game can reuse it as it is.

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
from math import comb

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
        from math import log2

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
