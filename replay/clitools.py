"""What every command of ours shares: the user's errors, exit codes, reading the inputs, and
running a click group without a traceback.

``replay.cli`` (the library's commands), the codec's commands, the games' own commands and
the archive's and viewer's CLIs import these from here, so no command module imports another.
"""

from __future__ import annotations

import os
import sys
from typing import Iterable

import click

from .errors import ReplayError
from .log import LogEntry, LogFormatError, expand_paths, log_suffixes, read_path

EXIT_FINDINGS = 1
EXIT_BAD_INPUT = 2


class UserError(click.ClickException):
    """A message for the user, exit 2, no traceback."""

    exit_code = EXIT_BAD_INPUT

    def show(self, file=None) -> None:
        click.echo(f"game-replay: {self.format_message()}", err=True)


class NoGames(UserError):
    def __init__(self, files: Iterable[str]):
        super().__init__(f"no games found in {', '.join(files)} (logs are files ending in "
                         f"{', '.join(log_suffixes())})")


def plural(n: int, word: str, words: str | None = None) -> str:
    """``1 game``, ``2 games`` (``words`` for an irregular plural)."""
    return f"{n:,} {word if n == 1 else (words or word + 's')}"


def looks_like_file_name(text: str) -> bool:
    """True for what can only be a file or folder name, never a replay code or link.

    Codes use letters, digits, ``-`` and ``_`` only; links have ``://``, ``#`` or ``/r/``.

    >>> looks_like_file_name("games/one.json"), looks_like_file_name("https://host/r/x1")
    (True, False)
    """
    if "://" in text or "#" in text or "/r/" in text:
        return False
    return any(ch in text for ch in "./\\")


def read_entries(paths: Iterable[str]) -> Iterable[LogEntry]:
    """Every game in the files and folders named (``-``: standard input), unreadable ones as
    entries with their error."""
    for path in expand_paths(paths):
        try:
            yield from read_path(path)
        except OSError as exc:
            yield LogEntry(path, b"", error=LogFormatError(f"cannot read: {exc.strerror}", path))


def run(group: click.Group) -> None:
    """Run a click group: user errors as messages (exit 2), never a traceback."""
    try:
        group.main(standalone_mode=False)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.Abort:
        click.echo("aborted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code if exc.exit_code != 1 else EXIT_BAD_INPUT)
    except (ReplayError, OSError) as exc:
        click.echo(f"game-replay: {exc}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as exc:  # a bug: say so plainly, keep the traceback for those who ask
        if os.environ.get("GAME_REPLAY_DEBUG"):
            raise
        click.echo(f"game-replay: internal error (a bug, please report it): {exc!r}. "
                   "Set GAME_REPLAY_DEBUG=1 to see the traceback.", err=True)
        sys.exit(70)
