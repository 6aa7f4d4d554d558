"""Duplicate deals in the archive (``archive/deals.py``, migration 0015), on SQLite and PostgreSQL:
the deal key and each seat's score kept at ingest, the tables of a deal, the duplicate
leaderboard (the same numbers as ``replay.duplicate`` on the logs themselves), unlisted uploads
kept out, the migration and ``archive fill-deals`` over an archive made before it, and
``archive stats --game``. The games are the registered games that declare deals (UNO Lite's
two seats keep them fast); the hooks' own properties are tested with each game."""

from __future__ import annotations

import json
import re
import shutil

import pytest
from sqlalchemy import create_engine, event, inspect, select, text

from archive import Archive
from archive.models import Game, GamePlayer
from replay import duplicate
from replay.games import get as get_game
from replay.games import names as game_names

from .test_migrate_release_0_1 import FIXTURES, _copy_every_table, _upgrade_to

GAME = "uno-lite"


@pytest.fixture(scope="module")
def module():
    uno = get_game(GAME)
    if not uno.has_deals:
        pytest.fail(f"{GAME} declares no deals")
    return uno


def _bots(module) -> list[str]:
    return sorted(module.bots)[:2]


def _tables(module, deals, bots=None) -> list:
    """Every table of ``deals`` with the bots rotated through the seats (``replay.duplicate.rotation``)."""
    bots = bots or _bots(module)
    logs = []
    for deal in deals:
        for t, seats in enumerate(duplicate.rotation(module.table_seats(bots), bots)):
            logs.append(module.play_table(deal, list(seats), t))
    return logs


def _ingest(archive, logs, **kwargs) -> list[int]:
    ids = []
    for i, log in enumerate(logs):
        (result,) = archive.ingest_bytes(log.canonical_json().encode(), f"table-{i}.json", **kwargs)
        assert result.status in ("stored", "stored_with_findings"), result
        ids.append(archive.ids.decode(result.public_id))
    return ids


def _expected_tables(module, logs, ids, by="bot") -> list[duplicate.Table]:
    """The ``replay.duplicate.Table`` rows made from the logs themselves (not the archive)."""
    out = []
    for log, row_id in zip(logs, ids):
        scores = module.deal_scores(log.replay())
        if scores is None:
            continue
        who = {seat: (p.bot if by == "bot" else p.name) for seat, p in log.players.items()}
        out.append(duplicate.Table(module.deal_key(log), {str(s): w for s, w in who.items() if w is not None},
                                   {str(s): float(v) for s, v in scores.items()}, row_id))
    return out


# -- grouping ------------------------------------------------------------------------------------

def test_the_tables_of_a_deal_are_grouped_and_other_deals_never(archive, module):
    logs = _tables(module, range(4))
    ids = _ingest(archive, logs)
    per_deal = len(logs) // 4
    keys = [archive.deal_key_of(i) for i in ids]
    assert keys == [module.deal_key(log) for log in logs] and all(duplicate.is_key(k) for k in keys)
    groups = [keys[d * per_deal:(d + 1) * per_deal] for d in range(4)]
    assert all(len(set(g)) == 1 for g in groups) and len({g[0] for g in groups}) == 4
    for d, group in enumerate(groups):
        tables = archive.deal_tables(group[0])
        assert [t["row_id"] for t in tables] == sorted(ids[d * per_deal:(d + 1) * per_deal],
                                                       key=lambda i: (logs[ids.index(i)].started_at, i))
        assert {t["public_id"] for t in tables} == {archive.ids.encode(i) for i in ids[d * per_deal:(d + 1) * per_deal]}
        assert all(t["game"] == GAME and t["findings"] == 0 and t["end_reason"] for t in tables)
    assert archive.deal_key_of(10**9) is None
    assert archive.deal_tables("0" * 24) == [] and archive.deal_tables("../etc") == []
    assert archive.duplicated_games() == {GAME: 4}


