"""Revision 0006: think times kept at ingest, the (game, tag) index; up and down on both backends."""

from __future__ import annotations

import json

import pytest
from sqlalchemy import inspect, select, text

from archive import Archive
from archive.models import GamePlayer
from archive.summaries import think_list, think_times
from archive.uploads import Uploads
from replay.games.floating_bridge.bots import play_game
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
        assert "think_ms" in _columns(archive, "game_players")
        _migrate(archive, "0004", down=True)
        assert "ix_tags_game" in _indexes(archive, "game_tags")
        assert "ix_tags_game_tag" not in _indexes(archive, "game_tags")
        assert "think_ms" not in _columns(archive, "game_players")
        with archive.engine.connect() as conn:
            assert conn.execute(text("SELECT COUNT(*) FROM game_players")).scalar_one() == 16
        _migrate(archive, "head")  # 0006 makes ix_tags_game_tag of it, 0009 drops that
        assert not {"ix_tags_game_tag", "ix_tags_game"} & _indexes(archive, "game_tags")
        # rows stored before 0006 have no think times kept: /stats works them out from the raw log
        name = next(iter(play_game(seed=60).players.values())).name
        assert {t for _, _, t in Uploads(archive).seat_think_times("player", name)} == {None}
        assert [g.public_id for g in archive.list(bot="greedy").items] == before
        archive.admin.delete_row(archive.ids.decode(stored[0].public_id))  # finds its tags by primary key
        with archive.engine.connect() as conn:
            left = conn.execute(text("SELECT COUNT(DISTINCT game_id) FROM game_tags")).scalar_one()
        assert left == 3 == archive.count()


def test_migration_0009_drops_the_tags_index_by_game_and_its_foreign_key_and_back(db_url):
    """Without an index by game, publishing and deleting a game still reach each of its tags
    (by primary key, the tags computed from its rows), on either side of the migration."""
    with Archive(db_url) as archive:
        uno = get_game("uno-lite")
        ids = [archive.ids.decode(archive.ingest_bytes(log, f"{i}.json", origin="upload", listed=False)[0].public_id)
               for i, log in enumerate([_pretty(play_game(seed=70)), _pretty(play_game(seed=71)),
                                        uno.selfplay(3, bots=tuple(uno.bots)[:2]).canonical_json().encode()])]

        def tags_of(game_id: int) -> list[tuple]:
            with archive.engine.connect() as conn:
                return [tuple(r) for r in conn.execute(text(
                    "SELECT tag, listed FROM game_tags WHERE game_id = :g ORDER BY tag"), {"g": game_id})]

        def foreign_keys() -> list:
            with archive.engine.connect() as conn:
                return inspect(conn).get_foreign_keys("game_tags")

        assert "ix_tags_game_tag" not in _indexes(archive, "game_tags") and foreign_keys() == []
        assert any(tag == "number:turns" for tag, _ in tags_of(ids[2]))  # a tag with a number too
        for game_id in ids:
            archive.admin.set_listed(game_id, True)
            assert {listed for _, listed in tags_of(game_id)} == {True}
        archive.admin.delete_row(ids[0])
        assert tags_of(ids[0]) == []
        _migrate(archive, "0008", down=True)
        assert "ix_tags_game_tag" in _indexes(archive, "game_tags") and len(foreign_keys()) == 1
        kept = tags_of(ids[1]) + tags_of(ids[2])
        _migrate(archive, "head")
        assert "ix_tags_game_tag" not in _indexes(archive, "game_tags") and foreign_keys() == []
        assert tags_of(ids[1]) + tags_of(ids[2]) == kept and "ix_tags_number" in _indexes(archive, "game_tags")
        archive.admin.set_listed(ids[2], False)
        assert {listed for _, listed in tags_of(ids[2])} == {False}
        archive.admin.delete_row(ids[2])
        assert tags_of(ids[2]) == [] and archive.count() == 1


RANGE_QUERIES = [{"fact": "turns>=30"}, {"fact": "turns<=25"}, {"fact": ["turns>=20", "turns<=60"]},
                 {"fact": "turns>=20", "game": "uno-lite"}, {"fact": "turns>=20", "bot": "greedy"},
                 {"fact": "turns>=20", "has_findings": False, "started_from": "2026-01-03"},
                 {"fact": "turns>=9999"}, {"player": "*a*"}, {"player": "u*"}, {"player": "*zz*"},
                 {"winner": "*a*"}, {"winner": "*e*", "game": "floating-bridge"}, {"player": "*i*", "fact": "turns>=20"},
                 {"player": "*a*", "winner": "*o*"}, {"player": "*a*", "listed": True}]


