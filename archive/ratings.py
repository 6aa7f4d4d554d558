"""Leaderboards: each bot's and player's rating within a game, kept up to date incrementally.

The rating is openskill's Plackett-Luce model (a Bayesian rating for any number of players,
ties allowed): every bot or player has a ``mu`` (its estimated skill) and a ``sigma`` (how
unsure that is), and is ranked by its ``ordinal``, ``mu - 3 sigma``, a skill it is very
likely above. It starts at mu 25, sigma 25/3 (ordinal 0).

What a game tells the ratings is the same for every game, from the archive's game-neutral
rows (``game_players.won``):

* **Who**: ``kind`` ``bot`` rates each seat's bot as the archive stores it (name and version,
  ``honest-1``; seats without a bot are left out), ``kind`` ``player`` rates each seat's
  player name, people and bots alike.
* **Order**: the winners share first place, the losers share second (a game of one winner: the
  others tied behind; a game of sides: the winning side tied first, the other side
  tied second). Each bot or player is its own one-member team. A name in several seats of one
  game (a bot playing itself) enters once, placed by its best seat.
* **Skipped**: games nobody won (``won`` is None: cancelled, passed out...) and games with no
  loser change nothing at all. A game where fewer than two names enter, or all of them share
  one place, counts for games, wins and score but does not move a rating (no history row).
* **Scope**: listed (public) games only, so that an unlisted upload moves no public table.

Beside the rating each row keeps ``games`` (decided games played), ``wins`` (games where one of
its seats won) and the zero-sum championship ``score``: in a game with ``w`` winning and ``l``
losing seats, each winning seat scores ``+1/w`` and each losing seat ``-1/l``, so every
decided game adds exactly zero over its seats. One winner of n players: the winner +1, each
loser -1/(n-1). Two sides of two: +1/2 and -1/2 per seat. A name gets the sum over its
seats. The win rate's 95% interval is Wilson's score interval.

Order and incremental refresh: games are rated in **ingest order** (the ``games.id`` row id),
the order the archive learned of them, not by ``started_at``: a game older than others but
ingested later is simply rated after them. ``refresh`` rates the listed games after the
watermark (the last row id looked at), in batches of :data:`BATCH`, each batch one
transaction that also moves the watermark, so the tables always equal a full recompute in id
order. The watermark also keeps the count and the sum of the listed ids up to it: if those no
longer match the games table (a transaction that got a lower id committed after a refresh
passed it, an upload published or a game deleted since), every rating is recomputed from the
start. That check is one ``count``/``sum`` over the games table per refresh.

Concurrent refreshes (two web workers) serialise on the watermark row, which each batch
updates first: the second one sees the first one's watermark and goes on from there.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Iterable, Iterator, Sequence

from openskill.models import PlackettLuce
from sqlalchemy import Connection, Engine, bindparam, delete, func, insert, select, tuple_, update
from sqlalchemy.exc import IntegrityError

from .database import insert_many
from .models import Game, GamePlayer, Rating, RatingHistory, RatingWatermark

KINDS = ("bot", "player")
#: games rated per transaction (each name's row is read and written once per transaction)
BATCH = 4000
#: 95% two-sided normal quantile, for Wilson's interval
Z95 = 1.959963984540054

MODEL = PlackettLuce()
START_MU = MODEL.mu
START_SIGMA = MODEL.sigma


_BETA_SQUARED = MODEL.beta ** 2
_TAU_SQUARED = MODEL.tau * MODEL.tau
_KAPPA = MODEL.kappa


def rate_places(ratings: Sequence[tuple[float, float]], first: Sequence[bool]) -> list[tuple[float, float]]:
    """``MODEL.rate`` for what a game here always is: one-member teams in two places (``first``
    True: tied first, False: tied second), each ``(mu, sigma)`` in and out.

    openskill's own ``rate`` deep-copies its teams and checks its arguments on every call, which
    made rating most of a ratings refresh; this is the same update (Weng and Lin's Algorithm 4,
    Plackett-Luce, with openskill's defaults: tau added to sigma first, gamma = sigma / c, kappa
    the floor of the variance factor) for this one shape, with its arithmetic in the same order,
    so that its numbers are the library's to the last bit (``tests/archive/test_ratings.py``
    checks that against ``MODEL.rate``).

    >>> [(round(mu, 3), round(sigma, 3)) for mu, sigma in rate_places([(25.0, 25 / 3), (25.0, 25 / 3)], [True, False])]
    [(27.635, 8.066), (22.365, 8.066)]
    """
    # the library sorts the teams by place (stably) before it computes
    order = [i for i in range(len(first)) if first[i]] + [i for i in range(len(first)) if not first[i]]
    winners = sum(1 for f in first if f)
    sigma_t = [math.sqrt(ratings[i][1] * ratings[i][1] + _TAU_SQUARED) for i in order]
    mus = [0.0 + ratings[i][0] * 1.0 for i in order]
    variances = [0.0 + (s * 1.0) ** 2 for s in sigma_t]
    collective = 0.0
    for v in variances:
        collective += v + _BETA_SQUARED
    c = math.sqrt(collective)
    exps = [math.exp(mu / c) for mu in mus]
    n = len(order)
    ranks = [1] * winners + [2] * (n - winners)
    # sum_q: over the teams placed at q's place or below; a_q: teams sharing q's place
    sum_q = [0.0] * n
    started = [False] * n
    for i in range(n):
        for q in range(n):
            if ranks[i] >= ranks[q]:
                if started[q]:
                    sum_q[q] += exps[i]
                else:
                    sum_q[q], started[q] = exps[i], True
    a = [winners if r == 1 else n - winners for r in ranks]
    out: list[tuple[float, float]] = [(0.0, 0.0)] * n
    for i in range(n):
        omega = delta = 0.0
        for q in range(n):
            x = exps[i] / sum_q[q]
            if ranks[q] <= ranks[i]:
                delta += x * (1 - x) / a[q]
                if q == i:
                    omega += (1 - x) / a[q]
                else:
                    omega -= x / a[q]
        variance = variances[i]
        omega *= variance / c
        delta *= variance / c ** 2
        delta *= math.sqrt(variance) / c
        mu, sigma = mus[i], sigma_t[i]
        share = sigma ** 2 / variance
        if omega >= 0:
            mu += share * omega * 1.0
            sigma *= math.sqrt(max(1 - share * delta * 1.0, _KAPPA))
        else:
            mu += share * omega / 1.0
            sigma *= math.sqrt(max(1 - share * delta / 1.0, _KAPPA))
        out[order[i]] = (mu, sigma)
    return out


def ordinal(mu: float, sigma: float) -> float:
    """The leaderboard's sort key: ``mu - 3 sigma``."""
    return mu - 3.0 * sigma


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float] | None:
    """Wilson's score interval for a win rate (95% by default); None without games.

    >>> [round(x, 4) for x in wilson(7, 10)]
    [0.3968, 0.8922]
    """
    if games <= 0:
        return None
    p = wins / games
    z2 = z * z
    denominator = 1 + z2 / games
    center = (p + z2 / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / denominator
    return max(0.0, center - half), min(1.0, center + half)


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat of a game as the ratings see it."""

    seat: str
    name: str | None
    bot: str | None
    won: bool | None


@dataclass(slots=True)
class Standing:
    """One bot's or player's row in one game's table."""

    mu: float = START_MU
    sigma: float = START_SIGMA
    games: int = 0
    wins: int = 0
    rated: int = 0
    score: float = 0.0
    last_game_id: int = 0

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)


