"""The ingest's writer process itself (``archive/writer.py`` starts it and talks to it): it
opens the archive through the facade, then commits each batch it receives until EOF.

A module of its own, above ``archive.store``: the writer's handle (``WriterProcess``) is used
by ingest, below the facade, and this side opens the facade.
"""

from __future__ import annotations

import pickle
import queue
import signal
import sys
import threading
from typing import Any

from .records import ArchiveError
from .store import Archive
from .writer import WRITER_SQLITE_CACHE_KIB, WriterConfig


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


def main() -> None:
    """The writer process: open the archive, then commit each batch received until EOF."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the ingesting process decides when to stop
    inbox, outbox = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # nothing but results on the pipe
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
    main()
