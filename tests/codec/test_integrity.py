"""Damaged codes are refused: every single-character substitution, 98%+ of other damage, and
no input makes decode() raise anything but CodeError, while a bug in the decoder is not
disguised as one."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay.codec import CodeError, decode, encode
from replay.games.floating_bridge.codec import compact, legacy
from replay.codec.intcode import ALPHABET

from .games import seeded_corpus


def _codes(n: int) -> list[str]:
    return [encode(log) for log in seeded_corpus(20_000)[:n]]


def test_every_single_character_substitution_of_1000_codes_is_detected():
    codes = _codes(1000)
    tried = 0
    for code in codes:
        for i, original in enumerate(code):
            head, tail = code[:i], code[i + 1:]
            for ch in ALPHABET:
                if ch == original:
                    continue
                tried += 1
                try:
                    decode(head + ch + tail)
                except CodeError:
                    continue
                raise AssertionError(f"substitution {original!r}->{ch!r} at {i} of {code} was not detected")
    assert tried > 1000 * 25 * 61


def corrupt(code: str, rng: random.Random) -> tuple[str, str]:
    """One of: swap neighbours, delete, insert, double a character, truncate."""
    kind = rng.choice(["swap", "delete", "insert", "double", "truncate"])
    i = rng.randrange(len(code))
    if kind == "swap":
        i = rng.randrange(len(code) - 1)
        return kind, code[:i] + code[i + 1] + code[i] + code[i + 2:]
    if kind == "delete":
        return kind, code[:i] + code[i + 1:]
    if kind == "insert":
        return kind, code[:i] + rng.choice(ALPHABET) + code[i:]
    if kind == "double":
        return kind, code[:i] + code[i] + code[i:]
    return kind, code[:rng.randrange(1, len(code))]


def test_at_least_98_percent_of_100000_other_corruptions_are_detected():
    rng = random.Random(2024)
    codes = _codes(2000)
    originals = set(codes)
    total = detected = 0
    missed_by_kind: dict[str, int] = {}
    while total < 100_000:
        code = rng.choice(codes)
        kind, damaged = corrupt(code, rng)
        if damaged == code:
            continue  # e.g. swapping two equal neighbours changes nothing
        total += 1
        try:
            back = decode(damaged)
        except CodeError:
            detected += 1
            continue
        missed_by_kind[kind] = missed_by_kind.get(kind, 0) + 1
        # a miss still decodes to a well-formed game, never to one of the originals
        assert damaged not in originals
        assert back.replay() is not None
    rate = detected / total
    print(f"detected {detected} of {total} corruptions ({rate:.4%}); missed by kind: {missed_by_kind}")
    assert rate >= 0.98


@settings(max_examples=1000, deadline=None)
@given(st.text(max_size=80))
def test_decode_of_any_text_raises_only_code_error(text):
    try:
        decode(text)
    except CodeError as exc:
        assert str(exc)


@settings(max_examples=1000, deadline=None)
@given(st.text(alphabet=ALPHABET + "-#/?=&%:.", min_size=1, max_size=120))
def test_decode_of_code_like_text_raises_only_code_error(text):
    try:
        decode(text)
    except CodeError as exc:
        assert str(exc)


@settings(max_examples=500, deadline=None)
@given(st.sampled_from("ABCDEFGHIJKLMNOP"), st.text(alphabet=ALPHABET, min_size=20, max_size=60))
def test_random_v1_shaped_codes_raise_only_code_error(marker, body):
    try:
        log = decode(marker + body)
    except CodeError:
        return
    # the rare random text that passes every check is still a game the engine can judge
    assert log.replay() is not None


@settings(max_examples=500, deadline=None)
@given(st.sampled_from("0123"), st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-",
                                         min_size=50, max_size=70))
def test_random_legacy_shaped_codes_raise_only_code_error(digit, body):
    try:
        decode(digit + body)
    except CodeError as exc:
        if digit != "0" or "-" in body:
            assert str(exc).startswith("legacy code")
        else:  # 0 and no '-': a version 2 replay code
            assert str(exc)


def test_messages_say_what_is_wrong():
    code = encode(seeded_corpus(20_000)[5])
    cases = {
        "": "empty",
        "   ": "empty",
        "Z" + code[1:]: "does not start a replay code",
        code[:5] + "_" + code[6:]: "is not allowed",
        code[:1] + "0" + code[1:]: "a 0 cannot follow",
        code[:-1]: "checksum mismatch",
        "https://host/x/" + code: "no code in this link",
        "https://host/r/": "no code in this link",
    }
    for text, message in cases.items():
        try:
            decode(text)
        except CodeError as exc:
            assert message in str(exc), (text, str(exc))
        else:
            raise AssertionError(f"{text!r} decoded")
    assert issubclass(CodeError, ValueError)
    from replay.errors import ReplayError

    assert issubclass(CodeError, ReplayError)


def test_non_text_input_raises_code_error():
    for value in (None, 42, b"abc", ["A"]):
        try:
            decode(value)  # type: ignore[arg-type]
        except CodeError:
            continue
        raise AssertionError(f"{value!r} decoded")


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**20000), st.integers(0, 3))
def test_any_payload_that_passes_the_checksum_decodes_or_raises_code_error(payload, kind):
    """Random integers with a valid checksum, of every kind, up to ~3,400 characters."""
    from replay.games.floating_bridge.codec.compact import _to_text

    text = _to_text(payload * 4 + kind)
    try:
        log = decode(text)
    except CodeError as exc:
        assert str(exc)
        return
    assert log.replay() is not None


def test_a_bug_in_the_decoder_surfaces_as_itself_not_as_code_error(monkeypatch):
    """decode() catches nothing: the checks raise CodeError for bad input, and anything else
    (here a fault put into the real decoder) reaches the caller as what it is."""
    clean = next(encode(log) for log in seeded_corpus(20_000) if compact.code_kind(encode(log)) == "bridgebot")
    decode(clean)

    def broken_clean(reader, kind):
        raise ZeroDivisionError("a bug in the clean-game decoder")

    monkeypatch.setattr(compact, "_decode_clean", broken_clean)
    with pytest.raises(ZeroDivisionError, match="a bug"):
        decode(clean)


def test_a_bug_in_the_legacy_decoder_surfaces_as_itself(monkeypatch):
    example = "0DzHzIMzzN-y-mfJFZNDnrCzxwvbKMXWIlqeTGVgmABOYHdyjPohiaELQRScpkUsut"
    decode(example)

    def broken_make_log(*args):
        raise KeyError("a bug in the legacy decoder")

    monkeypatch.setattr(legacy, "_make_log", broken_make_log)
    with pytest.raises(KeyError):
        decode(example)
