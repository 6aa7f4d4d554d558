"""Floating bridge's log format v1 (``floating-bridge/1``): the pydantic models, their fast
path and the JSON Schema.

The contract is ``shared/spec/log-format.md`` (mirrored in ``docs/log-format.md``); the JSON
Schema in ``docs/log-format.schema.json`` is generated from these models
(``python -m replay.games.floating_bridge.log --schema``). The readers every game shares
(``parse_log``, ``read_logs``, ``LogFormatError``) are ``replay.log``.

Readers are liberal (any card spelling, unknown extra fields kept); the writer prints one
canonical form. A log that is not well-formed raises ``LogFormatError`` naming each place:

>>> parse({"format": "floating-bridge/1", "first_bidder": "N", "events": [],
...        "hands": {"N": ["S1O"], "E": [], "S": [], "W": []}})
Traceback (most recent call last):
...
replay.log.LogFormatError: hands.N[0]: 'S1O' is not a card
"""

from __future__ import annotations

import sys
from contextvars import ContextVar
from datetime import datetime
from typing import Annotated, Any, Literal, Union

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainSerializer,
    PlainValidator,
    WithJsonSchema,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from ...envelope import Envelope
from ...kit.log import LogFormat, chat_event, end_model
from ...log import Millis, Player, _model, _new, _Open, _set, _short_repr, plain_envelope
from ...log import plain_players, plain_start_time
from .cards import CALL_TEXT, CARD_TEXT, Call, CallParseError, Card, CardParseError, Seat, singbridge_number
from .rules import FLAG_TYPES, PRESETS, Rules, RulesError

#: a seat's text by its number (``Seat.N`` is 0), for the serializer
SEAT_TEXT: tuple[str, ...] = tuple(seat.name for seat in Seat)

FORMAT = "floating-bridge/1"
END_REASONS = ("completed", "passed_out", "cancelled", "timeout", "abandoned")
#: How a log writes calls and cards: ``standard`` text (``1S``, ``SA``), or ``singbridge``, the
#: numbers of the Singbridge game (``45`` is 4NT, ``0`` pass, ``114`` the ace of clubs).
NOTATIONS = ("standard", "singbridge")
#: Upper bounds that keep hostile input cheap to reject.
MAX_EVENTS = 5000  # the compact codec's own sanity bound; a log is held to EVENT_LIMITS below
MAX_TEXT = 4000
#: The most events of each kind a legal floating bridge game has, whatever its rule flags:
#: the longest auction is 3 passes, 1C, then every higher bid with 2 passes before each
#: (3 + 35 + 2 * 34 = 106 calls, ending at once on 7NT); one partner call; 52 cards; 13
#: trick announcements.
LEGAL_EVENTS = {"bid": 106, "partner": 1, "play": 52, "trick": 13}
#: How many of each kind a log may hold: the legal number plus slack, so that a broken bot's
#: game (every call or card logged twice, a trick announced after every card, a partner call
#: repeated) is still read, stored and judged, while a log no game could produce is refused.
EVENT_LIMITS = {"bid": 212, "partner": 8, "play": 104, "trick": 52, "chat": 200}
#: All events of a log, and the characters of all its chat lines together.
MAX_LOG_EVENTS = sum(EVENT_LIMITS.values())
MAX_CHAT_TEXT = 50_000
_LIMITS_TEXT = (", ".join(f"{n} {k}" for k, n in EVENT_LIMITS.items() if k != "chat")
                + f" and {EVENT_LIMITS['chat']} chat")
# --- field types -----------------------------------------------------------------------------

#: The notation of the log being validated (set by ``GameLog`` around its fields' validation).
_NOTATION: ContextVar[str | None] = ContextVar("log_notation", default=None)
_NUMBER_HINT = " (numbers are read as cards and calls only in a log with \"notation\": \"singbridge\")"


