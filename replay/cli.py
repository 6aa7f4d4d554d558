"""The library's commands: validate, replay, selfplay, schema (and the codec's, added below).

The ``game-replay`` entry point (``viewer.cli:main``) adds the archive's and the viewer's
commands to this group, so that ``replay`` imports nothing of ours.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click
from rich.progress import Progress

from .clitools import (EXIT_BAD_INPUT, EXIT_FINDINGS, NoGames, UserError, looks_like_file_name, plural,
                       read_entries, run)
from .codec.commands import decode_command, encode_command
from .games import get, names
from .games.base import seat_text

__all__ = ["EXIT_BAD_INPUT", "EXIT_FINDINGS", "NoGames", "UserError", "cli", "looks_like_file_name", "plural",
           "read_entries", "run"]


@click.group(context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100})
@click.version_option(package_name="game-replay")
def cli() -> None:
    """Log, judge, share and replay card games played through chat bots."""


cli.help = (f"Log, judge, share and replay card games played through chat bots: "
            f"{', '.join(get(name).title for name in names())}.")


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
                    seat = f" [{seat_text(f.seat)}]" if f.seat is not None else ""
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
    """Replay every game in FILES: its end, winners and findings, and each game's own facts."""
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
        for line in replay.game.replay_lines(replay):
            click.echo(line)
        if steps:
            for step in replay.steps_json():
                click.echo(f"  {step['i']:3d} {step['text']}")
        for f in replay.findings:
            click.echo(f"  finding at step {f.step}: {f.kind}: {f.message}")
    if not seen:
        raise NoGames(files)
    sys.exit(status)


@cli.command()
@click.option("--game", "game_name", type=click.Choice(names()), default=names()[0],
              show_default=True, help="Which game to play.")
@click.option("--games", "-n", default=10, show_default=True, type=click.IntRange(1, 1_000_000))
@click.option("--seed", "-s", default=0, show_default=True, type=int, help="Seed of the first game.")
@click.option("--out", "-o", "out_dir", required=True, type=click.Path(file_okay=False),
              help="Folder to save the logs into (one file per game).")
@click.option("--bot", default=None,
              help="The bot every seat plays (see --bots to seat different bots; default: the game's own choice).")
@click.option("--bots", "bot_list", default=None,
              help="Comma-separated bots, one per seat in table order (e.g. greedy,random).")
@click.option("--rules", "rules_name", default=None,
              help="For a game with several sets of rules: the preset to play (default: the game's first).")
@click.option("--interrupt-rate", type=click.FloatRange(0, 1), default=0.0, show_default=True,
              help="Chance that a game is cancelled or times out part way.")
@click.option("--players", type=click.IntRange(2, 10), default=None,
              help="Seats at the table, for games with a variable number; bots sit round-robin.")
def selfplay(game_name: str, games: int, seed: int, out_dir: str, bot: str | None, bot_list: str | None,
             rules_name: str | None, interrupt_rate: float, players: int | None) -> None:
    """Play seeded games between bots and save their logs as a bot using its logger would."""
    game = get(game_name)
    if bot_list is None and bot is None:
        chosen = game.default_bots
    else:
        chosen = tuple(b.strip() for b in (bot_list.split(",") if bot_list else [bot]) if b.strip())
    unknown = [b for b in chosen if b not in game.bots]
    if not chosen or unknown:
        raise UserError(f"{', '.join(unknown) or '(none)'}: not a {game.title} bot "
                        f"(choose from {', '.join(game.bots)})")
    options: dict = {"out_dir": out_dir, "interrupt_rate": interrupt_rate}
    if rules_name is not None:
        if not game.rule_presets:
            raise UserError(f"--rules is for games with several sets of rules; {game.title} has one")
        if rules_name not in game.rule_presets:
            raise UserError(f"{rules_name}: not a {game.title} rules preset (choose from {', '.join(game.rule_presets)})")
        options["rules"] = rules_name
    if players is not None:
        low, high = game.player_counts
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
@click.option("--game", "game_name", type=click.Choice(names()), default=names()[0],
              show_default=True, help="Whose log format.")
@click.option("--out", "-o", type=click.Path(dir_okay=False), help="Write to a file instead of stdout.")
def schema(game_name: str, out: str | None) -> None:
    """Print the JSON Schema of a game's log format (the first registered game's by default)."""
    text = json.dumps(get(game_name).json_schema(), indent=2, ensure_ascii=False) + "\n"
    if out:
        Path(out).write_text(text, encoding="utf-8")
    else:
        click.echo(text, nl=False)


def main() -> None:  # pragma: no cover - the installed entry point is viewer.cli:main
    run(cli)


# -- commands: the codec's (replay codes of every game), and each game's own (``GAME.commands``)
cli.add_command(encode_command)
cli.add_command(decode_command)
for _name in names():
    for _command in get(_name).commands:
        cli.add_command(_command)
