"""Code versions: codes the last release printed (version 1) still open to the same games;
new codes (version 2) refuse a swap of their first two characters, and no string shorter than
a real code decodes."""

from __future__ import annotations

import hashlib
import itertools
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay.codec import CodeError, decode, encode, is_fallback_code, is_legacy_code
from replay.games.floating_bridge.codec import compact
from replay.codec.intcode import ALPHABET

from .games import assert_same_game, seeded_corpus

RELEASED = Path(__file__).with_name("release_v1_codes.tsv")
README_CODE = "J1T1pDCikr3x2SS60uZGjimsxuRfD41VyeKfkW"  # sample_logs/legacy/worked-example.txt


def _released() -> list[tuple[str, str, str]]:
    return [tuple(line.split("\t")) for line in RELEASED.read_text().splitlines() if line]


def _digest(log) -> str:
    return hashlib.sha256(log.canonical_json().encode()).hexdigest()[:16]


def _swap(code: str) -> str:
    return code[1] + code[0] + code[2:]


def test_codes_the_last_release_printed_still_decode_to_the_same_games():
    """507 codes written by the version 1 encoder (corpus games of every kind, fallback codes of
    games with findings, the broken sample logs, README's code and original BridgeBot codes),
    each with a digest of the game it decoded to then."""
    rows = _released()
    assert len(rows) > 500
    assert (README_CODE, rows[0][2]) == (rows[0][0], "README: sample_logs/legacy/worked-example.txt")
    kinds = set()
    for code, digest, note in rows:
        assert _digest(decode(code)) == digest, (code, note)
        if is_legacy_code(code):
            kinds.add("legacy")
        else:
            assert code[0] in compact.V1_MARKERS
            kinds.add(compact.code_kind(code))
    assert kinds == {"legacy", "bridgebot", "all-tricks", "extended", "fallback"}


def test_the_readme_game_gets_a_version_2_code_that_opens_to_the_same_game():
    from replay.cli import read_entries

    [entry] = read_entries([str(Path(__file__).parents[2] / "sample_logs/legacy/worked-example.txt")])
    log = entry.log
    code = encode(log)
    assert code[0] == compact.V2_MARKER and len(code) <= len(README_CODE) + 1
    assert decode(code).canonical_json() == decode(README_CODE).canonical_json()


def test_swapping_the_first_two_characters_of_3000_codes_is_refused():
    """Version 1 let 5 of 1,971 such swaps through (38-character codes: there the marker and the
    next character weigh the same modulo 127)."""
    tried = 0
    for log in seeded_corpus(20_000)[:3000]:
        code = encode(log)
        swapped = _swap(code)
        if swapped == code:
            continue
        tried += 1
        with pytest.raises(CodeError):
            decode(swapped)
    assert tried > 2900


@settings(max_examples=2000, deadline=None)
@given(st.integers(0, 2**400))
def test_no_payload_has_a_code_whose_first_two_characters_swapped_pass_the_text_checks(payload):
    """The proof in docs/code-format.md section 2, tried: the swapped text starts with the
    body's first character c; if c is a version 1 letter, the version 1 reader meets the 0 right
    after it; if c is 1-3 the text is read as a BridgeBot code and has no '-'; if c is 0 nothing
    changed; any other first character starts no code."""
    code = compact._to_text(payload)
    swapped = _swap(code)
    if swapped == code:
        assert code[1] == "0"
        return
    with pytest.raises(CodeError):
        compact.read_payload(swapped)
    with pytest.raises(CodeError):
        decode(swapped)


@settings(max_examples=1000, deadline=None)
@given(st.integers(0, 2**400), st.sampled_from(ALPHABET[1:]))
def test_changing_the_version_2_marker_is_always_refused(payload, marker):
    code = compact._to_text(payload)
    with pytest.raises(CodeError):
        decode(marker + code[1:])


@settings(max_examples=1000, deadline=None)
@given(st.integers(2**60, 2**400))
def test_a_version_1_code_with_its_marker_changed_to_0_is_refused(payload):
    code = compact._v1_text(payload)
    with pytest.raises(CodeError):
        compact.read_payload(compact.V2_MARKER + code[1:])


def test_very_short_strings_do_not_decode():
    for text in ("NWL", "Pyl", "Ej", "F3FZDb"):
        with pytest.raises(CodeError, match="too short"):
            decode(text)
    for n in (1, 2):
        for chars in itertools.product(ALPHABET, repeat=n):
            text = "".join(chars)
            with pytest.raises(CodeError):
                decode(text)


@settings(max_examples=2000, deadline=None)
@given(st.sampled_from("0ABCDEFGHIJKLMNOP"),
       st.text(alphabet=ALPHABET, min_size=0, max_size=12))
def test_no_string_shorter_than_the_shortest_real_code_decodes(first, rest):
    text = first + rest
    assert len(text) < 14
    with pytest.raises(CodeError):
        decode(text)
    assert len(text) < compact.V1_MIN_LENGTH < compact.MIN_CODE_LENGTH


def test_every_cut_of_a_new_code_below_17_characters_is_refused():
    for log in seeded_corpus(20_000)[:300]:
        code = encode(log)
        assert len(code) >= compact.MIN_CODE_LENGTH
        for end in range(1, compact.MIN_CODE_LENGTH):
            with pytest.raises(CodeError):
                decode(code[:end])


def test_a_game_with_a_tiny_payload_gets_a_padded_17_character_code():
    """Each seat dealt one whole suit in card order, passed out: payload 0 (version 1: 'J5')."""
    from replay.games.floating_bridge.cards import SEATS, SUIT_MASKS, cards_of
    from replay.logger import GameLogger

    logger = GameLogger(rules="bridgebot", clock=None)
    logger.deal([cards_of(SUIT_MASKS[s]) for s in range(4)], first_bidder=SEATS[0])
    seat = SEATS[0]
    for _ in range(4):
        logger.bid(seat, "pass")
        seat = seat.next
    log = logger.end("passed_out").log
    code = encode(log)
    assert code == "0" + "0" * 14 + "1R" and len(code) == compact.MIN_CODE_LENGTH
    assert_same_game(log, decode(code))
    with pytest.raises(CodeError):
        decode(code[:1] + code[2:])  # one padding 0 fewer


def test_the_kind_is_read_without_decoding():
    for log in seeded_corpus(20_000)[:400]:
        code = encode(log)
        kind = compact.code_kind(code)
        assert kind == compact.KIND_NAMES[compact.read_payload(code) % 4]
        assert is_fallback_code(code) == (kind == "fallback")
