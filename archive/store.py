"""The archive: ingest, keep raw bytes losslessly, index, query (see ``archive/__init__.py``)."""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import threading
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, BinaryIO, Callable, Iterable, Iterator, Sequence

from sqlalchemy import (
    Connection,
    Engine,
    and_,
    bindparam,
    case,
    create_engine,
    event,
    func,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, IntegrityError, NoSuchModuleError, OperationalError, SQLAlchemyError
from sqlalchemy.pool import StaticPool

from replay.cards import ReplayError
from replay.codec import CodeError, encode
from replay.log import (ZSTD_MAGIC, GameLog, LogEntry, LogFormatError, expand_paths, is_log_name,  # noqa: F401
                        looks_like_legacy_text, parse_log, read_logs)

from . import compression
from .compression import BlobError, Compressor
from .ids import PublicIds
from .models import Blob, Dictionary, Game, GameFact, GameFinding, GamePlayer, Quarantined, Receipt, Setting

DEFAULT_URL = "sqlite:///var/game-replay.db"
MAX_INPUT_BYTES = 16 * 1024 * 1024
MAX_DECOMPRESSED = 16 * 1024 * 1024
SORTS = {"started_at": Game.started_at, "ingested_at": Game.ingested_at, "findings": Game.findings}
SORT_INDEXES = {"started_at": "ix_games_started", "ingested_at": "ix_games_ingested", "findings": "ix_games_findings"}
#: Filtered listings count matches exactly up to this many (then say "at least").
COUNT_CAP = 1_000
#: Past this many matches a listing walks the sort index instead of sorting the matches.
DENSE_MATCHES = 500
#: A player/bot/finding filter matching more rows than this (and a fifth of the games) is
#: checked game by game.
DENSE_ROWS = 20_000
SEAT_LETTERS = ("N", "E", "S", "W")

STORED = "stored"
STORED_WITH_FINDINGS = "stored_with_findings"
DUPLICATE = "duplicate"
QUARANTINED = "quarantined"
REJECTED = "rejected"


class ArchiveError(ReplayError):
    """Something about the archive itself: it cannot be opened, a bad filter, a bad id."""


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
    game: str  # the registry's name: "floating-bridge", "uno-lite"
    game_id: str | None
    started_at: datetime | None
    rules: str
    players: dict[str, dict[str, Any]]
    contract: str | None
    declarer: str | None
    partner_seat: str | None
    result: str | None
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
    _log: GameLog | None = field(default=None, repr=False)

    @property
    def log(self) -> GameLog:
        if self._log is None:
            entries = read_logs(self.raw, self.source, max_decompressed=max(MAX_DECOMPRESSED, 64 << 20))
            if len(entries) != 1 or entries[0].log is None:
                raise ArchiveError(f"game {self.public_id}: its stored bytes no longer read as one game")
            self._log = entries[0].log
        return self._log

    def replay(self):
        """The judged game: a ``GameReplay``."""
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
    """One page of a listing: ``total`` matches in all (see ``Archive.list`` for ``total_exact``)."""

    items: list[Any]
    total: int
    total_exact: bool = True


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
    head = raw[:64].decode("utf-8", "replace")
    if looks_like_legacy_text(head):
        return ".txt"
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


# --- the archive -----------------------------------------------------------------------------

class Archive:
    """An archive of games in a SQL database (SQLite by default, PostgreSQL by URL)."""

    def __init__(
        self,
        url: str | None = None,
        salt: str | None = None,
        *,
        max_input_bytes: int = MAX_INPUT_BYTES,
        max_decompressed: int = MAX_DECOMPRESSED,
        auto_train: bool = True,
        level: int = compression.LEVEL,
    ):
        self.url = url or os.environ.get("GAME_REPLAY_DB") or DEFAULT_URL
        self.max_input_bytes = max_input_bytes
        self.max_decompressed = max_decompressed
        self.auto_train = auto_train
        self._local = threading.local()  # per-thread ingest state (an app may share one Archive)
        self._train_lock = threading.Lock()
        self.engine = self._create_engine(self.url)
        try:
            self._migrate()
            self.compressor = Compressor(level=level, load=self._load_dictionary)
            with self.engine.connect() as conn:
                for row in conn.execute(select(Dictionary.id, Dictionary.data).order_by(Dictionary.id)):
                    self.compressor.add_dictionary(row.id, row.data)
                self._blob_count = conn.execute(select(func.count()).select_from(Blob)).scalar_one()
                trained_at = conn.execute(
                    select(Setting.value).where(Setting.key == "dictionary_trained_at_blobs")).scalar()
            self._trained_at = int(trained_at) if trained_at else 0
            self.ids = PublicIds(self._salt(salt))
        except OperationalError as exc:
            self.engine.dispose()
            raise ArchiveError(f"cannot open the archive at {self.display_url}: {_db_message(exc)}") from None

    # -- setup --------------------------------------------------------------------------------
    @property
    def display_url(self) -> str:
        try:
            return make_url(self.url).render_as_string(hide_password=True)
        except ArgumentError:
            return "(unreadable URL)"

    @staticmethod
    def _create_engine(url: str) -> Engine:
        try:
            parsed = make_url(url)
        except ArgumentError:
            raise ArchiveError(f"not a database URL: {url!r} (e.g. sqlite:///var/game-replay.db or "
                               "postgresql+psycopg://user@host/db)") from None
        kwargs: dict[str, Any] = {}
        if parsed.get_backend_name() == "sqlite":
            database = parsed.database or ""
            if database in ("", ":memory:") or parsed.query.get("mode") == "memory":
                kwargs["poolclass"] = StaticPool
                kwargs["connect_args"] = {"check_same_thread": False}
            else:
                Path(database).parent.mkdir(parents=True, exist_ok=True)
        try:
            engine = create_engine(parsed, **kwargs)
        except ImportError as exc:
            hint = " (pip install 'psycopg[binary]')" if "psycopg" in str(exc) else ""
            raise ArchiveError(f"cannot use database URL {parsed.render_as_string(hide_password=True)}: "
                               f"its driver is missing: {exc}{hint}") from None
        except (NoSuchModuleError, ArgumentError) as exc:
            raise ArchiveError(f"unsupported database URL {parsed.render_as_string(hide_password=True)}: "
                               f"{exc}") from None
        if engine.dialect.name == "sqlite":
            memory = "poolclass" in kwargs

            @event.listens_for(engine, "connect")
            def _pragmas(dbapi_conn, _record):  # pragma: no cover - trivial
                cur = dbapi_conn.cursor()
                if not memory:
                    cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=NORMAL")
                cur.execute("PRAGMA foreign_keys=ON")
                cur.execute("PRAGMA busy_timeout=30000")
                cur.close()
        return engine

    def _migrate(self) -> None:
        from alembic import command
        from alembic.config import Config

        config = Config()
        config.set_main_option("script_location", str(Path(__file__).resolve().parent / "migrations"))
        with self.engine.begin() as conn:
            config.attributes["connection"] = conn
            command.upgrade(config, "head")

    def _salt(self, salt: str | None) -> str:
        salt = salt or os.environ.get("GAME_REPLAY_SALT")
        if salt:
            return salt
        with self.engine.begin() as conn:
            stored = conn.execute(select(Setting.value).where(Setting.key == "hashids_salt")).scalar()
            if stored:
                return stored
        new = secrets.token_hex(16)
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(Setting).values(key="hashids_salt", value=new))
            return new
        except IntegrityError:  # another process made one first
            with self.engine.connect() as conn:
                return conn.execute(select(Setting.value).where(Setting.key == "hashids_salt")).scalar_one()

    def _load_dictionary(self, dict_id: int) -> bytes | None:
        with self.engine.connect() as conn:
            return conn.execute(select(Dictionary.data).where(Dictionary.id == dict_id)).scalar()

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self) -> "Archive":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- blobs --------------------------------------------------------------------------------
    def _blob_id(self, conn: Connection, raw: bytes, sha: str | None = None) -> int:
        """The id of the blob holding ``raw``, storing it first if new."""
        return self._blob(conn, raw, sha)[0]

    def _blob(self, conn: Connection, raw: bytes, sha: str | None = None) -> tuple[int, bool]:
        """``(blob id, whether it was new)`` for ``raw``."""
        sha = sha or _sha(raw)
        found = conn.execute(_SELECT_BLOB, {"sha": sha}).scalar()
        if found is not None:
            self._local.last_blob_new = False
            return found, False
        dict_id, data = self.compressor.compress(raw)
        blob_id = conn.execute(_INSERT_BLOB, {"sha256": sha, "size": len(raw), "dictionary_id": dict_id,
                                              "data": data}).inserted_primary_key[0]
        self._blob_count += 1
        self._local.last_blob_new = True
        return blob_id, True

    def _read_blob(self, data: bytes, dict_id: int | None) -> bytes:
        return self.compressor.decompress(data, dict_id)

    # -- ingest -------------------------------------------------------------------------------
    def ingest_bytes(self, data: bytes, source: str, *, origin: str = "file", listed: bool = True
                     ) -> list[IngestResult]:
        """Every game in one input; the input's bytes are kept so that it can be given back.

        A single-game input is one transaction (game, blob and receipt); in a batch each game
        is its own transaction and the receipt comes last.
        """
        if origin not in ("file", "upload"):
            raise ArchiveError(f"origin must be 'file' or 'upload', not {origin!r}")
        if len(data) > self.max_input_bytes:
            return [IngestResult(source, REJECTED, error=(
                f"input is {len(data):,} bytes, over the limit of {self.max_input_bytes:,} bytes"))]
        entries = read_logs(data, source, max_decompressed=self.max_decompressed)
        compressed = data.startswith(ZSTD_MAGIC)
        single = len(entries) == 1 and entries[0].source == source
        if not single and not any(e.ok for e in entries) and not _looks_like_json_lines(data, compressed):
            # a pretty-printed JSON file that is broken, not a batch of broken lines
            single = True
            entries = [LogEntry(source, data, error=_whole_error(data, source))]
        results: list[IngestResult] = []
        if single:
            results.append(self._ingest_one(entries[0], data, source, origin, listed, receipt=True)[0])
        else:
            if compressed:
                for entry in entries:
                    results.append(self._ingest_one(entry, entry.raw, entry.source, origin, listed)[0])
                segments: list[bytes | int] = [data]
            else:
                lines = data.split(b"\n")
                by_line: dict[int, int] = {}
                for entry in entries:
                    number = int(entry.source.rsplit(":", 1)[1])
                    result, blob_id = self._ingest_one(entry, lines[number - 1], entry.source, origin, listed)
                    results.append(result)
                    by_line[number - 1] = blob_id
                segments = [by_line.get(i, line) for i, line in enumerate(lines)]
            with self.engine.begin() as conn:
                self._keep_receipt(conn, data, source, origin, segments)
        if self.auto_train:
            self._maybe_train()
        if any(r.status in (STORED, STORED_WITH_FINDINGS) for r in results):
            self.refresh_ratings()
        return results

    def refresh_ratings(self) -> int:
        """Rate the games stored since the last refresh (``archive/ratings.py``); returns how many."""
        from .ratings import refresh

        return refresh(self.engine)

    def _ingest_one(self, entry: LogEntry, raw: bytes, source: str, origin: str, listed: bool,
                    receipt: bool = False) -> tuple[IngestResult, int]:
        """One game (or one unreadable input) in one transaction; ``receipt``: raw is a whole input."""
        try:
            with self.engine.begin() as conn:
                result, blob_id = self._ingest_in(conn, entry, raw, source, origin, listed)
                if receipt:  # a new blob means bytes never received before: no receipt can exist
                    self._keep_receipt(conn, raw, source, origin, [blob_id], known_new=self._local.last_blob_new)
            return result, blob_id
        except IntegrityError:  # a concurrent ingest stored the same game or bytes first: redo
            with self.engine.begin() as conn:
                result, blob_id = self._ingest_in(conn, entry, raw, source, origin, listed)
                if receipt:
                    self._keep_receipt(conn, raw, source, origin, [blob_id])
            return result, blob_id
        except SQLAlchemyError:
            raise  # the database itself failed: nothing can be stored, say so
        except Exception as exc:  # noqa: BLE001 - a bug judging one game must not stop the batch
            # ... nor lose what the bot sent: keep the bytes in quarantine, saying it was our bug
            error = f"internal error while ingesting (a bug, please report it): {exc!r}"[:2000]
            with self.engine.begin() as conn:
                return self._quarantine(conn, raw, source, origin, error)

    def _ingest_in(self, conn: Connection, entry: LogEntry, raw: bytes, source: str, origin: str,
                   listed: bool) -> tuple[IngestResult, int]:
        if entry.log is None:
            return self._quarantine(conn, raw, source, origin, str(entry.error))
        log = entry.log
        canonical_sha = canonical_sha256(log)
        existing = conn.execute(_SELECT_GAME_BY_SHA, {"sha": canonical_sha}).first()
        if existing is not None:  # the game is there; these bytes are kept only if they are new
            blob_id, created = self._blob(conn, raw)
            return IngestResult(source, DUPLICATE, self.ids.encode(existing.id), existing.findings,
                                new=created), blob_id
        try:
            replay = log.replay()
        except Exception as exc:  # an engine bug must not stop the batch: keep the input
            return self._quarantine(conn, raw, source, origin, f"the rules engine failed on this game: {exc!r}")
        return self._insert_game(conn, log, replay, canonical_sha, raw, source, origin, listed)

    def _insert_game(self, conn: Connection, log: GameLog, replay, canonical_sha: str, raw: bytes, source: str,
                     origin: str, listed: bool) -> tuple[IngestResult, int]:
        findings = replay.findings
        outcome = replay.outcome()
        winners = set(outcome.winners)
        decided = bool(winners)
        players = {}
        player_rows = []
        for seat, player in sorted(log.players.items(), key=lambda item: _seat_name(item[0])):
            seat = _seat_name(seat)
            info = {k: v for k, v in (("name", player.name), ("id", player.id), ("bot", player.bot)) if v is not None}
            players[seat] = info
            player_rows.append({
                "seat": seat, "name": player.name, "name_lc": _lc(player.name),
                "player_id": player.id, "player_id_lc": _lc(player.id), "bot": player.bot,
                "bot_lc": _lc(player.bot), "bot_base_lc": _lc(bot_base(player.bot)) if player.bot else None,
                "role": outcome.roles.get(seat), "won": (seat in winners) if decided else None,
            })
        kinds = sorted({f.kind for f in findings})
        row = {
            "canonical_sha256": canonical_sha,
            "game_id": log.game_id,
            "started_at": _utc_naive(log.started_at),
            "game": replay.game.name,
            "rules": str(outcome.facts.get("rules", replay.game.name)),
            "players": json.dumps(players, ensure_ascii=False, separators=(",", ":")),
            # floating bridge's own columns (release 0.1); every game's facts are in game_facts
            "contract": outcome.facts.get("contract"),
            "declarer": outcome.facts.get("declarer"),
            "partner_seat": outcome.facts.get("partner_seat"),
            "result": outcome.facts.get("result"),
            "end_reason": replay.end_reason,
            "findings": len(findings),
            "finding_kinds": ",".join(kinds),
            "source": source,
            "origin": origin,
            "ingested_at": _now(),
            "code": replay_code(replay),
            "listed": listed,
            "raw_blob_id": self._blob_id(conn, raw),
        }
        if not self._local.last_blob_new:  # bytes once quarantined that now read: out of quarantine
            conn.execute(update(Quarantined).where(Quarantined.blob_id == row["raw_blob_id"],
                                                   Quarantined.resolved == False)  # noqa: E712
                         .values(resolved=True, resolved_at=_now()))
        game_id = conn.execute(_INSERT_GAME, row).inserted_primary_key[0]
        if player_rows:
            for p in player_rows:
                p["game_id"] = game_id
            conn.execute(_INSERT_PLAYER, player_rows)
        if findings:
            conn.execute(_INSERT_FINDING, [
                {"game_id": game_id, "number": i, "kind": f.kind, "seat": None if f.seat is None else _seat_name(f.seat)}
                for i, f in enumerate(findings)])
        if outcome.facts:
            conn.execute(_INSERT_FACT, [
                {"game_id": game_id, "name": name, "value": str(value)[:200],
                 "num": value if isinstance(value, int) and not isinstance(value, bool) else None}
                for name, value in sorted(outcome.facts.items())])
        status = STORED_WITH_FINDINGS if findings else STORED
        return IngestResult(source, status, self.ids.encode(game_id), len(findings)), row["raw_blob_id"]

    def _quarantine(self, conn: Connection, raw: bytes, source: str, origin: str, error: str
                    ) -> tuple[IngestResult, int]:
        blob_id = self._blob_id(conn, raw)
        found = conn.execute(select(Quarantined.id).where(Quarantined.blob_id == blob_id)).scalar()
        if found is None:
            conn.execute(insert(Quarantined).values(blob_id=blob_id, source=source, origin=origin,
                                                    error=error, received_at=_now()))
        return IngestResult(source, QUARANTINED, error=error, new=found is None), blob_id

    def _keep_receipt(self, conn: Connection, data: bytes, source: str, origin: str,
                      segments: Sequence[bytes | int], known_new: bool = False) -> None:
        sha = _sha(data)
        if not known_new and conn.execute(_SELECT_RECEIPT, {"sha": sha}).scalar() is not None:
            return
        blob_ids = [s if isinstance(s, int) else self._blob_id(conn, s) for s in segments]
        conn.execute(_INSERT_RECEIPT, {"sha256": sha, "source": source, "origin": origin, "received_at": _now(),
                                       "size": len(data), "blob_ids": json.dumps(blob_ids)})

    def ingest_paths(self, paths: Iterable[str], progress: Callable[[int, int, list[IngestResult]], None] | None = None,
                     *, stdin: BinaryIO | None = None) -> list[IngestResult]:
        """Ingest files, folders (recursive) and ``-`` (standard input)."""
        files = expand_paths(paths)
        results: list[IngestResult] = []
        for done, path in enumerate(files, start=1):
            found = self.ingest_file(path, stdin=stdin)
            results.extend(found)
            if progress is not None:
                progress(done, len(files), found)
        return results

    def ingest_file(self, path: str, *, stdin: BinaryIO | None = None) -> list[IngestResult]:
        """One file (or ``-``): read with the size limit, then ``ingest_bytes``."""
        import sys

        if path == "-":
            stream = stdin or sys.stdin.buffer
            data = stream.read(self.max_input_bytes + 1)
            if len(data) > self.max_input_bytes:
                return [IngestResult("<stdin>", REJECTED, error=(
                    f"standard input is over the limit of {self.max_input_bytes:,} bytes"))]
            return self.ingest_bytes(data, "<stdin>")
        try:
            size = os.stat(path).st_size
            if size > self.max_input_bytes:
                return [IngestResult(path, REJECTED, error=(
                    f"file is {size:,} bytes, over the limit of {self.max_input_bytes:,} bytes"))]
            with open(path, "rb") as fh:
                data = fh.read(self.max_input_bytes + 1)
        except OSError as exc:
            return [IngestResult(path, REJECTED, error=f"cannot read: {exc.strerror or exc}")]
        if len(data) > self.max_input_bytes:
            return [IngestResult(path, REJECTED, error=f"file grew past the limit of {self.max_input_bytes:,} bytes")]
        return self.ingest_bytes(data, path)

    # -- dictionaries -------------------------------------------------------------------------
    def _maybe_train(self) -> None:
        if not self._train_lock.acquire(blocking=False):
            return  # another thread is training
        try:
            if self.compressor.current is None:
                if self._blob_count >= compression.FIRST_TRAINING:
                    self.train_dictionary(recompress=True)
            elif self._blob_count >= self._trained_at * compression.RETRAIN_FACTOR:
                self.train_dictionary(recompress=False)
        except IntegrityError:  # another process stored a dictionary first: use it from now on
            self._trained_at = self._blob_count
            with self.engine.connect() as conn:
                for row in conn.execute(select(Dictionary.id, Dictionary.data).order_by(Dictionary.id)):
                    self.compressor.add_dictionary(row.id, row.data)
        finally:
            self._train_lock.release()

    def train_dictionary(self, recompress: bool = True) -> int | None:
        """Train a new dictionary on the latest games' raw bytes; returns its id (None: too few).

        With ``recompress``, blobs stored without a dictionary are rewritten with the new one
        (each in its own transaction: a crash leaves every blob readable).
        """
        samples: list[bytes] = []
        with self.engine.connect() as conn:
            rows = conn.execute(select(Blob.data, Blob.dictionary_id).join(Game, Game.raw_blob_id == Blob.id)
                                .order_by(Game.id.desc()).limit(compression.MAX_SAMPLES))
            for row in rows:
                raw = self._read_blob(row.data, row.dictionary_id)
                if not raw.startswith(ZSTD_MAGIC):
                    samples.append(raw)
        if len(samples) < 32:
            return None
        try:
            data = compression.train(samples)
        except Exception:  # zstd refuses some sample sets (too uniform): keep the old dictionary
            return None
        with self.engine.begin() as conn:
            new_id = (conn.execute(select(func.max(Dictionary.id))).scalar() or 0) + 1
            conn.execute(insert(Dictionary).values(id=new_id, created_at=_now(), samples=len(samples), data=data))
            trained_at = str(self._blob_count)
            if conn.execute(select(Setting.key).where(Setting.key == "dictionary_trained_at_blobs")).scalar():
                conn.execute(update(Setting).where(Setting.key == "dictionary_trained_at_blobs")
                             .values(value=trained_at))
            else:
                conn.execute(insert(Setting).values(key="dictionary_trained_at_blobs", value=trained_at))
        self.compressor.add_dictionary(new_id, data)
        self._trained_at = self._blob_count
        if recompress:
            self.recompress(only_undictionaried=True)
        return new_id

    def recompress(self, only_undictionaried: bool = False, batch: int = 500) -> int:
        """Rewrite blobs with the newest dictionary; returns how many were rewritten."""
        current = self.compressor.current
        if current is None:
            return 0
        done = 0
        last = 0
        while True:
            with self.engine.begin() as conn:
                query = select(Blob.id, Blob.data, Blob.dictionary_id).where(Blob.id > last)
                if only_undictionaried:
                    query = query.where(Blob.dictionary_id.is_(None))
                else:
                    query = query.where(or_(Blob.dictionary_id.is_(None), Blob.dictionary_id != current))
                rows = conn.execute(query.order_by(Blob.id).limit(batch)).all()
                if not rows:
                    return done
                for row in rows:
                    raw = self._read_blob(row.data, row.dictionary_id)
                    dict_id, data = self.compressor.compress(raw)
                    if len(data) < len(row.data):
                        conn.execute(update(Blob).where(Blob.id == row.id).values(data=data, dictionary_id=dict_id))
                        done += 1
                    last = row.id

    # -- reading ------------------------------------------------------------------------------
    def _game_columns(self):
        return (Game.id, Game.game, Game.game_id, Game.started_at, Game.rules, Game.players, Game.contract, Game.declarer,
                Game.partner_seat, Game.result, Game.end_reason, Game.findings, Game.finding_kinds, Game.source,
                Game.origin, Game.ingested_at, Game.code, Game.listed)

    def _summary_fields(self, row) -> dict[str, Any]:
        return dict(
            public_id=self.ids.encode(row.id), game=row.game, game_id=row.game_id, started_at=_aware(row.started_at),
            rules=row.rules, players=json.loads(row.players), contract=row.contract, declarer=row.declarer,
            partner_seat=row.partner_seat, result=row.result, end_reason=row.end_reason, findings=row.findings,
            finding_kinds=[k for k in row.finding_kinds.split(",") if k], source=row.source, origin=row.origin,
            ingested_at=_aware(row.ingested_at), code=row.code, listed=bool(row.listed),
        )

    def get(self, public_id: str) -> ArchivedGame | None:
        """A game by its public id, or None."""
        game_id = self.ids.decode(public_id)
        if game_id is None:
            return None
        with self.engine.connect() as conn:
            row = conn.execute(select(*self._game_columns(), Blob.data, Blob.dictionary_id)
                               .join(Blob, Blob.id == Game.raw_blob_id).where(Game.id == game_id)).first()
        if row is None:
            return None
        return ArchivedGame(**self._summary_fields(row), raw=self._read_blob(row.data, row.dictionary_id))

    def count(self) -> int:
        """How many games are stored."""
        with self.engine.connect() as conn:
            return conn.execute(select(func.count()).select_from(Game)).scalar_one()

    def _filters(self, player=None, bot=None, rules=None, contract=None, declarer=None, result=None,
                 end_reason=None, has_findings=None, finding_kind=None, started_from=None, started_to=None,
                 listed=None, game=None, winner=None, fact=None, *, correlated: bool = False) -> list[Any]:
        """WHERE clauses. Player, bot and finding filters are ``id IN (...)`` subqueries, or with
        ``correlated`` ``EXISTS`` probes (cheap per row when games are scanned in sort order)."""
        where: list[Any] = []

        def member(column, cond):
            table = column.table
            if correlated:
                return select(1).select_from(table).where(column == Game.id, cond).exists()
            return Game.id.in_(select(column).where(cond))

        if player:
            by_name, by_id = _player_conditions(player)
            if correlated:
                where.append(member(GamePlayer.game_id, or_(by_name, by_id)))
            else:  # a UNION lets each half use its own index
                where.append(Game.id.in_(select(GamePlayer.game_id).where(by_name)
                                         .union(select(GamePlayer.game_id).where(by_id))))
        if bot:
            where.append(member(GamePlayer.game_id, _bot_condition(bot)))
        if game:
            where.append(Game.game == _game_name(game))
        if winner:
            by_name, by_id = _player_conditions(winner)
            won = or_(by_name, by_id, _bot_condition(winner))
            where.append(member(GamePlayer.game_id, and_(won, GamePlayer.won == True)))  # noqa: E712
        for name, op, value in _fact_conditions(fact):
            if op == "=":
                cond = and_(GameFact.name == name, GameFact.value == value)
            elif op == ">=":
                cond = and_(GameFact.name == name, GameFact.num >= value)
            else:
                cond = and_(GameFact.name == name, GameFact.num <= value)
            where.append(member(GameFact.game_id, cond))
        if rules:
            where.append(Game.rules == rules)
        if contract:
            where.append(Game.contract == _normal_contract(contract))
        if declarer:
            where.append(Game.declarer == _seat_letter(declarer, "declarer"))
        if result:
            if result not in ("declarer", "defenders"):
                raise ArchiveError(f"result must be 'declarer' or 'defenders', not {result!r}")
            where.append(Game.result == result)
        if end_reason:
            where.append(Game.end_reason == end_reason)
        if has_findings is not None:
            where.append(Game.findings > 0 if has_findings else Game.findings == 0)
        if finding_kind:
            where.append(member(GameFinding.game_id, GameFinding.kind == finding_kind))
        if started_from is not None:
            where.append(Game.started_at >= _utc_naive(_as_datetime(started_from, "started_from")))
        if started_to is not None:
            where.append(Game.started_at < _utc_naive(_as_datetime(started_to, "started_to")))
        if listed is not None:
            where.append(Game.listed == bool(listed))
        return where

    def list(self, *, sort: str = "-started_at", limit: int = 50, offset: int = 0, exact_total: bool = False,
             **filters: Any) -> Page:
        """A page of games matching the filters (see the package docstring).

        ``Page.total`` is exact without filters, and with filters up to ``COUNT_CAP`` (1,000) matches;
        past that it is ``COUNT_CAP`` and ``Page.total_exact`` is False (``exact_total=True``
        always counts, at the cost of a scan over every match).
        """
        descending = sort.startswith("-")
        key = sort.lstrip("-+")
        if key not in SORTS:
            raise ArchiveError(f"unknown sort {sort!r} (one of {', '.join(SORTS)}, '-' in front for descending)")
        if limit < 0 or offset < 0:
            raise ArchiveError("limit and offset must not be negative")
        unknown = set(filters) - set(FILTERS)
        if unknown:
            raise ArchiveError(f"unknown filter {', '.join(sorted(unknown))} (known: {', '.join(FILTERS)})")
        active = {k: v for k, v in filters.items() if v is not None and v != ""}
        where = self._filters(**active)
        column = SORTS[key]
        order = (column.desc(), Game.id.desc()) if descending else (column.asc(), Game.id.asc())
        with self.engine.connect() as conn:
            sqlite = conn.dialect.name == "sqlite"
            membership = any(k in active for k in ("player", "bot", "finding_kind"))
            # a player/bot/finding filter matching a large part of the archive is checked game by
            # game (EXISTS): that finds COUNT_CAP matches sooner than building a huge IN list
            dense = sqlite and membership and self._dense_membership(conn, active)
            if dense:
                where = self._filters(**active, correlated=True)
            if exact_total or not where:
                total = conn.execute(select(func.count()).select_from(Game).where(*where)).scalar_one()
                exact = True
            else:
                capped = select(Game.id).where(*where).limit(COUNT_CAP + 1).subquery()
                total = conn.execute(select(func.count()).select_from(capped)).scalar_one()
                exact = total <= COUNT_CAP
                total = min(total, COUNT_CAP)
            query = select(*self._game_columns()).where(*where)
            if sqlite and total > DENSE_MATCHES and (dense or not membership):
                # many matches: walk the sort index, checking each game; 50 are found quickly
                query = query.with_hint(Game, f"INDEXED BY {SORT_INDEXES[key]}", "sqlite")
            rows = conn.execute(query.order_by(*order).limit(limit).offset(offset)).all()
        return Page([GameSummary(**self._summary_fields(r)) for r in rows], total, exact)

    def _dense_membership(self, conn: Connection, active: dict[str, Any]) -> bool:
        """Whether a player, bot or finding-kind filter alone matches more rows than a fifth of
        the games (and ``DENSE_ROWS``); index ranges are read only that far, so this stays cheap."""
        probes: list[list[Any]] = []
        if active.get("player"):
            probes.append([select(GamePlayer.game_id).where(c) for c in _player_conditions(active["player"])])
        if active.get("bot"):
            probes.append([select(GamePlayer.game_id).where(_bot_condition(active["bot"]))])
        if active.get("finding_kind"):
            probes.append([select(GameFinding.game_id).where(GameFinding.kind == active["finding_kind"])])
        games = conn.execute(select(func.max(Game.id))).scalar() or 0  # cheap: the end of an index
        threshold = max(DENSE_ROWS, games // 5)
        for pieces in probes:
            rows = 0
            for piece in pieces:
                limited = piece.limit(threshold + 1).subquery()
                rows += conn.execute(select(func.count()).select_from(limited)).scalar_one()
            if rows > threshold:
                return True
        return False

    def recent(self, limit: int = 20) -> list[GameSummary]:
        """The latest listed games, newest first (for a home page)."""
        return self.list(listed=True, sort="-ingested_at", limit=limit).items

    def stats(self, by: str = "player", *, listed_only: bool = False, name: str | None = None,
              limit: int | None = None, game: str | None = None) -> list[dict[str, Any]]:
        """Per player (name) or bot: games, seats taken in them, games as declarer, contracts
        made, findings tied to its seats; most games first.

        ``listed_only`` leaves out unlisted uploads, ``name`` keeps one player or bot (any case),
        ``game`` one game (``uno-lite``).
        """
        if by not in ("player", "bot"):
            raise ArchiveError(f"stats by must be 'player' or 'bot', not {by!r}")
        key = GamePlayer.name if by == "player" else GamePlayer.bot
        per_seat = (select(GameFinding.game_id, GameFinding.seat, func.count().label("n"))
                    .group_by(GameFinding.game_id, GameFinding.seat).subquery())
        is_declarer = Game.declarer == GamePlayer.seat
        games = func.count(GamePlayer.game_id.distinct())
        query = (
            select(key.label("key"), games.label("games"), func.count().label("seats"),
                   func.sum(case((is_declarer, 1), else_=0)).label("declarer"),
                   func.sum(case((and_(is_declarer, Game.result == "declarer"), 1), else_=0)).label("made"),
                   func.sum(func.coalesce(per_seat.c.n, 0)).label("findings"))
            .select_from(GamePlayer)
            .join(Game, Game.id == GamePlayer.game_id)
            .outerjoin(per_seat, and_(per_seat.c.game_id == GamePlayer.game_id, per_seat.c.seat == GamePlayer.seat))
            .where(key.is_not(None))
            .group_by(key)
            .order_by(games.desc(), key)
        )
        if listed_only:
            query = query.where(Game.listed.is_(True))
        if game:
            query = query.where(Game.game == _game_name(game))
        if name:
            column = GamePlayer.name_lc if by == "player" else GamePlayer.bot_lc
            query = query.where(column == name.strip().lower())
        if limit is not None:
            query = query.limit(limit)
        with self.engine.connect() as conn:
            return [{by: r.key, "games": r.games, "seats": r.seats, "declarer": int(r.declarer or 0),
                     "made": int(r.made or 0), "findings": int(r.findings or 0)} for r in conn.execute(query)]

    # -- quarantine ---------------------------------------------------------------------------
    def quarantine(self, limit: int = 50, offset: int = 0) -> Page:
        """Inputs that could not be read (not yet resolved by a retry), oldest first."""
        with self.engine.connect() as conn:
            total = conn.execute(select(func.count()).select_from(Quarantined)
                                 .where(Quarantined.resolved == False)).scalar_one()  # noqa: E712
            rows = conn.execute(
                select(Quarantined.id, Quarantined.source, Quarantined.origin, Quarantined.error,
                       Quarantined.received_at, Blob.data, Blob.dictionary_id, Blob.size)
                .join(Blob, Blob.id == Quarantined.blob_id)
                .where(Quarantined.resolved == False)  # noqa: E712
                .order_by(Quarantined.id).limit(limit).offset(offset)).all()
        items = [QuarantinedInput(r.id, r.source, r.origin, r.error, _aware(r.received_at), r.size,
                                  self._read_blob(r.data, r.dictionary_id)) for r in rows]
        return Page(items, total)

    def retry_quarantine(self) -> list[IngestResult]:
        """Read every quarantined input again; what now reads becomes games and leaves quarantine."""
        results: list[IngestResult] = []
        last = 0
        while True:
            page_rows: list[Any]
            with self.engine.connect() as conn:
                page_rows = conn.execute(
                    select(Quarantined.id, Quarantined.source, Quarantined.origin, Blob.data, Blob.dictionary_id)
                    .join(Blob, Blob.id == Quarantined.blob_id)
                    .where(Quarantined.resolved == False, Quarantined.id > last)  # noqa: E712
                    .order_by(Quarantined.id).limit(200)).all()
            if not page_rows:
                return results
            for row in page_rows:
                last = row.id
                raw = self._read_blob(row.data, row.dictionary_id)
                entries = read_logs(raw, row.source, max_decompressed=self.max_decompressed)
                failed = [e for e in entries if not e.ok]
                if failed:
                    error = str(failed[0].error) if len(entries) == 1 else (
                        f"{len(failed)} of {len(entries)} games unreadable; first: {failed[0].error}")
                    with self.engine.begin() as conn:
                        conn.execute(update(Quarantined).where(Quarantined.id == row.id).values(error=error))
                    results.append(IngestResult(row.source, QUARANTINED, error=error, new=False))
                    continue
                single = len(entries) == 1 and entries[0].source == row.source
                lines = raw.split(b"\n")
                for entry in entries:
                    if single:
                        part = raw
                    elif raw.startswith(ZSTD_MAGIC):
                        part = entry.raw
                    else:
                        part = lines[int(entry.source.rsplit(":", 1)[1]) - 1]
                    # an upload stays unlisted: only its uploader knows where it is
                    result, _ = self._ingest_one(entry, part, entry.source, row.origin, row.origin != "upload")
                    results.append(result)
                with self.engine.begin() as conn:
                    conn.execute(update(Quarantined).where(Quarantined.id == row.id)
                                 .values(resolved=True, resolved_at=_now()))
                self.refresh_ratings()

    # -- export -------------------------------------------------------------------------------
    def iter_games(self, batch: int = 500) -> Iterator[tuple[str, bytes]]:
        """``(public_id, raw bytes)`` of every game, oldest first."""
        last = 0
        while True:
            with self.engine.connect() as conn:
                rows = conn.execute(select(Game.id, Blob.data, Blob.dictionary_id)
                                    .join(Blob, Blob.id == Game.raw_blob_id).where(Game.id > last)
                                    .order_by(Game.id).limit(batch)).all()
            if not rows:
                return
            for row in rows:
                last = row.id
                yield self.ids.encode(row.id), self._read_blob(row.data, row.dictionary_id)

    def iter_inputs(self, batch: int = 200) -> Iterator[tuple[str, bytes]]:
        """``(source, bytes)`` of every input received, byte for byte, oldest first."""
        last = 0
        while True:
            with self.engine.connect() as conn:
                rows = conn.execute(select(Receipt.id, Receipt.source, Receipt.blob_ids, Receipt.sha256)
                                    .where(Receipt.id > last).order_by(Receipt.id).limit(batch)).all()
                if not rows:
                    return
                wanted = {b for r in rows for b in json.loads(r.blob_ids)}
                blobs = {b.id: (b.data, b.dictionary_id) for b in conn.execute(
                    select(Blob.id, Blob.data, Blob.dictionary_id).where(Blob.id.in_(wanted)))}
            for row in rows:
                last = row.id
                data = b"\n".join(self._read_blob(*blobs[b]) for b in json.loads(row.blob_ids))
                if _sha(data) != row.sha256:
                    raise ArchiveError(f"input {row.source!r} does not come back byte for byte (damaged archive)")
                yield row.source, data

    def export(self, directory: str | os.PathLike[str], inputs: bool = False) -> int:
        """Write every game's raw bytes (or every input's, with ``inputs``) into a folder."""
        out = Path(directory)
        out.mkdir(parents=True, exist_ok=True)
        count = 0
        if not inputs:
            for public_id, raw in self.iter_games():
                (out / (public_id + raw_extension(raw))).write_bytes(raw)
                count += 1
            return count
        used: set[str] = set()
        for source, data in self.iter_inputs():
            name = _safe_relative(source)
            candidate, n = name, 1
            while candidate in used or (out / candidate).exists():
                n += 1
                stem, dot, ext = name.partition(".")
                candidate = f"{stem}~{n}{dot}{ext}"
            used.add(candidate)
            target = out / candidate
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
            count += 1
        return count

    def export_jsonl(self, fh) -> int:
        """Every game as one canonical JSON line; returns how many."""
        count = 0
        for public_id, raw in self.iter_games():
            entries = read_logs(raw, public_id, max_decompressed=max(self.max_decompressed, 64 << 20))
            fh.write(entries[0].log.canonical_json() + "\n")
            count += 1
        return count

    # -- codes --------------------------------------------------------------------------------
    def fill_codes(self, batch: int = 500) -> int:
        """Fill the replay code of games stored without one (by an older version); returns how many."""
        filled = 0
        last = 0
        while True:
            with self.engine.connect() as conn:
                rows = conn.execute(select(Game.id).where(Game.code.is_(None), Game.id > last)
                                    .order_by(Game.id).limit(batch)).scalars().all()
            if not rows:
                return filled
            for game_id in rows:
                last = game_id
                game = self.get(self.ids.encode(game_id))
                code = replay_code(game.replay()) if game else None
                if code is None:
                    continue
                with self.engine.begin() as conn:
                    conn.execute(update(Game).where(Game.id == game_id).values(code=code))
                filled += 1


_SELECT_BLOB = select(Blob.id).where(Blob.sha256 == bindparam("sha"))
_INSERT_BLOB = insert(Blob.__table__)
_SELECT_GAME_BY_SHA = select(Game.id, Game.findings, Game.raw_blob_id).where(Game.canonical_sha256 == bindparam("sha"))
_INSERT_GAME = insert(Game.__table__)
_INSERT_PLAYER = insert(GamePlayer.__table__)
_INSERT_FINDING = insert(GameFinding.__table__)
_INSERT_FACT = insert(GameFact.__table__)


def _seat_name(seat: Any) -> str:
    """A seat as the log writes it: bridge's seats are enums, other games' plain names."""
    return getattr(seat, "name", None) or str(seat)
_SELECT_RECEIPT = select(Receipt.id).where(Receipt.sha256 == bindparam("sha"))
_INSERT_RECEIPT = insert(Receipt.__table__)

FILTERS = ("game", "player", "bot", "winner", "fact", "rules", "contract", "declarer", "result", "end_reason",
           "has_findings", "finding_kind", "started_from", "started_to", "listed")


def canonical_sha256(log: GameLog) -> str:
    """SHA-256 of the game's compact canonical JSON, the key that makes re-encoded copies one game.

    pydantic's own serializer gives the same bytes as ``GameLog.canonical_json()`` (compact,
    UTF-8, ``None`` left out) at a third of the cost.
    """
    return _sha(log.model_dump_json(exclude_none=True).encode("utf-8"))


def _player_conditions(player: str) -> tuple[Any, Any]:
    """(by name, by platform id) conditions on ``game_players`` for a player filter."""
    value = player.strip().lower()
    if value.endswith("*") and "*" not in value[:-1] and len(value) > 1:
        # a prefix: an index range ("ali*": "ali" <= name < "alj")
        low = value[:-1]
        high = low[:-1] + chr(ord(low[-1]) + 1)
        return (and_(GamePlayer.name_lc >= low, GamePlayer.name_lc < high),
                and_(GamePlayer.player_id_lc >= low, GamePlayer.player_id_lc < high))
    if "*" in value:
        pattern = _like_pattern(value)
        return (GamePlayer.name_lc.like(pattern, escape="\\"), GamePlayer.player_id_lc.like(pattern, escape="\\"))
    return GamePlayer.name_lc == value, GamePlayer.player_id_lc == value


def _bot_condition(bot: str) -> Any:
    """The condition on ``game_players`` for a bot filter: the bot exactly, or its name without
    version. Both lie inside one range of the ``bot_base_lc`` index (a bot's base is a function
    of its name), so no UNION is needed."""
    value = bot.strip().lower()
    return and_(GamePlayer.bot_base_lc == bot_base(value),
                or_(GamePlayer.bot_lc == value, GamePlayer.bot_base_lc == value))


_FACT = re.compile(r"^ *([a-z][a-z0-9_]{0,39}) *(>=|<=|=)([^\x00-\x1f\x7f]{1,200})$")


def _fact_conditions(fact: Any) -> list[tuple[str, str, Any]]:
    """``"turns>=30"``, ``"contract=3NT"`` (or a list of them) -> (name, op, value) triples."""
    if not fact:
        return []
    items = [fact] if isinstance(fact, str) else list(fact)
    out = []
    for item in items:
        match = _FACT.match(item) if isinstance(item, str) else None
        if match is None:
            raise ArchiveError(f"fact filter {item!r} is not name=value, name>=number or name<=number "
                               "(e.g. turns>=30, contract=3NT)")
        name, op, value = match.groups()
        value = value.strip(" ")
        if not value:
            raise ArchiveError(f"fact filter {item!r} has no value")
        if op != "=":
            try:
                value = int(value)
            except ValueError:
                raise ArchiveError(f"fact filter {item!r}: {op} needs a whole number") from None
        out.append((name, op, value))
    return out


def _game_name(value: str) -> str:
    from replay.games import names

    if value not in names():
        raise ArchiveError(f"game must be one of {', '.join(names())}, not {value!r}")
    return value


def _lc(value: str | None) -> str | None:
    return None if value is None else value.strip().lower()


def _seat_letter(value: str, what: str) -> str:
    letter = value.strip().upper()[:1]
    if letter not in SEAT_LETTERS or len(value.strip()) not in (1, 4, 5):
        raise ArchiveError(f"{what} must be a seat (N, E, S or W), not {value!r}")
    return letter


def _normal_contract(value: str) -> str:
    from replay.cards import Call, CallParseError

    try:
        call = Call.parse(value)
    except CallParseError:
        raise ArchiveError(f"contract must be a bid like 3S or 2NT, not {value!r}") from None
    if call.is_pass:
        raise ArchiveError("contract must be a bid like 3S or 2NT, not pass")
    return str(call)


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


