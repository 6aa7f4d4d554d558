"""Release 0.1's floating bridge columns become facts, and its counters role counters and wins.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-28

``games.contract``, ``declarer``, ``partner_seat`` and ``result`` (and their indexes) go: their
values have been ``game_facts`` rows since migration 0002 (filled from the columns then, and
written by ingest since), which every filter already reads through their ``fact:`` tags. Any
value a column holds that ``game_facts`` lacks is copied there first, with its tag and the
tag's count, so no filter loses a game.

The counters' ``declarer`` and ``made`` (and their ``listed_`` twins) become ``role_games`` and
``role_won``: a seat's games in its game's counted role (``GameModule.counted_role``) and the
ones it won in it; ``wins`` and ``listed_wins`` are added (games a name won, from
``game_players.won``). The player and bot counters are computed again from the rows (the
pending deltas of those kinds folded in by that), so every figure is exact after the upgrade.
The downgrade puts the columns back from the facts and the counters' old names back.
"""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa
from alembic import op

from replay.games import get, names

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

#: the columns that become facts: (name, type, index)
COLUMNS = (("contract", sa.String(4), "ix_games_contract"), ("declarer", sa.String(1), "ix_games_declarer"),
           ("partner_seat", sa.String(1), None), ("result", sa.String(10), "ix_games_result"))
RENAMED = (("declarer", "role_games"), ("made", "role_won"),
           ("listed_declarer", "listed_role_games"), ("listed_made", "listed_role_won"))
NO_START = datetime(1, 1, 1)
COUNTS = ("games", "seats", "role_games", "role_won", "wins", "findings")


def _missing_facts(name: str) -> str:
    return (f"SELECT g.id AS game_id, g.{name} AS value, COALESCE(g.started_at, :no_start) AS started_key, "
            f"g.listed AS listed FROM games g WHERE g.{name} IS NOT NULL AND NOT EXISTS "
            f"(SELECT 1 FROM game_facts f WHERE f.game_id = g.id AND f.name = '{name}')")


def _counted_roles() -> str:
    """SQL for the counted role of ``g``'s game (``GameModule.counted_role``), from the registry."""
    known = set(names())
    rows = op.get_bind().execute(sa.text("SELECT DISTINCT game FROM games")).scalars().all()
    roles = {game: get(game).counted_role for game in rows if game in known}
    pairs = [(game, role) for game, role in sorted(roles.items()) if role]
    if not pairs:
        return "NULL"
    whens = " ".join(f"WHEN '{game}' THEN '{role}'" for game, role in pairs)
    return f"(CASE g.game {whens} END)"


def upgrade() -> None:
    no_start = sa.bindparam("no_start", NO_START, type_=sa.DateTime())
    # 1. any column value game_facts lacks: its tag's count, its tag and the fact itself
    for name, _type, _index in COLUMNS:
        missing = _missing_facts(name)
        op.execute(sa.text(
            "INSERT INTO counter_deltas (kind, key, key_lc, games, listed_games) "
            f"SELECT 'tag', t.tag, t.tag, COUNT(*), SUM(CASE WHEN t.listed THEN 1 ELSE 0 END) FROM "
            f"(SELECT 'fact:{name}=' || m.value AS tag, m.listed FROM ({missing}) m WHERE NOT EXISTS "
            f"(SELECT 1 FROM game_tags x WHERE x.tag = 'fact:{name}=' || m.value AND x.started_key = m.started_key "
            "AND x.game_id = m.game_id)) t GROUP BY t.tag").bindparams(no_start))
        op.execute(sa.text(
            "INSERT INTO game_tags (tag, started_key, game_id, listed) "
            f"SELECT 'fact:{name}=' || m.value, m.started_key, m.game_id, m.listed FROM ({missing}) m "
            f"WHERE NOT EXISTS (SELECT 1 FROM game_tags x WHERE x.tag = 'fact:{name}=' || m.value "
            "AND x.started_key = m.started_key AND x.game_id = m.game_id)").bindparams(no_start))
        op.execute(sa.text(f"INSERT INTO game_facts (game_id, name, value, num) "
                           f"SELECT m.game_id, '{name}', m.value, NULL FROM ({missing}) m").bindparams(no_start))
    # 2. the columns go (SQLite 3.35 and later drop a column in place)
    for name, _type, index in COLUMNS:
        if index is not None:
            op.drop_index(index, table_name="games")
        op.execute(f"ALTER TABLE games DROP COLUMN {name}")
    # 3. role counters and wins, computed again for players and bots
    for table in ("counters", "counter_deltas"):
        for old, new in RENAMED:
            op.execute(f"ALTER TABLE {table} RENAME COLUMN {old} TO {new}")
        for name in ("wins", "listed_wins"):
            op.add_column(table, sa.Column(name, sa.BigInteger(), nullable=False, server_default="0"))
    _recount(_counted_roles())


def _recount(counted: str) -> None:
    op.execute("DELETE FROM counters WHERE kind IN ('player', 'bot')")
    op.execute("DELETE FROM counter_deltas WHERE kind IN ('player', 'bot')")
    listed = "CASE WHEN g.listed THEN 1 ELSE 0 END"
    in_role = f"p.role = {counted}"
    for kind, column, column_lc in (("player", "name", "name_lc"), ("bot", "bot", "bot_lc")):
        per_game = (
            f"SELECT p.game_id, p.{column} AS key, MIN(p.{column_lc}) AS key_lc, COUNT(*) AS seats, "
            f"SUM(CASE WHEN {in_role} THEN 1 ELSE 0 END) AS role_games, "
            f"SUM(CASE WHEN {in_role} AND p.won THEN 1 ELSE 0 END) AS role_won, "
            "MAX(CASE WHEN p.won THEN 1 ELSE 0 END) AS wins, "
            "SUM(COALESCE(f.n, 0)) AS findings, "
            f"MAX({listed}) AS listed "
            "FROM game_players p JOIN games g ON g.id = p.game_id "
            "LEFT JOIN (SELECT game_id, seat, COUNT(*) AS n FROM game_findings GROUP BY game_id, seat) f "
            "ON f.game_id = p.game_id AND f.seat = p.seat "
            f"WHERE p.{column} IS NOT NULL GROUP BY p.game_id, p.{column}"
        )
        sums = ", ".join(f"SUM(x.{c})" for c in COUNTS[1:])
        listed_sums = ", ".join(f"SUM(x.listed * x.{c})" for c in COUNTS[1:])
        columns = ", ".join((*COUNTS, *(f"listed_{c}" for c in COUNTS)))
        op.execute(
            f"INSERT INTO counters (kind, key, key_lc, {columns}) "
            f"SELECT '{kind}', x.key, MIN(x.key_lc), COUNT(*), {sums}, SUM(x.listed), {listed_sums} "
            f"FROM ({per_game}) x GROUP BY x.key")


def downgrade() -> None:
    for table in ("counters", "counter_deltas"):
        for name in ("listed_wins", "wins"):
            op.execute(f"ALTER TABLE {table} DROP COLUMN {name}")
        for old, new in RENAMED:
            op.execute(f"ALTER TABLE {table} RENAME COLUMN {new} TO {old}")
    for name, type_, index in COLUMNS:
        op.add_column("games", sa.Column(name, type_, nullable=True))
        op.execute(f"UPDATE games SET {name} = (SELECT f.value FROM game_facts f "
                   f"WHERE f.game_id = games.id AND f.name = '{name}')")
        if index is not None:
            op.create_index(index, "games", [name, "started_at"])
