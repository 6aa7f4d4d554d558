"""The rules of Nim: a state with one mutator, ``push``, and the legal moves in canonical order.

Two seats take turns; a move takes 1 or more objects from one heap; whoever takes the last
object wins (normal play).

>>> state = NimState([1, 2], "P1")
>>> state.legal()
[(0, 1), (1, 1), (1, 2)]
>>> state.take("P1", 1, 2, 0), state.to_act
([], 'P2')
>>> [f.kind for f in state.take("P1", 0, 1, 1)]
['out_of_turn']
>>> state.stopped
True
"""

from __future__ import annotations

from typing import Any

from replay.games.base import Finding

from .log import SEATS

#: finding kind -> fatal (a fatal finding stops rule checking)
FINDING_KINDS = {
    "out_of_turn": True,
    "bad_take": True,
    "event_after_end": True,
    "wrong_winner": False,
    "end_mismatch": False,
}


def other(seat: str) -> str:
    return SEATS[1 - SEATS.index(seat)]


class NimState:
    """One position: the heaps, who is to act, and whether the game is over."""

    def __init__(self, heaps: list[int], first_player: str):
        self.heaps = list(heaps)
        self.to_act: str | None = first_player
        self.over = False
        self.stopped = False
        self.winner: str | None = None
        self.moves = 0  # steps taken (step 0 is the setup)

    def copy(self) -> "NimState":
        new = NimState(self.heaps, self.to_act or SEATS[0])
        new.to_act, new.over, new.stopped, new.winner, new.moves = (
            self.to_act, self.over, self.stopped, self.winner, self.moves)
        return new

    def legal(self) -> list[tuple[int, int]]:
        """Every (heap, count) the seat to act may take, heap by heap, fewest first."""
        if self.over or self.stopped:
            return []
        return [(heap, count) for heap, size in enumerate(self.heaps) for count in range(1, size + 1)]

    def push(self, event: Any, index: int) -> list[Finding]:
        """Apply one logged event (chat makes no move)."""
        if event.type != "take":
            return []
        return self.take(event.seat, event.heap, event.count, index)

    def take(self, seat: str, heap: int, count: int, index: int) -> list[Finding]:
        if self.stopped:
            return []
        if self.over:
            return self._fatal("event_after_end", seat, f"{seat} takes after the game is over", index)
        if seat != self.to_act:
            return self._fatal("out_of_turn", seat, f"{seat} moved out of turn ({self.to_act} was to act)", index)
        if heap >= len(self.heaps) or not 1 <= count <= self.heaps[heap]:
            held = self.heaps[heap] if heap < len(self.heaps) else None
            where = f"heap {heap + 1}, which holds {held}" if held is not None else f"heap {heap + 1}, which does not exist"
            return self._fatal("bad_take", seat, f"{seat} takes {count} from {where}", index)
        self.heaps[heap] -= count
        self.moves += 1
        if not any(self.heaps):
            self.over, self.winner, self.to_act = True, seat, None
        else:
            self.to_act = other(seat)
        return []

    def _fatal(self, kind: str, seat: str, message: str, index: int) -> list[Finding]:
        self.stopped = True
        return [Finding(self.moves, kind, seat, message, index, fatal=True)]