def test_deal_tables_give_each_seat_its_result_and_duplicate_score(archive, module):
    logs = _tables(module, [7])
    ids = _ingest(archive, logs)
    (key,) = {archive.deal_key_of(i) for i in ids}
    tables = archive.deal_tables(key)
    expected = _expected_tables(module, logs, ids)
    dup = dict(zip([t.ref for t in expected], duplicate.duplicate_scores(expected)))
    by_ref = {t.ref: t for t in expected}
    for table in tables:
        order = [s["seat"] for s in table["seats"]]
        assert order == list(module.seats)  # table order
        log = logs[ids.index(table["row_id"])]
        for seat in table["seats"]:
            player = log.players[next(s for s in log.players if str(s) == seat["seat"])]
            assert (seat["name"], seat["bot"]) == (player.name, player.bot)
            assert seat["score"] == by_ref[table["row_id"]].scores[seat["seat"]]
            assert seat["duplicate"] == pytest.approx(dup[table["row_id"]][seat["seat"]])
    # the seats' duplicate scores of a deal sum to zero over its tables, seat by seat
    for seat in module.seats:
        assert sum(s["duplicate"] for t in tables for s in t["seats"] if s["seat"] == seat) == pytest.approx(0)
    assert len(archive.deal_tables(key, limit=1)) == 1


@pytest.mark.parametrize("name", [n for n in game_names() if get_game(n).has_deals])
def test_every_game_with_deals_is_grouped_and_ranked_as_its_logs_say(archive, name):
    """Each registered game that declares deals, through the archive: its rotated tables of a
    deal share a key and only they do, each table's seats come in the game's table order, and
    the leaderboard is ``replay.duplicate``'s on the logs themselves."""
    game = get_game(name)
    logs = _tables(game, range(3))
    ids = _ingest(archive, logs)
    keys = [archive.deal_key_of(i) for i in ids]
    assert keys == [game.deal_key(log) for log in logs] and len(set(keys)) == 3
    for key in set(keys):
        tables = archive.deal_tables(key)
        assert sorted(t["row_id"] for t in tables) == sorted(i for i, k in zip(ids, keys) if k == key)
        for table in tables:
            log = logs[ids.index(table["row_id"])]
            assert [s["seat"] for s in table["seats"]] == [str(s) for s in game.seat_order(log)]
    for by in ("bot", "player"):
        expected = duplicate.leaderboard(_expected_tables(game, logs, ids, by), unit=game.deal_unit)
        assert archive.duplicate_leaderboard(name, by=by).to_json() == expected.to_json()
    assert archive.duplicated_games() == {name: 3}


# -- ingest --------------------------------------------------------------------------------------

def test_ingest_stores_the_key_and_each_seats_score(archive, module):
    logs = _tables(module, [1, 2])
    ids = _ingest(archive, logs)
    with archive.engine.connect() as conn:
        for log, row_id in zip(logs, ids):
            assert conn.execute(select(Game.deal_key).where(Game.id == row_id)).scalar() == module.deal_key(log)
            scores = dict(conn.execute(select(GamePlayer.seat, GamePlayer.deal_score)
                                       .where(GamePlayer.game_id == row_id)).all())
            assert scores == {str(s): float(v) for s, v in module.deal_scores(log.replay()).items()}


def test_a_folder_ingested_through_the_writer_process_keeps_keys_and_scores(archive, module, tmp_path, monkeypatch):
    """A walk of several batches commits in the writer process (``archive/writer.py``): the
    rows it writes carry the deal too."""
    import archive.ingest as ingest

    monkeypatch.setattr(ingest, "BATCH_GAMES", 3)
    started = []

    class Counted(ingest.WriterProcess):
        def __init__(self, *args, **kwargs):
            started.append(1)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(ingest, "WriterProcess", Counted)
    logs = _tables(module, range(5))
    folder = tmp_path / "tables"
    folder.mkdir()
    for i, log in enumerate(logs):
        (folder / f"t{i:02d}.json").write_text(log.canonical_json(), encoding="utf-8")
    results = archive.ingest_paths([str(folder)])
    assert len(results) == len(logs) and {r.status for r in results} == {"stored"} and started
    ids = [archive.ids.decode(r.public_id) for r in sorted(results, key=lambda r: r.source)]
    assert [archive.deal_key_of(i) for i in ids] == [module.deal_key(log) for log in logs]
    expected = duplicate.leaderboard(_expected_tables(module, logs, ids), unit=module.deal_unit)
    assert archive.duplicate_leaderboard(GAME).to_json() == expected.to_json()


