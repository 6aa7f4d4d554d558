"""Reading JSON text in one pass (``replay.reading``, issue 13) against full reading.

``parse_log`` and ``read_logs`` first try each game's reading validator on the text and, when it
gives up, read the text in full (``json.loads``, then the model validated from the object).
The reading validator must never change an answer: on every input, both ways give the same
model (same classes, fields, fields set and extras, all the way down) or the same error.
Hypothesis generates the inputs: every game's self-play logs changed the ways bots and
hostile clients change them (other spellings, extra fields, missing and odd values, other
formats, key orders, escapes), then JSON text cut, spliced and garbled, and arbitrary JSON.
"""

from __future__ import annotations

import json
import math
import sys
from contextlib import contextmanager
from functools import lru_cache
from typing import Any, Iterator
from unittest import mock

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

import replay.log as replay_log
from replay.games import get, names
from replay.games.floating_bridge.log import GameLog
from replay.log import LogFormatError, parse_log, read_logs
from replay.reading import MAX_REMEMBERED, Lookup, read_text

GAMES = names()
FORMATS = ["floating-bridge/1", "uno-lite/1", "coup/1", "party-cards/1", "uno-lite/2", "chess/1"]


@lru_cache(maxsize=None)
def base_logs(game: str) -> tuple[str, ...]:
    """A few self-play logs of the game as canonical JSON, with chat and cut-short games."""
    module = get(game)
    bots = list(module.bots)
    out = []
    for seed in range(6):
        if game == "floating-bridge":
            log = module.selfplay(seed, bots=(bots[seed % len(bots)],), chat=True, interrupt_rate=0.3,
                                  rules="bridgebot" if seed % 2 else "all-tricks")
        elif game == "party-cards":
            log = module.selfplay(seed, bots=(bots[seed % len(bots)],), chat=True, interrupt_rate=0.3, rounds=3)
        else:
            log = module.selfplay(seed, bots=(bots[seed % len(bots)], bots[0]), chat=True, interrupt_rate=0.3)
        out.append(log.canonical_json())
    return tuple(out)


@contextmanager
def full_reading_only() -> Iterator[None]:
    """``parse_log`` and ``read_logs`` as they read without the one-pass reading."""
    with mock.patch.object(replay_log, "read_text", lambda text: None):
        yield


def outcome(read: Any, *args: Any) -> Any:
    """What reading gives: the model, or the error (its type and message are compared)."""
    try:
        return read(*args)
    except ValueError as exc:  # LogFormatError, and what json.loads itself raises past it
        return exc


def same(a: Any, b: Any, where: str = "log") -> None:
    """Equal results: the same error, or models equal field by field with the same fields set,
    extras and field order, all the way down (NaN equal to NaN)."""
    assert type(a) is type(b), (where, type(a), type(b))
    if isinstance(a, BaseException):
        assert str(a) == str(b), where
    elif isinstance(a, BaseModel):
        assert a.model_fields_set == b.model_fields_set, where
        assert list(a.__dict__) == list(b.__dict__), where
        for name in a.__dict__:
            same(a.__dict__[name], b.__dict__[name], f"{where}.{name}")
        same(a.__pydantic_extra__, b.__pydantic_extra__, f"{where}.extra")
        assert a.__pydantic_private__ == b.__pydantic_private__, where
    elif isinstance(a, dict):
        assert list(a) == list(b), where
        for key in a:
            assert type(key) is type(next(k for k in b if k == key)), where
            same(a[key], b[key], f"{where}[{key!r}]")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            same(x, y, f"{where}[{i}]")
    elif isinstance(a, float) and math.isnan(a):
        assert math.isnan(b), where
    else:
        assert a == b, (where, a, b)


def check_text(text: str) -> Any:
    """Both ways of reading ``text`` agree; the one-pass reading takes only what full reading
    takes, and builds what the model's own validation builds."""
    with full_reading_only():
        expected = outcome(parse_log, text)
        expected_bytes = outcome(parse_log, text.encode("utf-8", "surrogatepass"))
        expected_entries = read_logs(text.encode("utf-8", "surrogatepass"), "in.json")
    got = outcome(parse_log, text)
    same(got, expected)
    same(outcome(parse_log, text.encode("utf-8", "surrogatepass")), expected_bytes)
    entries = read_logs(text.encode("utf-8", "surrogatepass"), "in.json")
    assert [e.source for e in entries] == [e.source for e in expected_entries]
    for entry, want in zip(entries, expected_entries):
        same(entry.log if entry.ok else entry.error, want.log if want.ok else want.error)
        assert entry.raw == want.raw
    fast = read_text(text)
    if fast is not None:
        assert not isinstance(expected, BaseException), "the one-pass reading took a log full reading refuses"
        data = json.loads(text)
        same(fast, type(fast).model_validate(data))
        same(fast, expected)
    return fast


