"""Nim's setup in a replay code (``replay.codec.generic`` writes the moves): the first player,
then the number of heaps and each heap's size as mixed-radix digits.

>>> from math import log2
>>> round(SETUP_CODEC.bits(type("L", (), {"heaps": [3, 4, 5]})()), 2) == round(1 + log2(6) + 3 * log2(9), 2)
True
"""

from __future__ import annotations

from math import log2
from typing import Any

from .log import MAX_HEAP, MAX_HEAPS, SEATS


class SetupCodec:
    def write(self, w, log) -> None:
        w.put(SEATS.index(log.first_player), 2)
        w.put(len(log.heaps) - 1, MAX_HEAPS)
        for size in log.heaps:
            w.put(size - 1, MAX_HEAP)

    def read(self, r) -> dict[str, Any]:
        first = SEATS[r.get(2)]
        count = r.get(MAX_HEAPS) + 1
        return {"first_player": first, "heaps": [r.get(MAX_HEAP) + 1 for _ in range(count)]}

    def bits(self, log) -> float:
        return 1 + log2(MAX_HEAPS) + len(log.heaps) * log2(MAX_HEAP)


SETUP_CODEC = SetupCodec()
