"""Replay codes for every game without a text codec of its own: the game's marker, then its moves.

A game's code is one integer, the payload, written in base 62 after a marker character. Codes
are written in version 2: the marker is the letter 16 places before the game's own marker
(``GAME.code_marker``: a game whose marker is ``u`` writes codes that start with ``e``), and a checksum of
about 18 bits (3 characters) covers the marker, the length and every character: the whole
code, read as one base-62 number, is ``CHECK_R`` modulo the prime ``CHECK_Q``, and the body is
one of two residues modulo 127 (``form_residues``: one for compact codes, one for raw codes),
chosen so that a code whose marker is changed, lost, preceded by a character or swapped with
the next character never passes another reader's checksum. Version 1 codes (the marker itself,
in upper case for raw codes; the whole code ``89`` modulo ``127``), which earlier releases
wrote, are still read. The payload holds, least significant digit first:

1. compact codes: how the game ended (``0`` no ``end`` object, ``i + 1`` the game's ``i``-th
   end reason, and one more value for ``completed`` with the ``end.winner`` the bot
   announced); the game's setup (``GAME.setup_codec``); then every action as its index among
   ``GAME.legal_events(state)`` at that point (a draw is one of those events per card that can
   be drawn, so the drawn card costs what it should), with one more option, *stop*, at each
   point when the game did not end ``completed``;
2. raw codes (a game with findings, or one the compact form cannot say exactly): the log's
   canonical JSON without names, times, chat and meta, zstd-compressed.

Names, times, chat and meta are never in a compact or raw code; names travel in the link's
``players`` parameter, as for every game. ``docs/code-format.md`` section 11 is the specification.

>>> game = next(get(name) for name in names() if get(name).code_marker == "u")
>>> log = game.selfplay(seed=5)
>>> code = encode_game(log)
>>> again = decode_game(code)
>>> code[0], again.format == log.format, len(again.events) == len(log.events)
('e', True, True)
>>> decode_game(encode_game_v1(log)).canonical_json() == again.canonical_json()
True
"""

from __future__ import annotations

import json
from functools import lru_cache
from math import log2
from typing import Any

import zstandard

from ..games import game_for_format, get, names
from ..log import LogFormatError
from .errors import CodeError
from .intcode import ALPHABET, CHAR_VALUE, DigitReader, DigitWriter, from_base62

#: A code has at least this many characters after its marker (shorter text is refused).
MIN_BODY = 12
MAX_CODE_LENGTH = 16000
DAMAGED = "the code is damaged (a character mistyped, lost, added or swapped?)"
MAX_RAW_BYTES = 1 << 20

#: The markers a game may take (``GAME.code_marker``): lower-case letters whose upper case no
#: code of sections 1-10 of ``docs/code-format.md`` starts with (those start with ``0``..``3`` or
#: ``A``..``P``).
FREE_MARKERS = "qrstuvwxyz"

#: Version 2 (written): a game's codes start with the letter 16 places before its marker
#: (``q``..``z`` -> ``a``..``j``), compact and raw codes alike.
V2_LETTERS = dict(zip(FREE_MARKERS, "abcdefghij"))
#: The checksum, in two parts. The whole code read as one base-62 number ``W`` (the marker its
#: top digit) is ``CHECK_R`` modulo the prime ``CHECK_Q``; and the body's number ``V`` is, modulo
#: ``FORM_PRIME``, the residue ``form_residues(marker, length)`` gives for the code's form. So
#: ``V`` is fixed modulo ``MODULUS`` (a damaged code passes about once in 237,871 times), which
#: costs 3 base-62 characters (``MODULUS`` < 62^3).
CHECK_Q = 1873
CHECK_R = 1
FORM_PRIME = 127
MODULUS = FORM_PRIME * CHECK_Q

