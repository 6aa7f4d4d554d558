"""The registry of games, keyed by name and by the log's ``format``.

Adding a game is one line in ``_BUILTIN`` and a package under ``replay/games/<name>/`` that
defines ``GAME`` (a ``replay.games.base.GameModule``). Packages are imported on first use,
so reading a bridge log never imports UNO.

>>> [g for g in names()]
['floating-bridge', 'uno-lite', 'coup', 'party-cards']
>>> game_for_format("uno-lite/1").title
'UNO Lite'
"""

from __future__ import annotations

import importlib
from typing import Any

#: name -> the package that defines ``GAME``. One line per game.
_BUILTIN: dict[str, str] = {
    "floating-bridge": "replay.games.floating_bridge",
    "uno-lite": "replay.games.uno_lite",
    "coup": "replay.games.coup",
    "party-cards": "replay.games.party_cards",
}

_loaded: dict[str, Any] = {}


class UnknownGameError(LookupError):
    """A game name or log format that no registered game has."""


def names() -> list[str]:
    """Every registered game's name, in registry order."""
    return list(_BUILTIN)


def get(name: str) -> Any:
    """The game module registered under ``name`` (``"uno-lite"``)."""
    game = _loaded.get(name)
    if game is None:
        try:
            package = _BUILTIN[name]
        except KeyError:
            raise UnknownGameError(
                f"{name!r} is not a known game (known: {', '.join(_BUILTIN)})") from None
        game = importlib.import_module(package).GAME
        _loaded[name] = game
    return game


def game_for_format(fmt: str) -> Any:
    """The game whose log format is ``fmt`` (``"uno-lite/1"``)."""
    name, _, major = fmt.partition("/") if isinstance(fmt, str) else ("", "", "")
    if name not in _BUILTIN:
        raise UnknownGameError(f"{fmt!r} is not a known format (known: {', '.join(formats())})")
    game = get(name)
    if major != str(game.major):
        raise UnknownGameError(
            f"{fmt!r} is not a known format: this release reads {name}/{game.major}, "
            f"not major version {major or '(none)'}")
    return game


def formats() -> list[str]:
    """Every log format this release reads (imports each game's package)."""
    return [f"{name}/{get(name).major}" for name in _BUILTIN]
