"""Log format ``uno-lite/1``: the pydantic models, the reader and the canonical writer.

The contract is ``shared/spec/uno-lite.md`` (see ``docs/games/uno-lite.md``); the JSON Schema
``docs/uno-lite.schema.json`` is generated from these models
(``python -m replay.games.uno_lite.log --schema``). The envelope (``format``, ``game_id``,
``started_at``, ``players``, ``events``, ``end``, ``meta``, ``t`` times, unknown fields kept)
works as in the floating bridge format. Cards are read liberally and stored as card values:

>>> log = parse({"format": "uno-lite/1", "first_player": "P1", "starter": "🔴9",
...              "hands": {"P1": ["r5", "G7", "B1", "Y9", "R2", "G2", "B8"],
...                        "P2": ["B3", "B4", "G1", "G3", "Y1", "Y2", "Y3"]},
...              "events": [{"type": "play", "seat": "P1", "card": "5 red", "t": 2100}]})
>>> log.canonical_json()[:90]
'{"format":"uno-lite/1","players":{},"first_player":"P1","hands":{"P1":["R5","G7","B1","Y9"'
>>> log.starter, log.to_json_dict()["starter"], log.to_json_dict()["events"]
(8, 'R9', [{'type': 'play', 'seat': 'P1', 'card': 'R5', 't': 2100}])
>>> parse({"format": "uno-lite/1", "first_player": "P1", "starter": "R9", "events": [],
...        "hands": {"P1": ["R5", "G7", "R0"], "P2": []}})
Traceback (most recent call last):
...
replay.log.LogFormatError: hands.P1[2]: 'R0' is not a card
>>> parse({"format": "uno-lite/1"})
Traceback (most recent call last):
...
replay.log.LogFormatError: first_player: required field is missing; hands: required field is missing; starter: required field is missing; events: required field is missing
"""

from __future__ import annotations

import sys
from datetime import datetime
from typing import Annotated, Any, Literal, Union

from pydantic import (
    ConfigDict,
    Field,
    PlainSerializer,
    PlainValidator,
    WithJsonSchema,
    model_validator,
)
from pydantic_core import PydanticCustomError, core_schema

from replay.envelope import Envelope
from replay.kit.log import LogFormat, Millis, Open, chat_event, end_model, short_repr
from replay.log import Player, build_model, plain_envelope, plain_players, plain_start_time
from replay.reading import Lookup, TextReader, reading_validator

from .cards import CARD_TEXT, DECK_SIZE, CardParseError, parse_card

FORMAT = "uno-lite/1"
SEATS = ("P1", "P2")
END_REASONS = ("completed", "cancelled", "timeout")
EVENT_TYPES = ("play", "draw", "pass", "chat")
#: The rules put no bound on a game's length (reshuffles can go on), so the caps are
#: practical ones that keep hostile input cheap: at most MAX_GAME_EVENTS play/draw/pass
#: events (bot games average about 40 and seldom pass 300) and MAX_CHAT chat events.
MAX_GAME_EVENTS = 10_000
MAX_CHAT = 2_000
MAX_EVENTS = MAX_GAME_EVENTS + MAX_CHAT
MAX_TEXT = 4000
MAX_HAND = DECK_SIZE  # a hand list longer than the deck is not a game (a short/long one is a finding)


# --- field types -----------------------------------------------------------------------------

def _card(value: Any) -> int:
    if isinstance(value, str):
        try:
            return parse_card(value)
        except CardParseError:
            pass
    raise PydanticCustomError("card", "{text} is not a card", {"text": short_repr(value)})


def _seat(value: Any) -> str:
    if isinstance(value, str):
        key = value.strip().upper()
        if key in SEATS:
            return key
    raise PydanticCustomError("seat", "{text} is not a seat (P1 or P2)", {"text": short_repr(value)})


CardField = Annotated[
    int,
    PlainValidator(_card),
    PlainSerializer(CARD_TEXT.__getitem__, return_type=str),
    WithJsonSchema({"type": "string", "description": "a card: colour letter (R, G, B, Y) then number 1-9, "
                    "e.g. R5; readers also take r5, 5R, red 5, 🔴5, 🔴 5️⃣"}),
]
SeatField = Annotated[
    str,
    PlainValidator(_seat),
    WithJsonSchema({"type": "string", "enum": list(SEATS)}),
]
class Hands(Open):
    model_config = ConfigDict(extra="forbid", frozen=True)
    P1: list[CardField] = Field(max_length=MAX_HAND)
    P2: list[CardField] = Field(max_length=MAX_HAND)

    def by_seat(self) -> tuple[list[int], list[int]]:
        return (self.P1, self.P2)


