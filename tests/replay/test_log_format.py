import json

import pytest
import zstandard

from replay.games.floating_bridge.bots import play_game
from replay.log import LogFormatError, parse_log, read_logs
from replay.games.floating_bridge.log import json_schema_text
from tests.conftest import ROOT


def valid() -> dict:
    return play_game(1, bot="greedy").to_json_dict()


def test_error_names_the_place():
    data = valid()
    data["events"][17] = {"type": "play", "seat": "N", "card": "S1O"}
    with pytest.raises(LogFormatError) as info:
        parse_log(data)
    assert str(info.value) == "events[17].card: 'S1O' is not a card"
    assert info.value.errors == [("events[17].card", "'S1O' is not a card")]


@pytest.mark.parametrize("mutate,expected", [
    (lambda d: d.pop("hands"), "hands: required field is missing"),
    (lambda d: d.update(format="floating-bridge/9"), "format: 'floating-bridge/9' is not a known format"),
    (lambda d: d.update(first_bidder="X"), "first_bidder: 'X' is not a seat"),
    (lambda d: d["events"].append({"type": "dance", "seat": "N"}), "unknown event type 'dance'"),
    (lambda d: d["events"][0].update(bid="8C"), "events[0].bid: '8C' is not a call"),
    (lambda d: d.update(rules="rubber"), "rules: unknown rules preset 'rubber'"),
    (lambda d: d["events"][0].update(t=-5), "events[0].t:"),
    (lambda d: d["hands"].update(X=[]), "hands.X: unexpected field"),
])
def test_bad_logs_are_rejected_with_the_place(mutate, expected):
    data = valid()
    mutate(data)
    with pytest.raises(LogFormatError, match=None) as info:
        parse_log(data)
    assert expected in str(info.value)


def test_unknown_fields_are_kept_and_written_back():
    data = valid()
    data["bot_extra"] = {"x": 1}
    data["events"][0]["latency_ms"] = 12
    log = parse_log(data)
    out = log.to_json_dict()
    assert out["bot_extra"] == {"x": 1} and out["events"][0]["latency_ms"] == 12


def test_liberal_reader_canonical_writer():
    data = valid()
    data["hands"]["N"] = [c[0].lower() + ("10" if c[1] == "T" else c[1]) for c in data["hands"]["N"]]
    for e in data["events"]:
        if e["type"] == "play":
            e["card"] = {"S": "♠", "H": "♥️", "D": "♦", "C": "♣"}[e["card"][0]] + e["card"][1]
    assert parse_log(data).canonical_json() == parse_log(valid()).canonical_json()


def test_read_logs_handles_json_jsonl_and_zstd():
    logs = [play_game(s).canonical_json() for s in range(3)]
    single = read_logs(logs[0].encode(), "one.json")
    assert len(single) == 1 and single[0].ok
    lines = ("\n".join(logs) + "\n").encode()
    batch = read_logs(lines, "batch.jsonl")
    assert [e.source for e in batch] == ["batch.jsonl:1", "batch.jsonl:2", "batch.jsonl:3"]
    assert all(e.ok for e in batch) and batch[1].raw == logs[1].encode()
    packed = zstandard.ZstdCompressor().compress(lines)
    assert [e.log.canonical_json() for e in read_logs(packed, "batch.jsonl.zst")] == logs
    # one bad line does not spoil the others
    mixed = (logs[0] + "\n{\"format\": 3}\n" + logs[1] + "\n").encode()
    entries = read_logs(mixed, "mixed.jsonl")
    assert [e.ok for e in entries] == [True, False, True]
    assert "format" in str(entries[1].error)


@pytest.mark.parametrize("data,expected", [
    (b"", "empty input"),
    (b"\x00\xff\xfe binary", "not UTF-8"),
    (b'{"format": "floating-bridge/1", "hands": {', "truncated"),
    (b"[1, 2]", "must be a JSON object"),
    (b"[" * 100000 + b"]" * 100000, "JSON nested deeper than 32 levels: not a game log"),
])
def test_broken_input_gets_a_reason(data, expected):
    entries = read_logs(data, "x")
    assert len(entries) == 1 and not entries[0].ok
    assert expected in str(entries[0].error)


def test_zstd_bomb_is_refused():
    bomb = zstandard.ZstdCompressor(level=19).compress(b" " * (8 * 1024 * 1024))
    assert len(bomb) < 10_000
    entries = read_logs(bomb, "bomb.json.zst", max_decompressed=1024 * 1024)
    assert not entries[0].ok and "inflates past the limit" in str(entries[0].error)


def test_json_schema_is_current():
    schema = json.loads(json_schema_text())  # the file on disk: tests/games/test_conformance.py
    assert set(schema["required"]) == {"format", "first_bidder", "hands", "events"}


def test_truncated_pretty_printed_file_is_one_error_not_one_per_line():
    text = json.dumps(play_game(1).to_json_dict(), indent=1)
    entries = read_logs(text[: len(text) * 6 // 10].encode(), "half.json")
    assert len(entries) == 1 and not entries[0].ok
    assert "truncated" in str(entries[0].error)


def test_legacy_text_logs_starting_at_bidding_are_recognised():
    from replay.games.floating_bridge.log import looks_like_legacy_text

    assert looks_like_legacy_text("\ufeffBidding: \nPlayer 2 passes.\n")
    assert looks_like_legacy_text("Player hands: \nP1: ♣2\n")
    assert not looks_like_legacy_text('{"format": "floating-bridge/1"}')


@pytest.mark.parametrize("when", ["0001-01-01T00:00:00+14:00", "9999-12-31T23:59:59-14:00"])
def test_start_times_without_a_utc_time_are_rejected_with_the_place(when):
    data = valid()
    data["started_at"] = when
    with pytest.raises(LogFormatError, match="started_at: .* out of range once converted to UTC"):
        parse_log(data)
