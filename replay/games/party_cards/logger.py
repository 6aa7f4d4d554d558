"""PartyLogger: what a party-cards bot calls while a game is played.

>>> logger = PartyLogger(game_id="grp-9/cah/4", players={"p1": "Ann", "p2": "Bo", "p3": {"name": "Cy", "id": "tg:3"}},
...                      score_limit=1, hand_size=2, clock=None)
>>> logger.deal({"p1": [("a1", "Bees?"), ("a2", "Soup.")], "p2": [("a3", "A goose."), ("a4", "Glitter.")],
...              "p3": [{"id": "a5", "text": "Jazz hands."}, {"id": "a6", "text": "A kazoo solo."}]})
>>> for seat in ("p1", "p2", "p3"):
...     logger.join(seat)
>>> logger.round("p1", ("q1", "Why can't I sleep at night? ___", 1))
>>> logger.answer("p2", ["a3"]); logger.answer("p3", ["a6"])
>>> logger.reveal(["p3", "p2"]); logger.pick("p1", 2)
>>> replay = logger.end("completed", winner="p2")
>>> replay.findings, replay.winners, replay.scores
([], ['p2'], {'p1': 0, 'p2': 1, 'p3': 0})

``end()`` saves the log (when the logger has a directory) atomically with
``replay.logger.save_log``, so a half-written file is never visible, and returns the
``PartyReplay``. Nothing refuses an illegal action: a buggy bot's game is logged as it
happened, and the engine reports its breaches. The logger refuses only what the format cannot
hold: a seat that is not in ``players``, a card that is not an id and a text, an unknown end
reason, and calls out of order. Cards are ``(id, text)`` pairs or ``{"id", "text"}`` objects;
a question is ``(id, text, pick)`` or ``{"id", "text", "pick"}``.
"""

from __future__ import annotations

import os
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from replay.cards import ReplayError
from replay.logger import save_log

from .log import (
    DEFAULT_HAND_SIZE, END_REASONS, FORMAT, MAX_CARD_TEXT, MAX_ID, MAX_SEAT, MAX_SEATS, MAX_TEXT, PartyLog, parse,
)


class LoggerStateError(ReplayError):
    """The logger was used out of order (an event before the deal, anything after end)."""


class LoggerInputError(ReplayError, ValueError):
    """An argument that names no seat, card, question or end reason."""


def _card(value: Any) -> dict[str, str]:
    if isinstance(value, Mapping):
        card_id, text = value.get("id"), value.get("text")
    elif isinstance(value, (tuple, list)) and len(value) == 2:
        card_id, text = value
    else:
        raise LoggerInputError(f"{value!r} is not a card: give (id, text) or {{'id': ..., 'text': ...}}")
    if not isinstance(card_id, str) or not 0 < len(card_id) <= MAX_ID:
        raise LoggerInputError(f"{card_id!r} is not a card id (text of 1-{MAX_ID} characters)")
    if not isinstance(text, str) or len(text) > MAX_CARD_TEXT:
        raise LoggerInputError(f"the text of card {card_id!r} must be text of at most {MAX_CARD_TEXT} characters")
    return {"id": card_id, "text": text}


def _cards(values: Iterable[Any]) -> list[dict[str, str]]:
    return [_card(v) for v in values]


def _ids(values: Iterable[Any]) -> list[str]:
    out = []
    for value in values:
        if not isinstance(value, str) or not 0 < len(value) <= MAX_ID:
            raise LoggerInputError(f"{value!r} is not a card id (text of 1-{MAX_ID} characters)")
        out.append(value)
    return out


def _question(value: Any) -> dict[str, Any]:
    if isinstance(value, Mapping):
        card_id, text, pick = value.get("id"), value.get("text"), value.get("pick", 1)
    elif isinstance(value, (tuple, list)) and len(value) == 3:
        card_id, text, pick = value
    else:
        raise LoggerInputError(f"{value!r} is not a question: give (id, text, pick) or {{'id', 'text', 'pick'}}")
    card = _card((card_id, text))
    if not isinstance(pick, int) or isinstance(pick, bool) or not 1 <= pick <= 3:
        raise LoggerInputError(f"{pick!r} is not a pick count (1-3)")
    return {**card, "pick": pick}


