"""replay: log, judge and replay games played through chat bots.

The game-neutral core: ``replay.log`` (reading any game's log), ``replay.logger``
(``GameLogger``), ``replay.codec`` (replay codes and links), ``replay.games`` (the registry)
and ``replay.cli``. Each game is a package of its own under ``replay/games/<game>/``.

Floating bridge, the first game, is also reachable from here, as bots and earlier releases
use it:

- ``Card``, ``Call``, ``Seat`` (``replay.games.floating_bridge.cards``): the vocabulary, parsed liberally.
- ``Rules`` (``replay.games.floating_bridge.rules``): presets and flags.
- ``Game`` (``replay.games.floating_bridge.engine``): the state machine; breaches become ``Finding``s.
- ``GameLog`` (``replay.games.floating_bridge.log``): log format v1, read and written.
- ``GameLogger`` (``replay.logger``): what a bot calls while it plays (any game's logger).
- ``GameReplay`` (``replay.games.floating_bridge.game``): a judged game, step by step.
"""

from .errors import ReplayError
from .log import LogEntry, LogFormatError, parse_log, read_logs, read_path
from .logger import GameLogger, save_log
from .games.floating_bridge.cards import Call, Card, Seat, Strain, Suit
from .games.floating_bridge.engine import Finding, Game
from .games.floating_bridge.game import GameReplay, Result, Step
from .games.floating_bridge.log import GameLog
from .games.floating_bridge.rules import PRESETS, Rules, RulesError

__all__ = [
    "Call", "Card", "Finding", "Game", "GameLog", "GameLogger", "GameReplay", "LogEntry",
    "LogFormatError", "PRESETS", "ReplayError", "Result", "Rules", "RulesError", "Seat", "Step",
    "Strain", "Suit", "parse_log", "read_logs", "read_path", "save_log",
]
