"""The writer's COPY rows (``archive.database._copy_text``): whatever text, numbers, flags and times
a row holds, PostgreSQL reads back exactly those values, and a value it refuses (NUL) is refused."""

from __future__ import annotations

from datetime import datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from archive.database import _copy_text

pytestmark = pytest.mark.postgres

TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=30)
ROW = st.tuples(TEXT, st.one_of(st.none(), st.integers(-2**63, 2**63 - 1)), st.booleans(),
                st.datetimes(min_value=datetime(1, 1, 1), max_value=datetime(9999, 12, 31)),
                st.floats(allow_nan=False, allow_infinity=False), st.one_of(st.none(), TEXT))


@pytest.fixture(scope="module")
def connection(postgres_server):
    import psycopg

    name = postgres_server.create_database()
    with psycopg.connect(f"host=127.0.0.1 port={postgres_server.port} user=postgres dbname={name}",
                         autocommit=True) as conn:
        conn.execute("CREATE TABLE t (a text, b bigint, c boolean, d timestamp, e float8, f text)")
        yield conn
    postgres_server.drop_database(name)


def _round_trip(conn, rows):
    conn.execute("TRUNCATE t")
    with conn.cursor() as cursor, cursor.copy("COPY t (a, b, c, d, e, f) FROM STDIN") as copy:
        copy.write(_copy_text(rows))
    return conn.execute("SELECT a, b, c, d, e, f FROM t").fetchall()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(ROW, min_size=1, max_size=8))
def test_rows_come_back_as_they_were_written(connection, rows):
    assert sorted(_round_trip(connection, rows), key=repr) == sorted(rows, key=repr)


def test_escapes_and_nul(connection):
    import psycopg

    tricky = [("\\.", None, True, datetime(1, 1, 1), -0.0, "a\tb\nc\rd\\N\\"),
              ("\\N", 0, False, datetime(2026, 1, 1), 1e300, None)]
    assert _round_trip(connection, tricky) == tricky
    with pytest.raises(psycopg.Error):
        _round_trip(connection, [("nul\x00here", None, True, datetime(2026, 1, 1), 0.0, None)])
    with pytest.raises(TypeError):  # bytes are left to psycopg's own rows (insert_tuples)
        _copy_text([(b"raw",)])