#: Version 1 (read, no longer written): the markers its codes were written with (a game's
#: marker for compact codes, its upper case for raw codes), and its checksum: the whole code is
#: ``V1_REMAINDER`` modulo ``FORM_PRIME``. The set is closed: a game registered later has no
#: version 1 codes.
V1_MARKERS = "uUxXw"
V1_REMAINDER = 89
#: The other codes a damaged version 2 code could turn into, by first character, and the check
#: each reader makes of a body of ``length`` characters whose number is ``u`` (modulo 127):
#: version 1 codes (above), and the codes of sections 2 (``0``: ``u`` is 89) and 9 (``A``..``P``:
#: ``16 u + value - 10`` is 89) of ``docs/code-format.md``.
OTHER_FIRSTS = V1_MARKERS + "0" + ALPHABET[10:26]


def _other_target(first: str, length: int) -> int:
    """The body number (modulo 127) with which the reader a first character selects accepts a
    body of ``length`` characters."""
    p = FORM_PRIME
    if first in V1_MARKERS:
        return (V1_REMAINDER - CHAR_VALUE[first] * pow(62, length, p)) % p
    if first == "0":
        return V1_REMAINDER % p
    return (V1_REMAINDER - (CHAR_VALUE[first] - 10)) * pow(16, -1, p) % p


@lru_cache(maxsize=4096)
def form_residues(marker: str, length: int) -> tuple[int, int]:
    """The body number's residues modulo 127 in a version 2 code with this marker and a body of
    ``length`` characters: (compact or the game's only form, raw).

    They are the two smallest residues ``r`` with which none of these texts passes the checksum
    of the reader its first character ``c`` selects (``OTHER_FIRSTS``): the marker replaced by
    ``c``; the marker lost, the body starting with ``c``; ``c`` put before the marker; the
    marker swapped with the body's first character ``c``. Each text's body number is ``V`` plus
    a shift known from the marker, the length and ``c``, so each excludes one residue: at most
    88 of 127 are excluded.
    """
    p = FORM_PRIME
    m = CHAR_VALUE[marker]
    excluded = set()
    for c in OTHER_FIRSTS:
        v = CHAR_VALUE[c]
        top = pow(62, length - 1, p)
        for body_length, shift in ((length, 0),                        # the marker replaced by c
                                   (length - 1, -v * top),             # the marker lost, c next
                                   (length + 1, m * top * 62),         # c put before the marker
                                   (length, (m - v) * top)):           # the marker and c swapped
            excluded.add((_other_target(c, body_length) - shift) % p)
    allowed = [r for r in range(p) if r not in excluded]
    return allowed[0], allowed[1]


def markers() -> dict[str, tuple[str, int, bool]]:
    """Marker character -> (game name, version, raw form), for every registered game with a
    generic code: its version 2 letter (the form is in the checksum: ``raw`` False here); its
    version 1 marker (compact) and that marker's upper case (raw), if version 1 wrote them."""
    out = {}
    for name in names():
        marker = get(name).code_marker
        if marker:
            if marker not in FREE_MARKERS:
                raise ValueError(f"{name}: code marker {marker!r} is not one of {FREE_MARKERS}")
            out[V2_LETTERS[marker]] = (name, 2, False)
            for first, raw in ((marker, False), (marker.upper(), True)):
                if first in V1_MARKERS:
                    out[first] = (name, 1, raw)
    return out


def is_generic_code(code: str) -> bool:
    """Whether a bare code starts with a game's generic marker (``GAME.code_marker``)."""
    return bool(code) and code[0] in markers()


def _forms(game_name: str) -> int:
    """How many forms a game's codes take: 2 (compact and raw), or 1 (its own payload)."""
    return 1 if get(game_name).payload_codec is not None else 2


# --- the text layer --------------------------------------------------------------------------

def _base62(value: int) -> str:
    out = []
    while value:
        value, digit = divmod(value, 62)
        out.append(ALPHABET[digit])
    return "".join(reversed(out)) or "0"


