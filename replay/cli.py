"""The library's commands: validate, replay, selfplay, schema (and the codec's, added below).

The ``game-replay`` entry point (``viewer.cli:main``) adds the archive's and the viewer's
commands to this group, so that ``replay`` imports nothing of ours.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Iterable

import click

from .errors import ReplayError
from .log import LogEntry, LogFormatError, expand_paths, read_path

EXIT_FINDINGS = 1
EXIT_BAD_INPUT = 2


class UserError(click.ClickException):
    """A message for the user, exit 2, no traceback."""

    exit_code = EXIT_BAD_INPUT

    def show(self, file=None) -> None:
        click.echo(f"game-replay: {self.format_message()}", err=True)


def seat_name(seat: object) -> str:
    """A finding's seat as the log writes it (bridge's seats are enums, other games' names)."""
    return getattr(seat, "name", None) or str(seat)


def plural(n: int, word: str, words: str | None = None) -> str:
    """``1 game``, ``2 games`` (``words`` for an irregular plural)."""
    return f"{n:,} {word if n == 1 else (words or word + 's')}"


def looks_like_file_name(text: str) -> bool:
    """True for what can only be a file or folder name, never a replay code or link.

    Codes use letters, digits, ``-`` and ``_`` only; links have ``://``, ``#`` or ``/r/``.
    """
    if "://" in text or "#" in text or "/r/" in text:
        return False
    return any(ch in text for ch in "./\\")


class NoGames(UserError):
    def __init__(self, files: Iterable[str]):
        from .log import LOG_SUFFIXES

        super().__init__(f"no games found in {', '.join(files)} (logs are files ending in "
                         f"{', '.join(LOG_SUFFIXES)})")


def read_entries(paths: Iterable[str]) -> Iterable[LogEntry]:
    for path in expand_paths(paths):
        try:
            yield from read_path(path)
        except OSError as exc:
            yield LogEntry(path, b"", error=LogFormatError(f"cannot read: {exc.strerror}", path))


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(package_name="game-replay")
def cli() -> None:
    """Log, judge, share and replay card games played through chat bots: floating bridge, UNO
    Lite, Coup and party cards."""


@cli.command()
@click.argument("files", nargs=-1, required=True)
@click.option("--quiet", "-q", is_flag=True, help="Only the summary line per game.")
def validate(files: tuple[str, ...], quiet: bool) -> None:
    """Judge every game in FILES (logs, .jsonl batches, .zst, legacy text logs, folders, -).

    Prints a line per game, then each finding. Exit 0 when every game is clean, 1 if any game
    has findings, 2 if any input could not be read.
    """
    status = 0
    seen = 0
    for entry in read_entries(files):
        seen += 1
        if entry.error is not None:
            click.echo(f"{entry.source}: not a valid log: {entry.error}")
            status = EXIT_BAD_INPUT
            continue
        replay = entry.log.replay()
        click.echo(f"{entry.source}: {replay.summary_line()}")
        if replay.findings:
            status = max(status, EXIT_FINDINGS)
            if not quiet:
                for f in replay.findings:
                    seat = f" [{seat_name(f.seat)}]" if f.seat is not None else ""
                    event = f" event {f.event}" if f.event is not None else ""
                    click.echo(f"  step {f.step}{event}: {f.kind}{seat}: {f.message}")
                if not replay.checked:
                    click.echo("  rule checking stopped at the first fatal finding")
    if not seen:
        raise NoGames(files)
    sys.exit(status)


