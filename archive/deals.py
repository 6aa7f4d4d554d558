"""Duplicate deals in the archive: the tables of one deal, and leaderboards on duplicated deals.

A game with deals (``GameModule.has_deals``) fingerprints each game's deal
(``GameModule.deal_key``: the cards as dealt and who starts) and scores each seat on the game's
standard scale (``GameModule.deal_scores``, in ``GameModule.deal_unit``). Ingest keeps both on
the game's rows: ``games.deal_key`` and ``game_players.deal_score`` (migration 0015). Archives
made before that fill them with ``game-replay archive fill-deals`` (``Deals.fill``).

What this module answers (``Archive`` hands each on):

- ``deal_key_of(row_id)``: a game's deal key, or None;
- ``deal_tables(key)``: every stored game of a deal, oldest first, each seat's result and its
  duplicate score (``replay.duplicate``: the result minus the mean of that seat over the
  deal's tables that have a result);
- ``duplicate_leaderboard(game)``: ``replay.duplicate.leaderboard`` of the game's stored tables,
  by bot (as the ratings name it: name and version) or by player name, in one query.

Two indexes serve them: ``ix_games_deal_key`` (deal_key, id) finds every table of a key, and
``ix_games_game_deal_key`` (game, deal_key, id) the tables of one game that have a key. Both leave
out games without a key (partial indexes), so they cost nothing for games without deals.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from sqlalchemy import Engine, func, select, update

from replay import duplicate
from replay.games import get as get_game, names as game_names
from replay.log import read_logs

from .ids import PublicIds
from .models import Blob, Game, GamePlayer
from .records import MAX_DECOMPRESSED, _aware, _seat_name

BY = ("bot", "player")
#: games re-judged per transaction by ``Deals.fill``
FILL_BATCH = 200


def module_for(name: str) -> Any:
    """The registered game module called ``name``, or None."""
    try:
        return get_game(name) if name in game_names() else None
    except Exception:
        return None


def deal_fields(module: Any, replay: Any) -> tuple[str | None, dict[str, float] | None]:
    """``(deal key, per-seat scores)`` of a judged game, as ingest stores them: the key from
    ``module.deal_key(replay.log)`` (a game with a fatal finding may still have one), the scores
    from ``module.deal_scores(replay)``; ``(None, None)`` for a game without deals. A hook that
    fails, or answers something that is not a key, stores nothing rather than failing the
    ingest."""
    if module is None or not getattr(module, "has_deals", False):
        return None, None
    try:
        key = module.deal_key(replay.log)
    except Exception:
        key = None
    if not (isinstance(key, str) and duplicate.is_key(key)):
        key = None
    try:
        raw = module.deal_scores(replay)
        scores = None if raw is None else {_seat_name(seat): float(value) for seat, value in raw.items()}
    except Exception:
        scores = None
    return key, scores


@dataclass
class FillResult:
    """What ``Deals.fill`` did: games looked at, games that got a key, seats that got a score."""

    looked: int = 0
    keyed: int = 0
    scored: int = 0

    def to_json(self) -> dict[str, int]:
        return {"looked": self.looked, "keyed": self.keyed, "scored": self.scored}


class Deals:
    """The archive's duplicate-deal queries (``Archive.deals``)."""

    def __init__(self, engine: Engine, ids: PublicIds, blobs: Any):
        self.engine = engine
        self.ids = ids
        self.blobs = blobs

    # -- one game, one deal --------------------------------------------------------------------
    def deal_key_of(self, row_id: int) -> str | None:
        """The deal key of the game with row id ``row_id`` (None: no such game, or no key)."""
        with self.engine.connect() as conn:
            return conn.execute(select(Game.deal_key).where(Game.id == row_id)).scalar()

    def deal_tables(self, key: str, listed_only: bool = True, limit: int | None = 200) -> list[dict[str, Any]]:
        """Every stored game whose deal key is ``key``, oldest first (by start time, then row
        id; games without a start time first), at most ``limit``. Each is a dict:

        ``row_id``, ``public_id`` (the id pages link), ``game``, ``started_at`` (aware UTC or
        None), ``end_reason``, ``findings`` (count), ``finding_kinds`` (list), ``listed``, and
        ``seats``: per seat in table order ``{"seat", "name", "bot", "won", "score",
        "duplicate"}`` where ``score`` is the seat's result (``deal_scores``; None without one)
        and ``duplicate`` the score minus the mean of that seat over every table of the deal
        with a score (listed ones only with ``listed_only``), None without a score.
        A ``key`` that is not shaped like a deal key gives ``[]``."""
        if not isinstance(key, str) or not duplicate.is_key(key):
            return []
        listed = (Game.listed.is_(True),) if listed_only else ()
        with self.engine.connect() as conn:
            query = (select(Game.id, Game.game, Game.started_at, Game.end_reason, Game.findings, Game.finding_kinds,
                            Game.listed)
                     .where(Game.deal_key == key, *listed)
                     .order_by(Game.started_at.is_not(None), Game.started_at, Game.id))
            if limit is not None:
                query = query.limit(limit)
            games = conn.execute(query).all()
            if not games:
                return []
            ids = [g.id for g in games]
            seats: dict[int, dict[str, Any]] = {}
            for row in conn.execute(select(GamePlayer.game_id, GamePlayer.seat, GamePlayer.name, GamePlayer.bot,
                                           GamePlayer.won, GamePlayer.deal_score)
                                    .where(GamePlayer.game_id.in_(ids))):
                seats.setdefault(row.game_id, {})[row.seat] = row
            means = dict(conn.execute(
                select(GamePlayer.seat, func.avg(GamePlayer.deal_score))
                .join(Game, Game.id == GamePlayer.game_id)
                .where(Game.deal_key == key, GamePlayer.deal_score.is_not(None), *listed)
                .group_by(GamePlayer.seat)).all())
        out = []
        for g in games:
            rows = seats.get(g.id, {})
            order = _seat_order(g.game, rows)
            table = []
            for seat in order:
                row = rows.get(seat)
                score = None if row is None or row.deal_score is None else float(row.deal_score)
                mean = means.get(seat)
                table.append({
                    "seat": seat, "name": None if row is None else row.name, "bot": None if row is None else row.bot,
                    "won": None if row is None else row.won, "score": score,
                    "duplicate": None if score is None or mean is None else score - float(mean),
                })
            out.append({
                "row_id": g.id, "public_id": self.ids.encode(g.id), "game": g.game, "started_at": _aware(g.started_at),
                "end_reason": g.end_reason, "findings": g.findings,
                "finding_kinds": [k for k in (g.finding_kinds or "").split(",") if k], "listed": bool(g.listed),
                "seats": table,
            })
        return out

    # -- leaderboards --------------------------------------------------------------------------
    def tables(self, game: str, by: str = "bot", listed_only: bool = True) -> list[duplicate.Table]:
        """The stored games of ``game`` that have a deal key and a score, as
        ``replay.duplicate.Table`` rows deal by deal (by key, then row id): ``deal`` the key, ``bots`` each seat's
        bot as stored (``by="bot"``; seats without a bot left out) or player name
        (``by="player"``), ``scores`` each seat's ``deal_score``, ``ref`` the row id. One query."""
        if by not in BY:
            raise ValueError(f"by must be one of {', '.join(BY)}")
        who = GamePlayer.bot if by == "bot" else GamePlayer.name
        listed = (Game.listed.is_(True),) if listed_only else ()
        query = (select(Game.id, Game.deal_key, GamePlayer.seat, who.label("who"), GamePlayer.deal_score)
                 .join(GamePlayer, GamePlayer.game_id == Game.id)
                 .where(Game.game == game, Game.deal_key.is_not(None), GamePlayer.deal_score.is_not(None), *listed)
                 .order_by(Game.deal_key, Game.id))  # the index's order: no sort
        tables: list[duplicate.Table] = []
        current: int | None = None
        bots: dict[str, str] = {}
        scores: dict[str, float] = {}
        deal = ""
        with self.engine.connect() as conn:
            for row in conn.execute(query):
                if row.id != current:
                    if current is not None:
                        tables.append(duplicate.Table(deal, bots, scores, current))
                    current, deal, bots, scores = row.id, row.deal_key, {}, {}
                scores[row.seat] = float(row.deal_score)
                if row.who is not None:
                    bots[row.seat] = row.who
        if current is not None:
            tables.append(duplicate.Table(deal, bots, scores, current))
        return tables

    def duplicate_leaderboard(self, game: str, by: str = "bot", listed_only: bool = True) -> duplicate.Leaderboard:
        """``replay.duplicate.leaderboard`` of ``tables(game, by, listed_only)`` in the game's
        ``deal_unit`` ("points" if it names none): each bot's (or player's) plain and
        duplicate score with 95% intervals; ``deals``, ``tables`` and ``duplicated_deals`` say
        what it rests on (no duplicated deals: every duplicate interval has ``n == 0``)."""
        module = module_for(game)
        unit = getattr(module, "deal_unit", None) or "points"
        return duplicate.leaderboard(self.tables(game, by, listed_only), unit=unit)

    def duplicated_games(self, listed_only: bool = True) -> dict[str, int]:
        """Per game, how many of its deals were stored at two tables or more (games with none left
        out): for the stats pages to decide whether to show duplicate scores. One query."""
        listed = (Game.listed.is_(True),) if listed_only else ()
        per_key = (select(Game.game, Game.deal_key).where(Game.deal_key.is_not(None), *listed)
                   .group_by(Game.game, Game.deal_key).having(func.count() > 1).subquery())
        with self.engine.connect() as conn:
            return dict(conn.execute(select(per_key.c.game, func.count()).group_by(per_key.c.game)).all())

    # -- backfill ------------------------------------------------------------------------------
    def pending(self, games: Iterable[str] | None = None) -> int:
        """How many stored games of games with deals have no deal key (what ``fill`` looks at)."""
        names = self._deal_games(games)
        if not names:
            return 0
        with self.engine.connect() as conn:
            return conn.execute(select(func.count()).select_from(Game)
                                .where(Game.deal_key.is_(None), Game.game.in_(names))).scalar_one()

    def fill(self, batch: int = FILL_BATCH, progress: Callable[[int], None] | None = None,
             games: Iterable[str] | None = None) -> FillResult:
        """Judge again the stored games of games with deals (``has_deals``) whose deal key is
        NULL (stored before migration 0015) and store their key and seat scores. Idempotent: a
        game that gets no key (its log does not tell the whole deal) is looked at again by the
        next run, and changes nothing (its scores would count nowhere: every query of deals
        needs a key). ``progress(n)`` is called after each game with how many
        were looked at since the last call."""
        result = FillResult()
        names = self._deal_games(games)
        if not names:
            return result
        last = 0
        while True:
            with self.engine.connect() as conn:
                rows = conn.execute(select(Game.id, Game.game, Game.source, Blob.data, Blob.dictionary_id)
                                    .join(Blob, Blob.id == Game.raw_blob_id)
                                    .where(Game.deal_key.is_(None), Game.game.in_(names), Game.id > last)
                                    .order_by(Game.id).limit(batch)).all()
            if not rows:
                return result
            updates = []
            for row in rows:
                last = row.id
                result.looked += 1
                key, scores = None, None
                try:
                    raw = self.blobs.read(row.data, row.dictionary_id)
                    entries = read_logs(raw, row.source, max_decompressed=max(MAX_DECOMPRESSED, 64 << 20))
                    if len(entries) == 1 and entries[0].log is not None:
                        key, scores = deal_fields(module_for(row.game), entries[0].log.replay())
                except Exception:
                    pass
                if key is not None:  # (the scores of a game without a key count nowhere)
                    updates.append((row.id, key, scores or {}))
                if progress is not None:
                    progress(1)
            if updates:
                with self.engine.execution_options(write=True).begin() as conn:
                    for row_id, key, scores in updates:
                        conn.execute(update(Game).where(Game.id == row_id, Game.deal_key.is_(None))
                                     .values(deal_key=key))
                        result.keyed += 1
                        for seat, score in scores.items():  # (a seat the log names no player of has no row)
                            result.scored += conn.execute(
                                update(GamePlayer).where(GamePlayer.game_id == row_id, GamePlayer.seat == seat)
                                .values(deal_score=score)).rowcount

    @staticmethod
    def _deal_games(games: Iterable[str] | None) -> list[str]:
        names = list(game_names()) if games is None else list(games)
        return [n for n in names if getattr(module_for(n), "has_deals", False)]


def _seat_order(game: str, rows: dict[str, Any]) -> list[str]:
    """The seats in table order: the game's declared ``seats`` first, in their order, then any
    other in natural order (``p2`` before ``p10``).

    >>> _seat_order("no such game", {"p10": 0, "p2": 0, "p1": 0, "b": 0})
    ['b', 'p1', 'p2', 'p10']
    """
    module = module_for(game)
    declared = list(getattr(module, "seats", ()) or ())

    def rank(seat: str) -> tuple[int, int, list[tuple[int, Any]]]:
        if seat in declared:
            return (0, declared.index(seat), [])
        return (1, 0, [(0, int(part)) if part.isdigit() else (1, part) for part in re.split(r"(\d+)", seat)])

    return sorted(rows, key=rank)


__all__ = ["BY", "Deals", "FillResult", "deal_fields", "module_for"]
