"""Floating bridge's own replay codes (``GAME.text_codec``): the tuned codec and BridgeBot's.

- ``compact``: version 2 codes (marker ``0``), and version 1 codes (``A``..``P``) of earlier
  releases, read; ``docs/code-format.md`` is their specification.
- ``legacy``: the original BridgeBot's codes (``https://host/#<code>``), read only.
- ``measure``: the information bound of a game, and the length of its BridgeBot code.

The game-neutral ``replay.codec`` reaches this through the registry: a bare code that no
other game's marker starts is handed to :func:`decode`.

>>> from replay.games.floating_bridge.bots import play_game
>>> log = play_game(seed=3)
>>> decode(encode(log)).hands == log.hands
True
"""

from __future__ import annotations

from typing import Any

from .compact import code_kind, decode_code
from .compact import encode as encode
from .legacy import decode_legacy, looks_legacy

__all__ = ["claims", "decode", "encode", "is_fallback", "is_legacy"]


def claims(code: str) -> bool:
    """Whether a bare code has the shape of a bridge code: version 2 or 1, or BridgeBot's."""
    return looks_legacy(code) or code_kind(code) is not None


def decode(code: str) -> Any:
    """The ``GameLog`` of a bare code (new, earlier or BridgeBot's); raises ``CodeError``."""
    if looks_legacy(code):
        return decode_legacy(code)
    return decode_code(code)


def is_legacy(code: str) -> bool:
    """Whether a bare code is an original BridgeBot code (by its shape)."""
    return looks_legacy(code)


def is_fallback(code: str) -> bool:
    """Whether a bare code holds a game with findings (the flagged fallback form), without decoding it."""
    return not looks_legacy(code) and code_kind(code) == "fallback"
