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
from pathlib import Path
from typing import Any, Callable, Mapping

from replay.errors import ReplayError
from replay.logger import BaseLogger, LoggerStateError

from .log import END_REASONS, FORMAT, SEATS, NimLog, parse


class LoggerInputError(ReplayError, ValueError):
    """An argument that names no seat or end reason."""


def _seat(value: Any) -> str:
    if isinstance(value, str) and value.strip().upper() in SEATS:
        return value.strip().upper()
    raise LoggerInputError(f"{value!r} is not a seat (P1 or P2)")


class NimLogger(BaseLogger):
    """Record one Nim game as ``nim/1``."""

    before_deal = "call setup() before logging moves or chat"

    def __init__(self, *, game_id: str | None = None, players: Mapping[Any, Any] | None = None,
                 out_dir: "str | os.PathLike[str] | None" = None, started_at: datetime | None = None,
                 meta: Mapping[str, Any] | None = None, clock: Callable[[], float] | None = time.monotonic):
        self.game_id = game_id
        self.out_dir = Path(out_dir) if out_dir is not None else None
        self.started_at = started_at
        self.meta = dict(meta or {})
        self.clock = clock
        self.players = {_seat(s): ({"name": p} if isinstance(p, str) else dict(p)) for s, p in (players or {}).items()}
        self._start: float | None = None
        self._hands: list[int] | None = None  # the heaps: BaseLogger's "dealt yet" mark
        self._first_player: str | None = None
        self._events: list[dict[str, Any]] = []
        self._end: dict[str, Any] | None = None
        self.path: Path | None = None
        self.replay = None

    def setup(self, heaps: list[int], first_player: Any = "P1") -> None:
        """The heaps the game begins with and the seat that moves first."""
        self._check_open()
        self._hands = [int(h) for h in heaps]
        self._first_player = _seat(first_player)
        if self.started_at is None:
            self.started_at = datetime.now(timezone.utc).replace(microsecond=0)
        self._start = self.clock() if self.clock else None

    def take(self, seat: Any, heap: int, count: int, t: int | None = None) -> None:
        """``count`` objects taken from heap number ``heap`` (0-based)."""
        self._event({"type": "take", "seat": _seat(seat), "heap": int(heap), "count": int(count)}, t)

    def chat(self, text: str, seat: Any = None, t: int | None = None) -> None:
        event: dict[str, Any] = {"type": "chat"}
        if seat is not None:
            event["seat"] = _seat(seat)
        event["text"] = str(text)
        self._event(event, t)

    def end(self, reason: str = "completed", winner: Any = None, t: int | None = None):
        """Close the log, save it (when the logger has a directory) and return the judged game."""
        self._check_open()
        if self._hands is None:
            raise LoggerStateError("nothing to end: call setup() first")
        if reason not in END_REASONS:
            raise LoggerInputError(f"unknown end reason {reason!r} (one of {', '.join(END_REASONS)})")
        end: dict[str, Any] = {"reason": reason}
        if winner is not None:
            end["winner"] = _seat(winner)
        return self._close(end, t)

    def to_dict(self) -> dict[str, Any]:
        if self._hands is None:
            raise LoggerStateError("nothing to log yet: call setup() first")
        data: dict[str, Any] = {"format": FORMAT}
        if self.game_id is not None:
            data["game_id"] = self.game_id
        if self.started_at is not None:
            data["started_at"] = self.started_at.isoformat().replace("+00:00", "Z")
        if self.players:
            data["players"] = self.players
        data.update(first_player=self._first_player, heaps=self._hands, events=self._events)
        if self._end is not None:
            data["end"] = self._end
        if self.meta:
            data["meta"] = self.meta
        return data

    def to_log(self) -> NimLog:
        return parse(self.to_dict(), self.game_id)