def _offset(marker: str, length: int, raw: bool) -> int:
    """The body number modulo ``MODULUS`` (0 <= offset < MODULUS): ``CHECK_R - value(marker) *
    62^length`` modulo ``CHECK_Q``, and the form's residue modulo 127 (Chinese remainders)."""
    q, p = CHECK_Q, FORM_PRIME
    mod_q = (CHECK_R - CHAR_VALUE[marker] * pow(62, length, q)) % q
    mod_p = form_residues(marker, length)[raw]
    return mod_q + q * ((mod_p - mod_q) * pow(q, -1, p) % p)


def _body_length(payload: int) -> int:
    """A version 2 body's length: what ``MODULUS * payload + MODULUS - 1`` needs, at least ``MIN_BODY``."""
    return max(MIN_BODY, len(_base62(payload * MODULUS + MODULUS - 1)))


def to_text(marker: str, payload: int, raw: bool = False) -> str:
    """The version 2 code of a payload: the marker, then ``MODULUS * payload + offset`` in base
    62, padded with ``0`` to the length the payload needs (``_body_length``)."""
    length = _body_length(payload)
    return marker + _base62(payload * MODULUS + _offset(marker, length, raw)).rjust(length, "0")


def _v1_body_length(payload: int) -> int:
    return max(MIN_BODY, len(_base62(payload * FORM_PRIME + FORM_PRIME - 1)))


def _v1_remainder(marker: str, length: int) -> int:
    """What a version 1 body must be modulo 127 for the whole code to be 89 modulo 127."""
    return (V1_REMAINDER - CHAR_VALUE[marker] * pow(62, length, FORM_PRIME)) % FORM_PRIME


def v1_text(marker: str, payload: int) -> str:
    """The version 1 code of a payload, as earlier releases wrote it (kept for tests and tools)."""
    length = _v1_body_length(payload)
    return marker + _base62(payload * FORM_PRIME + _v1_remainder(marker, length)).rjust(length, "0")


def _body_value(code: str) -> int:
    """The number of a code's body (its characters after the first), or ``CodeError`` naming
    the first character that is not a code character."""
    body = code[1:]
    if not (body.isascii() and body.isalnum()):
        for place, ch in enumerate(body, start=2):
            if ch not in CHAR_VALUE:
                raise CodeError(f"{ch!r} (character {place}) is not a code character (0-9, A-Z, a-z)")
    return from_base62(body)


def from_text(code: str) -> tuple[str, bool, int]:
    """(game name, raw form, payload) of a code whose characters, length and checksum are right."""
    if len(code) > MAX_CODE_LENGTH:
        raise CodeError(f"that text is {len(code)} characters long; codes are at most {MAX_CODE_LENGTH}")
    found = markers().get(code[:1])
    if found is None:
        raise CodeError(f"{code[:1]!r} does not start a replay code")
    game, version, raw = found
    marker, length = code[0], len(code) - 1
    if length < MIN_BODY:
        raise CodeError(f"{DAMAGED}: too short (a {game} code has at least {MIN_BODY + 1} characters, "
                        f"this one {len(code)})")
    value = _body_value(code)
    if version == 1:
        if (CHAR_VALUE[marker] * pow(62, length, FORM_PRIME) + value) % FORM_PRIME != V1_REMAINDER:
            raise CodeError(f"checksum mismatch: {DAMAGED}")
        payload = (value - _v1_remainder(marker, length)) // FORM_PRIME
        fits = _v1_body_length(payload) == length
    else:
        if (CHAR_VALUE[marker] * pow(62, length, CHECK_Q) + value) % CHECK_Q != CHECK_R:
            raise CodeError(f"checksum mismatch: {DAMAGED}")
        residues = form_residues(marker, length)[:_forms(game)]
        if value % FORM_PRIME not in residues:
            raise CodeError(f"checksum mismatch: {DAMAGED}")
        raw = residues.index(value % FORM_PRIME) == 1
        payload = (value - _offset(marker, length, raw)) // MODULUS
        fits = _body_length(payload) == length
    if not fits:
        raise CodeError(f"{DAMAGED}: its length does not fit what it holds")
    return game, raw, payload


