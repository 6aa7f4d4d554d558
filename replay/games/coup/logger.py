"""CoupLogger: what a Coup host (or a bot that hosts) calls while a game is played.

>>> logger = CoupLogger(game_id="champ/r1/g1", players={"1": "Ann", "2": {"name": "honest", "bot": "honest-1"}},
...                     clock=None)
>>> logger.deal({"1": ["Duke", "C"], "2": "E E"}, first_player="1")
>>> logger.action("1", "tax", t=900)
>>> logger.challenge("2"); logger.reveal("1", "D"); logger.lose("2", "E"); logger.replace("1", "A")
>>> logger.action("2", "S", target="1")
>>> logger.illegal("2", "ACT|2|C|1", reason="needs 7 coins")
>>> replay = logger.end("cancelled")   # the steal nobody opposed resolves when the log ends
>>> [f.kind for f in replay.findings], replay.end_reason, replay.coins
(['refused_message'], 'cancelled', {'1': 3, '2': 4})

``end()`` saves the log (when the logger has a directory) atomically with
``replay.logger.save_log`` and returns the ``CoupReplay``. Nothing refuses an illegal action: a
buggy game is logged as it happened, and the engine reports its breaches. Cards may be letters,
names (any case) or card values 0-4; seats are strings (ints are turned into strings).
"""

from __future__ import annotations

import os
import time
from datetime import datetime, timezone
from typing import Any, Callable, Iterable, Mapping

from replay.logger import BaseLogger, LoggerInputError

from .cards import CARD_TEXT, CardParseError, parse_action, to_card
from .log import END_REASONS, FORMAT


def _seat(value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if isinstance(value, str) and value.strip():
        return value.strip()
    raise LoggerInputError(f"{value!r} is not a seat (a player id such as '1')")


def _card(value: Any) -> str:
    try:
        return CARD_TEXT[to_card(value)]
    except CardParseError as exc:
        raise LoggerInputError(str(exc)) from None


def _cards(values: "Iterable[Any] | str") -> list[str]:
    if isinstance(values, str):
        values = values.split(",") if "," in values else values.split()
    return [_card(v) for v in values]


class CoupLogger(BaseLogger):
    """Record one Coup game as ``coup/1``."""

    format = FORMAT
    end_reasons = END_REASONS
    before_deal = "call deal() before logging events"

    def __init__(self, *, game_id: str | None = None, players: Mapping[Any, Any] | None = None,
                 out_dir: "str | os.PathLike[str] | None" = None, started_at: datetime | None = None,
                 meta: Mapping[str, Any] | None = None, clock: Callable[[], float] | None = time.monotonic):
        self._open(game_id, out_dir, started_at, meta, clock)
        self.players = self._players(players)
        self._first_player: str | None = None

    # -- recording ---------------------------------------------------------------------------
    def deal(self, hands: "Mapping[Any, Iterable[Any] | str]", first_player: Any) -> None:
        """Every seat's face-down cards (in table order when there are no ``players``) and who moves first."""
        self._check_open()
        self._hands = {_seat(k): _cards(v) for k, v in hands.items()}
        if self.players and set(self._hands) != set(self.players):
            raise LoggerInputError("deal() needs a hand for every seat in players, and no others")
        self._first_player = _seat(first_player)
        if self.started_at is None:
            self.started_at = datetime.now(timezone.utc).replace(microsecond=0)
        self._start = self.clock() if self.clock else None

    def action(self, seat: Any, action: Any, target: Any = None, t: int | None = None) -> None:
        """The seat to move declares an action (``"T"``, ``"steal"``...), with a target for C, A, S."""
        try:
            letter = parse_action(action)
        except CardParseError as exc:
            raise LoggerInputError(str(exc)) from None
        event: dict[str, Any] = {"type": "action", "seat": _seat(seat), "action": letter}
        if target is not None:
            event["target"] = _seat(target)
        self._event(event, t)

    def challenge(self, seat: Any, t: int | None = None) -> None:
        self._event({"type": "challenge", "seat": _seat(seat)}, t)

    def block(self, seat: Any, card: Any, t: int | None = None) -> None:
        self._event({"type": "block", "seat": _seat(seat), "card": _card(card)}, t)

    def reveal(self, seat: Any, card: Any, t: int | None = None) -> None:
        self._event({"type": "reveal", "seat": _seat(seat), "card": _card(card)}, t)

    def replace(self, seat: Any, card: Any, t: int | None = None) -> None:
        """The card a seat drew after revealing one."""
        self._event({"type": "replace", "seat": _seat(seat), "card": _card(card)}, t)

    def lose(self, seat: Any, card: Any, t: int | None = None) -> None:
        self._event({"type": "lose", "seat": _seat(seat), "card": _card(card)}, t)

    def exchange(self, seat: Any, drawn: Any, kept: Any, t: int | None = None) -> None:
        self._event({"type": "exchange", "seat": _seat(seat), "drawn": _cards(drawn), "kept": _cards(kept)}, t)

    def illegal(self, seat: Any, message: str, reason: str | None = None, t: int | None = None) -> None:
        """A message the host refused (kept for triage; changes nothing)."""
        event: dict[str, Any] = {"type": "illegal", "seat": _seat(seat), "message": str(message)}
        if reason is not None:
            event["reason"] = str(reason)
        self._event(event, t)

    def leave(self, seat: Any, t: int | None = None) -> None:
        self._event({"type": "leave", "seat": _seat(seat)}, t)

    def coins(self, seat: Any, coins: int, t: int | None = None) -> None:
        """The host's own coin count for a seat (checked against the rules)."""
        self._event({"type": "coins", "seat": _seat(seat), "coins": int(coins)}, t)

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
        return data

