"""Studies in the archive: a game with notes and what-if branches (``replay.study``), kept
revision by revision under a short public id, edited by whoever holds its owner token.

A study is created from a ``StudyGame`` (:meth:`Studies.create`), which hands out its public
id (its page is ``/s/<id>``) and an *owner token*, shown once: only its SHA-256 is kept, as
uploads keep their delete tokens. Every save (:meth:`Studies.save`) is a new revision, and
every revision stays readable (:meth:`Studies.get` with ``rev``). A save names the revision
it was edited from (``base_rev``); when that is no longer the latest, someone saved meanwhile
and the save is refused with :class:`StudyConflict` (the API's 409), storing nothing: the
row's revision is moved on by a conditional ``UPDATE ... WHERE rev = base``, so of two saves
made against the same revision exactly one wins, on SQLite and on PostgreSQL alike.

Study ids are hashids made with the archive's own salt from the pair (row id, 0), where a
game's id is made from its row id alone: a hashid decodes to exactly the numbers it was made
from, so a study's id never opens a game and a game's id never opens a study.

>>> from archive import Archive
>>> from replay.games import get
>>> from replay.study import StudyGame
>>> archive = Archive("sqlite://")
>>> studies = Studies(archive)
>>> study = StudyGame.new(get("uno-lite").selfplay(seed=3), title="A first look")
>>> created = studies.create(study)
>>> created.rev, created.url == "/s/" + created.id, len(created.owner_token) >= 32
(1, True, True)
>>> noted = study.with_note("main", 2, comment="*Keep* the colour", glyph="?!")
>>> studies.save(created.id, created.owner_token, 1, noted)
2
>>> studies.save(created.id, created.owner_token, 1, noted)
Traceback (most recent call last):
...
archive.studies.StudyConflict: revision 2 of this study was saved meanwhile: load it and make the change again
>>> stored = studies.get(created.id)
>>> stored.rev, stored.latest, stored.study.note("main", 2).glyph, studies.get(created.id, rev=1).study.notes("main")
(2, 2, '?!', {})
>>> archive.get(created.id) is None      # a study's id is not a game's
True
>>> studies.listing().total, studies.set_listed(created.id, created.owner_token, True), studies.listing().total
(0, None, 1)
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import Any

from hashids import Hashids
from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from replay.codec import decode as decode_code
from replay.errors import ReplayError
from replay.study import MAX_STUDY_BYTES, StudyGame

from .ids import MAX_ROW_ID
from .models import StudyRevision, StudyRow
from .records import Page, _now
from .store import Archive, ArchiveError
from .uploads import Uploads

TOKEN_BYTES = 24  # 32 URL-safe characters, 192 random bits
#: the second number of a study's hashid (a game's hashid has one number)
STUDY_TAG = 0
MAX_LISTING = 500
_STUDY = StudyRow.__table__


class StudyStoreError(ArchiveError):
    """A study that cannot be stored or changed as asked: the message says why."""


class StudyNotFound(StudyStoreError):
    """No study has that id (or that revision)."""


class StudyTokenError(StudyStoreError):
    """An owner token that is not this study's."""


class StudyTooLarge(StudyStoreError):
    """A study whose JSON is over ``replay.study.MAX_STUDY_BYTES``."""


class StudySourceError(StudyStoreError):
    """A game to study that cannot be found or read (a bad code, an unknown game id or upload)."""


class StudyConflict(StudyStoreError):
    """A save made against a revision that is no longer the latest (``latest`` is): nothing was stored."""

    def __init__(self, latest: int):
        super().__init__(f"revision {latest} of this study was saved meanwhile: load it and make the change again")
        self.latest = latest