def _card(value: Any) -> Card:
    try:  # no text that Card.parse reads is a number, so numbers need no look first
        return Card.parse(value)
    except CardParseError:
        pass
    number = singbridge_number(value)
    if number is not None and _NOTATION.get() == "singbridge":
        try:
            return Card.from_singbridge(number)
        except CardParseError as exc:
            raise PydanticCustomError("card", str(exc)) from None
    hint = _NUMBER_HINT if number is not None else ""
    raise PydanticCustomError("card", "{text} is not a card{hint}", {"text": _short_repr(value), "hint": hint})


def _call(value: Any) -> Call:
    try:  # no text that Call.parse reads is a number, so numbers need no look first
        return Call.parse(value)
    except CallParseError:
        pass
    number = singbridge_number(value)
    if number is not None and _NOTATION.get() == "singbridge":
        try:
            return Call.from_singbridge(number)
        except CallParseError as exc:
            raise PydanticCustomError("call", str(exc)) from None
    hint = _NUMBER_HINT if number is not None else ""
    raise PydanticCustomError("call", "{text} is not a call{hint}", {"text": _short_repr(value), "hint": hint})


def _seat(value: Any) -> Seat:
    if isinstance(value, Seat):
        return value
    if isinstance(value, str) and value.strip().upper() in ("N", "E", "S", "W"):
        return Seat[value.strip().upper()]
    raise PydanticCustomError("seat", "{text} is not a seat (N, E, S or W)", {"text": _short_repr(value)})


def _rules(value: Any) -> Rules:
    try:
        return Rules.from_spec(value)
    except RulesError as exc:
        raise PydanticCustomError("rules", str(exc)) from None


CardField = Annotated[
    Card,
    PlainValidator(_card),
    # the text by a C-level lookup, not a Python ``__str__`` call: a log holds dozens of cards,
    # and serialising logs (the archive's canonical hash of every game) pays for each
    PlainSerializer(CARD_TEXT.__getitem__, return_type=str),
    WithJsonSchema({
        "description": "a card: suit letter then rank, e.g. SA, HT, C2; in a log with notation singbridge "
                       "also a number, suit (1-4 = C, D, H, S) times 100 plus rank (2-14), e.g. 114 = CA",
        "anyOf": [{"type": "string"}, {"type": "integer", "minimum": 102, "maximum": 414}],
    }),
]
CallField = Annotated[
    Call,
    PlainValidator(_call),
    PlainSerializer(CALL_TEXT.__getitem__, return_type=str),
    WithJsonSchema({
        "description": "pass, or a bid like 1S, 3NT; in a log with notation singbridge also a number, "
                       "0 = pass or level times 10 plus strain (1-5 = C, D, H, S, NT), e.g. 45 = 4NT",
        "anyOf": [{"type": "string"}, {"type": "integer", "minimum": 0, "maximum": 75}],
    }),
]
SeatField = Annotated[
    Seat,
    PlainValidator(_seat),
    PlainSerializer(SEAT_TEXT.__getitem__, return_type=str),
    WithJsonSchema({"type": "string", "enum": ["N", "E", "S", "W"]}),
]
RulesField = Annotated[
    Rules,
    PlainValidator(_rules),
    PlainSerializer(lambda r: r.to_spec()),
    WithJsonSchema({
        "description": "a preset name, or an object naming a preset and overriding flags",
        "oneOf": [
            {"type": "string", "enum": sorted(PRESETS)},
            {"type": "object", "properties": {
                "preset": {"type": "string", "enum": sorted(PRESETS)},
                **{k: {"type": "integer" if t is int else "boolean"} for k, t in FLAG_TYPES.items()},
            }, "additionalProperties": False},
        ],
    }),
]
class Hands(_Open):
    model_config = ConfigDict(extra="forbid", frozen=True)
    N: list[CardField] = Field(max_length=52)
    E: list[CardField] = Field(max_length=52)
    S: list[CardField] = Field(max_length=52)
    W: list[CardField] = Field(max_length=52)

    def by_seat(self) -> tuple[list[Card], list[Card], list[Card], list[Card]]:
        return (self.N, self.E, self.S, self.W)


