"""Per-seat counters of a game: what a game's stats figures per player are summed from.

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-28

``game_seat_counts`` holds, for each seat of each game, the counters its outcome gives
(``Outcome.counts``: a poker hand's hands dealt, hands played voluntarily, raises before the
flop, showdowns and showdowns won...), which ``GameModule.seat_figures`` turn into the figures
the stats pages show per player and bot (VPIP, PFR, showdown wins). Like ``game_facts`` it has
no foreign key (written with its game, deleted with it by ``Admin.delete_row``). No game before
this one declared counters, so there is nothing to fill.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_seat_counts",
        sa.Column("game_id", sa.BigInteger().with_variant(sa.Integer(), "sqlite"), primary_key=True,
                  autoincrement=False),
        sa.Column("seat", sa.String(10), primary_key=True),
        sa.Column("name", sa.String(40), primary_key=True),
        sa.Column("value", sa.BigInteger(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("game_seat_counts")
