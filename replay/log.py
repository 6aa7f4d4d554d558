"""Reading game logs of every game: the readers, the shared pieces of the log models, the limits.

A log's ``format`` (``"<game>/<major>"``) picks its game through the
registry (``replay.games``), whose module validates it (``GAME.parse``). This module holds what
every game's log shares: ``LogFormatError``, the ``Player`` model, the readers of JSON, JSON
lines and zstd (``read_logs``, ``read_path``, ``parse_log``), the check for lone surrogates, the
size limits and the helpers the games' fast paths build their models with. It imports no game.

A log that is not well-formed raises ``LogFormatError`` naming each place:

>>> parse_log('[1, 2]')
Traceback (most recent call last):
...
replay.log.LogFormatError: a game log must be a JSON object, not list
>>> parse_log('{"format": "chess/1"}')  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
replay.log.LogFormatError: format: 'chess/1' is not a known format (known: ...)
"""

from __future__ import annotations

import io
import json
import re
import sys
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, Iterable

import zstandard
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator
from pydantic_core import PydanticCustomError

from .envelope import no_nul
from .errors import ReplayError
from .games import UnknownGameError, game_for_format, get, names
from .games.base import ForeignFormat
from .reading import read_text

DEFAULT_MAX_DECOMPRESSED = 64 * 1024 * 1024
#: how deep a log's JSON may nest arrays and objects: a game log needs 6 levels, and meta or
#: unknown fields a few more; every entry point refuses deeper JSON with ``depth_message``
MAX_DEPTH = 32


class LogFormatError(ReplayError, ValueError):
    """A log that is not well-formed. ``errors`` lists ``(place, message)`` pairs."""

    def __init__(self, errors: list[tuple[str, str]] | str, source: str | None = None):
        if isinstance(errors, str):
            errors = [("", errors)]
        self.errors = errors
        self.source = source
        text = "; ".join(f"{place}: {msg}" if place else msg for place, msg in errors[:5])
        if len(errors) > 5:
            text += f"; and {len(errors) - 5} more errors"
        super().__init__(text)



def _short_repr(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


Millis = Annotated[int, Field(ge=0, description="milliseconds since started_at or the first event")]


class _Open(BaseModel):
    """Unknown extra fields are kept as they are, never an error."""

    model_config = ConfigDict(extra="allow", frozen=True)


class Player(_Open):
    name: str | None = Field(None, max_length=200)
    id: str | None = Field(None, max_length=200, description="the bot platform's user id")
    bot: str | None = Field(None, max_length=200, description="bot name and version; null for a person")

    _without_nul = field_validator("name", "id", "bot")(no_nul)



# --- readers ---------------------------------------------------------------------------------

def parse_log(data: "str | bytes | dict[str, Any]", source: str | None = None) -> Any:
    """One game from JSON text or an already-decoded object; raises ``LogFormatError``.

    The log's ``format`` picks the game (``replay.games``), whose own model it gives
    (``GAME.parse``). Every log has ``replay()``.
    """
    suspect = True  # of holding a lone surrogate: a decoded object may hold one anywhere
    if not isinstance(data, dict):
        fast = _read_text(data)  # never reads a lone surrogate: the JSON parser refuses them
        if fast is not None and not nested_deeper(data):
            return fast
        suspect = _may_hold_surrogates(data)
        text, data = data, _loads(data, source)
        if nested_deeper(text):
            raise LogFormatError(depth_message(), source)
    elif _depth_over(data):
        raise LogFormatError(depth_message(), source)
    return _validate(data, source, suspect)


def depth_message(most: int = MAX_DEPTH) -> str:
    """The one refusal of JSON nested too deeply, the same from every entry point."""
    return f"JSON nested deeper than {most} levels: not a game log"


_ESCAPE = re.compile(rb"\\.", re.DOTALL)
#: braces read as brackets (nesting is nesting, whichever the kind)...
_AS_BRACKETS = bytes.maketrans(b"{}", b"[]")
#: ...and every byte but the brackets and the quote deleted (both by one ``bytes.translate``)
_NOT_STRUCTURE = bytes(sorted(set(range(256)) - set(b'[]{}"')))


def nested_deeper(text: "str | bytes", most: int = MAX_DEPTH) -> bool:
    """Whether JSON ``text`` (a document, or JSON lines) nests arrays and objects deeper than ``most``.

    At C speed (no Python step per token, which cost more than reading the log): escapes, then
    every byte but brackets and quotes, then what the quotes enclose are taken out; then each
    pass takes out the empty pairs ``[]``, which is one level of nesting, and ``most + 1``
    passes that each take something out mean a deeper nesting. Text that is not JSON gives no
    false alarm from brackets that do not pair (a pass that takes nothing out ends the count).
    """
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    if data.count(b"[") + data.count(b"{") <= most:
        return False
    if b"\\" in data:
        data = _ESCAPE.sub(b"", data)
    brackets = b"".join(data.translate(_AS_BRACKETS, _NOT_STRUCTURE).split(b'"')[::2])
    for _ in range(most + 1):
        shorter = brackets.replace(b"[]", b"")
        if len(shorter) == len(brackets):
            return False
        brackets = shorter
    return True


def _depth_over(value: Any, most: int = MAX_DEPTH) -> bool:
    """``nested_deeper`` for a decoded JSON value (a log given as a dict)."""
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, (dict, list)):
            if depth > most:
                return True
            items = node.values() if isinstance(node, dict) else node
            stack.extend((item, depth + 1) for item in items if isinstance(item, (dict, list)))
    return False


