"""Listings and statistics that do not grow with the archive: game tags and counters.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01

``game_tags`` holds one row per thing a game is found by (its game, each player's name and
platform id, each bot with and without version, each winner, each finding kind, whether it
has findings, how it ended, each fact), ordered by (tag, start time, game): every listing
filter pages through one range of it, newest first or oldest first, without OFFSET.
``counters`` keeps games per tag and per player and bot statistics, appended to as
``counter_deltas`` at ingest and folded in after each batch. The upgrade fills both from the
rows already there (the same tags and figures ingest writes; a test compares them); the
downgrade drops them.
"""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
#: ``started_key`` of a game without a start time (``archive.records.NO_START``).
NO_START = datetime(1, 1, 1)
COUNTS = ("games", "seats", "declarer", "made", "findings",
          "listed_games", "listed_seats", "listed_declarer", "listed_made", "listed_findings")


def _counter_columns() -> list[sa.Column]:
    return [sa.Column(name, sa.BigInteger(), nullable=False, server_default="0") for name in COUNTS]


def upgrade() -> None:
    op.create_table(
        "game_tags",
        sa.Column("tag", sa.String(250), primary_key=True),
        sa.Column("started_key", sa.DateTime(), primary_key=True),
        sa.Column("game_id", BigId, sa.ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("listed", sa.Boolean(), nullable=False),
        sqlite_with_rowid=False,
    )
    op.create_index("ix_tags_game", "game_tags", ["game_id"])
    op.create_table(
        "counters",
        sa.Column("kind", sa.String(10), primary_key=True),
        sa.Column("key", sa.String(250), primary_key=True),
        sa.Column("key_lc", sa.String(250), nullable=False),
        *_counter_columns(),
    )
    op.create_index("ix_counters_games", "counters", ["kind", "games", "key"])
    op.create_index("ix_counters_listed_games", "counters", ["kind", "listed_games", "key"])
    op.create_index("ix_counters_key_lc", "counters", ["kind", "key_lc"])
    op.create_table(
        "counter_deltas",
        sa.Column("id", BigId, primary_key=True),
        sa.Column("kind", sa.String(10), nullable=False),
        sa.Column("key", sa.String(250), nullable=False),
        sa.Column("key_lc", sa.String(250), nullable=False),
        *_counter_columns(),
    )
    op.create_index("ix_counter_deltas_key", "counter_deltas", ["kind", "key"])
    _fill()


def _fill() -> None:
    key = sa.bindparam("no_start", NO_START, type_=sa.DateTime())
    start = "COALESCE(g.started_at, :no_start)"
    listed = "CASE WHEN g.listed THEN 1 ELSE 0 END"
    # (tag expression, FROM clause) for every kind of tag; DISTINCT drops repeats within a game
    sources = [
        ("'*'", "games g"),
        ("'game:' || g.game", "games g"),
        ("'end:' || g.end_reason", "games g"),
        ("'rules:' || g.rules", "games g"),
        ("CASE WHEN g.findings > 0 THEN 'findings:yes' ELSE 'findings:no' END", "games g"),
        ("'fact:' || t.name || '=' || t.value", "game_facts t JOIN games g ON g.id = t.game_id"),
        ("'kind:' || t.kind", "game_findings t JOIN games g ON g.id = t.game_id"),
    ]
    for column in ("name_lc", "player_id_lc"):
        sources.append((f"'player:' || t.{column}",
                        f"game_players t JOIN games g ON g.id = t.game_id WHERE t.{column} IS NOT NULL"))
    for column in ("bot_lc", "bot_base_lc"):
        sources.append((f"'bot:' || t.{column}",
                        f"game_players t JOIN games g ON g.id = t.game_id WHERE t.{column} IS NOT NULL"))
    for column in ("name_lc", "player_id_lc", "bot_lc", "bot_base_lc"):
        sources.append((f"'winner:' || t.{column}",
                        f"game_players t JOIN games g ON g.id = t.game_id "
                        f"WHERE t.{column} IS NOT NULL AND t.won = :yes"))
    union = " UNION ".join(f"SELECT {tag} AS tag, {start} AS started_key, g.id AS game_id, g.listed AS listed "
                           f"FROM {source}" for tag, source in sources)
    op.execute(sa.text(f"INSERT INTO game_tags (tag, started_key, game_id, listed) "
                       f"SELECT tag, started_key, game_id, listed FROM ({union}) AS every_tag")
               .bindparams(key, sa.bindparam("yes", True, type_=sa.Boolean())))
    op.execute(sa.text("INSERT INTO counters (kind, key, key_lc, games, listed_games) "
                       f"SELECT 'tag', t.tag, t.tag, COUNT(*), SUM(CASE WHEN t.listed THEN 1 ELSE 0 END) "
                       "FROM game_tags t GROUP BY t.tag"))
    for kind, column, column_lc in (("player", "name", "name_lc"), ("bot", "bot", "bot_lc")):
        per_game = (
            f"SELECT p.game_id, p.{column} AS key, MIN(p.{column_lc}) AS key_lc, COUNT(*) AS seats, "
            "SUM(CASE WHEN g.declarer = p.seat THEN 1 ELSE 0 END) AS declarer, "
            "SUM(CASE WHEN g.declarer = p.seat AND g.result = 'declarer' THEN 1 ELSE 0 END) AS made, "
            "SUM(COALESCE(f.n, 0)) AS findings, "
            f"MAX({listed}) AS listed "
            "FROM game_players p JOIN games g ON g.id = p.game_id "
            "LEFT JOIN (SELECT game_id, seat, COUNT(*) AS n FROM game_findings GROUP BY game_id, seat) f "
            "ON f.game_id = p.game_id AND f.seat = p.seat "
            f"WHERE p.{column} IS NOT NULL GROUP BY p.game_id, p.{column}"
        )
        op.execute(sa.text(
            f"INSERT INTO counters (kind, key, key_lc, {', '.join(COUNTS)}) "
            f"SELECT '{kind}', x.key, MIN(x.key_lc), COUNT(*), SUM(x.seats), SUM(x.declarer), SUM(x.made), "
            "SUM(x.findings), SUM(x.listed), SUM(x.listed * x.seats), SUM(x.listed * x.declarer), "
            "SUM(x.listed * x.made), SUM(x.listed * x.findings) "
            f"FROM ({per_game}) x GROUP BY x.key"))


def downgrade() -> None:
    op.drop_index("ix_counter_deltas_key", table_name="counter_deltas")
    op.drop_table("counter_deltas")
    op.drop_index("ix_counters_key_lc", table_name="counters")
    op.drop_index("ix_counters_listed_games", table_name="counters")
    op.drop_index("ix_counters_games", table_name="counters")
    op.drop_table("counters")
    op.drop_index("ix_tags_game", table_name="game_tags")
    op.drop_table("game_tags")
