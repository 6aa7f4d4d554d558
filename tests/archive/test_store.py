"""The archive's Python API, on SQLite and on PostgreSQL."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
from datetime import datetime, timezone
from pathlib import Path

import pytest
import zstandard

from archive import Archive, ArchiveError
from replay.games.floating_bridge.bots import play_game
from replay.logger import GameLogger
from replay.log import log_suffixes

from .conftest import write_selfplay


def _pretty(log, indent=1) -> bytes:
    return (json.dumps(log.to_json_dict(), ensure_ascii=False, indent=indent) + "\n").encode()


def test_ingest_get_and_index_fields(archive, tmp_path):
    files = write_selfplay(tmp_path / "logs", 12, seed=1)
    results = archive.ingest_paths([str(tmp_path / "logs")])
    assert [r.status for r in results] == ["stored"] * 12
    assert archive.count() == 12
    for path, result in zip(files, results):
        game = archive.get(result.public_id)
        assert game is not None
        assert game.raw == path.read_bytes()
        replay = game.replay()
        assert game.facts.get("contract") == (None if replay.contract is None else str(replay.contract))
        assert game.facts.get("declarer") == (None if replay.declarer is None else replay.declarer.name)
        assert game.facts.get("partner_seat") == (None if replay.partner_seat is None else replay.partner_seat.name)
        assert game.facts.get("result") == replay.result.winner
        assert not hasattr(game, "contract")
        outcome = replay.outcome()
        assert game.facts == dict(outcome.facts)
        for seat, player in game.players.items():
            assert player["role"] == outcome.roles.get(seat)
            assert player["won"] == ((seat in outcome.winners) if outcome.winners else None)
        assert game.end_reason == replay.end_reason
        assert game.game_id == game.log.game_id
        assert game.started_at == game.log.started_at
        assert game.rules == "bridgebot"
        assert game.players["N"]["bot"] == "greedy-1"
        assert game.source == str(path)
        assert game.origin == "file"
        assert game.listed is True
        assert game.findings == 0 and game.finding_kinds == []
        assert game.ingested_at.tzinfo is not None


def test_duplicates_in_other_encodings_are_one_game(archive):
    log = play_game(seed=5)
    first = archive.ingest_bytes(_pretty(log), "a.json")
    assert first[0].status == "stored"
    variants = {
        "indent4.json": _pretty(log, indent=4),
        "compact.json": log.canonical_json().encode(),
        "crlf.json": _pretty(log).replace(b"\n", b"\r\n"),
        "bom.json": b"\xef\xbb\xbf" + _pretty(log),
        "zst.json.zst": zstandard.ZstdCompressor(level=3).compress(_pretty(log)),
    }
    for name, data in variants.items():
        (result,) = archive.ingest_bytes(data, name)
        assert result.status == "duplicate", name
        assert result.public_id == first[0].public_id
        assert result.new is True  # these bytes were new, the game was not
    (again,) = archive.ingest_bytes(_pretty(log), "a.json")
    assert again.status == "duplicate" and again.new is False
    assert archive.count() == 1
    # every one of those inputs still comes back byte for byte
    inputs = dict(archive.iter_inputs())
    assert inputs["a.json"] == _pretty(log)
    for name, data in variants.items():
        assert inputs[name] == data


def test_jsonl_batch_keeps_every_byte(archive, tmp_path):
    logs = [play_game(seed=s) for s in range(20, 25)]
    lines = [log.canonical_json().encode() for log in logs]
    data = (lines[0] + b"\r\n" + lines[1] + b"\n\n   \n" + b'{"format": "floating-bridge/1", "hands": 3}\n'
            + lines[2] + b"\n" + lines[3] + b"\n" + lines[4] + b"\n" + lines[0] + b"\n")
    results = archive.ingest_bytes(data, "batch.jsonl")
    assert [r.status for r in results] == ["stored", "stored", "quarantined", "stored", "stored", "stored",
                                           "duplicate"]
    assert results[2].source == "batch.jsonl:5" and "hands" in results[2].error
    assert archive.count() == 5
    assert dict(archive.iter_inputs()) == {"batch.jsonl": data}
    # a line's raw bytes are the line as received (here with its \r)
    assert archive.get(results[0].public_id).raw == lines[0] + b"\r"
    assert archive.get(results[3].public_id).raw == lines[2]
    # a re-run adds nothing new
    again = archive.ingest_bytes(data, "batch.jsonl")
    assert {r.status for r in again} == {"duplicate", "quarantined"}
    assert not any(r.new for r in again)
    assert archive.count() == 5 and archive.quarantine().total == 1


def test_zstd_batch(archive):
    logs = [play_game(seed=s) for s in range(30, 33)]
    text = b"".join(log.canonical_json().encode() + b"\n" for log in logs)
    data = zstandard.ZstdCompressor(level=10).compress(text)
    results = archive.ingest_bytes(data, "games.jsonl.zst")
    assert [r.status for r in results] == ["stored"] * 3
    assert archive.get(results[1].public_id).raw == logs[1].canonical_json().encode()
    assert dict(archive.iter_inputs()) == {"games.jsonl.zst": data}


def test_lossless_export_of_sample_logs_and_2000_selfplay(archive, tmp_path, sample_logs, selfplay_2000):
    inputs: list[Path] = []
    if sample_logs.is_dir():
        inputs += sorted(p for p in sample_logs.rglob("*") if p.is_file() and p.suffix in log_suffixes())
    inputs += selfplay_2000
    assert len(inputs) >= 2000
    results = archive.ingest_paths([str(sample_logs)] if sample_logs.is_dir() else [] + [])
    results += archive.ingest_paths([str(selfplay_2000[0].parent)])
    stored = [r for r in results if r.status in ("stored", "stored_with_findings")]
    assert len(stored) == archive.count() >= 2000
    # every input file comes back byte for byte
    out = tmp_path / "inputs"
    assert archive.export(out, inputs=True) == len(inputs)
    exported = {hashlib.sha256(p.read_bytes()).hexdigest(): p for p in out.rglob("*") if p.is_file()}
    for path in inputs:
        assert hashlib.sha256(path.read_bytes()).hexdigest() in exported, path
    # and every game's raw bytes too: a single-game file is exactly the game's raw bytes
    games_dir = tmp_path / "games"
    assert archive.export(games_dir) == archive.count()
    by_id = {p.name.split(".")[0]: p.read_bytes() for p in games_dir.iterdir()}
    for path, result in zip(selfplay_2000, archive.ingest_paths([str(selfplay_2000[0].parent)])):
        assert result.status == "duplicate" and result.new is False
        assert by_id[result.public_id] == path.read_bytes()
    # canonical JSON lines: one per game, each reads back as the same game
    jsonl = tmp_path / "games.jsonl"
    with open(jsonl, "w", encoding="utf-8") as fh:
        assert archive.export_jsonl(fh) == archive.count()
    assert archive.ingest_paths([str(jsonl)]) and archive.count() == len(stored)


def test_broken_inputs_are_quarantined_or_rejected_and_the_batch_goes_on(db_url, tmp_path):
    archive = Archive(db_url, max_decompressed=1024 * 1024)
    folder = tmp_path / "in"
    folder.mkdir()
    good = write_selfplay(folder / "good", 3, seed=40)
    log = play_game(seed=99)
    full = _pretty(log)
    (folder / "a-truncated.json").write_bytes(full[: len(full) // 2])
    wrong = log.to_json_dict()
    wrong["events"][0]["seat"] = 7
    wrong["hands"]["N"] = "SA"
    (folder / "b-wrong-types.json").write_bytes(json.dumps(wrong).encode())
    with open(folder / "c-huge.json", "wb") as fh:
        fh.write(b'{"format": "floating-bridge/1", "meta": "' + b"x" * (50 * 1024 * 1024) + b'"}')
    bomb = zstandard.ZstdCompressor(level=19).compress(b" " * (200 * 1024 * 1024))
    assert len(bomb) < 64 * 1024
    (folder / "d-bomb.json.zst").write_bytes(bomb)
    (folder / "e-noise.json").write_bytes(os.urandom(4096))
    (folder / "f-empty.json").write_bytes(b"")
    results = {Path(r.source).name: r for r in archive.ingest_paths([str(folder)])}
    try:
        assert {results[p.name].status for p in good} == {"stored"}
        assert results["a-truncated.json"].status == "quarantined"
        assert "truncated" in results["a-truncated.json"].error
        assert results["b-wrong-types.json"].status == "quarantined"
        assert "events[0].seat" in results["b-wrong-types.json"].error
        assert "hands.N" in results["b-wrong-types.json"].error
        assert results["c-huge.json"].status == "rejected"
        assert "over the limit" in results["c-huge.json"].error
        assert results["d-bomb.json.zst"].status == "quarantined"
        assert "inflates past the limit" in results["d-bomb.json.zst"].error
        assert results["e-noise.json"].status == "quarantined"
        assert "not UTF-8" in results["e-noise.json"].error
        assert results["f-empty.json"].status == "quarantined"
        assert "empty" in results["f-empty.json"].error
        assert archive.count() == 3
        page = archive.quarantine()
        assert page.total == 5
        kept = {Path(q.source).name: q for q in page.items}
        assert kept["a-truncated.json"].raw == full[: len(full) // 2]
        assert kept["d-bomb.json.zst"].raw == bomb
        assert kept["f-empty.json"].raw == b""
        assert kept["e-noise.json"].error == results["e-noise.json"].error
    finally:
        archive.close()


def test_retry_moves_what_now_reads_out_of_quarantine(db_url):
    log = play_game(seed=7)
    inflated = _pretty(log)
    packed = zstandard.ZstdCompressor().compress(inflated)
    with Archive(db_url, max_decompressed=len(inflated) - 1) as archive:
        (result,) = archive.ingest_bytes(packed, "game.json.zst")
        archive.ingest_bytes(b"{not json", "still-broken.json")
        assert result.status == "quarantined"
        assert archive.count() == 0
        retry = archive.retry_quarantine()
        assert {r.status for r in retry} == {"quarantined"}
    with Archive(db_url) as archive:  # the "fix": a higher limit
        retry = {r.source: r for r in archive.retry_quarantine()}
        assert retry["game.json.zst"].status == "stored"
        assert retry["still-broken.json"].status == "quarantined"
        assert archive.count() == 1
        game = archive.get(retry["game.json.zst"].public_id)
        assert game.raw == packed and game.log == log
        assert [q.source for q in archive.quarantine().items] == ["still-broken.json"]
    # the same bytes sent again after a fix are taken in directly, and leave quarantine too
    other = zstandard.ZstdCompressor(level=5).compress(_pretty(play_game(seed=11)))
    with Archive(db_url, max_decompressed=100) as archive:
        assert archive.ingest_bytes(other, "other.json.zst")[0].status == "quarantined"
    with Archive(db_url) as archive:
        assert archive.ingest_bytes(other, "other.json.zst")[0].status == "stored"
        assert [q.source for q in archive.quarantine().items] == ["still-broken.json"]


def test_findings_are_indexed(archive):
    log = play_game(seed=3)
    data = log.to_json_dict()
    plays = [i for i, e in enumerate(data["events"]) if e["type"] == "trick"]
    seat = data["events"][plays[0]]["winner"]
    data["events"][plays[0]]["winner"] = {"N": "E", "E": "S", "S": "W", "W": "N"}[seat]
    (result,) = archive.ingest_bytes(json.dumps(data).encode(), "bad-trick.json")
    assert result.status == "stored_with_findings" and result.findings >= 1
    archive.ingest_bytes(_pretty(play_game(seed=4)), "clean.json")
    game = archive.get(result.public_id)
    kinds = game.finding_kinds
    assert kinds and game.findings == result.findings
    assert [g.public_id for g in archive.list(has_findings=True).items] == [result.public_id]
    assert archive.list(has_findings=False).total == 1
    assert [g.public_id for g in archive.list(finding_kind=kinds[0]).items] == [result.public_id]
    assert archive.list(finding_kind="no_such_kind").total == 0


def _logged_game(seed, players, rules="bridgebot", started=None, game_id=None):
    log = play_game(seed, rules=rules)
    data = log.to_json_dict()
    data["players"] = players
    if started:
        data["started_at"] = started
    data["game_id"] = game_id or f"g{seed}"
    return json.dumps(data, ensure_ascii=False).encode()


def test_filters_sort_and_pages(archive):
    alice = {"N": {"name": "Alice", "id": "tg:1", "bot": None}, "E": {"name": "greedy", "bot": "greedy-0.3"},
             "S": {"name": "Bob"}, "W": {"name": "Cara"}}
    others = {"N": {"name": "Dan"}, "E": {"name": "Eve"}, "S": {"name": "rnd", "bot": "random-2"},
              "W": {"name": "Ali Baba"}}
    ids = {}
    for i in range(6):
        players = alice if i % 2 == 0 else others
        rules = "all-tricks" if i == 5 else "bridgebot"
        (r,) = archive.ingest_bytes(_logged_game(100 + i, players, rules, f"2026-03-0{i + 1}T12:00:00Z"), f"{i}.json")
        assert r.status == "stored"
        ids[i] = r.public_id
    assert [g.public_id for g in archive.list().items] == [ids[i] for i in (5, 4, 3, 2, 1, 0)]
    assert [g.public_id for g in archive.list(sort="started_at").items] == [ids[i] for i in range(6)]
    assert archive.list(player="alice").total == 3
    assert archive.list(player="ALICE").total == 3
    assert archive.list(player="tg:1").total == 3
    assert archive.list(player="ali").total == 0
    assert archive.list(player="ali*").total == 6  # Alice and Ali Baba
    assert archive.list(player="ali_*").total == 0  # _ is not a wildcard
    assert archive.list(bot="greedy").total == 3
    assert archive.list(bot="greedy-0.3").total == 3
    assert archive.list(bot="random").total == 3
    assert archive.list(bot="gree").total == 0
    assert [g.public_id for g in archive.list(rules="all-tricks").items] == [ids[5]]
    assert archive.list(started_from="2026-03-02", started_to="2026-03-04").total == 2
    assert archive.list(started_from=datetime(2026, 3, 6, tzinfo=timezone.utc)).total == 1
    page = archive.list(limit=2, offset=2)
    assert page.total == 6 and [g.public_id for g in page.items] == [ids[3], ids[2]]
    assert archive.list(limit=2, offset=6).items == []
    one = archive.get(ids[0])
    if one.facts.get("contract"):
        assert ids[0] in [g.public_id for g in archive.list(contract=one.facts["contract"].lower(), limit=100).items]
        assert ids[0] in [g.public_id for g in archive.list(declarer=one.facts["declarer"], limit=100).items]
    if one.facts.get("result"):
        assert ids[0] in [g.public_id for g in archive.list(result=one.facts["result"], limit=100).items]
    assert archive.list(end_reason=one.end_reason).total >= 1
    combined = archive.list(player="alice", rules="bridgebot", started_from="2026-03-02")
    assert [g.public_id for g in combined.items] == [ids[4], ids[2]]
    for bad in ({"contract": "9Z"}, {"declarer": "X"}, {"result": "nobody"}, {"started_from": "yesterday"},
                {"sort": "name"}, {"colour": "red"}):
        with pytest.raises(ArchiveError):
            archive.list(**bad)


def test_untrusted_text_is_data(archive):
    evil = "Robert'); DROP TABLE games;-- <script>alert(1)</script> %_*"
    players = {"N": {"name": evil}, "E": {"name": "x"}, "S": {"name": "y"}, "W": {"name": "z"}}
    (r,) = archive.ingest_bytes(_logged_game(1, players), "evil.json")
    assert archive.list(player=evil).total == 1
    assert archive.list(player="%").total == 0
    assert archive.get(r.public_id).players["N"]["name"] == evil
    assert archive.count() == 1


def test_stats(archive):
    players = {"N": {"name": "Alice", "bot": "greedy-1"}, "E": {"name": "Bob", "bot": "greedy-1"},
               "S": {"name": "Alice2", "bot": "random-1"}, "W": {"name": "Dan"}}
    results = [archive.ingest_bytes(_logged_game(s, players), f"{s}.json")[0] for s in range(200, 210)]
    games = [archive.get(r.public_id) for r in results]
    by_player = {row["player"]: row for row in archive.stats(by="player")}
    in_game = {row["player"]: row for row in archive.stats(by="player", game="floating-bridge")}
    for name, seat in (("Alice", "N"), ("Bob", "E"), ("Dan", "W")):
        row = by_player[name]
        assert row["games"] == 10
        assert row["wins"] == sum(bool(g.players[seat]["won"]) for g in games)
        assert row["findings"] == 0
        assert "role_games" not in row and "declarer" not in row  # without a game: every game's columns only
        row = in_game[name]
        assert row["games"] == 10 and row["wins"] == by_player[name]["wins"]
        assert row["role_games"] == sum(g.facts.get("declarer") == seat for g in games)
        assert row["role_won"] == sum(g.facts.get("declarer") == seat and g.facts.get("result") == "declarer"
                                      for g in games)
        assert row["findings"] == 0
    by_bot = {row["bot"]: row for row in archive.stats(by="bot")}
    assert set(by_bot) == {"greedy-1", "random-1"}
    assert by_bot["greedy-1"]["games"] == 10
    in_game = {row["bot"]: row for row in archive.stats(by="bot", game="floating-bridge")}
    assert in_game["greedy-1"]["role_games"] == sum(g.facts.get("declarer") in ("N", "E") for g in games)
    with pytest.raises(ArchiveError):
        archive.stats(by="colour")


def test_public_ids_and_salt(db_url, monkeypatch):
    with Archive(db_url) as a:
        (r,) = a.ingest_bytes(_pretty(play_game(seed=1)), "1.json")
        first = r.public_id
        assert len(first) >= 8 and first.isalnum()
        assert a.get(first) is not None
        for bad in ("", "x", first + "a", first[:-1], "0" * 9, "../../etc/passwd", "é" * 8):
            assert a.get(bad) is None
    with Archive(db_url) as a:  # the salt made on first open is kept in the database
        assert [g.public_id for g in a.list().items] == [first]
    monkeypatch.setenv("GAME_REPLAY_SALT", "another deployment")
    with Archive(db_url) as a:
        other = a.list().items[0].public_id
        assert other != first and a.get(first) is None and a.get(other) is not None
    with Archive(db_url, salt="explicit") as a:
        assert a.list().items[0].public_id not in (first, other)


def test_recent_and_listed(archive):
    r1 = archive.ingest_bytes(_pretty(play_game(seed=1)), "1.json")[0]
    r2 = archive.ingest_bytes(_pretty(play_game(seed=2)), "2.json", origin="upload", listed=False)[0]
    r3 = archive.ingest_bytes(_pretty(play_game(seed=3)), "3.json")[0]
    assert [g.public_id for g in archive.recent()] == [r3.public_id, r1.public_id]
    assert archive.list(listed=False).items[0].public_id == r2.public_id
    assert archive.get(r2.public_id).origin == "upload"
    with pytest.raises(ArchiveError):
        archive.ingest_bytes(b"{}", "x.json", origin="carrier pigeon")


def test_dictionaries_are_versioned_and_old_blobs_stay_readable(db_url, tmp_path):
    files = write_selfplay(tmp_path / "logs", 300, seed=500)
    with Archive(db_url) as a:
        results = a.ingest_paths([str(f) for f in files[:280]])
        assert a.compressor.current == 1  # trained after 256 blobs; the early blobs rewritten with it
        from sqlalchemy import func, select

        from archive.models import Blob

        with a.engine.connect() as conn:
            assert conn.execute(select(func.count()).where(Blob.dictionary_id.is_(None))).scalar() == 0
            stored = conn.execute(select(func.sum(func.length(Blob.data)), func.sum(Blob.size))).one()
        assert stored[0] * 8 < stored[1]  # better than 1/8 of the raw bytes
        assert a.train_dictionary(recompress=False) == 2
        results += a.ingest_paths([str(f) for f in files[280:]])
    with Archive(db_url) as a:
        with a.engine.connect() as conn:
            used = {r[0] for r in conn.execute(select(Blob.dictionary_id).distinct())}
        assert used == {1, 2}
        for path, result in zip(files, results):
            assert a.get(result.public_id).raw == path.read_bytes()


def test_legacy_text_log_and_stdin(archive, sample_logs):
    import io

    data = (sample_logs / "legacy" / "worked-example.txt").read_bytes()  # missing: the test fails
    (r,) = archive.ingest_paths(["-"], stdin=io.BytesIO(data))
    assert r.status == "stored" and r.source == "<stdin>"
    game = archive.get(r.public_id)
    assert game.raw == data and game.facts["contract"] == "3S" and game.facts["declarer"] == "N"


def test_open_errors(tmp_path):
    with pytest.raises(ArchiveError, match="not a database URL"):
        Archive("not a url")
    with pytest.raises(ArchiveError, match="unsupported database URL"):
        Archive("nosuchdb://x/y")
    with pytest.raises(ArchiveError, match="cannot open the archive"):
        Archive("postgresql+psycopg://nobody:secret@127.0.0.1:1/none")


def test_default_url_is_var_in_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with Archive() as a:
        a.ingest_bytes(_pretty(play_game(seed=1)), "1.json")
    assert (tmp_path / "var" / "game-replay.db").exists()
    monkeypatch.setenv("GAME_REPLAY_DB", f"sqlite:///{tmp_path / 'env.db'}")
    with Archive() as a:
        assert a.count() == 0
    assert (tmp_path / "env.db").exists()


def test_schema_matches_models(archive):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from archive.models import Base

    with archive.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
    assert diff == []


def test_replay_code_column(archive):
    from archive.store import replay_code
    from replay.codec import decode

    (r,) = archive.ingest_bytes(_pretty(play_game(seed=8)), "8.json")
    game = archive.get(r.public_id)
    assert game.code is not None and game.code == replay_code(game.replay())
    assert decode(game.code).hands == game.log.hands


def test_replay_code_is_none_only_for_a_game_no_code_can_carry():
    from archive.records import replay_code
    from replay.codec import CodeError, encode
    from replay.games.floating_bridge.rules import Rules

    log = play_game(seed=8)
    house = log.model_copy(update={"rules": Rules("house")}).replay()  # a preset code v1 cannot name
    with pytest.raises(CodeError, match="cannot carry the rules preset 'house'"):
        encode(house)
    assert replay_code(house) is None
    # a caller's mistake is not "this game has no code"
    with pytest.raises(TypeError, match="takes a game's log or judged replay"):
        replay_code(log.to_json_dict())


def test_a_bug_in_the_encoder_surfaces(archive, monkeypatch):
    import archive.records as store

    def encode_with_a_bug(replay):
        raise ZeroDivisionError("a bug in the encoder")

    monkeypatch.setattr(store, "encode", encode_with_a_bug)
    with pytest.raises(ZeroDivisionError, match="a bug in the encoder"):
        store.replay_code(play_game(seed=8).replay())
    # ingest keeps the bytes and says it was our bug, instead of storing the game without a code
    (r,) = archive.ingest_bytes(_pretty(play_game(seed=8)), "8.json")
    assert r.status == "quarantined"
    assert "internal error" in r.error and "a bug in the encoder" in r.error
    assert archive.count() == 0


def test_fill_codes_fills_missing_codes(archive):
    from sqlalchemy import update

    from archive.models import Game

    results = [archive.ingest_bytes(_pretty(play_game(seed=s)), f"{s}.json")[0] for s in (8, 9)]
    codes = [archive.get(r.public_id).code for r in results]
    with archive.engine.begin() as conn:
        conn.execute(update(Game).values(code=None))
    assert archive.fill_codes(batch=1) == 2
    assert [archive.get(r.public_id).code for r in results] == codes
    assert archive.fill_codes() == 0


def test_listing_plans_agree_and_totals_are_capped(archive, monkeypatch):
    import archive.queries as queries_module
    import archive.store as store

    players = [{"N": {"name": "Alice", "bot": "greedy-1"}, "E": {"name": "Bob"}, "S": {"name": "Cy"},
                "W": {"name": "Di", "bot": "random-1"}},
               {"N": {"name": "Eve"}, "E": {"name": "Fay", "id": "tg:9"}, "S": {"name": "Alice"}, "W": {"name": "Gus"}}]
    for i in range(8):
        archive.ingest_bytes(_logged_game(400 + i, players[i % 2], started=f"2026-05-0{i + 1}T00:00:00Z"), f"{i}.json")
    queries = [{}, {"player": "alice"}, {"player": "a*"}, {"player": "tg:9"}, {"bot": "random"},
               {"bot": "greedy", "sort": "started_at"}, {"has_findings": False, "sort": "-ingested_at"},
               {"started_from": "2026-05-03", "offset": 1, "limit": 3}, {"player": "alice", "sort": "findings"}]
    sparse = [(q, archive.list(**q)) for q in queries]
    monkeypatch.setattr(queries_module, "TAG_PLAN", False)  # the general plan, on games
    for plan in ("sort", "walk", "walk and probe"):
        if plan == "walk":
            monkeypatch.setattr(queries_module, "DENSE_MATCHES", 0)  # column filters walk the sort index
        if plan == "walk and probe":
            monkeypatch.setattr(queries_module, "DENSE_ROWS", 0)  # player/bot filters probed game by game
        for q, page in sparse:
            other = archive.list(**q)
            assert [g.public_id for g in other.items] == [g.public_id for g in page.items], (plan, q)
            assert other.total == page.total and other.total_exact
    monkeypatch.setattr(store, "COUNT_CAP", 3)
    for tag_plan in (False, True):
        monkeypatch.setattr(queries_module, "TAG_PLAN", tag_plan)
        capped = archive.list(player="alice")
        assert capped.total == 3 and capped.total_exact is False and len(capped.items) == 8
        exact = archive.list(player="alice", exact_total=True)
        assert exact.total == 8 and exact.total_exact
        assert archive.list().total == 8  # no filter: always exact


def test_a_retried_upload_stays_unlisted(db_url):
    packed = zstandard.ZstdCompressor().compress(_pretty(play_game(seed=12)))
    with Archive(db_url, max_decompressed=100) as archive:
        (result,) = archive.ingest_bytes(packed, "upload", origin="upload", listed=False)
        assert result.status == "quarantined"
    with Archive(db_url) as archive:
        (retried,) = archive.retry_quarantine()
        assert retried.status == "stored"
        game = archive.get(retried.public_id)
        assert game.listed is False and game.origin == "upload"
        assert archive.recent() == []


def test_migrations_go_down_and_up_again(db_url):
    from alembic import command
    from alembic.config import Config
    from sqlalchemy import inspect

    with Archive(db_url) as archive:
        archive.ingest_bytes(_pretty(play_game(seed=1)), "1.json")
        config = Config()
        config.set_main_option("script_location", str(Path(__import__("archive").__file__).parent / "migrations"))
        with archive.engine.begin() as conn:
            config.attributes["connection"] = conn
            command.downgrade(config, "base")
        assert set(inspect(archive.engine).get_table_names()) <= {"alembic_version"}
    with Archive(db_url) as archive:  # opening brings the schema back to head
        assert archive.count() == 0
        assert {"games", "blobs", "receipts", "quarantine"} <= set(inspect(archive.engine).get_table_names())
        assert archive.ingest_bytes(_pretty(play_game(seed=1)), "1.json")[0].status == "stored"


def test_threads_may_share_one_archive(archive):
    """A web server shares one Archive between request threads."""
    from concurrent.futures import ThreadPoolExecutor

    datas = [_pretty(play_game(seed=600 + i)) for i in range(300)]
    with ThreadPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(lambda i: archive.ingest_bytes(datas[i], f"{i}.json")[0], range(300)))
    assert [r.status for r in results] == ["stored"] * 300
    assert archive.count() == 300 and archive.compressor.current is not None
    with ThreadPoolExecutor(max_workers=4) as pool:
        raws = list(pool.map(lambda r: archive.get(r.public_id).raw, results))
    assert raws == datas


def test_ingest_sets_objects_aside_from_the_garbage_collector_only_while_it_walks(archive, tmp_path):
    """``iter_ingest`` freezes what is alive when it starts (``gc.freeze``) and gives it back
    when the walk ends, also when its caller stops early or an error stops it; the collector,
    paused while a batch is read and judged, is on again whenever the walk yields; a caller's
    own freeze is left alone."""
    import gc

    from replay.log import InputPathError

    write_selfplay(tmp_path / "logs", 3)
    assert gc.get_freeze_count() == 0
    seen = []
    for _path, results in archive.iter_ingest([str(tmp_path / "logs")]):
        seen.append(gc.get_freeze_count())
        assert gc.isenabled()  # the collector waits only while a batch is read and judged
        assert [r.status for r in results] == ["stored"]
    assert len(seen) == 3 and min(seen) > 0  # frozen while it walked
    assert gc.get_freeze_count() == 0  # and nothing kept frozen after it
    walk = archive.iter_ingest([str(tmp_path / "logs")])
    next(walk)
    walk.close()  # a caller that stops half-way
    assert gc.get_freeze_count() == 0 and gc.isenabled()
    with pytest.raises(InputPathError):  # an error while a batch is read
        list(archive.iter_ingest([str(tmp_path / "logs"), str(tmp_path / "missing")]))
    assert gc.get_freeze_count() == 0 and gc.isenabled()
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        assert [r.status for _, rs in archive.iter_ingest([str(tmp_path / "logs")]) for r in rs] == ["duplicate"] * 3
        assert 0 < gc.get_freeze_count() <= frozen  # the caller's freeze is its own (some of it freed since)
    finally:
        gc.unfreeze()
