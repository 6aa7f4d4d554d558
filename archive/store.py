"""The archive: ingest, keep raw bytes losslessly, index, query (see ``archive/__init__.py``).

``Archive`` is the facade the rest of the project uses. It opens the database (and brings its
schema up to date) and hands each job to one part:

- ``archive.blobs.BlobStore``: raw bytes, compression, dictionaries;
- ``archive.ingest.Ingester``: inputs in, judged and stored once, in batches;
- ``archive.queries.Queries``: a game, listings, totals, statistics;
- ``archive.admin.Admin``: quarantine, retry, export, replay codes, recompression, deleting
  and publishing;
- ``archive.summaries.Summaries``: the tags and counters that keep listings and statistics
  from growing with the archive;
- ``archive.analyses.Analyses``: a game's analysis (``GameModule.analyse``), computed
  the first time it is asked for and kept.
"""

from __future__ import annotations

import dataclasses
import os
import secrets
from typing import Any, BinaryIO, Callable, Iterable, Iterator

from sqlalchemy import insert, select
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, IntegrityError, OperationalError
from sqlalchemy.pool import StaticPool

from replay.log import ZSTD_MAGIC, LogEntry, LogFormatError, expand_paths, is_log_name  # noqa: F401
from replay.log import parse_log, read_logs  # noqa: F401

from . import compression, ratings
from .admin import Admin
from .analyses import Analyses
from .blobs import BlobStore
from .database import create_archive_engine, upgrade
from .deals import Deals, FillResult
from .ids import PublicIds
from .ingest import Ingester, canonical_sha256  # noqa: F401
from .models import Setting
from .queries import FILTERS, SORTS, Queries, bot_base  # noqa: F401
from .records import (DEFAULT_URL, DUPLICATE, MAX_DECOMPRESSED, MAX_INPUT_BYTES, QUARANTINED, REJECTED,  # noqa: F401
                      STORED, STORED_WITH_FINDINGS, ArchivedGame, ArchiveError, CursorError, GameSummary,
                      IngestResult, Page, QuarantinedInput, _db_message, raw_extension, replay_code)
from .summaries import Summaries
from .writer import WriterConfig