class BidEvent(_Open):
    type: Literal["bid"]
    seat: SeatField
    bid: CallField
    t: Millis | None = None


class PartnerEvent(_Open):
    type: Literal["partner"]
    seat: SeatField
    card: CardField
    t: Millis | None = None


class PlayEvent(_Open):
    type: Literal["play"]
    seat: SeatField
    card: CardField
    t: Millis | None = None


class TrickEvent(_Open):
    type: Literal["trick"]
    winner: SeatField
    t: Millis | None = None


ChatEvent = chat_event(SeatField, MAX_TEXT, __name__)


Event = Annotated[
    Union[BidEvent, PartnerEvent, PlayEvent, TrickEvent, ChatEvent],
    Field(discriminator="type"),
]
EVENT_TYPES = ("bid", "partner", "play", "trick", "chat")


End = end_model(END_REASONS, __name__)


class GameLog(_Open, Envelope):
    """One game, as a bot logged it (log format v1)."""

    format: Literal["floating-bridge/1"] = Field(description="game and major version of this format")
    notation: Literal["standard", "singbridge"] = Field("standard", exclude=True, description=(
        "how calls and cards are written: standard text, or singbridge, which also takes Singbridge's "
        "numbers (bids: level times 10 plus strain 1-5 = C, D, H, S, NT, 0 = pass; cards: suit 1-4 = "
        "C, D, H, S times 100 plus rank 2-14). Numbers are errors in a standard log. The canonical "
        "writer always writes standard text and leaves this field out."))
    game_id: str | None = Field(None, max_length=200, description="the bot's own id for the game")
    started_at: datetime | None = Field(None, description="ISO 8601 time the deal was made")
    rules: RulesField = Field(default=PRESETS["bridgebot"])
    players: dict[SeatField, Player] = Field(default_factory=dict)
    first_bidder: SeatField
    hands: Hands
    events: list[Event] = Field(max_length=MAX_LOG_EVENTS, description=(
        f"everything that happened, in order; at most {_LIMITS_TEXT} events, "
        f"and {MAX_CHAT_TEXT:,} characters of chat in all"))
    end: End | None = None
    meta: dict[str, Any] = Field(default_factory=dict)

    @field_validator("events", mode="before")
    @classmethod
    def _within_what_a_game_holds(cls, value: Any) -> Any:
        # counted before any event is validated, so an oversized log costs one pass to refuse
        if not isinstance(value, list):
            return value
        if len(value) > MAX_LOG_EVENTS:
            raise PydanticCustomError("too_many_events", "{n} events, more than the {limit} a floating bridge log "
                                      "may hold ({kinds} events)",
                                      {"n": len(value), "limit": MAX_LOG_EVENTS, "kinds": _LIMITS_TEXT})
        counts = dict.fromkeys(EVENT_LIMITS, 0)
        chat_text = 0
        for event in value:
            kind = event.get("type") if isinstance(event, dict) else None
            if isinstance(kind, str) and kind in counts:
                counts[kind] += 1
                if kind == "chat" and isinstance(event.get("text"), str):
                    chat_text += len(event["text"])
        problems = []
        for kind, n in counts.items():
            if n > EVENT_LIMITS[kind]:
                legal = f" (a game has at most {LEGAL_EVENTS[kind]})" if kind in LEGAL_EVENTS else ""
                problems.append(f"{n} {kind} events, more than the {EVENT_LIMITS[kind]} a floating bridge log "
                                f"may hold{legal}")
        if chat_text > MAX_CHAT_TEXT:
            problems.append(f"{chat_text:,} characters of chat, more than the {MAX_CHAT_TEXT:,} a log may hold")
        if problems:
            raise PydanticCustomError("too_many_events", "{text}", {"text": "; ".join(problems)})
        return value

    @model_validator(mode="wrap")
    @classmethod
    def _in_its_notation(cls, data: Any, handler: Any) -> Any:
        # the cards and calls of the whole log are read in the notation the log names
        notation = data.get("notation") if isinstance(data, dict) else None
        token = _NOTATION.set(notation if notation in NOTATIONS else None)
        try:
            return handler(data)
        finally:
            _NOTATION.reset(token)


