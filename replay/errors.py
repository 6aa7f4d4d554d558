"""The base class of every error a user of the library can cause, in every game.

Each game's own errors (``CardParseError``, ``LogFormatError``, ``CodeError``...) derive from
it, so the CLI and the web print any of them as a message, never as a traceback.
"""

from __future__ import annotations


class ReplayError(Exception):
    """Base class of every error a user of the library can cause."""