Key = tuple[str, str, str]  # (game, kind, name)


@dataclass(slots=True)
class Ledger:
    """Ratings in memory: what ``refresh`` applies to the stored rows, and what a test can run
    over a list of games to get the table a full recompute gives."""

    standings: dict[Key, Standing] = field(default_factory=dict)

    def add_game(self, row_id: int, game: str, seats: Sequence[Seat]) -> list[dict[str, Any]]:
        """Take one game into account; returns its history rows (one per rated name)."""
        if not seats or any(s.won is None for s in seats):
            return []
        winners = sum(1 for s in seats if s.won)
        losers = len(seats) - winners
        if winners == 0 or losers == 0:
            return []
        history: list[dict[str, Any]] = []
        for kind in KINDS:
            placed: dict[str, bool] = {}  # name -> won (its best seat)
            scores: dict[str, float] = {}
            for s in seats:
                key = s.bot if kind == "bot" else s.name
                if not key:
                    continue
                placed[key] = placed.get(key, False) or bool(s.won)
                scores[key] = scores.get(key, 0.0) + (1.0 / winners if s.won else -1.0 / losers)
            names = sorted(placed)
            for name in names:
                standing = self.standings.setdefault((game, kind, name), Standing())
                standing.games += 1
                standing.wins += placed[name]
                standing.score += scores[name]
                standing.last_game_id = row_id
            if len(names) < 2 or len(set(placed.values())) < 2:
                continue
            current = [self.standings[(game, kind, n)] for n in names]
            rated = rate_places([(s.mu, s.sigma) for s in current], [placed[n] for n in names])
            for name, standing, (mu, sigma) in zip(names, current, rated):
                standing.mu, standing.sigma = float(mu), float(sigma)
                standing.rated += 1
                history.append({"game_id": row_id, "kind": kind, "name": name, "game": game, "mu": standing.mu,
                                "sigma": standing.sigma, "ordinal": standing.ordinal})
        return history

    def table(self, game: str, kind: str) -> dict[str, Standing]:
        return {k[2]: s for k, s in self.standings.items() if k[0] == game and k[1] == kind}


