"""What is kept up to date at ingest so that no listing or statistic grows with the archive.

- *Tags* (``game_tags``): one row per thing a game is found by, in (tag, start time, game)
  order. :func:`game_tags` is the one definition of which tags a game gets; migration 0003
  builds the same from older rows (``tests/archive/test_scale.py`` checks that they agree).
- *Counters* (``counters``): games per tag (listing totals) and per player and bot the
  figures of ``Archive.stats``, each also over listed games only. Writers append
  ``counter_deltas`` rows inside their own transaction (two ingesters never wait on one
  counter row, so they never deadlock on one); :meth:`Summaries.fold` moves the deltas into
  ``counters`` in one short transaction that one process at a time runs; readers add the few
  deltas not folded yet, so what they see is always exact.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from typing import Any, Iterable, Mapping, NamedTuple, Sequence

from sqlalchemy import Connection, Engine, and_, bindparam, delete, func, select, text, union_all

from replay.games import get as get_game, names as game_names

from .database import insert_many
from .models import Counter, CounterDelta, Game, GameFact, GameFinding, GamePlayer, GameTag

#: ``started_key`` of a game without a start time: listed as the oldest.
NO_START = datetime(1, 1, 1)
#: The tag of every game (the unfiltered listing).
ALL = "*"
#: each counter's figures: games, seats taken, seats in the game's counted role
#: (``GameModule.counted_role``) and won in it, games won, findings tied to its seats
COUNTS = ("games", "seats", "role_games", "role_won", "wins", "findings")
LISTED_COUNTS = tuple(f"listed_{c}" for c in COUNTS)
#: logged events that are never a seat's own move (for think times; a game's ``action_events``
#: say which of the others are)
NOT_MOVES = ("chat",)
#: pg_try_advisory_xact_lock key of the folding transaction.
FOLD_LOCK = 0x6761_6D65_7265_706C  # "gamerepl"


def started_key(started_at: datetime | None) -> datetime:
    return NO_START if started_at is None else started_at


def think_times(log) -> dict[str, list[int]]:
    """Milliseconds each seat took for each of its moves (when the log has times), any game:
    a move is an event with a seat that is one of its game's actions (``GameModule.action_events``;
    any but chat for a game the registry does not know), timed from the event logged before it. Kept per seat at ingest (``game_players.think_ms``)."""
    out: dict[Any, list[int]] = {}
    previous = 0
    name = str(getattr(log, "format", "") or "").split("/", 1)[0]
    actions = get_game(name).action_events if name in game_names() else frozenset()
    for event in log.events:
        fields = getattr(event, "__dict__", None)  # pydantic keeps fields there: no __getattr__
        if not fields:  # an event that keeps them elsewhere (slots, properties)
            fields = {name: getattr(event, name, None) for name in ("t", "seat", "type")}
        t = fields.get("t")
        if t is None:
            continue
        seat = fields.get("seat")
        kind = fields.get("type")
        if seat is not None and t >= previous and kind not in NOT_MOVES and (not actions or kind in actions):
            found = out.get(seat)
            if found is None:
                out[seat] = [t - previous]
            else:
                found.append(t - previous)
        previous = t
    return {getattr(seat, "name", None) or str(seat): times for seat, times in out.items()}


def think_text(times: Iterable[int]) -> str:
    """A seat's think times as ``game_players.think_ms`` keeps them: ``"900,1200"`` ("" for none)."""
    return ",".join(map(str, times))


def think_list(text: str) -> list[int]:
    """``think_text`` read back."""
    return [int(t) for t in text.split(",")] if text else []


def number_tag(name: str) -> str:
    """The tag of the games that have the numeric fact ``name`` (``number:turns``): a wide range
    (``turns>=40``) walks it in listing order, checking each game's number (migration 0007)."""
    return f"number:{name}"