class PartyLogger:
    """Record one party-cards game as ``party-cards/1``."""

    def __init__(
        self,
        *,
        players: Mapping[str, Any],
        score_limit: int,
        hand_size: int = DEFAULT_HAND_SIZE,
        game_id: str | None = None,
        out_dir: "str | os.PathLike[str] | None" = None,
        started_at: datetime | None = None,
        meta: Mapping[str, Any] | None = None,
        clock: Callable[[], float] | None = time.monotonic,
    ):
        if not players or len(players) > MAX_SEATS:
            raise LoggerInputError(f"players must list 1-{MAX_SEATS} invited seats in table order")
        self.players: dict[str, dict[str, Any]] = {}
        for seat, player in players.items():
            if not isinstance(seat, str) or not 0 < len(seat) <= MAX_SEAT or any(ch.isspace() for ch in seat):
                raise LoggerInputError(f"{seat!r} is not a seat name (1-{MAX_SEAT} characters, no spaces)")
            self.players[seat] = {"name": player} if isinstance(player, str) else dict(player or {})
        for name, value in (("score_limit", score_limit), ("hand_size", hand_size)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise LoggerInputError(f"{name} must be a positive whole number, not {value!r}")
        self.score_limit = score_limit
        self.hand_size = hand_size
        self.game_id = game_id
        self.out_dir = Path(out_dir) if out_dir is not None else None
        self.started_at = started_at
        self.meta = dict(meta or {})
        self.clock = clock
        self._start: float | None = None
        self._hands: dict[str, list[dict[str, str]]] | None = None
        self._events: list[dict[str, Any]] = []
        self._end: dict[str, Any] | None = None
        self.path: Path | None = None
        self.replay = None

    def _seat(self, value: Any) -> str:
        if isinstance(value, str) and value in self.players:
            return value
        raise LoggerInputError(f"{value!r} is not a seat of this game ({', '.join(self.players)})")

    # -- recording ---------------------------------------------------------------------------
    def deal(self, hands: Mapping[str, Iterable[Any]]) -> None:
        """The answer cards dealt to every invited seat (a hand of another size is logged as it is)."""
        self._check_open()
        by_seat = {self._seat(seat): _cards(cards) for seat, cards in hands.items()}
        self._hands = {seat: by_seat[seat] for seat in self.players if seat in by_seat}
        if self.started_at is None:
            self.started_at = datetime.now(timezone.utc).replace(microsecond=0)
        self._start = self.clock() if self.clock else None

    def join(self, seat: Any, t: int | None = None) -> None:
        self._event({"type": "join", "seat": self._seat(seat)}, t)

    def decline(self, seat: Any, t: int | None = None) -> None:
        self._event({"type": "decline", "seat": self._seat(seat)}, t)

    def swap(self, seat: Any, discard: Iterable[Any], draw: Iterable[Any], t: int | None = None) -> None:
        """The seat throws away ``discard`` (ids) and draws ``draw`` (cards)."""
        self._event({"type": "swap", "seat": self._seat(seat), "discard": _ids(discard), "draw": _cards(draw)}, t)

    def round(self, czar: Any, question: Any, t: int | None = None) -> None:
        """A round starts: its czar and its question ``(id, text, pick)``."""
        self._event({"type": "round", "czar": self._seat(czar), "question": _question(question)}, t)

    def answer(self, seat: Any, cards: Iterable[Any], t: int | None = None) -> None:
        """A submission: the ids of the cards played, in the order they fill the blanks."""
        self._event({"type": "answer", "seat": self._seat(seat), "cards": _ids(cards)}, t)

    def reveal(self, order: Iterable[Any], t: int | None = None) -> None:
        """The seats whose submissions the czar sees, in the shuffled order shown (numbered from 1)."""
        self._event({"type": "reveal", "order": [self._seat(s) for s in order]}, t)

    def pick(self, seat: Any, choice: int, t: int | None = None) -> None:
        """The czar's pick: a 1-based number in the reveal's order."""
        if not isinstance(choice, int) or isinstance(choice, bool) or abs(choice) > 2**31:
            raise LoggerInputError(f"{choice!r} is not a choice number")
        self._event({"type": "pick", "seat": self._seat(seat), "choice": choice}, t)

    def draw(self, seat: Any, cards: Iterable[Any], t: int | None = None) -> None:
        """Cards drawn after a round."""
        self._event({"type": "draw", "seat": self._seat(seat), "cards": _cards(cards)}, t)

    def leave(self, seat: Any, t: int | None = None) -> None:
        self._event({"type": "leave", "seat": self._seat(seat)}, t)

    def chat(self, text: str, seat: Any = None, t: int | None = None) -> None:
        event: dict[str, Any] = {"type": "chat"}
        if seat is not None:
            event["seat"] = self._seat(seat)
        text = str(text)
        if len(text) > MAX_TEXT:
            raise LoggerInputError(f"a chat text has at most {MAX_TEXT} characters, not {len(text)}")
        event["text"] = text
        self._event(event, t)

    def end(self, reason: str = "completed", winner: Any = None, t: int | None = None):
        """Close the log, save it (when the logger has a directory) and return the PartyReplay."""
        self._check_open()
        if self._hands is None:
            raise LoggerStateError("nothing to end: call deal() first")
        if reason not in END_REASONS:
            raise LoggerInputError(f"unknown end reason {reason!r} (one of {', '.join(END_REASONS)})")
        end: dict[str, Any] = {"reason": reason}
        if winner is not None:
            end["winner"] = self._seat(winner)
        self._stamp(end, t)
        self._end = end
        log = self.to_log()
        if self.out_dir is not None:
            self.path = save_log(log, self.out_dir)
        self.replay = log.replay()
        return self.replay

    # -- output ------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        if self._hands is None:
            raise LoggerStateError("nothing to log yet: call deal() first")
        data: dict[str, Any] = {"format": FORMAT}
        if self.game_id is not None:
            data["game_id"] = self.game_id
        if self.started_at is not None:
            data["started_at"] = self.started_at.isoformat().replace("+00:00", "Z")
        data["players"] = self.players
        data["score_limit"] = self.score_limit
        data["hand_size"] = self.hand_size
        data["hands"] = self._hands
        data["events"] = self._events
        if self._end is not None:
            data["end"] = self._end
        if self.meta:
            data["meta"] = self.meta
        return data

    def to_log(self) -> PartyLog:
        return parse(self.to_dict(), self.game_id)

    # -- internals ---------------------------------------------------------------------------
    def _check_open(self) -> None:
        if self._end is not None:
            raise LoggerStateError("the game has ended: start a new PartyLogger for the next game")

    def _event(self, event: dict[str, Any], t: int | None) -> None:
        self._check_open()
        if self._hands is None:
            raise LoggerStateError("call deal() before logging the lobby, rounds or chat")
        self._stamp(event, t)
        self._events.append(event)

    def _stamp(self, event: dict[str, Any], t: int | None) -> None:
        if t is None and self.clock is not None and self._start is not None:
            t = int((self.clock() - self._start) * 1000)
        if t is not None:
            event["t"] = int(t)
