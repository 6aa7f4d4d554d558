"""zstd compression of raw bytes with dictionaries trained on the archive's own logs.

A blob records the dictionary it was written with (``None``: no dictionary), and
dictionaries are never deleted, so every blob stays readable after retraining.

>>> c = Compressor()
>>> dict_id, data = c.compress(b'{"format": "floating-bridge/1"}')
>>> dict_id is None, c.decompress(data, dict_id)
(True, b'{"format": "floating-bridge/1"}')
"""

from __future__ import annotations

import threading
from typing import Callable, Sequence

import zstandard

#: zstd level for blobs. With a dictionary trained on 1,000 of bench/archive.py's logs, on the
#: next 1,000 (2026-11-26): level 5 takes 26 µs and 599 bytes a log, level 9 98 µs and 523
#: bytes, level 3 12 µs and 647 bytes. Level 5 keeps blobs within 15% of level 9's size (blobs
#: are a tenth of the database's bytes a game) at a quarter of its time, which ingest spends on
#: every new log. Blobs of any level read back the same.
LEVEL = 5
#: Blobs written before the first dictionary are few and rewritten once it is trained.
LEVEL_WITHOUT_DICTIONARY = 3
DICT_SIZE = 64 * 1024
#: Train the first dictionary once this many blobs are stored; retrain at each multiple of 8.
FIRST_TRAINING = 256
RETRAIN_FACTOR = 8
#: Samples a dictionary is trained on: the newest logs, at most this many and this many bytes.
#: Training takes memory in proportion to them, so with these bounds the peak memory of an
#: ingest stops growing at the second training (2,048 blobs); 1,000 logs train as small a
#: dictionary as 4,000 did (``bench/archive.py`` prints bytes per game).
MAX_SAMPLES = 1000
MAX_SAMPLE_BYTES = 8 * 1024 * 1024


class BlobError(Exception):
    """A stored blob cannot be read back (its dictionary is missing or the data is damaged)."""


class Compressor:
    """Compress with the newest dictionary; decompress with whichever a blob names."""

    def __init__(self, level: int = LEVEL, load: Callable[[int], bytes | None] | None = None):
        self.level = level
        self._load = load
        self._dicts: dict[int, zstandard.ZstdCompressionDict] = {}
        # zstd (de)compressor objects must not be shared between threads (a web server's)
        self._local = threading.local()
        self.current: int | None = None

    @property
    def _compressors(self) -> dict[int | None, zstandard.ZstdCompressor]:
        if not hasattr(self._local, "compressors"):
            self._local.compressors = {}
        return self._local.compressors

    @property
    def _decompressors(self) -> dict[int | None, zstandard.ZstdDecompressor]:
        if not hasattr(self._local, "decompressors"):
            self._local.decompressors = {}
        return self._local.decompressors

    def add_dictionary(self, dict_id: int, data: bytes) -> None:
        self._dicts[dict_id] = zstandard.ZstdCompressionDict(data)
        if self.current is None or dict_id > self.current:
            self.current = dict_id

    def _compressor(self, dict_id: int | None) -> zstandard.ZstdCompressor:
        comp = self._compressors.get(dict_id)
        if comp is None:
            if dict_id is None:
                comp = zstandard.ZstdCompressor(level=LEVEL_WITHOUT_DICTIONARY, write_content_size=True)
            else:
                comp = zstandard.ZstdCompressor(level=self.level, dict_data=self._dicts[dict_id],
                                                write_content_size=True, write_dict_id=True)
            self._compressors[dict_id] = comp
        return comp

    def compress(self, raw: bytes) -> tuple[int | None, bytes]:
        """``(dictionary id or None, compressed bytes)`` with the newest dictionary."""
        compressors = self._compressors
        if self.current not in compressors and compressors:
            compressors.clear()  # a newer dictionary: the older ones' contexts are not used again
        return self.current, self._compressor(self.current).compress(raw)

    def decompress(self, data: bytes, dict_id: int | None) -> bytes:
        dec = self._decompressors.get(dict_id)
        if dec is None:
            if dict_id is None:
                dec = zstandard.ZstdDecompressor()
            else:
                if dict_id not in self._dicts:
                    loaded = self._load(dict_id) if self._load else None
                    if loaded is None:
                        raise BlobError(f"zstd dictionary {dict_id} is missing from the archive")
                    self._dicts[dict_id] = zstandard.ZstdCompressionDict(loaded)
                dec = zstandard.ZstdDecompressor(dict_data=self._dicts[dict_id])
            self._decompressors[dict_id] = dec
        try:
            return dec.decompress(data)
        except zstandard.ZstdError as exc:
            raise BlobError(f"a stored blob cannot be decompressed: {exc}") from None


def train(samples: Sequence[bytes], size: int = DICT_SIZE) -> bytes:
    """A zstd dictionary trained on ``samples`` (raw logs)."""
    size = min(size, max(4096, sum(len(s) for s in samples) // 10))
    return zstandard.train_dictionary(size, list(samples)).as_bytes()