def hash_token(token: str) -> str:
    """The SHA-256 (hex) of an owner token: all the archive keeps of it."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(frozen=True)
class CreatedStudy:
    """A new study: its public id, first revision and owner token (shown this once only)."""

    id: str
    rev: int
    owner_token: str

    @property
    def url(self) -> str:
        return f"/s/{self.id}"

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "rev": self.rev, "owner_token": self.owner_token, "url": self.url}


@dataclass(frozen=True)
class StudySummary:
    """A study as listings show it (its latest revision's title and counts)."""

    id: str
    title: str
    game: str
    rev: int
    listed: bool
    notes: int
    branches: int
    created_at: datetime
    updated_at: datetime

    @property
    def url(self) -> str:
        return f"/s/{self.id}"

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "title": self.title, "game": self.game, "rev": self.rev, "listed": self.listed,
                "notes": self.notes, "branches": self.branches, "created_at": self.created_at.isoformat(),
                "updated_at": self.updated_at.isoformat(), "url": self.url}


@dataclass(frozen=True)
class RevisionInfo:
    """One stored revision: its number, its JSON's size in bytes and when it was saved."""

    rev: int
    size: int
    created_at: datetime

    def to_json(self) -> dict[str, Any]:
        return {"rev": self.rev, "size": self.size, "created_at": self.created_at.isoformat()}


@dataclass
class StoredStudy:
    """One revision of a stored study. ``data`` is its ``study/1`` JSON as saved; ``study`` the
    same read and judged (on first use: a revision stays readable as JSON whatever happens to
    the rules since). ``rev`` is this revision, ``latest`` the study's newest."""

    id: str
    rev: int
    latest: int
    listed: bool
    title: str
    game: str
    created_at: datetime
    updated_at: datetime
    saved_at: datetime
    data: dict[str, Any] = field(repr=False)

    @cached_property
    def study(self) -> StudyGame:
        return StudyGame.load(self.data)

    @property
    def url(self) -> str:
        return f"/s/{self.id}" if self.rev == self.latest else f"/s/{self.id}/{self.rev}"

    def to_json(self) -> dict[str, Any]:
        """What ``GET /api/studies/<id>`` answers."""
        return {"id": self.id, "rev": self.rev, "latest": self.latest, "listed": self.listed, "study": self.data}


class StudyIds:
    """Public ids of studies: hashids of (row id, ``STUDY_TAG``) with the archive's salt.

    >>> from archive.ids import PublicIds
    >>> games = PublicIds("a salt")
    >>> studies = StudyIds(games)
    >>> studies.decode(studies.encode(42)), games.decode(studies.encode(42)), studies.decode(games.encode(42))
    (42, None, None)
    """

    def __init__(self, ids: Any):
        # the very hashids games' ids are made with (same salt and length), given two numbers
        self._hashids: Hashids = ids.hashids

    def encode(self, row_id: int) -> str:
        return self._hashids.encode(row_id, STUDY_TAG)

    def decode(self, public_id: str) -> int | None:
        """The row id, or None for anything that is not exactly a study id of this archive."""
        if not isinstance(public_id, str) or not 0 < len(public_id) <= 64 or not public_id.isalnum() \
                or not public_id.isascii():
            return None
        try:
            numbers = self._hashids.decode(public_id)
        except Exception:  # hashids raises bare errors on some malformed input
            return None
        if len(numbers) != 2 or numbers[1] != STUDY_TAG or not 0 < numbers[0] <= MAX_ROW_ID \
                or self._hashids.encode(*numbers) != public_id:
            return None
        return numbers[0]


def first_move(study: StudyGame, line_id: str) -> str:
    """Words for a branch's first move (``GameModule.move_text`` at its branch point); "" for ``main``.

    >>> from replay.games import get
    >>> study = StudyGame.new(get("uno-lite").selfplay(seed=3))
    >>> move = study.moves("main", 4)[0]
    >>> branched, line = study.with_branch("main", 4, [move.event])
    >>> first_move(branched, line) == move.text, first_move(branched, "main")
    (True, '')
    """
    line = study.line(line_id)
    if line.parent is None:
        return ""
    parent = study.line(line.parent)
    event = line.log.events[parent.cuts[line.at]]
    return study.game.move_text(study.position(line.parent, line.at), event)


