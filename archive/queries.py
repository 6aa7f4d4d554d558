"""Queries: a game by id, listings with every filter, totals and statistics.

A listing pages through an index in its own order, never sorting its matches and never
skipping rows it has already shown (keyset paging: ``Page.next_cursor`` is where the next
page starts; ``offset`` still works for old callers):

- sorted by start time (the default, and what the web and the API use), every filter is a
  *tag* (``archive/summaries.py``), a wildcard player or winner (the tags of the names it
  matches, found in ``counters``: one entry per name, not per game), or a numeric fact range
  (``turns>=30``: a range of the partial index ``ix_tags_number``). The filter with the fewest games
  drives: a tag's (or wildcard's) range of ``game_tags`` is read in (start time, game) order
  from the cursor on, each row checked against the other filters by primary key; a numeric
  range of at most ``RANGE_DRIVE`` games is read whole and sorted (a wider one walks the
  ``number:<fact>`` tag of the games that have the fact, each row's number checked). A
  single filter reads one page of index entries, whatever the size of the archive; totals come
  from ``counters``, or are counted up to ``COUNT_CAP`` from the filter with the fewest games.
- sorted by ingest time or findings, the general plan filters ``games`` with subqueries (as
  release 0.1 did), keyset-paged on its sort index.

Statistics come from ``counters``, kept up to date at ingest; nothing is recomputed per request.
"""

from __future__ import annotations

import base64
import binascii
import json
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import Connection, Engine, and_, case, exists, false, func, or_, select, text, union_all

from .blobs import BlobStore
from .ids import PublicIds
from .models import Blob, Counter, CounterDelta, Game, GameFact, GameFinding, GamePlayer, GameSeatCount, GameTag
from .filters import FACT, NEUTRAL, clean_filters, game_name
from .records import ArchivedGame, ArchiveError, CursorError, GameSummary, Page, _as_datetime, _aware, _like_pattern, \
    _utc_naive, bot_base
from .summaries import ALL, NO_START, Summaries, counted_role, number_tag, seat_figures, think_list

SORTS = {"started_at": Game.started_at, "ingested_at": Game.ingested_at, "findings": Game.findings}
SORT_INDEXES = {"started_at": "ix_games_started", "ingested_at": "ix_games_ingested", "findings": "ix_games_findings"}
#: Filtered listings count matches exactly up to this many (then say "at least"); the facade
#: passes its own (``archive.store.COUNT_CAP``) with each listing.
COUNT_CAP = 1_000
#: Listings sorted by start time use the tag plan (False: the general plan, for tests that compare them).
TAG_PLAN = True
#: A numeric fact range (``turns>=30``) with at most this many games drives its listing: its
#: games are read from ``ix_tags_number`` and sorted; a wider one walks the games that have the
#: fact (its ``number:`` tag) in listing order, each row's number checked against the range.
RANGE_DRIVE = 2_000
#: A wildcard player or winner filter matching at most this many names is their tags; past it,
#: each game's players are checked.
WILDCARD_TAGS = 200
#: Think times are averaged over a name's latest this many timed seats (``Queries.stats``).
THINK_SAMPLE = 300
#: Past this many matches the general plan walks the sort index instead of sorting the matches.
DENSE_MATCHES = 500
#: A player/bot/finding filter matching more rows than this (and a fifth of the games) is
#: checked game by game by the general plan.
DENSE_ROWS = 20_000