class PlayEvent(Open):
    type: Literal["play"]
    seat: SeatField
    card: CardField
    t: Millis | None = None


class DrawEvent(Open):
    type: Literal["draw"]
    seat: SeatField
    card: CardField = Field(description="the card drawn, as the bot saw it")
    t: Millis | None = None


class PassEvent(Open):
    type: Literal["pass"]
    seat: SeatField
    t: Millis | None = None


ChatEvent = chat_event(SeatField, MAX_TEXT, __name__)


Event = Annotated[Union[PlayEvent, DrawEvent, PassEvent, ChatEvent], Field(discriminator="type")]


End = end_model(END_REASONS, __name__, winner=SeatField)


class UnoLog(Open, Envelope):
    """One UNO Lite game, as a bot logged it (``uno-lite/1``)."""

    format: Literal["uno-lite/1"] = Field(description="game and major version of this format")
    game_id: str | None = Field(None, max_length=200, description="the bot's own id for the game")
    started_at: datetime | None = Field(None, description="ISO 8601 time the deal was made")
    players: dict[SeatField, Player] = Field(default_factory=dict)
    first_player: SeatField
    hands: Hands
    starter: CardField = Field(description="the first card of the discard pile")
    events: list[Event] = Field(max_length=MAX_EVENTS)
    end: End | None = None
    meta: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _one_entry_a_seat(cls, data: Any) -> Any:
        # seats are read case-insensitively, so "p1" beside "P1" names one seat twice: which name
        # is meant cannot be told, and keeping either would silently drop the other
        players = data.get("players") if isinstance(data, dict) else None
        if isinstance(players, dict) and len(players) > 1:
            seen: dict[str, Any] = {}
            for key in players:
                try:
                    seat = _seat(key)
                except PydanticCustomError:
                    continue  # not a seat: the field's own check names it
                if seat in seen:
                    raise PydanticCustomError(
                        "seat_twice", "players: {first} and {second} are the same seat ({seat}): a seat has one entry",
                        {"first": short_repr(seen[seat]), "second": short_repr(key), "seat": seat})
                seen[seat] = key
        return data

    @model_validator(mode="after")
    def _chat_cap(self) -> "UnoLog":
        chats = list(map(type, self.events)).count(ChatEvent)  # counted in C: each type is one class
        if chats > MAX_CHAT:
            raise PydanticCustomError("too_many_chats", "{n} chat events: at most {cap} are allowed",
                                      {"n": chats, "cap": MAX_CHAT})
        if len(self.events) - chats > MAX_GAME_EVENTS:
            raise PydanticCustomError("too_many_events", "{n} play, draw and pass events: at most {cap} "
                                      "are allowed", {"n": len(self.events) - chats, "cap": MAX_GAME_EVENTS})
        return self



# --- errors and reading (the kit's ``LogFormat``) ------------------------------------------------

def _message(error: dict[str, Any]) -> str | None:
    if error["type"] == "extra_forbidden":
        return "unexpected field (hands has P1 and P2 only)"
    return None


# --- the fast path (as in replay.log): plain logs are read without pydantic's per-field
# validators and give the very same models; anything else is validated in full, so every error
# is pydantic's own.

_SEATS = {seat: seat for seat in SEATS}
_CARDS: dict[str, int] = {}


def _plain_card(value: Any) -> int | None:
    card = _CARDS.get(value)
    if card is None and type(value) is str and len(_CARDS) < 4096:
        try:
            card = _CARDS[value] = parse_card(value)
        except CardParseError:
            return None
    return card