def compute(games: Iterable[tuple[int, str, Sequence[Seat]]]) -> tuple[Ledger, list[dict[str, Any]]]:
    """A full recompute in memory over ``(row id, game, seats)`` in the order given."""
    ledger = Ledger()
    history: list[dict[str, Any]] = []
    for row_id, game, seats in games:
        history.extend(ledger.add_game(row_id, game, seats))
    return ledger, history


# --- the stored tables -----------------------------------------------------------------------

def _now() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None)


def _lock_watermark(conn: Connection) -> Any:
    """Take the watermark row for this transaction (an UPDATE first: on SQLite it takes the write
    lock before anything is read, on PostgreSQL it locks the row) and return it. Without one
    (a new archive, or one whose watermark was removed) the tables start again from empty."""
    if conn.execute(update(RatingWatermark).where(RatingWatermark.id == 1).values(updated_at=_now())).rowcount == 0:
        conn.execute(insert(RatingWatermark).values(id=1, last_game_id=0, games=0, id_sum=0, updated_at=_now()))
        _reset(conn)
    return conn.execute(select(RatingWatermark.last_game_id, RatingWatermark.games, RatingWatermark.id_sum)
                        .where(RatingWatermark.id == 1)).one()


def _listed_upto(conn: Connection, last: int) -> tuple[int, int]:
    row = conn.execute(select(func.count(), func.coalesce(func.sum(Game.id), 0))
                       .where(Game.listed.is_(True), Game.id <= last)).one()
    return int(row[0]), int(row[1])


def _reset(conn: Connection) -> None:
    conn.execute(delete(RatingHistory))
    conn.execute(delete(Rating))
    conn.execute(update(RatingWatermark).where(RatingWatermark.id == 1)
                 .values(last_game_id=0, games=0, id_sum=0, updated_at=_now()))


