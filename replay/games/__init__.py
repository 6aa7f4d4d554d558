"""The registry of games, keyed by name and by the log's ``format``.

Games are plugins, found as pytest and datasette find theirs: through the ``game_replay.games``
entry-point group. Each entry point is named after the game and points at the object the game
registers, a ``replay.games.base.GameModule`` (``dice-poker = "dice_poker:GAME"``), so a game from another
pip package needs no edit here::

    [project.entry-points."game_replay.games"]
    dice-poker = "dice_poker:GAME"

The four built-in games register the same way in this project's ``pyproject.toml``; the
registry also keeps them in ``BUILTIN`` so that a checkout that is not pip-installed (or whose
installed metadata predates an entry point) still has them. The order is the built-in games in
``BUILTIN`` order, then the plugins by name.

A built-in game's package is imported on first use, so reading a bridge log never imports UNO.
A plugin's object is loaded the first time the registry is listed (``names()``), as pytest
loads its plugins, so a broken plugin is reported once, by its entry point, and left out:
it never breaks the built-in games.

>>> names()[:4]
['floating-bridge', 'uno-lite', 'coup', 'party-cards']
>>> game_for_format("uno-lite/1").title
'UNO Lite'
>>> get("chess")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
replay.games.UnknownGameError: 'chess' is not a known game (known: floating-bridge, uno-lite, coup, party-cards...)
"""

from __future__ import annotations

import importlib
import warnings
from dataclasses import dataclass
from importlib import metadata

from .base import GameModule

#: The entry-point group a game registers in.
GROUP = "game_replay.games"

#: The built-in games: name -> the object the game registers (``module:attribute``), as
#: ``pyproject.toml`` declares them in ``GROUP``. Kept here too, so a checkout that is not
#: pip-installed still has them.
BUILTIN: dict[str, str] = {
    "floating-bridge": "replay.games.floating_bridge:GAME",
    "uno-lite": "replay.games.uno_lite:GAME",
    "coup": "replay.games.coup:GAME",
    "party-cards": "replay.games.party_cards:GAME",
    "holdem": "replay.games.holdem:GAME",
}


class UnknownGameError(LookupError):
    """A game name or log format that no registered game has."""


class GamePluginError(UnknownGameError):
    """A game registered through an entry point that cannot be used (its module does not
    import, it has no such object, the object is not a ``GameModule``, or its name clashes)."""


class GamePluginWarning(UserWarning):
    """A broken game plugin was left out of the registry (the message names its entry point)."""


@dataclass(frozen=True)
class Registration:
    """One game's registration, known before its package is imported."""

    name: str
    target: str  # "package.module:ATTRIBUTE"
    origin: str  # "built-in", or the entry point and its distribution

    def describe(self) -> str:
        return f"entry point {self.name} = {self.target!r} ({self.origin})"


_registered: dict[str, Registration] | None = None  # name -> registration, in registry order
_loaded: dict[str, GameModule] = {}
_broken: dict[str, str] = {}  # name -> why its plugin cannot be used
_problems: list[str] = []  # every entry point left out, and why


def _entry_points() -> list[metadata.EntryPoint]:
    return list(metadata.entry_points(group=GROUP))


def _distribution(entry: metadata.EntryPoint) -> str:
    dist = entry.dist
    return f"distribution {dist.name} {dist.version}" if dist is not None else "no distribution"


def _warn(message: str) -> None:
    _problems.append(message)
    warnings.warn(GamePluginWarning(message), stacklevel=4)


def _discover() -> dict[str, Registration]:
    """The built-in games, then every entry point of ``GROUP`` that is not one of them (by name)."""
    found = {name: Registration(name, target, "built-in") for name, target in BUILTIN.items()}
    plugins: dict[str, Registration] = {}
    for entry in sorted(_entry_points(), key=lambda e: (e.name, e.value)):
        reg = Registration(entry.name, entry.value.replace(" ", ""), f"{_distribution(entry)}")
        if entry.name in BUILTIN:
            if reg.target != BUILTIN[entry.name]:  # else the same registration, seen through the metadata
                _warn(f"game plugin left out: {reg.describe()}: {entry.name!r} is a built-in game's name")
            continue
        known = plugins.get(entry.name)
        if known is not None:
            if known.target != reg.target:
                _warn(f"game plugin left out: {reg.describe()}: {known.describe()} registers {entry.name!r} already")
            continue
        plugins[entry.name] = reg
    found.update(plugins)
    return found


