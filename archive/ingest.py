"""Ingest: inputs in, games judged and stored once, every byte kept.

Inputs are taken in batches (``BATCH_GAMES`` games, or one input when it is given alone).
Everything that needs no database happens first, outside any transaction: reading (each log
parsed once), the canonical SHA-256 (each log serialised once), judging by the game's rules
engine (only games not already stored; each judged once, and the replay code is made from
that judgement) and the rows to write. Then one transaction stores the whole batch.

A walk of more than one batch is split between two processes (``archive/writer.py``): this
one reads and judges, and a writer process hashes each log (reading it again from its bytes),
finishes its rows and runs the transactions, so that judging never waits for the database
(when the writer falls behind, this process hashes the next batch itself). For a batch it does
not hash, a game counts as already stored here when its very bytes are a stored game's; the
writer finds re-encoded copies by their canonical hash, as a single process does. The
transaction:

1. On PostgreSQL it first takes a transaction-level advisory lock on every key the batch may
   insert (games' canonical SHA-256, blobs' and receipts' SHA-256), all at once in sorted
   order. Two ingesters racing on the same game therefore wait for each other instead of
   colliding on a unique index, and cannot deadlock: every process takes its locks in the
   same global order before it writes anything.
2. It looks up, in a few statements for the whole batch, which games, blobs, receipts and
   quarantined inputs are already there, and writes the rest with one multi-row statement
   per table (``RETURNING`` the new ids).
3. All of that runs inside a savepoint. Should the database refuse something (a value it
   cannot hold), the savepoint is rolled back and the batch is written again game by game,
   each in its own savepoint, so that only the game at fault is quarantined.

A batch that is interrupted (the process killed) leaves nothing behind; every other process
goes on, and a re-run stores what the batch held.
"""

from __future__ import annotations

import gc
import json
import os
import sys
from collections import deque
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, BinaryIO, Callable, Iterable, Iterator, Sequence

from sqlalchemy import Connection, DateTime, Engine, insert, select, text, update
from sqlalchemy.exc import DBAPIError, OperationalError, SQLAlchemyError

from replay.games import get as get_game, names as game_names
from replay.games.base import ForeignFormat
from replay.log import ZSTD_MAGIC, InputPathError, LogEntry, LogFormatError, is_log_name, read_logs

from .blobs import BlobStore
from .database import insert_many, insert_tuples
from .deals import deal_fields
from .ids import PublicIds
from .models import Blob, Game, GameFact, GameFinding, GamePlayer, GameSeatCount, GameTag, Quarantined, Receipt
from .records import (DUPLICATE, QUARANTINED, REJECTED, STORED, STORED_WITH_FINDINGS, ArchiveError, IngestResult,
                      _lc, _looks_like_json_lines, _now, _seat_name, _sha, _utc_naive, _whole_error, bot_base,
                      replay_code)
from .summaries import (Summaries, add_counts, game_counts, number_tag, started_key, tags_of_rows, think_text,
                        think_times, total_rows)
from .writer import BEHIND, IN_FLIGHT, WriterConfig, WriterProcess

#: Games stored per transaction. Each commit writes every page its batch dirtied (the random
#: inserts into the tags' and the unique hashes' B-trees dirty a page or more a game), so a page
#: a batch touches again and again is written once per batch: at 256 games a batch, storing a
#: game took 0.40-0.46 ms of CPU against 0.61 at 64 (thread CPU time of ``_commit``, 3,000 of
#: bench/archive.py's files into a fresh SQLite, one ingest thread, load 2.3, 2026-11-26). At
#: 512, each batch's dozen statements and its commit are shared by twice as many games: 10,000
#: more games into the 200,000-game PostgreSQL archive took 0.48-0.57 ms of server CPU a game
#: against 0.56-0.66 at 256 (several runs of each, ratings refreshed within or after the ingest).
BATCH_GAMES = 512
#: Bytes read ahead per transaction (a batch also ends here): memory stays flat whatever the input.
BATCH_BYTES = 8 * 1024 * 1024
#: a file of several games in a text format larger than this is read in pieces (``_pieces``)
STREAM_BYTES = 4 * 1024 * 1024
#: about the size of each piece
PIECE_BYTES = 1024 * 1024
#: how much of a file tells its format
SNIFF_BYTES = 64 * 1024
#: Batches between two folds of the counter deltas (readers add the unfolded ones): 1,024 games.
FOLD_EVERY = 2
#: Folders with more entries than this are walked in the order the file system gives (not
#: sorted), so that a walk never holds a huge folder's names in memory.
SORTED_FOLDER = 10_000


def canonical_sha256(log) -> str:
    """SHA-256 of the game's compact canonical JSON, the key that makes re-encoded copies one game.

    pydantic's own serializer gives the same bytes as ``GameLog.canonical_json()`` (compact,
    UTF-8, ``None`` left out) at a third of the cost.
    """
    return _sha(log.model_dump_json(exclude_none=True).encode("utf-8"))


@dataclass(slots=True, eq=False)
class _Game:
    """One game (or one unreadable input) of a batch, as it goes through ingest."""

    raw: bytes
    source: str
    origin: str
    listed: bool
    entry: LogEntry | None = None
    sha: str = ""
    canonical: str | None = None
    error: str | None = None          # quarantined for this reason
    rows: dict[str, Any] | None = None  # the judged game's rows, ready to insert
    result: IngestResult | None = None
    blob_id: int | None = None


