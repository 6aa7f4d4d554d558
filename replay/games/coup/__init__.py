"""Coup, the bluffing card game bot championships play: the ``coup/1`` game module.

``GAME`` is what the registry (``replay.games``) hands out:

>>> from replay.games import get
>>> game = get("coup")
>>> game.title, game.seats, game.finding_kinds["out_of_turn"], game.finding_kinds["must_coup"]
('Coup', ('1', '2', '3', '4', '5', '6'), True, False)
>>> replay = game.judge(game.selfplay(seed=3, bots=("honest", "bluffer", "random")))
>>> replay.findings, replay.end_reason
([], 'completed')

The package: ``cards`` (characters and actions), ``log`` (the pydantic models of the format),
``engine`` (``CoupState``), ``replay`` (``CoupReplay``), ``logger`` (``CoupLogger``), ``bots``
(self-play) and ``root_log`` (the reader of a CoupBots Root's log file).
"""

from __future__ import annotations

from typing import Any, Callable, ClassVar, Mapping, Sequence

from . import root_log
from .bots import BOTS, play_game
from .engine import FINDING_KINDS
from .log import END_REASONS, CoupLog, json_schema, parse
from .replay import CoupReplay


class Coup:
    """The Coup game module (``replay.games.base.GameModule``)."""

    name: ClassVar[str] = "coup"
    title: ClassVar[str] = "Coup"
    major: ClassVar[int] = 1
    #: seat names the self-play and the examples use; a log's seats are its player ids
    seats: ClassVar[tuple[str, ...]] = ("1", "2", "3", "4", "5", "6")
    #: the seats a table may have (``selfplay --players``)
    player_counts: ClassVar[tuple[int, int]] = (2, 6)
    finding_kinds: ClassVar[Mapping[str, bool]] = FINDING_KINDS
    end_reasons: ClassVar[tuple[str, ...]] = END_REASONS
    Log: ClassVar[type] = CoupLog
    bots: ClassVar[Mapping[str, Callable[..., Any]]] = BOTS
    #: text formats ``replay.log.read_logs`` recognises by content (``looks_like``/``read``)
    readers: ClassVar[tuple[Any, ...]] = (root_log,)

    def parse(self, data: dict[str, Any], source: str | None = None) -> CoupLog:
        """A decoded JSON object -> ``CoupLog``; raises ``replay.log.LogFormatError``."""
        return parse(data, source)

    def judge(self, log: CoupLog) -> CoupReplay:
        return CoupReplay.from_log(log)

    def json_schema(self) -> dict[str, Any]:
        return json_schema()

    def selfplay(self, seed: int, bots: Sequence[str] = ("honest", "bluffer"), **options: Any) -> CoupLog:
        """A seeded bot game's log (options: ``players``, ``game_id``, ``out_dir``, ``interrupt_rate``, ``chat``)."""
        return play_game(seed, bots=tuple(bots), **options)

    def __repr__(self) -> str:
        return "<game coup/1: Coup>"


GAME = Coup()

__all__ = ["GAME", "Coup", "CoupLog", "CoupReplay", "parse", "play_game"]
