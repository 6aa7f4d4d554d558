"""UNO Lite, the two-player shedding game the Telegram bots run: the ``uno-lite/1`` game module.

``GAME`` is what the registry (``replay.games``) hands out:

>>> from replay.games import get
>>> game = get("uno-lite")
>>> game.title, game.seats, game.finding_kinds["out_of_turn"]
('UNO Lite', ('P1', 'P2'), True)
>>> replay = game.judge(game.selfplay(seed=3, bots=("greedy", "greedy")))
>>> replay.findings, replay.end_reason
([], 'completed')

The package: ``cards`` (the deck, ``parse_card``), ``log`` (the pydantic models of the
format), ``engine`` (``UnoState``), ``replay`` (``UnoReplay``), ``logger`` (``UnoLogger``, for
bots) and ``bots`` (self-play).
"""

from __future__ import annotations

from typing import Any, Callable, ClassVar, Mapping, Sequence

from ..base import Export, Fact, GameModule
from .bots import BOTS, play_game
from .logger import UnoLogger
from .codec import SETUP_CODEC
from .engine import FINDING_KINDS, SEATS, UnoState
from .log import END_REASONS, DrawEvent, PassEvent, PlayEvent, UnoLog, json_schema, parse, read_json
from .replay import UnoReplay
from . import drawing
from ...picture.scene import PUBLIC


class UnoLite(GameModule):
    """The UNO Lite game module (``replay.games.base.GameModule``)."""

    name: ClassVar[str] = "uno-lite"
    title: ClassVar[str] = "UNO Lite"
    major: ClassVar[int] = 1
    seats: ClassVar[tuple[str, ...]] = SEATS
    finding_kinds: ClassVar[Mapping[str, bool]] = FINDING_KINDS
    end_reasons: ClassVar[tuple[str, ...]] = END_REASONS
    Log: ClassVar[type] = UnoLog
    bots: ClassVar[Mapping[str, Callable[..., Any]]] = BOTS
    #: what a bot logs a game with (``GameLogger(game=...)`` hands it out)
    Logger: ClassVar[type] = UnoLogger
    #: the first character of this game's replay codes (``replay/codec/generic.py``)
    code_marker: ClassVar[str] = "u"
    #: the log events that are actions (a step each, and a digit in a code)
    action_events: ClassVar[frozenset[str]] = frozenset(("play", "draw", "pass"))
    setup_codec: ClassVar[Any] = SETUP_CODEC
    #: a plain log's JSON text -> its ``UnoLog`` in one pass, or None: full reading decides
    #: (``replay.reading``)
    read_json: ClassVar[Any] = read_json
    bench_corpora: ClassVar[tuple[tuple[str, Mapping[str, Any]], ...]] = (
        ("random v random", {"bots": ("random", "random")}), ("greedy v greedy", {"bots": ("greedy", "greedy")}))
    facts: ClassVar[tuple[Fact, ...]] = (
        Fact("winner", "Winner", kind="seat", values=SEATS, column=True),
        Fact("turns", "Turns", kind="int", column=True),
    )

    def parse(self, data: dict[str, Any], source: str | None = None) -> UnoLog:
        """A decoded JSON object -> ``UnoLog``; raises ``replay.log.LogFormatError``."""
        return parse(data, source)

    def judge(self, log: UnoLog) -> UnoReplay:
        """One engine pass over the log: findings, winner, turns."""
        return UnoReplay.from_log(log)

    def json_schema(self) -> dict[str, Any]:
        return json_schema()

    def start(self, log: UnoLog) -> tuple[UnoState, list]:
        """The position after the deal, and the deal's findings."""
        state = UnoState(log.hands.by_seat(), log.starter, log.first_player)
        return state, state.check_deal()

    def legal_events(self, state: UnoState) -> list[Any]:
        """Every event the seat to move may log now: each legal play and pass, and a draw of
        each card that can be in the draw pile."""
        seat = state.to_act
        events = []
        for action in state.legal():
            if action[0] == "draw":
                events.extend(DrawEvent.model_construct(type="draw", seat=seat, card=c)
                              for c in state.draw_choices())
            elif action[0] == "play":
                events.append(PlayEvent.model_construct(type="play", seat=seat, card=action[1]))
            else:
                events.append(PassEvent.model_construct(type="pass", seat=seat))
        return events

    #: the bots ``selfplay`` seats when none are named
    default_bots: ClassVar[tuple[str, ...]] = ("greedy", "random")

    def selfplay(self, seed: int, bots: Sequence[str] = default_bots, **options: Any) -> UnoLog:
        """A seeded bot game's log (options: ``game_id``, ``out_dir``, ``interrupt_rate``, ``chat``)."""
        bots = tuple(bots)
        if len(bots) == 1:  # one bot named: it plays both seats
            bots = bots * 2
        return play_game(seed, bots=bots, **options)

    def view_steps(self, replay: UnoReplay, view: str | None) -> list[dict[str, Any]]:
        """The steps as ``view`` saw them: open (None), a seat's, or an onlooker's (``PUBLIC``:
        no hand, no drawn card)."""
        if view == PUBLIC:
            return drawing.public_steps(replay.steps_json(), {s: replay.steps_json(s) for s in SEATS})
        return super().view_steps(replay, view)

    def draw(self, table: Any, steps: Sequence[dict[str, Any]]) -> Any:
        return drawing.draw(table, steps)

    def __repr__(self) -> str:
        return "<game uno-lite/1: UNO Lite>"


GAME = UnoLite()

__all__ = ["GAME", "UnoLite", "UnoLog", "UnoReplay", "parse", "play_game"]