def is_raw(code: str) -> bool:
    """Whether a generic code is in the raw form (a game with findings, or one the compact form
    cannot say), told by its marker (version 1) or its checksum residue (version 2), without
    decoding the game. False for anything that is not a generic code's shape."""
    found = markers().get(code[:1])
    if found is None or len(code) - 1 < MIN_BODY or any(ch not in CHAR_VALUE for ch in code[1:]):
        return False
    game, version, raw = found
    if version == 1:
        return raw
    if _forms(game) < 2:
        return False
    residue = 0
    for ch in code[1:]:
        residue = (residue * 62 + CHAR_VALUE[ch]) % FORM_PRIME
    return residue == form_residues(code[0], len(code) - 1)[1]


# --- the payload -----------------------------------------------------------------------------

#: event types a code leaves out (it never carries chat)
DROPPED = frozenset(("chat",))


def _action_key(event: Any) -> tuple:
    """What identifies a move: its fields as the engine reads them (cards as values), but the
    time; lists taken as multisets. Cheap: no serialisation."""
    return tuple(sorted((k, tuple(sorted(v)) if isinstance(v, list) else v)
                        for k, v in vars(event).items() if k != "t" and v is not None))


def _is_action(game, event) -> bool:
    return event.type in game.action_events


def _compact_payload(game, log, replay=None) -> int | None:
    """The compact form's integer, or None when the compact form cannot say the game exactly.
    ``replay`` is the judged game when the caller has it (it is judged here otherwise)."""
    if replay is None:
        replay = game.judge(log)
    if replay.findings or not replay.checked:
        return None
    end = log.end
    reasons = tuple(game.end_reasons)
    end_digit = 0
    if end is not None:
        extra = set(end.model_dump(exclude_none=True)) - {"reason", "t", "winner"}
        if extra:
            return None
        end_digit = reasons.index(end.reason) + 1
        if end.winner is not None:
            if end.reason != "completed":
                return None
            end_digit = len(reasons) + 1
    stoppable = end is None or end.reason != "completed"
    w = DigitWriter()
    w.put(end_digit, len(reasons) + 2)
    try:
        game.setup_codec.write(w, log)
    except ValueError:  # a setup the compact form cannot say: the raw form keeps it
        return None
    state, _ = game.start(log)
    for index, event in enumerate(log.events):
        if not _is_action(game, event):
            if event.type in DROPPED:
                continue
            return None  # an event a compact code cannot say (a player leaving, a host's count...)
        options = game.legal_events(state)
        keys = [_action_key(o) for o in options]
        try:
            digit = keys.index(_action_key(event))
        except ValueError:
            return None
        w.put(digit, len(options) + stoppable)
        if state.push(event, index):
            return None
    if game.finish(state):
        return None
    if stoppable and not state.over and game.legal_events(state):
        options = game.legal_events(state)
        w.put(len(options), len(options) + 1)
    return w.value()


def _raw_object(log) -> dict[str, Any]:
    data = log.to_json_dict()
    for key in ("players", "game_id", "started_at", "meta"):
        data.pop(key, None)
    data["events"] = [{k: v for k, v in e.items() if k != "t"} for e in data["events"] if e.get("type") != "chat"]
    if isinstance(data.get("end"), dict):
        data["end"].pop("t", None)
    for key in [k for k in data if k not in ("format", "events", "end")]:
        if key.startswith("_"):
            data.pop(key)
    return data


def _payload(log) -> tuple[str, bool, int]:
    """(the game's marker, raw form, payload) of a game's log or judged replay."""
    replay = log if hasattr(log, "findings") else None
    log = getattr(log, "log", log)
    game = game_for_format(log.format)
    marker = game.code_marker
    if not marker:
        raise CodeError(f"{game.title} games have no replay code")
    tuned = game.payload_codec
    if tuned is not None:
        return marker, False, tuned.payload(log)
    payload = _compact_payload(game, log, replay)
    if payload is None:
        text = json.dumps(_raw_object(log), ensure_ascii=False, separators=(",", ":")).encode()
        packed = zstandard.ZstdCompressor(level=19).compress(text)
        return marker, True, int.from_bytes(b"\x01" + packed, "big")
    return marker, False, payload


