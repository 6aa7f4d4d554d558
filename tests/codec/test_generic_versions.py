"""Generic code versions: the UNO Lite, Coup and party-cards codes the release before generic
version 2 printed (version 1) still open to the same games, and the same games now get version 2
codes that open to them too."""

from __future__ import annotations

import hashlib
from pathlib import Path

from replay.codec import decode, encode, is_fallback_code
from replay.codec import generic

RELEASED = Path(__file__).with_name("generic_v1_codes.tsv")


def _released() -> list[tuple[str, str, str]]:
    return [tuple(line.split("\t")) for line in RELEASED.read_text().splitlines() if line]


def _digest(log) -> str:
    return hashlib.sha256(log.canonical_json().encode()).hexdigest()[:16]


def test_version_1_codes_still_open_to_the_same_games():
    """250 codes written by main at c028692 (``make_generic_v1_codes.py``): every readable sample
    log of the three games, seeded self-play of every bot mix and size, cut and broken variants,
    each with a digest of the game it opened to then."""
    rows = _released()
    assert len(rows) == 250
    firsts = set()
    for code, digest, note in rows:
        log = decode(code)
        assert _digest(log) == digest, (code, note)
        assert is_fallback_code(code) == code[0].isupper(), (code, note)
        firsts.add(code[0])
        again = encode(log)
        assert again[0] == generic.V2_LETTERS[code[0].lower()] and is_fallback_code(again) == code[0].isupper()
        assert _digest(decode(again)) == digest, (code, note)
    assert firsts == set(generic.V1_MARKERS)


def test_the_version_1_writer_still_writes_the_file():
    """``encode_game_v1`` (kept for tools) gives the same codes for the games the file's
    digests name, so the generator script reproduces the file."""
    rows = _released()
    for code, digest, note in rows[::10]:
        assert generic.encode_game_v1(decode(code)) == code, note
