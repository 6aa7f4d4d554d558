"""Nim, a toy fifth game kept under ``tests/plugins/nim/``: proof that a game from another
pip package plugs into game-replay through its entry point, with no edit to the project.

The distribution ``game-replay-nim`` registers, in the ``game_replay.games`` group,
``nim = replay_nim:GAME`` (its ``pyproject.toml``; the committed ``*.dist-info`` folder is
that registration, so a folder on ``sys.path`` installs it without pip):

>>> from replay.games import get
>>> game = get("nim")
>>> game.title, game.seats, game.finding_kinds["bad_take"]
('Nim', ('P1', 'P2'), True)
>>> replay = game.judge(game.selfplay(seed=2, bots=("greedy", "random")))
>>> replay.findings, replay.end_reason, game.describe(replay)
([], 'completed', 'selfplay-nim-greedy-random-2  nim  P1 won in 2 moves  0 findings')
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Callable, ClassVar, Mapping, Sequence

from replay.games.base import Fact, GameModule

from .bots import BOTS, play_game
from .codec import SETUP_CODEC
from .engine import FINDING_KINDS, NimState
from .log import END_REASONS, MAX_HEAP, SEATS, NimLog, TakeEvent, json_schema, parse
from .logger import NimLogger
from .replay import NimReplay


def _heaps(text: str) -> str:
    """``3 4 5``, ``3,4,5`` or ``3-4-5`` -> ``3-4-5`` (the stored form)."""
    sizes = [s for s in re.split(r"[\s,;-]+", text) if s]
    if not sizes or not all(s.isdigit() and 1 <= int(s) <= MAX_HEAP for s in sizes):
        raise ValueError(f"heaps must be heap sizes 1-{MAX_HEAP} such as 3-4-5, not {text!r}")
    return "-".join(str(int(s)) for s in sizes)


class Nim(GameModule):
    """The Nim game module (``replay.games.base.GameModule``)."""

    name: ClassVar[str] = "nim"
    title: ClassVar[str] = "Nim"
    major: ClassVar[int] = 1
    seats: ClassVar[tuple[str, ...]] = SEATS
    player_counts: ClassVar[tuple[int | None, int | None]] = (2, 2)
    finding_kinds: ClassVar[Mapping[str, bool]] = FINDING_KINDS
    end_reasons: ClassVar[tuple[str, ...]] = END_REASONS
    action_events: ClassVar[frozenset[str]] = frozenset(("take",))
    chapter: ClassVar[str] = "step"
    Log: ClassVar[type] = NimLog
    Logger: ClassVar[type] = NimLogger
    code_marker: ClassVar[str] = "q"
    setup_codec: ClassVar[Any] = SETUP_CODEC
    facts: ClassVar[tuple[Fact, ...]] = (
        Fact("winner", "Winner", kind="seat", normalise=str.upper, values=SEATS, column=True),
        Fact("moves", "Moves", kind="int", column=True, help="moves made in the game"),
        Fact("heaps", "Heaps", normalise=_heaps, pattern=r"[1-9](-[1-9]){0,5}", help="heap sizes such as 3-4-5"),
    )
    bots: ClassVar[Mapping[str, Callable[..., Any]]] = BOTS
    sample_logs: ClassVar[Any] = Path(__file__).resolve().parent.parent / "sample_logs"

    def parse(self, data: dict[str, Any], source: str | None = None) -> NimLog:
        return parse(data, source)

    def judge(self, log: NimLog) -> NimReplay:
        return NimReplay.from_log(log)

    def json_schema(self) -> dict[str, Any]:
        return json_schema()

    def start(self, log: NimLog) -> tuple[NimState, list]:
        return NimState(log.heaps, log.first_player), []

    def legal_events(self, state: NimState) -> list[TakeEvent]:
        return [TakeEvent.model_construct(type="take", seat=state.to_act, heap=heap, count=count)
                for heap, count in state.legal()]

    def selfplay(self, seed: int, bots: Sequence[str] = ("greedy", "random"), **options: Any) -> NimLog:
        bots = tuple(bots) * 2 if len(tuple(bots)) == 1 else tuple(bots)
        return play_game(seed, bots=bots, **options)


GAME = Nim()
