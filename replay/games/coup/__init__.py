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

from pathlib import Path
from typing import Any, Callable, ClassVar, Mapping, Sequence

from ..base import Export, Fact, ForeignFormat, GameModule
from . import deals, drawing, root_log
from .bots import BOTS, play_game
from .logger import CoupLogger
from .codec import SETUP_CODEC
from .engine import FINDING_KINDS, CoupState
from .log import END_REASONS, CoupLog, json_schema, parse, read_json
from .log import EVENT_MODELS
from .cards import ACTION_CLAIM
from .replay import CoupReplay, Step


class Coup(GameModule):
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
    #: what a bot logs a game with (``GameLogger(game=...)`` hands it out)
    Logger: ClassVar[type] = CoupLogger
    #: text formats ``replay.log.read_logs`` recognises by content (``looks_like``/``read``)
    readers: ClassVar[tuple[ForeignFormat, ...]] = (
        ForeignFormat("coupbots-root", root_log.looks_like, root_log.read, root_log.read_games),)
    #: the first character of this game's replay codes (``replay/codec/generic.py``)
    code_marker: ClassVar[str] = "x"
    #: the log events that are moves (a digit each in a code); ``chat`` is left out of codes
    action_events: ClassVar[frozenset[str]] = frozenset(
        ("action", "challenge", "block", "reveal", "lose", "replace", "exchange"))
    setup_codec: ClassVar[Any] = SETUP_CODEC
    #: a plain log's JSON text -> its ``CoupLog`` in one pass, or None: full reading decides
    #: (``replay.reading``)
    read_json: ClassVar[Any] = read_json
    bench_corpora: ClassVar[tuple[tuple[str, Mapping[str, Any]], ...]] = tuple(
        (f"{n} seats, 3 bots", {"bots": ("honest", "bluffer", "random"), "players": n}) for n in (2, 3, 5))
    #: the bundled sample logs
    sample_logs: ClassVar[Any] = Path(__file__).resolve().parents[3] / "sample_logs" / "coup"
    #: ``deal_scores``: the zero-sum championship score (``deals``)
    deal_unit: ClassVar[str | None] = deals.UNIT
    facts: ClassVar[tuple[Fact, ...]] = (
        Fact("winner", "Winner", kind="seat", column=True),
        Fact("players", "Players", kind="int", column=True),
        Fact("turns", "Turns", kind="int", column=True),
    )

    #: the bots ``selfplay`` seats when none are named
    default_bots: ClassVar[tuple[str, ...]] = ("honest", "bluffer")

    def log_seats(self, log: CoupLog) -> tuple[str, ...]:
        """A log's seats are its players' ids, in table order."""
        return log.seat_order

    def parse(self, data: dict[str, Any], source: str | None = None) -> CoupLog:
        """A decoded JSON object -> ``CoupLog``; raises ``replay.log.LogFormatError``."""
        return parse(data, source)

    def judge(self, log: CoupLog) -> CoupReplay:
        return CoupReplay.from_log(log)

    def json_schema(self) -> dict[str, Any]:
        return json_schema()

    def start(self, log: CoupLog) -> tuple[CoupState, list]:
        """The position after the deal, and the deal's findings."""
        seats = log.seat_order
        state = CoupState(seats, [log.hands[s] for s in seats], log.first_player)
        return state, state.check_setup()

    def finish(self, state: CoupState) -> list:
        """The findings of a log that ends here (a challenge or block left unanswered...)."""
        return state.finish()

    def legal_events(self, state: CoupState) -> list[Any]:
        """Every event that may come next (any seat may challenge or block): each ``legal()``
        entry, a replacement once per character that can be drawn, and an exchange once per
        pair that can be drawn and set of cards that can then be kept."""
        out = []
        for entry in state.legal():
            kind = entry[0]
            if kind == "replace":
                out.extend(_event(state.event_for(entry, card=c)) for c in state.draw_choices())
            elif kind == "exchange":
                for drawn in _pairs(state.deck):
                    out.extend(_event(state.event_for(entry, drawn=drawn, kept=kept))
                               for kept in state.keep_choices(drawn))
            else:
                out.append(_event(state.event_for(entry)))
        return out

    def chance(self, state: CoupState, event: Any) -> bool:
        """The card a replacement draws, and the two an exchange draws, are chance: a seat's
        view of a study is not offered them (they would tell the deck)."""
        return event.type in ("replace", "exchange")

    def move_text(self, state: CoupState, event: Any) -> str:
        """Words for a move a study may try (``replay.study``): the words of the step it would
        make (``Step.text_for`` with every card open), so "try another move" reads as the
        record does, a claim marked as a bluff or true.

        >>> state = CoupState(("1", "2"), [[0, 4], [3, 2]], "1")  # 1: Duke, Contessa; 2: Captain, Ambassador
        >>> [GAME.move_text(state, e) for e in GAME.legal_events(state)][:4]
        ['1 takes income', '1 takes foreign aid', '1 collects tax, claiming Duke (true)', '1 steals from 2, claiming Captain (a bluff)']
        >>> _ = state.push(GAME.legal_events(state)[2], 0)
        >>> GAME.move_text(state, GAME.legal_events(state)[0])
        '2 challenges'
        """
        kind = event.type
        if kind not in ("action", "challenge", "block", "reveal", "replace", "lose", "exchange", "leave"):
            return super().move_text(state, event)
        s = state.index.get(event.seat)
        action = getattr(event, "action", None)
        card = getattr(event, "card", None)
        claim = ACTION_CLAIM.get(action) if kind == "action" else card if kind == "block" else None
        bluff = None if claim is None or s is None else not state.claim_is_true(s, claim)
        out = kind == "lose" and s is not None and state.influence[s] == 1
        drawn = getattr(event, "drawn", None)
        kept = getattr(event, "kept", None)
        step = Step(index=0, kind=kind, seat=event.seat, event=None, action=action,
                    target=getattr(event, "target", None), card=card, claim=claim, bluff=bluff,
                    drawn=None if drawn is None else tuple(drawn), kept=None if kept is None else tuple(kept),
                    out=out, hands=(), influence=(), faceup=(), coins=(), alive=(), deck=(), to_act=None,
                    phase="", turn=0, winner=None, t=None, seats=state.seats, turn_start=0)
        return step.text_for(None)

    def selfplay(self, seed: int, bots: Sequence[str] = default_bots, **options: Any) -> CoupLog:
        """A seeded bot game's log (options: ``players``, ``game_id``, ``out_dir``, ``interrupt_rate``, ``chat``)."""
        return play_game(seed, bots=tuple(bots), **options)

    # -- duplicate deals (``deals``) --------------------------------------------------------------
    def deal_key(self, log: CoupLog) -> str | None:
        """The deck as dealt: the seats in order, each seat's two cards and the first player; None
        when a dealt card is not known (a Root log without every player's first DECK)."""
        return deals.deal_key(log)

    def deal_scores(self, replay: CoupReplay) -> Mapping[str, float] | None:
        """The zero-sum championship score: the winner +1, each other seat -1/(n-1)."""
        return deals.deal_scores(replay)

    def play_table(self, deal: int, bots: Sequence[str], table: int = 0, **options: Any) -> CoupLog:
        """Deal ``deal`` with ``bots[i]`` in seat i + 1: the deck from the deal alone, the bots'
        choices from the deal and the table (option ``players``)."""
        return deals.play_table(deal, bots, table, **options)

    def table_seats(self, bots: Sequence[str], **options: Any) -> int:
        return deals.table_seats(bots, **options)

    def draw(self, table: Any, steps: Sequence[dict[str, Any]]) -> Any:
        return drawing.draw(table, steps)

    def __repr__(self) -> str:
        return "<game coup/1: Coup>"


def _pairs(deck) -> list[tuple[int, int]]:
    """The sorted pairs of characters two draws from the deck can give."""
    kinds = [k for k in range(len(deck)) if deck[k]]
    return [(a, b) for i, a in enumerate(kinds) for b in kinds[i:] if a != b or deck[a] >= 2]


def _event(ev) -> Any:
    """A light engine event as the log's own event model."""
    fields = {k: v for k, v in ev._asdict().items() if v is not None}
    for key in ("drawn", "kept"):
        if key in fields:
            fields[key] = list(fields[key])
    return EVENT_MODELS[ev.type].model_construct(**fields)


GAME = Coup()

__all__ = ["GAME", "Coup", "CoupLog", "CoupReplay", "parse", "play_game"]
