"""Analyses kept in the archive: computed the first time they are asked for, never twice.

A game module may offer an analysis (``GameModule.has_analysis``): a method
``analyse(replay) -> dict`` whose ``cards`` each have ``seat``, ``loss`` (what the move gave
away in the game's own unit, 0 for a best move) and ``step``, and an ``analysis_version``. :class:`Analyses` keeps
the answer in ``analyses`` (compressed like the blobs), keyed by :func:`analysis_key`, the
game's content (deal, rules and actions, not names, times or chat), so a game opened from its
replay code and the same game in the archive share one analysis. A stored analysis of another
version is computed again. ``analysis_seats`` keeps per seat the moves analysed, mistakes and
what they lost, and ``game_analyses`` which archived game has which analysis: the stats
(:meth:`Analyses.stats`) read those, never the stored JSON.

Nothing here runs at ingest (ingest speed is measured against judging alone): pages ask
lazily (``Archive.analysis``) and ``game-replay archive analyse`` fills the archive's games.
Requests for one game in one process wait for a single solve (a lock per key); across
processes the first stored answer stands (``_store`` never rewrites a current row).
"""

from __future__ import annotations

import hashlib
import json
import threading
from datetime import timedelta
from contextlib import AbstractContextManager, nullcontext
from typing import Any, Callable, Iterable

from sqlalchemy import Engine, and_, delete, func, insert, or_, select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError

from replay.errors import ReplayError
from replay.games import get as get_game, names as game_names
from replay.log import read_logs

from .blobs import BlobStore
from .models import AnalysisSeat, Blob, Game, GameAnalysisLink, GamePlayer, StoredAnalysis
from .records import MAX_DECOMPRESSED, ArchiveError, _now

#: log fields that do not change what is analysed (who played, when, how it was labelled)
NOT_CONTENT = ("game_id", "started_at", "players", "events", "end", "meta")
#: above this many names, ``stats(names=...)`` reads every row and keeps the names in Python
#: (bind parameters run out: SQLite allows 32,766 in one statement, psycopg 65,535)
MAX_NAME_PARAMETERS = 1000


def insert_new(engine_or_conn: Any, table: Any):
    """``INSERT ... ON CONFLICT DO NOTHING`` in the archive's dialect (SQLite or PostgreSQL)."""
    dialect_insert = postgresql_insert if engine_or_conn.dialect.name == "postgresql" else sqlite_insert
    return dialect_insert(table).on_conflict_do_nothing()


def analyser(game: str):
    """The registered game module ``game`` if it offers an analysis (``GameModule.has_analysis``),
    else None (a game the registry does not know included)."""
    if game not in game_names():
        return None
    module = get_game(game)
    return module if module.has_analysis else None


def analysed_games() -> list[str]:
    """The registered games that offer an analysis."""
    return [name for name in game_names() if analyser(name) is not None]


def analysis_key(log: Any, action_events: Iterable[str]) -> str:
    """SHA-256 of what an analysis depends on: the log without names, times, labels and the
    events that are not actions (chat, announcements). A game read from its replay
    code (which drops those) has the same key as its full log."""
    data = json.loads(log.canonical_json())
    actions = frozenset(action_events)
    content = {k: v for k, v in data.items() if k not in NOT_CONTENT}
    content["events"] = [{k: v for k, v in e.items() if k != "t"}
                         for e in data.get("events", []) if e.get("type") in actions]
    return hashlib.sha256(json.dumps(content, sort_keys=True, separators=(",", ":"),
                                     ensure_ascii=False).encode("utf-8")).hexdigest()


def seat_figures(analysis: dict[str, Any]) -> dict[str, dict[str, int]]:
    """Per seat: moves analysed (``cards``), mistakes (moves that lost anything) and what they lost."""
    out: dict[str, dict[str, int]] = {}
    for card in analysis.get("cards", []):
        entry = out.setdefault(str(card["seat"]), {"cards": 0, "mistakes": 0, "lost": 0})
        entry["cards"] += 1
        loss = max(0, int(card.get("loss") or 0))
        entry["mistakes"] += int(loss > 0)
        entry["lost"] += loss
    return out


