"""Wide numeric fact ranges page like every other filter: a tag for the games that have a number.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-26

A numeric fact range (``turns>=40``) matching more than ``RANGE_DRIVE`` games was checked
game by game over the whole listing (or over another filter's games): at 200,000 games, with
one game in five an UNO Lite game, ``turns>=40`` took a p99 of 44 ms and, with ``bot=greedy``,
88 ms on PostgreSQL. Each game now also has the tag ``number:<fact>`` for each of its numeric
facts (``number:turns``), so that such a range walks only the games that have the fact, in
listing order, checking each one's number by primary key; over ``RANGE_DRIVE`` of them match,
so a page is found soon.

The upgrade adds those tags (and their counters) for the games already stored; the downgrade
removes them.
"""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

#: ``started_key`` of a game without a start time (``archive.records.NO_START``).
NO_START = datetime(1, 1, 1)


def upgrade() -> None:
    op.execute(sa.text(
        "INSERT INTO game_tags (tag, started_key, game_id, listed) "
        "SELECT DISTINCT 'number:' || t.name, COALESCE(g.started_at, :no_start), g.id, g.listed "
        "FROM game_facts t JOIN games g ON g.id = t.game_id WHERE t.num IS NOT NULL")
        .bindparams(sa.bindparam("no_start", NO_START, type_=sa.DateTime())))
    op.execute(sa.text(
        "INSERT INTO counters (kind, key, key_lc, games, listed_games) "
        "SELECT 'tag', t.tag, t.tag, COUNT(*), SUM(CASE WHEN t.listed THEN 1 ELSE 0 END) "
        "FROM game_tags t WHERE t.tag LIKE 'number:%' GROUP BY t.tag"))


def downgrade() -> None:
    op.execute(sa.text("DELETE FROM game_tags WHERE tag LIKE 'number:%'"))
    op.execute(sa.text("DELETE FROM counters WHERE kind = 'tag' AND key LIKE 'number:%'"))
    op.execute(sa.text("DELETE FROM counter_deltas WHERE kind = 'tag' AND key LIKE 'number:%'"))
