"""``game_tags`` loses its index by game and its foreign key: a game's tags are found by key.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-26

Every game writes about twenty ``game_tags`` rows, and each went into two B-trees: the primary
key ``(tag, started_key, game_id)`` that listings walk, and ``ix_tags_game_tag (game_id, tag)``,
kept only to find one game's tags when it is published or deleted, and for the foreign key's
``ON DELETE CASCADE``. At 200,000 games on PostgreSQL that second index was a quarter of the
server's time per ingested game (0.95 ms of CPU a game with it, 0.70 without). A game's tags
are now computed from its own rows (``summaries.game_tags``, the one definition ingest uses)
and reached by primary key, so neither the index nor the cascade (which would scan the table
without it) is needed. ``game_tags`` is derived data, kept by the archive's code like
``counters``: the ingest writes a game's tags with its rows, and deleting a game deletes them.

The upgrade drops the index and the foreign key (SQLite cannot drop a constraint: the table is
copied into a new one without it, in primary key order). The downgrade puts both back.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

_COLUMNS = ("tag VARCHAR(250) NOT NULL, started_key DATETIME NOT NULL, game_id INTEGER NOT NULL, "
            "listed BOOLEAN NOT NULL, num BIGINT")
_NUMBER_INDEX = "CREATE INDEX ix_tags_number ON game_tags (tag, num, listed) WHERE num IS NOT NULL"


def _sqlite_copy(foreign_key: bool) -> None:
    """SQLite: game_tags again, with or without its foreign key, rows copied in key order."""
    reference = ", FOREIGN KEY(game_id) REFERENCES games (id) ON DELETE CASCADE" if foreign_key else ""
    op.execute(sa.text(f"CREATE TABLE game_tags_copy ({_COLUMNS}, PRIMARY KEY (tag, started_key, game_id)"
                       f"{reference}) WITHOUT ROWID"))
    op.execute(sa.text("INSERT INTO game_tags_copy (tag, started_key, game_id, listed, num) "
                       "SELECT tag, started_key, game_id, listed, num FROM game_tags ORDER BY tag, started_key, game_id"))
    op.execute(sa.text("DROP TABLE game_tags"))
    op.execute(sa.text("ALTER TABLE game_tags_copy RENAME TO game_tags"))
    op.execute(sa.text(_NUMBER_INDEX))


def upgrade() -> None:
    conn = op.get_bind()
    if conn.dialect.name == "sqlite":
        _sqlite_copy(foreign_key=False)  # the index by game goes with the old table
        return
    op.drop_index("ix_tags_game_tag", table_name="game_tags")
    for key in sa.inspect(conn).get_foreign_keys("game_tags"):
        op.drop_constraint(key["name"], "game_tags", type_="foreignkey")


def downgrade() -> None:
    conn = op.get_bind()
    if conn.dialect.name == "sqlite":
        _sqlite_copy(foreign_key=True)
    else:
        op.create_foreign_key("game_tags_game_id_fkey", "game_tags", "games", ["game_id"], ["id"], ondelete="CASCADE")
    op.create_index("ix_tags_game_tag", "game_tags", ["game_id", "tag"], postgresql_include=["started_key"])