@dataclass(slots=True, eq=False)
class _Input:
    """One input (a file, an upload): its games and how its receipt is made."""

    data: bytes
    source: str
    origin: str
    games: list[_Game] = field(default_factory=list)
    # the receipt's segments: a game of this input (its blob) or bytes kept as their own blob
    segments: list[_Game | bytes] = field(default_factory=list)
    rejected: IngestResult | None = None
    sha: str = ""  # of ``data``, once asked for (``input_sha``)

    def input_sha(self) -> str:
        """SHA-256 of the input's bytes (the receipt's key), made once: a file of one game is that
        game's bytes, already hashed."""
        if not self.sha:
            only = self.segments[0] if len(self.segments) == 1 else None
            self.sha = only.sha if isinstance(only, _Game) and only.sha and only.raw is self.data else _sha(self.data)
        return self.sha

    @property
    def results(self) -> list[IngestResult]:
        if self.rejected is not None:
            return [self.rejected]
        return [g.result for g in self.games if g.result is not None]


class Ingester:
    """Takes inputs into one archive database (see the module docstring)."""

    def __init__(self, engine: Engine, ids: PublicIds, blobs: BlobStore, summaries: Summaries, *,
                 max_input_bytes: int, max_decompressed: int, auto_train: bool = True,
                 writer_config: WriterConfig | None = None):
        self.engine = engine
        #: how a writer process opens this archive; None: every batch is committed here
        self.writer_config = writer_config
        self.ids = ids
        self.blobs = blobs
        self.summaries = summaries
        self.max_input_bytes = max_input_bytes
        self.max_decompressed = max_decompressed
        self.auto_train = auto_train
        self.postgres = engine.dialect.name == "postgresql"
        self._unfolded = 0

    # -- entry points -------------------------------------------------------------------------
    def ingest_bytes(self, data: bytes, source: str, *, origin: str = "file", listed: bool = True
                     ) -> list[IngestResult]:
        """Every game in one input, in one transaction; the input's bytes are kept."""
        if origin not in ("file", "upload"):
            raise ArchiveError(f"origin must be 'file' or 'upload', not {origin!r}")
        item = self._plan(data, source, origin, listed)
        self._store([item])
        self.fold()
        return item.results

    def ingest_file(self, path: str, *, stdin: BinaryIO | None = None) -> list[IngestResult]:
        """One file (or ``-``): read with the size limit, then ``ingest_bytes``."""
        item = self._read(path, stdin)
        self._store([item])
        self.fold()
        return item.results

    def ingest_paths(self, paths: Iterable[str], progress: Callable[[int, int, list[IngestResult]], None] | None = None,
                     *, stdin: BinaryIO | None = None) -> list[IngestResult]:
        """Ingest files, folders (recursive) and ``-`` (standard input); every result.

        ``progress(done_files, total_files, results)`` is called after each file; the total is
        only known once the walk is over, so it is the count so far until then.
        """
        results: list[IngestResult] = []
        for done, (_path, found) in enumerate(self.iter_paths(paths, stdin=stdin), start=1):
            results.extend(found)
            if progress is not None:
                progress(done, done, found)
        return results

    def iter_paths(self, paths: Iterable[str], *, stdin: BinaryIO | None = None
                   ) -> Iterator[tuple[str, list[IngestResult]]]:
        """``(path, results)`` per file, each yielded once its batch is committed.

        Files are found as the walk goes (nothing is listed or stat-ed ahead), and at most
        ``IN_FLIGHT`` + 1 batches of inputs are held in memory. While the walk goes on, the objects alive when it
        started are kept out of the garbage collector's walks (``gc.freeze``, undone when the
        walk ends or is stopped; not when the caller has frozen some or turned the collector off),
        and the collector waits while each batch is read and judged (it runs as usual whenever
        this yields).
        """
        # A walk of more than one batch is a pipeline: this process reads and judges batch n + 1
        # while a writer process commits batch n (``archive/writer.py``). A walk of one batch
        # (an upload, a small folder) is committed here and starts no process.
        writer: WriterProcess | None = None
        in_flight: deque[list[tuple[str, _Input]]] = deque()
        # A batch holds its games' logs (hundreds of objects each) until it is judged, so the
        # cyclic garbage collector runs often, and each of its full collections walked every
        # object of the process (the modules, the models' schemas, SQLAlchemy's...): a fifth of
        # the ingest's time at 2,000 files. What is alive now outlives the walk, so it is set
        # aside from collections while the walk goes on (gc.freeze) and given back after it
        # (gc.unfreeze: nothing is kept for good; garbage among it is collected then).
        frozen = gc.isenabled() and gc.get_freeze_count() == 0  # not when the caller froze or turned it off
        if frozen:
            gc.freeze()
        batches = self._batches(paths, stdin)
        first = True
        try:
            while True:
                # Reading and judging a batch makes hundreds of objects a game that all live
                # until the batch is judged: automatic collections would walk each of them once
                # or twice for nothing (they are freed by reference counting, not by the
                # collector). So the collector waits while a batch is read and judged, and
                # runs as usual after.
                paused = frozen and gc.isenabled()
                if paused:
                    gc.disable()
                try:
                    batch, full = next(batches, (None, False))
                    if batch is None:
                        break
                    if first and full and self.writer_config is not None:
                        # a full first batch: more are coming, so the writer process starts now
                        # and its start-up overlaps the judging (an upload or a small folder,
                        # one batch that is not full, is stored here and starts no process)
                        writer = WriterProcess(self.writer_config)
                    first = False
                    # the writer process hashes the logs (``_hash``), unless it is behind: then
                    # this process, which has the logs at hand, hashes this batch itself (on a
                    # large SQLite archive the writer's inserts cost more than the judging)
                    self._prepare([i for _, i in batch], hashed=writer is None or writer.waited > BEHIND)
                finally:
                    if paused:
                        gc.enable()
                if writer is None:
                    self._commit([i for _, i in batch])
                    yield from ((p, i.results) for p, i in batch)
                    continue
                writer.submit(_for_writer([i for _, i in batch]))
                in_flight.append(batch)
                while len(in_flight) > IN_FLIGHT:
                    yield from _collect(writer, in_flight.popleft())
            while in_flight:
                yield from _collect(writer, in_flight.popleft())
            if writer is not None:
                writer.close()
                writer = None
                self.blobs.reload()  # the writer counted the blobs and may have trained a dictionary
            self.fold()
        finally:
            if writer is not None:  # stopped half-way (an error, Ctrl-C): the batch under way ends as it ends
                writer.close()
                self.blobs.reload()
            if frozen:
                gc.unfreeze()

    def _batches(self, paths: Iterable[str], stdin: BinaryIO | None) -> Iterator[tuple[list[tuple[str, _Input]], bool]]:
        """Batches of read inputs, each with whether it is full (a partial one is the walk's last)."""
        batch: list[tuple[str, _Input]] = []
        games = size = 0
        for path in walk_paths(paths):
            for item in self._read_streamed(path, stdin):
                batch.append((path, item))
                games += max(1, len(item.games))
                size += len(item.data)
                if games >= BATCH_GAMES or size >= BATCH_BYTES:
                    yield batch, True
                    batch, games, size = [], 0, 0
        if batch:
            yield batch, False

    def _read_streamed(self, path: str, stdin: BinaryIO | None) -> Iterator[_Input]:
        """A file as one input, or, when it is larger than ``STREAM_BYTES`` and in a text format
        of several games whose reader tells where a game starts (``ForeignFormat.starts_game``),
        as pieces of whole games of about ``PIECE_BYTES`` each, read and judged one after
        another (a file over the size limit too: the limit is then each piece's). Each piece is
        an input of its own, its bytes kept as its own receipt named ``path:line`` by its first
        line (``export --inputs`` gives the pieces; joined in line order they are the file); its
        games are named by their line in the whole file."""
        reader = None
        if path != "-":
            try:
                big = os.path.getsize(path) > STREAM_BYTES
            except OSError:
                big = False
            reader = _piece_reader(path) if big else None
        if reader is None:
            yield self._read(path, stdin)
            return
        pieces = _pieces(path, reader.starts_game, self.max_input_bytes)
        while True:
            try:
                found = next(pieces, None)
            except OSError as exc:  # the file went away or broke while read: what was read stays
                yield _rejected(path, f"cannot read on: {exc.strerror or exc}")
                return
            if found is None:
                return
            first_line, data = found
            if data is None:
                yield _rejected(f"{path}:{first_line}", f"a game of more than {self.max_input_bytes:,} bytes "
                                                        f"from line {first_line} (over the limit)")
                continue
            item = self._plan(data, path, "file", True)
            item.source = f"{path}:{first_line}"  # the piece's receipt: the file's bytes from that line
            offset = first_line - 1
            if offset:
                for game in item.games:
                    game.source = _shifted(game.source, path, offset)
                    if game.entry is not None:
                        game.entry.source = game.source
                        if game.entry.error is not None:
                            game.entry.error.source = game.source
            yield item

    def store_entries(self, raw: bytes, entries: list[LogEntry], source: str, origin: str, listed: bool
                      ) -> list[IngestResult]:
        """Games already read from ``raw`` (a quarantined input read again), without a receipt."""
        item = _Input(raw, source, origin)
        single = len(entries) == 1 and entries[0].source == source
        lines = raw.split(b"\n")
        for entry in entries:
            if single:
                part = raw
            elif raw.startswith(ZSTD_MAGIC):
                part = entry.raw
            else:
                start, count = _span(entry)
                part = b"\n".join(lines[start:start + count])
            item.games.append(_Game(part, entry.source, origin, listed, entry=entry))
        self._store([item], receipts=False)
        self.fold()
        return item.results

    # -- reading (no database) ----------------------------------------------------------------
    def _read(self, path: str, stdin: BinaryIO | None) -> _Input:
        if path == "-":
            stream = stdin or sys.stdin.buffer
            data = stream.read(self.max_input_bytes + 1)
            if len(data) > self.max_input_bytes:
                return _rejected("<stdin>", f"standard input is over the limit of {self.max_input_bytes:,} bytes")
            return self._plan(data, "<stdin>", "file", True)
        try:
            with open(path, "rb") as fh:  # the size of the open file: one path lookup, not two
                size = os.fstat(fh.fileno()).st_size
                if size > self.max_input_bytes:
                    return _rejected(path, f"file is {size:,} bytes, over the limit of {self.max_input_bytes:,} bytes")
                # the size it had, and one byte more to see it grow: a read of the limit
                # would ask for a buffer of the limit's size (16 MB) for every file
                data = fh.read(size + 1)
                if len(data) > size:  # it grew while being read: the rest, up to the limit
                    data += fh.read(self.max_input_bytes + 1 - len(data))
        except OSError as exc:
            return _rejected(path, f"cannot read: {exc.strerror or exc}")
        if len(data) > self.max_input_bytes:
            return _rejected(path, f"file grew past the limit of {self.max_input_bytes:,} bytes")
        return self._plan(data, path, "file", True)

    def _plan(self, data: bytes, source: str, origin: str, listed: bool) -> _Input:
        """An input read into its games, and how its bytes come back (its receipt)."""
        item = _Input(data, source, origin)
        if len(data) > self.max_input_bytes:
            item.rejected = IngestResult(source, REJECTED, error=(
                f"input is {len(data):,} bytes, over the limit of {self.max_input_bytes:,} bytes"))
            return item
        try:
            entries = read_logs(data, source, max_decompressed=self.max_decompressed)
        except Exception as exc:  # noqa: BLE001 - a reader's bug must not stop a walk or a watch: keep the input
            entries = [LogEntry(source, data, error=LogFormatError(_internal(exc), source))]
        compressed = data.startswith(ZSTD_MAGIC)
        single = len(entries) == 1 and entries[0].source == source
        if (not single and not any(e.ok for e in entries) and not _looks_like_json_lines(data, compressed)
                and data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] in (b"{", b"[")):
            # a pretty-printed JSON file that is broken, not a batch of broken lines (nor a text
            # log of several games, each refused on its own)
            single = True
            entries = [LogEntry(source, data, error=_whole_error(data, source))]
        if single:
            game = _Game(data, source, origin, listed, entry=entries[0])
            item.games.append(game)
            item.segments.append(game)
        elif compressed:
            item.games.extend(_Game(e.raw, e.source, origin, listed, entry=e) for e in entries)
            item.segments.append(data)
        else:
            # a game per line (JSON lines), or per run of lines (a text log of several games):
            # the receipt is the games' blobs and the other lines, in the file's order
            lines = data.split(b"\n")
            by_line: dict[int, tuple[_Game, int]] = {}
            for entry in entries:
                start, count = _span(entry)
                game = _Game(b"\n".join(lines[start:start + count]), entry.source, origin, listed, entry=entry)
                item.games.append(game)
                by_line[start] = (game, count)
            index = 0
            while index < len(lines):
                found = by_line.get(index)
                item.segments.append(found[0] if found else lines[index])
                index += found[1] if found else 1
        return item

    def _judge(self, game: _Game, finish: bool = True) -> None:
        """The game's rows, from the one judgement of its log (or why it is quarantined); with
        ``finish`` False (a batch for the writer process), without what ``_finish`` adds."""
        if game.entry is None and not self._reread(game):  # the writer: a game stored when it was read
            return
        log = game.entry.log
        try:
            replay = log.replay()
        except Exception as exc:  # an engine bug must not stop the batch: keep the input
            game.error = f"the rules engine failed on this game: {exc!r}"
            return
        try:
            game.rows = _rows(log, replay, game)
        except Exception as exc:  # noqa: BLE001 - a bug on one game must not stop the batch
            game.error = _internal(exc)
            return
        if finish and not self._finished(game, log):
            return
        # the rows are all that is stored of a judged game: its log (hundreds of objects the
        # cyclic garbage collector would walk again and again while the batch waits) goes now
        game.entry = None

    # -- storing ------------------------------------------------------------------------------
    def _store(self, items: Sequence[_Input], receipts: bool = True) -> None:
        self._prepare(items)
        self._commit(items, receipts)

    def _prepare(self, items: Sequence[_Input], *, hashed: bool = True) -> None:
        """Everything before the transaction: hashes, and judging the games not stored yet.

        With ``hashed`` False (a batch for the writer process, which hashes the logs itself:
        see ``_hash``), a game counts as stored when its very bytes are a stored game's own."""
        games = [g for item in items if item.rejected is None for g in item.games]
        for game in games:
            game.sha = _sha(game.raw)
            if game.entry is None or game.entry.log is None:
                if game.error is None:
                    game.error = str(game.entry.error) if game.entry is not None else "not a game log"
                continue
            if hashed:
                self._canonical(game)
        # judge only games not stored yet (a re-run over the same folder judges nothing)
        wanted = [g for g in games if g.error is None]
        if hashed:
            wanted = [g for g in wanted if g.canonical is not None]
        with self.engine.connect() as conn:
            if hashed:
                known = self._known_games(conn, {g.canonical for g in wanted})
            else:
                known = self._known_raw(conn, {g.sha for g in wanted})
        for game in wanted:
            if (game.canonical if hashed else game.sha) not in known:
                self._judge(game, finish=hashed)

    def _canonical(self, game: _Game) -> None:
        try:
            game.canonical = canonical_sha256(game.entry.log)
        except Exception as exc:  # noqa: BLE001 - a bug on one game must not stop the batch
            game.error = _internal(exc)

    def _hash(self, games: Sequence[_Game]) -> None:
        """The canonical SHA-256 of games read without it (the writer process): each log read
        again from its bytes. Reading is a fifth of the cost of judging, and this way neither
        the logs nor their hashing weigh on the process that judges."""
        for game in games:
            if game.canonical is not None or game.error is not None:
                continue
            if game.entry is None and not self._reread(game):
                continue
            self._canonical(game)
            if game.rows is not None and game.error is None and self._finished(game, game.entry.log):
                game.entry = None

    def _reread(self, game: _Game) -> bool:
        """The game's log read again from its bytes (the writer gets no logs); False, with the
        reason kept, should the same bytes not read the same way (they always do)."""
        (game.entry,) = read_logs(game.raw, game.source, max_decompressed=self.max_decompressed)
        if game.entry.log is None:
            game.error = str(game.entry.error)
            return False
        return True

    def _finished(self, game: _Game, log) -> bool:
        """``_finish`` on the game's rows; False (and the game quarantined) should it fail."""
        try:
            _finish(game.rows, log, game.canonical)
        except Exception as exc:  # noqa: BLE001 - a bug on one game must not stop the batch
            game.rows = None
            game.error = _internal(exc)
            return False
        return True

    def _commit(self, items: Sequence[_Input], receipts: bool = True) -> None:
        """The batch's one transaction (see the module docstring)."""
        games = [g for item in items if item.rejected is None for g in item.games]
        if not games:
            return
        self._hash(games)
        with self.engine.execution_options(write=True).begin() as conn:
            self._lock(conn, items, games)
            try:
                with conn.begin_nested():
                    self._write(conn, games)
                    if receipts:
                        self._receipts(conn, items)
            except DBAPIError as exc:
                if isinstance(exc, OperationalError) and not _refused(exc):
                    raise  # the database itself failed: nothing can be stored, say so
                for game in games:  # one game's value the database refuses: find it, keep the others
                    game.result = game.blob_id = None
                    try:
                        with conn.begin_nested():
                            self._write(conn, [game])
                    except DBAPIError as one:
                        if isinstance(one, OperationalError) and not _refused(one):
                            raise
                        game.rows, game.result, game.blob_id = None, None, None
                        game.error = f"the database refused this game: {_first_line(one)}"
                        with conn.begin_nested():
                            self._write(conn, [game])
                if receipts:
                    self._receipts(conn, items)
        self._unfolded += 1
        if self._unfolded >= FOLD_EVERY:
            self.fold()
        if self.auto_train:
            self.blobs.maybe_train()

    def fold(self) -> None:
        """Fold the counter deltas this archive has written (readers add unfolded ones anyway)."""
        self._unfolded = 0
        self.summaries.fold()

    def _lock(self, conn: Connection, items: Sequence[_Input], games: Sequence[_Game]) -> None:
        """PostgreSQL: lock every key this batch may insert, in one global order (no deadlock)."""
        if not self.postgres:
            return
        keys = {g.sha for g in games} | {g.canonical for g in games if g.canonical}
        keys |= {_sha(s) for item in items for s in item.segments if isinstance(s, bytes)}
        keys |= {item.input_sha() for item in items}
        numbers = sorted({int(k[:15], 16) for k in keys})
        conn.execute(text("SELECT count(pg_advisory_xact_lock(k)) FROM "
                          "(SELECT k FROM unnest(CAST(:keys AS bigint[])) AS k ORDER BY k) AS sorted_keys"),
                     {"keys": numbers})

    def _new_ids(self, conn: Connection, table: str, count: int) -> list[int]:
        """``count`` unused row ids of ``table`` (``games`` or ``blobs``), so that its rows go in
        with one executemany instead of one ``INSERT ... RETURNING`` per row. SQLite: after the
        largest, as SQLite itself would number them (this transaction holds the write lock);
        PostgreSQL: from the column's sequence."""
        if self.postgres:
            return sorted(conn.execute(text(f"SELECT nextval(pg_get_serial_sequence('{table}', 'id')) "
                                            "FROM generate_series(1, :n)"), {"n": count}).scalars())
        last = conn.execute(text(f"SELECT COALESCE(MAX(id), 0) FROM {table}")).scalar_one()
        return list(range(last + 1, last + 1 + count))

    def _known_games(self, conn: Connection, shas: set[str]) -> dict[str, Any]:
        found = {}
        ordered = sorted(shas)
        for start in range(0, len(ordered), 500):
            for row in conn.execute(select(Game.canonical_sha256, Game.id, Game.findings)
                                    .where(Game.canonical_sha256.in_(ordered[start:start + 500]))):
                found[row.canonical_sha256] = row
        return found

    def _known_raw(self, conn: Connection, shas: set[str]) -> set[str]:
        """Which of these SHA-256 are the bytes a stored game was read from."""
        found: set[str] = set()
        ordered = sorted(shas)
        for start in range(0, len(ordered), 500):
            found.update(conn.execute(select(Blob.sha256).join(Game, Game.raw_blob_id == Blob.id)
                                      .where(Blob.sha256.in_(ordered[start:start + 500]))).scalars())
        return found

    def _blob_ids(self, conn: Connection, raws: dict[str, bytes]) -> tuple[dict[str, int], set[str]]:
        """Blob ids for ``{sha: raw}``, storing the new ones; and which were new."""
        ids: dict[str, int] = {}
        ordered = sorted(raws)
        for start in range(0, len(ordered), 500):
            ids.update((r.sha256, r.id) for r in conn.execute(
                select(Blob.sha256, Blob.id).where(Blob.sha256.in_(ordered[start:start + 500]))))
        new = [sha for sha in ordered if sha not in ids]
        if new:
            rows = []
            for sha, blob_id in zip(new, self._new_ids(conn, "blobs", len(new))):
                dict_id, data = self.blobs.compressor.compress(raws[sha])
                rows.append({"id": blob_id, "sha256": sha, "size": len(raws[sha]), "dictionary_id": dict_id,
                             "data": data})
                ids[sha] = blob_id
            insert_many(conn, Blob.__table__, rows)
            self.blobs.count += len(new)
        return ids, set(new)

    def _write(self, conn: Connection, games: Sequence[_Game]) -> None:
        """Store a batch's games: a few statements for all of them."""
        known = self._known_games(conn, {g.canonical for g in games if g.canonical and g.error is None})
        first: dict[str, _Game] = {}
        new_games: list[_Game] = []
        for game in games:
            if game.error is not None or game.canonical is None:
                continue
            if game.canonical in known or game.canonical in first:
                continue
            if game.rows is None:
                self._judge(game)  # it was there when the batch was read, and is gone now
                if game.error is not None:
                    continue
            first[game.canonical] = game
            new_games.append(game)
        blob_ids, new_blobs = self._blob_ids(conn, {g.sha: g.raw for g in games})
        for game in games:
            game.blob_id = blob_ids[game.sha]
        # unreadable inputs: into the quarantine (once per bytes)
        quarantined = [g for g in games if g.error is not None]
        if quarantined:
            held = set(conn.execute(select(Quarantined.blob_id).where(
                Quarantined.blob_id.in_(sorted({g.blob_id for g in quarantined})))).scalars())
            rows = []
            for game in quarantined:
                fresh = game.blob_id not in held
                if fresh:
                    held.add(game.blob_id)
                    rows.append({"blob_id": game.blob_id, "source": game.source, "origin": game.origin,
                                 "error": game.error, "received_at": _now()})
                game.result = IngestResult(game.source, QUARANTINED, error=game.error, new=fresh)
            if rows:
                conn.execute(insert(Quarantined.__table__), rows)
        # new games, then their seats, findings, facts, tags and counters
        if new_games:
            now = _now()
            rows = []
            game_ids = self._new_ids(conn, "games", len(new_games))
            for game, game_id in zip(new_games, game_ids):
                row = {"id": game_id, **game.rows["game"], "raw_blob_id": game.blob_id, "ingested_at": now}
                rows.append(row)
            insert_many(conn, Game.__table__, rows)
            players, findings, facts, seat_counts = [], [], [], []
            tags: list[tuple[Any, ...]] = []  # (tag, started_key, game_id, listed, num): a game has dozens
            sqlite = conn.dialect.name == "sqlite"
            deltas: dict[tuple[str, str], list[Any]] = {}
            for game, game_id in zip(new_games, game_ids):
                parts = game.rows
                key: Any = started_key(parts["game"]["started_at"])
                if sqlite:  # as SQLAlchemy writes a datetime there, once per game
                    key = key.isoformat(" ", "microseconds")
                for p in parts["players"]:
                    players.append({**p, "game_id": game_id})
                findings.extend({**f, "game_id": game_id} for f in parts["findings"])
                facts.extend({**f, "game_id": game_id} for f in parts["facts"])
                seat_counts.extend({**c, "game_id": game_id} for c in parts.get("counts", ()))
                listed = game.listed
                game_tag_list, counts, numbers = _summaries(parts)
                tags.extend([(t, key, game_id, listed, numbers.get(t)) for t in game_tag_list])
                add_counts(deltas, counts, listed=game.listed)
                status = STORED_WITH_FINDINGS if parts["game"]["findings"] else STORED
                game.result = IngestResult(game.source, status, self.ids.encode(game_id), parts["game"]["findings"])
                known[game.canonical] = _Known(game_id, parts["game"]["findings"])
                if game.sha not in new_blobs:  # bytes once quarantined that now read: out of quarantine
                    conn.execute(update(Quarantined).where(Quarantined.blob_id == game.blob_id,
                                                           Quarantined.resolved == False)  # noqa: E712
                                 .values(resolved=True, resolved_at=_now()))
            for table, values in ((GamePlayer, players), (GameFinding, findings), (GameFact, facts),
                                  (GameSeatCount, seat_counts)):
                insert_many(conn, table.__table__, values)
            insert_tuples(conn, GameTag.__table__, ("tag", "started_key", "game_id", "listed", "num"), tags)
            self.summaries.add(conn, total_rows(deltas), merged=True)
        # duplicates: the game is there; these bytes were kept only if they are new
        for game in games:
            if game.result is None and game.canonical is not None:
                there = known[game.canonical]
                game.result = IngestResult(game.source, DUPLICATE, self.ids.encode(there.id), there.findings,
                                           new=game.sha in new_blobs)

    def _receipts(self, conn: Connection, items: Sequence[_Input]) -> None:
        """One receipt per input never received before: its bytes as the blobs of its segments."""
        wanted = {}
        for item in items:
            if item.rejected is None and item.segments:
                wanted.setdefault(item.input_sha(), item)
        if not wanted:
            return
        there = set(conn.execute(select(Receipt.sha256).where(Receipt.sha256.in_(sorted(wanted)))).scalars())
        missing = [(sha, item) for sha, item in sorted(wanted.items()) if sha not in there]
        if not missing:
            return
        loose = {_sha(s): s for _, item in missing for s in item.segments if isinstance(s, bytes)}
        loose_ids, _ = self._blob_ids(conn, loose) if loose else ({}, set())
        rows = []
        for sha, item in missing:
            blob_ids = [s.blob_id if isinstance(s, _Game) else loose_ids[_sha(s)] for s in item.segments]
            rows.append({"sha256": sha, "source": item.source, "origin": item.origin, "received_at": _now(),
                         "size": len(item.data), "blob_ids": json.dumps(blob_ids)})
        insert_many(conn, Receipt.__table__, rows)


