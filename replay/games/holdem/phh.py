"""PHH hand histories (``.phh``: one hand; ``.phhs``: several, each under a ``[n]`` table) read as
``holdem/1`` logs, and written back.

The Poker Hand History format (``phh-std``) is TOML: ``variant``, ``antes``,
``blinds_or_straddles``, ``min_bet`` (``NT``) or ``small_bet`` and ``big_bet`` (``FT``),
``starting_stacks`` and ``actions`` (one notation each: an event of the log), and optional fields.
How a hand maps onto the log:

- ``players`` (a list of names) names the seats: ``{"p1": {"name": ...}, ...}`` (an empty name
  leaves its seat unnamed);
- ``finishing_stacks`` and ``winnings`` go into ``end``; ``end.reason`` is ``completed`` when
  either is given, when all seats but one have folded, or when the last action comes at or after
  the fifth board card (a river action or a showdown ``sm``); otherwise the hand has no ``end``
  (it stops before its end). ``_end_reason`` (a user-defined field this writer adds where the
  rule would read otherwise) says it outright: ``"cancelled"``, ``"timeout"``, ``""`` for none;
- ``_game_id``, ``_started_at`` and ``_meta`` carry the log's envelope (user-defined fields, as
  PHH names them, with a leading underscore); without ``_started_at``, ``started_at`` comes from
  PHH's ``year``, ``month``, ``day``, ``time`` and ``time_zone`` when all are given; every other
  field is kept as it is (TOML times and dates as ISO text);
- amounts are read exactly (TOML ``0.25`` is ``Decimal('0.25')``); cards in any spelling
  ``parse_cards`` takes, written canonically.

>>> text = '''
... variant = "NT"
... antes = [0, 0, 0]
... blinds_or_straddles = [0.5, 1, 0]
... min_bet = 1
... starting_stacks = [100, 87.25, 100]
... actions = ["d dh p1 ????", "d dh p2 10h 10d", "d dh p3 ????", "p3 f", "p1 f"]
... players = ["ann", "bo", "cy"]
... winnings = [0, 1.5, 0]
... '''
>>> looks_like(text)
True
>>> log = read(text)
>>> log.players["p2"].name, log.starting_stacks[1], log.events[1].action, log.end.reason, log.end.winnings
('bo', Decimal('87.25'), 'd dh p2 ThTd', 'completed', [0, Decimal('1.5'), 0])
>>> read(write(log)) == log
True
>>> read(text.replace('"NT"', '"PO"'))
Traceback (most recent call last):
...
replay.log.LogFormatError: variant: 'PO' is not a variant of this game: the supported codes are NT (no-limit Texas hold'em) and FT (fixed-limit Texas hold'em)
>>> [(p.first, p.last, p.log.starting_stacks) for p in read_games("[1]" + text + "[2]" + text.replace("87.25", "90"))]
[(1, 9, [100, Decimal('87.25'), 100]), (10, 19, [100, 90, 100])]
"""

from __future__ import annotations

import functools
import json
import re
import tomllib
from dataclasses import dataclass
from datetime import date, datetime, time
from decimal import Decimal
from typing import Any, Iterable, Iterator, Sequence
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from pydantic import ValidationError

from replay.log import MAX_DEPTH, LogFormatError, depth_message

from .log import (
    FORMAT,
    LOG_FORMAT,
    VARIANTS,
    ActionError,
    HoldemLog,
    amount_text,
    amount_value,
    parse_action,
    variant_error,
)

#: the fields of a hand that the log keeps under their own names
GAME_FIELDS = ("variant", "antes", "blinds_or_straddles", "min_bet", "small_bet", "big_bet", "starting_stacks")
#: PHH fields and the writer's user-defined fields that are not kept as they are
OWN_FIELDS = frozenset(GAME_FIELDS) | {"actions", "players", "finishing_stacks", "winnings", "_game_id",
                                       "_started_at", "_meta", "_end_reason"}

_VARIANT_LINE = re.compile(r"^[ \t]*variant[ \t]*=[ \t]*['\"]", re.MULTILINE)
_ACTIONS_LINE = re.compile(r"^[ \t]*actions[ \t]*=", re.MULTILINE)
_HEADER = re.compile(r"[ \t]*\[(?!\[)[ \t]*([^\[\]#]+?)[ \t]*\][ \t]*(?:#.*)?")
#: what tells a header: strings (skipped whole), multi-line string openings, comments, brackets
_TOKEN = re.compile(r'"""' + r"|'''" + r'|"(?:[^"\\]|\\.)*"' + r"|'[^']*'" + r"""|[#\[\]"']""")
_TOML_PLACE = re.compile(r"\s*\(at line (\d+), column (\d+)\)$")
_TOML_AT_END = re.compile(r"\s*\(at end of document\)$")
_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_LOCAL_TIME = re.compile(r"[0-2][0-9]:[0-5][0-9]:[0-6][0-9](?:\.[0-9]{1,6})?")


