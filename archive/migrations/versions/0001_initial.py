"""The first archive schema: blobs, dictionaries, games and their index tables, quarantine.

Revision ID: 0001
Revises:
Create Date: 2026-11-21
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "settings",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("value", sa.Text(), nullable=False),
    )
    op.create_table(
        "dictionaries",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("samples", sa.Integer(), nullable=False),
        sa.Column("data", sa.LargeBinary(), nullable=False),
    )
    op.create_table(
        "blobs",
        sa.Column("id", BigId, primary_key=True),
        sa.Column("sha256", sa.String(64), nullable=False, unique=True),
        sa.Column("size", sa.BigInteger(), nullable=False),
        sa.Column("dictionary_id", sa.Integer(), sa.ForeignKey("dictionaries.id"), nullable=True),
        sa.Column("data", sa.LargeBinary(), nullable=False),
    )
    op.create_table(
        "games",
        sa.Column("id", BigId, primary_key=True),
        sa.Column("canonical_sha256", sa.String(64), nullable=False, unique=True),
        sa.Column("raw_blob_id", BigId, sa.ForeignKey("blobs.id"), nullable=False),
        sa.Column("game_id", sa.String(200), nullable=True),
        sa.Column("started_at", sa.DateTime(), nullable=True),
        sa.Column("rules", sa.String(100), nullable=False),
        sa.Column("players", sa.Text(), nullable=False),
        sa.Column("contract", sa.String(4), nullable=True),
        sa.Column("declarer", sa.String(1), nullable=True),
        sa.Column("partner_seat", sa.String(1), nullable=True),
        sa.Column("result", sa.String(10), nullable=True),
        sa.Column("end_reason", sa.String(20), nullable=False),
        sa.Column("findings", sa.Integer(), nullable=False),
        sa.Column("finding_kinds", sa.Text(), nullable=False),
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("origin", sa.String(10), nullable=False),
        sa.Column("ingested_at", sa.DateTime(), nullable=False),
        sa.Column("code", sa.Text(), nullable=True),
        sa.Column("listed", sa.Boolean(), nullable=False, server_default=sa.true()),
        sa.Column("upload_token", sa.String(64), nullable=True, unique=True),
        sa.Column("delete_token_hash", sa.String(128), nullable=True),
    )
    op.create_index("ix_games_started", "games", ["started_at", "id"])
    op.create_index("ix_games_ingested", "games", ["ingested_at", "id"])
    op.create_index("ix_games_rules_started", "games", ["rules", "started_at"])
    op.create_index("ix_games_contract", "games", ["contract", "started_at"])
    op.create_index("ix_games_declarer", "games", ["declarer", "started_at"])
    op.create_index("ix_games_end_reason", "games", ["end_reason", "started_at"])
    op.create_index("ix_games_result", "games", ["result", "started_at"])
    op.create_index("ix_games_findings", "games", ["findings"])
    op.create_index("ix_games_raw_blob", "games", ["raw_blob_id"])
    op.create_table(
        "game_players",
        sa.Column("game_id", BigId, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.String(1), primary_key=True),
        sa.Column("name", sa.String(200), nullable=True),
        sa.Column("name_lc", sa.String(200), nullable=True),
        sa.Column("player_id", sa.String(200), nullable=True),
        sa.Column("player_id_lc", sa.String(200), nullable=True),
        sa.Column("bot", sa.String(200), nullable=True),
        sa.Column("bot_lc", sa.String(200), nullable=True),
        sa.Column("bot_base_lc", sa.String(200), nullable=True),
    )
    op.create_index("ix_players_name", "game_players", ["name_lc", "game_id"])
    op.create_index("ix_players_id", "game_players", ["player_id_lc", "game_id"])
    op.create_index("ix_players_bot", "game_players", ["bot_lc", "game_id"])
    op.create_index("ix_players_bot_base", "game_players", ["bot_base_lc", "bot_lc", "game_id"])
    op.create_table(
        "game_findings",
        sa.Column("game_id", BigId, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("number", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("kind", sa.String(40), nullable=False),
        sa.Column("seat", sa.String(1), nullable=True),
    )
    op.create_index("ix_findings_kind", "game_findings", ["kind", "game_id"])
    op.create_table(
        "receipts",
        sa.Column("id", BigId, primary_key=True),
        sa.Column("sha256", sa.String(64), nullable=False, unique=True),
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("origin", sa.String(10), nullable=False),
        sa.Column("received_at", sa.DateTime(), nullable=False),
        sa.Column("size", sa.BigInteger(), nullable=False),
        sa.Column("blob_ids", sa.Text(), nullable=False),
    )
    op.create_table(
        "quarantine",
        sa.Column("id", BigId, primary_key=True),
        sa.Column("blob_id", BigId, sa.ForeignKey("blobs.id"), nullable=False, unique=True),
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("origin", sa.String(10), nullable=False),
        sa.Column("error", sa.Text(), nullable=False),
        sa.Column("received_at", sa.DateTime(), nullable=False),
        sa.Column("resolved_at", sa.DateTime(), nullable=True),
        sa.Column("resolved", sa.Boolean(), nullable=False, server_default=sa.false()),
    )
    op.create_index("ix_quarantine_open", "quarantine", ["resolved", "id"])


def downgrade() -> None:
    for table in ("quarantine", "receipts", "game_findings", "game_players", "games", "blobs",
                  "dictionaries", "settings"):
        op.drop_table(table)
