"""The codec's commands, for every game: ``encode`` and ``decode`` (registered in ``replay.cli``)."""

from __future__ import annotations

import sys
from typing import Any

import click

from ..clitools import EXIT_BAD_INPUT, NoGames, UserError, looks_like_file_name, read_entries
from . import decode, encode, is_fallback_code, is_legacy_code, replay_url


@click.command("encode")
@click.argument("files", nargs=-1, required=True)
@click.option("--url", "base", metavar="BASE", help="Print the link BASE/r/<code> instead of the bare code.")
@click.option("--names", is_flag=True, help="With --url: add the players' names (the 'players' parameter).")
def encode_command(files: tuple[str, ...], base: str | None, names: bool) -> None:
    """Print one replay code per game in FILES (logs, .jsonl, .zst, legacy text logs, folders, -).

    A game with findings still gets a code (the flagged fallback form, starting with C, G, K or
    O). Exit 2 if any input could not be read.
    """
    status = 0
    seen = 0
    for entry in read_entries(files):
        seen += 1
        if entry.error is not None:
            click.echo(f"{entry.source}: not a valid log: {entry.error}", err=True)
            status = EXIT_BAD_INPUT
            continue
        click.echo(replay_url(entry.log, base, names=names) if base else encode(entry.log))
    if not seen:
        raise NoGames(files)
    sys.exit(status)


def _describe(text: str, log: Any) -> list[str]:
    replay = log.replay()
    kind = replay.game.legacy_code_label if is_legacy_code(text) else (
        "fallback code (a game with findings)" if is_fallback_code(text) else "replay code")
    lines = [f"{kind}: {replay.summary_line()}"]
    lines.extend(replay.game.describe_code(replay))  # the game's own lines, or what every game says
    for f in replay.findings:
        lines.append(f"  finding at step {f.step}: {f.kind}: {f.message}")
    return lines


@click.command("decode")
@click.argument("code")
@click.option("--json", "as_json", is_flag=True, help="Print the game as canonical log-format JSON.")
def decode_command(code: str, as_json: bool) -> None:
    """Show the game in a replay CODE, or in any link holding one (new or legacy); - reads it from stdin.

    A damaged or unknown code exits 2 with the reason. To get the code of a log file, use
    ``encode``; to show a log file, ``replay``.
    """
    if code == "-":
        code = sys.stdin.read().strip()
        if not code:
            raise UserError("no replay code on standard input")
    elif looks_like_file_name(code):
        raise UserError(f"{code} is a file name, not a replay code: `game-replay encode {code}` prints "
                        f"its code, `game-replay replay {code}` shows the game")
    log = decode(code)  # CodeError is a ReplayError: the CLI prints it and exits 2
    if as_json:
        click.echo(log.canonical_json())
    else:
        for line in _describe(code, log):
            click.echo(line)
