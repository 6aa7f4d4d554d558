"""Party cards (Cards Against Humanity style) as chat bots run them: the ``party-cards/1`` game module.

``GAME`` is what the registry (``replay.games``) hands out:

>>> from replay.games import get
>>> game = get("party-cards")
>>> game.title, game.finding_kinds["pick_out_of_range"], game.end_reasons[-1]
('Party Cards', True, 'not_enough_players')
>>> replay = game.judge(game.selfplay(seed=3, bots=("random",)))
>>> replay.findings, replay.end_reason
([], 'completed')

Seats are the bot's own names (``p1``, a chat handle), so ``seats`` is empty: each log lists
its own in ``players``. The package: ``cards`` (the bundled pool, ``fill_blanks``), ``log``
(the pydantic models of the format), ``engine`` (``PartyState``), ``replay`` (``PartyReplay``),
``logger`` (``PartyLogger``, for bots), ``bots`` (self-play), ``image`` (``round_svg``) and
``codec`` (a compact binary form of a log).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, ClassVar, Mapping, Sequence

from replay.codec.errors import CodeError

from ..base import Export, Fact, GameModule
from . import deals, drawing
from .bots import BOTS, play_game
from .logger import PartyLogger
from .codec import PayloadError, decode_payload, encode_payload
from .engine import FINDING_KINDS, PartyState
from .log import END_REASONS, AnswerEvent, DeclineEvent, JoinEvent, PartyLog, PickEvent, json_schema, parse, read_json
from .replay import PartyReplay


class PartyCards(GameModule):
    """The party-cards game module (``replay.games.base.GameModule``)."""

    name: ClassVar[str] = "party-cards"
    title: ClassVar[str] = "Party Cards"
    major: ClassVar[int] = 1
    seats: ClassVar[tuple[str, ...]] = ()  # free names, listed per log in ``players``
    finding_kinds: ClassVar[Mapping[str, bool]] = FINDING_KINDS
    end_reasons: ClassVar[tuple[str, ...]] = END_REASONS
    Log: ClassVar[type] = PartyLog
    bots: ClassVar[Mapping[str, Callable[..., Any]]] = BOTS
    #: what a bot logs a game with (``GameLogger(game=...)`` hands it out)
    Logger: ClassVar[type] = PartyLogger
    #: the log events that are a seat's decisions (the bot's own moves are not)
    action_events: ClassVar[frozenset[str]] = frozenset(("join", "decline", "answer", "pick"))
    #: the first character of this game's replay codes (``replay/codec/generic.py``)
    code_marker: ClassVar[str] = "w"
    #: card texts are free text: the code is this game's own compressed form of the log
    payload_codec: ClassVar[Any] = None  # set below
    #: a plain log's JSON text -> its ``PartyLog`` in one pass, or None: full reading decides
    #: (``replay.reading``)
    read_json: ClassVar[Any] = read_json
    bench_corpora: ClassVar[tuple[tuple[str, Mapping[str, Any]], ...]] = tuple(
        (f"{r} rounds", {"bots": ("random",), "rounds": r, "score_limit": r + 1}) for r in (5, 10))
    #: the bundled sample logs
    sample_logs: ClassVar[Any] = Path(__file__).resolve().parents[3] / "sample_logs" / "party-cards"
    #: ``deal_scores``: rounds won, the awesome points (``deals``)
    deal_unit: ClassVar[str | None] = deals.UNIT
    facts: ClassVar[tuple[Fact, ...]] = (
        Fact("winner", "Winner", kind="seat", column=True),
        Fact("players", "Players", kind="int", column=True),
        Fact("rounds", "Rounds", kind="int", column=True),
    )

    def parse(self, data: dict[str, Any], source: str | None = None) -> PartyLog:
        """A decoded JSON object -> ``PartyLog``; raises ``replay.log.LogFormatError``."""
        return parse(data, source)

    def judge(self, log: PartyLog) -> PartyReplay:
        """One engine pass over the log: findings, winner, scores, rounds."""
        return PartyReplay.from_log(log)

    def json_schema(self) -> dict[str, Any]:
        return json_schema()

    def start(self, log: PartyLog) -> tuple[PartyState, list]:
        """The position before the first event (the lobby), and the setup's findings."""
        seats = log.seats
        hands = [None if seat not in log.hands else [(c.id, c.text) for c in log.hands[seat]] for seat in seats]
        state = PartyState(seats, hands, log.hand_size, log.score_limit, None)
        return state, state.check_setup()

    def legal_events(self, state: PartyState) -> list[Any]:
        """Every event the seat to act may log now: join or decline in the lobby, each ordered
        choice of answer cards, each pick. The bot's own moves (rounds, reveals, draws) are not
        a seat's decisions, so there are none while the bot acts."""
        out = []
        for action in state.legal():
            kind, seat = action[0], action[1]
            if kind == "answer":
                out.append(AnswerEvent.model_construct(type="answer", seat=seat, cards=list(action[2])))
            elif kind == "pick":
                out.append(PickEvent.model_construct(type="pick", seat=seat, choice=action[2]))
            elif kind == "join":
                out.append(JoinEvent.model_construct(type="join", seat=seat))
            else:
                out.append(DeclineEvent.model_construct(type="decline", seat=seat))
        return out

    def move_text(self, state: PartyState, event: Any) -> str:
        """Words for a move a study may try (``replay.study``): the step's own words (``joins``,
        ``declines``), an answer by its cards' texts, a pick by the answer's number and texts
        (never its author: the czar picks blind). A text is cut at ``MOVE_TEXT_CHARS``; a card
        whose text another card in the hand shares gets its id too.

        >>> state = PartyState(("ann", "bob", "cy"), [[("a1", "A duck."), ("a2", "Tax returns."), ("a3", "A duck.")],
        ...                    [("b1", "Nothing")], [("c1", "Glitter")]], hand_size=3)
        >>> [GAME.move_text(state, e) for e in GAME.legal_events(state)]
        ['ann joins', 'ann declines']
        >>> for name in ("ann", "bob", "cy"):
        ...     _ = state.join(name, 0)
        >>> _ = state.round("bob", "q1", "What is in the box? ____.", 1, 0)
        >>> [GAME.move_text(state, e) for e in GAME.legal_events(state)]
        ['ann answers “A duck.” (a1)', 'ann answers “Tax returns.”', 'ann answers “A duck.” (a3)']
        """
        kind = event.type
        seat = event.seat
        if kind in ("join", "decline", "leave"):
            return f"{seat} {kind}s"
        if kind == "answer":
            hand = state.hands[state.index[seat]] if seat in state.index else {}
            return f"{seat} answers " + " + ".join(_card_words(state, card, hand) for card in event.cards)
        if kind == "pick":
            order = state.order if state.order is not None else tuple(state.submissions)
            choice = event.choice
            if not 1 <= choice <= len(order):
                return f"{seat} picks answer {choice}"
            cards = state.submissions.get(order[choice - 1], ())
            return f"{seat} picks answer {choice}: " + " + ".join(_card_words(state, card, {}) for card in cards)
        return super().move_text(state, event)

    #: the bots ``selfplay`` seats when none are named
    default_bots: ClassVar[tuple[str, ...]] = ("random",)

    def log_seats(self, log: PartyLog) -> tuple[str, ...]:
        """A log's seats are its invited players' names, in table order."""
        return log.seats

    def selfplay(self, seed: int, bots: Sequence[str] = default_bots, **options: Any) -> PartyLog:
        """A seeded bot game's log (options: ``out_dir``, ``interrupt_rate``, ``rounds``,
        ``score_limit``, ``hand_size``, ``chat``, ``game_id``)."""
        return play_game(seed, bots=tuple(bots), **options)

    # -- duplicate deals (``deals``) --------------------------------------------------------------
    def deal_key(self, log: PartyLog) -> str | None:
        """The card order as logged: each seat's dealt hand, the first czar, the first question
        (and the score limit); None for a log without a round. See ``deals``."""
        return deals.deal_key(log)

    def deal_scores(self, replay: PartyReplay) -> Mapping[str, float] | None:
        """Each seat's rounds won; None for a game cut short or with a fatal finding."""
        return deals.deal_scores(replay)

    def play_table(self, deal: int, bots: Sequence[str], table: int = 0, **options: Any) -> PartyLog:
        """Deal ``deal`` with ``bots[i]`` in seat p(i + 1): the decks' order from the deal alone,
        the bots' choices and the reveal order from the deal and the table."""
        return deals.play_table(deal, bots, table, **options)

    def table_seats(self, bots: Sequence[str], **options: Any) -> int:
        return deals.table_seats(bots, **options)

    def draw(self, table: Any, steps: Sequence[dict[str, Any]]) -> Any:
        return drawing.draw(table, steps)

    def __repr__(self) -> str:
        return "<game party-cards/1: Party Cards>"


