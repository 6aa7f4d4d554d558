"""holdem/1's one-pass reading (``read_json``) against full validation.

The one-pass reading checks canonical action texts, seats and integer amounts in pydantic-core
and tells the events apart there; anything else goes to the liberal readers or is left to full
reading. Whatever it gives must be what full validation builds (same classes, fields, fields set
and extras, all the way down), and whatever full validation refuses it must leave alone, so
that the error (its place and words) is full validation's.
"""

from __future__ import annotations

import json
import math
from decimal import Decimal
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

import replay.log as replay_log
from replay.games.holdem import log as holdem_log
from replay.games.holdem.bots import play_game
from replay.games.holdem.log import (
    CANONICAL_ACTION,
    MAX_ACTION,
    ActionError,
    ActionEvent,
    HoldemLog,
    canonical_action,
    read_json,
)
from replay.log import LogFormatError, parse_log


def same(a: Any, b: Any, where: str = "log") -> None:
    """Equal field by field with the same types, fields set, extras and field order."""
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
            same(a[key], b[key], f"{where}[{key!r}]")
    elif isinstance(a, (list, tuple)):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            same(x, y, f"{where}[{i}]")
    elif isinstance(a, float) and math.isnan(a):
        assert math.isnan(b), where
    else:
        assert a == b, (where, a, b)


def full(text: str) -> Any:
    """What ``parse_log`` gives without the one-pass reading: the model or the error."""
    with mock.patch.object(replay_log, "read_text", lambda text: None):
        try:
            return parse_log(text)
        except (LogFormatError, ValueError) as exc:
            return exc


def check(text: str) -> Any:
    """The one-pass reading takes only what full reading takes, and builds the same models;
    ``parse_log`` gives the same either way. The one-pass result (or None)."""
    expected = full(text)
    fast = read_json(text)
    if fast is not None:
        assert not isinstance(expected, BaseException), f"one-pass reading took what full reading refuses: {expected}"
        same(fast, expected)
        same(fast, HoldemLog.model_validate(json.loads(text)))
    try:
        got = parse_log(text)
    except (LogFormatError, ValueError) as exc:
        got = exc
    same(got, expected)
    return fast


def log_text(seed: int, **kwargs: Any) -> str:
    return play_game(seed, **kwargs).canonical_json()


# --- the bots' hands: the one-pass reading, the same models ----------------------------------------

@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10 ** 6), players=st.integers(2, 10), variant=st.sampled_from(["NT", "FT"]),
       chat=st.booleans(), interrupt=st.sampled_from([0.0, 0.5]))
def test_bots_hands_are_read_in_one_pass_as_full_validation_reads_them(seed, players, variant, chat, interrupt):
    text = log_text(seed, players=players, variant=variant, chat=chat, interrupt_rate=interrupt)
    fast = check(text)
    assert fast is not None
    assert fast.canonical_json() == text


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10 ** 6), players=st.integers(2, 10), indent=st.sampled_from([None, 1]),
       ascii_only=st.booleans())
def test_other_layouts_of_the_same_hand_read_the_same(seed, players, indent, ascii_only):
    data = json.loads(log_text(seed, players=players, chat=True))
    data["meta"]["note"] = "p99 said \u00e9"
    text = json.dumps(data, indent=indent, ensure_ascii=ascii_only)
    assert check(text) is not None


def test_every_action_the_bots_write_is_canonical_and_matches_the_pattern():
    seen = set()
    for seed in range(200):
        for players in (2, 6, 10):
            seen.update(play_game(seed, players=players).actions)
    for text in seen:
        assert CANONICAL_ACTION.fullmatch(text), text
        assert canonical_action(text) == text


def test_canonical_bots_actions_never_reach_the_liberal_reader():
    text = log_text(7, players=9)
    read_json(text)  # the reading validators built
    with mock.patch.object(holdem_log, "parse_action", side_effect=AssertionError("liberal parse")):
        canonical_action.cache_clear()
        assert read_json(text) is not None
        assert canonical_action.cache_info().currsize == 0


# --- the canonical pattern is exactly the canonical texts ---------------------------------------

_WORDS = ["d", "dh", "db", "p1", "p2", "p9", "p10", "p11", "p0", "p01", "P3", "f", "cc", "cbr", "sm", "-", "#", "x",
          "0", "00", "7", "300", "0.25", "1.50", "1.5", "0.0", "1,000", "10.", ".5", "123456789012345",
          "1000000000000000",
          "0.00000001", "0.000000001", "12345678901234.5", "1234567890123.45", "Ac", "Kd", "??", "AcKd", "Ac??",
          "10h", "ac", "As2s3s", "A", "Ah Kh", "K\u2660"]