# --- errors ----------------------------------------------------------------------------------

def _place(loc: tuple[Any, ...]) -> str:
    parts: list[str] = []
    previous: Any = None
    for item in loc:
        if isinstance(item, int):
            parts.append(f"[{item}]")
        elif previous is not None and isinstance(previous, int) and parts and parts[0] == "events" \
                and item in EVENT_TYPES:
            pass  # the discriminator tag pydantic adds to the location
        elif item in ("function-plain[_seat()]",):
            pass
        else:
            parts.append(("." if parts else "") + str(item))
        previous = item
    return "".join(parts)


def _message(error: dict[str, Any]) -> str | None:
    kind = error["type"]
    if kind == "literal_error" and error["loc"] == ("notation",):
        return f"{_short_repr(error['input'])} is not a known notation (expected one of {', '.join(NOTATIONS)})"
    if kind == "extra_forbidden":
        return "unexpected field (hands has N, E, S and W only)"
    return None


# --- the fast path -----------------------------------------------------------------------------
# Validating every card, call and seat through pydantic's per-field Python validators is most of
# the cost of reading a log. Logs as bots write them are plain: standard notation, seats and
# cards spelled as the canonical writer spells them (or in any spelling ``Card.parse`` takes),
# whole-number times. ``_read_plain`` checks exactly what validation checks for such a log and
# builds the very same models (same fields, same fields set, same extras); on anything else it
# returns None and the log is validated in full, so that every error is pydantic's own.

_SEATS = {s.name: s for s in Seat}
_CARDS: dict[str, Card] = {str(Card.parse(f"{suit}{rank}")): Card.parse(f"{suit}{rank}")
                           for suit in "CDHS" for rank in "23456789TJQKA"}
_CALLS: dict[str, Call] = {str(c): c for c in (Call.parse("pass"), *(Call.parse(f"{level}{strain}")
                                                                     for level in range(1, 8)
                                                                     for strain in ("C", "D", "H", "S", "NT")))}
_RULES: dict[str, Rules] = {}

def _fast_card(value: Any) -> Card | None:
    card = _CARDS.get(value) if type(value) is str else None
    if card is None and type(value) is str and len(_CARDS) < 4096:
        try:  # text Card.parse reads is never a number: the notation does not matter
            card = _CARDS[value] = Card.parse(value)
        except CardParseError:
            return None
    return card


def _fast_call(value: Any) -> Call | None:
    call = _CALLS.get(value) if type(value) is str else None
    if call is None and type(value) is str and len(_CALLS) < 4096:
        try:
            call = _CALLS[value] = Call.parse(value)
        except CallParseError:
            return None
    return call


def _fast_event(event: Any) -> Any:
    """One event's model, or None (``_read_plain``); the common shapes take the shortest path."""
    if type(event) is not dict:
        return None
    kind = event.get("type")
    make = _EVENT_MAKERS.get(kind) if type(kind) is str else None
    return None if make is None else make(event, kind)


def _event_model(cls: type, event: dict[str, Any], fields: dict[str, Any], required: int) -> Any:
    """An event's model when it has extra fields or no time (the common shape is inlined below)."""
    t = fields["t"]
    if t is not None and (type(t) is not int or t < 0):
        return None
    n = len(event)
    if n == required + 1 and "t" in event:
        return _model(cls, fields, set(fields), {})
    if n == required and "t" not in event:
        fields_set = set(fields)
        fields_set.discard("t")
        return _model(cls, fields, fields_set, {})
    extra = {k: v for k, v in event.items() if k not in fields}
    if not all(type(k) is str for k in extra):
        return None
    return _model(cls, fields, {k for k in event if k in fields}, extra)


