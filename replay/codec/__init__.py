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

from .compact import code_kind, decode_code, encode
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
    else:
        log = decode_code(code)
    chosen = dict(names) if names is not None else link_names
    if chosen:
        log = _with_names(log, chosen)
    return log


def _with_names(log: "GameLog", names: Mapping[str, str]) -> "GameLog":
    from ..log import Player

    players = {}
    for seat in ("N", "E", "S", "W"):
        name = names.get(seat)
        if name:
            players[_seat(seat)] = Player.model_construct(name=name[:200])
    return log.model_copy(update={"players": players})


def _seat(letter: str):
    from ..cards import Seat

    return Seat[letter]


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
    return not looks_legacy(code) and code_kind(code) == "fallback"


def replay_url(replay: "GameReplay | GameLog", base: str, names: bool = False) -> str:
    """``{base}/r/{code}``; with ``names=True`` also ``?players=N,E,S,W`` (each percent-encoded)."""
    from ..log import GameLog

    log = replay if isinstance(replay, GameLog) else replay.log
    url = f"{base.rstrip('/')}/r/{encode(replay)}"
    if names:
        query = format_names({seat.name: player.name for seat, player in log.players.items()
                              if player.name})
        if query:
            url += f"?{NAMES_PARAMETER}={query}"
    return url