@settings(max_examples=3000, deadline=None)
@given(words=st.lists(st.sampled_from(_WORDS), max_size=6), sep=st.sampled_from([" ", "  ", "\t"]))
def test_the_pattern_matches_exactly_the_canonical_texts(words, sep):
    text = sep.join(words)
    try:
        canonical = canonical_action(text)
    except ActionError:
        canonical = None
    matched = CANONICAL_ACTION.fullmatch(text) is not None
    if matched:
        assert canonical == text
    elif canonical == text:  # canonical, but not matched: only with a commentary, or the empty no-op
        assert "#" in text or text == ""


@settings(max_examples=500, deadline=None)
@given(value=st.one_of(
    st.decimals(min_value=Decimal("-1e16"), max_value=Decimal("1e16"), allow_nan=False, allow_infinity=False),
    st.builds(lambda digits, places: Decimal(digits).scaleb(-places), st.integers(0, 10 ** 17), st.integers(0, 12))),
    fmt=st.sampled_from(["{}", "{:f}"]))
def test_the_pattern_takes_an_amount_exactly_when_it_is_canonical(value, fmt):
    text = "p1 cbr " + fmt.format(value)
    try:
        canonical = canonical_action(text)
    except ActionError:
        canonical = None
    assert (CANONICAL_ACTION.fullmatch(text) is not None) == (canonical == text), (text, canonical)


# --- what is not canonical still goes through the liberal reader --------------------------------

def _with_actions(text: str, changes: dict[int, Any]) -> str:
    data = json.loads(text)
    for index, action in changes.items():
        data["events"][index]["action"] = action
    return json.dumps(data)


@pytest.mark.parametrize("spelling", [
    lambda a: a.upper(), lambda a: "  " + a.replace(" ", "   ") + " ", lambda a: a + " # well played",
    lambda a: a.replace("cbr 200", "cbr 200.00").replace(" cc", " CC"), lambda a: a.replace("cbr 2", "cbr 0002"),
])
def test_non_canonical_texts_are_read_liberally_and_canonicalised(spelling):
    text = log_text(3, players=6)
    data = json.loads(text)
    changes = {i: spelling(e["action"]) for i, e in enumerate(data["events"]) if "action" in e}
    changed = _with_actions(text, changes)
    canonical_action.cache_clear()
    fast = check(changed)
    assert fast is not None
    assert canonical_action.cache_info().misses > 0  # the liberal reader read them
    assert [e.action for e in fast.events if type(e) is ActionEvent] == [
        canonical_action(a) for a in changes.values()]


def test_cards_written_liberally_are_read_in_one_pass():
    text = log_text(11, players=3)
    data = json.loads(text)
    data["events"][0]["action"] = "d dh p1 10h K\u2660"
    data["events"][1]["action"] = "D DH P2 ac 2D"
    fast = check(json.dumps(data, ensure_ascii=False))
    assert fast is not None and fast.events[0].action == "d dh p1 ThKs" and fast.events[1].action == "d dh p2 Ac2d"


@pytest.mark.parametrize("action", ["p1 cbr x", "p1 sd", "d dh p1", "p1 cc now", 5, None, ["p1 cc"], "p1 cbr 1e3",
                                    "p1 cc" + " " * MAX_ACTION, "d db " + "Ac" * 300, "p0 cc", "p100 f",
                                    "p1 cbr 1000000000000000", "p1 cbr 0.000000001"])
def test_bad_actions_give_full_validations_error(action):
    text = _with_actions(log_text(5, players=4), {8: action})
    assert read_json(text) is None
    assert check(text) is None
    assert isinstance(full(text), LogFormatError)


# --- the seats, by the table's size ---------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 6, 9, 10])
@pytest.mark.parametrize("where", ["actor", "dealt", "liberal actor", "liberal dealt", "chat", "player"])
def test_a_seat_past_the_table_is_full_validations_error(players, where):
    data = json.loads(log_text(17, players=players, chat=True))
    past = f"p{players + 1}"
    if where == "actor":
        index = next(i for i, e in enumerate(data["events"]) if e.get("action", "d")[0] == "p")
        data["events"][index]["action"] = f"{past} cc"
    elif where == "dealt":
        data["events"][0]["action"] = f"d dh {past} AcAd"
    elif where == "liberal actor":
        data["events"][-1] = {"action": f"{past.upper()}  f"}
    elif where == "liberal dealt":
        data["events"][0]["action"] = f"d  DH {past.upper()} Ac Ad"
    elif where == "chat":
        data["events"].append({"type": "chat", "seat": past, "text": "hi"})
    else:
        data["players"][past] = {"name": "ghost"}
    text = json.dumps(data)
    assert read_json(text) is None
    error = full(text)
    assert isinstance(error, LogFormatError) and "not a seat of this game" in str(error)
    check(text)


