"""UNO Lite's setup in a replay code: the first player, both hands and the starter.

Each hand is a multiset of 7 of the 36 card kinds, at most two of each (fewer once the first
hand took some), written as its rank among all such multisets; the starter is an index among
the kinds still left. That is exactly the information bound of the deal, so the code of a game
is within rounding of the bound plus the end digits, the checksum and the marker
(``replay/codec/generic.py`` writes the moves).

>>> hand = [0, 0, 5, 9, 9, 20, 35]
>>> SETUP_CODEC is not None and unrank_multiset(rank_multiset(hand, [2] * 36), 7, [2] * 36) == hand
True
"""

from __future__ import annotations

from math import log2
from typing import Any

from replay.codec.intcode import multisets, rank_multiset, unrank_multiset

from .cards import CARD_TEXT, COPIES, KINDS

HAND_SIZE = 7


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
