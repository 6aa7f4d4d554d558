"""What the archive hands out and the small helpers its parts share.

The archive is split by job (see ``archive/store.py``, the facade): ``blobs`` keeps raw bytes,
``ingest`` takes games in, ``queries`` answers listings, games and statistics, ``admin`` does
the upkeep. The values they hand out (``IngestResult``, ``GameSummary``, ``ArchivedGame``,
``QuarantinedInput``, ``Page``) and the error class live here, one definition each.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from replay.errors import ReplayError
from replay.codec import CodeError, encode
from replay.log import ZSTD_MAGIC, LogFormatError, parse_log, read_logs
from replay.games import get as get_game, names as game_names

DEFAULT_URL = "sqlite:///var/game-replay.db"
MAX_INPUT_BYTES = 16 * 1024 * 1024
MAX_DECOMPRESSED = 16 * 1024 * 1024

STORED = "stored"
STORED_WITH_FINDINGS = "stored_with_findings"
DUPLICATE = "duplicate"
QUARANTINED = "quarantined"
REJECTED = "rejected"


class ArchiveError(ReplayError):
    """Something about the archive itself: it cannot be opened, a bad filter, a bad id."""


class CursorError(ArchiveError):
    """A listing cursor this archive did not give (for that sort): it names no page."""


# --- values handed out -----------------------------------------------------------------------

@dataclass(slots=True)
class IngestResult:
    """What became of one game (or one unreadable input)."""

    source: str
    status: str  # stored, stored_with_findings, duplicate, quarantined, rejected
    public_id: str | None = None
    findings: int = 0
    error: str | None = None
    new: bool = True  # False when a re-run found it already there

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(slots=True)
class GameSummary:
    """The index fields of an archived game."""

    public_id: str
    game: str  # the registry's name
    game_id: str | None
    started_at: datetime | None
    rules: str
    #: per seat ``{"name", "id", "bot", "role", "won"}`` (each only when known; ``won`` None:
    #: nobody won)
    players: dict[str, dict[str, Any]]
    #: every fact the game's ``Outcome.facts`` gave, ints as ints (``{"turns": 30}``)
    facts: dict[str, Any]
    end_reason: str
    findings: int
    finding_kinds: list[str]
    source: str
    origin: str
    ingested_at: datetime
    code: str | None
    listed: bool

    def summary(self) -> dict[str, Any]:
        """The index fields as a JSON-ready dict."""
        out = {}
        for name in GameSummary.__slots__:
            value = getattr(self, name)
            out[name] = value.isoformat().replace("+00:00", "Z") if isinstance(value, datetime) else value
        return out


@dataclass(slots=True)
class ArchivedGame(GameSummary):
    """A game from the archive: its raw bytes as received, its log, and its replay."""

    raw: bytes = b""
    _log: Any = field(default=None, repr=False)

    @property
    def log(self) -> Any:
        if self._log is None:
            entries = read_logs(self.raw, self.source, max_decompressed=max(MAX_DECOMPRESSED, 64 << 20))
            if len(entries) != 1 or entries[0].log is None:
                raise ArchiveError(f"game {self.public_id}: its stored bytes no longer read as one game")
            self._log = entries[0].log
        return self._log

    def replay(self):
        """The judged game (its game's ``Replay``)."""
        return self.log.replay()


@dataclass(slots=True)
class QuarantinedInput:
    id: int
    source: str
    origin: str
    error: str
    received_at: datetime
    size: int
    raw: bytes

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "source": self.source, "origin": self.origin, "error": self.error,
                "received_at": _iso(self.received_at), "size": self.size}


@dataclass(slots=True)
class Page:
    """One page of a listing: ``total`` matches in all (see ``Archive.list`` for ``total_exact``).

    ``next_cursor``: pass it as ``cursor`` for the page after this one (None: this is the last).
    """

    items: list[Any]
    total: int
    total_exact: bool = True
    next_cursor: str | None = None


# --- helpers ---------------------------------------------------------------------------------

def _now() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None)


def _utc_naive(value: datetime | None) -> datetime | None:
    if value is None:
        return None
    if value.tzinfo is not None:
        value = value.astimezone(timezone.utc).replace(tzinfo=None)
    return value


def _aware(value: datetime | None) -> datetime | None:
    return None if value is None else value.replace(tzinfo=timezone.utc)


def _iso(value: datetime | None) -> str | None:
    return None if value is None else _aware(value).isoformat().replace("+00:00", "Z")


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


_VERSION_TAIL = re.compile(r"[-_ /@]v?\d[\w.+-]*$", re.IGNORECASE)


def bot_base(bot: str) -> str:
    """A bot name without its version: ``greedy-0.3`` -> ``greedy``."""
    base = _VERSION_TAIL.sub("", bot.strip())
    return base or bot.strip()


def _like_pattern(value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return escaped.replace("*", "%")


def raw_extension(raw: bytes) -> str:
    if raw.startswith(ZSTD_MAGIC):
        return ".json.zst"
    head = raw[:4096].decode("utf-8", "replace")
    if head.lstrip("\ufeff \t\r\n").startswith("{"):
        return ".json"
    if any(reader.looks_like(head) for name in game_names() for reader in get_game(name).readers):
        return ".txt"  # a text format a game reads (a game host's own log)
    return ".json"




def replay_code(replay) -> str | None:
    """The game's replay code (``replay.codec.encode``), or None for a game no code can carry.

    Only ``CodeError``, the encoder's word for such a game, means "no code"; anything else
    (a ``TypeError`` for something that is not a game, a bug) propagates.
    """
    try:
        return encode(replay)
    except CodeError:
        return None


def _seat_name(seat: Any) -> str:
    """A seat as the log writes it: a game's seat may be an enum (its ``name``) or a plain name."""
    return getattr(seat, "name", None) or str(seat)
def _lc(value: str | None) -> str | None:
    return None if value is None else value.strip().lower()


def _as_datetime(value: Any, what: str) -> datetime:
    if isinstance(value, datetime):
        return value
    try:
        text = str(value).strip()
        if text.endswith("Z"):
            text = text[:-1] + "+00:00"
        parsed = datetime.fromisoformat(text)
    except ValueError:
        raise ArchiveError(f"{what} must be an ISO 8601 date or time, not {value!r}") from None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=timezone.utc)


def _looks_like_json_lines(data: bytes, compressed: bool) -> bool:
    if compressed:
        return True
    for line in data.split(b"\n"):
        text = line.strip()
        if text:
            return text.startswith(b"{") and text.endswith(b"}")
    return False


def _whole_error(data: bytes, source: str) -> LogFormatError:
    try:
        parse_log(data, source)
    except LogFormatError as exc:
        return exc
    return LogFormatError("not a game log", source)  # pragma: no cover - read_logs would have read it


def _safe_relative(source: str) -> str:
    if source in ("<stdin>", "-", ""):
        return "stdin.input"
    parts = [p for p in re.split(r"[\\/]+", source) if p not in ("", ".", "..")]
    parts = [re.sub(r"[^\w.@+-]", "_", p)[:200] for p in parts]
    return "/".join(parts) or "input"


def _db_message(exc: SQLAlchemyError) -> str:
    orig = getattr(exc, "orig", None)
    text = str(orig if orig is not None else exc).strip().splitlines()
    return text[0] if text else exc.__class__.__name__
