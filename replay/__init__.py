"""replay: log, judge and replay games played through chat bots.

The game-neutral core: ``replay.log`` (reading any game's log), ``replay.logger``
(``GameLogger``), ``replay.codec`` (replay codes and links), ``replay.games`` (the registry:
``replay.games.get(name)``) and ``replay.cli``. Each game is a package of its own under
``replay/games/<game>/`` and is imported from there.

Names of the first game that earlier releases exported from here (``from replay import Card,
Game, GameReplay, ...``) still work, with a ``DeprecationWarning`` naming their module.
"""

from __future__ import annotations

import importlib
import warnings
from typing import Any

from .errors import ReplayError
from .log import LogEntry, LogFormatError, parse_log, read_logs, read_path
from .logger import GameLogger, save_log

__all__ = ["GameLogger", "LogEntry", "LogFormatError", "ReplayError", "parse_log", "read_logs", "read_path",
           "save_log"]

#: names earlier releases exported from ``replay`` -> the module that defines them now
_MOVED: dict[str, str] = {
    **dict.fromkeys(("Call", "Card", "Seat", "Strain", "Suit"), "replay.games.floating_bridge.cards"),
    **dict.fromkeys(("Finding", "Game"), "replay.games.floating_bridge.engine"),
    **dict.fromkeys(("GameReplay", "Result", "Step"), "replay.games.floating_bridge.game"),
    "GameLog": "replay.games.floating_bridge.log",
    **dict.fromkeys(("PRESETS", "Rules", "RulesError"), "replay.games.floating_bridge.rules"),
}


def __getattr__(name: str) -> Any:
    """An old name, imported from its game's module on first use, with a ``DeprecationWarning``."""
    module = _MOVED.get(name)
    if module is None:
        raise AttributeError(f"module 'replay' has no attribute {name!r}")
    warnings.warn(f"replay.{name} is deprecated: import it from {module} (`from {module} import {name}`)",
                  DeprecationWarning, stacklevel=2)
    return getattr(importlib.import_module(module), name)