def test_a_game_cut_short_keeps_its_key_and_has_no_scores(archive, module):
    """An illegal or unfinished game is stored as before: its deal is known, its result is not."""
    (log,) = _tables(module, [3], bots=[_bots(module)[0]])[:1]
    data = json.loads(log.canonical_json())
    data["events"] = data["events"][: len(data["events"]) // 2]
    data["game_id"] = "cut-short"
    cut = module.parse(data)
    assert module.deal_scores(cut.replay()) is None
    (result,) = archive.ingest_bytes(json.dumps(data).encode(), "cut.json")
    row_id = archive.ids.decode(result.public_id)
    assert archive.deal_key_of(row_id) == module.deal_key(log)
    with archive.engine.connect() as conn:
        assert set(conn.execute(select(GamePlayer.deal_score).where(GamePlayer.game_id == row_id)).scalars()) == {None}
    (table,) = archive.deal_tables(module.deal_key(log))
    assert [s["score"] for s in table["seats"]] == [None, None] and [s["duplicate"] for s in table["seats"]] == [None, None]


def test_a_failing_hook_stores_the_game_without_a_key(archive, module, monkeypatch):
    logs = _tables(module, [4])

    def broken(self, log):
        raise RuntimeError("a bug in deal_key")

    monkeypatch.setattr(type(module), "deal_key", broken)
    monkeypatch.setattr(type(module), "deal_scores", lambda self, replay: {"P1": "not a number"})
    ids = _ingest(archive, logs[:1])
    assert archive.deal_key_of(ids[0]) is None
    monkeypatch.setattr(type(module), "deal_key", lambda self, log: "not a key")
    ids = _ingest(archive, logs[1:2])
    assert archive.deal_key_of(ids[0]) is None and archive.count() == 2


def test_a_game_given_the_hooks_in_the_test_is_grouped_by_them(archive, module, monkeypatch):
    """Any registered game works: a game given hooks here (one without deals of its own if there
    is one) is keyed and scored by them alone (the archive names no game)."""
    plain = next((get_game(n) for n in game_names() if not get_game(n).has_deals and get_game(n).bots), module)
    monkeypatch.setattr(type(plain), "deal_key", lambda self, log: duplicate.fingerprint(self.name, "one deal"))
    monkeypatch.setattr(type(plain), "deal_scores",
                        lambda self, replay: {s: float(i) for i, s in enumerate(self.seat_order(replay.log))})
    monkeypatch.setattr(type(plain), "deal_unit", "widgets")
    assert plain.has_deals
    logs = [plain.selfplay(seed) for seed in (1, 2)]
    ids = _ingest(archive, logs)
    key = duplicate.fingerprint(plain.name, "one deal")
    assert [archive.deal_key_of(i) for i in ids] == [key, key]
    board = archive.duplicate_leaderboard(plain.name)
    assert (board.unit, board.deals, board.tables, board.duplicated_deals) == ("widgets", 1, 2, 1)
    tables = archive.deal_tables(key)
    seats = list(plain.seat_order(logs[0]))
    assert [s["seat"] for s in tables[0]["seats"]] == seats
    assert [s["score"] for s in tables[0]["seats"]] == [float(i) for i in range(len(seats))]
    assert {s["duplicate"] for t in tables for s in t["seats"]} == {0.0}


# -- leaderboards --------------------------------------------------------------------------------

@pytest.mark.parametrize("by", ["bot", "player"])
def test_the_leaderboard_is_replay_duplicate_on_the_logs(archive, module, by):
    logs = _tables(module, range(6)) + _tables(module, [100])[:1]  # and one deal at one table only
    ids = _ingest(archive, logs)
    board = archive.duplicate_leaderboard(GAME, by=by)
    expected = duplicate.leaderboard(_expected_tables(module, logs, ids, by), unit=module.deal_unit)
    assert board.to_json() == expected.to_json()
    assert (board.deals, board.duplicated_deals, board.unit) == (7, 6, module.deal_unit)
    assert board.tables == len([t for t in _expected_tables(module, logs, ids) if t.scores])
    assert {s.bot for s in board.standings} == {w for t in _expected_tables(module, logs, ids, by) for w in t.bots.values()}


def test_the_leaderboard_and_tables_take_one_query_each(archive, module):
    ids = _ingest(archive, _tables(module, range(5)))
    seen: list[str] = []

    def keep(conn, cursor, statement, parameters, context, executemany):
        if statement.lstrip().upper().startswith("SELECT"):
            seen.append(statement)

    event.listen(archive.engine, "before_cursor_execute", keep)
    try:
        archive.deals.tables(GAME)
        assert len(seen) == 1
        archive.deal_tables(archive.deal_key_of(ids[0]))
    finally:
        event.remove(archive.engine, "before_cursor_execute", keep)
    assert len(seen) == 1 + 1 + 3  # deal_key_of, then the games, their seats, the seats' means


def test_unlisted_uploads_stay_out_unless_asked(archive, module):
    logs = _tables(module, [11, 12])
    half = len(logs) // 2
    listed = _ingest(archive, logs[:half])
    hidden = _ingest(archive, logs[half:], origin="upload", listed=False)
    (hidden_key,) = {archive.deal_key_of(i) for i in hidden}
    assert archive.deal_tables(hidden_key) == []
    assert {t["row_id"] for t in archive.deal_tables(hidden_key, listed_only=False)} == set(hidden)
    public = archive.duplicate_leaderboard(GAME)
    everything = archive.duplicate_leaderboard(GAME, listed_only=False)
    assert (public.deals, public.tables) == (1, half) and (everything.deals, everything.tables) == (2, len(logs))
    assert archive.duplicated_games() == {GAME: 1} and archive.duplicated_games(listed_only=False) == {GAME: 2}
    # a listed table's duplicate score is taken over the listed tables only
    (listed_key,) = {archive.deal_key_of(i) for i in listed}
    assert archive.deal_tables(listed_key) == archive.deal_tables(listed_key, listed_only=False)
    archive.admin.set_listed(hidden[0], True)
    assert [t["row_id"] for t in archive.deal_tables(hidden_key)] == [hidden[0]]
    (only,) = archive.deal_tables(hidden_key)
    assert {s["duplicate"] for s in only["seats"]} == {0.0}  # one table: the field is itself


# -- indexes -------------------------------------------------------------------------------------

def test_the_deal_queries_use_the_deal_indexes(archive, module):
    ids = _ingest(archive, _tables(module, range(3)))
    key = archive.deal_key_of(ids[0])
    seen: list[tuple] = []

    def keep(conn, cursor, statement, parameters, context, executemany):
        if statement.lstrip().upper().startswith("SELECT"):
            seen.append((statement, parameters))

    event.listen(archive.engine, "before_cursor_execute", keep)
    try:
        archive.deal_tables(key)
        archive.deals.tables(GAME)
        archive.duplicated_games()
    finally:
        event.remove(archive.engine, "before_cursor_execute", keep)
    by_key, by_game = seen[0], seen[3]
    postgres = archive.engine.dialect.name == "postgresql"
    with archive.engine.connect() as conn:
        if postgres:
            conn.exec_driver_sql("SET enable_seqscan = off")

        def plan(statement, parameters) -> str:
            prefix = "EXPLAIN " if postgres else "EXPLAIN QUERY PLAN "
            return "\n".join(str(r[-1] if not postgres else r[0])
                             for r in conn.exec_driver_sql(prefix + statement, parameters))

        assert "ix_games_deal_key" in plan(*by_key), plan(*by_key)
        assert "ix_games_game_deal_key" in plan(*by_game), plan(*by_game)
        assert "ix_games_game_deal_key" in plan(*seen[4]) or "ix_games_deal_key" in plan(*seen[4]), plan(*seen[4])
    indexes = {i["name"]: i for i in inspect(archive.engine).get_indexes("games")}
    assert indexes["ix_games_deal_key"]["column_names"] == ["deal_key", "id"]
    assert indexes["ix_games_game_deal_key"]["column_names"] == ["game", "deal_key", "id"]


# -- migration 0015 and fill-deals -----------------------------------------------------------------

@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def archive_at_0014(request, tmp_path):
    """An archive with every sample game of four games (the main-1f49517 fixture) at revision 0014."""
    copy = tmp_path / "archive-main-1f49517.db"
    shutil.copy(FIXTURES / "archive-main-1f49517.db", copy)
    sqlite_url = f"sqlite:///{copy}"
    _upgrade_to(sqlite_url, "0014")
    if request.param == "sqlite":
        yield sqlite_url
        return
    server = request.getfixturevalue("postgres_server")
    name = server.create_database()
    try:
        url = server.url(name)
        _upgrade_to(url, "0014")
        _copy_every_table(sqlite_url, url)
        yield url
    finally:
        server.drop_database(name)


def _columns(url: str, table: str) -> set[str]:
    engine = create_engine(url)
    try:
        return {c["name"] for c in inspect(engine).get_columns(table)}
    finally:
        engine.dispose()


def test_migration_0015_and_fill_deals_over_an_archive_made_at_0014(archive_at_0014, cli_runner, module):
    url = archive_at_0014
    assert "deal_key" not in _columns(url, "games") and "deal_score" not in _columns(url, "game_players")
    with Archive(url) as archive:  # opening runs 0015
        with archive.engine.connect() as conn:
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one() == "0015"
            assert conn.execute(text("SELECT COUNT(*) FROM games WHERE deal_key IS NOT NULL")).scalar_one() == 0
            assert conn.execute(text("SELECT COUNT(*) FROM game_players WHERE deal_score IS NOT NULL")
                                ).scalar_one() == 0
            games = {r.id: r.game for r in conn.execute(select(Game.id, Game.game))}
            seated = {(r.game_id, r.seat) for r in conn.execute(select(GamePlayer.game_id, GamePlayer.seat))}
        total = len(games)
        with_deals = {i for i, g in games.items() if get_game(g).has_deals}
        assert archive.deals.pending() == len(with_deals) and {games[i] for i in with_deals} >= {GAME}
        expected = {}
        for row_id in with_deals:
            stored = archive.get(archive.ids.encode(row_id))
            game = get_game(stored.game)
            scores = game.deal_scores(stored.replay())
            # a seat the log names no player of has no row, and so no score (as at ingest)
            scores = scores and {str(s): float(v) for s, v in scores.items() if (row_id, str(s)) in seated}
            expected[row_id] = (game.deal_key(stored.log), scores)
    code, out, err = cli_runner("archive", "fill-deals", "--db", url)
    assert code == 0, err
    keyed = sum(1 for k, _ in expected.values() if k is not None)
    scored = sum(len(s) for k, s in expected.values() if s and k)
    assert keyed > 0
    assert out.strip() == (f"filled the deal key of {keyed} game{'s' if keyed != 1 else ''} "
                           f"({scored} seat score{'s' if scored != 1 else ''}); {len(with_deals)} games looked at")
    with Archive(url) as archive:
        with archive.engine.connect() as conn:
            keys = dict(conn.execute(select(Game.id, Game.deal_key)).all())
            scores: dict[int, dict[str, float]] = {}
            for r in conn.execute(select(GamePlayer.game_id, GamePlayer.seat, GamePlayer.deal_score)
                                  .where(GamePlayer.deal_score.is_not(None))):
                scores.setdefault(r.game_id, {})[r.seat] = r.deal_score
        assert {i: k for i, k in keys.items() if k is not None} == {i: k for i, (k, _) in expected.items() if k}
        assert scores == {i: sc for i, (k, sc) in expected.items() if sc and k}
        assert archive.count() == total
        left = archive.deals.pending()
        # the same bytes ingested now get what fill-deals gave
        filled = {i: k for i, k in keys.items() if k is not None}
        with Archive("sqlite://") as fresh:
            for public_id, raw in archive.iter_games():
                row_id = archive.ids.decode(public_id)
                if row_id in filled:
                    source = archive.get(public_id).source
                    (result,) = fresh.ingest_bytes(raw, source)
                    assert fresh.deal_key_of(fresh.ids.decode(result.public_id)) == filled[row_id]
    # idempotent: a second run keys nothing new
    code, out, err = cli_runner("archive", "fill-deals", "--db", url, "--json")
    assert code == 0, err
    assert json.loads(out) == {"looked": left, "keyed": 0, "scored": 0}
    # and back down to 0014: the columns and indexes go, every game stays
    from alembic import command
    from alembic.config import Config
    from pathlib import Path

    engine = create_engine(url)
    config = Config()
    config.set_main_option("script_location", str(Path(__import__("archive").__file__).parent / "migrations"))
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, "0014")
    with engine.connect() as conn:
        assert conn.execute(text("SELECT COUNT(*) FROM games")).scalar_one() == total
        assert not {"ix_games_deal_key", "ix_games_game_deal_key"} & {i["name"] for i in inspect(conn).get_indexes("games")}
    engine.dispose()
    assert "deal_key" not in _columns(url, "games") and "deal_score" not in _columns(url, "game_players")