def encode_game(log) -> str:
    """The generic code (version 2) of a game (a log or a judged replay)."""
    marker, raw, payload = _payload(log)
    return to_text(V2_LETTERS[marker], payload, raw)


def encode_game_v1(log) -> str:
    """The version 1 code of a game, as earlier releases wrote it (kept for tests and tools:
    ``tests/codec/make_generic_v1_codes.py``)."""
    marker, raw, payload = _payload(log)
    return v1_text(marker.upper() if raw else marker, payload)


def decode_game(code: str):
    """The log in a game's code (``CodeError`` for anything else)."""
    name, raw_form, payload = from_text(code)
    game = get(name)
    tuned = game.payload_codec
    try:
        if tuned is not None:
            return game.parse(tuned.from_payload(payload), "code")
        if raw_form:
            raw = payload.to_bytes((payload.bit_length() + 7) // 8, "big")
            if raw[:1] != b"\x01":
                raise CodeError(f"{DAMAGED}: its raw game is not there")
            try:
                text = zstandard.ZstdDecompressor().decompress(raw[1:], max_output_size=MAX_RAW_BYTES)
                data = json.loads(text)
            except (zstandard.ZstdError, UnicodeDecodeError, json.JSONDecodeError) as exc:
                raise CodeError(f"{DAMAGED}: its raw game does not read ({exc})") from None
            if not isinstance(data, dict) or data.get("format", "").partition("/")[0] != name:
                raise CodeError(f"{DAMAGED}: its raw game is not a {game.title} log")
            return game.parse(data, "code")
        return _decode_compact(game, payload)
    except LogFormatError as exc:
        raise CodeError(f"{DAMAGED}: the game in it does not read ({exc})") from None


def _decode_compact(game, payload: int):
    r = DigitReader(payload)
    reasons = tuple(game.end_reasons)
    end_digit = r.get(len(reasons) + 2)
    winner_given = end_digit == len(reasons) + 1
    if winner_given:
        end_digit = reasons.index("completed") + 1
    setup = game.setup_codec.read(r)
    data: dict[str, Any] = {"format": f"{game.name}/{game.major}", **setup, "events": []}
    log = game.parse(data, "code")
    state, findings = game.start(log)
    if findings:
        raise CodeError(f"{DAMAGED}: its setup breaks the rules")
    stoppable = end_digit != reasons.index("completed") + 1 if "completed" in reasons else True
    events = []
    for index in range(100_000):
        if state.over:
            break
        options = game.legal_events(state)
        if not options:
            break
        digit = r.get(len(options) + stoppable)
        if digit == len(options):
            break
        event = options[digit]
        events.append(event.model_dump(mode="json", exclude_none=True))
        state.push(event, index)
    if r.value:
        raise CodeError(f"{DAMAGED}: it holds more than one game")
    data["events"] = events
    if end_digit:
        end: dict[str, Any] = {"reason": reasons[end_digit - 1]}
        if winner_given:
            replay = game.judge(game.parse(dict(data, end=end), "code"))
            if not replay.winners:
                raise CodeError(f"{DAMAGED}: it names a winner the game does not have")
            end["winner"] = replay.winners[0]
        data["end"] = end
    return game.parse(data, "code")


# --- figures ---------------------------------------------------------------------------------

def information_bits(log) -> float:
    """The sum of log2 of each choice's option count: the setup, then every action (a draw's
    options are the cards that can be drawn). What any code of the game must spend at least
    if every option were equally likely; the compact form spends this plus its end digits."""
    game = game_for_format(log.format)
    bits = game.setup_codec.bits(log)
    state, _ = game.start(log)
    for index, event in enumerate(log.events):
        if not _is_action(game, event):
            if event.type in DROPPED:
                continue
            return None  # an event a compact code cannot say (a player leaving, a host's count...)
        options = game.legal_events(state)
        bits += log2(len(options)) if options else 0.0
        state.push(event, index)
    return bits
