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

from typing import Any, Mapping

from .errors import CodeError
from .generic import decode_game, encode_game, is_generic_code, is_raw
from .links import NAMES_PARAMETER, format_names, parse_link

__all__ = [
    "CodeError", "NAMES_PARAMETER", "decode", "encode", "is_fallback_code", "is_legacy_code",
    "parse_link", "replay_url",
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


def decode(text: str, names: "Mapping[str, str] | None" = None) -> Any:
    """The game in a code or link (new or legacy codes), as its game's log model.

    Bad input of any kind raises ``CodeError`` (each check says what is wrong); nothing here
    turns other exceptions into it, so a bug in the decoder surfaces as itself.

    Player names come from the link's ``players`` parameter, or from ``names`` (by seat
    letter) when given; they are never part of the code itself.
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
    chosen = dict(names) if names is not None else link_names
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


def _with_names(log, names: Mapping[str, str]):
    """The log with these player names. Names keyed by the game's own seats are used as they
    are; names from a link are positional (``players=`` lists them in the game's seat order,
    read under the letters N, E, S, W)."""
    from ..games import game_for_format
    from ..log import Player
    from .links import SEAT_LETTERS

    game = game_for_format(log.format)
    if not any(seat in names for seat in game.seats):
        names = {seat: names.get(letter) for seat, letter in zip(game.seats, SEAT_LETTERS)}
    seat_key = getattr(game, "seat_key", None)  # how the game's log keys its players (bridge: Seat)
    players = {}
    for seat in game.seats:
        name = names.get(seat)
        if name:
            players[seat_key(seat) if seat_key else seat] = Player.model_construct(name=name[:200])
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
    """``{base}/r/{code}``; with ``names=True`` also ``?players=...`` in the game's seat order
    (each name percent-encoded)."""
    from ..games import game_for_format

    log = getattr(replay, "log", replay)
    url = f"{base.rstrip('/')}/r/{encode(replay)}"
    if names:
        seats = game_for_format(log.format).seats
        query = format_names({getattr(seat, "name", seat): player.name for seat, player in log.players.items()
                              if player.name}, seats)
        if query:
            url += f"?{NAMES_PARAMETER}={query}"
    return url
