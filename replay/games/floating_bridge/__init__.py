"""Floating bridge, the game BridgeBot and Singbridge run: the ``floating-bridge/1`` game module.

``GAME`` is what the registry (``replay.games``) hands out:

>>> from replay.games import get
>>> bridge = get("floating-bridge")
>>> replay = bridge.judge(bridge.selfplay(seed=7, bots=("greedy",)))
>>> replay.to_json()["game"], len(replay.winners) in (1, 2, 3)
('floating-bridge', True)

The package: ``cards`` (seats, cards, calls), ``rules`` (presets, flags, the pure rule
functions), ``engine`` (``Game``, the state machine, which the codec also plays cards through), ``log`` (log format
v1's models), ``game`` (``GameReplay``, a judged game), ``logger`` (``BridgeLogger``, for bots),
``bots`` (self-play), ``codec`` (the tuned replay codes and BridgeBot's), ``formats`` (BridgeBot
text logs in, PBN and LIN out), ``commands`` and ``formats.commands`` (``analyse``,
``export``), ``analysis`` and ``solver`` (double-dummy).
"""

from __future__ import annotations

from typing import Any, ClassVar, Mapping, Sequence

from ...errors import ReplayError
from ..base import Export, Fact, ForeignFormat, GameModule, StudyFormat
from . import bots as _bots
from . import codec as _codec
from . import deals as _deals
from .cards import Call, CallParseError, Seat
from .formats.lin import to_lin
from .formats.pbn import ENCODING as PBN_ENCODING
from .formats.pbn import to_pbn
from .formats import study_lin, study_pbn
from .analysis import VERSION as ANALYSIS_VERSION
from .analysis import analyse
from .commands import analyse_command
from .engine import FINDING_KINDS, Game
from .formats import bridgebot_text
from .formats.commands import export_command
from .game import GameReplay
from .log import END_REASONS, BidEvent, GameLog, PartnerEvent, PlayEvent, json_schema, parse
from .logger import BridgeLogger
from .reading import read_json
from . import drawing
from ...picture.scene import PUBLIC


def _contract(text: str) -> str:
    """A contract as a user types it (``3nt``) -> as stored (``3NT``)."""
    try:
        call = Call.parse(text)
    except CallParseError:
        raise ValueError(f"contract must be a bid like 3S or 2NT, not {text!r}") from None
    if call.is_pass:
        raise ValueError("contract must be a bid like 3S or 2NT, not pass")
    return str(call)


def _contract_shown(value: "str | int") -> str:
    """A stored contract as listings show it: ``3S`` -> ``3♠``, ``2NT`` stays.

    >>> _contract_shown("3S"), _contract_shown("2NT")
    ('3♠', '2NT')
    """
    text = str(value)
    return text[:-1] + {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}[text[-1]] if text[-1:] in "CDHS" and text[-1:] else text


def _seat_fact(what: str):
    def normalise(text: str) -> str:
        try:
            return Seat.parse(text).name
        except ReplayError:
            raise ValueError(f"{what} must be a seat (N, E, S or W), not {text!r}") from None
    return normalise


