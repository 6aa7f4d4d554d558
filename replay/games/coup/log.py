"""Log format ``coup/1``: the pydantic models, the reader and the canonical writer.

The contract is ``shared/spec/coup.md`` (see ``docs/games/coup.md``); the JSON Schema
``docs/coup.schema.json`` is generated from these models. The envelope (``format``, ``game_id``,
``started_at``, ``players``, ``events``, ``end``, ``meta``, ``t`` times, unknown fields kept)
works as in the floating bridge format. Seats are the protocol's player ids as strings; the
order in which ``players`` lists them is the table order. Cards are read liberally:

>>> log = parse({"format": "coup/1", "players": {"1": {"name": "Ann"}, "2": {"name": "Bo"}},
...              "first_player": "1", "hands": {"1": ["duke", "C"], "2": ["E", "Contessa"]},
...              "events": [{"type": "action", "seat": 1, "action": "tax"}]})
>>> log.seat_order, log.hands["1"], log.to_json_dict()["hands"], log.to_json_dict()["events"]
(('1', '2'), [0, 3], {'1': ['D', 'C'], '2': ['E', 'E']}, [{'type': 'action', 'seat': '1', 'action': 'T'}])
>>> parse({"format": "coup/1", "first_player": "1", "hands": {"1": ["D", "K"], "2": []}, "events": []})
Traceback (most recent call last):
...
replay.log.LogFormatError: hands.1[1]: 'K' is not a Coup card (D, A, B, C, E or a character's name)
>>> parse({"format": "coup/1", "first_player": "1", "hands": {"1": [], "2": []},
...        "events": [{"type": "challenge", "seat": "3"}]})
Traceback (most recent call last):
...
replay.log.LogFormatError: events[0].seat: '3' is not a seat of this game (1, 2)
"""

from __future__ import annotations

import re
import sys
from datetime import datetime
from typing import Annotated, Any, Literal, Union

