"""PostgreSQL: the counters' secondary indexes leave out the tag counters.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-26

``counters`` has three indexes besides its primary key: by games and by listed games (the
leaderboards, most games first) and by lower-cased key (one player's or bot's figures). They
serve the ``player`` and ``bot`` counters only; a ``tag`` counter (two thirds of the rows) is
read by its primary key. Every fold of the counter deltas updates hundreds of counters, and on
PostgreSQL an update that changes ``games`` writes a new entry in every index: the fold was the
largest single statement of the server's time while 200,000 games were ingested. With the
three indexes partial (``WHERE kind <> 'tag'``), a tag counter's update writes its heap row and
its primary key entry only. The queries that use them name the kind as a literal, so that the
planner can tell that the index holds its rows (``Summaries.top``).

SQLite keeps the full indexes (its planner does not take ``kind = 'player'`` as proof of
``kind <> 'tag'``, and its ingest is not held up by the fold). The downgrade builds them whole.
"""

from __future__ import annotations

from alembic import op
import sqlalchemy as sa

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

_INDEXES = {"ix_counters_games": ["kind", "games", "key"],
            "ix_counters_listed_games": ["kind", "listed_games", "key"],
            "ix_counters_key_lc": ["kind", "key_lc"]}


def _rebuild(partial: bool) -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    for name, columns in _INDEXES.items():
        op.drop_index(name, table_name="counters")
        op.create_index(name, "counters", columns,
                        postgresql_where=sa.text("kind <> 'tag'") if partial else None)


def upgrade() -> None:
    _rebuild(partial=True)


def downgrade() -> None:
    _rebuild(partial=False)