def game_tags(game: Mapping[str, Any], players: Iterable[Mapping[str, Any]], finding_kinds: Iterable[str],
              facts: Iterable[tuple[str, str]], numbers: Iterable[str] = ()) -> list[str]:
    """Every tag of one game, sorted: from its ``games`` row fields (``game``, ``end_reason``,
    ``findings``), its ``game_players`` rows, its finding kinds, its (fact, value) pairs and the
    names of its numeric facts."""
    tags = {ALL, f"game:{game['game']}", f"end:{game['end_reason']}", f"rules:{game['rules']}",
            "findings:yes" if game["findings"] else "findings:no"}
    tags.update(f"fact:{name}={value}" for name, value in facts)
    tags.update(number_tag(name) for name in numbers)
    tags.update(f"kind:{kind}" for kind in finding_kinds)
    for p in players:
        for column in ("name_lc", "player_id_lc"):
            if p.get(column) is not None:
                tags.add(f"player:{p[column]}")
        for column in ("bot_lc", "bot_base_lc"):
            if p.get(column) is not None:
                tags.add(f"bot:{p[column]}")
        if p.get("won"):
            for column in ("name_lc", "player_id_lc", "bot_lc", "bot_base_lc"):
                if p.get(column) is not None:
                    tags.add(f"winner:{p[column]}")
    return sorted(tags)


class GameShare(NamedTuple):
    """A stored game's listed flag, its share of every counter, its tags and their start key."""

    listed: bool
    counts: dict[tuple[str, str], list[Any]]
    tags: list[str]
    started_key: datetime


def tags_of_rows(game: Mapping[str, Any], players: Iterable[Mapping[str, Any]], finding_kinds: Iterable[str],
                 facts: Sequence[Mapping[str, Any]]) -> list[str]:
    """:func:`game_tags` from a game's own rows, its facts as ``game_facts`` rows (``name``,
    ``value``, ``num``): what ingest writes, and what publishing or deleting a game finds again."""
    return game_tags(game, players, finding_kinds, [(f["name"], f["value"]) for f in facts],
                     [f["name"] for f in facts if f["num"] is not None])


def seat_figures(game: str) -> tuple:
    """The figures per player a game's stats show (``GameModule.seat_figures``); none for a game
    the registry does not know."""
    return tuple(get_game(game).seat_figures) if game in game_names() else ()


def counted_role(game: str) -> str | None:
    """The role a game's counters keep (``GameModule.counted_role``); None for a game the
    registry does not know (its plugin uninstalled since)."""
    found = _COUNTED.get(game, _UNKNOWN)
    if found is _UNKNOWN:
        found = get_game(game).counted_role if game in game_names() else None
        _COUNTED[game] = found
    return found  # type: ignore[return-value]


_COUNTED: dict[str, Any] = {}
_UNKNOWN = object()


def game_counts(game: Mapping[str, Any], players: Iterable[Mapping[str, Any]],
                finding_seats: Iterable[str | None], tags: Iterable[str]) -> dict[tuple[str, str], list[Any]]:
    """One game's share of every counter:
    ``{(kind, key): [key_lc, games, seats, role_games, role_won, wins, findings]}``."""
    per_seat: dict[str | None, int] = defaultdict(int)
    for seat in finding_seats:
        per_seat[seat] += 1
    out: dict[tuple[str, str], list[Any]] = {("tag", t): [t, 1, 0, 0, 0, 0, 0] for t in tags}
    role = counted_role(game["game"])
    for p in players:
        seat = p["seat"]
        in_role = role is not None and p.get("role") == role
        won = bool(p.get("won"))
        for kind, column, column_lc in (("player", "name", "name_lc"), ("bot", "bot", "bot_lc")):
            key = p.get(column)
            if key is None:
                continue
            entry = out.setdefault((kind, key[:250]), [(p.get(column_lc) or "")[:250], 1, 0, 0, 0, 0, 0])
            entry[2] += 1
            entry[3] += int(in_role)
            entry[4] += int(in_role and won)
            if won:  # a game won counts once, whichever of the name's seats won it
                entry[5] = 1
            entry[6] += per_seat.get(seat, 0)
    return out


def delta_rows(counts: Mapping[tuple[str, str], list[Any]], *, sign: int = 1, listed: bool,
               only_listed: bool = False) -> list[dict[str, Any]]:
    """``counter_deltas`` rows adding (``sign`` -1: taking away) one game's share."""
    rows = []
    for (kind, key), (key_lc, *values) in counts.items():
        row: dict[str, Any] = {"kind": kind, "key": key, "key_lc": key_lc}
        for name, value in zip(COUNTS, values):
            row[name] = 0 if only_listed else sign * value
            row[f"listed_{name}"] = sign * value if listed else 0
        rows.append(row)
    return rows