def test_fill_deals_fills_what_ingest_would_have(archive, module):
    logs = _tables(module, range(3))
    ids = _ingest(archive, logs)
    with archive.engine.begin() as conn:  # as an archive made before 0015
        conn.execute(Game.__table__.update().values(deal_key=None))
        conn.execute(GamePlayer.__table__.update().values(deal_score=None))
    assert archive.deals.pending() == len(logs) and archive.duplicate_leaderboard(GAME).tables == 0
    steps = []
    result = archive.fill_deals(batch=2, progress=steps.append)
    assert (result.looked, result.keyed, result.scored) == (len(logs), len(logs), 2 * len(logs))
    assert sum(steps) == len(logs)
    assert [archive.deal_key_of(i) for i in ids] == [module.deal_key(log) for log in logs]
    expected = duplicate.leaderboard(_expected_tables(module, logs, ids), unit=module.deal_unit)
    assert archive.duplicate_leaderboard(GAME).to_json() == expected.to_json()
    assert archive.fill_deals().to_json() == {"looked": 0, "keyed": 0, "scored": 0}


# -- archive stats ---------------------------------------------------------------------------------

def test_stats_show_the_duplicate_score_beside_the_plain_one(cli_runner, db_url, module):
    with Archive(db_url) as archive:
        logs = _tables(module, range(5))
        ids = _ingest(archive, logs)
        expected = duplicate.leaderboard(_expected_tables(module, logs, ids), unit=module.deal_unit)
    code, out, err = cli_runner("archive", "stats", "--db", db_url, "--by", "bot", "--game", GAME)
    assert code == 0, err
    flat = " ".join(out.split())
    assert (f"rests on 5 deals played at {len(logs)} tables, of 5 deals at {len(logs)} tables with a score"
            in flat), out
    assert f"plain ({module.deal_unit})" in flat and f"duplicate ({module.deal_unit})" in flat
    for s in expected.standings:
        line = next(line for line in out.splitlines() if re.search(rf"\b{re.escape(s.bot)}\b", line)
                    and s.duplicate.text(signed=True) in line)
        assert s.plain.text() in line
    code, out, err = cli_runner("archive", "stats", "--db", db_url, "--by", "bot", "--game", GAME, "--json")
    assert code == 0, err
    rows = json.loads(out)
    got = {r["name"]: r["duplicate"] for r in rows}
    assert got == {s.bot: {**s.to_json(), "unit": module.deal_unit,
                           "rests_on": {"deals": 5, "tables": len(logs), "duplicated_deals": 5,
                                        "duplicated_tables": len(logs)}} for s in expected.standings}