def _serialise(study: StudyGame) -> tuple[bytes, dict[str, Any]]:
    """A study's JSON as stored (compact, keys sorted), checked against the size limit."""
    data = study.to_json()
    try:
        raw = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode("utf-8")
    except UnicodeEncodeError:
        raise StudyStoreError("the study holds text that is not valid Unicode (a lone surrogate)") from None
    if len(raw) > MAX_STUDY_BYTES:
        raise StudyTooLarge(f"the study is {len(raw):,} bytes as JSON; at most {MAX_STUDY_BYTES:,} may be stored")
    return raw, data


def _as_study(study: "StudyGame | dict[str, Any] | str | bytes") -> StudyGame:
    return study if isinstance(study, StudyGame) else StudyGame.load(study)


def _rev_number(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise StudyStoreError(f"{what} must be a revision number (1 or more), not {str(value)[:20]!r}")
    return value


class Studies:
    """Studies kept in an :class:`~archive.store.Archive`'s database."""

    def __init__(self, archive: Archive):
        self.archive = archive
        self.engine = archive.engine
        self.ids = StudyIds(archive.ids)

    # -- the game to study --------------------------------------------------------------------
    def from_source(self, kind: str, ref: str, title: str = "", listed_only: bool = True) -> StudyGame:
        """A new study (nothing said yet) of a game: ``kind`` ``code`` (a replay code or link),
        ``game`` (an archived game's public id; with ``listed_only``, a listed game's only) or
        ``upload`` (an upload's token, not kept in the study). ``StudySourceError`` if there is
        no such game; ``replay.study.StudyError`` if its log cannot make a study."""
        if not isinstance(ref, str) or not ref.strip():
            raise StudySourceError(f"a study of a {kind} needs its reference (a code, an id or a token)")
        ref = ref.strip()
        if kind == "code":
            try:
                log = decode_code(ref)
            except ReplayError as exc:
                raise StudySourceError(f"not a replay code: {exc}") from None
            return StudyGame.new(log, title, {"kind": "code", "ref": ref})
        if kind == "game":
            game = self.archive.get(ref)
            if game is None or (listed_only and not game.listed):
                raise StudySourceError(f"there is no game {ref[:40]!r} in this archive")
            return StudyGame.new(game.log, title, {"kind": "game", "ref": ref})
        if kind == "upload":
            upload = Uploads(self.archive).by_token(ref)
            if upload is None:
                raise StudySourceError("there is no upload with that token")
            return StudyGame.new(upload.log, title, {"kind": "upload", "ref": None})
        raise StudySourceError(f"a study's game comes from a code, a game or an upload, not {str(kind)[:20]!r}")

    # -- writing ------------------------------------------------------------------------------
    def create(self, study: "StudyGame | dict[str, Any] | str | bytes", listed: bool = False) -> CreatedStudy:
        """Store a new study (revision 1); its owner token is in the answer and nowhere else."""
        study = _as_study(study)
        raw, data = _serialise(study)
        dictionary_id, compressed = self.archive.compressor.compress(raw)
        token = secrets.token_urlsafe(TOKEN_BYTES)
        now = _now()
        with self.engine.execution_options(write=True).begin() as conn:
            row_id = conn.execute(insert(StudyRow).values(
                game=study.game.name, title=data["title"], listed=bool(listed), owner_token_hash=hash_token(token),
                rev=1, created_at=now, updated_at=now, notes=len(data["notes"]), branches=len(data["branches"]),
            )).inserted_primary_key[0]
            conn.execute(insert(StudyRevision).values(study_id=row_id, rev=1, dictionary_id=dictionary_id,
                                                      data=compressed, size=len(raw), created_at=now))
        return CreatedStudy(self.ids.encode(row_id), 1, token)

    def save(self, public_id: str, owner_token: str, base_rev: int,
             study: "StudyGame | dict[str, Any] | str | bytes") -> int:
        """Store ``study`` as the next revision, edited from revision ``base_rev``; returns the
        new revision's number. ``StudyConflict`` (nothing stored) when ``base_rev`` is not the
        latest; ``StudyTokenError`` for a token that is not the owner's; ``StudyNotFound``;
        ``StudyStoreError`` for a study of another game than the stored one's."""
        row_id = self._row_id(public_id)
        base_rev = _rev_number(base_rev, "base")
        study = _as_study(study)
        raw, data = _serialise(study)
        dictionary_id, compressed = self.archive.compressor.compress(raw)
        now = _now()
        new_rev = base_rev + 1
        try:
            with self.engine.execution_options(write=True).begin() as conn:
                row = self._owned(conn, row_id, owner_token)
                if row.rev != base_rev:
                    raise StudyConflict(row.rev)
                if row.game != study.game.name:
                    raise StudyStoreError(f"this is a study of a {row.game} game; a save cannot make it one of "
                                          f"a {study.game.name} game (create a new study)")
                # the guard: of two saves from the same revision, the second finds rev moved on
                # (PostgreSQL re-reads the row once the first commits; SQLite's writers take turns)
                moved = conn.execute(update(StudyRow).where(StudyRow.id == row_id, StudyRow.rev == base_rev).values(
                    rev=new_rev, title=data["title"], updated_at=now, notes=len(data["notes"]),
                    branches=len(data["branches"])))
                if moved.rowcount != 1:
                    latest = conn.execute(select(StudyRow.rev).where(StudyRow.id == row_id)).scalar()
                    if latest is None:
                        raise StudyNotFound(f"there is no study {public_id!r} (it was deleted meanwhile)")
                    raise StudyConflict(latest)
                conn.execute(insert(StudyRevision).values(study_id=row_id, rev=new_rev, dictionary_id=dictionary_id,
                                                          data=compressed, size=len(raw), created_at=now))
        except IntegrityError:  # a revision of that number is there already: another save won
            latest = self._latest(row_id)
            if latest is None:
                raise StudyNotFound(f"there is no study {public_id!r} (it was deleted meanwhile)") from None
            raise StudyConflict(latest) from None
        return new_rev

    def set_listed(self, public_id: str, owner_token: str, listed: bool) -> None:
        """List the study publicly, or keep it unlisted (its page still opens by its id)."""
        row_id = self._row_id(public_id)
        with self.engine.execution_options(write=True).begin() as conn:
            self._owned(conn, row_id, owner_token)
            conn.execute(update(StudyRow).where(StudyRow.id == row_id).values(listed=bool(listed)))

    def delete(self, public_id: str, owner_token: str) -> None:
        """Delete the study and every revision of it."""
        row_id = self._row_id(public_id)
        with self.engine.execution_options(write=True).begin() as conn:
            self._owned(conn, row_id, owner_token)
            conn.execute(delete(StudyRevision).where(StudyRevision.study_id == row_id))
            conn.execute(delete(StudyRow).where(StudyRow.id == row_id))

    def remove(self, public_id: str) -> bool:
        """Delete any study and its revisions, without its token (for an admin). False if there is none."""
        row_id = self.ids.decode(public_id)
        if row_id is None:
            return False
        with self.engine.execution_options(write=True).begin() as conn:
            conn.execute(delete(StudyRevision).where(StudyRevision.study_id == row_id))
            return conn.execute(delete(StudyRow).where(StudyRow.id == row_id)).rowcount == 1

    def _row_id(self, public_id: str) -> int:
        row_id = self.ids.decode(public_id)
        if row_id is None:
            raise StudyNotFound(f"there is no study {str(public_id)[:40]!r}")
        return row_id

    def _owned(self, conn: Any, row_id: int, owner_token: str) -> Any:
        """The study's row, once the token is found to be its owner's."""
        row = conn.execute(select(StudyRow.rev, StudyRow.game, StudyRow.owner_token_hash)
                           .where(StudyRow.id == row_id)).first()
        if row is None:
            raise StudyNotFound(f"there is no study {self.ids.encode(row_id)!r}")
        if not isinstance(owner_token, str) or not hmac.compare_digest(row.owner_token_hash, hash_token(owner_token)):
            raise StudyTokenError("that owner token does not belong to this study")
        return row

    def is_owner(self, public_id: str, owner_token: str) -> bool:
        """Whether ``owner_token`` is the owner's of the study (False for no such study): a
        cheap check a save makes before judging what it was sent."""
        row_id = self.ids.decode(public_id)
        if row_id is None:
            return False
        try:
            with self.engine.connect() as conn:
                self._owned(conn, row_id, owner_token)
        except (StudyNotFound, StudyTokenError):
            return False
        return True

    def _latest(self, row_id: int) -> int | None:
        with self.engine.connect() as conn:
            return conn.execute(select(StudyRow.rev).where(StudyRow.id == row_id)).scalar()

    # -- reading ------------------------------------------------------------------------------
    def get(self, public_id: str, rev: int | None = None) -> StoredStudy | None:
        """A revision of a study (default: the latest), or None when there is no such study or revision."""
        row_id = self.ids.decode(public_id)
        if row_id is None or (rev is not None and (isinstance(rev, bool) or not isinstance(rev, int) or rev < 1)):
            return None
        with self.engine.connect() as conn:
            row = conn.execute(select(_STUDY).where(StudyRow.id == row_id)).first()
            if row is None or (rev is not None and rev > row.rev):
                return None
            wanted = row.rev if rev is None else rev
            found = conn.execute(select(StudyRevision.data, StudyRevision.dictionary_id, StudyRevision.created_at)
                                 .where(StudyRevision.study_id == row_id, StudyRevision.rev == wanted)).first()
        if found is None:
            return None
        data = json.loads(self.archive.blobs.read(found.data, found.dictionary_id))
        return StoredStudy(public_id, wanted, row.rev, bool(row.listed), data.get("title", ""), row.game,
                           row.created_at, row.updated_at, found.created_at, data)

    def revisions(self, public_id: str) -> list[RevisionInfo] | None:
        """Every revision of a study, oldest first (None: no such study)."""
        row_id = self.ids.decode(public_id)
        if row_id is None:
            return None
        with self.engine.connect() as conn:
            rows = conn.execute(select(StudyRevision.rev, StudyRevision.size, StudyRevision.created_at)
                                .where(StudyRevision.study_id == row_id).order_by(StudyRevision.rev)).all()
        return [RevisionInfo(r.rev, r.size, r.created_at) for r in rows] or None

    def summary(self, public_id: str) -> StudySummary | None:
        """A study's listing fields (its latest revision's), without reading any revision."""
        row_id = self.ids.decode(public_id)
        if row_id is None:
            return None
        with self.engine.connect() as conn:
            row = conn.execute(select(_STUDY).where(StudyRow.id == row_id)).first()
        return None if row is None else self._summary(row)

    def listing(self, game: str | None = None, limit: int = 50, offset: int = 0) -> Page:
        """Listed studies (of one ``game``, by its registry name, if given), latest saved first."""
        if isinstance(limit, bool) or not isinstance(limit, int) or not 0 <= limit <= MAX_LISTING:
            raise StudyStoreError(f"limit must be 0-{MAX_LISTING}, not {str(limit)[:20]!r}")
        if isinstance(offset, bool) or not isinstance(offset, int) or offset < 0:
            raise StudyStoreError(f"offset must be 0 or more, not {str(offset)[:20]!r}")
        where = [StudyRow.listed.is_(True)]
        if game is not None:
            where.append(StudyRow.game == game)
        with self.engine.connect() as conn:
            total = conn.execute(select(func.count()).select_from(StudyRow).where(*where)).scalar_one()
            if offset >= total:  # (an offset past any database's integers asks for nothing either)
                return Page([], total)
            rows = conn.execute(select(_STUDY).where(*where)
                                .order_by(StudyRow.updated_at.desc(), StudyRow.id.desc())
                                .limit(limit).offset(offset)).all()
        return Page([self._summary(row) for row in rows], total)

    def _summary(self, row: Any) -> StudySummary:
        return StudySummary(self.ids.encode(row.id), row.title, row.game, row.rev, bool(row.listed), row.notes,
                            row.branches, row.created_at, row.updated_at)