def _for_writer(items: list[_Input]) -> list[_Input]:
    """The batch as the writer process gets it: without logs. A judged game's rows and an
    unreadable one's error are all that is stored of them; a game that was already stored when
    the batch was read is not judged, and were it gone by the time the writer looks, the writer
    reads it again from its bytes."""
    for item in items:
        for game in item.games:
            game.entry = None
    return items


def _collect(writer: WriterProcess, batch: list[tuple[str, _Input]]) -> Iterator[tuple[str, list[IngestResult]]]:
    """The writer's results for ``batch``, as ``(path, results)`` per input."""
    for (path, _item), results in zip(batch, writer.result()):
        yield path, results


@dataclass(slots=True)
class _Known:
    id: int
    findings: int


def _rows(log, replay, game: _Game) -> dict[str, Any]:
    """Everything stored about one judged game that needs its judgement, before its ids are
    known (``_finish`` adds what needs only the log)."""
    findings = replay.findings
    outcome = replay.outcome()
    winners = set(outcome.winners)
    decided = bool(winners)
    # the deal's key and each seat's result (games with deals; ``archive/deals.py``)
    deal_key, deal_scores = deal_fields(replay.game, replay)
    deal_scores = {_seat_name(seat): value for seat, value in (deal_scores or {}).items()}
    player_rows = []
    for seat, player in sorted(log.players.items(), key=lambda item: _seat_name(item[0])):
        seat = _seat_name(seat)
        player_rows.append({
            "seat": seat, "name": player.name, "player_id": player.id, "bot": player.bot,
            "role": outcome.roles.get(seat), "won": (seat in winners) if decided else None,
            "deal_score": deal_scores.get(seat),
        })
    kinds = sorted({f.kind for f in findings})
    row = {
        "game_id": log.game_id,
        "started_at": _utc_naive(log.started_at),
        "game": replay.game.name,
        "rules": str(outcome.facts.get("rules", replay.game.name)),
        "end_reason": replay.end_reason,
        "findings": len(findings),
        "finding_kinds": ",".join(kinds),
        "source": game.source,
        "origin": game.origin,
        "code": replay_code(replay),
        "listed": game.listed,
        "deal_key": deal_key,
    }
    finding_rows = [{"number": i, "kind": f.kind, "seat": None if f.seat is None else _seat_name(f.seat)}
                    for i, f in enumerate(findings)]
    fact_rows = [{"name": name, "value": str(value)[:200],
                  "num": value if isinstance(value, int) and not isinstance(value, bool) else None}
                 for name, value in sorted(outcome.facts.items())]
    count_rows = [{"seat": _seat_name(seat), "name": name, "value": int(value)}
                  for seat, counts in sorted(outcome.counts.items(), key=lambda item: _seat_name(item[0]))
                  for name, value in sorted(counts.items())]
    return {"game": row, "players": player_rows, "findings": finding_rows, "facts": fact_rows, "kinds": kinds,
            "counts": count_rows}


