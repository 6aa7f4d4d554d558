"""Replay codes: a whole game in one short, URL-safe, checksummed code, and back.

>>> from replay.games.floating_bridge.bots import play_game
>>> log = play_game(seed=3)
>>> code = encode(log)
>>> decode(code).hands == log.hands
True
>>> replay_url(log.replay(), "https://replays.example/") == "https://replays.example/r/" + code
True

- ``encode(game)``: the code (version 2) of a ``GameLog`` or ``GameReplay`` (``docs/code-format.md``).
- ``decode(text)``: a ``GameLog`` from a bare code, ``#code``, or any link holding one
  (``https://host/r/<code>?players=...``, the legacy viewer's ``https://host/#<code>``), new or
  legacy. Raises only ``CodeError``.
- ``replay_url(replay, base, names=False)``: ``{base}/r/{code}``, with the players' names in
  the ``players`` query parameter when asked.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from .errors import CodeError
from .generic import decode_game, encode_game, is_generic_code, is_raw
from .links import NAMES_PARAMETER, NamesError, format_names, parse_link

__all__ = [
    "CodeError", "NAMES_PARAMETER", "NamesError", "decode", "encode", "is_fallback_code", "is_legacy_code",
    "parse_link", "replay_url", "seat_order",
]

_TEXT_CODECS: "list[Any] | None" = None


def _text_codecs() -> list[Any]:
    """The tuned codecs of the games that write codes of their own shape (``GAME.text_codec``:
    floating bridge's, which also reads BridgeBot's codes), in registry order."""
    global _TEXT_CODECS
    if _TEXT_CODECS is None:
        from ..games import get, names

        _TEXT_CODECS = [codec for codec in (getattr(get(name), "text_codec", None) for name in names()) if codec]
    return _TEXT_CODECS


def _codec_of(code: str) -> Any:
    """The tuned codec whose shape a bare code has, or None."""
    for codec in _text_codecs():
        if codec.claims(code):
            return codec
    return None


def decode(text: str, names: "Mapping[str, str] | Sequence[str] | None" = None) -> Any:
    """The game in a code or link (new or legacy codes), as its game's log model.

    Bad input of any kind raises ``CodeError`` (each check says what is wrong); nothing here
    turns other exceptions into it, so a bug in the decoder surfaces as itself.

    Player names come from the link's ``players`` parameter, or from ``names`` when given
    (names in the game's seat order, or a mapping by seat); they are never part of the code
    itself. Names that cannot belong to the game (more than its seats, a seat it does not
    have) raise ``NamesError``, a ``CodeError``.
    """
    code, link_names = parse_link(text)
    codec = _codec_of(code)
    if codec is not None:
        log = codec.decode(code)
    elif is_generic_code(code):
        log = decode_game(code)
    else:  # no game's shape: the first tuned codec says what is wrong with it
        codecs = _text_codecs()
        if not codecs:
            raise CodeError(f"{code[:1]!r} does not start a replay code")
        log = codecs[0].decode(code)
    chosen = names if names is not None else link_names
    if chosen:
        log = _with_names(log, chosen)
    return log


def encode(game: Any) -> str:
    """The replay code of a game: a log or a judged replay of any registered game."""
    from ..games import game_for_format

    log = getattr(game, "log", game)
    fmt = getattr(log, "format", None)
    if fmt is None:
        raise TypeError(f"encode() takes a GameLog or a GameReplay (of any game), not {type(game).__name__}")
    codec = getattr(game_for_format(fmt), "text_codec", None)
    if codec is not None:
        return codec.encode(game)
    return encode_game(game)


def seat_order(log: Any) -> tuple[str, ...]:
    """A log's seats in table order, as text: the log's own where a game's tables vary (its
    ``seat_order`` or ``seats``), else its game's. Link names are positional in it."""
    from ..games import game_for_format

    return _own_seats(log) or tuple(game_for_format(log.format).seats)


def _own_seats(log: Any) -> tuple[str, ...]:
    """The seats a log lists itself (games whose tables vary), or ``()``."""
    for attr in ("seat_order", "seats"):
        value = getattr(log, attr, None)
        if value and not callable(value):
            return tuple(getattr(s, "name", s) for s in value)
    return ()


def _with_names(log, names: "Mapping[str, str] | Sequence[str]"):
    """The log with these player names: a mapping by the log's own seats, or names in seat
    order (a link's), keeping what the log knew of each player. Where the log lists its own
    seats (``players`` is then its seat list, so it names every seat or none)
    every seat keeps an entry, in table order; elsewhere only named seats have one.
    ``NamesError`` for a seat the game does not have or more names than seats."""
    from ..games import game_for_format
    from ..log import Player
    from .links import NamesError, clean_name, names_by_seat

    seats = seat_order(log)
    every_seat = bool(_own_seats(log))
    if isinstance(names, Mapping):
        unknown = [str(seat) for seat in names if seat not in seats]
        if unknown:
            raise NamesError(f"this game has no seat {', '.join(unknown)} (its seats: {', '.join(seats)})")
        by_seat = {seat: clean_name(names.get(seat) or "") for seat in seats}
    else:
        by_seat = names_by_seat(seats, names)
    seat_key = getattr(game_for_format(log.format), "seat_key", None)  # how the log keys its players
    players = {}
    for seat in seats:
        key = seat_key(seat) if seat_key else seat
        known = log.players.get(key)
        name = by_seat.get(seat)
        if name:
            players[key] = known.model_copy(update={"name": name}) if known is not None else Player(name=name)
        elif known is not None or every_seat:
            players[key] = known if known is not None else Player()
    return log.model_copy(update={"players": players})


def is_legacy_code(text: str) -> bool:
    """Whether a code (or a link or ``#code``) is an original BridgeBot code (by its shape)."""
    try:
        code, _ = parse_link(text)
    except CodeError:
        return False
    return any(codec.is_legacy(code) for codec in _text_codecs())


def is_fallback_code(text: str) -> bool:
    """Whether a code (or link) holds a game with findings (the flagged fallback form).

    The code's shape says so (a bridge code's last two characters, or a version 1 code's first
    letter: ``C``, ``G``, ``K`` or ``O``; another game's version 1 marker in upper case, or the
    residue of its version 2 checksum), so this needs no decoding.
    """
    try:
        code, _ = parse_link(text)
    except CodeError:
        return False
    codec = _codec_of(code)
    if codec is not None:
        return codec.is_fallback(code)
    if is_generic_code(code):  # another game's raw form
        return is_raw(code)
    return False


def replay_url(replay, base: str, names: bool = False) -> str:
    """``{base}/r/{code}``; with ``names=True`` also ``?players=...``: the names in the game's
    seat order (``seat_order``: every seat of the table), each percent-encoded."""
    log = getattr(replay, "log", replay)
    url = f"{base.rstrip('/')}/r/{encode(replay)}"
    if names:
        query = format_names(names_of(log), seat_order(log))
        if query:
            url += f"?{NAMES_PARAMETER}={query}"
    return url


def names_of(log: Any) -> dict[str, str]:
    """The players' names by seat (as text), for the seats that have one."""
    return {getattr(seat, "name", str(seat)): player.name for seat, player in log.players.items() if player.name}
