"""UnoLogger: what an UNO Lite bot calls while a game is played.

>>> logger = UnoLogger(game_id="room-7Q2/3", players={"P1": "Ann", "P2": {"name": "unobot", "bot": "greedy-1"}},
...                    clock=None)
>>> logger.deal({"P1": "R5 G7 B1 Y9 R2 G2 B8".split(), "P2": "B3 B4 G1 G3 Y1 Y2 Y3".split()},
...             starter="🔴9", first_player="P1")
>>> logger.play("P1", "red 5", t=2100)
>>> logger.draw("P2", "B5"); logger.pass_("P2")
>>> logger.chat("gg", seat="P2")
>>> replay = logger.end("cancelled")
>>> replay.findings, replay.end_reason, replay.turns
([], 'cancelled', 2)

``end()`` saves the log (when the logger has a directory) atomically with
``replay.logger.save_log``, so a half-written file is never visible, and returns the
``UnoReplay``. Nothing refuses an illegal action: a buggy bot's game is logged as it
happened, and the engine reports its breaches. Cards may be given in any spelling
``parse_card`` reads, or as card values 0-35; seats as ``P1``/``p1`` or 0/1.
"""

from __future__ import annotations

import os
import time
from datetime import datetime, timezone
from typing import Any, Callable, Iterable, Mapping

from replay.logger import BaseLogger, LoggerInputError

from .cards import CARD_TEXT, to_card
from .log import END_REASONS, FORMAT, SEATS


def _seat(value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool) and value in (0, 1):
        return SEATS[value]
    if isinstance(value, str) and value.strip().upper() in SEATS:
        return value.strip().upper()
    raise LoggerInputError(f"{value!r} is not a seat (P1 or P2)")


def _card(value: Any) -> str:
    return CARD_TEXT[to_card(value)]


def _cards(values: "Iterable[Any] | str") -> list[str]:
    if isinstance(values, str):
        values = values.split(",") if "," in values else values.split()
    return [_card(v) for v in values]


class UnoLogger(BaseLogger):
    """Record one UNO Lite game as ``uno-lite/1``."""

    format = FORMAT
    end_reasons = END_REASONS
    before_deal = "call deal() before logging plays, draws, passes or chat"

    def __init__(
        self,
        *,
        game_id: str | None = None,
        players: Mapping[Any, Any] | None = None,
        out_dir: "str | os.PathLike[str] | None" = None,
        started_at: datetime | None = None,
        meta: Mapping[str, Any] | None = None,
        clock: Callable[[], float] | None = time.monotonic,
    ):
        self._open(game_id, out_dir, started_at, meta, clock)
        self.players = self._players(players)
        self._starter: str | None = None
        self._first_player: str | None = None

    # -- recording ---------------------------------------------------------------------------
    def deal(self, hands: "Mapping[Any, Iterable[Any]] | Iterable[Iterable[Any]]", starter: Any,
             first_player: Any) -> None:
        """Both hands (by seat, or in order P1, P2), the starter card and the seat that moves first."""
        self._check_open()
        if isinstance(hands, Mapping):
            by_seat = {_seat(k): _cards(v) for k, v in hands.items()}
        else:
            by_seat = {seat: _cards(h) for seat, h in zip(SEATS, hands)}
        if set(by_seat) != set(SEATS):
            raise LoggerInputError("deal() needs the hands of both seats, P1 and P2")
        self._hands = by_seat
        self._starter = _card(starter)
        self._first_player = _seat(first_player)
        if self.started_at is None:
            self.started_at = datetime.now(timezone.utc).replace(microsecond=0)
        self._start = self.clock() if self.clock else None

    def play(self, seat: Any, card: Any, t: int | None = None) -> None:
        """A card played from the seat's hand."""
        self._event({"type": "play", "seat": _seat(seat), "card": _card(card)}, t)

    def draw(self, seat: Any, card: Any, t: int | None = None) -> None:
        """A card drawn, as the bot saw it."""
        self._event({"type": "draw", "seat": _seat(seat), "card": _card(card)}, t)

    def pass_(self, seat: Any, t: int | None = None) -> None:
        self._event({"type": "pass", "seat": _seat(seat)}, t)

    # -- output ------------------------------------------------------------------------------
    def seat_name(self, value: Any) -> str:
        return _seat(value)

    def _fields(self) -> dict[str, Any]:
        """The setup's fields of the log (``BaseLogger.to_dict`` adds the envelope's and events)."""
        data: dict[str, Any] = {}
        if self.players:
            data["players"] = self.players
        data["first_player"] = self._first_player
        data["hands"] = self._hands
        data["starter"] = self._starter
        return data

