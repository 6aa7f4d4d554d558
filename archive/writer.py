"""The ingest's writer process: it stores the batches the ingesting process reads and judges.

A long ingest (more than one batch) is a pipeline of two processes. The ingesting process walks
the folders, reads each log, judges it and makes its rows (the work that has to see the log);
this process, started for it, runs each batch's transaction (compressing the blobs, the
inserts, folding the counters, training the dictionary) and every few batches the ratings
refresh. Each runs on its own core: the judging never waits for the database, and the database
work is not taxed by the judging's hold on the interpreter (a writer *thread* was tried first:
every ``sqlite3_step`` and every network wait gives the interpreter lock away, and taking it
back waited for the judging thread's switch interval, so the two ran one after the other).

At most ``IN_FLIGHT`` batches wait for the writer: the ingesting process collects the oldest
one's results before it goes on, so memory holds a few batches whatever the size of the walk.
Where the hashing happens balances the two: when the ingesting process had to wait for a
batch's results (the writer is behind, as on a large SQLite archive, whose random inserts cost
more than the judging), it hashes and finishes the next batch itself.

Stopping: Ctrl-C reaches both processes; this one ignores it, so the batch it is writing is
committed (or not) whole, and it ends when the ingesting process closes the pipe. When the
ingesting process dies (SIGKILL), the pipe's other end closes with it: this process finishes
the transaction under way and ends. A batch whose results were never reported may be stored:
a re-run finds its games there (duplicates), and nothing reported as stored is ever lost.
"""

from __future__ import annotations

import os
import pickle
import queue
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any, Sequence

from .records import ArchiveError

#: Batches sent to the writer and not collected yet, at most: the writer has the next batch at
#: hand when it ends one (a dictionary training or a ratings refresh does not stall the
#: judging), and memory holds at most this many batches plus the one being judged.
IN_FLIGHT = 2
#: A wait for the writer's results longer than this (seconds) means the writer is behind: the
#: ingesting process then hashes and finishes the next batch itself (``Ingester.iter_paths``).
BEHIND = 0.01
#: Commits between two ratings refreshes inside the writer (8,192 games at 512 a batch): a
#: refresh reads and rewrites the row of every name its games name, so the more games one
#: refresh takes, the fewer rows a game costs (at 200,000 games, with thousands of names,
#: refreshing every 2,048 games was a fifth of the writer's time); the ingest's own refresh at
#: the end rates whatever is left.
RATE_EVERY = 16
#: SQLite's page cache in the writer process, in KiB: its inserts land at random pages of every
#: index, and a cache larger than SQLite's 2 MB default took a tenth off the writer's CPU at
#: 200,000 games; less than the readers' 64 MB, since the writer's memory is what an ingest of
#: a million files must keep flat (a cache that large was still filling at 10,000 files).
WRITER_SQLITE_CACHE_KIB = 40_960


@dataclass(frozen=True, slots=True)
class WriterConfig:
    """What the writer process needs to open the same archive as the ingesting process."""

    url: str
    salt: str
    level: int
    auto_train: bool
    max_input_bytes: int
    max_decompressed: int
    #: commits between two ratings refreshes (``RATE_EVERY``; a test makes it 1)
    rate_every: int = RATE_EVERY


