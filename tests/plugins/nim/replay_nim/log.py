"""Log format ``nim/1``: the pydantic models of a Nim game, its reader and its JSON Schema.

A log is the shared envelope (``format``, ``game_id``, ``started_at``, ``players``, ``events``,
``end``, ``meta``; unknown fields kept) with the game's setup, ``heaps`` and ``first_player``,
and one event per move, ``{"type": "take", "seat": "P1", "heap": 0, "count": 2}``:

>>> log = parse({"format": "nim/1", "first_player": "p1", "heaps": [1, 2],
...              "events": [{"type": "take", "seat": "P1", "heap": 1, "count": 2, "t": 900}]})
>>> log.first_player, log.canonical_json()
('P1', '{"format":"nim/1","players":{},"first_player":"P1","heaps":[1,2],"events":[{"type":"take","seat":"P1","heap":1,"count":2,"t":900}],"meta":{}}')
>>> parse({"format": "nim/1", "first_player": "P3", "heaps": [0], "events": []})
Traceback (most recent call last):
...
replay.log.LogFormatError: first_player: 'P3' is not a seat (P1 or P2); heaps[0]: Input should be greater than or equal to 1
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, ConfigDict, Field, PlainValidator, ValidationError, WithJsonSchema
from pydantic_core import PydanticCustomError

from replay.envelope import Envelope, error_place, log_json_schema
from replay.games import get
from replay.log import LogFormatError, Player

NAME = "nim"
FORMAT = "nim/1"
SEATS = ("P1", "P2")
END_REASONS = ("completed", "resigned", "abandoned")
EVENT_TYPES = ("take", "chat")
MAX_HEAPS = 6
MAX_HEAP = 9
MAX_EVENTS = 2_000
MAX_TEXT = 4000


def _seat(value: Any) -> str:
    if isinstance(value, str) and value.strip().upper() in SEATS:
        return value.strip().upper()
    text = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
    raise PydanticCustomError("seat", "{text} is not a seat (P1 or P2)", {"text": text})


SeatField = Annotated[str, PlainValidator(_seat), WithJsonSchema({"type": "string", "enum": list(SEATS)})]
Millis = Annotated[int, Field(ge=0, description="milliseconds since started_at or the first event")]


class _Open(BaseModel):
    """Unknown extra fields are kept as they are, never an error."""

    model_config = ConfigDict(extra="allow", frozen=True)


class TakeEvent(_Open):
    """A move: ``count`` objects taken from heap number ``heap`` (0-based)."""

    type: Literal["take"]
    seat: SeatField
    heap: int = Field(ge=0, lt=MAX_HEAPS)
    count: int = Field(ge=1, le=MAX_HEAP)
    t: Millis | None = None


class ChatEvent(_Open):
    type: Literal["chat"]
    seat: SeatField | None = None
    text: str = Field(max_length=MAX_TEXT)
    t: Millis | None = None


Event = Annotated[Union[TakeEvent, ChatEvent], Field(discriminator="type")]


class End(_Open):
    reason: Literal["completed", "resigned", "abandoned"]
    winner: SeatField | None = Field(None, description="the winner as the bot announced it (checked)")
    t: Millis | None = None


class NimLog(_Open, Envelope):
    """One Nim game, as a bot logged it (``nim/1``)."""

    format: Literal["nim/1"] = Field(description="game and major version of this format")
    game_id: str | None = Field(None, max_length=200, description="the bot's own id for the game")
    started_at: datetime | None = Field(None, description="ISO 8601 time the game began")
    players: dict[SeatField, Player] = Field(default_factory=dict)
    first_player: SeatField
    heaps: list[Annotated[int, Field(ge=1, le=MAX_HEAP)]] = Field(min_length=1, max_length=MAX_HEAPS)
    events: list[Event] = Field(max_length=MAX_EVENTS)
    end: End | None = None
    meta: dict[str, Any] = Field(default_factory=dict)

    def replay(self):
        """Judge the game (through the registry, as any caller would)."""
        return get(NAME).judge(self)


def _message(error: dict[str, Any]) -> str:
    kind = error["type"]
    if kind == "missing":
        return "required field is missing"
    if kind == "union_tag_invalid":
        return f"unknown event type (expected one of {', '.join(EVENT_TYPES)})"
    if kind == "union_tag_not_found":
        return "an event needs a 'type' (one of " + ", ".join(EVENT_TYPES) + ")"
    if kind == "literal_error" and error["loc"] == ("format",):
        return f"{error['input']!r} is not a known format (expected '{FORMAT}')"
    return error["msg"]


def parse(data: dict[str, Any], source: str | None = None) -> NimLog:
    """A decoded JSON object -> ``NimLog``; raises ``replay.log.LogFormatError``."""
    if not isinstance(data, dict):
        raise LogFormatError(f"a game log must be a JSON object, not {type(data).__name__}", source)
    try:
        return NimLog.model_validate(data)
    except ValidationError as exc:
        raise LogFormatError([(error_place(e["loc"], EVENT_TYPES), _message(e))
                              for e in exc.errors(include_url=False)], source) from None


def json_schema() -> dict[str, Any]:
    """The JSON Schema of ``nim/1``."""
    return log_json_schema(NimLog, "https://game-replay.invalid/nim/v1.schema.json", "Nim game log, format nim/1")