def test_stats_without_duplicated_deals_say_so_in_one_line(cli_runner, db_url, module):
    with Archive(db_url) as archive:
        _ingest(archive, _tables(module, [1, 2])[::2])  # one table of each deal
    code, out, err = cli_runner("archive", "stats", "--db", db_url, "--by", "bot", "--game", GAME)
    assert code == 0, err
    assert f"{GAME}: no duplicated deals" in out and "duplicate (" not in out
    code, out, err = cli_runner("archive", "stats", "--db", db_url, "--by", "bot", "--game", GAME, "--json")
    assert all("duplicate" not in r for r in json.loads(out))


def test_a_name_with_deal_scores_but_no_rating_gets_a_row_of_nulls():
    from archive.cli import _add_duplicate

    tables = [duplicate.Table("d", {"N": "a", "S": "b"}, {"N": 2, "S": 1}),
              duplicate.Table("d", {"N": "b", "S": "a"}, {"N": 3, "S": 0})]
    board = duplicate.leaderboard(tables, unit="tricks")
    rows = [{"rank": 1, "name": "a", "rating": 3.5, "figures": {}}]
    _add_duplicate(rows, board)
    by_name = {s.bot: s for s in board.standings}
    rests = {"deals": 1, "tables": 2, "duplicated_deals": 1, "duplicated_tables": 2}
    assert rows == [
        {"rank": 1, "name": "a", "rating": 3.5, "figures": {},
         "duplicate": {**by_name["a"].to_json(), "unit": "tricks", "rests_on": rests}},
        {"rank": None, "name": "b", "rating": None, "figures": None,
         "duplicate": {**by_name["b"].to_json(), "unit": "tricks", "rests_on": rests}},
    ]


