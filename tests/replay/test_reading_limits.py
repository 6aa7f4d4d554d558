"""What the readers refuse up front: text that is not Unicode, and logs longer than a game can be.

Every path that reads a log (the library, ``validate``, the archive's ingest, ``POST /api/logs``)
must treat such input alike: an error naming the place, and nothing stored as a game.
"""

from __future__ import annotations

import io
import json

import pytest

from replay.games.floating_bridge.bots import play_game
from replay.log import LogFormatError, parse_log, read_logs

SURROGATE_ERROR = "contains a lone surrogate (\\ud800), which is not valid Unicode"


def clean_dict(seed: int = 1) -> dict:
    return play_game(seed=seed, chat=True).to_json_dict()


def with_escape(log: dict, place: str) -> bytes:
    """The log as JSON bytes with a lone surrogate escape (``\\ud800``) put at ``place``.

    json.dumps would write the surrogate as the same escape; a marker string is replaced so the
    bytes are exactly what a buggy bot (or a hostile client) sends.
    """
    marker = "@@SURROGATE@@"
    kind, _, rest = place.partition(":")
    if kind == "meta":
        log.setdefault("meta", {})["note"] = f"x{marker}y"
    elif kind == "name":
        log["players"]["N"]["name"] = f"Al{marker}ice"
    elif kind == "chat":
        log["events"].append({"type": "chat", "seat": "E", "text": f"hi {marker}"})
    elif kind == "extra":
        log["bot_extra"] = {"deep": [1, {"why": marker}]}
    elif kind == "key":
        log["meta"] = {f"k{marker}": 1}
    else:  # pragma: no cover - test typo
        raise AssertionError(place)
    return json.dumps(log, ensure_ascii=True).replace(marker, "\\ud800").encode()


SURROGATE_PLACES = {
    "meta": "meta.note: " + SURROGATE_ERROR,
    "name": "players.N.name: " + SURROGATE_ERROR,
    "chat": "events[{last}].text: " + SURROGATE_ERROR,
    "extra": "bot_extra.deep[1].why: " + SURROGATE_ERROR,
    "key": "meta: the key 'k\\ud800' " + SURROGATE_ERROR,
}


# --- item 5: a lone surrogate anywhere in the log ---------------------------------------------

@pytest.mark.parametrize("place", list(SURROGATE_PLACES))
def test_lone_surrogate_is_refused_at_reading_naming_the_place(place):
    log = clean_dict()
    data = with_escape(log, place)
    expected = SURROGATE_PLACES[place].format(last=len(log["events"]) - 1)
    [entry] = read_logs(data, "bad.json")
    assert not entry.ok
    assert str(entry.error) == expected
    with pytest.raises(LogFormatError) as info:
        parse_log(data)
    assert str(info.value) == expected
    # an already decoded object is checked too (GameLogger and other callers pass dicts)
    with pytest.raises(LogFormatError, match="lone surrogate"):
        parse_log(json.loads(data))
    # ... and so is text that holds the surrogate itself rather than its escape
    with pytest.raises(LogFormatError) as info:
        parse_log(json.dumps(json.loads(data), ensure_ascii=False))
    assert str(info.value) == expected


def test_lone_surrogate_in_a_jsonl_batch_spoils_only_its_line():
    bad = with_escape(clean_dict(1), "meta")
    good = clean_dict(2)
    entries = read_logs(bad + b"\n" + json.dumps(good).encode() + b"\n", "batch.jsonl")
    assert [e.ok for e in entries] == [False, True]
    assert str(entries[0].error) == "meta.note: " + SURROGATE_ERROR


def test_a_valid_surrogate_pair_is_ordinary_text():
    log = clean_dict()
    data = json.dumps(log, ensure_ascii=True)[:-1] + ', "meta": {"note": "ok \\ud83d\\ude00"}}'
    assert parse_log(data).meta["note"] == "ok \U0001F600"


def test_validate_reports_a_lone_surrogate_as_unreadable(cli_runner, tmp_path):
    path = tmp_path / "bad.json"
    path.write_bytes(with_escape(clean_dict(), "meta"))
    code, out, err = cli_runner("validate", str(path))
    assert code == 2, out
    assert f"{path}: not a valid log: meta.note: {SURROGATE_ERROR}" in out
    assert "Traceback" not in out + err


def test_archive_ingest_quarantines_a_lone_surrogate_with_the_readers_error(tmp_path, monkeypatch):
    monkeypatch.delenv("GAME_REPLAY_DB", raising=False)
    monkeypatch.delenv("GAME_REPLAY_SALT", raising=False)
    from archive import Archive

    archive = Archive(f"sqlite:///{tmp_path / 'archive.db'}")
    try:
        data = with_escape(clean_dict(), "name")
        [result] = archive.ingest_bytes(data, "bad.json")
        assert result.status == "quarantined"
        assert result.error == "players.N.name: " + SURROGATE_ERROR  # not "internal error ... a bug"
        assert _counts(archive)["games"] == 0
        [item] = archive.quarantine().items
        assert item.error == result.error and item.raw == data
        # in a batch, the other games are stored
        batch = with_escape(clean_dict(3), "chat") + b"\n" + json.dumps(clean_dict(4)).encode() + b"\n"
        results = archive.ingest_bytes(batch, "batch.jsonl")
        assert [r.status for r in results] == ["quarantined", "stored"]
        assert "lone surrogate" in results[0].error and "internal error" not in results[0].error
    finally:
        archive.close()