def refresh(engine: Engine, batch: int = BATCH) -> int:
    """Rate the listed games stored since the last refresh; returns how many games were looked at.

    Recomputes everything first if the games up to the watermark changed (see the module)."""
    looked = 0
    checked = False
    races = 0
    while True:
        try:
            with engine.begin() as conn:
                mark = _lock_watermark(conn)
                last, count, id_sum = int(mark.last_game_id), int(mark.games), int(mark.id_sum)
                if not checked:
                    if _listed_upto(conn, last) != (count, id_sum):
                        _reset(conn)
                        last, count, id_sum = 0, 0, 0
                done = _rate_batch(conn, last, count, id_sum, batch)
            checked = True
        except IntegrityError:
            # two refreshes made the first watermark row at once: the loser goes on from the
            # winner's (anything else is a bug, not to be retried forever)
            races += 1
            if races > 3:
                raise
            continue
        looked += done
        if done < batch:  # that was the last of them
            return looked


_VALUES = ("mu", "sigma", "ordinal", "games", "wins", "rated", "score", "last_game_id")
_KEY = ("game", "kind", "name")
#: PostgreSQL's array type of each column, for the one UPDATE of a refresh (``_rate_batch``)
_PG_ARRAYS = {"mu": "float8[]", "sigma": "float8[]", "ordinal": "float8[]", "games": "int4[]", "wins": "int4[]",
              "rated": "int4[]", "score": "float8[]", "last_game_id": "int8[]", "game": "text[]", "kind": "text[]",
              "name": "text[]"}


def _stored_ratings(conn: Connection, keys: list[Key]) -> Iterator[Any]:
    """The stored rows of these (game, kind, name) keys. PostgreSQL: one statement, the keys as
    three arrays (a tuple ``IN`` of hundreds of keys was a new query text each time, rendered
    by SQLAlchemy and parsed by psycopg, most of a refresh's own time after the rating itself)."""
    if conn.dialect.name == "postgresql":
        if keys:
            games, kinds, names = (list(column) for column in zip(*keys))
            yield from conn.exec_driver_sql(
                f"SELECT r.game, r.kind, r.name, {', '.join(f'r.{c}' for c in _VALUES)} "
                f"FROM {Rating.__tablename__} AS r JOIN unnest(%s::text[], %s::text[], %s::text[]) "
                "AS k(game, kind, name) ON r.game = k.game AND r.kind = k.kind AND r.name = k.name",
                (games, kinds, names))
        return
    for start in range(0, len(keys), 300):
        yield from conn.execute(select(*Rating.__table__.c)
                                .where(tuple_(Rating.game, Rating.kind, Rating.name).in_(keys[start:start + 300])))


def _rate_batch(conn: Connection, last: int, count: int, id_sum: int, batch: int) -> int:
    rows = conn.execute(select(Game.id, Game.game).where(Game.listed.is_(True), Game.id > last)
                        .order_by(Game.id).limit(batch)).all()
    if not rows:
        return 0
    ids = [r.id for r in rows]
    seats: dict[int, list[Seat]] = {i: [] for i in ids}
    # the seats of every game in the id range, the unlisted ones' left out here: one short query
    # (an IN of thousands of ids was a new query text, and a long one, every time)
    for p in conn.execute(select(GamePlayer.game_id, GamePlayer.seat, GamePlayer.name, GamePlayer.bot,
                                 GamePlayer.won).where(GamePlayer.game_id.between(ids[0], ids[-1]))
                          .order_by(GamePlayer.game_id, GamePlayer.seat)):
        found = seats.get(p.game_id)
        if found is not None:
            found.append(Seat(p.seat, p.name, p.bot, p.won))
    keys = {(r.game, kind, name) for r in rows for s in seats[r.id] for kind, name in (("bot", s.bot), ("player", s.name))
            if name}
    ledger = Ledger()
    stored: set[Key] = set()
    for r in _stored_ratings(conn, sorted(keys)):
        key = (r.game, r.kind, r.name)
        ledger.standings[key] = Standing(r.mu, r.sigma, r.games, r.wins, r.rated, r.score, r.last_game_id)
        stored.add(key)
    history: list[dict[str, Any]] = []
    for r in rows:
        history.extend(ledger.add_game(r.id, r.game, seats[r.id]))
    # plain values through the driver's executemany: SQLAlchemy's per-row parameter processing
    # was most of a refresh's own time (a refresh runs inside every long ingest)
    updates, inserts = [], []
    for key, s in ledger.standings.items():
        values = tuple(getattr(s, c) for c in _VALUES)
        if key in stored:
            updates.append(values + key)
        else:
            inserts.append(dict(zip(("game", "kind", "name", *_VALUES), key + values)))
    if updates and conn.dialect.name == "postgresql":
        # one statement for them all, each column an array: a prepared single-row UPDATE kept
        # the plan it was given while the table was tiny (a sequential scan), and each of its
        # thousands of executions then read the whole, by then large, table (a quarter of the
        # server's time while 200,000 games were ingested)
        columns = list(zip(*updates))
        conn.exec_driver_sql(
            f"UPDATE {Rating.__tablename__} AS r SET {', '.join(f'{c} = v.{c}' for c in _VALUES)} "
            f"FROM unnest({', '.join(f'%s::{_PG_ARRAYS[c]}' for c in (*_VALUES, *_KEY))}) "
            f"AS v({', '.join((*_VALUES, *_KEY))}) "
            "WHERE r.game = v.game AND r.kind = v.kind AND r.name = v.name", tuple(map(list, columns)))
    elif updates:
        mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
        conn.exec_driver_sql(
            f"UPDATE {Rating.__tablename__} SET {', '.join(f'{c} = {mark}' for c in _VALUES)} "
            f"WHERE game = {mark} AND kind = {mark} AND name = {mark}", updates)
    if inserts:
        insert_many(conn, Rating.__table__, inserts)
    if history:
        insert_many(conn, RatingHistory.__table__, history)
    conn.execute(update(RatingWatermark).where(RatingWatermark.id == 1)
                 .values(last_game_id=ids[-1], games=count + len(ids), id_sum=id_sum + sum(ids), updated_at=_now()))
    return len(ids)