@pytest.mark.parametrize("range_drive, wildcard_tags", [(2_000, 200), (0, 0), (3, 1)])
def test_fact_ranges_and_wildcards_page_like_the_general_plan(db_url, monkeypatch, range_drive, wildcard_tags):
    """Numeric fact ranges and wildcard players list what the general plan lists, whichever
    filter drives the walk (a range's games sorted, or each game checked; a wildcard's names'
    tags, or each game's players)."""
    import archive.queries as queries_module

    uno = get_game("uno-lite")
    bots = list(uno.bots)
    names = ["Ann", "Bo", "Cleo", "Dai", "Uma", "Ivo"]
    with Archive(db_url) as archive:
        for i in range(24):
            if i % 2:
                log = uno.selfplay(i, bots=(bots[i % len(bots)], bots[0]))
            else:
                log = play_game(seed=900 + i, bot="greedy" if i % 4 else "random")
            data = log.to_json_dict()
            data["game_id"] = f"g{i}"
            data["started_at"] = f"2026-01-{1 + i % 9:02d}T00:00:00Z"  # ties too
            for n, player in enumerate(data["players"].values()):
                player["name"] = names[(i + n) % len(names)] + ("" if i % 3 else "zz")
            archive.ingest_bytes(json.dumps(data).encode(), f"{i}.json", origin="upload" if i % 5 == 0 else "file",
                                 listed=i % 5 != 0)
        monkeypatch.setattr(queries_module, "RANGE_DRIVE", range_drive)
        monkeypatch.setattr(queries_module, "WILDCARD_TAGS", wildcard_tags)
        for query in RANGE_QUERIES:
            for sort in ("-started_at", "started_at"):
                whole = archive.list(sort=sort, limit=1000, **query)
                walked, cursor = [], None
                while True:
                    page = archive.list(sort=sort, limit=5, cursor=cursor, **query)
                    walked += [g.public_id for g in page.items]
                    cursor = page.next_cursor
                    if cursor is None:
                        break
                assert walked == [g.public_id for g in whole.items], (query, sort)
                monkeypatch.setattr(queries_module, "TAG_PLAN", False)
                general = archive.list(sort=sort, limit=1000, **query)
                monkeypatch.setattr(queries_module, "TAG_PLAN", True)
                assert [g.public_id for g in general.items] == walked, (query, sort)
                assert general.total == whole.total == len(walked), (query, sort)
        assert archive.list(fact="turns>=20").total > 0 and archive.list(player="*zz*").total > 0
        assert archive.list(fact="turns>=9999").total == 0


def test_a_batchs_counter_total_is_the_sum_of_its_games_deltas():
    from archive.summaries import _merged, add_counts, delta_rows, game_counts, total_rows

    games = []
    for i in range(12):
        players = [{"seat": s, "name": f"P{(i + n) % 5}", "name_lc": f"p{(i + n) % 5}", "bot": "b-1" if n % 2 else None,
                    "bot_lc": "b-1" if n % 2 else None, "role": "declarer" if i % 3 and n == i % 4 else None,
                    "won": bool((n + i) % 2)} for n, s in enumerate("NESW")]
        game = {"game": "floating-bridge"}
        counts = game_counts(game, players, ["N", "E", None][: i % 4], ["*", f"game:{i % 2}", f"player:p{i % 5}"])
        games.append((counts, i % 3 != 0))
    total: dict = {}
    for counts, listed in games:
        add_counts(total, counts, listed=listed)
    expected = _merged([row for counts, listed in games for row in delta_rows(counts, listed=listed)])
    assert total_rows(total) == expected


def test_a_wide_range_alone_takes_its_total_from_the_index_count(db_url, monkeypatch):
    """Past the cap, one numeric range's total is its index count when every game with the fact
    is listed; an unlisted one (an upload) sends it back to counting listed games. Either way
    the page and the total are the general plan's."""
    import archive.queries as queries_module
    import archive.store as store_module

    uno = get_game("uno-lite")
    with Archive(db_url) as archive:
        for i in range(8):
            data = uno.selfplay(i).to_json_dict()
            data["game_id"] = f"u{i}"
            archive.ingest_bytes(json.dumps(data).encode(), f"u{i}.json")
        monkeypatch.setattr(store_module, "COUNT_CAP", 3)
        for unlisted in (False, True):
            if unlisted:
                data = uno.selfplay(99).to_json_dict()
                archive.ingest_bytes(json.dumps(data).encode(), "up.json", origin="upload", listed=False)
            for query in ({"fact": "turns>=1", "listed": True}, {"fact": "turns>=1"}, {"fact": "turns>=10000"}):
                page = archive.list(limit=50, **query)
                monkeypatch.setattr(queries_module, "TAG_PLAN", False)
                general = archive.list(limit=50, **query)
                monkeypatch.setattr(queries_module, "TAG_PLAN", True)
                assert [g.public_id for g in page.items] == [g.public_id for g in general.items], query
                assert (page.total, page.total_exact) == (general.total, general.total_exact), query
                exact = archive.list(limit=50, exact_total=True, **query).total
                assert exact == len(page.items) and (page.total_exact or exact > 3), query
