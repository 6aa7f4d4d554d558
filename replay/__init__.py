"""replay: log, judge and replay floating bridge games played through chat bots.

The pieces, from small to large:

- ``Card``, ``Call``, ``Seat`` (``replay.cards``): the vocabulary, parsed liberally.
- ``Rules`` (``replay.rules``): presets and flags.
- ``Game`` (``replay.engine``): the state machine; breaches become ``Finding``s.
- ``GameLog`` (``replay.log``): log format v1, read and written.
- ``GameLogger`` (``replay.logger``): what a bot calls while it plays.
- ``GameReplay`` (``replay.game``): a judged game, step by step.
"""

from .cards import Call, Card, ReplayError, Seat, Strain, Suit
from .engine import Finding, Game
from .game import GameReplay, Result, Step
from .log import GameLog, LogEntry, LogFormatError, parse_log, read_logs, read_path
from .logger import GameLogger, save_log
from .rules import PRESETS, Rules, RulesError

__all__ = [
    "Call", "Card", "Finding", "Game", "GameLog", "GameLogger", "GameReplay", "LogEntry",
    "LogFormatError", "PRESETS", "ReplayError", "Result", "Rules", "RulesError", "Seat", "Step",
    "Strain", "Suit", "parse_log", "read_logs", "read_path", "save_log",
]
