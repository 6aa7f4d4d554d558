"""Analyses: a game's double-dummy analysis kept once computed, and per-seat figures for stats.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-25

Three new tables, filled lazily (the first time a page or ``Archive.analysis`` asks for a
game's analysis) or by ``game-replay archive analyse``, never at ingest nor by this migration:
``analyses`` (the analysis JSON, compressed, keyed by the game's content so a game opened
from its code and from the archive share it, with the analyser's version), ``analysis_seats``
(per seat: cards, mistakes, tricks lost) and ``game_analyses`` (which archived game has which
analysis).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "analyses",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("version", sa.String(40), nullable=False),
        sa.Column("dictionary_id", sa.Integer(), sa.ForeignKey("dictionaries.id"), nullable=True),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.Column("cards", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )
    op.create_table(
        "analysis_seats",
        sa.Column("key", sa.String(64), sa.ForeignKey("analyses.key", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.String(10), primary_key=True),
        sa.Column("cards", sa.Integer(), nullable=False),
        sa.Column("mistakes", sa.Integer(), nullable=False),
        sa.Column("lost", sa.Integer(), nullable=False),
    )
    op.create_table(
        "game_analyses",
        sa.Column("game_id", BigId, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("key", sa.String(64), sa.ForeignKey("analyses.key", ondelete="CASCADE"), nullable=False),
    )
    op.create_index("ix_game_analyses_key", "game_analyses", ["key"])


def downgrade() -> None:
    op.drop_index("ix_game_analyses_key", table_name="game_analyses")
    op.drop_table("game_analyses")
    op.drop_table("analysis_seats")
    op.drop_table("analyses")