# --- reading ---------------------------------------------------------------------------------

def row_json(name: str, s: Any, rank: int | None = None) -> dict[str, Any]:
    """A leaderboard row as JSON-ready values (from a ``Standing`` or a ``ratings`` row)."""
    interval = wilson(s.wins, s.games)
    return {
        "rank": rank, "name": name, "rating": round(ordinal(s.mu, s.sigma), 4), "mu": round(s.mu, 4),
        "sigma": round(s.sigma, 4), "games": s.games, "wins": s.wins, "rated_games": s.rated,
        "win_rate": round(s.wins / s.games, 4) if s.games else None,
        "win_rate_95": [round(interval[0], 4), round(interval[1], 4)] if interval else None,
        "score": round(s.score, 4) + 0.0,  # + 0.0: no "-0.0"
    }


def leaderboard(engine: Engine, game: str, kind: str, names: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """A game's table for ``kind`` (``bot`` or ``player``), best rating first; ``names``: only those."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}, not {kind!r}")
    query = (select(*Rating.__table__.c).where(Rating.game == game, Rating.kind == kind)
             .order_by(Rating.ordinal.desc(), Rating.name))
    with engine.connect() as conn:
        rows = conn.execute(query).all()
    wanted = None if names is None else set(names)
    return [row_json(r.name, r, rank) for rank, r in enumerate(rows, start=1)
            if wanted is None or r.name in wanted]


def history(engine: Engine, kind: str, name: str, game: str | None = None) -> dict[str, list[dict[str, Any]]]:
    """Per game, the rating of ``name`` after each of its rated games, in rating order."""
    query = (select(RatingHistory.game, RatingHistory.game_id, RatingHistory.mu, RatingHistory.sigma,
                    RatingHistory.ordinal)
             .where(RatingHistory.kind == kind, RatingHistory.name == name)
             .order_by(RatingHistory.game, RatingHistory.game_id))
    if game is not None:
        query = query.where(RatingHistory.game == game)
    out: dict[str, list[dict[str, Any]]] = {}
    with engine.connect() as conn:
        for r in conn.execute(query):
            out.setdefault(r.game, []).append({"game_row": r.game_id, "mu": r.mu, "sigma": r.sigma,
                                               "rating": r.ordinal})
    return out