from pydantic import (
    Field,
    PlainSerializer,
    PlainValidator,
    WithJsonSchema,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError, core_schema

from replay.envelope import Envelope
from replay.kit.log import LogFormat, Millis, Open, chat_event, end_model, short_repr
from replay.log import Player
from replay.reading import Lookup, TextReader, reading_validator

from .cards import ACTIONS, CARD_TEXT, DECK_SIZE, CardParseError, parse_action, parse_card

FORMAT = "coup/1"
END_REASONS = ("completed", "cancelled", "timeout")
EVENT_TYPES = ("action", "challenge", "block", "reveal", "replace", "lose", "exchange", "illegal",
               "leave", "chat", "coins")
MIN_SEATS, MAX_SEATS = 2, 6
#: practical caps that keep hostile input cheap (a 6-seat bot game has about 150 events)
MAX_GAME_EVENTS = 20_000
MAX_CHAT = 2_000
MAX_EVENTS = MAX_GAME_EVENTS + MAX_CHAT
MAX_TEXT = 4000
_SEAT_NAME = re.compile(r"[A-Za-z0-9_.:-]{1,40}")


def _card(value: Any) -> int:
    try:
        return parse_card(value)
    except CardParseError as exc:
        raise PydanticCustomError("card", "{text}", {"text": str(exc)}) from None


def _action(value: Any) -> str:
    try:
        return parse_action(value)
    except CardParseError as exc:
        raise PydanticCustomError("action", "{text}", {"text": str(exc)}) from None


def _seat(value: Any) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        value = str(value)
    if isinstance(value, str):
        key = value.strip()
        if _SEAT_NAME.fullmatch(key):
            return key
    raise PydanticCustomError("seat", "{text} is not a seat name (a player id: letters, digits, _ . : -)",
                              {"text": short_repr(value)})


CardField = Annotated[
    int,
    PlainValidator(_card),
    PlainSerializer(CARD_TEXT.__getitem__, return_type=str),
    WithJsonSchema({"type": "string", "description": "a character: D (Duke), A (Assassin), B (Ambassador), "
                    "C (Captain), E (Contessa); readers also take the full name, any case"}),
]
ActionField = Annotated[
    str,
    PlainValidator(_action),
    WithJsonSchema({"type": "string", "enum": list(ACTIONS),
                    "description": "I income, F foreign aid, C coup, T tax, A assassinate, S steal, X exchange"}),
]
SeatField = Annotated[
    str,
    PlainValidator(_seat),
    WithJsonSchema({"type": "string", "pattern": "^[A-Za-z0-9_.:-]{1,40}$",
                    "description": "a seat: the protocol's player id, e.g. \"1\""}),
]
class ActionEvent(Open):
    type: Literal["action"]
    seat: SeatField
    action: ActionField
    target: SeatField | None = Field(None, description="the target of a coup, assassination or steal")
    t: Millis | None = None


class ChallengeEvent(Open):
    type: Literal["challenge"]
    seat: SeatField
    t: Millis | None = None


class BlockEvent(Open):
    type: Literal["block"]
    seat: SeatField
    card: CardField = Field(description="the character the blocker claims")
    t: Millis | None = None


class RevealEvent(Open):
    type: Literal["reveal"]
    seat: SeatField
    card: CardField
    t: Millis | None = None


class ReplaceEvent(Open):
    type: Literal["replace"]
    seat: SeatField
    card: CardField = Field(description="the card drawn after a reveal")
    t: Millis | None = None


class LoseEvent(Open):
    type: Literal["lose"]
    seat: SeatField
    card: CardField = Field(description="the card turned face up")
    t: Millis | None = None


class ExchangeEvent(Open):
    type: Literal["exchange"]
    seat: SeatField
    drawn: list[CardField] = Field(min_length=2, max_length=2, description="the two cards drawn")
    kept: list[CardField] = Field(max_length=4, description="the cards kept (as many as the seat's influence)")
    t: Millis | None = None


class IllegalEvent(Open):
    type: Literal["illegal"]
    seat: SeatField
    message: str = Field(max_length=MAX_TEXT, description="the message the host refused")
    reason: str | None = Field(None, max_length=MAX_TEXT)
    t: Millis | None = None


class LeaveEvent(Open):
    type: Literal["leave"]
    seat: SeatField
    t: Millis | None = None


ChatEvent = chat_event(SeatField, MAX_TEXT, __name__)


class CoinsEvent(Open):
    """The host's coin count for a seat (CoupBots' ``COINS`` line), checked once the turn resolved."""

    type: Literal["coins"]
    seat: SeatField
    coins: int = Field(ge=0, le=10_000)
    t: Millis | None = None


Event = Annotated[
    Union[ActionEvent, ChallengeEvent, BlockEvent, RevealEvent, ReplaceEvent, LoseEvent, ExchangeEvent,
          IllegalEvent, LeaveEvent, ChatEvent, CoinsEvent],
    Field(discriminator="type"),
]
#: each event type's model, by its ``type``
EVENT_MODELS: dict[str, type[BaseModel]] = {
    model.model_fields["type"].annotation.__args__[0]: model
    for model in (ActionEvent, ChallengeEvent, BlockEvent, RevealEvent, ReplaceEvent, LoseEvent, ExchangeEvent,
                  IllegalEvent, LeaveEvent, ChatEvent, CoinsEvent)
}


End = end_model(END_REASONS, __name__, winner=SeatField, announced_by="host")


class CoupLog(Open, Envelope):
    """One Coup game (``coup/1``)."""

    format: Literal["coup/1"] = Field(description="game and major version of this format")
    game_id: str | None = Field(None, max_length=200, description="the host's own id for the game")
    started_at: datetime | None = Field(None, description="ISO 8601 time the cards were dealt")
    players: dict[SeatField, Player] = Field(default_factory=dict, description="the seats in table order")
    first_player: SeatField
    hands: dict[SeatField, list[CardField]] = Field(description="each seat's two face-down cards as dealt")
    events: list[Event] = Field(max_length=MAX_EVENTS)
    end: End | None = None
    meta: dict[str, Any] = Field(default_factory=dict)

    @field_validator("hands")
    @classmethod
    def _hand_lengths(cls, value: dict[str, list[int]]) -> dict[str, list[int]]:
        for seat, cards in value.items():
            if len(cards) > DECK_SIZE:
                raise PydanticCustomError("hand", "hand of {seat} lists {n} cards: the deck has {cap}",
                                          {"seat": seat, "n": len(cards), "cap": DECK_SIZE})
        return value

    @model_validator(mode="after")
    def _seats_agree(self) -> "CoupLog":
        seats = list(self.players) if self.players else list(self.hands)
        if self.players and set(self.players) != set(self.hands):
            raise PydanticCustomError("seats", "hands name the seats {h} but players names {p}",
                                      {"h": ", ".join(self.hands) or "none", "p": ", ".join(self.players)})
        if not MIN_SEATS <= len(seats) <= MAX_SEATS:
            raise PydanticCustomError("seats", "{n} seats: Coup has {lo} to {hi}",
                                      {"n": len(seats), "lo": MIN_SEATS, "hi": MAX_SEATS})
        known = set(seats)
        if self.first_player not in known:
            raise PydanticCustomError("seats", "first_player {s} is not a seat of this game ({all})",
                                      {"s": short_repr(self.first_player), "all": ", ".join(seats)})
        chats = 0
        for index, event in enumerate(self.events):  # each field read once: this runs on every read
            kind, seat = event.type, event.seat
            if kind == "chat":
                chats += 1
                if seat is None:
                    continue
            if seat not in known:
                raise PydanticCustomError("seats", "events[{i}].seat: {s} is not a seat of this game ({all})",
                                          {"i": index, "s": short_repr(seat), "all": ", ".join(seats)})
            if kind == "action":
                target = event.target
                if target is not None and target not in known:
                    raise PydanticCustomError("seats", "events[{i}].target: {s} is not a seat of this game ({all})",
                                              {"i": index, "s": short_repr(target), "all": ", ".join(seats)})
        if self.end is not None and self.end.winner is not None and self.end.winner not in known:
            raise PydanticCustomError("seats", "end.winner: {s} is not a seat of this game ({all})",
                                      {"s": short_repr(self.end.winner), "all": ", ".join(seats)})
        if chats > MAX_CHAT:
            raise PydanticCustomError("too_many_chats", "{n} chat events: at most {cap} are allowed",
                                      {"n": chats, "cap": MAX_CHAT})
        if len(self.events) - chats > MAX_GAME_EVENTS:
            raise PydanticCustomError("too_many_events", "{n} game events: at most {cap} are allowed",
                                      {"n": len(self.events) - chats, "cap": MAX_GAME_EVENTS})
        return self

    # -- views
    @property
    def seat_order(self) -> tuple[str, ...]:
        """The seats in table order: as ``players`` lists them (``hands`` when there are no players)."""
        return tuple(self.players) if self.players else tuple(self.hands)



# --- errors (the kit's ``LogFormat`` words the rest) ------------------------------------------

def _error(error: dict[str, Any]) -> tuple[str, str] | None:
    """A seat check of the whole log names its own place (``events[3].seat: ...``)."""
    if error["type"] == "seats" and ": " in error["msg"] and error["msg"].startswith(("events[", "end.")):
        place, _, text = error["msg"].partition(": ")
        return place, text
    return None


# --- reading JSON text in one pass (``replay.reading``): the models' own schema with the card
# and action readers behind lookups of the canonical letters and seats checked by the pattern
# itself (no spaces around, not a number); any other spelling, and anything unusual, is left to
# full validation (``parse``).

_CARD_LOOKUP = Lookup({text: card for card, text in enumerate(CARD_TEXT)}, _card)
_ACTION_LOOKUP = Lookup({action: action for action in ACTIONS}, _action)


def _reading_validator():
    return reading_validator(CoupLog, plain={
        _card: _CARD_LOOKUP.__getitem__, _action: _ACTION_LOOKUP.__getitem__,
        _seat: core_schema.str_schema(pattern=f"^{_SEAT_NAME.pattern}$", strict=True)})


#: a plain log's JSON text -> its ``CoupLog``, or None: full reading decides
read_json = TextReader(_reading_validator)


#: the format: ``parse`` (a decoded JSON object -> ``CoupLog``, or ``LogFormatError``), the errors'
#: places and messages, and the JSON Schema (``docs/coup.schema.json``)
LOG_FORMAT = LogFormat(CoupLog, FORMAT, EVENT_TYPES, "Coup game log, format coup/1", schema_file="coup",
                       error=_error)
parse = LOG_FORMAT.parse
errors_from_validation = LOG_FORMAT.errors_from_validation
json_schema = LOG_FORMAT.json_schema
json_schema_text = LOG_FORMAT.json_schema_text

if __name__ == "__main__":  # pragma: no cover - tooling
    sys.exit(LOG_FORMAT.main(sys.argv[1:], "replay.games.coup.log"))
