"""Coup's setup in a replay code: how many seats, who moves first, and every hand as dealt.

The seats must be named ``1`` to ``n`` in table order (as the bundled bots and most hosts name
them); a game with other seat names gets a raw code. Each two-card hand is written as its rank
among the multisets of 2 of the 5 characters still available (3 copies each at first), so the
deal costs exactly its information bound (``replay/codec/generic.py`` writes the moves).

>>> from replay.games import get
>>> from replay.codec import decode, encode
>>> log = get("coup").selfplay(seed=4, bots=("honest", "bluffer", "random"))
>>> code = encode(log)
>>> code[0], decode(code).first_player == log.first_player
('h', True)
"""

from __future__ import annotations

from math import log2
from typing import Any

from replay.codec.intcode import multisets, rank_multiset, unrank_multiset
from .cards import CARD_TEXT, COPIES, KINDS

HAND = 2
MIN_SEATS, MAX_SEATS = 2, 6


class NotCompact(ValueError):
    """A setup this compact form cannot say (the game gets a raw code)."""


class SetupCodec:
    def write(self, w, log) -> None:
        seats = list(log.seat_order)
        n = len(seats)
        if seats != [str(i) for i in range(1, n + 1)] or any(len(log.hands[s]) != HAND for s in seats):
            raise NotCompact("seats must be 1..n with two cards each")
        w.put(n - MIN_SEATS, MAX_SEATS - MIN_SEATS + 1)
        w.put(seats.index(log.first_player), n)
        counts = [COPIES] * KINDS
        for s in seats:
            hand = list(log.hands[s])
            w.put(rank_multiset(hand, counts), multisets(counts, HAND))
            for c in hand:
                counts[c] -= 1

    def read(self, r) -> dict[str, Any]:
        n = r.get(MAX_SEATS - MIN_SEATS + 1) + MIN_SEATS
        seats = [str(i) for i in range(1, n + 1)]
        first = seats[r.get(n)]
        counts = [COPIES] * KINDS
        hands = {}
        for s in seats:
            hand = unrank_multiset(r.get(multisets(counts, HAND)), HAND, counts)
            for c in hand:
                counts[c] -= 1
            hands[s] = [CARD_TEXT[c] for c in hand]
        return {"first_player": first, "hands": hands}

    def bits(self, log) -> float:
        seats = list(log.seat_order)
        bits = log2(MAX_SEATS - MIN_SEATS + 1) + log2(len(seats))
        counts = [COPIES] * KINDS
        for s in seats:
            bits += log2(multisets(counts, len(log.hands[s])))
            for c in log.hands[s]:
                counts[c] -= 1
        return bits


SETUP_CODEC = SetupCodec()
