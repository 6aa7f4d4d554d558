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

    The writer is a new interpreter running ``archive.writer_process.main`` with pipes for its standard input and output:
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
                 "from archive.writer_process import main; main()")
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