def _finish(rows: dict[str, Any], log, canonical: str) -> None:
    """The rest of a judged game's rows, from its log alone: its canonical hash, the players'
    JSON, the lower-cased names and each seat's think times. Made where the log is at hand
    after the judging: in the writer process, which reads each log again to hash it, so that
    the process that judges does not pay for it."""
    times = think_times(log)
    row = rows["game"]
    row["canonical_sha256"] = canonical
    players = {}
    for p in rows["players"]:
        name, player_id, bot = p["name"], p["player_id"], p["bot"]
        players[p["seat"]] = {k: v for k, v in (("name", name), ("id", player_id), ("bot", bot)) if v is not None}
        p["name_lc"], p["player_id_lc"], p["bot_lc"] = _lc(name), _lc(player_id), _lc(bot)
        p["bot_base_lc"] = _lc(bot_base(bot)) if bot else None
        p["think_ms"] = think_text(times.get(p["seat"], ()))
    row["players"] = json.dumps(players, ensure_ascii=False, separators=(",", ":"))


def _summaries(parts: dict[str, Any]) -> tuple[list[str], dict[tuple[str, str], list[Any]], dict[str, int]]:
    """A new game's tags, counter shares and the numbers of its ``number:`` tags, from its rows
    (made where it is stored, so that neither a duplicate nor the judging process pays for them)."""
    numbers = {number_tag(f["name"]): f["num"] for f in parts["facts"] if f["num"] is not None}
    tags = tags_of_rows(parts["game"], parts["players"], parts["kinds"], parts["facts"])
    return tags, game_counts(parts["game"], parts["players"], [f["seat"] for f in parts["findings"]], tags), numbers


