"""Listings and statistics at scale: a game's tags by game, each seat's think times kept at ingest.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-25

- ``game_tags``: the index on ``game_id`` alone becomes (``game_id``, ``tag``) (on PostgreSQL
  with ``started_key`` included): a listing driven by a numeric fact range (``turns>=30``)
  finds each matching game's place in the listing order by one index probe, index-only, and
  the combined filters probe a game's other tags the same way. Deleting a game still finds its
  tags by this index.
- ``game_players.think_ms``: the seat's think times (milliseconds per move, comma-separated),
  written at ingest, so that ``/stats`` no longer reads and judges raw logs per request. Rows
  stored before this revision keep NULL there, and ``/stats`` works theirs out from the raw log
  as before.

The downgrade drops the column and puts the ``game_id`` index back.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_tags_game_tag", "game_tags", ["game_id", "tag"], postgresql_include=["started_key"])
    op.drop_index("ix_tags_game", table_name="game_tags")
    op.add_column("game_players", sa.Column("think_ms", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("game_players") as batch:
        batch.drop_column("think_ms")
    op.create_index("ix_tags_game", "game_tags", ["game_id"])
    op.drop_index("ix_tags_game_tag", table_name="game_tags")
