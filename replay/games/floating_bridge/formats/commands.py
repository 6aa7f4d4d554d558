"""The ``export`` command: floating bridge games as PBN or LIN (added to ``replay.cli`` through
``GAME.commands``)."""

from __future__ import annotations

import os
from pathlib import Path

import click

from replay.clitools import UserError, looks_like_file_name, read_entries
from replay.codec import decode

from .lin import export_lin
from .pbn import export_pbn_bytes


@click.command("export")
@click.argument("source")
@click.option("--to", "fmt", type=click.Choice(["pbn", "lin"]), required=True, help="The format to write.")
@click.option("--out", "-o", type=click.Path(dir_okay=False), help="Write to a file instead of stdout.")
def export_command(source: str, fmt: str, out: str | None) -> None:
    """Export the games in SOURCE (a log file, folder, -, or a replay code or link) as PBN or LIN.

    docs/exports.md says what each format cannot express (the floating partnership).
    """
    if source != "-" and not os.path.exists(source):
        if looks_like_file_name(source):
            raise UserError(f"{source}: no such file or folder")
        logs = [decode(source)]
    else:
        logs = []
        for entry in read_entries([source]):
            if entry.error is not None:
                raise UserError(f"{entry.source}: not a valid log: {entry.error}")
            logs.append(entry.log)
        if not logs:
            raise UserError(f"{source}: no games in it")
    # bytes, so that no text layer re-encodes them or changes their line ends: PBN is ISO-8859-1
    # with CRLF (PBN 2.1 export format), LIN is UTF-8
    data = export_pbn_bytes(logs) if fmt == "pbn" else export_lin(logs).encode("utf-8")
    if out:
        Path(out).write_bytes(data)
    else:
        click.echo(data, nl=False)