def _may_hold_surrogates(text: "str | bytes") -> bool:
    """JSON text decodes to a lone surrogate only from a \\ud800-\\udfff escape (or, as str, holds one raw)."""
    if isinstance(text, bytes):
        return b"\\u" in text and _SURROGATE_ESCAPE.search(text) is not None
    if "\\u" in text and _SURROGATE_ESCAPE_TEXT.search(text) is not None:
        return True
    try:  # at C speed: text without a lone surrogate encodes
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.search(text) is not None
    return False


def _read_text(text: "str | bytes") -> Any:
    """The log of a plain JSON text read in one pass (``replay.reading``), or None."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError:
            return None
    return read_text(text)


def _validate(data: Any, source: str | None, suspect: bool = True) -> Any:
    if not isinstance(data, dict):
        raise LogFormatError(f"a game log must be a JSON object, not {type(data).__name__}", source)
    surrogates = lone_surrogates(data) if suspect else None
    if surrogates:
        raise LogFormatError(surrogates, source)
    fmt = data.get("format")
    if isinstance(fmt, str):
        try:
            game = game_for_format(fmt)
        except UnknownGameError as exc:
            raise LogFormatError([("format", str(exc))], source) from None
    else:  # no format (or not a text): the first game's model says what is missing or wrong
        game = get(names()[0])
    return game.parse(data, source)


# --- building models without validation (the games' fast paths) -------------------------------
# Validating every field through pydantic's per-field Python validators is most of the cost of
# reading a log. Each game's fast path checks exactly what validation checks for a plain log
# and builds the very same models with these helpers (same fields, same fields set, same
# extras); on anything else it validates in full, so that every error is pydantic's own.

_new = object.__new__
_set = object.__setattr__


def _model(cls: type, fields: dict[str, Any], fields_set: set[str], extra: dict[str, Any] | None) -> Any:
    """A model instance exactly as validation leaves it (``fields`` in declaration order; like
    validation, the fields set include the extras)."""
    if extra:
        fields_set |= extra.keys()
    model = _new(cls)
    _set(model, "__dict__", fields)
    _set(model, "__pydantic_fields_set__", fields_set)
    _set(model, "__pydantic_extra__", extra)
    _set(model, "__pydantic_private__", None)
    return model



def _fast_text(value: Any, limit: int = 200) -> bool:
    """An optional short text that validation takes as it is (no NUL: see ``no_nul``)."""
    return value is None or (type(value) is str and len(value) <= limit and "\x00" not in value)


def _fast_open(cls: type, value: Any, names: tuple[str, ...]) -> Any:
    """A model of only optional short-text fields and extras (``Player``)."""
    if type(value) is not dict:
        return None
    fields = {}
    fields_set = set()
    for name in names:
        if name in value:
            item = value[name]
            if not _fast_text(item):
                return None
            fields_set.add(name)
        else:
            item = None
        fields[name] = item
    extra = {k: v for k, v in value.items() if k not in fields} if len(fields_set) != len(value) else {}
    if not all(type(k) is str for k in extra):
        return None
    return _model(cls, fields, fields_set, extra)



_DATETIME = None


def plain_start_time(value: Any, check: Any) -> "tuple[bool, datetime | None]":
    """``(ok, value)`` for a ``started_at`` read as pydantic reads it, then ``check`` (the model's
    own field validator); not ok when pydantic or the check would refuse it (for fast paths)."""
    global _DATETIME
    if value is None:
        return True, None
    if type(value) is not str:
        return False, None
    if _DATETIME is None:
        _DATETIME = TypeAdapter(datetime)
    try:
        return True, check(_DATETIME.validate_python(value))
    except (ValidationError, PydanticCustomError):
        return False, None


def plain_players(data: dict[str, Any], seats: dict[str, Any]) -> dict[Any, Player] | None:
    """The ``players`` of a plain log (``seats``: exact seat text -> seat), or None (for fast paths)."""
    if "players" not in data:
        return {}
    given = data["players"]
    if type(given) is not dict:
        return None
    players = {}
    for key, value in given.items():
        seat = seats.get(key) if type(key) is str else None
        player = _fast_open(Player, value, ("name", "id", "bot"))
        if seat is None or player is None or seat in players:
            return None
        players[seat] = player
    return players


def plain_envelope(data: dict[str, Any], cls: type, fields: dict[str, Any]) -> Any:
    """The log model from its fields (the envelope's own are read here: ``game_id``, ``end``
    is the caller's, ``meta``) with the fields set and extras validation would give; or None."""
    game_id = data.get("game_id")
    meta = data.get("meta", None)
    if not _fast_text(game_id):
        return None
    if "meta" in data:
        if type(meta) is not dict or not all(type(k) is str for k in meta):
            return None
        meta = dict(meta)
    else:
        meta = {}
    fields["game_id"] = game_id
    fields["meta"] = meta
    names = tuple(cls.model_fields)
    ordered = {name: fields[name] for name in names}
    fields_set = {name for name in names if name in data}
    extra = {k: v for k, v in data.items() if k not in ordered} if len(fields_set) != len(data) else {}
    if not all(type(k) is str for k in extra):
        return None
    return _model(cls, ordered, fields_set, extra)


def build_model(cls: type, fields: dict[str, Any], fields_set: set[str], extra: dict[str, Any] | None) -> Any:
    """A model instance exactly as validation leaves it, for fields already checked (fast paths)."""
    return _model(cls, fields, fields_set, extra)



_SURROGATE = re.compile("[\ud800-\udfff]")
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
_SURROGATE_ESCAPE_TEXT = re.compile(r"\\u[dD][89a-fA-F]")
_MAX_SURROGATE_ERRORS = 20


def lone_surrogates(data: Any) -> list[tuple[str, str]]:
    """Every place in a decoded JSON value whose text holds a lone surrogate (``"\\ud800"``).

    JSON may escape half of a UTF-16 pair on its own; Python decodes it to a string that no
    UTF-8 encoder (database, page, canonical writer) accepts. Such text is not valid Unicode,
    so the log is refused where it is read, naming the place, like any other malformed value.
    """
    try:  # the common case at C speed: text that encodes has no lone surrogate
        json.dumps(data, ensure_ascii=False).encode("utf-8")
        return []
    except (UnicodeEncodeError, TypeError, ValueError, RecursionError):
        pass  # a surrogate, or values JSON does not hold: look at every string
    found: list[tuple[str, str]] = []
    stack: list[tuple[str, Any]] = [("", data)]
    while stack and len(found) < _MAX_SURROGATE_ERRORS:
        place, value = stack.pop()
        if isinstance(value, str):
            if not value.isascii():
                hit = _SURROGATE.search(value)
                if hit:
                    found.append((place, _surrogate_message(hit.group())))
        elif isinstance(value, dict):
            items = []
            for key, item in value.items():
                key = str(key)
                hit = None if key.isascii() else _SURROGATE.search(key)
                if hit:
                    found.append((place, f"the key {_short_repr(key)} {_surrogate_message(hit.group())}"))
                    continue
                items.append((f"{place}.{key}" if place else key, item))
            stack.extend(reversed(items))
        elif isinstance(value, (list, tuple)):
            stack.extend((f"{place}[{i}]", item) for i, item in reversed(list(enumerate(value))))
    return found


def _surrogate_message(char: str) -> str:
    return f"contains a lone surrogate (\\u{ord(char):04x}), which is not valid Unicode"


def _loads(data: "str | bytes", source: str | None) -> Any:
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise LogFormatError(f"not UTF-8 text (byte {exc.start} is {data[exc.start]:#04x})", source) from None
    if not data.strip():
        raise LogFormatError("empty input: no game in it", source)
    try:
        return json.loads(data)
    except json.JSONDecodeError as exc:
        hint = " (the file looks truncated)" if exc.pos >= len(data.rstrip()) else ""
        msg = exc.msg[:-3] if exc.msg.endswith(" at") else exc.msg  # "...starting at" + " at line": one "at"
        raise LogFormatError(f"not JSON: {msg} at line {exc.lineno} column {exc.colno}{hint}", source) from None
    except RecursionError:
        raise LogFormatError(depth_message(), source) from None
    except ValueError:  # Python's bound on the digits of an integer it converts from text
        raise LogFormatError(f"not a game log: a number of more than {sys.get_int_max_str_digits():,} digits",
                             source) from None


ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"


def decompress_zstd(data: bytes, max_size: int = DEFAULT_MAX_DECOMPRESSED, source: str | None = None) -> bytes:
    """Inflate zstd data, refusing anything that inflates past ``max_size`` bytes."""
    try:
        reader = zstandard.ZstdDecompressor().stream_reader(io.BytesIO(data), read_across_frames=True)
        out = reader.read(max_size + 1)
        # stream_reader.read may return less than asked while more remains; keep reading
        chunks = [out]
        total = len(out)
        while out and total <= max_size:
            out = reader.read(max_size + 1 - total)
            chunks.append(out)
            total += len(out)
    except zstandard.ZstdError as exc:
        raise LogFormatError(f"broken zstd data: {exc}", source) from None
    if total > max_size:
        raise LogFormatError(f"zstd data inflates past the limit of {max_size} bytes", source)
    return b"".join(chunks)


@dataclass(slots=True)
class LogEntry:
    """One game read from a file: its log, or why it could not be read, and its raw bytes."""

    source: str  # "path", or "path:line" inside a .jsonl
    raw: bytes
    log: Any = None  # the game's own log model
    error: LogFormatError | None = None

    @property
    def ok(self) -> bool:
        return self.log is not None


def _first_line_is_a_json_object(text: str) -> bool:
    first = text.split("\n", 1)[0].strip()
    if not (first.startswith("{") and first.endswith("}")):
        return False
    try:
        return isinstance(json.loads(first), dict)
    except (ValueError, RecursionError):  # JSONDecodeError is a ValueError, as is a number too long
        return False


def read_logs(data: bytes, name: str = "<input>", max_decompressed: int = DEFAULT_MAX_DECOMPRESSED) -> list[LogEntry]:
    """Every game in one file's bytes: JSON, JSON lines, zstd of either, or a legacy text log.

    Never raises for bad content: each game that cannot be read comes back with its error.
    The kind of file is told by its content, not its name.
    """
    if data.startswith(ZSTD_MAGIC):
        try:
            data = decompress_zstd(data, max_decompressed, name)
        except LogFormatError as exc:
            return [LogEntry(name, data, error=exc)]
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        return [LogEntry(name, data, error=LogFormatError(
            f"not UTF-8 text (byte {exc.start} is {data[exc.start]:#04x}): not a game log", name))]
    stripped = text.strip()
    if not stripped:
        return [LogEntry(name, data, error=LogFormatError("empty input: no game in it", name))]
    if not stripped.startswith("{"):
        # a text format one of the registered games reads (its ``readers``: ``looks_like``, ``read``);
        # text that starts with [ may be one too (a TOML table: a PHH .phhs file's first hand)
        for reader in (r for game in names() for r in get(game).readers):
            if reader.looks_like(text):
                return _text_entries(reader, text, data, name)
    # one JSON document, or JSON lines
    fast = _read_text(stripped) if stripped.startswith("{") else None
    if fast is not None and not nested_deeper(stripped):
        return [LogEntry(name, data, log=fast)]
    try:
        whole = json.loads(stripped)
    except ValueError:  # not JSON (JSONDecodeError), or a number too long: parse_log says which
        whole = None
    except RecursionError:
        return [LogEntry(name, data, error=LogFormatError(depth_message(), name))]
    if isinstance(whole, dict) and nested_deeper(stripped):
        return [LogEntry(name, data, error=LogFormatError(depth_message(), name))]
    if whole is None and "\n" in stripped and not _first_line_is_a_json_object(stripped):
        whole = stripped  # one document that does not parse (e.g. truncated): one error, not one per line
    if whole is not None or "\n" not in stripped:
        try:
            if isinstance(whole, dict):
                return [LogEntry(name, data, log=_validate(whole, name, _may_hold_surrogates(stripped)))]
            return [LogEntry(name, data, log=parse_log(stripped, name))]
        except LogFormatError as exc:
            return [LogEntry(name, data, error=exc)]
    entries = []
    for number, line in enumerate(data.split(b"\n"), start=1):
        if not line.strip():
            continue
        place = f"{name}:{number}"
        try:
            entries.append(LogEntry(place, line.rstrip(b"\r"), log=parse_log(line, place)))
        except LogFormatError as exc:
            entries.append(LogEntry(place, line.rstrip(b"\r"), error=exc))
    return entries


def _text_entries(reader: ForeignFormat, text: str, data: bytes, name: str) -> list[LogEntry]:
    """The games a text reader finds in ``text`` (``data``'s text). A reader with ``read_games``
    may find several (one program's logs one after another): each is then an entry of its
    own, ``name:line`` at its first line, its raw bytes its lines, as in a JSON lines file."""
    read_games = reader.read_games
    if read_games is None:
        try:
            return [LogEntry(name, data, log=reader.read(text, name))]
        except LogFormatError as exc:
            exc.source = name
            return [LogEntry(name, data, error=exc)]
    parts = read_games(text, name)
    if len(parts) == 1:
        return [LogEntry(name, data, log=parts[0].log, error=parts[0].error)]
    lines = data.split(b"\n")  # the text's lines are these bytes' lines (see the reader)
    entries = []
    for part in parts:
        place = f"{name}:{part.first}"
        if part.error is not None:
            part.error.source = place
        entries.append(LogEntry(place, b"\n".join(lines[part.first - 1:part.last]), log=part.log, error=part.error))
    return entries


#: the names of every game's logs; a game's foreign formats add their own (``ForeignFormat.suffixes``:
#: ``log_suffixes()``)
LOG_SUFFIXES = (".json", ".jsonl", ".zst", ".txt", ".log")


def log_suffixes() -> tuple[str, ...]:
    """The endings of log files' names: ``LOG_SUFFIXES`` and those of every registered game's
    foreign formats (``ForeignFormat.suffixes``), in that order.

    >>> log_suffixes()[:5]
    ('.json', '.jsonl', '.zst', '.txt', '.log')
    """
    extra = [s for game in names() for reader in get(game).readers for s in reader.suffixes]
    return LOG_SUFFIXES + tuple(dict.fromkeys(s for s in extra if s not in LOG_SUFFIXES))


class InputPathError(ReplayError, ValueError):
    """A path given on the command line that is not a readable file or folder."""


def is_log_name(name: str) -> bool:
    """A name a finished log file may have (temporary and hidden files are not logs)."""
    if name.startswith(".") or name.endswith(("~", ".tmp", ".part", ".partial", ".swp")):
        return False
    return name.endswith(log_suffixes())


def expand_paths(paths: "Iterable[str]") -> list[str]:
    """Files named, and the log files inside named folders, recursively, sorted.

    Hidden files and folders and temporary files (``.name.tmp``, ``~``, ``.part``) are skipped,
    so a folder a bot is writing into can be read at any moment. ``-`` stands for stdin.
    """
    out: list[str] = []
    for p in paths:
        if p == "-":
            out.append(p)
            continue
        path = Path(p)
        if path.is_dir():
            for child in sorted(path.rglob("*")):
                rel = child.relative_to(path)
                if any(part.startswith(".") for part in rel.parts):
                    continue
                if child.is_file() and is_log_name(child.name):
                    out.append(str(child))
        elif path.is_file():
            out.append(str(path))
        elif path.exists():
            raise InputPathError(f"{p}: not a file or folder")
        else:
            raise InputPathError(f"{p}: no such file or folder")
    return out


def read_path(path: str, max_decompressed: int = DEFAULT_MAX_DECOMPRESSED) -> list[LogEntry]:
    """Every game in a file (``-`` reads standard input)."""
    if path == "-":
        data = sys.stdin.buffer.read()
        return read_logs(data, "<stdin>", max_decompressed)
    with open(path, "rb") as fh:
        data = fh.read()
    return read_logs(data, path, max_decompressed)
