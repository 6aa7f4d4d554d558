"""Uploads: unlisted games behind unguessable tokens, made public or deleted by their uploader.

An uploaded game is stored like any other (``Archive.ingest_bytes(..., origin="upload",
listed=False)``), then given two random secrets: an *upload token* (its page is
``/u/<token>``; unlike a hashids public id it cannot be worked out from a row number) and a
*delete token*, of which only a SHA-256 hash is kept. Whoever holds the delete token can make
the game public (it then also shows under its public id and in lists) or delete it.

>>> from archive import Archive
>>> from replay.games.floating_bridge.bots import play_game
>>> uploads = Uploads(Archive("sqlite://"))
>>> [outcome] = uploads.ingest(play_game(seed=1).canonical_json().encode(), "game.json")
>>> outcome.status, outcome.listed, len(outcome.token) >= 32
('stored', False, True)
>>> uploads.by_token(outcome.token).listed, outcome.public_id is None
(False, True)
>>> uploads.delete(outcome.token, "wrong")
False
>>> uploads.delete(outcome.token, outcome.delete_token), uploads.by_token(outcome.token)
(True, None)

Also here, for the viewer's admin and stats pages: deleting any game or quarantined input
(:meth:`Uploads.delete_game`, :meth:`Uploads.delete_quarantined`) and per-player statistics
over listed games only (:meth:`Uploads.listed_stats`).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from dataclasses import asdict, dataclass
from typing import Any

from sqlalchemy import select, update

from .models import Blob, Game, GamePlayer
from .summaries import think_list
from .store import DUPLICATE, STORED, STORED_WITH_FINDINGS, Archive, ArchivedGame, ArchiveError

TOKEN_BYTES = 24  # 32 URL-safe characters, 192 random bits


class UploadTokenError(ArchiveError):
    """A token that is not one this archive handed out, or a delete token that does not match."""


@dataclass(slots=True)
class UploadOutcome:
    """What became of one uploaded game.

    ``status`` is ``stored``, ``stored_with_findings``, ``duplicate`` or ``refused``.
    ``token`` opens the game (``/u/<token>``) when it is unlisted; ``delete_token`` is set only
    for a game this upload stored (it is never shown again); ``public_id`` is set when the game
    is listed (a duplicate of a public game, or one made public).
    """

    source: str
    status: str
    findings: int = 0
    public_id: str | None = None
    listed: bool = False
    token: str | None = None
    delete_token: str | None = None
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def looks_like_token(token: str) -> bool:
    return (isinstance(token, str) and 20 <= len(token) <= 64
            and token.replace("-", "").replace("_", "").isalnum() and token.isascii())


class Uploads:
    """Upload-specific operations on an :class:`~archive.store.Archive`."""

    def __init__(self, archive: Archive):
        self.archive = archive
        self.engine = archive.engine

    # -- ingest --------------------------------------------------------------------------------
    def ingest(self, data: bytes, source: str) -> list[UploadOutcome]:
        """Store every game in ``data`` as an unlisted upload; see :class:`UploadOutcome`.

        Callers refuse unreadable input before this (the archive would quarantine it).
        """
        outcomes = []
        for result in self.archive.ingest_bytes(data, source, origin="upload", listed=False):
            outcomes.append(self._outcome(result))
        return outcomes

    def _outcome(self, result) -> UploadOutcome:
        if result.status in (STORED, STORED_WITH_FINDINGS) and result.public_id:
            row_id = self.archive.ids.decode(result.public_id)
            token, delete_token = secrets.token_urlsafe(TOKEN_BYTES), secrets.token_urlsafe(TOKEN_BYTES)
            with self.engine.execution_options(write=True).begin() as conn:
                done = conn.execute(update(Game).where(Game.id == row_id, Game.upload_token.is_(None))
                                    .values(upload_token=token, delete_token_hash=hash_token(delete_token)))
                if done.rowcount == 1:
                    return UploadOutcome(result.source, result.status, result.findings, token=token,
                                         delete_token=delete_token)
            # another request already holds this game (a race on the same bytes): a duplicate
            result.status = DUPLICATE
        if result.status == DUPLICATE and result.public_id:
            row_id = self.archive.ids.decode(result.public_id)
            with self.engine.connect() as conn:
                row = conn.execute(select(Game.listed, Game.upload_token).where(Game.id == row_id)).first()
            if row is None:
                return UploadOutcome(result.source, "refused", error="the game was deleted while it was uploaded")
            if row.listed:
                return UploadOutcome(result.source, DUPLICATE, result.findings, public_id=result.public_id,
                                     listed=True)
            token = row.upload_token or self._give_token(row_id)
            # whoever has the same game may open it, but only its first uploader may delete it
            return UploadOutcome(result.source, DUPLICATE, result.findings, token=token)
        return UploadOutcome(result.source, "refused", error=result.error or f"not stored ({result.status})")

    def _give_token(self, row_id: int) -> str:
        """A view token for an unlisted game that has none (ingested unlisted by other means)."""
        token = secrets.token_urlsafe(TOKEN_BYTES)
        with self.engine.execution_options(write=True).begin() as conn:
            conn.execute(update(Game).where(Game.id == row_id, Game.upload_token.is_(None))
                         .values(upload_token=token))
            return conn.execute(select(Game.upload_token).where(Game.id == row_id)).scalar_one()

    # -- reading -------------------------------------------------------------------------------
    def _row_by_token(self, token: str):
        if not looks_like_token(token):
            return None
        with self.engine.connect() as conn:
            return conn.execute(select(Game.id, Game.listed, Game.delete_token_hash)
                                .where(Game.upload_token == token)).first()

    def by_token(self, token: str) -> ArchivedGame | None:
        """The game behind an upload token, or None."""
        row = self._row_by_token(token)
        if row is None:
            return None
        return self.archive.get(self.archive.ids.encode(row.id))

    def is_listed(self, public_id: str) -> bool | None:
        """Whether the game with this public id is listed (None: no such game)."""
        row_id = self.archive.ids.decode(public_id)
        if row_id is None:
            return None
        with self.engine.connect() as conn:
            found = conn.execute(select(Game.listed).where(Game.id == row_id)).first()
        return None if found is None else bool(found.listed)

    # -- the uploader's actions ----------------------------------------------------------------
    def _check(self, token: str, delete_token: str):
        row = self._row_by_token(token)
        if row is None:
            raise UploadTokenError("there is no upload with that token")
        if not row.delete_token_hash or not isinstance(delete_token, str) or not hmac.compare_digest(
                row.delete_token_hash, hash_token(delete_token)):
            raise UploadTokenError("that delete token does not belong to this upload")
        return row

    def publish(self, token: str, delete_token: str) -> str:
        """Make an upload public; returns its public id. ``UploadTokenError`` for wrong tokens."""
        row = self._check(token, delete_token)
        self.archive.admin.set_listed(row.id, True)
        return self.archive.ids.encode(row.id)

    def delete(self, token: str, delete_token: str) -> bool:
        """Delete an upload (game and bytes). False, changing nothing, when a token is wrong."""
        try:
            row = self._check(token, delete_token)
        except UploadTokenError:
            return False
        return self._delete_row(row.id)

    # -- admin ---------------------------------------------------------------------------------
    def delete_game(self, public_id: str) -> bool:
        """Delete any game by public id (for an admin). False if there is none."""
        row_id = self.archive.ids.decode(public_id)
        return row_id is not None and self._delete_row(row_id)

    def _delete_row(self, row_id: int) -> bool:
        return self.archive.admin.delete_row(row_id, uploads_only=True)

    def delete_quarantined(self, quarantine_id: int) -> bool:
        """Delete a quarantined input and its bytes (for an admin). False if there is none."""
        return self.archive.admin.delete_quarantined(quarantine_id)

    # -- statistics ----------------------------------------------------------------------------
    def listed_stats(self, by: str = "player", name: str | None = None, limit: int = 200,
                     game: str | None = None) -> list[dict[str, Any]]:
        """``Archive.stats`` over listed games only (of one ``game``, if given), each row keyed by ``name``."""
        rows = self.archive.stats(by, listed_only=True, name=name, limit=limit, game=game)
        for row in rows:
            row["name"] = row.pop(by)
        return rows

    def seat_games(self, by: str, name: str, limit: int = 300, game: str | None = None) -> list[tuple[int, str]]:
        """``(row id, seat)`` of the latest listed games (of one ``game``, if given) where
        ``name`` (player or bot) sat."""
        column = GamePlayer.name_lc if by == "player" else GamePlayer.bot_lc
        where = [column == name.strip().lower(), Game.listed.is_(True)]
        if game:
            where.append(Game.game == game)
        with self.engine.connect() as conn:
            rows = conn.execute(select(GamePlayer.game_id, GamePlayer.seat)
                                .join(Game, Game.id == GamePlayer.game_id)
                                .where(*where).order_by(Game.id.desc()).limit(limit)).all()
        return [(r.game_id, r.seat) for r in rows]

    def seat_think_times(self, by: str, name: str, limit: int = 300, game: str | None = None
                         ) -> list[tuple[int, str, list[int] | None]]:
        """``(row id, seat, think times in ms)`` of the latest listed games (of one ``game``, if
        given) where ``name`` (player or bot) sat, from ``game_players.think_ms`` (kept at
        ingest); the times are None for a row stored before that column (revision 0006)."""
        column = GamePlayer.name_lc if by == "player" else GamePlayer.bot_lc
        where = [column == name.strip().lower(), Game.listed.is_(True)]
        if game:
            where.append(Game.game == game)
        with self.engine.connect() as conn:
            rows = conn.execute(select(GamePlayer.game_id, GamePlayer.seat, GamePlayer.think_ms)
                                .join(Game, Game.id == GamePlayer.game_id)
                                .where(*where).order_by(GamePlayer.game_id.desc()).limit(limit)).all()
        return [(r.game_id, r.seat, None if r.think_ms is None else think_list(r.think_ms)) for r in rows]

    def raw_by_row(self, row_id: int) -> bytes | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(Blob.data, Blob.dictionary_id).join(Game, Game.raw_blob_id == Blob.id)
                               .where(Game.id == row_id)).first()
        return None if row is None else self.archive.blobs.read(row.data, row.dictionary_id)