class Analyses:
    """The ``analyses`` tables of one archive database."""

    def __init__(self, engine: Engine, blobs: BlobStore):
        self.engine = engine
        self.blobs = blobs
        self._locks: dict[str, list[Any]] = {}  # key -> [lock, holders and waiters]
        self._locks_guard = threading.Lock()

    # -- one game -----------------------------------------------------------------------------
    def get(self, log: Any, replay: Any = None, game_row_id: int | None = None,
            solve_slot: Callable[[], AbstractContextManager[Any]] | None = None) -> dict[str, Any] | None:
        """The analysis of a game (a parsed log; ``replay``, its judged game, if at hand):
        the stored one, else computed now and kept. None for a game with no analysis.
        ``game_row_id`` links an archived game to it (for the stats).

        Requests for the same game in this process wait for one solve (a lock per key; other
        processes may solve the same game once more, and the first stored answer stands).
        ``solve_slot()``, if given, is entered around the solving only (not the waiting, not a
        stored read): the viewer's global cap on concurrent solves, which may raise to refuse."""
        module = analyser(log_game(log))
        if module is None:
            return None
        key = analysis_key(log, module.action_events)
        version = str(module.analysis_version)
        found = self._read(key, version)
        if found is None:
            with self._key_lock(key):
                found = self._read(key, version)  # solved by the request we waited for
                if found is None:
                    with (solve_slot or nullcontext)():
                        if replay is None:
                            replay = module.judge(log)
                        found = module.analyse(replay)
                    self._store(key, module.name, version, found)
        if game_row_id is not None:
            self._link(game_row_id, key)
        return found

    def version(self, log: Any) -> str | None:
        """The current analysis version of this game's module, None for a game with no analysis."""
        module = analyser(log_game(log))
        return None if module is None else str(module.analysis_version)

    def _key_lock(self, key: str):
        """A lock for one analysis key, held while it is solved; dropped when nobody holds it."""
        with self._locks_guard:
            entry = self._locks.get(key)
            if entry is None:
                entry = self._locks[key] = [threading.Lock(), 0]
            entry[1] += 1
        return _KeyLock(self, key, entry)

    def stored(self, log: Any) -> bool:
        """Whether the analysis of this game (of the current version) is kept already."""
        module = analyser(log_game(log))
        if module is None:
            return False
        with self.engine.connect() as conn:
            return conn.execute(select(StoredAnalysis.key).where(
                StoredAnalysis.key == analysis_key(log, module.action_events),
                StoredAnalysis.version == str(module.analysis_version))).first() is not None

    def _read(self, key: str, version: str) -> dict[str, Any] | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(StoredAnalysis.data, StoredAnalysis.dictionary_id)
                               .where(StoredAnalysis.key == key, StoredAnalysis.version == version)).first()
        if row is None:
            return None
        return json.loads(self.blobs.read(row.data, row.dictionary_id))

    def _store(self, key: str, game: str, version: str, analysis: dict[str, Any]) -> bool:
        """Keep an analysis: inserted if the key is new, rewritten if the stored one is of another
        version, left alone if one of this version is there (the first stored answer stands).
        The per-seat figures are rewritten only with the row. Links to games are never touched
        here (they are keyed by content: a game's link holds across versions). Returns whether
        the row was written."""
        raw = json.dumps(analysis, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
        dict_id, data = self.blobs.compressor.compress(raw)
        figures = seat_figures(analysis)
        values = {"game": game, "version": version, "dictionary_id": dict_id, "data": data,
                  "cards": len(analysis.get("cards", [])), "created_at": _now()}
        with self.engine.execution_options(write=True).begin() as conn:
            # RETURNING, not rowcount (which psycopg does not give for ON CONFLICT DO NOTHING here)
            written = conn.execute(insert_new(conn, StoredAnalysis).values(key=key, **values)
                                   .returning(StoredAnalysis.key)).first() is not None
            if not written:  # there already: rewrite it only if it is of another version
                written = conn.execute(update(StoredAnalysis).where(
                    StoredAnalysis.key == key, StoredAnalysis.version != version).values(**values)
                    .returning(StoredAnalysis.key)).first() is not None
            if written:
                conn.execute(delete(AnalysisSeat).where(AnalysisSeat.key == key))
                if figures:
                    conn.execute(insert(AnalysisSeat), [{"key": key, "seat": seat, **f} for seat, f in figures.items()])
        return written

    def _link(self, game_row_id: int, key: str) -> None:
        """Link an archived game to its analysis. Checked on a read connection first: reading a
        stored analysis takes no write lock (SQLite's BEGIN IMMEDIATE) once the link is there."""
        with self.engine.connect() as conn:
            if conn.execute(select(GameAnalysisLink.key).where(GameAnalysisLink.game_id == game_row_id)).scalar() == key:
                return
        try:
            with self.engine.execution_options(write=True).begin() as conn:
                there = conn.execute(select(GameAnalysisLink.key).where(GameAnalysisLink.game_id == game_row_id)).scalar()
                if there == key:
                    return
                if there is not None:  # an analysis keyed otherwise (an older key scheme)
                    conn.execute(delete(GameAnalysisLink).where(GameAnalysisLink.game_id == game_row_id))
                conn.execute(insert_new(conn, GameAnalysisLink).values(game_id=game_row_id, key=key))
        except IntegrityError:  # the game was deleted meanwhile: nothing to link (the analysis stays)
            pass

    # -- every game ---------------------------------------------------------------------------
    def _pending_query(self):
        """Archived games whose game offers an analysis and that have none of its version."""
        versions = {name: str(analyser(name).analysis_version) for name in analysed_games()}
        if not versions:
            return None
        current = or_(*[and_(StoredAnalysis.game == name, StoredAnalysis.version == v) for name, v in versions.items()])
        done = (select(GameAnalysisLink.game_id).join(StoredAnalysis, StoredAnalysis.key == GameAnalysisLink.key)
                .where(current))
        return Game.game.in_(list(versions)), Game.id.not_in(done)

    def pending(self) -> int:
        """How many archived games have no analysis yet (of the current version)."""
        where = self._pending_query()
        if where is None:
            return 0
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(Game).where(*where)).scalar_one())

    def fill(self, limit: int | None = None, progress: Callable[[int, int, str, str | None], None] | None = None
             ) -> dict[str, int]:
        """Analyse archived games that have no analysis yet, oldest first (at most ``limit``).
        ``progress(done, total, row id, error)`` after each. Returns counts:
        ``analysed`` (solved now), ``shared`` (an analysis of the same game was there),
        ``failed`` (stored bytes that no longer read, or an analysis error: each is reported to
        ``progress`` and the rest go on), ``skipped`` (a game whose module offers no analysis),
        ``left``."""
        counts = {"analysed": 0, "shared": 0, "failed": 0, "skipped": 0, "left": 0}
        where = self._pending_query()
        if where is None:
            return counts
        with self.engine.connect() as conn:
            total = int(conn.execute(select(func.count()).select_from(Game).where(*where)).scalar_one())
        wanted = total if limit is None else min(limit, total)
        done = 0
        last = 0
        while done < wanted:
            with self.engine.connect() as conn:
                rows = conn.execute(
                    select(Game.id, Game.source, Blob.data, Blob.dictionary_id)
                    .join(Blob, Blob.id == Game.raw_blob_id)
                    .where(*where, Game.id > last).order_by(Game.id).limit(min(100, wanted - done))).all()
            if not rows:
                break
            for row in rows:
                last = row.id
                error = None
                try:
                    entries = read_logs(self.blobs.read(row.data, row.dictionary_id), row.source,
                                        max_decompressed=max(MAX_DECOMPRESSED, 64 << 20))
                    if len(entries) != 1 or entries[0].log is None:
                        raise ArchiveError("its stored bytes no longer read as one game")
                    log = entries[0].log
                    module = analyser(log_game(log))
                    if module is None:  # its module offers no analysis (any more): not a failure
                        counts["skipped"] += 1
                    else:
                        key = analysis_key(log, module.action_events)
                        had = self._read(key, str(module.analysis_version)) is not None
                        self.get(log, game_row_id=row.id)
                        counts["shared" if had else "analysed"] += 1
                except (ArchiveError, ReplayError, ValueError) as exc:
                    # a log that no longer reads or judges (ReplayError), a position the solver
                    # refuses (PositionError is a ReplayError): counted, and the next game goes on
                    counts["failed"] += 1
                    error = f"{type(exc).__name__}: {exc}"
                done += 1
                if progress is not None:
                    progress(done, wanted, str(row.id), error)
        counts["left"] = self.pending()
        return counts

    def drop_unlinked(self, older_than_days: float = 30) -> int:
        """Delete the analyses no archived game links to (games opened only from their replay
        codes) stored more than ``older_than_days`` ago; returns how many. They are computed
        again if anyone asks. ``game-replay archive drop-unlinked-analyses``."""
        if older_than_days < 0:
            raise ArchiveError(f"older_than_days must be 0 or more, not {older_than_days}")
        cutoff = _now() - timedelta(days=older_than_days)
        linked = select(GameAnalysisLink.key).where(GameAnalysisLink.key == StoredAnalysis.key).exists()
        with self.engine.execution_options(write=True).begin() as conn:
            # one statement: a game linked meanwhile keeps its analysis; the seats go by cascade
            gone = conn.execute(delete(StoredAnalysis).where(~linked, StoredAnalysis.created_at < cutoff)
                                .returning(StoredAnalysis.key)).all()
        return len(gone)

    # -- statistics ---------------------------------------------------------------------------
    def stats(self, by: str = "player", *, listed_only: bool = False, names: Iterable[str] | None = None,
              game: str | None = None) -> dict[str, dict[str, Any]]:
        """Per player (name) or bot: ``analysed_games``, ``cards``, ``mistakes``, ``lost``
        and ``lost_per_game`` over the archived games analysed with the current version (listed
        ones only with ``listed_only``; one game's with ``game``; only ``names``, if given)."""
        if by not in ("player", "bot"):
            raise ArchiveError(f"stats by must be 'player' or 'bot', not {by!r}")
        versions = {name: str(analyser(name).analysis_version) for name in analysed_games()
                    if game is None or name == game}
        if not versions:
            return {}
        key = GamePlayer.name if by == "player" else GamePlayer.bot
        current = or_(*[and_(StoredAnalysis.game == name, StoredAnalysis.version == v) for name, v in versions.items()])
        query = (
            select(key.label("key"), func.count(GameAnalysisLink.game_id.distinct()).label("games"),
                   func.sum(AnalysisSeat.cards).label("cards"), func.sum(AnalysisSeat.mistakes).label("mistakes"),
                   func.sum(AnalysisSeat.lost).label("lost"))
            .select_from(GameAnalysisLink)
            .join(StoredAnalysis, StoredAnalysis.key == GameAnalysisLink.key)
            .join(GamePlayer, GamePlayer.game_id == GameAnalysisLink.game_id)
            .join(AnalysisSeat, and_(AnalysisSeat.key == GameAnalysisLink.key, AnalysisSeat.seat == GamePlayer.seat))
            .where(current, key.is_not(None))
            .group_by(key)
        )
        if listed_only:
            query = query.join(Game, Game.id == GameAnalysisLink.game_id).where(Game.listed.is_(True))
        wanted: set[str] | None = None
        if names is not None:
            wanted = set(names)
            if not wanted:
                return {}
            if len(wanted) <= MAX_NAME_PARAMETERS:
                query = query.where(key.in_(sorted(wanted)))
                wanted = None  # the database kept only them
        out = {}
        with self.engine.connect() as conn:
            for row in conn.execute(query):
                if wanted is not None and row.key not in wanted:
                    continue
                games = int(row.games)
                out[row.key] = {"analysed_games": games, "cards": int(row.cards or 0),
                                "mistakes": int(row.mistakes or 0), "lost": int(row.lost or 0),
                                "lost_per_game": round(int(row.lost or 0) / games, 3) if games else None}
        return out


