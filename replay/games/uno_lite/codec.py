"""UNO Lite's setup in a replay code: the first player, both hands and the starter.

Each hand is a multiset of 7 of the 36 card kinds, at most two of each (fewer once the first
hand took some), written as its rank among all such multisets; the starter is an index among
the kinds still left. That is exactly the information bound of the deal, so the code of a game
is within rounding of the bound plus the end digits, the checksum and the marker
(``replay/codec/generic.py`` writes the moves).

>>> counts = [2] * 36
>>> hand = [0, 0, 5, 9, 9, 20, 35]
>>> rank = rank_multiset(hand, counts)
>>> unrank_multiset(rank, 7, counts) == hand
True
"""

from __future__ import annotations

from functools import lru_cache
from math import log2
from typing import Any

from .cards import CARD_TEXT, COPIES, KINDS

HAND_SIZE = 7


@lru_cache(maxsize=4096)
def _count(capacities: tuple[int, ...], start: int, size: int) -> int:
    """How many multisets of ``size`` cards use kinds ``start..`` within their capacities."""
    if size == 0:
        return 1
    if start == len(capacities):
        return 0
    return sum(_count(capacities, start + 1, size - j) for j in range(min(capacities[start], size) + 1))


def multisets(counts: list[int], size: int) -> int:
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


class SetupCodec:
    """Writes and reads the setup of an UNO Lite log as mixed-radix digits."""

    def write(self, w, log) -> None:
        w.put(0 if log.first_player == "P1" else 1, 2)
        counts = [COPIES] * KINDS
        for hand in (log.hands.P1, log.hands.P2):
            if len(hand) != HAND_SIZE:
                raise ValueError("a compact UNO Lite code needs 7-card hands")
            w.put(rank_multiset(list(hand), counts), multisets(counts, HAND_SIZE))
            for c in hand:
                counts[c] -= 1
        left = [k for k in range(KINDS) if counts[k] > 0]
        w.put(left.index(log.starter), len(left))

    def read(self, r) -> dict[str, Any]:
        first = ("P1", "P2")[r.get(2)]
        counts = [COPIES] * KINDS
        hands = []
        for _ in range(2):
            rank = r.get(multisets(counts, HAND_SIZE))
            hand = unrank_multiset(rank, HAND_SIZE, counts)
            for c in hand:
                counts[c] -= 1
            hands.append([CARD_TEXT[c] for c in hand])
        left = [k for k in range(KINDS) if counts[k] > 0]
        starter = left[r.get(len(left))]
        return {"first_player": first, "hands": {"P1": hands[0], "P2": hands[1]}, "starter": CARD_TEXT[starter]}

    def bits(self, log) -> float:
        counts = [COPIES] * KINDS
        bits = 1.0
        for hand in (log.hands.P1, log.hands.P2):
            bits += log2(multisets(counts, len(hand)))
            for c in hand:
                counts[c] -= 1
        return bits + log2(sum(1 for k in range(KINDS) if counts[k] > 0))


SETUP_CODEC = SetupCodec()
