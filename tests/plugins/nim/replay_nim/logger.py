"""NimLogger: what a Nim bot calls while it plays (``GameLogger(game="nim", ...)``).

>>> logger = NimLogger(game_id="room-1", players={"P1": "Ann", "P2": "nimbot"}, clock=None)
>>> logger.setup([1, 2], first_player="P1")
>>> logger.take("P1", heap=1, count=2, t=800)
>>> logger.chat("hm", seat="P2")
>>> logger.take("P2", heap=0, count=1, t=1900)
>>> replay = logger.end("completed", winner="P2")
>>> replay.findings, replay.winners
([], ['P2'])

Nothing refuses an illegal move: a buggy bot's game is logged as it happened and the engine
reports its breaches. ``end()`` saves the log atomically when the logger has a directory.
"""

from __future__ import annotations

import os
import time
from datetime import datetime, timezone
from typing import Any, Callable, Mapping

from replay.logger import BaseLogger, LoggerInputError

from .log import END_REASONS, FORMAT, SEATS


class NimLogger(BaseLogger):
    """Record one Nim game as ``nim/1``: the kit's ``BaseLogger`` gives ``chat``, ``end``,
    ``to_dict``, ``to_log``, saving and the link; Nim gives its seats, ``setup`` and ``take``."""

    format = FORMAT
    end_reasons = END_REASONS
    before_deal = "call setup() before logging moves or chat"
    setup_call = "setup()"

    def __init__(self, *, game_id: str | None = None, players: Mapping[Any, Any] | None = None,
                 out_dir: "str | os.PathLike[str] | None" = None, started_at: datetime | None = None,
                 meta: Mapping[str, Any] | None = None, clock: Callable[[], float] | None = time.monotonic):
        self._open(game_id, out_dir, started_at, meta, clock)
        self.players = self._players(players)
        self._first_player: str | None = None

    def seat_name(self, value: Any) -> str:
        if isinstance(value, str) and value.strip().upper() in SEATS:
            return value.strip().upper()
        raise LoggerInputError(f"{value!r} is not a seat (P1 or P2)")

    def _fields(self) -> dict[str, Any]:
        fields: dict[str, Any] = {"players": self.players} if self.players else {}
        fields.update(first_player=self._first_player, heaps=self._hands)
        return fields

    def setup(self, heaps: list[int], first_player: Any = "P1") -> None:
        """The heaps the game begins with and the seat that moves first."""
        self._check_open()
        self._hands = [int(h) for h in heaps]  # the heaps: BaseLogger's "set up yet" mark
        self._first_player = self.seat_name(first_player)
        if self.started_at is None:
            self.started_at = datetime.now(timezone.utc).replace(microsecond=0)
        self._start = self.clock() if self.clock else None

    def take(self, seat: Any, heap: int, count: int, t: int | None = None) -> None:
        """``count`` objects taken from heap number ``heap`` (0-based)."""
        self._event({"type": "take", "seat": self.seat_name(seat), "heap": int(heap), "count": int(count)}, t)