def _registrations() -> dict[str, Registration]:
    global _registered
    if _registered is None:
        _registered = _discover()
        for name, reg in list(_registered.items()):
            if reg.origin != "built-in":
                try:
                    _load(reg)
                except GamePluginError as exc:
                    _warn(str(exc))
    return _registered


def _load(reg: Registration) -> GameModule:
    """Import a registration's module and check its object (``GamePluginError`` otherwise)."""
    game = _loaded.get(reg.name)
    if game is not None:
        return game
    if reg.name in _broken:
        raise GamePluginError(_broken[reg.name])
    module_name, _, attribute = reg.target.partition(":")
    if reg.origin == "built-in":
        module = importlib.import_module(module_name)  # a failure here is our bug: let it show
    else:
        try:
            module = importlib.import_module(module_name)
        except Exception as exc:  # a third party's module may fail any way: reported, never hidden
            return _refuse(reg, f"its module does not import ({type(exc).__name__}: {exc})")
    try:
        game = vars(module)[attribute or "GAME"]
    except KeyError:
        return _refuse(reg, f"module {module_name} defines no {attribute or 'GAME'}")
    if not isinstance(game, GameModule):
        return _refuse(reg, f"{reg.target} is a {type(game).__name__}, not a replay.games.base.GameModule")
    try:
        name = game.name
    except AttributeError:
        return _refuse(reg, f"{reg.target} declares no name")
    if name != reg.name:
        clash = " (a built-in game's name)" if name in BUILTIN else ""
        return _refuse(reg, f"the game it gives is named {name!r}{clash}, not {reg.name!r}")
    _loaded[reg.name] = game
    return game


def _refuse(reg: Registration, why: str) -> GameModule:
    _broken[reg.name] = f"game plugin left out: {reg.describe()}: {why}"
    raise GamePluginError(_broken[reg.name])


def names() -> list[str]:
    """Every usable game's name: the built-in games in order, then the plugins by name."""
    return [name for name in _registrations() if name not in _broken]


def get(name: str) -> GameModule:
    """The game registered under ``name`` (``"uno-lite"``), its package imported on first use.

    ``GamePluginError`` (an ``UnknownGameError``) for a plugin that cannot be used, naming its
    entry point and why."""
    game = _loaded.get(name)
    if game is not None:
        return game
    reg = _registrations().get(name)
    if reg is None:
        raise UnknownGameError(f"{name!r} is not a known game (known: {', '.join(names())})")
    return _load(reg)


def game_for_format(fmt: str) -> GameModule:
    """The game whose log format is ``fmt`` (``"uno-lite/1"``)."""
    name, _, major = fmt.partition("/") if isinstance(fmt, str) else ("", "", "")
    game = _loaded.get(name)  # the path every log read takes: no listing
    if game is None:
        if name not in names():
            raise UnknownGameError(f"{fmt!r} is not a known format (known: {', '.join(formats())})")
        game = get(name)
    if major != str(game.major):
        raise UnknownGameError(
            f"{fmt!r} is not a known format: this release reads {name}/{game.major}, "
            f"not major version {major or '(none)'}")
    return game


def formats() -> list[str]:
    """Every log format this release reads (imports each game's package)."""
    return [f"{name}/{get(name).major}" for name in names()]


def registrations() -> list[Registration]:
    """Every usable game's registration (name, ``module:attribute``, where it comes from),
    without importing a game: what ``game-replay games`` style listings show."""
    return [reg for name, reg in _registrations().items() if name not in _broken]


def problems() -> list[str]:
    """Why each broken plugin was left out (empty when every entry point works)."""
    _registrations()
    return list(_problems)


def refresh() -> None:
    """Forget what was discovered, so that the next lookup reads the entry points again
    (after ``sys.path`` changed, in tests). Built-in games already loaded stay loaded."""
    global _registered
    _registered = None
    for name in [n for n in _loaded if n not in BUILTIN]:
        del _loaded[name]
    _broken.clear()
    _problems.clear()