def _span(entry: LogEntry) -> tuple[int, int]:
    """Where a game of a file of several sits among the file's lines: ``(index of its first
    line, how many lines)``. Its source is ``path:line``; a JSON line's raw is that line (its CR
    dropped), a text log's game its lines joined."""
    return int(entry.source.rsplit(":", 1)[1]) - 1, entry.raw.count(b"\n") + 1


def _rejected(source: str, error: str) -> _Input:
    item = _Input(b"", source, "file")
    item.rejected = IngestResult(source, REJECTED, error=error)
    return item


def _internal(exc: Exception) -> str:
    return f"internal error while ingesting (a bug, please report it): {exc!r}"[:2000]


def _refused(exc: OperationalError) -> bool:
    """Whether an OperationalError is about one value (SQLite says so for, e.g., a string too big)."""
    return "too big" in str(exc.orig) if getattr(exc, "orig", None) is not None else False


def _first_line(exc: SQLAlchemyError) -> str:
    orig = getattr(exc, "orig", None)
    lines = str(orig if orig is not None else exc).strip().splitlines()
    return (lines[0] if lines else exc.__class__.__name__)[:500]


def _piece_reader(path: str) -> ForeignFormat | None:
    """The text reader of several games per file, that tells where a game starts, which takes
    the file at ``path`` (by its first ``SNIFF_BYTES``), or None."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(SNIFF_BYTES)
    except OSError:
        return None
    if head.startswith(ZSTD_MAGIC):
        return None
    text = head.decode("utf-8-sig", errors="ignore")
    if text.lstrip().startswith("{"):
        return None
    for name in game_names():
        for reader in get_game(name).readers:
            if reader.starts_game is not None and reader.read_games is not None and reader.looks_like(text):
                return reader
    return None


def _pieces(path: str, starts_game: Callable[[str], bool], cap: int) -> Iterator[tuple[int, bytes | None]]:
    """``(number of its first line, bytes)`` of each piece of the file: whole games, cut before
    a line that starts one once a piece holds ``PIECE_BYTES``. Every byte is in one piece; a
    piece that grows past ``cap`` bytes with no place to cut is not kept (``None``: too large)."""
    piece: list[bytes] = []
    size = 0
    first = number = 1
    with open(path, "rb") as fh:
        for line in fh:
            if size >= PIECE_BYTES and starts_game(line.decode("utf-8", errors="replace")):
                yield first, (b"".join(piece) if size <= cap else None)
                piece, size, first = [], 0, number
            if size <= cap:
                piece.append(line)
            size += len(line)
            number += 1
    if size:
        yield first, (b"".join(piece) if size <= cap else None)


def _shifted(source: str, path: str, offset: int) -> str:
    """``path:12`` of a piece that starts at the file's line ``offset + 1`` -> ``path:(12 + offset)``."""
    head, colon, line = source.rpartition(":")
    if colon and head == path and line.isdigit():
        return f"{path}:{int(line) + offset}"
    return f"{path}:{offset + 1}" if source == path else source


