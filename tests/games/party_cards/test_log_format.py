"""The party-cards/1 models: precise errors, kept extras, caps and the JSON Schema on disk."""

from __future__ import annotations

import json

import pytest

from replay.games.party_cards import GAME
from replay.games.party_cards.log import MAX_CHAT, parse
from replay.log import LogFormatError, parse_log

from .helpers import LOBBY, ROUND_1, log_dict



def errors_of(data):
    with pytest.raises(LogFormatError) as info:
        parse(data, "x.json")
    assert info.value.source == "x.json"
    return info.value.errors


def test_the_schema_requires_the_setup():
    schema = GAME.json_schema()  # the file on disk: tests/games/test_conformance.py
    assert set(schema["required"]) == {"format", "players", "score_limit", "hands", "events"}


def test_the_spec_example_parses_and_is_clean():
    data = log_dict(LOBBY[:3] + [{"type": "decline", "seat": "p4"}] + ROUND_1[:3]
                    + [{"type": "reveal", "order": ["p3", "p2"]}, {"type": "pick", "seat": "p1", "choice": 2},
                       {"type": "chat", "seat": "p2", "text": "lol"}],
                    {"reason": "completed", "winner": "p2"}, score_limit=1)
    replay = GAME.judge(parse_log(json.dumps(data)))
    assert replay.findings == [] and replay.winners == ["p2"]


def test_extras_are_kept_and_the_canonical_form_is_stable():
    data = log_dict([dict(LOBBY[0], mood="happy")], meta={"bot_version": "2.1"}, room="grp-9")
    data["hands"]["p1"][0]["rarity"] = "rare"
    log = parse(data)
    again = parse(json.loads(log.canonical_json()))
    assert again.canonical_json() == log.canonical_json()
    dumped = log.to_json_dict()
    assert dumped["room"] == "grp-9" and dumped["events"][0]["mood"] == "happy"
    assert dumped["hands"]["p1"][0]["rarity"] == "rare" and dumped["hand_size"] == 2


@pytest.mark.parametrize("mutate, place, message", [
    (lambda d: d["events"].append({"type": "answer", "seat": "p9", "cards": []}), "events[0].seat",
     "'p9' is not a seat of this game (p1, p2, p3, p4)"),
    (lambda d: d["events"].append({"type": "reveal", "order": ["p1", "zz"]}), "events[0].order[1]",
     "'zz' is not a seat of this game"),
    (lambda d: d["events"].append({"type": "round", "czar": "p1", "question": {"id": "q", "text": "x", "pick": 4}}),
     "events[0].question.pick", "Input should be less than or equal to 3"),
    (lambda d: d["events"].append({"type": "shout", "seat": "p1"}), "events[0]", "unknown event type 'shout'"),
    (lambda d: d["events"].append({"type": "answer", "seat": "p1"}), "events[0].cards", "required field is missing"),
    (lambda d: d["players"].update({"p 5": {}}), "players.p 5", "'p 5' is not a seat name (no spaces)"),
    (lambda d: d["hands"].update({"p7": []}), "hands.p7", "'p7' is not a seat of this game"),
    (lambda d: d.update(end={"reason": "completed", "winner": "p8"}), "end.winner", "'p8' is not a seat of this game"),
    (lambda d: d.update(end={"reason": "abandoned"}), "end.reason", "Input should be"),
    (lambda d: d.update(format="party-cards/2"), "format", "'party-cards/2' is not a known format"),
    (lambda d: d["hands"]["p1"].append({"id": "", "text": "x"}), "hands.p1[2].id", "at least 1 character"),
    (lambda d: d["hands"]["p1"].append({"id": "a99", "text": "x" * 1001}), "hands.p1[2].text", "at most 1000"),
    (lambda d: d.update(players={f"s{i}": {} for i in range(11)}), "players", "at most 10"),
])
def test_errors_name_their_place(mutate, place, message):
    data = log_dict([])
    mutate(data)
    errors = errors_of(data)
    assert errors[0][0] == place and message in errors[0][1], errors


def test_chat_cap():
    data = log_dict([{"type": "chat", "text": "x"}] * (MAX_CHAT + 1))
    assert "at most 2000 are allowed" in errors_of(data)[0][1]


def test_not_an_object():
    with pytest.raises(LogFormatError, match="a game log must be a JSON object, not list"):
        parse([])


def test_the_neutral_reader_dispatches_on_the_format():
    log = parse_log(json.dumps(log_dict([])))
    assert type(log).__name__ == "PartyLog" and log.replay().end_reason == "abandoned"