def looks_like(text: str) -> bool:
    """Whether ``text`` is a PHH hand history (or several): TOML with a ``variant`` and ``actions``."""
    return _VARIANT_LINE.search(text) is not None and _ACTIONS_LINE.search(text) is not None


# --- the sections of a .phhs ------------------------------------------------------------------

class _Scanner:
    """Reads TOML line by line only as far as telling where a table header stands: outside
    strings (also multi-line ones) and outside arrays that span lines."""

    __slots__ = ("depth", "multiline")

    def __init__(self) -> None:
        self.depth = 0
        self.multiline: str | None = None

    def header(self, line: str) -> str | None:
        """The table name if ``line`` is a table header, else None; then takes the line in."""
        if self.multiline is None:
            if self.depth == 0 and line.lstrip()[:1] == "[":
                found = _HEADER.fullmatch(line)
                if found is not None:
                    return found.group(1)
            if "[" not in line and "]" not in line and '"""' not in line and "'''" not in line:
                return None  # nothing here opens or closes what hides a header
        self._take(line)
        return None

    def _take(self, line: str) -> None:
        i = 0
        while True:
            closing = self.multiline
            if closing is not None:
                end = line.find(closing, i)
                if closing == '"""':
                    while end > 0 and _escaped(line, end):
                        end = line.find(closing, end + 1)
                if end < 0:
                    return
                self.multiline = None
                i = end + 3
            for token in _TOKEN.finditer(line, i):
                kind = token.group()
                if kind == "[":
                    self.depth += 1
                elif kind == "]":
                    if self.depth:
                        self.depth -= 1
                elif kind in ('"""', "'''"):
                    self.multiline = kind
                    i = token.end()
                    break
                elif len(kind) == 1:  # a comment, or a string that does not close on its line
                    return
            else:
                return


def _escaped(line: str, at: int) -> bool:
    """Whether the character at ``at`` follows an odd number of backslashes."""
    count = 0
    while at - count - 1 >= 0 and line[at - count - 1] == "\\":
        count += 1
    return count % 2 == 1


def _sections(lines: Iterable[str]) -> Iterator[tuple[int, int, str | None, list[str]]]:
    """``(first, last, table name, lines)`` for each hand: a ``.phh`` (keys before any table) is
    one hand; else each top-level table (``[1]``, ``[2]``...) is one, from its header to the line
    before the next (comments before the first header go with the first). Lines numbered from 1."""
    scanner = _Scanner()
    current: list[str] = []
    name: str | None = None
    first = 1
    single = False  # keys before any table: a .phh, one hand whatever tables follow
    number = 0
    for number, line in enumerate(lines, start=1):
        line = line.rstrip("\r\n")
        if single:
            current.append(line)
            continue
        header = scanner.header(line)
        if header is None:
            if name is None and line.strip() and not line.lstrip().startswith("#"):
                single = True
            current.append(line)
            continue
        if name is not None and header.partition(".")[0].strip().strip("\"'") == name:
            current.append(line)  # a table inside the hand's own
            continue
        if name is not None:
            yield first, number - 1, name, current
            first, current = number, []
        name = header.strip().strip("\"'")
        current.append(line)
    if current or number == 0:
        yield first, max(number, 1), name, current


# --- reading ----------------------------------------------------------------------------------

@dataclass
class Part:
    """One hand of a PHH text: its lines ``first`` to ``last`` (from 1, both included), its table's
    name (``"1"``; None in a ``.phh``) and its log, or why it cannot be read."""

    first: int
    last: int
    section: str | None = None
    log: HoldemLog | None = None
    error: LogFormatError | None = None


class Hands(Sequence[Part]):
    """The hands of a PHH text (``read_games``), read one at a time as they are asked for: its
    length counts the tables without reading a hand; iterating reads each hand in turn and keeps
    none of them."""

    def __init__(self, text: str, name: str | None = None) -> None:
        self._text = text
        self._name = name
        self._spans: list[tuple[int, int, str | None]] | None = None

    def _all(self) -> list[tuple[int, int, str | None]]:
        if self._spans is None:
            self._spans = [(first, last, section) for first, last, section, _ in _sections(self._lines())]
        return self._spans

    def _lines(self) -> Iterator[str]:
        return _split_lines(self._text)

    def __len__(self) -> int:
        return len(self._all())

    def __getitem__(self, index: int) -> Part:  # type: ignore[override]
        first, last, section = self._all()[index]
        lines = self._text.split("\n")[first - 1:last]
        return _part(first, last, section, lines, self._name)

    def __iter__(self) -> Iterator[Part]:
        return iter_games(self._lines(), self._name)


