"""The shared envelope of every game's log: what all ``<game>/<major>`` models have in common.

Each game's log model is built on
:class:`Envelope`, which checks and writes ``started_at`` one way and gives the canonical JSON;
:func:`error_place` writes pydantic's error locations as the places users read
(``hands.P1[2]``).

>>> error_place(("events", 3, "play", "card"), ("play", "draw"))
'events[3].card'
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from typing import Any, Iterable

from pydantic import BaseModel, field_serializer, field_validator
from pydantic_core import PydanticCustomError

from .games import game_for_format


#: why a log's identifying text cannot hold NUL: every entry point (``validate``, ``ingest``,
#: upload) refuses it with this message, whatever database stands behind it
NUL_MESSAGE = "contains a NUL character (\\u0000), which a game log's names and ids may not hold"


def no_nul(value: Any) -> Any:
    """``value`` unless it is text holding NUL: ids and names are indexed as SQL text, which on
    PostgreSQL cannot hold it, so the log is refused where it is read (the same everywhere)."""
    if isinstance(value, str) and "\x00" in value:
        raise PydanticCustomError("nul", NUL_MESSAGE)
    return value


class Envelope(BaseModel):
    """``started_at`` checked and written one way, ``game_id`` without NUL, player names, and
    the canonical JSON."""

    _game_id_without_nul = field_validator("game_id", check_fields=False)(no_nul)

    @field_validator("started_at", check_fields=False)
    @classmethod
    def _representable_in_utc(cls, value: datetime | None) -> datetime | None:
        # "0001-01-01T00:00:00+14:00" parses, but has no UTC time: refuse it here, where every
        # reader sees it, rather than let each consumer trip over it later
        if value is not None and value.tzinfo is not None:
            try:
                value.astimezone(timezone.utc)
            except OverflowError:
                raise PydanticCustomError("started_at", "{text} is out of range once converted to UTC",
                                          {"text": value.isoformat()}) from None
        return value

    @field_serializer("started_at", check_fields=False)
    def _iso(self, value: datetime | None) -> str | None:
        if value is None:
            return None
        if value.tzinfo is not None and value.utcoffset() == timezone.utc.utcoffset(None):
            return value.replace(tzinfo=None).isoformat() + "Z"
        return value.isoformat()

    def replay(self) -> Any:
        """Judge the game: its game's replay (``GAME.judge``, found by the log's ``format``)."""
        return game_for_format(self.format).judge(self)  # type: ignore[attr-defined]

    def player_name(self, seat: Any) -> str | None:
        player = self.players.get(seat)  # type: ignore[attr-defined]
        return player.name if player else None

    def to_json_dict(self) -> dict[str, Any]:
        """The canonical JSON object (``None`` fields left out)."""
        return self.model_dump(mode="json", exclude_none=True)

    def canonical_json(self, indent: int | None = None) -> str:
        """One canonical text for the game: the same game always prints the same."""
        if indent is None:
            return json.dumps(self.to_json_dict(), ensure_ascii=False, separators=(",", ":"))
        return json.dumps(self.to_json_dict(), ensure_ascii=False, indent=indent)


def error_place(loc: tuple[Any, ...], event_types: Iterable[str]) -> str:
    """``('hands', 'P1', 2)`` -> ``hands.P1[2]``; the union tag pydantic adds to an event's
    location (``events[3].play.card``) and dictionary-key markers are left out."""
    parts: list[str] = []
    for position, item in enumerate(loc):
        if isinstance(item, int):
            parts.append(f"[{item}]")
        elif item == "[key]":
            continue
        elif position == 2 and loc[0] == "events" and item in event_types:
            continue
        else:
            parts.append(("." if parts else "") + str(item))
    return "".join(parts)


def log_json_schema(model: type[BaseModel], schema_id: str, title: str) -> dict[str, Any]:
    """A log model's JSON Schema (draft 2020-12) under its published ``$id`` and title."""
    schema = model.model_json_schema(mode="validation")
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = schema_id
    schema["title"] = title
    return schema


def schema_text(schema: dict[str, Any]) -> str:
    """A schema as the ``docs/*.schema.json`` files hold it."""
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"

