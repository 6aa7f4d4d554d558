"""Replay codes: a whole game in one short, URL-safe, checksummed code, and back.

>>> from replay.bots import play_game
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

from typing import TYPE_CHECKING, Mapping

from .compact import code_kind, decode_code
from .compact import encode as encode_bridge
from .generic import decode_game, encode_game, is_generic_code
from ..cards import Seat
from .errors import CodeError
from .legacy import decode_legacy, looks_legacy
from .links import NAMES_PARAMETER, format_names, parse_link

if TYPE_CHECKING:  # pragma: no cover
    from ..game import GameReplay
    from ..log import GameLog

__all__ = [
    "CodeError", "NAMES_PARAMETER", "decode", "encode", "is_fallback_code", "is_legacy_code",
    "parse_link", "replay_url",
]


def decode(text: str, names: "Mapping[str, str] | None" = None) -> "GameLog":
    """The game in a code or link (new or legacy codes).

    Bad input of any kind raises ``CodeError`` (each check says what is wrong); nothing here
    turns other exceptions into it, so a bug in the decoder surfaces as itself.

    Player names come from the link's ``players`` parameter, or from ``names`` (by seat
    letter) when given; they are never part of the code itself.
    """
    code, link_names = parse_link(text)
    if looks_legacy(code):
        log = decode_legacy(code)
    elif is_generic_code(code):
        log = decode_game(code)
    else:
        log = decode_code(code)
    chosen = dict(names) if names is not None else link_names
    if chosen:
        log = _with_names(log, chosen)
    return log


def encode(game) -> str:
    """The replay code of a game: a log or a judged replay of any registered game."""
    log = getattr(game, "log", game)
    if getattr(log, "format", None) == "floating-bridge/1":
        return encode_bridge(game)
    if not hasattr(log, "format"):
        raise TypeError(f"encode() takes a GameLog or a GameReplay (of any game), not {type(game).__name__}")
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
    players = {}
    for seat in game.seats:
        name = names.get(seat)
        if name:
            key = Seat[seat] if log.format == "floating-bridge/1" else seat
            players[key] = Player.model_construct(name=name[:200])
    return log.model_copy(update={"players": players})


def is_legacy_code(text: str) -> bool:
    """Whether a code (or a link or ``#code``) is an original BridgeBot code (by its shape)."""
    try:
        code, _ = parse_link(text)
    except CodeError:
        return False
    return looks_legacy(code)


def is_fallback_code(text: str) -> bool:
    """Whether a code (or link) holds a game with findings (the flagged fallback form).

    The code's last two characters say so (a version 1 code's first letter: ``C``, ``G``, ``K``
    or ``O``), so this needs no decoding.
    """
    try:
        code, _ = parse_link(text)
    except CodeError:
        return False
    if is_generic_code(code):  # another game's raw form: its marker in upper case
        return code[0].isupper()
    return not looks_legacy(code) and code_kind(code) == "fallback"


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
