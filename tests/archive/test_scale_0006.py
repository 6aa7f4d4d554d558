"""Revision 0006: think times kept at ingest, the (game, tag) index; up and down on both backends."""

from __future__ import annotations

from sqlalchemy import inspect, select, text

from archive import Archive
from archive.models import GamePlayer
from archive.summaries import think_list, think_times
from archive.uploads import Uploads
from replay.bots import play_game
from replay.games import get as get_game

from .test_scale import _migrate
from .test_store import _pretty


def _indexes(archive: Archive, table: str) -> set[str]:
    return {i["name"] for i in inspect(archive.engine).get_indexes(table)}


def _columns(archive: Archive, table: str) -> set[str]:
    return {c["name"] for c in inspect(archive.engine).get_columns(table)}


def test_each_seats_think_times_are_kept_at_ingest(db_url):
    uno = get_game("uno-lite")
    logs = [play_game(seed=40 + i) for i in range(3)] + [uno.selfplay(5, bots=tuple(uno.bots)[:1] * 2)]
    with Archive(db_url) as archive:
        ids = [archive.ingest_bytes(_pretty(log), f"{i}.json")[0].public_id for i, log in enumerate(logs)]
        with archive.engine.connect() as conn:
            for log, public_id in zip(logs, ids):
                kept = {r.seat: r.think_ms for r in conn.execute(
                    select(GamePlayer.seat, GamePlayer.think_ms).where(GamePlayer.game_id == archive.ids.decode(public_id)))}
                expected = think_times(log)
                assert expected and {s: think_list(t) for s, t in kept.items()} == {s: expected.get(s, []) for s in kept}
        name = next(iter(logs[0].players.values())).name
        rows = Uploads(archive).seat_think_times("player", name)
        assert rows and all(times is not None for _, _, times in rows)


def test_a_log_without_times_keeps_empty_think_times(archive):
    log = play_game(seed=3)
    data = log.to_json_dict()
    for event in data["events"]:
        event.pop("t", None)
    import json

    archive.ingest_bytes(json.dumps(data).encode(), "untimed.json")
    with archive.engine.connect() as conn:
        assert set(conn.execute(select(GamePlayer.think_ms)).scalars()) == {""}


def test_migration_0006_goes_down_to_0004_and_up_again(db_url):
    with Archive(db_url) as archive:
        stored = [archive.ingest_bytes(_pretty(play_game(seed=60 + i)), f"{i}.json")[0] for i in range(4)]
        before = [g.public_id for g in archive.list(bot="greedy").items]
        assert "ix_tags_game_tag" in _indexes(archive, "game_tags") and "think_ms" in _columns(archive, "game_players")
        _migrate(archive, "0004", down=True)
        assert "ix_tags_game" in _indexes(archive, "game_tags")
        assert "ix_tags_game_tag" not in _indexes(archive, "game_tags")
        assert "think_ms" not in _columns(archive, "game_players")
        with archive.engine.connect() as conn:
            assert conn.execute(text("SELECT COUNT(*) FROM game_players")).scalar_one() == 16
        _migrate(archive, "head")
        assert "ix_tags_game_tag" in _indexes(archive, "game_tags") and "ix_tags_game" not in _indexes(archive, "game_tags")
        # rows stored before 0006 have no think times kept: /stats works them out from the raw log
        name = next(iter(play_game(seed=60).players.values())).name
        assert {t for _, _, t in Uploads(archive).seat_think_times("player", name)} == {None}
        assert [g.public_id for g in archive.list(bot="greedy").items] == before
        archive.admin.delete_row(archive.ids.decode(stored[0].public_id))  # finds its tags by the new index
        with archive.engine.connect() as conn:
            left = conn.execute(text("SELECT COUNT(DISTINCT game_id) FROM game_tags")).scalar_one()
        assert left == 3 == archive.count()
