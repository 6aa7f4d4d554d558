"""Replay codes for every game other than floating bridge: the game's marker, then its moves.

A game's code is one integer, written in base 62 after the game's marker character
(``GAME.code_marker``: ``u`` for UNO Lite), with the same checksum as floating bridge's
version 2 codes: the whole code, read as one base-62 number, is ``89`` modulo ``127``. The
integer holds, least significant digit first:

1. compact codes (marker in lower case): how the game ended (``0`` no ``end`` object,
   ``i + 1`` the game's ``i``-th end reason, and one more value for ``completed`` with the
   ``end.winner`` the bot announced); the game's setup (``GAME.setup_codec``); then
   every action as its index among ``GAME.legal_events(state)`` at that point (a draw is one
   of those events per card that can be drawn, so the drawn card costs what it should), with
   one more option, *stop*, at each point when the game did not end ``completed``;
2. raw codes (the marker in upper case: a game with findings, or one the compact form cannot
   say exactly): the log's canonical JSON without names, times, chat and meta,
   zstd-compressed.

Names, times, chat and meta are never in a code; names travel in the link's ``players``
parameter, as for bridge. ``docs/code-format.md`` section 11 is the specification.

>>> from replay.games import get
>>> uno = get("uno-lite")
>>> log = uno.selfplay(seed=5, bots=("greedy", "random"))
>>> code = encode_game(log)
>>> again = decode_game(code)
>>> code[0], sorted(again.hands.P1) == sorted(log.hands.P1), len(again.events) == len(log.events)
('u', True, True)
"""

from __future__ import annotations

import json
from math import log2
from typing import Any

from .errors import CodeError
from .intcode import ALPHABET, CHAR_VALUE, DigitReader, DigitWriter

CHECK_PRIME = 127
REMAINDER = 89
#: A code has at least this many characters after its marker (shorter text is refused).
MIN_BODY = 12
MAX_CODE_LENGTH = 16000
DAMAGED = "the code is damaged (a character mistyped, lost, added or swapped?)"
MAX_RAW_BYTES = 1 << 20


#: The markers a game may take: lower-case letters whose upper case no bridge code starts with
#: (version 1 codes start with A..P, version 2 with 0, BridgeBot's with 0..3).
FREE_MARKERS = "qrstuvwxyz"


def markers() -> dict[str, tuple[str, bool]]:
    """Marker character -> (game name, raw form), for every registered game with a generic
    code: the game's lower-case marker for compact codes, its upper case for raw ones."""
    from ..games import get, names

    out = {}
    for name in names():
        marker = getattr(get(name), "code_marker", None)
        if marker:
            if marker not in FREE_MARKERS:
                raise ValueError(f"{name}: code marker {marker!r} is not one of {FREE_MARKERS}")
            out[marker] = (name, False)
            out[marker.upper()] = (name, True)
    return out


def is_generic_code(code: str) -> bool:
    """Whether a bare code starts with another game's marker (not floating bridge's)."""
    return bool(code) and code[0] in markers()


# --- the text layer --------------------------------------------------------------------------

def _base62(value: int) -> str:
    out = []
    while value:
        value, digit = divmod(value, 62)
        out.append(ALPHABET[digit])
    return "".join(reversed(out)) or "0"


def _body_length(payload: int) -> int:
    return max(MIN_BODY, len(_base62(payload * CHECK_PRIME + CHECK_PRIME - 1)))


def _remainder(marker: str, length: int) -> int:
    """What the body must be modulo 127 for the whole code to be 89 modulo 127."""
    return (REMAINDER - CHAR_VALUE[marker] * pow(62, length, CHECK_PRIME)) % CHECK_PRIME


def to_text(marker: str, payload: int) -> str:
    length = _body_length(payload)
    body = _base62(payload * CHECK_PRIME + _remainder(marker, length)).rjust(length, "0")
    return marker + body


def from_text(code: str) -> tuple[str, bool, int]:
    """(game name, raw form, payload) of a code whose characters, length and checksum are right."""
    if len(code) > MAX_CODE_LENGTH:
        raise CodeError(f"that text is {len(code)} characters long; codes are at most {MAX_CODE_LENGTH}")
    found = markers().get(code[:1])
    if found is None:
        raise CodeError(f"{code[:1]!r} does not start a replay code")
    game, raw = found
    body = code[1:]
    if len(body) < MIN_BODY:
        raise CodeError(f"{DAMAGED}: too short (a {game} code has at least {MIN_BODY + 1} characters, "
                        f"this one {len(code)})")
    value = 0
    for place, ch in enumerate(body, start=2):
        digit = CHAR_VALUE.get(ch)
        if digit is None:
            raise CodeError(f"{ch!r} (character {place}) is not a code character (0-9, A-Z, a-z)")
        value = value * 62 + digit
    whole = CHAR_VALUE[code[0]] * pow(62, len(body), CHECK_PRIME) + value
    if whole % CHECK_PRIME != REMAINDER:
        raise CodeError(f"checksum mismatch: {DAMAGED}")
    payload = (value - _remainder(code[0], len(body))) // CHECK_PRIME
    if _body_length(payload) != len(body):
        raise CodeError(f"{DAMAGED}: its length does not fit what it holds")
    return game, raw, payload


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
        if getattr(end, "winner", None) is not None:
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
    if hasattr(state, "finish") and state.finish():
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


def encode_game(log) -> str:
    """The code of a game that is not floating bridge (a log or a judged replay)."""
    import zstandard

    from ..games import game_for_format

    replay = log if hasattr(log, "findings") else None
    log = getattr(log, "log", log)
    game = game_for_format(log.format)
    marker = getattr(game, "code_marker", None)
    if not marker:
        raise CodeError(f"{game.title} games have no replay code")
    tuned = getattr(game, "payload_codec", None)
    if tuned is not None:
        return to_text(marker, tuned.payload(log))
    payload = _compact_payload(game, log, replay)
    if payload is None:
        text = json.dumps(_raw_object(log), ensure_ascii=False, separators=(",", ":")).encode()
        packed = zstandard.ZstdCompressor(level=19).compress(text)
        return to_text(marker.upper(), int.from_bytes(b"\x01" + packed, "big"))
    return to_text(marker, payload)


def decode_game(code: str):
    """The log in a game's code (``CodeError`` for anything else)."""
    import zstandard

    from ..games import get
    from ..log import LogFormatError

    name, raw_form, payload = from_text(code)
    game = get(name)
    tuned = getattr(game, "payload_codec", None)
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
    from ..games import game_for_format

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