class FloatingBridge(GameModule):
    """The floating bridge game module (``replay.games.base.GameModule``)."""

    name: ClassVar[str] = "floating-bridge"
    title: ClassVar[str] = "Floating bridge"
    major: ClassVar[int] = 1
    seats: ClassVar[tuple[str, ...]] = ("N", "E", "S", "W")
    finding_kinds: ClassVar[Mapping[str, bool]] = FINDING_KINDS
    end_reasons: ClassVar[tuple[str, ...]] = END_REASONS
    Log: ClassVar[type] = GameLog
    bots: ClassVar[Mapping[str, Any]] = _bots.BOTS
    #: what a bot logs a game with (``GameLogger()`` hands it out: bridge is the default game)
    Logger: ClassVar[type] = BridgeLogger
    #: text formats ``replay.log.read_logs`` recognises by content: BridgeBot's text logs
    readers: ClassVar[tuple[ForeignFormat, ...]] = (
        ForeignFormat("bridgebot-text", bridgebot_text.looks_like, bridgebot_text.read),)
    #: the tuned codec with codes of its own shape (``replay.codec`` asks it first)
    text_codec: ClassVar[Any] = _codec
    #: what ``game-replay decode`` calls a code of the original BridgeBot
    legacy_code_label: ClassVar[str] = "original BridgeBot code"
    #: the log events that are actions (a step each)
    action_events: ClassVar[frozenset[str]] = frozenset(("bid", "partner", "play"))
    #: the step kind that ends a chapter (the viewer's up/down keys)
    chapter: ClassVar[str] = "trick"
    #: a plain log's JSON text -> its ``GameLog`` in one pass, or None: full reading decides
    #: (``replay.reading``)
    read_json: ClassVar[Any] = read_json
    #: what the archive indexes and every filter is built from (``Outcome.facts``)
    facts: ClassVar[tuple[Fact, ...]] = (
        Fact("contract", "Contract", normalise=_contract, pattern=r"[1-7](?:[CDHScdhs♣♦♥♠]|[Nn][Tt]?)",
             show=_contract_shown, column=True, help="a bid like 3S or 2NT"),
        Fact("declarer", "Declarer", kind="seat", normalise=_seat_fact("declarer"), values=("N", "E", "S", "W"),
             column=True),
        Fact("partner_seat", "Partner", kind="seat", normalise=_seat_fact("partner_seat"),
             values=("N", "E", "S", "W")),
        Fact("result", "Result", values=("declarer", "defenders"), column=True,
             help="which side won: declarer or defenders"),
        Fact("rules", "Rules"),
    )
    roles: ClassVar[tuple[str, ...]] = ("declarer", "partner", "defender")
    #: the player and bot counters keep games as declarer and contracts made
    counted_role: ClassVar[str | None] = "declarer"
    exports: ClassVar[tuple[Export, ...]] = (
        Export("pbn", "PBN", ".pbn", "application/x-bridge-pbn", to_pbn, encoding=PBN_ENCODING),
        Export("lin", "LIN", ".lin", "application/x-bridge-lin", to_lin),
    )
    #: a study (``replay.study``) as PBN with notes and as LIN with ``nt`` commentary, each
    #: what-if branch a game of its own; both read back (``docs/games/floating-bridge.md``)
    study_formats: ClassVar[tuple[StudyFormat, ...]] = (
        StudyFormat("pbn", "PBN with commentary", study_pbn.SUFFIX, study_pbn.MEDIA_TYPE, study_pbn.write,
                    study_pbn.read, study_pbn.looks_like, encoding=PBN_ENCODING),
        StudyFormat("lin", "LIN with commentary", study_lin.SUFFIX, study_lin.MEDIA_TYPE, study_lin.write,
                    study_lin.read, study_lin.looks_like),
    )

    def parse(self, data: dict[str, Any], source: str | None = None) -> GameLog:
        """A decoded JSON object -> ``GameLog``; raises ``replay.log.LogFormatError``."""
        return parse(data, source)

    def judge(self, log: GameLog) -> GameReplay:
        return GameReplay.from_log(log)

    def json_schema(self) -> dict[str, Any]:
        return json_schema()

    def seat_key(self, name: str) -> Seat:
        """A seat's name as the log model keys its players by it."""
        return Seat[name]

    #: the game's own CLI commands (``replay.cli`` adds them): ``export`` and ``analyse``
    commands: ClassVar[tuple[Any, ...]] = (export_command, analyse_command)
    #: the bots ``selfplay`` seats when none are named
    default_bots: ClassVar[tuple[str, ...]] = ("greedy",)
    #: the rule presets ``selfplay --rules`` offers
    rule_presets: ClassVar[tuple[str, ...]] = ("bridgebot", "all-tricks")
    #: a seat's result at a duplicate deal: the tricks its side took (``deals``)
    deal_unit: ClassVar[str] = "tricks"

    def replay_lines(self, replay: GameReplay) -> list[str]:
        """What ``game-replay replay`` prints after the summary line: the partner card and the
        trick winners."""
        lines = []
        if replay.partner_card is not None:
            lines.append(f"  partner card {replay.partner_card} held by {replay.partner_seat.name}")
        if replay.trick_winners:
            lines.append("  trick winners: " + " ".join(s.name for s in replay.trick_winners))
        return lines

    def describe_code(self, replay) -> list[str]:
        """What ``game-replay decode`` prints about a game, after its summary line."""
        log = replay.log
        lines = [f"  rules {replay.rules.name}, first bidder {log.first_bidder.name}, end {replay.end_reason}"]
        for seat, cards in zip(Seat, log.hands.by_seat()):
            name = log.player_name(seat)
            label = f"{seat.name} ({name})" if name else seat.name
            lines.append(f"  {label}: {' '.join(str(c) for c in cards)}")
        if replay.calls:
            lines.append("  auction: " + " ".join(f"{s.name}:{c}" for s, c in replay.calls))
        if replay.partner_card is not None:
            lines.append(f"  partner card {replay.partner_card} held by {replay.partner_seat.name}")
        if replay.trick_winners:
            lines.append("  trick winners: " + " ".join(s.name for s in replay.trick_winners))
        return lines

    def start(self, log: GameLog):
        """The position after the deal (an ``engine.Game``), and the deal's findings."""
        state = Game(log.hands.by_seat(), log.first_bidder, log.rules)
        return state, state.check_deal()

    def legal_events(self, state) -> list[Any]:
        """Every event the seat to act may log now, as log events (calls, partner cards, cards)."""
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

    def move_text(self, state, event) -> str:
        """Words for a call, a partner call or a card, as the replay's steps say them
        (``game.Step.text``): "North bids 2♥", "East passes", "North calls ♠A as the partner
        card", "East plays ♦3".

        >>> from replay.games.floating_bridge.cards import Call, Card
        >>> GAME.move_text(None, BidEvent.model_construct(type="bid", seat=Seat.N, bid=Call.parse("2H")))
        'North bids 2♥'
        >>> GAME.move_text(None, PlayEvent.model_construct(type="play", seat=Seat.E, card=Card.parse("D3")))
        'East plays ♦3'
        >>> GAME.move_text(None, PartnerEvent.model_construct(type="partner", seat=Seat.N, card=Card.parse("SA")))
        'North calls ♠A as the partner card'
        """
        if event.type not in self.action_events:  # an announcement (a trick's winner), or chat
            return super().move_text(state, event)
        name = event.seat.full_name
        if event.type == "bid":
            return f"{name} passes" if event.bid.is_pass else f"{name} bids {event.bid.symbol}"
        if event.type == "partner":
            return f"{name} calls {event.card.symbol} as the partner card"
        if event.type == "play":
            return f"{name} plays {event.card.symbol}"
        return super().move_text(state, event)

    def selfplay(self, seed: int, bots: Sequence[str] = ("greedy",), **options: Any) -> GameLog:
        """One seeded game; bridge's bots play all four seats with the first bot named."""
        return _bots.play_game(seed, bot=bots[0] if bots else "greedy", **options)

    # -- duplicate deals (``replay.duplicate``; ``deals``) -----------------------------------
    def deal_key(self, log: GameLog) -> str | None:
        """The fingerprint of the 52 cards (each seat's 13, sorted, by seat) and the first
        bidder; None when the log's hands are not a whole deal (``deals.deal_key``)."""
        return _deals.deal_key(log)

    def deal_scores(self, replay: GameReplay) -> dict[str, int] | None:
        """Each seat's side's tricks over (+) or short (-) of the side's number (the declarer and its
        partner, or the defenders): ``+1`` made with one over, ``-2`` two down; 0 at every seat for
        a deal passed out; None for a game cut short or stopped by a fatal finding
        (``deals.deal_scores``)."""
        return _deals.deal_scores(replay)

    def play_table(self, deal: int, bots: Sequence[str], table: int = 0, **options: Any) -> GameLog:
        """Championship deal ``deal`` with ``bots[i]`` in seat i (N, E, S, W): the cards and the
        first bidder drawn from the deal number alone, the bots' choices from ``(deal, table)``
        (``bots.play_table``; options: ``rules``, ``interrupt_rate``, ``chat``...)."""
        return _bots.play_table(deal, tuple(bots), table, **options)

    # -- double-dummy analysis: the hook the archive and the viewer use (a game module may
    # offer ``analyse``; the archive keeps its answer, keyed by the game's content) ----------
    #: changes when the analysis of the same game could change: older stored ones are redone
    analysis_version: ClassVar[str] = ANALYSIS_VERSION

    def analyse(self, replay) -> dict[str, Any]:
        """The double-dummy analysis of a judged game as JSON (``analysis.GameAnalysis.to_json``
        with every legal card's value), each card with ``step`` (its step in the replay) instead
        of the log's event index, so that the same game read from a code or from its log gives
        the same answer; ``analysed_to`` (the last card's step) and ``stops`` (why the analysis
        ends before the 52nd card, or None)."""
        result = analyse(replay, values=True).to_json()
        for card in result["cards"]:
            card["step"] = replay.event_steps[card.pop("event")]
        cards = result["cards"]
        result["analysed_to"] = cards[-1]["step"] if cards else None
        stops = None
        if not cards:
            stops = "no card was played" if replay.contract is not None else "there was no contract, so no play"
        elif not result["complete"]:
            fatal = next((f for f in replay.findings if f.fatal), None)
            where = f" at step {fatal.step}" if fatal is not None else ""
            stops = f"rule checking stopped at a fatal finding{where}: the cards after it are not analysed"
        elif len(cards) < 52:
            why = ("the result was settled" if replay.end_reason == "completed"
                   else f"the game ended: {replay.end_reason.replace('_', ' ')}")
            stops = f"the play ended after {len(cards)} of 52 cards ({why}); only the cards played are analysed"
        result["stops"] = stops
        return result

    # -- pictures (``replay.picture``) -------------------------------------------------------
    def view_steps(self, replay: GameReplay, view: str | None) -> list[dict[str, Any]]:
        """The steps as ``view`` saw them: every card open (None), a seat's (its own hand), or
        an onlooker's (``PUBLIC``: no hand; the cards played, the auction and the partner card
        are public). ``GameReplay.steps_json`` does the hiding."""
        if view is None:
            return replay.steps_json()
        if view == PUBLIC:
            return replay.steps_json(public=True)
        return replay.steps_json(view)

    def draw(self, table: Any, steps: Sequence[dict[str, Any]]) -> Any:
        return drawing.draw(table, steps)

    def __repr__(self) -> str:
        return f"<game {self.name}>"


GAME = FloatingBridge()