#: Filtered listings count matches exactly up to this many (then say "at least").
COUNT_CAP = 1_000
#: SQLite's page cache per connection, in KiB (its default is 2 MB). A combined filter probes
#: one index per candidate game, at pages spread over the whole file: at 200,000 games (a
#: 1.1 GB file) a 2 MB cache read most of them from the operating system again, a system call
#: and a copy each (the count of ``turns>=40`` with ``bot=greedy``, 1,401 candidates: 7.9 ms
#: with 2 MB, 1.9 ms with 64 MB). Pages are allocated as they are read, up to this much.
#: (``Archive(sqlite_cache_kib=...)`` sets another; the ingest's writer process uses less.)
SQLITE_CACHE_KIB = 65_536


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
        sqlite_cache_kib: int | None = None,
    ):
        self.url = url or os.environ.get("GAME_REPLAY_DB") or DEFAULT_URL
        self.engine = create_archive_engine(self.url, SQLITE_CACHE_KIB if sqlite_cache_kib is None else sqlite_cache_kib)
        try:
            upgrade(self.engine)
            self.blobs = BlobStore(self.engine, level=level)
            salt = self._salt(salt)
            self.ids = PublicIds(salt)
        except OperationalError as exc:
            self.engine.dispose()
            raise ArchiveError(f"cannot open the archive at {self.display_url}: {_db_message(exc)}") from None
        self.summaries = Summaries(self.engine)
        # a long ingest commits in a writer process that opens the same database (not an
        # in-memory one, which only this process can see)
        writer = None if isinstance(self.engine.pool, StaticPool) else WriterConfig(
            self.engine.url.render_as_string(hide_password=False), salt, level, auto_train, max_input_bytes,
            max_decompressed)
        self.ingester = Ingester(self.engine, self.ids, self.blobs, self.summaries, max_input_bytes=max_input_bytes,
                                 max_decompressed=max_decompressed, auto_train=auto_train, writer_config=writer)
        self.queries = Queries(self.engine, self.ids, self.blobs, self.summaries)
        self.admin = Admin(self.engine, self.ids, self.blobs, self.summaries, self.ingester, self.queries)
        self.analyses = Analyses(self.engine, self.blobs)
        self.deals = Deals(self.engine, self.ids, self.blobs)

    @property
    def compressor(self) -> compression.Compressor:
        return self.blobs.compressor

    @property
    def max_input_bytes(self) -> int:
        return self.ingester.max_input_bytes

    @property
    def max_decompressed(self) -> int:
        return self.ingester.max_decompressed

    @property
    def auto_train(self) -> bool:
        return self.ingester.auto_train

    @auto_train.setter
    def auto_train(self, value: bool) -> None:
        self.ingester.auto_train = value
        if self.ingester.writer_config is not None:
            self.ingester.writer_config = dataclasses.replace(self.ingester.writer_config, auto_train=value)

    # -- setup --------------------------------------------------------------------------------
    @property
    def display_url(self) -> str:
        try:
            return make_url(self.url).render_as_string(hide_password=True)
        except ArgumentError:
            return "(unreadable URL)"

    def _salt(self, salt: str | None) -> str:
        salt = salt or os.environ.get("GAME_REPLAY_SALT")
        if salt:
            return salt
        with self.engine.execution_options(write=True).begin() as conn:
            stored = conn.execute(select(Setting.value).where(Setting.key == "hashids_salt")).scalar()
            if stored:
                return stored
        new = secrets.token_hex(16)
        try:
            with self.engine.execution_options(write=True).begin() as conn:
                conn.execute(insert(Setting).values(key="hashids_salt", value=new))
            return new
        except IntegrityError:  # another process made one first
            with self.engine.connect() as conn:
                return conn.execute(select(Setting.value).where(Setting.key == "hashids_salt")).scalar_one()

    def close(self) -> None:
        self.engine.dispose()

    def __enter__(self) -> "Archive":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- ingest -------------------------------------------------------------------------------
    def ingest_bytes(self, data: bytes, source: str, *, origin: str = "file", listed: bool = True
                     ) -> list[IngestResult]:
        """Every game in one input (one transaction); the input's bytes are kept."""
        return self._rated(self.ingester.ingest_bytes(data, source, origin=origin, listed=listed))

    def _rated(self, results: list[IngestResult]) -> list[IngestResult]:
        """Ratings follow every ingest that stored a game (``archive/ratings.py``)."""
        if any(r.status in (STORED, STORED_WITH_FINDINGS) for r in results):
            self.refresh_ratings()
        return results

    def refresh_ratings(self) -> int:
        """Rate the games stored since the last refresh (``archive/ratings.py``); returns how many."""
        return ratings.refresh(self.engine)

    def ingest_file(self, path: str, *, stdin: BinaryIO | None = None) -> list[IngestResult]:
        """One file (or ``-``): read with the size limit, then ``ingest_bytes``."""
        return self.ingester.ingest_file(path, stdin=stdin)

    def ingest_paths(self, paths: Iterable[str], progress: Callable[[int, int, list[IngestResult]], None] | None = None,
                     *, stdin: BinaryIO | None = None) -> list[IngestResult]:
        """Ingest files, folders (recursive) and ``-`` (standard input), in batches."""
        return self._rated(self.ingester.ingest_paths(paths, progress, stdin=stdin))

    def iter_ingest(self, paths: Iterable[str], *, stdin: BinaryIO | None = None
                    ) -> Iterator[tuple[str, list[IngestResult]]]:
        """``(path, results)`` per file as batches are committed; memory stays flat (ratings
        are refreshed once the walk is done, or stopped)."""
        stored = False
        try:
            for path, results in self.ingester.iter_paths(paths, stdin=stdin):
                stored = stored or any(r.status in (STORED, STORED_WITH_FINDINGS) for r in results)
                yield path, results
        finally:
            if stored:
                self.refresh_ratings()

    # -- queries ------------------------------------------------------------------------------
    def get(self, public_id: str) -> ArchivedGame | None:
        """A game by its public id, or None."""
        return self.queries.get(public_id)

    def count(self) -> int:
        """How many games are stored."""
        return self.queries.count()

    def list(self, *, sort: str = "-started_at", limit: int = 50, offset: int = 0, cursor: str | None = None,
             exact_total: bool = False, **filters: Any) -> Page:
        """A page of games matching the filters (see ``archive.queries.Queries.list``)."""
        return self.queries.list(sort=sort, limit=limit, offset=offset, cursor=cursor, exact_total=exact_total,
                                 count_cap=COUNT_CAP, **filters)

    def recent(self, limit: int = 20) -> list[GameSummary]:
        """The latest listed games, newest first (for a home page)."""
        return self.queries.recent(limit)

    def stats(self, by: str = "player", *, listed_only: bool = False, name: str | None = None,
              limit: int | None = None, game: str | None = None) -> list[dict[str, Any]]:
        """Per player or bot: games, seats, wins, findings, think time; with ``game`` that
        game's, and its counted role's games and wins (``archive.queries.Queries.stats``)."""
        return self.queries.stats(by, listed_only=listed_only, name=name, limit=limit, game=game)

    # -- analyses -----------------------------------------------------------------------------
    def analysis(self, log: Any, replay: Any = None, public_id: str | None = None,
                 solve_slot: Callable[..., Any] | None = None) -> dict[str, Any] | None:
        """A game's analysis (``archive/analyses.py``): kept once computed, shared by every copy
        of the same game; None when its game offers none. ``public_id`` names the archived game
        it belongs to (its stats then count it); ``solve_slot`` see ``Analyses.get``."""
        row_id = None if public_id is None else self.ids.decode(public_id)
        return self.analyses.get(log, replay, game_row_id=row_id, solve_slot=solve_slot)

    def analyse_pending(self, limit: int | None = None, progress: Callable[..., None] | None = None) -> dict[str, int]:
        """Analyse archived games that have no analysis yet (``game-replay archive analyse``)."""
        return self.analyses.fill(limit, progress)

    def analysis_stats(self, by: str = "player", *, listed_only: bool = False, names: Iterable[str] | None = None,
                       game: str | None = None) -> dict[str, dict[str, Any]]:
        """Per player or bot: analysed games, mistakes and what they lost (``Analyses.stats``)."""
        return self.analyses.stats(by, listed_only=listed_only, names=names, game=game)

    # -- duplicate deals (``archive/deals.py``) -------------------------------------------------
    def deal_key_of(self, row_id: int) -> str | None:
        """The deal key of the game with row id ``row_id``, or None (no such game, no key)."""
        return self.deals.deal_key_of(row_id)

    def deal_tables(self, key: str, listed_only: bool = True, limit: int | None = 200) -> list[dict[str, Any]]:
        """Every stored game of the deal ``key``, oldest first, each seat's result and duplicate
        score (``archive.deals.Deals.deal_tables``)."""
        return self.deals.deal_tables(key, listed_only=listed_only, limit=limit)

    def duplicate_leaderboard(self, game: str, by: str = "bot", listed_only: bool = True) -> Any:
        """``replay.duplicate.Leaderboard`` of the stored tables of ``game``, by bot or player
        (``archive.deals.Deals.duplicate_leaderboard``)."""
        return self.deals.duplicate_leaderboard(game, by=by, listed_only=listed_only)

    def duplicated_games(self, listed_only: bool = True) -> dict[str, int]:
        """Per game, how many deals are stored at two tables or more (games with none left out)."""
        return self.deals.duplicated_games(listed_only=listed_only)

    def fill_deals(self, batch: int = 200, progress: Callable[[int], None] | None = None) -> FillResult:
        """Judge again the stored games of games with deals that have no deal key (archives made
        before migration 0015) and store their keys and seat scores."""
        return self.deals.fill(batch, progress)

    # -- admin --------------------------------------------------------------------------------
    def quarantine(self, limit: int = 50, offset: int = 0) -> Page:
        """Inputs that could not be read (not yet resolved by a retry), oldest first."""
        return self.admin.quarantine(limit, offset)

    def retry_quarantine(self) -> list[IngestResult]:
        """Read every quarantined input again; what now reads becomes games and leaves quarantine."""
        return self._rated(self.admin.retry_quarantine())

    def iter_games(self, batch: int = 500) -> Iterator[tuple[str, bytes]]:
        """``(public_id, raw bytes)`` of every game, oldest first."""
        return self.admin.iter_games(batch)

    def iter_inputs(self, batch: int = 200) -> Iterator[tuple[str, bytes]]:
        """``(source, bytes)`` of every input received, byte for byte, oldest first."""
        return self.admin.iter_inputs(batch)

    def export(self, directory: str | os.PathLike[str], inputs: bool = False) -> int:
        """Write every game's raw bytes (or every input's, with ``inputs``) into a folder."""
        return self.admin.export(directory, inputs)

    def export_jsonl(self, fh) -> int:
        """Every game as one canonical JSON line; returns how many."""
        return self.admin.export_jsonl(fh)

    def fill_codes(self, batch: int = 500) -> int:
        """Fill the replay code of games stored before ``replay.codec`` was available."""
        return self.admin.fill_codes(batch)

    def train_dictionary(self, recompress: bool = True) -> int | None:
        """Train a new compression dictionary on the latest games (older blobs stay readable)."""
        return self.blobs.train_dictionary(recompress)

    def recompress(self, only_undictionaried: bool = False, batch: int = 500) -> int:
        """Rewrite blobs with the newest dictionary; returns how many were rewritten."""
        return self.admin.recompress(only_undictionaried, batch)

    def _read_blob(self, data: bytes, dict_id: int | None) -> bytes:
        return self.blobs.read(data, dict_id)