# --- plain logs take the one-pass reading --------------------------------------------------------

@pytest.mark.parametrize("game", GAMES)
def test_every_games_plain_logs_are_read_in_one_pass(game):
    for text in base_logs(game):
        fast = check_text(text)
        assert fast is not None and type(fast) is get(game).Log
        assert fast.canonical_json() == text


@pytest.mark.parametrize("game", GAMES)
def test_shapes_bots_write_are_read_in_one_pass(game):
    """Extra fields everywhere, missing and null times, keys in another order, escapes, indents."""
    for text in base_logs(game)[:3]:
        data = json.loads(text)
        data["extra_top"] = {"x": [1, 2.5, None, "y"]}
        data["meta"] = {"table": "t1", "nested": {"a": [True, False]}, "format": "not the format"}
        for i, event in enumerate(data["events"]):
            if i % 3 == 0:
                event.pop("t", None)
            elif i % 3 == 1:
                event["t"] = None
            if i % 4 == 0:
                event["note"] = {"kept": i}
        for player in data.get("players", {}).values():
            player["rating"] = 1500
        if data.get("end"):
            data["end"]["why"] = "done"
        for variant in (json.dumps(data), json.dumps(data, ensure_ascii=True, indent=2),
                        json.dumps(data, sort_keys=True), json.dumps(data, separators=(",", ":"))):
            assert check_text(variant) is not None


def test_other_spellings_are_read_in_one_pass_and_remembered():
    data = json.loads(base_logs("floating-bridge")[0])
    data["first_bidder"] = " n "
    data["hands"]["N"] = [c.lower() for c in data["hands"]["N"]]
    data["events"][0]["seat"] = "e"
    assert check_text(json.dumps(data)) is not None
    from replay.games.floating_bridge.reading import _CARDS, _SEATS

    assert " n " in _SEATS and data["hands"]["N"][0] in _CARDS
    uno = json.loads(base_logs("uno-lite")[0])
    uno["hands"]["P1"][0] = "red 5" if uno["hands"]["P1"][0] != "R5" else "green 5"
    assert check_text(json.dumps(uno)) is not None
    coup = json.loads(base_logs("coup")[0])
    coup["hands"][next(iter(coup["hands"]))][0] = "contessa"
    assert check_text(json.dumps(coup)) is not None