_SET_FIELDS = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_SET_EXTRA = BaseModel.__dict__["__pydantic_extra__"].__set__
_SET_PRIVATE = BaseModel.__dict__["__pydantic_private__"].__set__


def _make_bid(event: dict[str, Any], kind: str) -> Any:
    seat = _SEATS.get(event.get("seat"))
    bid = event.get("bid")
    call = _CALLS.get(bid) or _fast_call(bid)
    if seat is None or call is None:
        return None
    t = event.get("t")
    if len(event) == 4 and type(t) is int and t >= 0:  # the shape bots write, inlined
        model = _new(BidEvent)
        _set(model, "__dict__", {"type": kind, "seat": seat, "bid": call, "t": t})
        _SET_FIELDS(model, {"type", "seat", "bid", "t"})
        _SET_EXTRA(model, {})
        _SET_PRIVATE(model, None)
        return model
    return _event_model(BidEvent, event, {"type": kind, "seat": seat, "bid": call, "t": t}, 3)


def _make_card_event(cls: type) -> Any:
    def make(event: dict[str, Any], kind: str) -> Any:
        seat = _SEATS.get(event.get("seat"))
        value = event.get("card")
        card = _CARDS.get(value) or _fast_card(value)
        if seat is None or card is None:
            return None
        t = event.get("t")
        if len(event) == 4 and type(t) is int and t >= 0:  # the shape bots write, inlined
            model = _new(cls)
            _set(model, "__dict__", {"type": kind, "seat": seat, "card": card, "t": t})
            _SET_FIELDS(model, {"type", "seat", "card", "t"})
            _SET_EXTRA(model, {})
            _SET_PRIVATE(model, None)
            return model
        return _event_model(cls, event, {"type": kind, "seat": seat, "card": card, "t": t}, 3)
    return make


def _make_trick(event: dict[str, Any], kind: str) -> Any:
    winner = _SEATS.get(event.get("winner"))
    if winner is None:
        return None
    t = event.get("t")
    if len(event) == 3 and type(t) is int and t >= 0:  # the shape bots write, inlined
        model = _new(TrickEvent)
        _set(model, "__dict__", {"type": kind, "winner": winner, "t": t})
        _SET_FIELDS(model, {"type", "winner", "t"})
        _SET_EXTRA(model, {})
        _SET_PRIVATE(model, None)
        return model
    return _event_model(TrickEvent, event, {"type": kind, "winner": winner, "t": t}, 2)


def _make_chat(event: dict[str, Any], kind: str) -> Any:
    seat = event.get("seat")
    if seat is not None:
        seat = _SEATS.get(seat) if type(seat) is str else None
        if seat is None:
            return None
    text = event.get("text")
    if type(text) is not str or len(text) > MAX_TEXT:
        return None
    fields = {"type": kind, "seat": seat, "text": text, "t": event.get("t")}
    if "seat" in event:
        return _event_model(ChatEvent, event, fields, 3)
    extra = {k: v for k, v in event.items() if k not in fields}
    t = fields["t"]
    if (t is not None and (type(t) is not int or t < 0)) or not all(type(k) is str for k in extra):
        return None
    return _model(ChatEvent, fields, {k for k in event if k in fields}, extra)


_EVENT_MAKERS = {"bid": _make_bid, "partner": _make_card_event(PartnerEvent), "play": _make_card_event(PlayEvent),
                 "trick": _make_trick, "chat": _make_chat}


_LOG_FIELDS = tuple(GameLog.model_fields)


