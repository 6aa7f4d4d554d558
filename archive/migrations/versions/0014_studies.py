"""Studies: games with notes and what-if branches, kept revision by revision.

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-28

``studies`` holds one row per study (``archive/studies.py``): its game, title, whether it is
listed, the SHA-256 of its owner token, its latest revision and, for listings, the latest
revision's counts of notes and branches. ``study_revisions`` holds every revision's
``study/1`` JSON, zstd-compressed like blobs (naming its dictionary, if any), keyed by
(study, revision): a save that names a revision already there is refused by the key as well
as by the conditional update of ``studies.rev``. Nothing existing changes and there is
nothing to fill.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def upgrade() -> None:
    op.create_table(
        "studies",
        sa.Column("id", BigId, primary_key=True),
        sa.Column("game", sa.String(40), nullable=False),
        sa.Column("title", sa.Text(), nullable=False),
        sa.Column("listed", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("owner_token_hash", sa.String(64), nullable=False),
        sa.Column("rev", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
        sa.Column("notes", sa.Integer(), nullable=False),
        sa.Column("branches", sa.Integer(), nullable=False),
    )
    op.create_index("ix_studies_listed_updated", "studies", ["listed", "updated_at", "id"])
    op.create_index("ix_studies_game_listed_updated", "studies", ["game", "listed", "updated_at", "id"])
    op.create_table(
        "study_revisions",
        sa.Column("study_id", BigId, sa.ForeignKey("studies.id", ondelete="CASCADE"), primary_key=True,
                  autoincrement=False),
        sa.Column("rev", sa.Integer(), primary_key=True, autoincrement=False),
        sa.Column("dictionary_id", sa.Integer(), sa.ForeignKey("dictionaries.id"), nullable=True),
        sa.Column("data", sa.LargeBinary(), nullable=False),
        sa.Column("size", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("study_revisions")
    op.drop_index("ix_studies_game_listed_updated", table_name="studies")
    op.drop_index("ix_studies_listed_updated", table_name="studies")
    op.drop_table("studies")