@pytest.mark.parametrize("text", [
    # other notations, spellings no reader takes, seats with spaces: full reading decides
    '{"format":"floating-bridge/1","notation":"singbridge","first_bidder":"N","events":[],'
    '"hands":{"N":[114],"E":[],"S":[],"W":[]}}',
    '{"format":"floating-bridge/1","first_bidder":"N","events":[],"hands":{"N":[114],"E":[],"S":[],"W":[]}}',
    '{"format":"floating-bridge/1","first_bidder":"N","events":[],"hands":{"N":["114"],"E":[],"S":[],"W":[]}}',
    '{"format":"coup/1","first_player":" 1","hands":{"1":["D","C"],"2":["E","E"]},"events":[]}',
    '{"format":"coup/1","first_player":1,"hands":{"1":["D","C"],"2":["E","E"]},"events":[]}',
    # duplicate keys: the last one counts, both ways
    '{"format":"uno-lite/1","format":"coup/1","first_player":"1","hands":{"1":["D","C"],"2":["E","E"]},'
    '"events":[]}',
    '{"format":"uno-lite/1","first_player":"P1","starter":"R9","events":[{"type":"pass","seat":"P2",'
    '"seat":"P1","t":1,"t":2,"x":1,"x":[2]}],"hands":{"P1":["R5"],"P2":["G7"],"P1":["B3"]}}',
    '{"format":"floating-bridge/1","first_bidder":"N","events":[],"players":{"N":{"name":"a"},"n":{"name":"b"}},'
    '"hands":{"N":[],"E":[],"S":[],"W":[]}}',
    # lone surrogates, escaped and raw, in values and keys; a valid pair is read
    '{"format":"uno-lite/1","first_player":"P1","starter":"R9","events":[],"hands":{"P1":[],"P2":[]},'
    '"meta":{"a":"\\ud800"}}',
    '{"format":"uno-lite/1","first_player":"P1","starter":"R9","events":[],"hands":{"P1":[],"P2":[]},'
    '"meta":{"\\udc00":1}}',
    '{"format":"uno-lite/1","first_player":"P1","starter":"R9","events":[],"hands":{"P1":[],"P2":[]},'
    '"meta":{"a":"\ud800"}}',
    '{"format":"uno-lite/1","first_player":"P1","starter":"R9","events":[],"hands":{"P1":[],"P2":[]},'
    '"meta":{"a":"\\ud83d\\ude00"}}',
    # numbers json.loads reads in its own way
    '{"format":"uno-lite/1","first_player":"P1","starter":"R9","events":[],"hands":{"P1":[],"P2":[]},'
    '"meta":{"a":NaN,"b":-Infinity,"c":1e400,"d":-0.0,"e":123456789012345678901234567890}}',
    '{"format":"uno-lite/1","first_player":"P1","starter":"R9","events":[],"hands":{"P1":[],"P2":[]},'
    '"meta":{"a":1' + "0" * 5000 + '}}',
    '{"format":"uno-lite/1","first_player":"P1","starter":"R9","events":[{"type":"pass","seat":"P1","t":5.0}],'
    '"hands":{"P1":[],"P2":[]}}',
    '{"format":"uno-lite/1","first_player":"P1","starter":"R9","events":[{"type":"pass","seat":"P1","t":"5"}],'
    '"hands":{"P1":[],"P2":[]}}',
    '{"format":"uno-lite/1","first_player":"P1","starter":"R9","events":[{"type":"pass","seat":"P1","t":true}],'
    '"hands":{"P1":[],"P2":[]}}',
    # JSON the parsers read differently: control characters, nesting, a byte order mark, trailing text
    '{"format":"uno-lite/1","first_player":"P1","starter":"R9","events":[],"hands":{"P1":[],"P2":[]},'
    '"meta":{"a":"tab\there"}}',
    '{"format":"uno-lite/1","first_player":"P1","starter":"R9","events":[],"hands":{"P1":[],"P2":[]},'
    '"meta":' + "[" * 300 + "]" * 300 + '}',
    '\ufeff{"format":"uno-lite/1","first_player":"P1","starter":"R9","events":[],"hands":{"P1":[],"P2":[]}}',
    '{"format":"uno-lite/1","first_player":"P1","starter":"R9","events":[],"hands":{"P1":[],"P2":[]}} {}',
    '{"format":"uno-lite/1","first_player":"P1","starter":"R9","events":[],"hands":{"P1":[],"P2":[]}}\n{}',
    # a start time with no UTC time, a format named only inside meta
    '{"format":"uno-lite/1","first_player":"P1","starter":"R9","events":[],"hands":{"P1":[],"P2":[]},'
    '"started_at":"0001-01-01T00:00:00+14:00"}',
    '{"meta":{"format":"uno-lite/1"},"first_player":"P1","starter":"R9","events":[],"hands":{"P1":[],"P2":[]}}',
])
def test_unusual_text_reads_as_full_reading_reads_it(text):
    check_text(text)


def test_lone_surrogates_are_never_read_in_one_pass():
    for value in ("\\ud800", "\\udfff", "x\\ud800", "\\udc00\\ud800", "\\ud800\\u0041", "\ud800", "a\udcffb"):
        text = ('{"format":"uno-lite/1","first_player":"P1","starter":"R9","events":[],'
                '"hands":{"P1":[],"P2":[]},"game_id":"' + value + '"}')
        assert read_text(text) is None
        with pytest.raises(LogFormatError, match="lone surrogate"):
            parse_log(text)


def test_limits_checked_after_validation_are_left_to_full_reading():
    """Bridge's per-kind event limits (a before-validator in full reading) are checked on the
    models the one-pass reading built; a log past them is refused with full reading's words."""
    data = json.loads(base_logs("floating-bridge")[1])
    partner = {"type": "partner", "seat": "N", "card": "SA"}
    data["events"] = [partner] * 9
    assert read_text(json.dumps(data)) is None
    assert "9 partner events, more than the 8" in str(outcome(parse_log, json.dumps(data)))
    data["events"] = [{"type": "chat", "text": "x" * 4000}] * 13
    assert read_text(json.dumps(data)) is None
    assert "52,000 characters of chat" in str(outcome(parse_log, json.dumps(data)))
    data["events"] = [{"type": "chat", "text": "x" * 4000}] * 12 + [partner] * 8
    assert check_text(json.dumps(data)) is not None