def test_stats_over_every_game_show_each_games_duplicate_scores(cli_runner, db_url, module):
    """``archive stats`` without ``--game``: after the table over every game, each game with
    duplicated deals gets its duplicate table, saying what it rests on; ``--json`` rows get
    ``duplicate``, ``{game: standing}``, and keep every field they had."""
    with Archive(db_url) as archive:
        duplicated = _tables(module, range(4))
        logs = duplicated + _tables(module, [9])[:1]  # and a deal at one table: counted, not duplicated
        ids = _ingest(archive, logs)
        expected = duplicate.leaderboard(_expected_tables(module, logs, ids), unit=module.deal_unit)
    code, out, err = cli_runner("archive", "stats", "--db", db_url, "--by", "bot")
    assert code == 0, err
    flat = " ".join(out.split())
    assert flat.index("by bot (every game") < flat.index(f"{GAME} on duplicated deals by bot")
    assert (f"rests on 4 deals played at {len(duplicated)} tables, of 5 deals at {len(logs)} tables with a score"
            in flat), out
    for s in expected.standings:
        assert any(re.search(rf"\b{re.escape(s.bot)}\b", line) and s.duplicate.text(signed=True) in line
                   and s.plain.text() in line for line in out.splitlines()), (s, out)
    code, out, err = cli_runner("archive", "stats", "--db", db_url, "--by", "bot", "--json")
    assert code == 0, err
    rows = json.loads(out)
    assert all({"bot", "games", "seats", "wins", "findings", "think_ms", "duplicate"} == set(r) for r in rows)
    rests = {"deals": 5, "tables": len(logs), "duplicated_deals": 4, "duplicated_tables": len(duplicated)}
    got = {r["bot"]: r["duplicate"] for r in rows}
    assert got == {s.bot: {GAME: {**s.to_json(), "unit": module.deal_unit, "rests_on": rests}}
                   for s in expected.standings}