def _split_lines(text: str) -> Iterator[str]:
    """``text.split("\\n")`` one line at a time (the lines ``read_logs`` numbers a file's bytes by)."""
    start = 0
    while True:
        end = text.find("\n", start)
        if end < 0:
            yield text[start:]
            return
        yield text[start:end]
        start = end + 1


def iter_games(lines: Iterable[str], name: str | None = None) -> Iterator[Part]:
    """Each hand of PHH text given line by line (an open file streams: one hand in memory at a
    time), as ``Part``; never raises for bad content."""
    for first, last, section, chunk in _sections(lines):
        yield _part(first, last, section, chunk, name)


def read_games(text: str, name: str | None = None) -> Hands:
    """The hands of a ``.phhs`` text (a ``.phh`` is one), in order, each with its lines, read as
    they are asked for (``Hands``). Never raises for bad content: a hand that cannot be read
    comes back with its ``LogFormatError`` (naming the line of a TOML error)."""
    return Hands(text, name)


def read(text: str, name: str | None = None) -> HoldemLog:
    """The one hand of a ``.phh`` text; raises ``LogFormatError`` (also for a text of several
    hands: ``read_games`` reads those)."""
    parts = read_games(text, name)
    if len(parts) > 1:
        raise LogFormatError(f"{len(parts)} hands in one PHH text (a .phhs): read them with read_games", name)
    part = parts[0]
    if part.error is not None:
        raise part.error
    return part.log  # type: ignore[return-value]


def _part(first: int, last: int, section: str | None, lines: list[str], name: str | None) -> Part:
    try:
        table = _load(lines, first, name)
        return Part(first, last, section, log=from_table(table, name))
    except LogFormatError as exc:
        return Part(first, last, section, error=exc)


def _load(lines: list[str], first: int, name: str | None) -> dict[str, Any]:
    text = "\n".join(lines)
    try:
        data = tomllib.loads(text, parse_float=Decimal)
    except RecursionError:
        raise LogFormatError([(f"line {first}", depth_message())], name) from None
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        found = _TOML_PLACE.search(message)
        if found is not None:
            line = int(found.group(1)) + first - 1
            place, message = f"line {line}", f"{message[:found.start()]} (column {found.group(2)}): not valid TOML"
        else:
            place = f"line {first + len(lines) - 1}"
            message = _TOML_AT_END.sub("", message) + " at the end of the text: not valid TOML"
        raise LogFormatError([(place, message)], name) from None
    except ValueError as exc:  # a number too long for Python to read (tomllib lets int() raise it)
        raise LogFormatError([(f"line {first}", f"a number TOML cannot hold: {str(exc)[:100]}")], name) from None
    if _depth_over(data):
        raise LogFormatError([(f"line {first}", depth_message())], name)
    while "variant" not in data and "actions" not in data and len(data) == 1:
        inner = next(iter(data.values()))
        if not isinstance(inner, dict):
            break
        data = inner
    if not data:
        raise LogFormatError([(f"line {first}", "no hand here (no variant, no actions)")], name)
    return data


def _depth_over(value: Any, most: int = MAX_DEPTH - 2) -> bool:
    """Whether a TOML value nests deeper than a log's JSON may (two levels go to the log and a
    ``.phhs`` hand's own table)."""
    stack = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > most:
            return True
        items = node.values() if isinstance(node, dict) else node
        stack.extend((item, depth + 1) for item in items if isinstance(item, (dict, list)))
    return False


def _jsonable(value: Any) -> Any:
    """A TOML value as JSON holds it (kept fields): decimals as exact numbers where JSON can
    hold them (else text), times and dates as ISO text."""
    if isinstance(value, Decimal):
        try:
            return amount_value(value) if value == value.to_integral_value() or float(value) == value \
                else str(value)
        except ValueError:
            return str(value)
    if isinstance(value, (datetime, date, time)):
        return value.isoformat()
    if isinstance(value, list):
        return [_jsonable(item) for item in value]
    if isinstance(value, dict):
        return {key: _jsonable(item) for key, item in value.items()}
    return value


