"""Admin: the quarantine, retries, exports, replay codes, recompression, deleting and publishing.

The upkeep part of the archive. Deleting a game or publishing an upload also takes its share
out of (or into) the counters and its tags' listed flag, so listings and statistics stay exact.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Iterator

from sqlalchemy import Engine, delete, func, select, update

from replay.log import read_logs

from .analyses import drop_orphan_analyses, forget_analysis
from .blobs import BlobStore
from .ids import PublicIds
from .ingest import Ingester
from .models import (Blob, Game, GameFact, GameFinding, GamePlayer, GameSeatCount, GameTag, Quarantined,
                     RatingHistory, Receipt)
from .queries import Queries
from .records import (QUARANTINED, ArchiveError, IngestResult, Page, QuarantinedInput, _aware, _now, _safe_relative,
                      _sha, raw_extension, replay_code)
from .summaries import Summaries, delta_rows


class Admin:
    """Upkeep of one archive database."""

    def __init__(self, engine: Engine, ids: PublicIds, blobs: BlobStore, summaries: Summaries, ingester: Ingester,
                 queries: Queries):
        self.engine = engine
        self.ids = ids
        self.blobs = blobs
        self.summaries = summaries
        self.ingester = ingester
        self.queries = queries

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
                                  self.blobs.read(r.data, r.dictionary_id)) for r in rows]
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
                raw = self.blobs.read(row.data, row.dictionary_id)
                entries = read_logs(raw, row.source, max_decompressed=self.ingester.max_decompressed)
                failed = [e for e in entries if not e.ok]
                if failed:
                    error = str(failed[0].error) if len(entries) == 1 else (
                        f"{len(failed)} of {len(entries)} games unreadable; first: {failed[0].error}")
                    with self.engine.execution_options(write=True).begin() as conn:
                        conn.execute(update(Quarantined).where(Quarantined.id == row.id).values(error=error))
                    results.append(IngestResult(row.source, QUARANTINED, error=error, new=False))
                    continue
                # an upload stays unlisted: only its uploader knows where it is
                results.extend(self.ingester.store_entries(raw, entries, row.source, row.origin,
                                                           row.origin != "upload"))
                with self.engine.execution_options(write=True).begin() as conn:
                    conn.execute(update(Quarantined).where(Quarantined.id == row.id)
                                 .values(resolved=True, resolved_at=_now()))

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
                yield self.ids.encode(row.id), self.blobs.read(row.data, row.dictionary_id)

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
                data = b"\n".join(self.blobs.read(*blobs[b]) for b in json.loads(row.blob_ids))
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
            entries = read_logs(raw, public_id, max_decompressed=max(self.ingester.max_decompressed, 64 << 20))
            fh.write(entries[0].log.canonical_json() + "\n")
            count += 1
        return count

    # -- codes --------------------------------------------------------------------------------
    def fill_codes(self, batch: int = 500) -> int:
        """Fill the replay code of games stored before ``replay.codec`` was available."""
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
                game = self.queries.get(self.ids.encode(game_id))
                code = replay_code(game.replay()) if game else None
                if code is None:
                    continue
                with self.engine.execution_options(write=True).begin() as conn:
                    conn.execute(update(Game).where(Game.id == game_id).values(code=code))
                filled += 1

    def recompress(self, only_undictionaried: bool = False, batch: int = 500) -> int:
        """Rewrite blobs with the newest dictionary; returns how many were rewritten."""
        return self.blobs.recompress(only_undictionaried, batch)

    # -- deleting and publishing ----------------------------------------------------------------
    def set_listed(self, game_id: int, listed: bool) -> bool:
        """List (or unlist) a game, its tags and its share of the counters; False if there is none."""
        with self.engine.execution_options(write=True).begin() as conn:
            share = self.summaries.game_share(conn, game_id)
            if share is None:
                return False
            if share.listed == listed:
                return True
            conn.execute(update(Game).where(Game.id == game_id).values(listed=listed))
            conn.execute(update(GameTag).where(self.summaries.tag_rows(share, game_id)).values(listed=listed))
            self.summaries.add(conn, delta_rows(share.counts, sign=1 if listed else -1, listed=True, only_listed=True))
        self.summaries.fold()
        return True

    def delete_row(self, row_id: int, uploads_only: bool = True) -> bool:
        """Delete a game, its rows and (if nothing else needs them) its bytes. False if there is none."""
        with self.engine.execution_options(write=True).begin() as conn:
            blob_id = conn.execute(select(Game.raw_blob_id).where(Game.id == row_id)).scalar()
            if blob_id is None:
                return False
            share = self.summaries.game_share(conn, row_id)
            conn.execute(delete(GameTag).where(self.summaries.tag_rows(share, row_id)))
            # no foreign key cascades to these (migrations 0009 and 0011): each is deleted here
            for table in (GamePlayer, GameFinding, GameFact, GameSeatCount, RatingHistory):
                conn.execute(delete(table).where(table.game_id == row_id))
            keys = forget_analysis(conn, row_id)
            conn.execute(delete(Game).where(Game.id == row_id))
            drop_orphan_analyses(conn, keys)
            self.summaries.add(conn, delta_rows(share.counts, sign=-1, listed=share.listed))
            self._drop_blob(conn, blob_id, uploads_only=uploads_only)
        self.summaries.fold()
        return True

    def _drop_blob(self, conn, blob_id: int, uploads_only: bool) -> None:
        """Remove a blob no game or quarantined input needs, with the upload receipts naming it."""
        if conn.execute(select(Game.id).where(Game.raw_blob_id == blob_id).limit(1)).first():
            return
        if conn.execute(select(Quarantined.id).where(Quarantined.blob_id == blob_id).limit(1)).first():
            return
        receipts = conn.execute(select(Receipt.id, Receipt.origin, Receipt.blob_ids)
                                .where(Receipt.blob_ids.like(f"%{blob_id}%"))).all()
        naming = [r for r in receipts if blob_id in json.loads(r.blob_ids)]
        if any(uploads_only and r.origin != "upload" for r in naming):
            return  # an ingested file's receipt keeps its bytes
        for r in naming:
            conn.execute(delete(Receipt).where(Receipt.id == r.id))
        conn.execute(delete(Blob).where(Blob.id == blob_id))

    def delete_quarantined(self, quarantine_id: int) -> bool:
        """Delete a quarantined input and its bytes. False if there is none."""
        with self.engine.execution_options(write=True).begin() as conn:
            blob_id = conn.execute(select(Quarantined.blob_id).where(Quarantined.id == quarantine_id)).scalar()
            if blob_id is None:
                return False
            conn.execute(delete(Quarantined).where(Quarantined.id == quarantine_id))
            self._drop_blob(conn, blob_id, uploads_only=False)
        return True