@pytest.fixture
def client(tmp_path):
    from viewer.app import create_app

    app = create_app({"TESTING": True, "DB": f"sqlite:///{tmp_path / 'archive.db'}",
                      "UPLOAD_RATE_PER_MINUTE": 6000, "UPLOAD_RATE_BURST": 1000})
    with app.app_context():
        from viewer.app import get_archive

        yield app.test_client(), get_archive()


def _counts(archive) -> dict[str, int]:
    from sqlalchemy import func, select

    from archive.models import Base

    with archive.engine.connect() as conn:
        return {t.name: conn.execute(select(func.count()).select_from(t)).scalar_one()
                for t in Base.metadata.sorted_tables}


@pytest.mark.parametrize("place", ["meta", "chat", "key"])
def test_upload_refuses_a_lone_surrogate_and_quarantines_nothing(client, place):
    client, archive = client
    before = _counts(archive)
    data = with_escape(clean_dict(), place)
    response = client.post("/api/logs", data={"files": [(io.BytesIO(data), "bad.json")]},
                           content_type="multipart/form-data")
    assert response.status_code == 422, response.json
    assert "lone surrogate (\\ud800)" in response.json["files"][0]["reason"]
    raw = client.post("/api/logs", data=data, content_type="application/json")
    assert raw.status_code == 422
    assert archive.quarantine().total == 0
    assert _counts(archive) == before


# --- item 9: a log may hold what a game can, plus slack ---------------------------------------

def test_the_legal_maxima_are_what_the_rules_allow():
    from replay.games.floating_bridge.log import EVENT_LIMITS, LEGAL_EVENTS

    # the longest auction: 3 passes, 1C, then each higher bid after 2 passes, ending on 7NT
    assert LEGAL_EVENTS == {"bid": 3 + 35 + 2 * 34, "partner": 1, "play": 52, "trick": 13}
    # the slack keeps a bot that logs everything twice, or announces a trick after every card
    assert EVENT_LIMITS["bid"] >= 2 * 106 and EVENT_LIMITS["play"] >= 2 * 52 and EVENT_LIMITS["trick"] >= 52


def test_thousands_of_trick_announcements_are_refused_at_reading():
    # the review's case: ~170 KB of trick announcements made multi-megabyte pages
    log = play_game(seed=1).to_json_dict()
    log["events"] += [{"type": "trick", "winner": "N"}] * 4900
    data = json.dumps(log).encode()
    [entry] = read_logs(data, "many.json")
    assert not entry.ok
    assert str(entry.error) == (f"events: {len(log['events'])} events, more than the 576 a floating bridge log "
                                "may hold (212 bid, 8 partner, 104 play, 52 trick and 200 chat events)")


@pytest.mark.parametrize("kind,event", [
    ("trick", {"type": "trick", "winner": "N"}),
    ("play", {"type": "play", "seat": "N", "card": "SA"}),
    ("bid", {"type": "bid", "seat": "N", "bid": "pass"}),
    ("partner", {"type": "partner", "seat": "N", "card": "SA"}),
    ("chat", {"type": "chat", "text": "hi"}),
])
def test_one_kind_over_its_limit_is_refused_with_the_limit(kind, event):
    from replay.games.floating_bridge.log import EVENT_LIMITS, LEGAL_EVENTS

    log = play_game(seed=2, announce_tricks=False).to_json_dict()
    have = sum(1 for e in log["events"] if e["type"] == kind)
    log["events"] += [dict(event) for _ in range(EVENT_LIMITS[kind] - have)]
    parse_log(log)  # at the limit: read (and judged, with findings)
    log["events"].append(dict(event))
    with pytest.raises(LogFormatError) as info:
        parse_log(log)
    message = f"events: {EVENT_LIMITS[kind] + 1} {kind} events, more than the {EVENT_LIMITS[kind]} " \
              "a floating bridge log may hold"
    if kind in LEGAL_EVENTS:
        message += f" (a game has at most {LEGAL_EVENTS[kind]})"
    assert str(info.value) == message


def test_chat_text_has_a_total_limit():
    from replay.games.floating_bridge.log import MAX_CHAT_TEXT, MAX_TEXT

    log = play_game(seed=3).to_json_dict()
    lines = MAX_CHAT_TEXT // MAX_TEXT + 1
    log["events"] += [{"type": "chat", "text": "x" * MAX_TEXT}] * lines
    with pytest.raises(LogFormatError) as info:
        parse_log(log)
    assert str(info.value) == (f"events: {lines * MAX_TEXT:,} characters of chat, more than the "
                               f"{MAX_CHAT_TEXT:,} a log may hold")


def test_a_bot_that_logs_everything_twice_is_still_read_and_judged():
    log = play_game(seed=4).to_json_dict()
    log["events"] = [e for event in log["events"] for e in (event, dict(event))]
    replay = parse_log(log).replay()
    assert replay.findings  # stored and flagged, not thrown away


def test_upload_of_an_over_bound_log_is_refused(client):
    client, archive = client
    log = play_game(seed=5).to_json_dict()
    log["events"] += [{"type": "trick", "winner": "N"}] * 100
    tricks = sum(1 for e in log["events"] if e["type"] == "trick")
    response = client.post("/api/logs", data=json.dumps(log).encode(), content_type="application/json")
    assert response.status_code == 422
    assert response.json["files"][0]["reason"] == (
        f"events: {tricks} trick events, more than the 52 a floating bridge log may hold (a game has at most 13)")
    assert _counts(archive)["games"] == 0 and archive.quarantine().total == 0