def start_time(table: dict[str, Any]) -> datetime | None:
    """When the hand started, from PHH's ``year``, ``month``, ``day``, ``time`` (a TOML local
    time) and ``time_zone`` (an IANA name), or None unless all of them are given and valid.

    >>> start_time({"year": 2026, "month": 11, "day": 14, "time": time(21, 47, 9), "time_zone": "UTC"})
    datetime.datetime(2026, 11, 14, 21, 47, 9, tzinfo=zoneinfo.ZoneInfo(key='UTC'))
    >>> start_time({"year": 2026, "month": 2, "day": 30, "time": time(1, 0), "time_zone": "UTC"}) is None
    True
    """
    year, month, day, clock, zone = (table.get(k) for k in ("year", "month", "day", "time", "time_zone"))
    if not (all(type(v) is int for v in (year, month, day)) and type(clock) is time
            and type(zone) is str and zone in _zones()):
        return None
    try:
        return datetime.combine(date(year, month, day), clock, tzinfo=ZoneInfo(zone))  # type: ignore[arg-type]
    except (ValueError, OverflowError, ZoneInfoNotFoundError):  # a date that does not exist
        return None


@functools.lru_cache(maxsize=1)
def _zones() -> frozenset[str]:
    """The IANA time zone names this machine knows (a hand's ``time_zone`` is looked up only among these)."""
    return frozenset(available_timezones())


def end_reason(actions: Sequence[str], seats: int, given: bool) -> str | None:
    """The rule that tells a PHH hand's ``end.reason``: ``completed`` when finishing stacks or
    winnings are ``given``, when all of ``seats`` but one have folded, or when the last action
    comes at or after the fifth board card (a river action, or a showdown ``sm``); else None.

    >>> end_reason(["d dh p1 ????", "d dh p2 ????", "p2 f"], 2, False)
    'completed'
    >>> end_reason(["d dh p1 ????", "d dh p2 ????", "p2 cc"], 2, False) is None
    True
    """
    if given:
        return "completed"
    folded: set[str] = set()
    board = 0
    last = None
    for text in actions:
        try:
            action = parse_action(text) if isinstance(text, str) else None
        except ActionError:
            return None  # the log says where (events[i].action)
        if action is None or not action.verb:
            continue
        last = action
        if action.verb == "f":
            folded.add(action.actor)  # type: ignore[arg-type]
        elif action.verb == "db":
            board += len(action.cards or ())
    if seats >= 2 and len(folded) >= seats - 1:
        return "completed"
    if last is not None and (last.verb == "sm" or board >= 5):
        return "completed"
    return None


def from_table(table: dict[str, Any], name: str | None = None) -> HoldemLog:
    """One hand's PHH fields (as ``tomllib`` reads them, floats as ``Decimal``) -> ``HoldemLog``;
    raises ``LogFormatError`` naming the PHH field."""
    if not isinstance(table, dict):
        raise LogFormatError("a PHH hand is a TOML table", name)
    if "variant" not in table:
        raise LogFormatError([("variant", "required field is missing")], name)
    variant = table["variant"]
    if not (isinstance(variant, str) and variant.strip().upper() in VARIANTS):
        raise LogFormatError([("variant", variant_error(variant))], name)
    if "actions" not in table:
        raise LogFormatError([("actions", "required field is missing")], name)
    actions = table["actions"]
    if not isinstance(actions, list):
        raise LogFormatError([("actions", "a list of action notations ('d dh p1 Ac2d', 'p1 cc', ...)")], name)
    data: dict[str, Any] = {"format": FORMAT}
    if "_game_id" in table:
        data["game_id"] = table["_game_id"]
    if "_started_at" in table:
        started = table["_started_at"]
        data["started_at"] = started.isoformat() if isinstance(started, datetime) else started
    else:
        started = start_time(table)
        if started is not None:
            data["started_at"] = started.isoformat()
    names = table.get("players")
    if names is not None:
        if not isinstance(names, list):
            raise LogFormatError([("players", "a list of the players' names, one per seat")], name)
        players = {}
        for index, player in enumerate(names):
            if not isinstance(player, str):
                raise LogFormatError([(f"players[{index}]", f"{player!r} is not a name (text)")], name)
            if player:
                players[f"p{index + 1}"] = {"name": player}
        data["players"] = players
    for field in GAME_FIELDS:
        if field in table:
            data[field] = table[field]
    data["events"] = [{"action": action} for action in actions]
    stacks = table.get("finishing_stacks")
    winnings = table.get("winnings")
    if "_end_reason" in table:
        reason = table["_end_reason"] or None
    else:
        count = len(table["starting_stacks"]) if isinstance(table.get("starting_stacks"), list) else 0
        reason = end_reason(actions, count, stacks is not None or winnings is not None)
    if reason is not None or stacks is not None or winnings is not None:
        end: dict[str, Any] = {"reason": reason}
        if stacks is not None:
            end["finishing_stacks"] = stacks
        if winnings is not None:
            end["winnings"] = winnings
        data["end"] = end
    if "_meta" in table:
        data["meta"] = _jsonable(table["_meta"])
    for key, value in table.items():
        if key not in OWN_FIELDS:
            data[key] = _jsonable(value)
    try:
        return HoldemLog.model_validate(data)
    except ValidationError as exc:
        errors = [(_phh_place(place), message) for place, message in LOG_FORMAT.errors_from_validation(exc)]
        raise LogFormatError(errors, name) from None