@pytest.mark.parametrize("stacks", ["[100]", "[]", "[100,100,100,100,100,100,100,100,100,100,100]"])
def test_tables_of_no_valid_size_read_as_in_full(stacks):
    text = log_text(2, players=2).replace('"starting_stacks":[10000,10000]', f'"starting_stacks":{stacks}')
    data = json.loads(text)
    data["events"].append({"action": "p12 cc"})
    check(json.dumps(data))
    check(text)


def test_a_wrong_hint_of_the_table_size_changes_nothing():
    text = log_text(4, players=6)
    data = json.loads(text)
    # an earlier "starting_stacks" (in an extra field) with another size, and a later duplicate key
    hinted = '{"x":{"starting_stacks":[1,2,3]},' + text[1:]
    assert check(hinted) is not None
    duplicated = text[:-1] + ',"starting_stacks":[5,5]}'
    check(duplicated)
    data["starting_stacks"] = [10000] * 7
    check(json.dumps(data, separators=(", ", ": ")))


# --- events, amounts, names ---------------------------------------------------------------------

@pytest.mark.parametrize("event", [
    {"type": "action", "action": "p1 cc"}, {"type": None, "action": "p1 cc"},
    {"type": "chat", "action": "p1 cc", "text": "x"}, {"type": "chat", "action": "p1 cc"},
    {"type": "fold", "action": "p1 f"}, {"type": "chat", "text": "hi", "seat": None},
    {"action": "p1 cc", "typ": 1, "types": 2, "Type": 3, "": 4}, {"text": "hi"}, {}, [], "p1 cc",
    {"action": "p1 cc", "t": -1}, {"action": "p1 cc", "t": 1.5}, {"type": "chat", "text": "x" * 4001},
])
def test_events_are_told_apart_as_full_validation_does(event):
    data = json.loads(log_text(8, players=2))
    data["events"].insert(3, event)
    check(json.dumps(data))


@pytest.mark.parametrize("key", ["\\u0074ype", "typ\\u0065", "\\u0074\\u0079\\u0070\\u0065"])
@pytest.mark.parametrize("value", ['"action"', '"chat"', "null"])
def test_an_escaped_type_on_an_action_event_reads_as_in_full(key, value):
    text = log_text(13, players=3).replace('{"action":"p', f'{{"{key}":{value},"action":"p', 1)
    assert read_json(text) is None
    check(text)


@pytest.mark.parametrize("amount", [0, 100, 0.25, 1.5, 100.0, 10 ** 15 - 1, 10 ** 15, -(10 ** 15), -5, True, None,
                                    "100", 1e300, 123456789.123456789, 0.123456789])
@pytest.mark.parametrize("field", ["starting_stacks", "antes", "blinds_or_straddles", "min_bet", "finishing_stacks"])
def test_amounts_read_as_in_full(amount, field):
    data = json.loads(log_text(9, players=3))
    if field == "min_bet":
        data[field] = amount
    elif field == "finishing_stacks":
        data["end"][field] = [amount, 1, 2]
    else:
        data[field][1] = amount
    fast = check(json.dumps(data))
    if fast is not None and field == "starting_stacks":
        assert type(fast.starting_stacks[1]) in (int, Decimal)


def test_cash_game_amounts_are_exact_decimals():
    data = json.loads(log_text(12, players=3))
    data["blinds_or_straddles"] = [0.25, 0.5, 0]
    data["starting_stacks"] = [50, 48.75, 100.1]
    data["events"].append({"action": "p1 cbr 1.5"})
    fast = check(json.dumps(data))
    assert fast is not None
    assert fast.starting_stacks == [50, Decimal("48.75"), Decimal("100.1")]
    assert fast.events[-1].action == "p1 cbr 1.5"


@pytest.mark.parametrize("nul", ["\x00", "a\x00b"])
@pytest.mark.parametrize("where", ["game_id", "name", "bot", "id"])
def test_nul_in_names_and_ids_is_full_validations_error(nul, where):
    data = json.loads(log_text(6, players=2))
    if where == "game_id":
        data["game_id"] = nul
    else:
        data["players"]["p1"][where] = nul
    text = json.dumps(data)
    assert read_json(text) is None
    assert "NUL" in str(full(text))
    check(text)


@pytest.mark.parametrize("started", ["0001-01-01T00:00:00+14:00", "2026-01-01T00:00:00+01:00", "2026-01-01T00:00:00",
                                     "9999-12-31T23:59:59-14:00", "x"])
def test_started_at_read_as_in_full(started):
    data = json.loads(log_text(1, players=2))
    data["started_at"] = started
    check(json.dumps(data))


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 10 ** 4), cut=st.integers(0, 2000), junk=st.text(max_size=3))
def test_garbled_hands_read_as_in_full(seed, cut, junk):
    text = log_text(seed, players=2 + seed % 9)
    cut %= len(text)
    check(text[:cut] + junk + text[cut + len(junk):])
