"""The uno-lite/1 models: precise errors, kept extras, caps and the JSON Schema on disk."""

from __future__ import annotations

import json

import pytest

from replay.games.uno_lite import GAME
from replay.games.uno_lite.log import MAX_CHAT, MAX_GAME_EVENTS, parse
from replay.log import LogFormatError

from .helpers import log_dict, play



def errors_of(data):
    with pytest.raises(LogFormatError) as info:
        parse(data, "x.json")
    assert info.value.source == "x.json"
    return info.value.errors


def test_the_schema_requires_the_setup():
    schema = GAME.json_schema()  # the file on disk: tests/games/test_conformance.py
    assert set(schema["required"]) == {"format", "first_player", "hands", "starter", "events"}


def test_the_spec_example_parses():
    data = log_dict([play("P1", "R5"), {"type": "draw", "seat": "P2", "card": "B3", "t": 5000},
                     {"type": "pass", "seat": "P2", "t": 6400}, {"type": "chat", "seat": "P2", "text": "gg"}],
                    {"reason": "completed", "winner": "P1", "t": 250000}, started_at="2026-11-21T10:00:00Z")
    log = parse(data)
    assert log.to_json_dict()["started_at"] == "2026-11-21T10:00:00Z"
    assert log.end.winner == "P1" and log.events[1].t == 5000


@pytest.mark.parametrize("change, expected", [
    (lambda d: d["hands"]["P1"].__setitem__(2, "R0"), [("hands.P1[2]", "'R0' is not a card")]),
    (lambda d: d.__setitem__("starter", 5), [("starter", "5 is not a card")]),
    (lambda d: d.__setitem__("first_player", "P3"), [("first_player", "'P3' is not a seat (P1 or P2)")]),
    (lambda d: d.__setitem__("events", [{"type": "play", "seat": "P1", "card": "🔴0"}]),
     [("events[0].card", "'🔴0' is not a card")]),
    (lambda d: d.__setitem__("events", [{"type": "skip", "seat": "P1"}]),
     [("events[0]", "unknown event type 'skip' (expected one of play, draw, pass, chat)")]),
    (lambda d: d.__setitem__("events", [{"type": "draw", "seat": "P1"}]), [("events[0].card", "required field is missing")]),
    (lambda d: d.__setitem__("events", [{"type": "pass", "seat": "P1", "t": -1}]),
     [("events[0].t", "Input should be greater than or equal to 0")]),
    (lambda d: d["hands"].__setitem__("P3", []), [("hands.P3", "unexpected field (hands has P1 and P2 only)")]),
    (lambda d: d.__setitem__("players", {"N": {"name": "x"}}), [("players.N", "'N' is not a seat (P1 or P2)")]),
    (lambda d: d.__setitem__("format", "uno-lite/2"), [("format", "'uno-lite/2' is not a known format (expected 'uno-lite/1')")]),
    (lambda d: d.__setitem__("end", {"reason": "passed_out"}),
     [("end.reason", "Input should be 'completed', 'cancelled' or 'timeout'")]),
    (lambda d: d.pop("starter"), [("starter", "required field is missing")]),
])
def test_precise_errors(change, expected):
    data = log_dict([])
    change(data)
    assert errors_of(data) == expected


def test_extras_are_kept():
    data = log_dict([dict(play("P1", "R5"), emoji="🔴5")], {"reason": "cancelled", "by": "Ann"}, room="7Q2")
    data["players"]["P1"]["lang"] = "de"
    out = parse(data).to_json_dict()
    assert out["room"] == "7Q2" and out["events"][0]["emoji"] == "🔴5"
    assert out["end"]["by"] == "Ann" and out["players"]["P1"]["lang"] == "de"


def test_caps_on_events():
    chats = [{"type": "chat", "text": "x"}] * (MAX_CHAT + 1)
    assert errors_of(log_dict(chats)) == [("", f"{MAX_CHAT + 1} chat events: at most {MAX_CHAT} are allowed")]
    passes = [{"type": "pass", "seat": "P1"}] * (MAX_GAME_EVENTS + 1)
    assert errors_of(log_dict(passes))[0][1].startswith(f"{MAX_GAME_EVENTS + 1} play, draw and pass events")
    parse(log_dict(chats[:MAX_CHAT] + passes[:MAX_GAME_EVENTS]))  # both at their cap: fine


def test_not_an_object():
    with pytest.raises(LogFormatError, match="a game log must be a JSON object, not list"):
        parse([])
