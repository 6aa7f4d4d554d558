"""holdem/1 models: the spec's example, exact amounts, liberal cards, precise errors, kept extras,
the one-pass reader, the schema on disk and the docstring examples."""

from __future__ import annotations

import copy
import doctest
import importlib
import json
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay.games.holdem import log as holdem_log
from replay.games.holdem.log import (
    ActionError,
    ActionEvent,
    HoldemLog,
    amount_value,
    canonical_action,
    json_schema,
    parse,
    parse_action,
    read_json,
)
from replay.log import LogFormatError

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = ROOT / "sample_logs" / "holdem"

#: the spec's example (shared/spec/holdem.md), as a bot writes it
SPEC = {
    "format": "holdem/1",
    "game_id": "table-7/2026-11-28/113",
    "started_at": "2026-11-28T20:15:00Z",
    "players": {"p1": {"name": "Alice"}, "p2": {"name": "Bob"}, "p3": {"name": "callbot", "bot": "callbot-2"}},
    "variant": "NT",
    "antes": [0, 0, 0],
    "blinds_or_straddles": [50, 100, 0],
    "min_bet": 100,
    "starting_stacks": [10000, 10000, 10000],
    "events": [
        {"action": "d dh p1 Ac2d", "t": 0},
        {"action": "d dh p2 ????", "t": 0},
        {"action": "d dh p3 7h7s", "t": 0},
        {"action": "p3 cbr 300", "t": 4100},
        {"type": "chat", "seat": "p1", "text": "here we go", "t": 5000},
        {"action": "p1 cc", "t": 6200},
        {"action": "p2 f", "t": 7000},
        {"action": "d db 7c8d2s", "t": 7100},
        {"action": "p1 cc", "t": 9000},
        {"action": "p3 cbr 400", "t": 9900},
        {"action": "p1 f", "t": 12000},
    ],
    "end": {"reason": "completed", "finishing_stacks": [9700, 9900, 10400]},
}


def spec(**changes):
    data = copy.deepcopy(SPEC)
    data.update(changes)
    return data


def errors_of(data):
    with pytest.raises(LogFormatError) as info:
        parse(data, "x.json")
    return info.value.errors


def test_the_spec_example_reads_and_writes_back_as_it_is():
    log = parse(spec())
    assert isinstance(log, HoldemLog)
    assert log.seats == ("p1", "p2", "p3")
    assert [e.type for e in log.events].count("chat") == 1
    assert log.events[3].type == "action" and log.events[3].action == "p3 cbr 300"
    assert log.events[3].seat == "p3" and log.events[0].seat is None
    assert log.end.reason == "completed" and log.end.finishing_stacks == [9700, 9900, 10400]
    assert log.to_json_dict() == {**SPEC, "meta": {}}  # nothing else added: no "type" on actions, no nulls
    assert parse(json.loads(log.canonical_json())) == log
    assert log.actions[:3] == ["d dh p1 Ac2d", "d dh p2 ????", "d dh p3 7h7s"]


def test_an_action_event_may_say_its_type_and_is_written_without_it():
    data = spec()
    data["events"][3] = {"type": "action", "action": "p3 cbr 300", "t": 4100}
    log = parse(data)
    assert log.events[3] == parse(spec()).events[3]
    assert "type" not in log.to_json_dict()["events"][3]


def test_amounts_are_exact_and_written_back_as_json_numbers():
    data = spec(blinds_or_straddles=[0.25, 0.5, 0], min_bet=0.5, starting_stacks=[50.1, 62.35, 100.0],
                end={"reason": "completed", "winnings": [0, 0, 11.17]})
    log = parse(data)
    assert log.blinds_or_straddles == [Decimal("0.25"), Decimal("0.5"), 0]
    assert log.starting_stacks == [Decimal("50.1"), Decimal("62.35"), 100]
    assert type(log.starting_stacks[2]) is int
    assert log.end.winnings[2] == Decimal("11.17")
    # exact arithmetic: the float sum drifts, the amounts do not
    assert sum(log.starting_stacks) == Decimal("212.45")
    drift = parse(spec(starting_stacks=[0.1, 0.2, 100]))
    assert drift.starting_stacks[0] + drift.starting_stacks[1] == Decimal("0.3") and 0.1 + 0.2 != 0.3
    text = log.canonical_json()
    assert '"starting_stacks":[50.1,62.35,100]' in text and '"winnings":[0,0,11.17]' in text
    assert parse(json.loads(text)) == log and parse(json.loads(text)).canonical_json() == text


@given(st.decimals(min_value=Decimal("-999999999.99"), max_value=Decimal("999999999.99"), places=2,
                   allow_nan=False, allow_infinity=False))
@settings(max_examples=300, deadline=None)
def test_every_amount_in_cents_survives_json(amount):
    value = amount_value(amount)
    assert value == amount
    assert amount_value(json.loads(json.dumps(float(value) if isinstance(value, Decimal) else value))) == value


