"""Replay codes: a whole game in one short, URL-safe, checksummed code, and back.

>>> log = get(names()[0]).selfplay(seed=3)
>>> code = encode(log)
>>> again = decode(code)
>>> encode(again) == code, again.replay().winners == log.replay().winners
(True, True)
>>> replay_url(log.replay(), "https://replays.example/") == "https://replays.example/r/" + code
True

- ``encode(game)``: the code (version 2) of a game's log or judged replay (``docs/code-format.md``).
- ``decode(text)``: a game's log from a bare code, ``#code``, or any link holding one
  (``https://host/r/<code>?players=...``, the legacy viewer's ``https://host/#<code>``), new or
  legacy. Raises only ``CodeError``.
- ``replay_url(replay, base, names=False)``: ``{base}/r/{code}``, with the players' names in
  the ``players`` query parameter when asked.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..games import game_for_format, get, names
from ..games.base import seat_text
from ..log import Player
from .errors import CodeError
from .generic import decode_game, encode_game, is_generic_code, is_raw
from .links import NAMES_PARAMETER, NamesError, clean_name, format_names, names_by_seat, parse_link

__all__ = [
    "CodeError", "NAMES_PARAMETER", "NamesError", "decode", "encode", "is_fallback_code", "is_legacy_code",
    "parse_link", "replay_url", "seat_order",
]

_TEXT_CODECS: "list[Any] | None" = None


def _text_codecs() -> list[Any]:
    """The tuned codecs of the games that write codes of their own shape (``GAME.text_codec``,
    which may also read a game's earlier codes), in registry order."""
    global _TEXT_CODECS
    if _TEXT_CODECS is None:
        _TEXT_CODECS = [codec for codec in (get(name).text_codec for name in names()) if codec is not None]
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
    log = getattr(game, "log", game)
    fmt = getattr(log, "format", None)
    if fmt is None:
        raise TypeError(f"encode() takes a game's log or judged replay (of any game), not {type(game).__name__}")
    codec = game_for_format(fmt).text_codec
    if codec is not None:
        return codec.encode(game)
    return encode_game(game)


def seat_order(log: Any) -> tuple[str, ...]:
    """A log's seats in table order, as text: the log's own where a game's tables vary
    (``GAME.log_seats``), else its game's. Link names are positional in it."""
    return tuple(game_for_format(log.format).seat_order(log))


def _with_names(log, names: "Mapping[str, str] | Sequence[str]"):
    """The log with these player names: a mapping by the log's own seats, or names in seat
    order (a link's), keeping what the log knew of each player. Where the log lists its own
    seats (``players`` is then its seat list, so it names every seat or none)
    every seat keeps an entry, in table order; elsewhere only named seats have one.
    ``NamesError`` for a seat the game does not have or more names than seats."""
    game = game_for_format(log.format)
    seats = tuple(game.seat_order(log))
    every_seat = bool(game.log_seats(log))
    if isinstance(names, Mapping):
        unknown = [str(seat) for seat in names if seat not in seats]
        if unknown:
            raise NamesError(f"this game has no seat {', '.join(unknown)} (its seats: {', '.join(seats)})")
        by_seat = {seat: clean_name(names.get(seat) or "") for seat in seats}
    else:
        by_seat = names_by_seat(seats, names)
    players = {}
    for seat in seats:
        key = game.seat_key(seat)  # how the log keys its players
        known = log.players.get(key)
        name = by_seat.get(seat)
        if name:
            players[key] = known.model_copy(update={"name": name}) if known is not None else Player(name=name)
        elif known is not None or every_seat:
            players[key] = known if known is not None else Player()
    return log.model_copy(update={"players": players})


def is_legacy_code(text: str) -> bool:
    """Whether a code (or a link or ``#code``) is a game's earlier code that its text codec still
    reads (by its shape: ``is_legacy``)."""
    try:
        code, _ = parse_link(text)
    except CodeError:
        return False
    return any(codec.is_legacy(code) for codec in _text_codecs())


def is_fallback_code(text: str) -> bool:
    """Whether a code (or link) holds a game with findings (the flagged fallback form).

    The code's shape says so (for a game's text codec, its ``is_fallback``; for a generic code,
    its version 1 marker in upper case, or the residue of its version 2 checksum), so this needs
    no decoding.
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
    return {seat_text(seat): player.name for seat, player in log.players.items() if player.name}