#: the most characters of a card's text a move's words show
MOVE_TEXT_CHARS = 80


def _card_words(state: PartyState, card: str, hand: Mapping[str, Any]) -> str:
    """A card as a move's words show it: its text in quotes (cut, on one line), with its id
    when another card of ``hand`` has the same text."""
    text = " ".join(state.texts.get(card, card).split())
    words = f"“{text if len(text) <= MOVE_TEXT_CHARS else text[:MOVE_TEXT_CHARS - 1] + '…'}”"
    if any(other != card and state.texts.get(other) == state.texts.get(card) for other in hand):
        words += f" ({card})"
    return words


class _PayloadCodec:
    """The code's integer is this game's compressed payload (``codec.encode_payload``) read as a
    big-endian number behind a 0x01 byte, so leading zero bytes survive."""

    def payload(self, log: PartyLog) -> int:
        return int.from_bytes(b"\x01" + encode_payload(log), "big")

    def from_payload(self, value: int) -> dict[str, Any]:
        data = value.to_bytes((value.bit_length() + 7) // 8, "big")
        if data[:1] != b"\x01":
            raise CodeError("the code is damaged: its payload does not start as a party-cards payload does")
        try:
            return decode_payload(data[1:]).to_json_dict()
        except PayloadError as exc:
            raise CodeError(f"the code is damaged: {exc}") from None


PartyCards.payload_codec = _PayloadCodec()
GAME = PartyCards()

__all__ = ["GAME", "PartyCards", "PartyLog", "PartyReplay", "parse", "play_game"]
