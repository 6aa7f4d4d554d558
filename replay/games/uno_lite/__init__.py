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

from pathlib import Path
from typing import Any, Callable, ClassVar, Mapping, Sequence

from ..base import Export, Fact, GameModule
from .bots import BOTS, play_game
from . import deals
from .logger import UnoLogger
from .codec import SETUP_CODEC
from .engine import FINDING_KINDS, SEATS, UnoState
from .log import END_REASONS, DrawEvent, PassEvent, PlayEvent, UnoLog, json_schema, parse, read_json
from .replay import Step, UnoReplay
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
    #: the bundled sample logs
    sample_logs: ClassVar[Any] = Path(__file__).resolve().parents[3] / "sample_logs" / "uno-lite"
    #: ``deal_scores``: UNO's pip count, zero-sum (``deals``)
    deal_unit: ClassVar[str | None] = deals.UNIT
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

    def chance(self, state: UnoState, event: Any) -> bool:
        """A draw's card is chance: a seat's view of a study is not offered the cards a draw
        could give (they would tell the other hand).

        >>> GAME.chance(None, DrawEvent.model_construct(type="draw", seat="P1", card=3))
        True
        """
        return event.type == "draw"

    def move_text(self, state: UnoState, event: Any) -> str:
        """Words for a move a study may try (``replay.study``): the words of the step it would
        make (``Step.text_for``), so "try another move" reads as the record does.

        >>> from replay.games.uno_lite.cards import parse_card
        >>> state = UnoState([[parse_card(c) for c in ("Y3", "R5")], [parse_card("G9")]], parse_card("Y9"), "P1")
        >>> [GAME.move_text(state, e) for e in GAME.legal_events(state)]
        ['P1 plays 🟡3 (Y3)']
        >>> _ = state.push(GAME.legal_events(state)[0], 0)
        >>> [GAME.move_text(state, e) for e in GAME.legal_events(state)][:3]
        ['P2 draws 🔴1 (R1)', 'P2 draws 🔴2 (R2)', 'P2 draws 🔴3 (R3)']
        >>> GAME.move_text(state, PassEvent.model_construct(type="pass", seat="P1"))
        'P1 passes'
        >>> GAME.move_text(state, DrawEvent.model_construct(type="draw", seat="P1", card=parse_card("B7")))
        'P1 draws 🔵7 (B7)'
        """
        kind = event.type
        if kind not in ("play", "draw", "pass"):
            return super().move_text(state, event)
        seat = event.seat if isinstance(event.seat, str) else SEATS[event.seat]
        card = getattr(event, "card", None)
        index = SEATS.index(seat) if seat in SEATS else None
        wins = kind == "play" and index is not None and state.hand_sizes[index] == 1
        step = Step(index=0, kind=kind, seat=seat, card=card, event=None, hands=((), ()), top=state.top,
                    pile_size=state.pile_size, discard_size=0, to_act=None, turn=0,
                    reshuffled=kind == "draw" and state.pile_size == 0, winner=seat if wins else None, t=None)
        return step.text_for(None)

    #: the bots ``selfplay`` seats when none are named
    default_bots: ClassVar[tuple[str, ...]] = ("greedy", "random")

    def selfplay(self, seed: int, bots: Sequence[str] = default_bots, **options: Any) -> UnoLog:
        """A seeded bot game's log (options: ``game_id``, ``out_dir``, ``interrupt_rate``, ``chat``)."""
        bots = tuple(bots)
        if len(bots) == 1:  # one bot named: it plays both seats
            bots = bots * 2
        return play_game(seed, bots=bots, **options)

    # -- duplicate deals (``deals``) --------------------------------------------------------------
    def deal_key(self, log: UnoLog) -> str | None:
        """The deal as logged: the first player, each seat's dealt hand and the starter (the draw
        pile's order is not logged); see ``deals``."""
        return deals.deal_key(log)

    def deal_scores(self, replay: UnoReplay) -> Mapping[str, float] | None:
        """UNO's pip count, zero-sum: the winner +the pips left in the other hand, the other
        seat -its own; None for a game cut short or with a fatal finding."""
        return deals.deal_scores(replay)

    def play_table(self, deal: int, bots: Sequence[str], table: int = 0, **options: Any) -> UnoLog:
        """Deal ``deal`` with ``bots[i]`` in seat i: the deck from the deal alone, the bots'
        choices from the deal and the table."""
        return deals.play_table(deal, bots, table, **options)

    def table_seats(self, bots: Sequence[str], **options: Any) -> int:
        return deals.table_seats(bots, **options)

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