def test_amounts_json_cannot_hold_exactly_are_refused():
    assert errors_of(spec(min_bet=12345678.12345678)) == [
        ("min_bet", "12345678.12345678 has more than 15 significant digits")]
    assert errors_of(spec(min_bet=0.123456789)) == [("min_bet", "0.123456789 has more than 8 decimal places")]
    assert errors_of(spec(min_bet=10.0 ** 16))[0][0] == "min_bet"
    assert errors_of(spec(min_bet=True)) == [("min_bet", "True is not an amount (a number)")]
    assert errors_of(spec(min_bet="100")) == [("min_bet", "'100' is not an amount (a number)")]
    with pytest.raises(ValueError, match="not a finite amount"):
        amount_value(Decimal("Infinity"))


@pytest.mark.parametrize("text, canonical", [
    ("d dh p1 Ac2d", "d dh p1 Ac2d"),
    ("d dh p1 10h K♠", "d dh p1 ThKs"),
    ("  D   DH  P1   aC 2D ", "d dh p1 Ac2d"),
    ("d db 7♣8♦2♠", "d db 7c8d2s"),
    ("d dh p2 ????", "d dh p2 ????"),
    ("p3 CBR 1,250", "p3 cbr 1250"),
    ("p3 cbr 0.50", "p3 cbr 0.5"),
    ("p3 cbr 300.00", "p3 cbr 300"),
    ("p1 sm", "p1 sm"),
    ("p1 sm -", "p1 sm -"),
    ("p1 sm ??Ad", "p1 sm ??Ad"),
    ("p2 f #   tilted  ", "p2 f # tilted"),
    ("# the dealer exposes a card", "# the dealer exposes a card"),
    ("", ""),
])
def test_liberal_notation_read_canonical_written(text, canonical):
    assert canonical_action(text) == canonical
    assert canonical_action(canonical) == canonical


@pytest.mark.parametrize("text, message", [
    ("p1 sd", "'sd' is not a hold'em action"),
    ("p1 pb", "'pb' is not a hold'em action"),
    ("p1 raise 900", "'raise' is not a hold'em action"),
    ("x1 cc", "'x1' is not an actor"),
    ("p0 cc", "'p0' is not an actor"),
    ("p1 cbr", "cbr needs one amount"),
    ("p1 cbr -5", "'-5' is not an amount"),
    ("p1 cbr 1e3", "'1e3' is not an amount"),
    ("p1 cc 100", "cc takes nothing after it"),
    ("d db", "d db needs cards"),
    ("d db 7c8d1s", "'7c8d1s' is not cards for d db"),
    ("d dh", "d dh needs a seat and cards"),
    ("d xx p1", "'xx' is not a dealer's action"),
])
def test_what_is_not_notation(text, message):
    with pytest.raises(ActionError, match=message.replace("(", r"\(")):
        parse_action(text)


@pytest.mark.parametrize("change, expected", [
    (lambda d: d["events"].__setitem__(3, {"action": 300}),
     [("events[3].action", "300 is not an action (a PHH notation text such as 'p1 cc')")]),
    (lambda d: d["events"].__setitem__(3, {"action": "p3 bet 300"}),
     [("events[3].action", "'bet' is not a hold'em action (f, cc, cbr amount, sm [cards]; the dealer: d dh pN "
                           "cards, d db cards)")]),
    (lambda d: d["events"].__setitem__(3, {"action": "p4 cbr 300"}),
     [("events[3].action", "p4 is not a seat of this game (p1..p3)")]),
    (lambda d: d["events"].__setitem__(1, {"action": "d dh p7 ????"}),
     [("events[1].action", "p7 is not a seat of this game (p1..p3)")]),
    (lambda d: d["events"].__setitem__(4, {"type": "chat", "seat": "p9", "text": "hi"}),
     [("events[4].seat", "p9 is not a seat of this game (p1..p3)")]),
    (lambda d: d["events"].__setitem__(4, {"type": "chat", "seat": "Alice", "text": "hi"}),
     [("events[4].seat", "'Alice' is not a seat (p1, p2, ... in PHH order)")]),
    (lambda d: d["events"].__setitem__(4, {"type": "bet", "amount": 5}),
     [("events[4]", "unknown event type 'bet' (expected one of action, chat)")]),
    (lambda d: d["events"].__setitem__(4, {"amount": 5}),
     [("events[4]", "an event needs an 'action' (a PHH notation such as 'p1 cc') or a 'type' (chat)")]),
    (lambda d: d["events"][3].__setitem__("t", -1),
     [("events[3].t", "Input should be greater than or equal to 0")]),
    (lambda d: d["players"].__setitem__("p4", {"name": "Dee"}), [("players.p4", "not a seat of this game (p1..p3)")]),
    (lambda d: d.__setitem__("variant", "PO"),
     [("variant", "'PO' is not a variant of this game: the supported codes are NT (no-limit Texas hold'em) and FT "
                  "(fixed-limit Texas hold'em)")]),
    (lambda d: d.pop("variant"), [("variant", "required field is missing")]),
    (lambda d: d.pop("starting_stacks"), [("starting_stacks", "required field is missing")]),
    (lambda d: d.__setitem__("starting_stacks", [10000, "lots", 10000]),
     [("starting_stacks[1]", "'lots' is not an amount (a number)")]),
    (lambda d: d.__setitem__("antes", 0), [("antes", "Input should be a valid list")]),
    (lambda d: d["end"].__setitem__("reason", "won"),
     [("end.reason", "Input should be 'completed', 'cancelled' or 'timeout'")]),
    (lambda d: d["end"].__setitem__("winnings", [0, 0, "x"]),
     [("end.winnings[2]", "'x' is not an amount (a number)")]),
    (lambda d: d.__setitem__("format", "holdem/2"),
     [("format", "'holdem/2' is not a known format (expected 'holdem/1')")]),
])
def test_precise_errors(change, expected):
    data = spec()
    change(data)
    assert errors_of(data) == expected