class WriterProcess:
    """The ingesting process's handle on its writer process (see the module docstring).

    The writer is a new interpreter running ``_main`` with pipes for its standard input and output:
    pickled batches go in, pickled results come out. (Not ``multiprocessing``: its ``spawn``
    start runs the parent's main script again in the child, which breaks any script that
    ingests without an ``if __name__ == "__main__"`` guard.)
    """

    def __init__(self, config: WriterConfig):
        # the child imports this very package: its folder goes first on the child's path unless
        # the interpreter finds it there anyway (installed), so that a checkout run without
        # installing it gets its own code and an installed one shadows nothing
        root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        start = (f"import sys; root = {root!r}\n"
                 "if root not in sys.path: sys.path.insert(0, root)\n"
                 "from archive.writer import _main; _main()")
        self.process = subprocess.Popen([sys.executable, "-c", start], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self._waiting = 0
        #: seconds the last ``result`` waited for the writer (it is behind when that is long)
        self.waited = 0.0
        # the pipe is written by a thread of its own: the writer takes a moment to start (its
        # imports), and a full pipe must not hold up the judging meanwhile
        self._outgoing: queue.Queue[bytes | None] = queue.Queue()
        self._sender = threading.Thread(target=self._send_all, name="ingest-writer-pipe", daemon=True)
        self._sender.start()
        self._outgoing.put(pickle.dumps(config, protocol=pickle.HIGHEST_PROTOCOL))

    def _send_all(self) -> None:
        stdin = self.process.stdin
        try:
            while True:
                data = self._outgoing.get()
                if data is None:
                    break
                stdin.write(data)
                stdin.flush()
        except (BrokenPipeError, OSError):
            pass  # the writer is gone: ``result`` reads EOF and says so
        finally:
            try:
                stdin.close()
            except (BrokenPipeError, OSError):
                pass

    def _stopped(self) -> ArchiveError:
        code = self.process.wait()
        return ArchiveError(f"the ingest's writer process stopped (exit code {code}); the batches it was "
                            "writing were not stored; run the ingest again")

    def submit(self, items: Sequence[Any]) -> None:
        """Send a batch (its ``_Input`` objects, judged) to be committed."""
        self._waiting += 1
        self._outgoing.put(pickle.dumps(list(items), protocol=pickle.HIGHEST_PROTOCOL))

    def result(self) -> list[list[Any]]:
        """The results of the oldest batch not collected yet: per input, its ``IngestResult`` list."""
        if not self._waiting:
            raise RuntimeError("no batch is being written")
        self._waiting -= 1
        started = time.perf_counter()
        try:
            kind, value = pickle.load(self.process.stdout)
        except EOFError:
            raise self._stopped() from None
        self.waited = time.perf_counter() - started
        if kind == "error":
            raise value
        return value

    def close(self) -> None:
        """Tell the writer there is no more, and wait for it to finish (and the batches under way)."""
        self._outgoing.put(None)
        self._sender.join()
        while self._waiting:  # stopped half-way: the batches sent end as they end
            self._waiting -= 1
            try:
                pickle.load(self.process.stdout)
            except (EOFError, OSError, pickle.UnpicklingError):
                break
        self.process.wait()
        self.process.stdout.close()


def _receive(inbox, batches: "queue.Queue[Any]") -> None:
    """The writer's reader thread: batches off the pipe as soon as they come, so that the
    ingesting process never waits on a full pipe while a transaction runs here."""
    try:
        while True:
            batches.put(pickle.load(inbox))
    except EOFError:
        batches.put(_END)
    except BaseException as exc:  # noqa: BLE001 - handed to the main thread, which reports it
        batches.put(exc)


_END = object()


def _main() -> None:
    """The writer process: open the archive, then commit each batch received until EOF."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the ingesting process decides when to stop
    inbox, outbox = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # nothing but results on the pipe
    from .store import Archive

    archive = None
    try:
        config: WriterConfig = pickle.load(inbox)
        archive = Archive(config.url, config.salt, max_input_bytes=config.max_input_bytes,
                          max_decompressed=config.max_decompressed, auto_train=config.auto_train,
                          level=config.level, sqlite_cache_kib=WRITER_SQLITE_CACHE_KIB)
        batches: queue.Queue[Any] = queue.Queue()
        threading.Thread(target=_receive, args=(inbox, batches), daemon=True).start()
        ratings = _Refresher(archive)
        commits = 0
        try:
            while True:
                items = batches.get()
                if items is _END:
                    break
                if isinstance(items, BaseException):
                    raise items
                archive.ingester._commit(items)
                commits += 1
                if commits % config.rate_every == 0:
                    ratings.start()
                pickle.dump(("ok", [item.results for item in items]), outbox, protocol=pickle.HIGHEST_PROTOCOL)
                outbox.flush()
        except BaseException:
            ratings.join(report=False)  # the first error is the one to report
            raise
        ratings.join()
        archive.ingester.fold()
    except BaseException as exc:  # sent to the ingesting process, which raises it there
        try:
            pickle.dump(("error", _portable(exc)), outbox, protocol=pickle.HIGHEST_PROTOCOL)
            outbox.flush()
        except OSError:  # the ingesting process is gone: nobody to tell
            pass
    finally:
        if archive is not None:
            archive.close()


class _Refresher:
    """The writer's ratings refreshes. On PostgreSQL each runs in a thread of its own, beside
    the batches: a refresh at 200,000 games took a second or more (it reads every rated game's
    players and rewrites each name's row), and while the writer ran it inline the ingesting
    process, ``IN_FLIGHT`` batches ahead, stopped and waited. Its transaction locks only the
    ratings' watermark row, so the batches commit meanwhile; a refresh sees the games committed
    when it starts, and the next one the rest. On SQLite (one writer at a time: a refresh in a
    thread would only hold up the batch waiting for the database) it runs inline as before."""

    def __init__(self, archive: Any):
        self.archive = archive
        self.threaded = archive.engine.dialect.name == "postgresql"
        self.thread: threading.Thread | None = None
        self.error: BaseException | None = None

    def start(self) -> None:
        """A refresh now, unless one is still running (the next one takes its games too)."""
        self._raise()
        if not self.threaded:
            self.archive.refresh_ratings()
        elif self.thread is None or not self.thread.is_alive():
            self.thread = threading.Thread(target=self._run, name="ingest-writer-ratings", daemon=True)
            self.thread.start()

    def _run(self) -> None:
        try:
            self.archive.refresh_ratings()
        except BaseException as exc:  # noqa: BLE001 - raised by the writer's main thread
            self.error = exc

    def _raise(self) -> None:
        if self.error is not None:
            error, self.error = self.error, None
            raise error

    def join(self, report: bool = True) -> None:
        """Wait for the refresh under way; its error, if any, is raised here (with ``report``)."""
        if self.thread is not None:
            self.thread.join()
        if report:
            self._raise()


def _portable(exc: BaseException) -> BaseException:
    """``exc`` if it survives pickling (SQLAlchemy's and the drivers' errors do), else an
    ArchiveError with its text, so that the ingesting process always gets the reason."""
    try:
        pickle.loads(pickle.dumps(exc))
        return exc
    except Exception:  # noqa: BLE001 - any pickling failure: send the words instead
        return ArchiveError(f"the ingest's writer process failed: {exc!r}")


if __name__ == "__main__":
    _main()
