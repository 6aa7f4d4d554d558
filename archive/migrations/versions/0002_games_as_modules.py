"""Game-neutral rows: which game, each seat's role and whether it won, and per-game facts.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-24

Every row of an archive made by release 0.1 is a floating bridge game: it gets
``game = 'floating-bridge'``, its seats get their role (declarer, partner, defender) and
whether they won from the bridge columns, and those columns' values are copied into
``game_facts`` (contract, declarer, partner_seat, result, rules), which is where every game
keeps what it is filtered by. The bridge columns stay, so nothing is lost and a downgrade
only drops what this revision added.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("game", sa.String(40), nullable=False, server_default="floating-bridge"))
        batch.create_index("ix_games_game_started", ["game", "started_at", "id"])
    with op.batch_alter_table("game_players") as batch:
        batch.alter_column("seat", type_=sa.String(10), existing_type=sa.String(1), existing_nullable=False)
        batch.add_column(sa.Column("role", sa.String(20), nullable=True))
        batch.add_column(sa.Column("won", sa.Boolean(), nullable=True))
    with op.batch_alter_table("game_findings") as batch:
        batch.alter_column("seat", type_=sa.String(10), existing_type=sa.String(1), existing_nullable=True)
    op.create_table(
        "game_facts",
        sa.Column("game_id", BigId, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("name", sa.String(40), primary_key=True),
        sa.Column("value", sa.String(200), nullable=False),
        sa.Column("num", sa.BigInteger(), nullable=True),
    )
    op.create_index("ix_facts_value", "game_facts", ["name", "value", "game_id"])
    op.create_index("ix_facts_num", "game_facts", ["name", "num", "game_id"])

    # release 0.1's rows are all floating bridge: roles, winners and facts from its columns
    op.execute("""
        UPDATE game_players SET
          role = (SELECT CASE WHEN g.declarer IS NULL THEN NULL
                              WHEN g.declarer = game_players.seat THEN 'declarer'
                              WHEN g.partner_seat = game_players.seat THEN 'partner'
                              ELSE 'defender' END
                  FROM games g WHERE g.id = game_players.game_id),
          won = (SELECT CASE WHEN g.result IS NULL OR g.declarer IS NULL THEN NULL
                             WHEN (g.declarer = game_players.seat
                                   OR COALESCE(g.partner_seat, '') = game_players.seat)
                               THEN g.result = 'declarer'
                             ELSE g.result = 'defenders' END
                 FROM games g WHERE g.id = game_players.game_id)
    """)
    for fact in ("contract", "declarer", "partner_seat", "result", "rules"):
        op.execute(f"""
            INSERT INTO game_facts (game_id, name, value, num)
            SELECT id, '{fact}', {fact}, NULL FROM games WHERE {fact} IS NOT NULL
        """)


def downgrade() -> None:
    op.drop_index("ix_facts_num", table_name="game_facts")
    op.drop_index("ix_facts_value", table_name="game_facts")
    op.drop_table("game_facts")
    with op.batch_alter_table("game_findings") as batch:
        batch.alter_column("seat", type_=sa.String(1), existing_type=sa.String(10), existing_nullable=True)
    with op.batch_alter_table("game_players") as batch:
        batch.drop_column("won")
        batch.drop_column("role")
        batch.alter_column("seat", type_=sa.String(1), existing_type=sa.String(10), existing_nullable=False)
    with op.batch_alter_table("games") as batch:
        batch.drop_index("ix_games_game_started")
        batch.drop_column("game")