def _plain_event(event: Any) -> Any:
    if type(event) is not dict:
        return None
    kind = event.get("type")
    if type(kind) is not str or kind not in EVENT_TYPES:
        return None
    t = event.get("t")
    if t is not None and (type(t) is not int or t < 0):
        return None
    seat = event.get("seat")
    if kind == "chat":
        if seat is not None and _SEATS.get(seat) is None:
            return None
        text = event.get("text")
        if type(text) is not str or len(text) > MAX_TEXT:
            return None
        cls, fields = ChatEvent, {"type": kind, "seat": seat, "text": text, "t": t}
    else:
        if _SEATS.get(seat) is None:
            return None
        if kind == "pass":
            cls, fields = PassEvent, {"type": kind, "seat": seat, "t": t}
        else:
            card = _plain_card(event.get("card"))
            if card is None:
                return None
            cls = PlayEvent if kind == "play" else DrawEvent
            fields = {"type": kind, "seat": seat, "card": card, "t": t}
    if len(event) == len(fields) and "t" in event and (kind != "chat" or "seat" in event):
        return build_model(cls, fields, set(fields), {})
    extra = {k: v for k, v in event.items() if k not in fields}
    if not all(type(k) is str for k in extra):
        return None
    return build_model(cls, fields, {k for k in event if k in fields}, extra)


def _read_plain(data: dict[str, Any]) -> UnoLog | None:
    """The ``UnoLog`` validation would give for a plain log, or None."""
    if data.get("format") != FORMAT:
        return None
    for name in ("first_player", "hands", "starter", "events"):
        if name not in data:
            return None
    first = _SEATS.get(data["first_player"])
    hands = data["hands"]
    starter = _plain_card(data["starter"])
    if first is None or starter is None or type(hands) is not dict or len(hands) != 2:
        return None
    hand_fields = {}
    for seat in SEATS:
        cards = hands.get(seat)
        if type(cards) is not list or len(cards) > MAX_HAND:
            return None
        parsed = [_plain_card(c) for c in cards]
        if None in parsed:
            return None
        hand_fields[seat] = parsed
    events = data["events"]
    if type(events) is not list or len(events) > MAX_EVENTS:
        return None
    built = []
    chats = 0
    for event in events:
        model = _plain_event(event)
        if model is None:
            return None
        chats += model.type == "chat"
        built.append(model)
    if chats > MAX_CHAT or len(built) - chats > MAX_GAME_EVENTS:
        return None
    players = plain_players(data, _SEATS)
    if players is None:
        return None
    ok, started = plain_start_time(data.get("started_at"), UnoLog._representable_in_utc)
    if not ok:
        return None
    end = data.get("end")
    if end is not None:
        if type(end) is not dict or end.get("reason") not in END_REASONS:
            return None
        t, winner = end.get("t"), end.get("winner")
        if (t is not None and (type(t) is not int or t < 0)) or (winner is not None and _SEATS.get(winner) is None):
            return None
        end_fields = {"reason": end["reason"], "winner": winner, "t": t}
        extra = {k: v for k, v in end.items() if k not in end_fields}
        if not all(type(k) is str for k in extra):
            return None
        end = build_model(End, end_fields, set(end) - set(extra), extra)
    fields = {"format": FORMAT, "started_at": started, "players": players, "first_player": first,
              "hands": build_model(Hands, hand_fields, set(SEATS), None), "starter": starter, "events": built,
              "end": end}
    return plain_envelope(data, UnoLog, fields)


# --- reading JSON text in one pass (``replay.reading``): the models' own schema with the card
# reader behind a lookup of the canonical spellings and seats checked as the literal P1 or P2;
# any other spelling, and anything unusual, is left to full validation (``parse``).

_CARD_LOOKUP = Lookup({text: card for card, text in enumerate(CARD_TEXT)}, _card)


def _reading_validator():
    return reading_validator(UnoLog, plain={_card: _CARD_LOOKUP.__getitem__,
                                            _seat: core_schema.literal_schema(list(SEATS))})


#: a plain log's JSON text -> its ``UnoLog``, or None: full reading decides
read_json = TextReader(_reading_validator)


#: the format: ``parse`` (a decoded JSON object -> ``UnoLog``, or ``LogFormatError``), the errors'
#: places and messages, and the JSON Schema (``docs/uno-lite.schema.json``)
LOG_FORMAT = LogFormat(UnoLog, FORMAT, EVENT_TYPES, "UNO Lite game log, format uno-lite/1",
                       schema_file="uno-lite", read_plain=_read_plain, message=_message)
parse = LOG_FORMAT.parse
errors_from_validation = LOG_FORMAT.errors_from_validation
json_schema = LOG_FORMAT.json_schema
json_schema_text = LOG_FORMAT.json_schema_text

if __name__ == "__main__":  # pragma: no cover - tooling
    sys.exit(LOG_FORMAT.main(sys.argv[1:], "replay.games.uno_lite.log"))