def walk_paths(paths: Iterable[str]) -> Iterator[str]:
    """Files named, and the log files inside named folders, recursively, as the walk finds them.

    Like ``replay.log.expand_paths`` (hidden and temporary files skipped, ``-`` for standard
    input, the same errors for a missing path), but streaming: folders are read one at a time
    and, up to ``SORTED_FOLDER`` entries, in sorted order.
    """
    for p in paths:
        if p == "-":
            yield p
            continue
        if os.path.isdir(p):
            yield from _walk_folder(p)
        elif os.path.isfile(p):
            yield p
        elif os.path.exists(p):
            raise InputPathError(f"{p}: not a file or folder")
        else:
            raise InputPathError(f"{p}: no such file or folder")


def _walk_folder(folder: str) -> Iterator[str]:
    try:
        with os.scandir(folder) as it:
            entries: Iterable[os.DirEntry] = list(_take(it, SORTED_FOLDER + 1))
            if len(entries) <= SORTED_FOLDER:  # type: ignore[arg-type]
                entries = sorted(entries, key=lambda e: e.name)  # type: ignore[arg-type]
                streamed = None
            else:
                streamed = it
            for entry in _chain(entries, streamed):
                if entry.name.startswith("."):
                    continue
                if entry.is_dir(follow_symlinks=True):
                    yield from _walk_folder(entry.path)
                elif entry.is_file(follow_symlinks=True) and is_log_name(entry.name):
                    yield entry.path
    except PermissionError:
        return


def _take(it, n: int):
    for i, entry in enumerate(it):
        yield entry
        if i + 1 >= n:
            return


def _chain(first, rest):
    yield from first
    if rest is not None:
        yield from rest