def test_building_the_reading_validators_leaves_the_models_as_they_were():
    for game in GAMES:
        module = get(game)
        module.read_json(base_logs(game)[0])  # built
        log_model = module.Log
        models = [value for value in vars(sys.modules[log_model.__module__]).values()
                  if isinstance(value, type) and issubclass(value, BaseModel) and value is not BaseModel]
        assert log_model in models and len(models) > 5
        for cls in models:
            assert cls.__dict__["__pydantic_complete__"] is True, cls
        same(log_model.model_validate(json.loads(base_logs(game)[0])), module.read_json(base_logs(game)[0]))


def test_a_lookup_remembers_a_bounded_number_of_spellings():
    lookup = Lookup({"A": 1}, lambda text: len(text))
    for n in range(MAX_REMEMBERED + 100):
        assert lookup[f"k{n}"] == len(f"k{n}")
    assert len(lookup) == MAX_REMEMBERED
    with pytest.raises(ValueError):
        lookup[None]


# --- generated logs, changed ---------------------------------------------------------------------

SPELLINGS = [
    # bridge cards, calls, seats, rules, notations
    "SA", "sa", "A♠", "♠A", "10h", "HT", "S1O", "C2", "1S", "1s", "1NT", "1N", "pass", "Pass", "P", "8S", "7NT",
    "N", "n", " E ", "Q", "bridgebot", "all-tricks", "standard", "singbridge",
    # UNO Lite cards and seats; Coup cards, actions and seats; party seats and card ids
    "R5", "r5", "5R", "red 5", "🔴5", "R0", "Y9", "P1", "p1", " P2", "P3",
    "D", "duke", "Duke", "K", "E", "I", "income", "tax", "X", "1", "2", " 1", "7", "a b", "p1", "p2", "p9", "",
    # end reasons, event types, times
    "completed", "passed_out", "cancelled", "timeout", "abandoned", "not_enough_players", "bid", "play", "chat",
    "draw", "pass", "action", "round", "answer", "pick", "2026-11-21T10:00:00Z", "2026-11-21T10:00:00+14:00",
    "0001-01-01T00:00:00+14:00", "2026-13-01", "\ud800", "x\udc00", "😀", "<b>&amp;</b>",
    *FORMATS,
]
scalars = (st.none() | st.booleans() | st.integers(-3, 600) | st.integers() | st.sampled_from([114, 45, 0, -1, 2**31])
           | st.floats() | st.sampled_from([1.0, 5.0, 2.5, -0.0]) | st.sampled_from(SPELLINGS)
           | st.text(max_size=6) | st.text(min_size=3990, max_size=4010, alphabet="ab"))
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=5) | st.sampled_from(SPELLINGS[:60]), inner, max_size=4),
                           max_leaves=10)


def places(value: Any, out: list | None = None) -> list[tuple[Any, Any]]:
    """Every (container, key or index) in a decoded JSON value."""
    out = [] if out is None else out
    if isinstance(value, dict):
        for key in list(value):
            out.append((value, key))
            places(value[key], out)
    elif isinstance(value, list):
        for index in range(len(value)):
            out.append((value, index))
            places(value[index], out)
    return out


@st.composite
def changed_logs(draw: Any) -> str:
    game = draw(st.sampled_from(GAMES))
    data = json.loads(draw(st.sampled_from(base_logs(game))))
    for _ in range(draw(st.integers(0, 4))):
        spots = places(data)
        container, key = draw(st.sampled_from(spots))
        action = draw(st.sampled_from(["replace", "replace", "delete", "add", "copy"]))
        if action == "replace":
            container[key] = draw(json_values)
        elif action == "delete" and isinstance(container, dict):
            del container[key]
        elif action == "delete":
            container.pop(key)
        elif action == "add" and isinstance(container, dict):
            container[draw(st.text(max_size=5) | st.sampled_from(SPELLINGS[:60]))] = draw(json_values)
        elif action == "add":
            container.insert(key, draw(json_values))
        else:  # the value of another place here (a card where a seat goes, an event twice...)
            other_container, other_key = draw(st.sampled_from(spots))
            container[key] = json.loads(json.dumps(other_container[other_key]))
    options = draw(st.sampled_from([{}, {"ensure_ascii": False}, {"indent": 1}, {"sort_keys": True},
                                    {"separators": (",", ":"), "ensure_ascii": False}]))
    return json.dumps(data, **options)


@st.composite
def garbled_texts(draw: Any) -> str:
    """A log's JSON text cut short, spliced or with characters changed."""
    text = draw(changed_logs())
    for _ in range(draw(st.integers(1, 3))):
        at = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["cut", "delete", "insert", "insert"]))
        if action == "cut":
            text = text[:at]
        elif action == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 20)):]
        else:
            text = text[:at] + draw(st.text(alphabet='{}[]",:\\ 0123456789.eE-+tfnulSAN\ud800é\t', max_size=6)) + text[at:]
    return text


SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                             HealthCheck.data_too_large])


@SETTINGS
@given(changed_logs())
def test_changed_logs_read_alike_both_ways(text):
    check_text(text)


@SETTINGS
@given(garbled_texts())
def test_garbled_texts_read_alike_both_ways(text):
    check_text(text)


@SETTINGS
@given(st.dictionaries(st.sampled_from(["format", "first_bidder", "first_player", "hands", "events", "players",
                                        "starter", "score_limit", "end", "meta", "notation", "rules"]),
                       json_values, max_size=8),
       st.sampled_from(FORMATS))
@example({"hands": {"N": [], "E": [], "S": [], "W": []}, "first_bidder": "N", "events": []}, "floating-bridge/1")
def test_arbitrary_json_reads_alike_both_ways(data, fmt):
    data.setdefault("format", fmt)
    check_text(json.dumps(data))


def test_garbage_reads_alike_both_ways():
    for text in ("", " ", "{", "[]", "null", '{"format":', '{"format": "uno-lite/1"', "{}", '"x"', "1",
                 '{"format": 5}', '{"format": "floating-bridge/1"}', '{"format": ["coup/1"]}'):
        check_text(text)
    assert isinstance(parse_log('{"format":"floating-bridge/1","first_bidder":"N","events":[],'
                                '"hands":{"N":[],"E":[],"S":[],"W":[]}}'), GameLog)


def test_a_number_too_long_for_python_is_an_error_not_a_crash():
    """``json.loads`` raises a bare ValueError past 4,300 digits: reading says so like any bad input."""
    text = ('{"format":"uno-lite/1","first_player":"P1","starter":"R9","events":[],"hands":{"P1":[],"P2":[]},'
            '"meta":{"a":1' + "0" * 5000 + '}}')
    message = "not a game log: a number of more than 4,300 digits"
    with pytest.raises(LogFormatError, match=message):
        parse_log(text)
    [entry] = read_logs(text.encode(), "big.json")
    assert str(entry.error) == message
    [first, second] = read_logs((base_logs("uno-lite")[0] + "\n" + text).encode(), "big.jsonl")
    assert first.ok and str(second.error) == message


def _party_change(change) -> str:
    data = json.loads(base_logs("party-cards")[0])
    change(data)
    return json.dumps(data)


def _party_event(data: dict, kind: str) -> dict:
    return next(e for e in data["events"] if e["type"] == kind)


@pytest.mark.parametrize("change, message", [
    (lambda d: _party_event(d, "answer").update(seat="p9"), "is not a seat of this game"),
    (lambda d: _party_event(d, "answer").update(seat="p 1"), "is not a seat name (no spaces)"),
    (lambda d: _party_event(d, "answer").update(seat="p" * 65), "at most 64 characters"),
    (lambda d: _party_event(d, "round").update(czar="nobody"), "czar: 'nobody' is not a seat of this game"),
    (lambda d: _party_event(d, "reveal")["order"].append("ghost"), "'ghost' is not a seat of this game"),
    (lambda d: d["events"].append({"type": "chat", "seat": "ghost", "text": "hi"}), "'ghost' is not a seat"),
    (lambda d: d["end"].update(winner="ghost"), "end.winner: 'ghost' is not a seat of this game"),
    (lambda d: d["hands"].update(ghost=[]), "hands.ghost: 'ghost' is not a seat of this game"),
    (lambda d: d["hands"]["p1"].extend({"id": f"x{i}", "text": "t"} for i in range(200)), "at most 200 are allowed"),
    (lambda d: d["events"].extend([{"type": "chat", "text": "hi"}] * 2001), "chat events: at most 2000 are allowed"),
])
def test_party_cards_checks_left_out_of_the_one_pass_reading_are_left_to_full_reading(change, message):
    """The seats events name and the caps are checked on the models the one-pass reading built
    (not by the model validators); a log that fails one is refused with full reading's words."""
    text = _party_change(change)
    assert read_text(text) is None
    check_text(text)
    assert message in str(outcome(parse_log, text))


def test_party_cards_chat_by_nobody_and_extra_seat_fields_are_read_in_one_pass():
    def change(data):
        data["events"].append({"type": "chat", "seat": None, "text": "hi"})
        _party_event(data, "round")["seat"] = "not-a-seat-but-an-extra"  # an extra field, not a seat
    assert check_text(_party_change(change)) is not None
