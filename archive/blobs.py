"""Raw bytes: content-addressed blobs, zstd with dictionaries trained on the archive's own logs.

``BlobStore`` is the archive's storage part: it stores a blob once per SHA-256, reads any blob
back with the dictionary it names, and trains new dictionaries as the archive grows (at 256
blobs, then at each eightfold growth). Older blobs stay readable after retraining.
"""

from __future__ import annotations

import threading
from typing import Any

from sqlalchemy import Connection, Engine, bindparam, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from replay.log import ZSTD_MAGIC

from . import compression
from .compression import Compressor
from .models import Blob, Dictionary, Game, Setting
from .records import _now, _sha

_SELECT_BLOB = select(Blob.id).where(Blob.sha256 == bindparam("sha"))
_INSERT_BLOB = insert(Blob.__table__)


class BlobStore:
    """Blobs and dictionaries of one archive database."""

    def __init__(self, engine: Engine, level: int = compression.LEVEL):
        self.engine = engine
        self._train_lock = threading.Lock()
        self.compressor = Compressor(level=level, load=self._load_dictionary)
        self.reload()

    def reload(self) -> None:
        """Read the dictionaries and the blob count again (another process, an ingest's writer,
        may have stored blobs and trained a dictionary)."""
        with self.engine.connect() as conn:
            for row in conn.execute(select(Dictionary.id, Dictionary.data).order_by(Dictionary.id)):
                self.compressor.add_dictionary(row.id, row.data)
            self.count = conn.execute(select(func.count()).select_from(Blob)).scalar_one()
            trained_at = conn.execute(
                select(Setting.value).where(Setting.key == "dictionary_trained_at_blobs")).scalar()
        self.trained_at = int(trained_at) if trained_at else 0

    def _load_dictionary(self, dict_id: int) -> bytes | None:
        with self.engine.connect() as conn:
            return conn.execute(select(Dictionary.data).where(Dictionary.id == dict_id)).scalar()

    # -- blobs --------------------------------------------------------------------------------
    def store(self, conn: Connection, raw: bytes, sha: str | None = None) -> tuple[int, bool]:
        """``(blob id, whether it was new)`` for ``raw``, storing it first if new."""
        sha = sha or _sha(raw)
        found = conn.execute(_SELECT_BLOB, {"sha": sha}).scalar()
        if found is not None:
            return found, False
        dict_id, data = self.compressor.compress(raw)
        blob_id = conn.execute(_INSERT_BLOB, {"sha256": sha, "size": len(raw), "dictionary_id": dict_id,
                                              "data": data}).inserted_primary_key[0]
        self.count += 1
        return blob_id, True

    def read(self, data: bytes, dict_id: int | None) -> bytes:
        """A stored blob's raw bytes."""
        return self.compressor.decompress(data, dict_id)

    # -- dictionaries -------------------------------------------------------------------------
    def maybe_train(self) -> None:
        """Train a dictionary when the archive has grown enough since the last one."""
        if not self._train_lock.acquire(blocking=False):
            return  # another thread is training
        try:
            if self.compressor.current is None:
                if self.count >= compression.FIRST_TRAINING:
                    self.train_dictionary(recompress=True)
            elif self.count >= self.trained_at * compression.RETRAIN_FACTOR:
                self.train_dictionary(recompress=False)
        except IntegrityError:  # another process stored a dictionary first: use it from now on
            self.trained_at = self.count
            with self.engine.connect() as conn:
                for row in conn.execute(select(Dictionary.id, Dictionary.data).order_by(Dictionary.id)):
                    self.compressor.add_dictionary(row.id, row.data)
        finally:
            self._train_lock.release()

    def train_dictionary(self, recompress: bool = True) -> int | None:
        """Train a new dictionary on the latest games' raw bytes; returns its id (None: too few).

        With ``recompress``, blobs stored without a dictionary are rewritten with the new one
        (each batch in its own transaction: a crash leaves every blob readable).
        """
        samples: list[bytes] = []
        size = 0
        with self.engine.connect() as conn:
            rows = conn.execute(select(Blob.data, Blob.dictionary_id).join(Game, Game.raw_blob_id == Blob.id)
                                .order_by(Game.id.desc()).limit(compression.MAX_SAMPLES))
            for row in rows:
                raw = self.read(row.data, row.dictionary_id)
                if not raw.startswith(ZSTD_MAGIC):
                    samples.append(raw)
                    size += len(raw)
                    if size >= compression.MAX_SAMPLE_BYTES:
                        break
        if len(samples) < 32:
            return None
        try:
            data = compression.train(samples)
        except Exception:  # zstd refuses some sample sets (too uniform): keep the old dictionary
            return None
        with self.engine.execution_options(write=True).begin() as conn:
            new_id = (conn.execute(select(func.max(Dictionary.id))).scalar() or 0) + 1
            conn.execute(insert(Dictionary).values(id=new_id, created_at=_now(), samples=len(samples), data=data))
            trained_at = str(self.count)
            if conn.execute(select(Setting.key).where(Setting.key == "dictionary_trained_at_blobs")).scalar():
                conn.execute(update(Setting).where(Setting.key == "dictionary_trained_at_blobs")
                             .values(value=trained_at))
            else:
                conn.execute(insert(Setting).values(key="dictionary_trained_at_blobs", value=trained_at))
        self.compressor.add_dictionary(new_id, data)
        self.trained_at = self.count
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
            with self.engine.execution_options(write=True).begin() as conn:
                query: Any = select(Blob.id, Blob.data, Blob.dictionary_id).where(Blob.id > last)
                if only_undictionaried:
                    query = query.where(Blob.dictionary_id.is_(None))
                else:
                    query = query.where(or_(Blob.dictionary_id.is_(None), Blob.dictionary_id != current))
                rows = conn.execute(query.order_by(Blob.id).limit(batch)).all()
                if not rows:
                    return done
                for row in rows:
                    raw = self.read(row.data, row.dictionary_id)
                    dict_id, data = self.compressor.compress(raw)
                    if len(data) < len(row.data):
                        conn.execute(update(Blob).where(Blob.id == row.id).values(data=data, dictionary_id=dict_id))
                        done += 1
                    last = row.id
