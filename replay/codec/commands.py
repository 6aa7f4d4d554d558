"""The codec's commands: ``encode``, ``decode`` and ``export`` (registered in ``replay.cli``).

``replay.cli`` imports this module at its end, so this module imports ``replay.cli`` lazily.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from ..log import GameLog
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
    from ..cli import EXIT_BAD_INPUT, NoGames, read_entries

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


def _describe(text: str, log: GameLog) -> list[str]:
    replay = log.replay()
    kind = "original BridgeBot code" if is_legacy_code(text) else (
        "fallback code (a game with findings)" if is_fallback_code(text) else "replay code")
    lines = [f"{kind}: {replay.summary_line()}"]
    if log.format != "floating-bridge/1":  # another game: what every game says
        game = replay.game
        winners = ", ".join(replay.winners) or "nobody"
        lines.append(f"  game {game.title}, end {replay.end_reason}, won by {winners}")
        lines.append(f"  {len(log.events)} events; `game-replay decode CODE --json` gives the whole log")
        for f in replay.findings:
            lines.append(f"  finding at step {f.step}: {f.kind}: {f.message}")
        return lines
    lines.append(f"  rules {replay.rules.name}, first bidder {log.first_bidder.name}, end {replay.end_reason}")
    for seat, cards in zip("NESW", log.hands.by_seat()):
        name = log.player_name(seat_of(seat))
        label = f"{seat} ({name})" if name else seat
        lines.append(f"  {label}: {' '.join(str(c) for c in cards)}")
    if replay.calls:
        lines.append("  auction: " + " ".join(f"{s.name}:{c}" for s, c in replay.calls))
    if replay.partner_card is not None:
        lines.append(f"  partner card {replay.partner_card} held by {replay.partner_seat.name}")
    if replay.trick_winners:
        lines.append("  trick winners: " + " ".join(s.name for s in replay.trick_winners))
    for f in replay.findings:
        lines.append(f"  finding at step {f.step}: {f.kind}: {f.message}")
    return lines


def seat_of(letter: str):
    from ..cards import Seat

    return Seat[letter]


@click.command("decode")
@click.argument("code")
@click.option("--json", "as_json", is_flag=True, help="Print the game as canonical log-format JSON.")
def decode_command(code: str, as_json: bool) -> None:
    """Show the game in a replay CODE, or in any link holding one (new or legacy); - reads it from stdin.

    A damaged or unknown code exits 2 with the reason. To get the code of a log file, use
    ``encode``; to show a log file, ``replay``.
    """
    from ..cli import UserError, looks_like_file_name

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


@click.command("export")
@click.argument("source")
@click.option("--to", "fmt", type=click.Choice(["pbn", "lin"]), required=True, help="The format to write.")
@click.option("--out", "-o", type=click.Path(dir_okay=False), help="Write to a file instead of stdout.")
def export_command(source: str, fmt: str, out: str | None) -> None:
    """Export the games in SOURCE (a log file, folder, -, or a replay code or link) as PBN or LIN.

    docs/exports.md says what each format cannot express (the floating partnership).
    """
    from ..cli import UserError, looks_like_file_name, read_entries
    from ..formats.lin import export_lin
    from ..formats.pbn import export_pbn_bytes

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