def add_counts(total: dict[tuple[str, str], list[Any]], counts: Mapping[tuple[str, str], list[Any]], *,
               listed: bool) -> None:
    """Add one ingested game's share to a batch's ``total`` (``{(kind, key): [key_lc, *COUNTS,
    *LISTED_COUNTS]}``): the same sums as ``delta_rows`` then ``_merged``, in one pass.

    ``counts`` is ``game_counts``'s (``[key_lc, *COUNTS]`` per counter); the sums are written
    out, not looped over: this runs for every counter of every game ingested (two dozen a game).
    """
    get = total.get
    for key, entry in counts.items():
        found = get(key)
        _, games, seats, role_games, role_won, wins, findings = entry
        if found is None:
            total[key] = ([*entry, games, seats, role_games, role_won, wins, findings] if listed
                          else [*entry, 0, 0, 0, 0, 0, 0])
            continue
        found[1] += games
        found[2] += seats
        found[3] += role_games
        found[4] += role_won
        found[5] += wins
        found[6] += findings
        if listed:
            found[7] += games
            found[8] += seats
            found[9] += role_games
            found[10] += role_won
            found[11] += wins
            found[12] += findings


def total_rows(total: Mapping[tuple[str, str], list[Any]]) -> list[dict[str, Any]]:
    """``counter_deltas`` rows of a batch's ``add_counts`` total, in key order."""
    return [{"kind": kind, "key": key, "key_lc": values[0], **dict(zip((*COUNTS, *LISTED_COUNTS), values[1:]))}
            for (kind, key), values in sorted(total.items())]