class Queries:
    """Read-only questions to one archive database."""

    def __init__(self, engine: Engine, ids: PublicIds, blobs: BlobStore, summaries: Summaries):
        # PostgreSQL: each read is its own statement (no BEGIN and ROLLBACK round trips)
        self.engine = (engine.execution_options(isolation_level="AUTOCOMMIT")
                       if engine.dialect.name == "postgresql" else engine)
        self.ids = ids
        self.blobs = blobs
        self.summaries = summaries
        self._bytewise: bool | None = None  # PostgreSQL: whether text compares byte by byte

    # -- one game -----------------------------------------------------------------------------
    def _game_columns(self):
        return (Game.id, Game.game, Game.game_id, Game.started_at, Game.rules, Game.players, Game.end_reason,
                Game.findings, Game.finding_kinds, Game.source, Game.origin, Game.ingested_at, Game.code, Game.listed)

    @staticmethod
    def _extras(conn: Connection, ids: list[int]) -> tuple[dict[int, dict[str, Any]], dict[int, dict[str, Any]]]:
        """The games' facts and their seats' roles and wins, by primary key (a page's worth)."""
        facts: dict[int, dict[str, Any]] = {i: {} for i in ids}
        seats: dict[int, dict[str, Any]] = {i: {} for i in ids}
        if not ids:
            return facts, seats
        for row in conn.execute(select(GameFact.game_id, GameFact.name, GameFact.value, GameFact.num)
                                .where(GameFact.game_id.in_(ids)).order_by(GameFact.game_id, GameFact.name)):
            facts[row.game_id][row.name] = row.num if row.num is not None else row.value
        for row in conn.execute(select(GamePlayer.game_id, GamePlayer.seat, GamePlayer.role, GamePlayer.won)
                                .where(GamePlayer.game_id.in_(ids))):
            seats[row.game_id][row.seat] = (row.role, None if row.won is None else bool(row.won))
        return facts, seats

    def _summaries(self, conn: Connection, rows: list[Any]) -> list[dict[str, Any]]:
        facts, seats = self._extras(conn, [r.id for r in rows])
        return [self._summary_fields(r, facts[r.id], seats[r.id]) for r in rows]

    def _summary_fields(self, row, facts: dict[str, Any], seats: dict[str, Any]) -> dict[str, Any]:
        players = json.loads(row.players)
        for seat, player in players.items():
            role, won = seats.get(seat, (None, None))
            player["role"] = role
            player["won"] = won
        return dict(
            public_id=self.ids.encode(row.id), game=row.game, game_id=row.game_id, started_at=_aware(row.started_at),
            rules=row.rules, players=players, facts=facts, end_reason=row.end_reason, findings=row.findings,
            finding_kinds=[k for k in row.finding_kinds.split(",") if k], source=row.source, origin=row.origin,
            ingested_at=_aware(row.ingested_at), code=row.code, listed=bool(row.listed),
        )

    def get(self, public_id: str) -> ArchivedGame | None:
        """A game by its public id, or None."""
        game_id = self.ids.decode(public_id)
        if game_id is None:
            return None
        with self.engine.connect() as conn:
            row = conn.execute(select(*self._game_columns(), Blob.data, Blob.dictionary_id)
                               .join(Blob, Blob.id == Game.raw_blob_id).where(Game.id == game_id)).first()
            if row is None:
                return None
            (fields,) = self._summaries(conn, [row])
        return ArchivedGame(**fields, raw=self.blobs.read(row.data, row.dictionary_id))

    def count(self) -> int:
        """How many games are stored (from ``counters``: no scan)."""
        with self.engine.connect() as conn:
            return self.summaries.tag_total(conn, ALL, listed_only=False)

    # -- listings -----------------------------------------------------------------------------
    def list(self, *, sort: str = "-started_at", limit: int = 50, offset: int = 0, cursor: str | None = None,
             exact_total: bool = False, count_cap: int = COUNT_CAP, **filters: Any) -> Page:
        """A page of games matching the filters (see the package docstring).

        ``cursor`` is a page's ``next_cursor``: the page after it, with the same sort and filters.
        ``Page.total`` is exact without filters, and with filters up to ``COUNT_CAP`` (1,000)
        matches; past that it is ``COUNT_CAP`` and ``Page.total_exact`` is False
        (``exact_total=True`` always gives the exact figure).
        """
        descending = sort.startswith("-")
        key = sort.lstrip("-+")
        if key not in SORTS:
            raise ArchiveError(f"unknown sort {sort!r} (one of {', '.join(SORTS)}, '-' in front for descending)")
        if limit < 0 or offset < 0:
            raise ArchiveError("limit and offset must not be negative")
        active = clean_filters(filters)
        after = _read_cursor(cursor, sort) if cursor else None
        plan = _tag_plan(active) if key == "started_at" and TAG_PLAN else None
        with self.engine.connect() as conn:
            if plan is not None:
                rows, total, exact = self._list_by_tags(conn, plan, descending, limit, offset, after, exact_total,
                                                        count_cap)
            else:
                rows, total, exact = self._list_general(conn, active, key, descending, limit, offset, after,
                                                        exact_total, count_cap)
            items = [GameSummary(**fields) for fields in self._summaries(conn, rows[:limit])]
        next_cursor = None
        if len(rows) > limit and rows[:limit]:
            last = rows[limit - 1]
            value = NO_START if key == "started_at" and last.started_at is None else getattr(last, key)
            next_cursor = _make_cursor(sort, value, last.id)
        return Page(items, total, exact, next_cursor)

    def _list_by_tags(self, conn: Connection, plan: "_TagPlan", descending: bool, limit: int, offset: int,
                      after: tuple[Any, int] | None, exact_total: bool, cap: int) -> tuple[list[Any], int, bool]:
        listed_only = plan.listed is True
        counts = {tag: self.summaries.tag_total(conn, tag, listed_only) for tag in plan.tags}
        # each filter as a set of candidate rows: (rows it holds at most, kind, index)
        sizes: list[tuple[int, int, int]] = [(counts[t], 0, i) for i, t in enumerate(plan.tags)]
        groups: list[dict[str, int] | None] = []
        for i, (name, value) in enumerate(plan.groups):
            found = self._wildcard_tags(conn, name, value, listed_only)
            if found is not None and not found:
                return [], 0, True  # no name matches the wildcard
            groups.append(found)
            if found is not None:
                sizes.append((sum(found.values()), 1, i))
        range_counts: list[int] = []  # each range's games, listed or not, up to RANGE_DRIVE + 1
        for i, (name, op, value) in enumerate(plan.ranges):
            matching = select(GameFact.game_id).where(_range_condition(name, op, value)).limit(RANGE_DRIVE + 1)
            found = conn.execute(select(func.count()).select_from(matching.subquery())).scalar_one()
            range_counts.append(found)
            sizes.append((found, 2, i))
            if found > RANGE_DRIVE:  # a wide range: walkable through the games that have the fact
                sizes.append((self.summaries.tag_total(conn, number_tag(name), listed_only), 3, i))
        sizes.sort()
        # the page walks the smallest tag or wildcard in listing order; a numeric range of at
        # most RANGE_DRIVE games is read whole and sorted (an index range either way); a wider
        # one may walk the games that have its fact (its ``number:`` tag), each checked against
        # the range in its own row: over RANGE_DRIVE of them match, so a page is found soon.
        # The count walks the smallest set in any order: a range's games are one range of
        # ``ix_tags_number``, however wide
        ordered = [s for s in sizes if s[1] != 2 or s[0] <= RANGE_DRIVE]
        page_driver, count_driver = ordered[0], sizes[0]
        postgres = conn.dialect.name == "postgresql"

        def walk_over(driver: tuple[int, int, int]) -> tuple[Any, Any, list[Any], bool]:
            """(walk alias, FROM, WHERE, whether a game may come twice) driven by one filter."""
            _, kind, index = driver
            where: list[Any] = []
            twice = False
            tags = GameTag.__table__.alias("walk")
            walk = _Walk(tags.c.game_id, tags.c.started_key, tags.c.listed)
            source: list[Any] = [tags]
            if kind == 0:
                where.append(tags.c.tag == plan.tags[index])
            elif kind == 1:
                where.append(tags.c.tag.in_(sorted(groups[index])))
                twice = True  # a game with two matching names
            else:  # a numeric range: the rows of its number: tag, each game's number in its row
                name, op, value = plan.ranges[index]
                where.append(tags.c.tag == number_tag(name))
                if kind == 2:  # the range's games: one range of ix_tags_number
                    where.append(_compare(tags.c.num, op, value))
                else:  # the fact's games in listing order: not an index condition (coalesce), for
                    # a planner that took it for one would read the range through ix_tags_number
                    # and sort it, the very thing a wide range must not do (PostgreSQL guesses a
                    # few dozen rows where thousands are)
                    where.append(func.coalesce(_compare(tags.c.num, op, value), false()))
            if plan.listed is not None:
                where.append(walk.listed == plan.listed)
            if plan.started_from is not None:
                where.append(walk.started_key >= plan.started_from)
            if plan.started_to is not None:
                where.append(and_(walk.started_key < plan.started_to, walk.started_key > NO_START))
            for i, tag in enumerate(plan.tags):
                if (kind, index) != (0, i) and tag != ALL:
                    where.append(self._has_tags(walk, [tag], postgres))
            for i, found in enumerate(groups):
                if (kind, index) == (1, i):
                    continue
                if found is not None:
                    where.append(self._has_tags(walk, sorted(found), postgres))
                else:
                    name, value = plan.groups[i]
                    where.append(exists().where(GamePlayer.game_id == walk.game_id, _wildcard_condition(name, value)))
            for i, (name, op, value) in enumerate(plan.ranges):
                if (kind, index) not in ((2, i), (3, i)):
                    where.append(self._in_range(walk, name, op, value, postgres))
            return walk, source, where, twice

        walk, source, where, twice = walk_over(page_driver)
        page_where = list(where)
        if after is not None:
            value, last_id = after
            if descending:
                page_where.append(and_(walk.started_key <= value,
                                       or_(walk.started_key < value, walk.game_id < last_id)))
            else:
                page_where.append(and_(walk.started_key >= value,
                                       or_(walk.started_key > value, walk.game_id > last_id)))
        order = ((walk.started_key.desc(), walk.game_id.desc()) if descending
                 else (walk.started_key.asc(), walk.game_id.asc()))
        page = (select(walk.game_id.label("game_id"), walk.started_key.label("started_key"))
                .select_from(*source).where(*page_where))
        if twice:
            page = page.distinct()
        page = page.order_by(*order).limit(limit + 1).offset(offset).subquery()
        outer = ((page.c.started_key.desc(), page.c.game_id.desc()) if descending
                 else (page.c.started_key.asc(), page.c.game_id.asc()))
        rows = conn.execute(select(*self._game_columns()).join(page, page.c.game_id == Game.id)
                            .order_by(*outer)).all()
        # the total: from the counters when one tag says it all, else counted (up to the cap)
        # from the filter with the fewest candidates
        simple = (len(plan.tags) == 1 and not plan.ranges and not plan.groups and plan.started_from is None
                  and plan.started_to is None)
        if simple and plan.listed is not False:
            total = counts[plan.tags[0]]
        elif simple:
            total = (self.summaries.tag_total(conn, plan.tags[0], listed_only=False)
                     - self.summaries.tag_total(conn, plan.tags[0], listed_only=True))
        elif (plan.tags == [ALL] and len(plan.ranges) == 1 and not plan.groups and plan.started_from is None
              and plan.started_to is None and not exact_total and range_counts[0] > cap
              and (plan.listed is None or (plan.listed is True and self._all_listed(conn, plan.ranges[0][0])))):
            # one numeric range, past the cap: its index count (read above) is the total, when
            # every game with the fact is listed (the counters of its number: tag say so), rather
            # than counting again over the games table for the listed flag
            total = range_counts[0]
        else:
            walk, source, where, twice = walk_over(count_driver)
            capped = select(walk.game_id.label("game_id")).select_from(*source).where(*where)
            if twice:
                capped = capped.distinct()
            if not exact_total:
                capped = capped.limit(cap + 1)
            total = conn.execute(select(func.count()).select_from(capped.subquery())).scalar_one()
        if exact_total or not plan.filtered:
            return rows, total, True
        return rows, min(total, cap), total <= cap

    @staticmethod
    def _has_tags(walk: Any, tags: list[str], postgres: bool) -> Any:
        """Whether the walked game also has one of ``tags``: a primary-key probe per tag."""
        other = GameTag.__table__.alias()
        return _probe(other.c.game_id, [other.c.tag == tags[0] if len(tags) == 1 else other.c.tag.in_(tags),
                                        other.c.started_key == walk.started_key, other.c.game_id == walk.game_id],
                      postgres)

    def _all_listed(self, conn: Connection, name: str) -> bool:
        """Whether every game with the numeric fact ``name`` is listed (from its tag's counters)."""
        tag = number_tag(name)
        return (self.summaries.tag_total(conn, tag, listed_only=False)
                == self.summaries.tag_total(conn, tag, listed_only=True))

    @staticmethod
    def _in_range(walk: Any, name: str, op: str, value: int, postgres: bool) -> Any:
        """Whether the walked game's numeric fact ``name`` is in the range: a primary-key probe."""
        return _probe(GameFact.game_id, [GameFact.game_id == walk.game_id, _range_condition(name, op, value)], postgres)

    def _wildcard_tags(self, conn: Connection, name: str, value: str, listed_only: bool) -> dict[str, int] | None:
        """The tags of the names (and ids) a wildcard player or winner filter matches, with their
        games, from ``counters`` plus the pending ``counter_deltas`` (one entry per name, not per
        game); None past WILDCARD_TAGS (the caller then checks each game's players)."""
        rows = conn.execute(self._wildcard_query(conn, name, value, listed_only)).all()
        if len(rows) > WILDCARD_TAGS:
            return None
        return {key: int(n) for key, n in rows}

    def _wildcard_query(self, conn: Connection, name: str, value: str, listed_only: bool) -> Any:
        """Each matching tag's games, counters and deltas summed in SQL before anything is cut:
        keys down to zero games (a name with only unlisted games, when ``listed_only``; a name
        whose games were deleted) are left out by HAVING, so they never take a place in the
        limit, and a key's delta rows are all added up. At most WILDCARD_TAGS + 1 rows (one
        more than the plan takes, to tell that it overflows)."""
        pattern = _like_pattern(f"{name}:{value}")
        low, high = _prefix_range(f"{name}:{value}".split("*", 1)[0])
        ranged = conn.dialect.name == "sqlite" or self._bytewise_keys(conn)
        parts = []
        for table in (Counter, CounterDelta):
            games = table.listed_games if listed_only else table.games
            where = [table.kind == "tag", table.key.like(pattern, escape="\\")]
            if ranged and high is not None:  # the literal prefix: one index range of the key
                where += [table.key >= low, table.key < high]
            elif ranged:
                where.append(table.key >= low)
            parts.append(select(table.key.label("key"), games.label("n")).where(*where))
        both = union_all(*parts).subquery()
        total = func.sum(both.c.n)
        return (select(both.c.key, total.label("n")).group_by(both.c.key).having(total > 0)
                .order_by(both.c.key).limit(WILDCARD_TAGS + 1))

    def _bytewise_keys(self, conn: Connection) -> bool:
        """Whether this PostgreSQL database compares text byte by byte (the C or POSIX collation),
        so that the keys starting with a prefix are one range of the index. Under a language's
        collation they are not (punctuation is weighed last), and the LIKE alone is exact."""
        if self._bytewise is None:
            row = conn.execute(text(
                "SELECT to_jsonb(d) ->> 'datlocprovider', datcollate FROM pg_database d "
                "WHERE datname = current_database()")).first()
            self._bytewise = row is not None and row[0] in (None, "c") and row[1] in ("C", "POSIX")
        return self._bytewise


    def _list_general(self, conn: Connection, active: dict[str, Any], key: str, descending: bool, limit: int,
                      offset: int, after: tuple[Any, int] | None, exact_total: bool, cap: int
                      ) -> tuple[list[Any], int, bool]:
        where = self._filters(**active)
        column = SORTS[key]
        order = (column.desc(), Game.id.desc()) if descending else (column.asc(), Game.id.asc())
        sqlite = conn.dialect.name == "sqlite"
        membership = any(k in active for k in ("player", "bot", "finding_kind"))
        # a player/bot/finding filter matching a large part of the archive is checked game by
        # game (EXISTS): that finds COUNT_CAP matches sooner than building a huge IN list
        dense = sqlite and membership and self._dense_membership(conn, active)
        if dense:
            where = self._filters(**active, correlated=True)
        if exact_total or not where:
            total = (self.summaries.tag_total(conn, ALL, listed_only=False) if not where
                     else conn.execute(select(func.count()).select_from(Game).where(*where)).scalar_one())
            exact = True
        else:
            capped = select(Game.id).where(*where).limit(cap + 1).subquery()
            total = conn.execute(select(func.count()).select_from(capped)).scalar_one()
            exact = total <= cap
            total = min(total, cap)
        page_where = list(where)
        if after is not None:
            value, last_id = after
            if descending:
                page_where.append(or_(column < value, and_(column == value, Game.id < last_id)))
            else:
                page_where.append(or_(column > value, and_(column == value, Game.id > last_id)))
        query = select(*self._game_columns()).where(*page_where)
        if sqlite and total > DENSE_MATCHES and (dense or not membership):
            # many matches: walk the sort index, checking each game; 50 are found quickly
            query = query.with_hint(Game, f"INDEXED BY {SORT_INDEXES[key]}", "sqlite")
        rows = conn.execute(query.order_by(*order).limit(limit + 1).offset(offset)).all()
        return rows, total, exact

    def _filters(self, player=None, bot=None, rules=None, end_reason=None, has_findings=None, finding_kind=None,
                 started_from=None, started_to=None, listed=None, game=None, winner=None, facts=(), *,
                 correlated: bool = False) -> list[Any]:
        """WHERE clauses. Player, bot and finding filters are ``id IN (...)`` subqueries, or with
        ``correlated`` ``EXISTS`` probes (cheap per row when games are scanned in sort order)."""
        where: list[Any] = []

        def member(column, cond):
            table = column.table
            if correlated:
                return select(1).select_from(table).where(column == Game.id, cond).exists()
            return Game.id.in_(select(column).where(cond))

        if player:
            by_name, by_id = _player_conditions(player)
            if correlated:
                where.append(member(GamePlayer.game_id, or_(by_name, by_id)))
            else:  # a UNION lets each half use its own index
                where.append(Game.id.in_(select(GamePlayer.game_id).where(by_name)
                                         .union(select(GamePlayer.game_id).where(by_id))))
        if bot:
            where.append(member(GamePlayer.game_id, _bot_condition(bot)))
        if game:
            where.append(Game.game == game_name(game))
        if winner and "*" in winner:
            where.append(member(GamePlayer.game_id, _wildcard_condition("winner", winner.strip().lower())))
        elif winner:
            by_name, by_id = _player_conditions(winner)
            won = or_(by_name, by_id, _bot_condition(winner))
            where.append(member(GamePlayer.game_id, and_(won, GamePlayer.won == True)))  # noqa: E712
        for name, op, value in facts:
            if op == "=":
                cond = and_(GameFact.name == name, GameFact.value == str(value))
            elif op == ">=":
                cond = and_(GameFact.name == name, GameFact.num >= value)
            else:
                cond = and_(GameFact.name == name, GameFact.num <= value)
            where.append(member(GameFact.game_id, cond))
        if rules:
            where.append(Game.rules == rules)
        if end_reason:
            where.append(Game.end_reason == end_reason)
        if has_findings is not None:
            where.append(Game.findings > 0 if has_findings else Game.findings == 0)
        if finding_kind:
            where.append(member(GameFinding.game_id, GameFinding.kind == finding_kind))
        if started_from is not None:
            where.append(Game.started_at >= _utc_naive(_as_datetime(started_from, "started_from")))
        if started_to is not None:
            where.append(Game.started_at < _utc_naive(_as_datetime(started_to, "started_to")))
        if listed is not None:
            where.append(Game.listed == bool(listed))
        return where


    def _dense_membership(self, conn: Connection, active: dict[str, Any]) -> bool:
        """Whether a player, bot or finding-kind filter alone matches more rows than a fifth of
        the games (and ``DENSE_ROWS``); index ranges are read only that far, so this stays cheap."""
        probes: list[list[Any]] = []
        if active.get("player"):
            probes.append([select(GamePlayer.game_id).where(c) for c in _player_conditions(active["player"])])
        if active.get("bot"):
            probes.append([select(GamePlayer.game_id).where(_bot_condition(active["bot"]))])
        if active.get("finding_kind"):
            probes.append([select(GameFinding.game_id).where(GameFinding.kind == active["finding_kind"])])
        games = conn.execute(select(func.max(Game.id))).scalar() or 0  # cheap: the end of an index
        threshold = max(DENSE_ROWS, games // 5)
        for pieces in probes:
            rows = 0
            for piece in pieces:
                limited = piece.limit(threshold + 1).subquery()
                rows += conn.execute(select(func.count()).select_from(limited)).scalar_one()
            if rows > threshold:
                return True
        return False


    def recent(self, limit: int = 20) -> list[GameSummary]:
        """The latest listed games, newest first (for a home page)."""
        return self.list(listed=True, sort="-ingested_at", limit=limit).items

    # -- statistics ---------------------------------------------------------------------------
    def stats(self, by: str = "player", *, listed_only: bool = False, name: str | None = None,
              limit: int | None = None, game: str | None = None) -> list[dict[str, Any]]:
        """Per player (name) or bot, most games first: ``games``, ``seats`` taken in them,
        ``wins`` (games won), ``findings`` tied to its seats and ``think_ms`` (the mean think
        time over its latest ``THINK_SAMPLE`` timed seats, or None); with ``game`` that game's
        figures, and for a game with a counted role (``GameModule.counted_role``) also
        ``role_games`` (seats in that role) and ``role_won`` (won in it).

        ``listed_only`` leaves out unlisted uploads, ``name`` keeps one player or bot (any case).
        Without ``game``, read from ``counters``, which ingest keeps up to date; with it,
        counted over that game's rows (the ``ix_games_game_started`` index): the per-game
        leaderboard itself is kept by ``archive/ratings.py``.
        """
        if by not in ("player", "bot"):
            raise ArchiveError(f"stats by must be 'player' or 'bot', not {by!r}")
        if game:
            rows = self._game_stats(by, game_name(game), listed_only, name, limit)
        else:
            found = self.summaries.top(by, listed_only=listed_only,
                                       name_lc=None if name is None else name.strip().lower(), limit=limit)
            rows = [{by: r["key"], "games": r["games"], "seats": r["seats"], "wins": r["wins"],
                     "findings": r["findings"]} for r in found]
        with self.engine.connect() as conn:
            for row in rows:
                row["think_ms"] = self._mean_think(conn, by, row[by], game, listed_only)
        return rows

    @staticmethod
    def _mean_think(conn: Connection, by: str, name: str, game: str | None, listed_only: bool) -> int | None:
        """The mean think time (ms) over a name's latest ``THINK_SAMPLE`` timed seats, or None."""
        column = GamePlayer.name if by == "player" else GamePlayer.bot
        query = select(GamePlayer.think_ms).where(column == name, GamePlayer.think_ms.is_not(None),
                                                  GamePlayer.think_ms != "")
        if game or listed_only:
            query = query.join(Game, Game.id == GamePlayer.game_id)
            if game:
                query = query.where(Game.game == game)
            if listed_only:
                query = query.where(Game.listed.is_(True))
        times = [t for (kept,) in conn.execute(query.order_by(GamePlayer.game_id.desc()).limit(THINK_SAMPLE))
                 for t in think_list(kept)]
        return round(sum(times) / len(times)) if times else None

    def _game_stats(self, by: str, game: str, listed_only: bool, name: str | None, limit: int | None
                    ) -> list[dict[str, Any]]:
        key = GamePlayer.name if by == "player" else GamePlayer.bot
        role = counted_role(game)
        per_seat = (select(GameFinding.game_id, GameFinding.seat, func.count().label("n"))
                    .group_by(GameFinding.game_id, GameFinding.seat).subquery())
        in_role = GamePlayer.role == role
        won = GamePlayer.won == True  # noqa: E712
        games = func.count(GamePlayer.game_id.distinct())
        query = (
            select(key.label("key"), games.label("games"), func.count().label("seats"),
                   func.count(case((won, GamePlayer.game_id)).distinct()).label("wins"),
                   func.sum(case((in_role, 1), else_=0)).label("role_games"),
                   func.sum(case((and_(in_role, won), 1), else_=0)).label("role_won"),
                   func.sum(func.coalesce(per_seat.c.n, 0)).label("findings"))
            .select_from(GamePlayer)
            .join(Game, Game.id == GamePlayer.game_id)
            .outerjoin(per_seat, and_(per_seat.c.game_id == GamePlayer.game_id, per_seat.c.seat == GamePlayer.seat))
            .where(key.is_not(None), Game.game == game)
            .group_by(key)
            .order_by(games.desc(), key)
        )
        if listed_only:
            query = query.where(Game.listed.is_(True))
        if name:
            column = GamePlayer.name_lc if by == "player" else GamePlayer.bot_lc
            query = query.where(column == name.strip().lower())
        if limit is not None:
            query = query.limit(limit)
        out = []
        with self.engine.connect() as conn:
            for r in conn.execute(query):
                row = {by: r.key, "games": r.games, "seats": r.seats, "wins": int(r.wins or 0),
                       "findings": int(r.findings or 0)}
                if role is not None:
                    row["role_games"] = int(r.role_games or 0)
                    row["role_won"] = int(r.role_won or 0)
                out.append(row)
            figures = seat_figures(game)
            if figures and out:
                self._add_figures(conn, out, by, game, figures, listed_only)
        return out

    @staticmethod
    def _add_figures(conn: Connection, rows: list[dict[str, Any]], by: str, game: str, figures: tuple,
                     listed_only: bool) -> None:
        """Each row's ``figures``: the game's ``seat_figures`` (``value`` and, where the figure has a
        spread, ``interval``), from the sums of its seats' counters (``game_seat_counts``)."""
        key = GamePlayer.name if by == "player" else GamePlayer.bot
        names = sorted({c for f in figures for c in f.counters()})
        keys = [r[by] for r in rows]
        sums: dict[Any, dict[str, int]] = {}
        for start in range(0, len(keys), FIGURE_KEYS):  # a bounded IN list (SQLite's variable limit)
            query = (select(key.label("key"), GameSeatCount.name, func.sum(GameSeatCount.value).label("total"))
                     .select_from(GamePlayer)
                     .join(Game, Game.id == GamePlayer.game_id)
                     .join(GameSeatCount, and_(GameSeatCount.game_id == GamePlayer.game_id,
                                               GameSeatCount.seat == GamePlayer.seat))
                     .where(Game.game == game, key.in_(keys[start:start + FIGURE_KEYS]),
                            GameSeatCount.name.in_(names))
                     .group_by(key, GameSeatCount.name))
            if listed_only:
                query = query.where(Game.listed.is_(True))
            for r in conn.execute(query):
                sums.setdefault(r.key, {})[r.name] = int(r.total or 0)
        for row in rows:
            got = sums.get(row[by], {})
            row["figures"] = {f.name: {"value": f.value(got), "interval": f.interval(got), "n": got.get(f.of, 0)}
                              for f in figures}


#: names asked about in one query of the stats' seat figures
FIGURE_KEYS = 500

#: the keywords ``Archive.list`` takes besides a game's facts (``archive/filters.py``)
FILTERS = (*NEUTRAL, FACT)


def _player_conditions(player: str) -> tuple[Any, Any]:
    """(by name, by platform id) conditions on ``game_players`` for a player filter."""
    value = player.strip().lower()
    if value.endswith("*") and "*" not in value[:-1] and len(value) > 1:
        # a prefix: an index range ("ali*": "ali" <= name < "alj")
        low, high = _prefix_range(value[:-1])
        if high is None:
            return GamePlayer.name_lc >= low, GamePlayer.player_id_lc >= low
        return (and_(GamePlayer.name_lc >= low, GamePlayer.name_lc < high),
                and_(GamePlayer.player_id_lc >= low, GamePlayer.player_id_lc < high))
    if "*" in value:
        pattern = _like_pattern(value)
        return (GamePlayer.name_lc.like(pattern, escape="\\"), GamePlayer.player_id_lc.like(pattern, escape="\\"))
    return GamePlayer.name_lc == value, GamePlayer.player_id_lc == value


def _wildcard_condition(name: str, value: str) -> Any:
    """A wildcard player or winner filter on ``game_players`` (what its tags would match)."""
    pattern = _like_pattern(value)
    columns = [GamePlayer.name_lc, GamePlayer.player_id_lc]
    if name == "winner":
        columns += [GamePlayer.bot_lc, GamePlayer.bot_base_lc]
    cond = or_(*[c.like(pattern, escape="\\") for c in columns])
    return and_(cond, GamePlayer.won == True) if name == "winner" else cond  # noqa: E712


def _bot_condition(bot: str) -> Any:
    """The condition on ``game_players`` for a bot filter: the bot exactly, or its name without
    version. Both lie inside one range of the ``bot_base_lc`` index (a bot's base is a function
    of its name), so no UNION is needed."""
    value = bot.strip().lower()
    return and_(GamePlayer.bot_base_lc == bot_base(value),
                or_(GamePlayer.bot_lc == value, GamePlayer.bot_base_lc == value))


class _Walk(NamedTuple):
    """What a listing walks: each candidate game's id, start key (listing order) and listed flag."""

    game_id: Any
    started_key: Any
    listed: Any


class _TagPlan:
    """A listing's filters as tags, a start range, a listed flag and fact ranges."""

    __slots__ = ("tags", "ranges", "groups", "started_from", "started_to", "listed", "filtered")

    def __init__(self) -> None:
        self.tags: list[str] = []
        self.ranges: list[tuple[str, str, int]] = []  # numeric fact ranges: (name, ">=" or "<=", number)
        self.groups: list[tuple[str, str]] = []  # wildcard player/winner filters: (filter, value)
        self.started_from: datetime | None = None
        self.started_to: datetime | None = None
        self.listed: bool | None = None
        self.filtered = False


def _tag_plan(active: dict[str, Any]) -> _TagPlan | None:
    """The tag plan of a listing's filters, or None when one needs the general plan."""
    plan = _TagPlan()
    plan.filtered = bool(active)
    tags = plan.tags
    for name in ("player", "winner"):
        value = active.get(name)
        if value:
            if "*" in value:  # a wildcard: the tags of the names it matches (see _resolve_groups)
                plan.groups.append((name, value.strip().lower()))
            else:
                tags.append(f"{name}:{value.strip().lower()}")
    if active.get("bot"):
        tags.append(f"bot:{active['bot'].strip().lower()}")
    if active.get("game"):
        tags.append(f"game:{game_name(active['game'])}")
    for name, op, value in active.get("facts", ()):
        if op == "=":
            tags.append(f"fact:{name}={value}")
        else:
            plan.ranges.append((name, op, value))
    if active.get("rules"):
        tags.append(f"rules:{active['rules']}")
    if active.get("end_reason"):
        tags.append(f"end:{active['end_reason']}")
    if active.get("has_findings") is not None:
        tags.append("findings:yes" if active["has_findings"] else "findings:no")
    if active.get("finding_kind"):
        tags.append(f"kind:{active['finding_kind']}")
    if active.get("started_from") is not None:
        plan.started_from = _utc_naive(_as_datetime(active["started_from"], "started_from"))
    if active.get("started_to") is not None:
        plan.started_to = _utc_naive(_as_datetime(active["started_to"], "started_to"))
    if active.get("listed") is not None:
        plan.listed = bool(active["listed"])
    if not tags:
        tags.append(ALL)
    plan.tags = sorted(set(tags))
    return plan


def _probe(column: Any, conditions: list[Any], postgres: bool) -> Any:
    """Whether a row of ``column``'s table meets ``conditions`` (correlated to the walked game).
    On PostgreSQL a per-row probe: it would otherwise plan a semi-join that reads the whole of
    both sides before the first page comes out."""
    if postgres:
        return select(column).where(*conditions).limit(1).scalar_subquery().is_not(None)
    return exists().where(*conditions)


def _range_condition(name: str, op: str, value: int) -> Any:
    return and_(GameFact.name == name, _compare(GameFact.num, op, value))


def _compare(column: Any, op: str, value: int) -> Any:
    return column >= value if op == ">=" else column <= value


def _prefix_range(prefix: str) -> tuple[str, str | None]:
    """``[low, high)`` of every string starting with ``prefix`` in code point order (UTF-8 byte
    order): ``high`` is the prefix with its last character moved one on (past the surrogates,
    which UTF-8 cannot hold); None when there is no such string (the LIKE alone bounds it)."""
    high = prefix
    while high:
        last = ord(high[-1]) + 1
        if 0xD800 <= last <= 0xDFFF:
            last = 0xE000
        if last <= 0x10FFFF:
            return prefix, high[:-1] + chr(last)
        high = high[:-1]
    return prefix, None


def _make_cursor(sort: str, value: Any, last_id: int) -> str:
    if isinstance(value, datetime):
        value = ["t", value.isoformat()]
    text = json.dumps([sort, value, last_id], separators=(",", ":"))
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def _read_cursor(cursor: str, sort: str) -> tuple[Any, int]:
    """``(sort value, game row id)`` of the last game of the page before; ArchiveError if bad."""
    bad = CursorError(f"cursor {cursor[:40]!r} is not one this archive gave for sort {sort!r}")
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        kind, value, last_id = json.loads(text)
    except (ValueError, TypeError, binascii.Error, UnicodeDecodeError):
        raise bad from None
    if kind != sort or not isinstance(last_id, int) or isinstance(last_id, bool) or not 0 < last_id < 2**63:
        raise bad
    if isinstance(value, list) and len(value) == 2 and value[0] == "t" and isinstance(value[1], str):
        try:
            value = datetime.fromisoformat(value[1])
        except ValueError:
            raise bad from None
    elif not (isinstance(value, int) and not isinstance(value, bool)):
        raise bad
    if sort.lstrip("-+") in ("started_at", "ingested_at") and not isinstance(value, datetime):
        raise bad
    if sort.lstrip("-+") == "findings" and isinstance(value, datetime):
        raise bad
    return value, last_id

