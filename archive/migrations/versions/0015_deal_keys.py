"""Duplicate deals: each game's deal key and each seat's result on the game's scale.

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-29

``games.deal_key`` is the fingerprint of the game's deal (``GameModule.deal_key``: the cards as
dealt and who starts, 24 hex digits), equal for every table of one deal; NULL for a game without
deals or whose log does not tell the whole deal. ``game_players.deal_score`` is the seat's
result on the game's standard scale (``GameModule.deal_scores``: tricks, big blinds...), NULL
when the game gives none. Two partial indexes (games with a key only): ``ix_games_deal_key``
(deal_key, id) lists the tables of one deal in row order, ``ix_games_game_deal_key``
(game, deal_key, id) the keyed games of one game, deal by deal, for its leaderboard. Both
columns start NULL; ``game-replay archive fill-deals`` judges the stored games again to fill
them (``archive/deals.py``).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None

KEYED = sa.text("deal_key IS NOT NULL")


def upgrade() -> None:
    # (nullable columns: an ALTER TABLE ... ADD COLUMN on both backends, no table rewrite)
    op.add_column("games", sa.Column("deal_key", sa.String(24), nullable=True))
    op.add_column("game_players", sa.Column("deal_score", sa.Float(), nullable=True))
    op.create_index("ix_games_deal_key", "games", ["deal_key", "id"], postgresql_where=KEYED, sqlite_where=KEYED)
    op.create_index("ix_games_game_deal_key", "games", ["game", "deal_key", "id"], postgresql_where=KEYED,
                    sqlite_where=KEYED)


def downgrade() -> None:
    op.drop_index("ix_games_game_deal_key", table_name="games")
    op.drop_index("ix_games_deal_key", table_name="games")
    with op.batch_alter_table("game_players") as batch:
        batch.drop_column("deal_score")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("deal_key")
