"""BridgeLogger: what a bot calls while a floating bridge game is played.

Bots get it from the game-neutral ``replay.GameLogger`` (whose default game is floating bridge):

>>> from replay import GameLogger
>>> logger = GameLogger(game_id="chat-42/7", players={"N": "Alice", "E": {"name": "greedy", "bot": "greedy-1"}})
>>> type(logger).__name__
'BridgeLogger'
>>> from replay.games.floating_bridge.engine import Game
>>> game = Game.new_random(seed=3)
>>> logger.deal(game.deal, first_bidder=game.first_bidder)
>>> logger.bid(game.first_bidder, "pass")

When the game ends, ``end()`` saves the log (if the logger has a directory) atomically, so a
half-written file is never visible, and returns the ``GameReplay``. Nothing in the logger
refuses an illegal action: a buggy bot's game is logged as it happened, and the engine
reports its breaches.

A bot written for Singbridge's numbers passes ``notation="singbridge"`` and hands the logger
its own numbers (``45`` is 4NT, ``0`` pass, ``114`` the ace of clubs); the log is written in
the standard notation all the same. Without the option a number is not a call or a card:

>>> sb = BridgeLogger(notation="singbridge", clock=None)
>>> sb.deal([[s * 100 + r for r in range(2, 15)] for s in (1, 2, 3, 4)], first_bidder=1)
>>> sb.bid("N", 45)
>>> sb.to_dict()["events"], sb.to_dict()["hands"]["N"][:2]
([{'type': 'bid', 'seat': 'N', 'bid': '4NT'}], ['C2', 'C3'])
"""

from __future__ import annotations

import os
import time
from datetime import datetime, timezone
from typing import Any, Callable, Iterable, Mapping

from ...errors import ReplayError
from ...logger import BaseLogger, LoggerStateError
from .cards import SEATS, Call, Card, Seat, singbridge_number
from .log import END_REASONS, FORMAT, NOTATIONS
from .rules import Rules


class BridgeLogger(BaseLogger):
    """Record one floating bridge game as log format v1 (``replay.GameLogger`` hands it out)."""

    format = FORMAT
    end_reasons = END_REASONS
    before_deal = "call deal() before logging calls or cards"

    def __init__(
        self,
        *,
        game_id: str | None = None,
        rules: "str | Mapping[str, Any] | Rules" = "bridgebot",
        players: Mapping[Any, Any] | None = None,
        out_dir: "str | os.PathLike[str] | None" = None,
        started_at: datetime | None = None,
        meta: Mapping[str, Any] | None = None,
        clock: Callable[[], float] | None = time.monotonic,
        notation: str = "standard",
    ):
        if notation not in NOTATIONS:
            raise ReplayError(f"notation must be one of {', '.join(NOTATIONS)}, not {notation!r}")
        self.notation = notation
        self.rules = Rules.from_spec(rules)
        self._open(game_id, out_dir, started_at, meta, clock)
        self.players = self._players(players)
        self._first_bidder: str | None = None

    # -- recording ---------------------------------------------------------------------------
    def deal(self, hands: "Mapping[Any, Iterable[Any]] | Iterable[Iterable[Any]]", first_bidder: Any) -> None:
        """The four hands (by seat, or in order N, E, S, W) and the seat that calls first."""
        self._check_open()
        if isinstance(hands, Mapping):
            by_seat = {Seat.parse(k).name: [str(self._card(c)) for c in v] for k, v in hands.items()}
        else:
            by_seat = {seat.name: [str(self._card(c)) for c in h] for seat, h in zip(SEATS, hands)}
        if set(by_seat) != {"N", "E", "S", "W"}:
            raise LoggerStateError("deal() needs the hands of all four seats, N, E, S and W")
        self._hands = by_seat
        self._first_bidder = Seat.parse(first_bidder).name
        if self.started_at is None:
            self.started_at = datetime.now(timezone.utc).replace(microsecond=0)
        self._start = self.clock() if self.clock else None

    def bid(self, seat: Any, call: Any, t: int | None = None) -> None:
        """A call: ``"pass"`` or a bid (``"1S"``, ``Call.parse("2NT")``; ``45`` with Singbridge notation)."""
        self._event({"type": "bid", "seat": Seat.parse(seat).name, "bid": str(self._call(call))}, t)

    def partner(self, seat: Any, card: Any, t: int | None = None) -> None:
        """The declarer names the partner card."""
        self._event({"type": "partner", "seat": Seat.parse(seat).name, "card": str(self._card(card))}, t)

    def play(self, seat: Any, card: Any, t: int | None = None) -> None:
        self._event({"type": "play", "seat": Seat.parse(seat).name, "card": str(self._card(card))}, t)

    def trick(self, winner: Any, t: int | None = None) -> None:
        """The trick winner as the bot announced it (the engine checks it)."""
        self._event({"type": "trick", "winner": Seat.parse(winner).name}, t)

    def end(self, reason: str = "completed", t: int | None = None):
        """Close the log, save it (when the logger has a directory) and return the GameReplay."""
        self._check_open()
        if reason not in END_REASONS:
            raise LoggerStateError(f"unknown end reason {reason!r} (one of {', '.join(END_REASONS)})")
        return self._close({"reason": reason}, t)

    # -- output ------------------------------------------------------------------------------
    def seat_name(self, value: Any) -> str:
        return Seat.parse(value).name

    def _fields(self) -> dict[str, Any]:
        """The setup's fields of the log (``BaseLogger.to_dict`` adds the envelope's and events)."""
        data: dict[str, Any] = {"rules": self.rules.to_spec()}
        if self.players:
            data["players"] = self.players
        data["first_bidder"] = self._first_bidder
        data["hands"] = self._hands
        return data

    # -- internals ---------------------------------------------------------------------------
    def _card(self, card: Any) -> Card:
        if self.notation == "singbridge" and singbridge_number(card) is not None:
            return Card.from_singbridge(card)
        return Card.parse(card)

    def _call(self, call: Any) -> Call:
        if self.notation == "singbridge" and singbridge_number(call) is not None:
            return Call.from_singbridge(call)
        return Call.parse(call)
