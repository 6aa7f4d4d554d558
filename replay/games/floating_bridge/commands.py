"""The ``analyse`` command: double-dummy analysis of every card of a game (registered in
``replay.cli``)."""

from __future__ import annotations

import json
import os
import sys

import click

from replay.clitools import EXIT_BAD_INPUT, UserError, looks_like_file_name, read_entries
from replay.codec import decode
from replay.log import LogEntry

from .analysis import analyse


def _entries(source: str):
    """The games in a file, folder or ``-``, or the one game in a replay code or link."""
    if source == "-" or os.path.exists(source):
        yield from read_entries([source])
        return
    if looks_like_file_name(source):
        raise UserError(f"{source}: no such file or folder")
    yield LogEntry(source, b"", log=decode(source))  # a bad code raises CodeError: exit 2


@click.command("analyse")
@click.argument("source", metavar="FILE|CODE")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per game (JSON lines).")
def analyse_command(source: str, as_json: bool) -> None:
    """Double-dummy analysis of every card played in FILE (or a replay CODE or link).

    For each card: the tricks the declarer's side takes with best play before and after it
    (tricks already won included), the cards that were best, and the tricks a mistake cost.
    Exit 2 if the input could not be read.
    """
    status = 0
    for entry in _entries(source):
        if entry.error is not None:
            status = EXIT_BAD_INPUT
            if as_json:
                click.echo(json.dumps({"source": entry.source, "error": str(entry.error)}, ensure_ascii=False))
            else:
                click.echo(f"{entry.source}: not a valid log: {entry.error}")
            continue
        if entry.log.format != "floating-bridge/1":
            status = EXIT_BAD_INPUT
            click.echo(f"{entry.source}: double-dummy analysis is for floating bridge; this is a "
                       f"{entry.log.format} game")
            continue
        replay = entry.log.replay()
        result = analyse(replay)
        if as_json:
            click.echo(json.dumps({"source": entry.source, **result.to_json()}, ensure_ascii=False))
            continue
        click.echo(f"{entry.source}: {replay.summary_line()}")
        if not result.cards:
            click.echo("  no card was played")
            continue
        partner = result.partner.name if result.partner is not None else "?"
        click.echo(f"  declarer {result.declarer.name}, partner {partner}; with best play from the "
                   f"opening lead the declarer's side takes {result.start} tricks")
        for c in result.cards:
            note = ""
            if c.mistake:
                note = f"  mistake, -{c.loss} for the {c.side}; best " + " ".join(str(b) for b in c.best)
            if not c.legal:
                note += "  (not a legal card)"
            click.echo(f"  {c.event:4d} {c.seat.name} {str(c.card):3s} {c.before:2d} -> {c.after:2d}{note}")
        d, f = (sum(c.loss for c in result.mistakes(s)) for s in ("declarer", "defenders"))
        click.echo(f"  tricks thrown away: declarer's side {d}, defenders {f}")
        if not result.complete:
            click.echo("  rule checking stopped at a fatal finding: the rest is not analysed")
    sys.exit(status)