def test_stats_over_every_game_without_duplicated_deals_are_unchanged(cli_runner, db_url, module):
    with Archive(db_url) as archive:
        _ingest(archive, _tables(module, [1, 2])[::2])  # one table of each deal
    code, out, err = cli_runner("archive", "stats", "--db", db_url, "--by", "bot")
    assert code == 0 and "duplicated deals" not in out, out
    code, out, err = cli_runner("archive", "stats", "--db", db_url, "--by", "bot", "--json")
    assert all("duplicate" not in r for r in json.loads(out))


def test_a_name_with_deal_scores_only_gets_a_row_over_every_game():
    from archive.cli import _add_duplicates

    tables = [duplicate.Table("d", {"N": "a", "S": "b"}, {"N": 2, "S": 1}),
              duplicate.Table("d", {"N": "b", "S": "a"}, {"N": 3, "S": 0})]
    board = duplicate.leaderboard(tables, unit="tricks")
    rows = [{"bot": "a", "games": 2, "wins": 1}]
    _add_duplicates(rows, "bot", {"g": board})
    by_name = {s.bot: s for s in board.standings}
    rests = {"deals": 1, "tables": 2, "duplicated_deals": 1, "duplicated_tables": 2}
    assert rows == [
        {"bot": "a", "games": 2, "wins": 1, "duplicate": {"g": {**by_name["a"].to_json(), "unit": "tricks",
                                                                 "rests_on": rests}}},
        {"bot": "b", "games": None, "wins": None, "duplicate": {"g": {**by_name["b"].to_json(), "unit": "tricks",
                                                                       "rests_on": rests}}},
    ]
