"""The archive's database layer: engines, the schema's upgrade, bulk inserts and COPY.

Everything above it (ingest, queries, summaries, ratings, the facade) gets its engine and its
settings passed in; this module imports none of them.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any, Iterator, Sequence

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, DateTime, Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError
from sqlalchemy.pool import StaticPool

from .records import ArchiveError

#: Rows from which a PostgreSQL insert is a COPY (``insert_tuples``).
COPY_ROWS = 32


def create_archive_engine(url: str, sqlite_cache_kib: int) -> Engine:
    """An engine for the archive at ``url`` (SQLite or PostgreSQL), with each backend's session settings."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise ArchiveError(f"not a database URL: {url!r} (e.g. sqlite:///var/game-replay.db or "
                           "postgresql+psycopg://user@host/db)") from None
    kwargs: dict[str, Any] = {}
    if parsed.get_backend_name() == "sqlite":
        database = parsed.database or ""
        if database in ("", ":memory:") or parsed.query.get("mode") == "memory":
            kwargs["poolclass"] = StaticPool
            kwargs["connect_args"] = {"check_same_thread": False}
        else:
            Path(database).parent.mkdir(parents=True, exist_ok=True)
    try:
        engine = create_engine(parsed, **kwargs)
    except ImportError as exc:
        hint = " (pip install 'psycopg[binary]')" if "psycopg" in str(exc) else ""
        raise ArchiveError(f"cannot use database URL {parsed.render_as_string(hide_password=True)}: "
                           f"its driver is missing: {exc}{hint}") from None
    except (NoSuchModuleError, ArgumentError) as exc:
        raise ArchiveError(f"unsupported database URL {parsed.render_as_string(hide_password=True)}: "
                           f"{exc}") from None
    if engine.dialect.name == "sqlite":
        memory = "poolclass" in kwargs

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_conn, _record):  # pragma: no cover - trivial
            cur = dbapi_conn.cursor()
            if not memory:
                cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.execute("PRAGMA busy_timeout=30000")
            cur.execute(f"PRAGMA cache_size=-{int(sqlite_cache_kib)}")
            cur.close()
            # transactions are begun here, not by the driver, so that savepoints work and a
            # writer takes the write lock when it begins (BEGIN IMMEDIATE), never half-way
            dbapi_conn.isolation_level = None

        @event.listens_for(engine, "begin")
        def _begin(conn):  # pragma: no cover - trivial
            conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.get_execution_options().get("write") else "BEGIN")
    elif engine.dialect.name == "postgresql":
        @event.listens_for(engine, "connect")
        def _no_jit(dbapi_conn, _record):
            # The archive's queries are short index walks that stop at a page or at the count
            # cap, but the planner costs a walk as if it read its whole range: past
            # ``jit_above_cost`` it compiled the query first (5 ms of a 12 ms count at
            # 200,000 games). This session's setting only; the server's is left alone.
            with dbapi_conn.cursor() as cur:
                cur.execute("SET jit = off")
            dbapi_conn.commit()
    return engine

def upgrade(engine: Engine) -> None:
    """Bring the database's schema up to date (Alembic ``upgrade head``; the migrations ship here)."""
    config = Config()
    config.set_main_option("script_location", str(Path(__file__).resolve().parent / "migrations"))
    with engine.execution_options(write=True).begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "head")


def insert_many(conn: Connection, table: Any, rows: Sequence[dict[str, Any]]) -> None:
    """``INSERT`` many rows of plain values with one driver-level executemany.

    SQLAlchemy's per-row parameter processing is most of the cost of inserting the dozens of
    index rows each game has; the values here need none but SQLite's datetimes as text.
    """
    if not rows:
        return
    dialect = conn.dialect
    columns = list(rows[0])
    times = [i for i, c in enumerate(columns) if isinstance(table.c[c].type, DateTime)]
    values = [tuple(row.values()) for row in rows]  # every row has its columns in one order
    if times and dialect.name == "sqlite":  # SQLAlchemy's text form of a datetime there
        for i, row in enumerate(values):
            row = list(row)
            for j in times:
                if row[j] is not None:
                    row[j] = row[j].isoformat(" ", "microseconds")
            values[i] = tuple(row)
    insert_tuples(conn, table, columns, values)