@cli.command("replay")
@click.argument("files", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per game (JSON lines).")
@click.option("--steps", is_flag=True, help="Also print every step (with --json: a 'steps' list).")
def replay_command(files: tuple[str, ...], as_json: bool, steps: bool) -> None:
    """Replay every game in FILES: its end, winners and findings, and each game's own facts
    (floating bridge: contract, partner, trick winners, result)."""
    status = 0
    seen = 0
    for entry in read_entries(files):
        seen += 1
        if entry.error is not None:
            status = EXIT_BAD_INPUT
            if as_json:
                click.echo(json.dumps({"source": entry.source, "error": str(entry.error)}, ensure_ascii=False))
            else:
                click.echo(f"{entry.source}: not a valid log: {entry.error}")
            continue
        replay = entry.log.replay()
        if as_json:
            data = {"source": entry.source, **replay.to_json()}
            if steps:
                data["steps"] = replay.steps_json()
            click.echo(json.dumps(data, ensure_ascii=False))
            continue
        click.echo(f"{entry.source}: {replay.summary_line()}")
        if getattr(replay, "partner_card", None) is not None:
            click.echo(f"  partner card {replay.partner_card} held by {replay.partner_seat.name}")
        if getattr(replay, "trick_winners", None):
            click.echo("  trick winners: " + " ".join(s.name for s in replay.trick_winners))
        if steps:
            for step in replay.steps_json():
                click.echo(f"  {step['i']:3d} {step['text']}")
        for f in replay.findings:
            click.echo(f"  finding at step {f.step}: {f.kind}: {f.message}")
    if not seen:
        raise NoGames(files)
    sys.exit(status)


def _game_names() -> list[str]:
    from .games import names

    return names()


@cli.command()
@click.option("--game", "game_name", type=click.Choice(_game_names()), default="floating-bridge",
              show_default=True, help="Which game to play.")
@click.option("--games", "-n", default=10, show_default=True, type=click.IntRange(1, 1_000_000))
@click.option("--seed", "-s", default=0, show_default=True, type=int, help="Seed of the first game.")
@click.option("--out", "-o", "out_dir", required=True, type=click.Path(file_okay=False),
              help="Folder to save the logs into (one file per game).")
@click.option("--bot", default="greedy", show_default=True,
              help="The bot every seat plays (see --bots to seat different bots).")
@click.option("--bots", "bot_list", default=None,
              help="Comma-separated bots, one per seat in table order (e.g. greedy,random).")
@click.option("--rules", "rules_name", type=click.Choice(["bridgebot", "all-tricks"]), default=None,
              help="Floating bridge only: the rules preset (default bridgebot).")
@click.option("--interrupt-rate", type=click.FloatRange(0, 1), default=0.0, show_default=True,
              help="Chance that a game is cancelled or times out part way.")
@click.option("--players", type=click.IntRange(2, 10), default=None,
              help="Seats at the table, for games with a variable number (Coup: 2-6); bots sit round-robin.")
def selfplay(game_name: str, games: int, seed: int, out_dir: str, bot: str, bot_list: str | None,
             rules_name: str | None, interrupt_rate: float, players: int | None) -> None:
    """Play seeded games between bots and save their logs as a bot using its logger would."""
    from rich.progress import Progress

    from .games import get

    game = get(game_name)
    chosen = tuple(b.strip() for b in (bot_list.split(",") if bot_list else [bot]) if b.strip())
    unknown = [b for b in chosen if b not in game.bots]
    if not chosen or unknown:
        raise UserError(f"{', '.join(unknown) or '(none)'}: not a {game.title} bot "
                        f"(choose from {', '.join(game.bots)})")
    options: dict = {"out_dir": out_dir, "interrupt_rate": interrupt_rate}
    if rules_name is not None:
        if game_name != "floating-bridge":
            raise UserError(f"--rules is for floating bridge; {game.title} has one set of rules")
        options["rules"] = rules_name
    if players is not None:
        low, high = getattr(game, "player_counts", (None, None))
        if low is None:
            raise UserError(f"--players is for games with a variable number of seats; {game.title} has a fixed table")
        if not low <= players <= high:
            raise UserError(f"{game.title} has {low} to {high} seats, not {players}")
        options["players"] = players
    ends: dict[str, int] = {}
    with Progress(transient=True, disable=not sys.stderr.isatty()) as progress:
        task = progress.add_task(f"playing {plural(games, game.title + ' game')}", total=games)
        for i in range(games):
            log = game.selfplay(seed + i, bots=chosen, **options)
            reason = log.end.reason if log.end is not None else "abandoned"
            ends[reason] = ends.get(reason, 0) + 1
            progress.advance(task)
    summary = ", ".join(f"{n} {reason}" for reason, n in sorted(ends.items()))
    click.echo(f"saved {plural(games, 'game')} to {out_dir}/ ({summary})")


@cli.command()
@click.option("--game", "game_name", type=click.Choice(_game_names()), default="floating-bridge",
              show_default=True, help="Whose log format.")
@click.option("--out", "-o", type=click.Path(dir_okay=False), help="Write to a file instead of stdout.")
def schema(game_name: str, out: str | None) -> None:
    """Print the JSON Schema of a game's log format (floating-bridge/1 by default)."""
    from .games import get

    text = json.dumps(get(game_name).json_schema(), indent=2, ensure_ascii=False) + "\n"
    if out:
        Path(out).write_text(text, encoding="utf-8")
    else:
        click.echo(text, nl=False)


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


def main() -> None:  # pragma: no cover - the installed entry point is viewer.cli:main
    run(cli)


# -- commands: codec (replay codes of every game)
from .codec.commands import decode_command, encode_command  # noqa: E402

cli.add_command(encode_command)
cli.add_command(decode_command)


# -- commands: each game's own (``GAME.commands``: floating bridge's ``export`` and ``analyse``)
def _add_game_commands(group: click.Group) -> None:
    from .games import get, names

    for name in names():
        for command in getattr(get(name), "commands", ()):
            group.add_command(command)


_add_game_commands(cli)