def test_illegal_but_well_formed_setups_are_read_for_the_engine_to_flag():
    # lists of different lengths, a missing min_bet, one seat, a stack that is not positive:
    # the engine's invalid_setup, not a reading error
    log = parse(spec(blinds_or_straddles=[50, 100], min_bet=None))
    assert log.blinds_or_straddles == [50, 100] and log.min_bet is None and log.antes == [0, 0, 0]
    data = spec(starting_stacks=[0])
    assert parse(data).seats == ("p1",)  # seats beyond the one are not checked: the setup is invalid
    assert parse(spec(starting_stacks=[10000, -5, 10000])).starting_stacks[1] == -5
    no_antes = spec()
    del no_antes["antes"]
    assert parse(no_antes).antes is None


def test_phh_fields_and_unknown_fields_are_kept():
    data = spec(hand=113, table="table-7", currency="USD", seats=[1, 4, 6], ante_trimming_status=False,
                _my_field={"x": 1})
    data["events"][3]["emoji"] = "🃏"
    log = parse(data)
    assert log.seats == ("p1", "p2", "p3")  # the property; PHH's seat numbers are kept beside it
    assert log.model_extra["seats"] == [1, 4, 6]
    assert log.phh_fields == {"hand": 113, "table": "table-7", "currency": "USD", "seats": [1, 4, 6],
                              "ante_trimming_status": False, "_my_field": {"x": 1}}
    out = log.to_json_dict()
    assert out["seats"] == [1, 4, 6] and out["events"][3]["emoji"] == "🃏"
    assert parse(out) == log


def test_the_ft_fields():
    log = parse(spec(variant="ft", min_bet=None, small_bet=100, big_bet=200))
    assert (log.variant, log.small_bet, log.big_bet, log.min_bet) == ("FT", 100, 200, None)


def test_the_one_pass_reader_builds_what_full_reading_builds():
    for data in (spec(), spec(starting_stacks=[50.25, 60, 70.5]), spec(hand=3, seats=[1, 2, 3])):
        text = json.dumps(data)
        fast = read_json(text)
        assert fast is not None and fast == parse(data)
        assert fast.model_fields_set == parse(data).model_fields_set
        assert fast.model_extra == parse(data).model_extra
    assert read_json(json.dumps(spec(variant="PO"))) is None  # an error: left to full reading


def test_a_hostile_number_of_events_is_refused():
    data = spec(events=[{"action": "p1 cc"}] * (holdem_log.MAX_GAME_EVENTS + 1))
    assert errors_of(data) == [("", f"{holdem_log.MAX_GAME_EVENTS + 1} actions: at most "
                                    f"{holdem_log.MAX_GAME_EVENTS} are allowed")]


@pytest.mark.parametrize("path", sorted(p.name for p in SAMPLES.glob("*.json")))
def test_the_sample_logs_read_and_round_trip(path):
    data = json.loads((SAMPLES / path).read_text(encoding="utf-8"))
    log = parse(data)
    assert parse(json.loads(log.canonical_json())) == log
    assert all(isinstance(e, ActionEvent) or e.type == "chat" for e in log.events)


def test_the_schema_on_disk_is_the_models():
    on_disk = json.loads((ROOT / "docs" / "holdem.schema.json").read_text(encoding="utf-8"))
    assert on_disk == json_schema()
    assert on_disk["$id"].split("/")[-2] == "holdem"
    assert set(on_disk["required"]) == {"format", "variant", "starting_stacks", "events"}


@pytest.mark.parametrize("name", ["replay.games.holdem.log", "replay.games.holdem.phh"])
def test_doctests(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0


notation_words = st.sampled_from(["d", "dh", "db", "p1", "p3", "P2", "p10", "f", "cc", "cbr", "sm", "sd", "-", "#",
                                  "300", "0.25", "1,000", "Ac2d", "????", "10h", "K♠", "7c8d2s", "x", "", "  "])


@given(st.one_of(st.lists(notation_words, max_size=6).map(" ".join), st.text(max_size=30)))
@settings(max_examples=500, deadline=None)
def test_any_text_is_notation_or_an_action_error_and_the_engine_reads_what_the_log_keeps(text):
    from replay.games.holdem import engine

    try:
        canonical = canonical_action(text)
    except ActionError:
        return
    assert canonical_action(canonical) == canonical
    engine.parse_action(canonical)  # never refused: the log keeps only what the engine reads
