"""The archive takes Nim's logs, indexes its facts and answers queries by them."""

from __future__ import annotations

import json

import pytest

from .conftest import BROKEN, CLEAN


@pytest.fixture
def archive(tmp_path):
    from archive import Archive

    with Archive(f"sqlite:///{tmp_path / 'a.db'}") as opened:
        yield opened


def test_ingest_keeps_every_byte_and_judges(archive, logs):
    from replay.games import get

    ids = {}
    for path, log in logs.items():
        (result,) = archive.ingest_bytes(path.read_bytes(), path.name)
        assert result.status == "stored", result
        ids[result.public_id] = (path, log)
    assert archive.list(game="nim", limit=50).total == len(CLEAN)
    for public_id, (path, log) in ids.items():
        stored = archive.get(public_id)
        assert stored.game == "nim" and stored.raw == path.read_bytes()
        assert stored.replay().to_json() == get("nim").judge(log).to_json()


def test_a_broken_log_is_stored_with_its_finding(archive):
    (result,) = archive.ingest_bytes(BROKEN.read_bytes(), BROKEN.name)
    assert result.public_id
    page = archive.list(game="nim", limit=5)
    assert [row.findings for row in page.items] == [1]


def test_rows_carry_the_game_facts_and_who_won(archive, logs):
    for path in logs:
        archive.ingest_bytes(path.read_bytes(), path.name)
    rows = {row.game_id: row for row in archive.list(game="nim", limit=50).items}
    for path, log in logs.items():
        row = rows[log.game_id]
        outcome = log.replay().outcome()
        assert dict(row.facts) == dict(outcome.facts)
        won = {seat for seat, player in row.players.items() if player["won"]}
        assert won == set(outcome.winners)


def test_filters_come_from_its_facts(archive, logs):
    from archive.filters import clean_filters, filter_fields

    by_fact = {f.fact.name: f for f in filter_fields("nim") if f.fact is not None}
    # ``winner`` is also the neutral filter (a winning player's name): the seat fact is reached
    # through ``fact=winner=P1`` only
    assert set(by_fact) == {"moves", "heaps"}
    assert {f.game for f in by_fact.values()} == {"nim"}
    assert by_fact["moves"].kind == "int"
    assert clean_filters({"fact": "winner=P1"}, "nim") == {"facts": [("winner", "=", "P1")]}
    for path in logs:
        archive.ingest_bytes(path.read_bytes(), path.name)
    seven = sorted(log.game_id for log in logs.values() if len(log.events) == 7)
    found = archive.list(game="nim", limit=50, **clean_filters({"moves": "7"}, "nim"))
    assert sorted(row.game_id for row in found.items) == seven
    heaps = json.loads(CLEAN[0].read_text())["heaps"]
    by_heaps = archive.list(game="nim", limit=50, **clean_filters({"heaps": " ".join(map(str, heaps))}, "nim"))
    assert json.loads(CLEAN[0].read_text())["game_id"] in {row.game_id for row in by_heaps.items}


def test_a_bad_fact_value_is_an_archive_error(archive):
    from archive import ArchiveError
    from archive.filters import clean_filters

    with pytest.raises(ArchiveError, match="heaps"):
        clean_filters({"heaps": "3-x"}, "nim")


def test_stats_are_neutral(archive, logs):
    for path in logs:
        archive.ingest_bytes(path.read_bytes(), path.name)
    rows = archive.stats("bot", game="nim")
    assert rows
    for row in rows:
        data = row if isinstance(row, dict) else vars(row)
        assert {"games", "wins", "findings", "think_ms"} <= set(data)
        assert "role_games" not in data  # Nim has no counted role
