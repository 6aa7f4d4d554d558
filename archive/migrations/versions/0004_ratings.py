"""Ratings: per game, each bot's and player's rating, its history, and how far it got.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-24

Three new tables, filled by ``Archive.refresh_ratings`` (``archive/ratings.py``), never by
this migration: ``ratings`` (the current rating, games, wins and championship score per game,
kind and name), ``rating_history`` (the rating after each rated game) and
``rating_watermark`` (the last game looked at). An archive upgraded to this revision has no
ratings until its next refresh, which rates every game already stored, in id order.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "ratings",
        sa.Column("game", sa.String(40), primary_key=True),
        sa.Column("kind", sa.String(10), primary_key=True),
        sa.Column("name", sa.String(200), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("ordinal", sa.Float(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.Column("wins", sa.Integer(), nullable=False),
        sa.Column("rated", sa.Integer(), nullable=False),
        sa.Column("score", sa.Float(), nullable=False),
        sa.Column("last_game_id", sa.BigInteger(), nullable=False),
    )
    op.create_index("ix_ratings_rank", "ratings", ["game", "kind", "ordinal"])
    op.create_table(
        "rating_history",
        sa.Column("game_id", BigId, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("kind", sa.String(10), primary_key=True),
        sa.Column("name", sa.String(200), primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("ordinal", sa.Float(), nullable=False),
    )
    op.create_index("ix_rating_history_name", "rating_history", ["kind", "name", "game", "game_id"])
    op.create_table(
        "rating_watermark",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("last_game_id", sa.BigInteger(), nullable=False),
        sa.Column("games", sa.BigInteger(), nullable=False),
        sa.Column("id_sum", sa.BigInteger(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("rating_watermark")
    op.drop_index("ix_rating_history_name", table_name="rating_history")
    op.drop_table("rating_history")
    op.drop_index("ix_ratings_rank", table_name="ratings")
    op.drop_table("ratings")
