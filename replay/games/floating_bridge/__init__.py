"""Floating bridge as a registered game (``floating-bridge/1``).

The rules engine, the log model, the judged replay, the bots and the tuned codec are the
modules ``replay.cards``, ``replay.rules``, ``replay.engine``, ``replay.log``, ``replay.game``,
``replay.bots`` and ``replay.codec``; this object is how the game-neutral parts reach them.

>>> from replay.games import get
>>> bridge = get("floating-bridge")
>>> replay = bridge.judge(bridge.selfplay(seed=7, bots=("greedy",)))
>>> replay.to_json()["game"], len(replay.winners) in (1, 2, 3)
('floating-bridge', True)
"""

from __future__ import annotations

from typing import Any, ClassVar, Mapping, Sequence

from ... import bots as _bots
from ...engine import FINDING_KINDS
from ...log import END_REASONS, GameLog, LogFormatError, errors_from_validation, json_schema
from ...logger import GameLogger
from .reading import read_json


class FloatingBridge:
    name: ClassVar[str] = "floating-bridge"
    title: ClassVar[str] = "Floating bridge"
    major: ClassVar[int] = 1
    seats: ClassVar[tuple[str, ...]] = ("N", "E", "S", "W")
    finding_kinds: ClassVar[Mapping[str, bool]] = FINDING_KINDS
    end_reasons: ClassVar[tuple[str, ...]] = END_REASONS
    Log: ClassVar[type] = GameLog
    bots: ClassVar[Mapping[str, Any]] = _bots.BOTS
    #: what a bot logs a game with
    Logger: ClassVar[type] = GameLogger
    #: the log events that are actions (a step each)
    action_events: ClassVar[frozenset[str]] = frozenset(("bid", "partner", "play"))
    #: the step kind that ends a chapter (the viewer's up/down keys)
    chapter: ClassVar[str] = "trick"
    #: a plain log's JSON text -> its ``GameLog`` in one pass, or None: full reading decides
    #: (``replay.reading``)
    read_json: ClassVar[Any] = read_json

    def parse(self, data: dict[str, Any], source: str | None = None) -> GameLog:
        from pydantic import ValidationError

        try:
            return GameLog.model_validate(data)
        except ValidationError as exc:
            raise LogFormatError(errors_from_validation(exc), source) from None

    def judge(self, log: GameLog):
        from ...game import GameReplay

        return GameReplay.from_log(log)

    def json_schema(self) -> dict[str, Any]:
        return json_schema()

    def start(self, log: GameLog):
        """The position after the deal (an ``engine.Game``), and the deal's findings."""
        from ...engine import Game

        state = Game(log.hands.by_seat(), log.first_bidder, log.rules)
        return state, state.check_deal()

    def legal_events(self, state) -> list[Any]:
        """Every event the seat to act may log now, as log events (calls, partner cards, cards)."""
        from ...log import BidEvent, PartnerEvent, PlayEvent

        seat = state.to_act
        out = []
        for kind, value in state.legal():
            if kind == "bid":
                out.append(BidEvent.model_construct(type="bid", seat=seat, bid=value))
            elif kind == "partner":
                out.append(PartnerEvent.model_construct(type="partner", seat=seat, card=value))
            else:
                out.append(PlayEvent.model_construct(type="play", seat=seat, card=value))
        return out

    def selfplay(self, seed: int, bots: Sequence[str] = ("greedy",), **options: Any) -> GameLog:
        """One seeded game; bridge's bots play all four seats with the first bot named."""
        return _bots.play_game(seed, bot=bots[0] if bots else "greedy", **options)

    def __repr__(self) -> str:
        return f"<game {self.name}>"


GAME = FloatingBridge()