class Summaries:
    """Reads and folds the counters of one archive database."""

    def __init__(self, engine: Engine):
        self.engine = engine
        self.reader = (engine.execution_options(isolation_level="AUTOCOMMIT")
                       if engine.dialect.name == "postgresql" else engine)

    # -- writing ------------------------------------------------------------------------------
    def add(self, conn: Connection, rows: list[dict[str, Any]], *, merged: bool = False) -> None:
        if rows:
            insert_many(conn, CounterDelta.__table__, rows if merged else _merged(rows))

    def game_share(self, conn: Connection, game_id: int) -> GameShare | None:
        """A stored game's tags and share of the counters, from its rows (for deleting or
        publishing it): ``game_tags`` has no index by game (migration 0009), so its rows are
        reached by primary key, the tags computed as ingest computed them."""
        game = conn.execute(select(Game.game, Game.end_reason, Game.rules, Game.findings, Game.listed,
                                   Game.started_at).where(Game.id == game_id)).first()
        if game is None:
            return None
        players = [dict(r._mapping) for r in conn.execute(
            select(GamePlayer.seat, GamePlayer.name, GamePlayer.name_lc, GamePlayer.player_id_lc, GamePlayer.bot,
                   GamePlayer.bot_lc, GamePlayer.bot_base_lc, GamePlayer.role, GamePlayer.won).where(GamePlayer.game_id == game_id))]
        findings = conn.execute(select(GameFinding.seat, GameFinding.kind).where(GameFinding.game_id == game_id)).all()
        facts = conn.execute(select(GameFact.name, GameFact.value, GameFact.num)
                             .where(GameFact.game_id == game_id)).mappings().all()
        tags = tags_of_rows(game._mapping, players, {f.kind for f in findings}, facts)
        return GameShare(bool(game.listed), game_counts(game._mapping, players, [f.seat for f in findings], tags),
                         tags, started_key(game.started_at))

    @staticmethod
    def tag_rows(share: GameShare, game_id: int) -> Any:
        """The condition that picks a game's ``game_tags`` rows, by primary key."""
        return and_(GameTag.tag.in_(share.tags), GameTag.started_key == share.started_key, GameTag.game_id == game_id)

    def fold(self) -> int:
        """Move pending deltas into ``counters``; returns how many. One process at a time
        folds (PostgreSQL: an advisory lock, skipped when another process holds it)."""
        with self.engine.execution_options(write=True).begin() as conn:
            sums = ", ".join(f"SUM({c})" for c in (*COUNTS, *LISTED_COUNTS))
            columns = ", ".join((*COUNTS, *LISTED_COUNTS))
            updates = ", ".join(f"{c} = counters.{c} + excluded.{c}" for c in (*COUNTS, *LISTED_COUNTS))
            if conn.dialect.name == "postgresql":
                if not conn.execute(text("SELECT pg_try_advisory_xact_lock(:k)"), {"k": FOLD_LOCK}).scalar():
                    return 0
                result = conn.execute(text(
                    f"WITH moved AS (DELETE FROM counter_deltas RETURNING *) "
                    f"INSERT INTO counters (kind, key, key_lc, {columns}) "
                    f"SELECT kind, key, MIN(key_lc), {sums} FROM moved GROUP BY kind, key ORDER BY kind, key "
                    f"ON CONFLICT (kind, key) DO UPDATE SET {updates}"))
                return result.rowcount
            last = conn.execute(select(func.max(CounterDelta.id))).scalar()
            if last is None:
                return 0
            result = conn.execute(text(
                f"INSERT INTO counters (kind, key, key_lc, {columns}) "
                f"SELECT kind, key, MIN(key_lc), {sums} FROM counter_deltas WHERE id <= :last "
                f"GROUP BY kind, key ORDER BY kind, key "
                f"ON CONFLICT (kind, key) DO UPDATE SET {updates}"), {"last": last})
            conn.execute(delete(CounterDelta).where(CounterDelta.id <= last))
            return result.rowcount

    # -- reading ------------------------------------------------------------------------------
    def tag_total(self, conn: Connection, tag: str, listed_only: bool) -> int:
        column = "listed_games" if listed_only else "games"
        parts = union_all(
            select(getattr(Counter, column).label("n")).where(Counter.kind == "tag", Counter.key == tag),
            select(getattr(CounterDelta, column).label("n")).where(CounterDelta.kind == "tag",
                                                                  CounterDelta.key == tag),
        ).subquery()
        return int(conn.execute(select(func.coalesce(func.sum(parts.c.n), 0))).scalar_one())

    def top(self, kind: str, *, listed_only: bool, name_lc: str | None, limit: int | None
            ) -> list[dict[str, Any]]:
        """Counters of one kind, most games first (ties by key), pending deltas included."""
        if kind not in ("player", "bot"):
            raise ValueError(f"no leaderboard of {kind!r} counters")
        # the kind as a literal in the SQL: on PostgreSQL the indexes by games and by key_lc
        # hold no tag counters (migration 0010), and a plan made for a parameter could not use them
        counter_kind = bindparam("counter_kind", kind, literal_execute=True)
        prefix = "listed_" if listed_only else ""
        names = [f"{prefix}{c}" for c in COUNTS]
        with self.reader.connect() as conn:
            pending: dict[str, dict[str, Any]] = {}
            query = select(CounterDelta.key, CounterDelta.key_lc,
                           *[getattr(CounterDelta, n) for n in names]).where(CounterDelta.kind == kind)
            if name_lc is not None:
                query = query.where(CounterDelta.key_lc == name_lc)
            for row in conn.execute(query):
                entry = pending.setdefault(row.key, dict.fromkeys(COUNTS, 0))
                for c, n in zip(COUNTS, names):
                    entry[c] += getattr(row, n)
            games = getattr(Counter, names[0])
            query = select(Counter.key, *[getattr(Counter, n) for n in names]).where(Counter.kind == counter_kind)
            if name_lc is not None:
                # one name (a few keys at most, told apart by case): by the key_lc index, and no
                # ORDER BY, which SQLite would serve from the games index by reading every
                # counter of the kind (the rows are sorted below anyway)
                query = query.where(Counter.key_lc == name_lc)
            else:
                query = query.where(games > 0).order_by(games.desc(), Counter.key)
            if limit is not None:
                query = query.limit(limit + len(pending))
            found = {row.key: dict(zip(COUNTS, row[1:])) for row in conn.execute(query)}
            missing = [k for k in pending if k not in found]
            if missing:
                for row in conn.execute(select(Counter.key, *[getattr(Counter, n) for n in names])
                                        .where(Counter.kind == kind, Counter.key.in_(missing))):
                    found[row.key] = dict(zip(COUNTS, row[1:]))
        for key, extra in pending.items():
            entry = found.setdefault(key, dict.fromkeys(COUNTS, 0))
            for c in COUNTS:
                entry[c] += extra[c]
        rows = [{"key": k, **v} for k, v in found.items() if v["games"] > 0]
        rows.sort(key=lambda r: (-r["games"], r["key"]))
        return rows if limit is None else rows[:limit]


def _merged(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Rows for the same counter added up, in key order (fewer rows, one lock order)."""
    out: dict[tuple[str, str], dict[str, Any]] = {}
    for row in rows:
        key = (row["kind"], row["key"])
        found = out.get(key)
        if found is None:
            out[key] = dict(row)
        else:
            for c in (*COUNTS, *LISTED_COUNTS):
                found[c] += row[c]
    return [out[k] for k in sorted(out)]