_EVENT_PLACE = re.compile(r"events\[(\d+)\](?:\.action)?")
_PLAYER_PLACE = re.compile(r"players\.p(\d+)(.*)")


def _phh_place(place: str) -> str:
    """A log's place as the PHH text names it: ``events[3].action`` is ``actions[3]``,
    ``end.winnings[1]`` is ``winnings[1]``, ``players.p2`` is ``players[1]``."""
    found = _EVENT_PLACE.match(place)
    if found is not None:
        return f"actions[{found.group(1)}]{place[found.end():]}"
    found = _PLAYER_PLACE.fullmatch(place)
    if found is not None:
        return f"players[{int(found.group(1)) - 1}]{found.group(2)}"
    if place.startswith("end."):
        return place[4:]
    return {"game_id": "_game_id", "started_at": "_started_at"}.get(place, place)


# --- writing ----------------------------------------------------------------------------------

def _toml(value: Any) -> str:
    """A value as TOML writes it (amounts exactly, text as basic strings)."""
    if value is True or value is False:
        return "true" if value else "false"
    if type(value) is int:
        return str(value)
    if isinstance(value, Decimal):
        return amount_text(value)
    if isinstance(value, float):
        if value != value:
            return "nan"
        if value in (float("inf"), float("-inf")):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(item) for item in value if item is not None) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_key(k)} = {_toml(v)}" for k, v in value.items() if v is not None) + "}"
    return _toml(str(value))


def _key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else _toml(key)


def write(log: HoldemLog) -> str:
    """The hand as a ``.phh`` file: PHH's fields, canonical cards and exact amounts; ``read``
    (and ``tomllib``) reads it back to the same game."""
    data = log.to_json_dict()
    lines = [f"variant = {_toml(log.variant)}"]
    for field in GAME_FIELDS[1:]:
        value = getattr(log, field)
        if value is not None:
            lines.append(f"{field} = {_toml(value)}")
    actions = log.actions
    lines.append("actions = [" + "".join(f"\n  {_toml(action)}," for action in actions) + ("\n]" if actions else "]"))
    if log.players:
        names = []
        for seat in log.seats:
            player = log.players.get(seat)
            names.append(player.name if player is not None and player.name else "")
        lines.append(f"players = {_toml(names)}")
    end = log.end
    if end is not None:
        if end.finishing_stacks is not None:
            lines.append(f"finishing_stacks = {_toml(end.finishing_stacks)}")
        if end.winnings is not None:
            lines.append(f"winnings = {_toml(end.winnings)}")
    given = end is not None and (end.finishing_stacks is not None or end.winnings is not None)
    reason = end.reason if end is not None else None
    if end_reason(actions, len(log.starting_stacks), given) != reason:
        lines.append(f"_end_reason = {_toml(reason or '')}")
    if log.game_id is not None:
        lines.append(f"_game_id = {_toml(log.game_id)}")
    if "started_at" in data:
        lines.append(f"_started_at = {_toml(data['started_at'])}")
    if log.meta:
        lines.append(f"_meta = {_toml(data['meta'])}")
    for key, value in (log.model_extra or {}).items():
        if key in OWN_FIELDS or value is None:
            continue
        if key == "time" and isinstance(value, str) and _LOCAL_TIME.fullmatch(value):
            lines.append(f"time = {value}")
        else:
            lines.append(f"{_key(key)} = {_toml(value)}")
    return "\n".join(lines) + "\n"


def write_games(logs: Iterable[HoldemLog]) -> str:
    """Hands as one ``.phhs`` file: each under its table ``[1]``, ``[2]``..."""
    return "\n".join(f"[{index}]\n{write(log)}" for index, log in enumerate(logs, start=1))