def insert_tuples(conn: Connection, table: Any, columns: Sequence[str], values: Sequence[tuple[Any, ...]]) -> None:
    """``insert_many`` of rows already as driver values, in ``columns`` order.

    On PostgreSQL, from ``COPY_ROWS`` rows on, through ``COPY ... FROM STDIN`` (psycopg writes
    each row in C; its executemany adapted every parameter in Python: most of the writer's own
    time on PostgreSQL). A value the database refuses raises SQLAlchemy's ``DBAPIError`` as an
    INSERT would, so the batch falls back to one game at a time all the same.
    """
    if not values:
        return
    if conn.dialect.name == "postgresql" and len(values) >= COPY_ROWS:
        import psycopg

        statement = f"COPY {table.name} ({', '.join(columns)}) FROM STDIN"
        try:
            payload = _copy_text(values)
        except TypeError:  # a value of another type (bytes): psycopg writes each row
            payload = None
        try:
            with conn.connection.driver_connection.cursor() as cursor, cursor.copy(statement) as copy:
                if payload is not None:
                    copy.write(payload)
                else:
                    for row in values:
                        copy.write_row(row)
        except psycopg.Error as exc:
            raise DBAPIError.instance(statement, None, exc, psycopg.Error, dialect=conn.dialect) from exc
        return
    mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    conn.exec_driver_sql(f"INSERT INTO {table.name} ({', '.join(columns)}) "
                         f"VALUES ({', '.join([mark] * len(columns))})", list(values))


#: COPY's text format: a backslash, tab, newline or carriage return in a value is escaped
_COPY_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})


def _copy_field(value: Any) -> str:
    kind = type(value)
    if kind is str:
        return value.translate(_COPY_ESCAPES)
    if value is None:
        return "\\N"
    if kind is int:
        return str(value)
    if kind is bool:
        return "t" if value else "f"
    if kind is datetime:
        return value.isoformat()
    if kind is float:
        return repr(value)
    raise TypeError(f"no COPY text for {kind.__name__}")


def _copy_text(values: Sequence[tuple[Any, ...]]) -> bytes:
    """Rows in COPY's text format, one payload: psycopg's ``write_row`` costs a Python call
    and a row object per row, 0.12 ms a game of the writer's time at thirty rows a game.
    Made column by column: a column's values are all of one type (or None), so each column is
    one comprehension of C-level calls, not a Python call per value (``_copy_field`` is left
    for a column that mixes types).

    >>> _copy_text([("a\\tb", None, 3, True), ("x\\\\y", 2.5, -1, False)])
    b'a\\\\tb\\t\\\\N\\t3\\tt\\nx\\\\\\\\y\\t2.5\\t-1\\tf\\n'
    """
    columns = [_copy_column(column) for column in zip(*values)]
    return "".join(["\t".join(row) + "\n" for row in zip(*columns)]).encode()


def _copy_column(column: tuple[Any, ...]) -> Sequence[str] | Iterator[str]:
    kinds = set(map(type, column))
    nulls = type(None) in kinds
    kinds.discard(type(None))
    kind = kinds.pop() if len(kinds) == 1 else None
    if kind is str:
        joined = "".join([v for v in column if v is not None] if nulls else column)
        if "\\" in joined or "\t" in joined or "\n" in joined or "\r" in joined:  # rare: escape each
            return [v.translate(_COPY_ESCAPES) if v is not None else "\\N" for v in column]
        return [v if v is not None else "\\N" for v in column] if nulls else column
    if kind is int:
        return [str(v) if v is not None else "\\N" for v in column]
    if kind is bool:
        return ["\\N" if v is None else "t" if v else "f" for v in column]
    if kind is datetime:  # a game's rows share its start time: each one written once
        written = {v: "\\N" if v is None else v.isoformat() for v in set(column)}
        return list(map(written.__getitem__, column))
    if kind is None and not kinds:
        return ["\\N"] * len(column)
    return map(_copy_field, column)
