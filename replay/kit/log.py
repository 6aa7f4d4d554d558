"""The base of every game's log format: reading, error places and messages, the schema.

A game's ``log.py`` declares its pydantic models (built on ``replay.envelope.Envelope`` and
``Open``) and one ``LogFormat``, which gives ``parse``, ``errors_from_validation``,
``json_schema``, ``json_schema_text`` and the schema tool (``python -m <game>.log --schema``):

>>> from pydantic import Field
>>> class ToyLog(Open):
...     format: str
...     turns: int = Field(ge=0)
>>> toy = LogFormat(ToyLog, "toy/1", ("move", "chat"), "Toy game log, format toy/1", schema_file="toy")
>>> toy.parse({"format": "toy/1", "turns": 3}).turns
3
>>> toy.parse({"format": "toy/1"})
Traceback (most recent call last):
...
replay.log.LogFormatError: turns: required field is missing
>>> toy.json_schema()["$id"]
'https://game-replay.invalid/toy/v1.schema.json'
"""

from __future__ import annotations

import sys
from typing import Any, Callable, Literal, Optional, Sequence

from pydantic import BaseModel, Field, ValidationError, create_model

from ..envelope import error_place, log_json_schema, schema_text
from ..log import LogFormatError, Millis
from ..log import _Open as Open
from ..log import _short_repr as short_repr

__all__ = ["LogFormat", "Millis", "Open", "chat_event", "end_model", "short_repr"]


def chat_event(seat: Any, max_text: int, module: str) -> type[Open]:
    """The ``chat`` event every format has: who wrote (the game's seat field; none for the
    host), the text (at most ``max_text`` characters) and its time. Chat is kept, never judged."""
    return create_model("ChatEvent", __base__=Open, __module__=module, type=(Literal["chat"], ...),
                        seat=(Optional[seat], None), text=(str, Field(max_length=max_text)),
                        t=(Optional[Millis], None))


def end_model(reasons: Sequence[str], module: str, winner: Any = None, announced_by: str = "bot") -> type[Open]:
    """The ``end`` object every format has: the reason (one of ``reasons``), the winner as the
    ``announced_by`` announced it (checked by the rules; only where ``winner`` gives the game's
    seat field), and its time."""
    fields: dict[str, Any] = {"reason": (Literal[tuple(reasons)], ...)}
    if winner is not None:
        fields["winner"] = (Optional[winner], Field(None, description=f"the winner as the {announced_by} announced it "
                                                                      f"(checked)"))
    fields["t"] = (Optional[Millis], None)
    return create_model("End", __base__=Open, __module__=module, **fields)


class LogFormat:
    """One game's log format: its model, ``format`` text and event types, and the hooks where
    the game reads or words errors its own way.

    - ``read_plain(data)``: the model for a plain log built without validation (a fast path
      that accepts no more than validation), or None; ``TypeError`` counts as None.
    - ``message(error)``: the game's own message for a pydantic error, or None for the one
      every format gives (``common_message``).
    - ``place(loc)``: the game's own place for an error location (default ``error_place``).
    - ``error(error)``: ``(place, message)`` for an error the game words whole, or None.
    - ``schema_file``: the name of ``docs/<schema_file>.schema.json`` (and of the schema's id).
    """

    def __init__(self, model: type[BaseModel], format: str, event_types: Sequence[str], title: str, *,
                 schema_file: str, read_plain: Callable[[dict[str, Any]], Any] | None = None,
                 message: Callable[[dict[str, Any]], "str | None"] | None = None,
                 place: Callable[[tuple[Any, ...]], str] | None = None,
                 error: Callable[[dict[str, Any]], "tuple[str, str] | None"] | None = None,
                 schema_id: str | None = None) -> None:
        self.model = model
        self.format = format
        self.event_types = tuple(event_types)
        self.title = title
        self.schema_file = schema_file
        self.schema_id = schema_id or f"https://game-replay.invalid/{format.partition('/')[0]}/v{format.partition('/')[2]}.schema.json"
        self._read_plain = read_plain
        self._message = message
        self._place = place
        self._error = error

    # -- errors -------------------------------------------------------------------------------
    def common_message(self, error: dict[str, Any]) -> str:
        """What every format says for a pydantic error (a missing field, an unknown event type,
        another format), else pydantic's own message."""
        kind = error["type"]
        if kind == "missing":
            return "required field is missing"
        if kind == "union_tag_invalid":
            tag = error["input"].get("type") if isinstance(error["input"], dict) else None
            return f"unknown event type {short_repr(tag)} (expected one of {', '.join(self.event_types)})"
        if kind == "union_tag_not_found":
            return "an event needs a 'type' (one of " + ", ".join(self.event_types) + ")"
        if kind == "literal_error" and error["loc"] == ("format",):
            return f"{short_repr(error['input'])} is not a known format (expected '{self.format}')"
        return error["msg"]

    def place(self, loc: tuple[Any, ...]) -> str:
        """An error location as the place users read (``hands.P1[2]``, ``events[3].card``)."""
        return self._place(loc) if self._place is not None else error_place(loc, self.event_types)

    def message(self, error: dict[str, Any]) -> str:
        own = self._message(error) if self._message is not None else None
        return own if own is not None else self.common_message(error)

    def errors_from_validation(self, exc: ValidationError) -> list[tuple[str, str]]:
        """Each error of a failed validation as ``(place, message)``."""
        out = []
        for e in exc.errors(include_url=False):
            whole = self._error(e) if self._error is not None else None
            out.append(whole if whole is not None else (self.place(e["loc"]), self.message(e)))
        return out

    # -- reading --------------------------------------------------------------------------------
    def parse(self, data: dict[str, Any], source: str | None = None) -> Any:
        """A decoded JSON object -> the log model; raises ``replay.log.LogFormatError`` naming
        each place. Plain logs take the game's fast path (``read_plain``), anything else is
        validated in full, so that every error is pydantic's own."""
        if not isinstance(data, dict):
            raise LogFormatError(f"a game log must be a JSON object, not {type(data).__name__}", source)
        if self._read_plain is not None:
            try:
                fast = self._read_plain(data)
            except TypeError:  # an unhashable value where a seat or card goes
                fast = None
            if fast is not None:
                return fast
        try:
            return self.model.model_validate(data)
        except ValidationError as exc:
            raise LogFormatError(self.errors_from_validation(exc), source) from None

    # -- the schema -----------------------------------------------------------------------------
    def json_schema(self) -> dict[str, Any]:
        """The JSON Schema of the format (what ``docs/<schema_file>.schema.json`` holds)."""
        return log_json_schema(self.model, self.schema_id, self.title)

    def json_schema_text(self) -> str:
        return schema_text(self.json_schema())

    def main(self, argv: Sequence[str], module: str) -> int:
        """The schema tool: ``python -m <module> --schema`` prints the schema."""
        if list(argv) == ["--schema"]:
            sys.stdout.write(self.json_schema_text())
            return 0
        print(f"usage: python -m {module} --schema > docs/{self.schema_file}.schema.json")
        return 2