class _KeyLock:
    """Context manager over one key's lock (see ``Analyses._key_lock``)."""

    def __init__(self, owner: Analyses, key: str, entry: list[Any]):
        self.owner, self.key, self.entry = owner, key, entry

    def __enter__(self) -> None:
        self.entry[0].acquire()

    def __exit__(self, *exc: Any) -> None:
        self.entry[0].release()
        with self.owner._locks_guard:
            self.entry[1] -= 1
            if self.entry[1] == 0:
                self.owner._locks.pop(self.key, None)


def forget_analysis(conn, game_row_id: int) -> list[str]:
    """Unlink a game about to be deleted from its analysis; returns the analysis keys it had."""
    keys = list(conn.execute(select(GameAnalysisLink.key).where(GameAnalysisLink.game_id == game_row_id)).scalars())
    conn.execute(delete(GameAnalysisLink).where(GameAnalysisLink.game_id == game_row_id))
    return keys


def drop_orphan_analyses(conn, keys: Iterable[str]) -> None:
    """Delete the analyses no archived game links to any more: a deleted game's analysis holds
    its cards, so it goes with it (a copy opened by its code later is analysed again)."""
    for key in keys:
        if conn.execute(select(GameAnalysisLink.game_id).where(GameAnalysisLink.key == key).limit(1)).first() is None:
            conn.execute(delete(AnalysisSeat).where(AnalysisSeat.key == key))
            conn.execute(delete(StoredAnalysis).where(StoredAnalysis.key == key))


def log_game(log: Any) -> str:
    """The registry name of a parsed log's game (its ``format`` without the major: ``name/1`` -> ``name``)."""
    return str(getattr(log, "format", "") or "").split("/", 1)[0]
