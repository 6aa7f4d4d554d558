"""A game's players, findings, facts and rating history lose their foreign keys to ``games``.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-26

Each ingested game writes a dozen rows into these four tables, and for every one of them the
database checked that its game exists (on PostgreSQL a trigger that probes ``games`` and locks
the game's row for the rest of the transaction): 0.03-0.05 ms of the server's time a game at
200,000 games. The rows are written in the same transaction as their game, and deleting a
game deletes them by name (``Admin.delete_row``), as it already did for ``game_tags``
(migration 0009): like ``game_tags`` and ``counters``, they are derived rows kept by the
archive's own code. ``games.raw_blob_id`` keeps its foreign key (one check a game, and the
bytes it protects are the archive's reason to be).

PostgreSQL drops the constraints. SQLite cannot drop one: each table is copied into one made
from its own stored definition without the constraint, and its indexes are made again from
theirs. The downgrade puts the constraints back the same way.
"""

from __future__ import annotations

import re

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

TABLES = ("game_players", "game_findings", "game_facts", "rating_history")
_REFERENCE = "FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE"


def _sqlite_copy(table: str, reference: bool) -> None:
    """SQLite: ``table`` again from its own definition, with or without the reference to games."""
    conn = op.get_bind()
    definition = conn.exec_driver_sql("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?",
                                      (table,)).scalar_one()
    indexes = [row[0] for row in conn.exec_driver_sql(
        "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL", (table,))]
    body = re.sub(r",\s*FOREIGN KEY\s*\(game_id\)\s*REFERENCES\s+games\s*\(id\)(\s+ON DELETE CASCADE)?", "",
                  definition)
    if reference:
        end = body.rindex(")")
        body = f"{body[:end].rstrip()}, \n\t{_REFERENCE}\n{body[end:]}"
    copy = re.sub(r'^CREATE TABLE\s+"?' + table + r'"?', f"CREATE TABLE {table}_copy", body)
    if copy == body:
        raise RuntimeError(f"unexpected definition of {table}: {definition!r}")
    op.execute(sa.text(copy))
    op.execute(sa.text(f"INSERT INTO {table}_copy SELECT * FROM {table} ORDER BY rowid"))
    op.execute(sa.text(f"DROP TABLE {table}"))
    op.execute(sa.text(f"ALTER TABLE {table}_copy RENAME TO {table}"))
    for index in indexes:
        op.execute(sa.text(index))


def upgrade() -> None:
    conn = op.get_bind()
    for table in TABLES:
        if conn.dialect.name == "sqlite":
            _sqlite_copy(table, reference=False)
            continue
        for key in sa.inspect(conn).get_foreign_keys(table):
            if key["referred_table"] == "games":
                op.drop_constraint(key["name"], table, type_="foreignkey")


def downgrade() -> None:
    conn = op.get_bind()
    for table in TABLES:
        if conn.dialect.name == "sqlite":
            _sqlite_copy(table, reference=True)
        else:
            op.create_foreign_key(f"{table}_game_id_fkey", table, "games", ["game_id"], ["id"], ondelete="CASCADE")