def _read_plain(data: dict[str, Any]) -> "GameLog | None":
    """The ``GameLog`` validation would give for a plain log, or None (see above)."""
    if data.get("notation", "standard") != "standard" or data.get("format") != FORMAT:
        return None
    for name in ("first_bidder", "hands", "events"):
        if name not in data:
            return None
    first = _SEATS.get(data["first_bidder"]) if type(data["first_bidder"]) is str else None
    if first is None:
        return None
    hands = data["hands"]
    if type(hands) is not dict or len(hands) != 4:
        return None
    hand_fields = {}
    for seat in ("N", "E", "S", "W"):
        cards = hands.get(seat)
        if type(cards) is not list or len(cards) > 52:
            return None
        parsed = list(map(_CARDS.get, cards))  # only text is a key: anything else is None
        if None in parsed:
            parsed = [_fast_card(c) for c in cards]
            if None in parsed:
                return None
        hand_fields[seat] = parsed
    events = data["events"]
    if type(events) is not list:
        return None
    if len(events) > MAX_LOG_EVENTS:
        return None
    built = []
    append = built.append
    makers = _EVENT_MAKERS
    counts = dict.fromkeys(EVENT_LIMITS, 0)
    chat_text = 0
    for event in events:
        try:
            kind = event["type"]
            make = makers[kind]
        except (KeyError, TypeError, IndexError):  # not an object, no type, an unknown type
            return None
        if type(kind) is not str or type(event) is not dict:
            return None
        model = make(event, kind)
        if model is None:
            return None
        counts[kind] += 1
        if kind == "chat":
            chat_text += len(model.text)
        append(model)
    if chat_text > MAX_CHAT_TEXT or any(n > EVENT_LIMITS[kind] for kind, n in counts.items()):
        return None  # validation says which limit
    players = plain_players(data, _SEATS)
    if players is None:
        return None
    rules = data.get("rules", None)
    if "rules" in data:
        if type(rules) is not str:
            return None
        found = _RULES.get(rules)
        if found is None:
            try:
                found = _RULES[rules] = Rules.from_spec(rules)
            except RulesError:
                return None
        rules = found
    else:
        rules = PRESETS["bridgebot"]
    ok, started = plain_start_time(data.get("started_at"), GameLog._representable_in_utc)
    if not ok:
        return None
    end = data.get("end")
    if end is not None:
        if type(end) is not dict or end.get("reason") not in END_REASONS:
            return None
        t = end.get("t")
        if t is not None and (type(t) is not int or t < 0):
            return None
        end_fields = {"reason": end["reason"], "t": t}
        extra = {k: v for k, v in end.items() if k not in end_fields}
        if not all(type(k) is str for k in extra):
            return None
        end = _model(End, end_fields, set(end) - set(extra), extra)
    fields = {"format": FORMAT, "notation": data.get("notation", "standard"), "started_at": started,
              "rules": rules, "players": players, "first_bidder": first,
              "hands": _model(Hands, hand_fields, {"N", "E", "S", "W"}, None), "events": built, "end": end}
    return plain_envelope(data, GameLog, fields)


def looks_like_legacy_text(text: str) -> bool:
    """BridgeBot text logs start with ``Player hands:`` (older ones with ``Bidding:``)."""
    head = text.lstrip("\ufeff \t\r\n")
    return head.startswith("Player hands:") or head.startswith("Bidding:")


#: the format: ``parse`` (a decoded JSON object -> ``GameLog``, or ``LogFormatError``: plain logs
#: take the fast path, anything else is validated in full, so every error is pydantic's own,
#: written as places such as ``hands.N[0]``), and the JSON Schema (``docs/log-format.schema.json``)
LOG_FORMAT = LogFormat(GameLog, FORMAT, EVENT_TYPES, "Floating bridge game log, format v1",
                       schema_file="log-format", schema_id="https://game-replay.invalid/log-format/v1.schema.json",
                       read_plain=_read_plain, message=_message, place=_place)
parse = LOG_FORMAT.parse
errors_from_validation = LOG_FORMAT.errors_from_validation
json_schema = LOG_FORMAT.json_schema
json_schema_text = LOG_FORMAT.json_schema_text

if __name__ == "__main__":  # pragma: no cover - tooling
    sys.exit(LOG_FORMAT.main(sys.argv[1:], "replay.games.floating_bridge.log"))
