"""The archive's commands: ``game-replay ingest``, ``game-replay archive list|show|stats|analyse|export|retry``
and ``game-replay study create|import|show|export|list``.

Every command takes ``--db URL`` (else ``GAME_REPLAY_DB``, else ``sqlite:///var/game-replay.db``).
Errors are one line on standard error and a non-zero exit, never a traceback. Player names and
other log text are untrusted: terminal output strips control characters and Rich markup.
"""

from __future__ import annotations

import functools
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Any, Callable

import click
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeRemainingColumn
from rich.table import Table
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, SQLAlchemyError

from replay.cli import UserError, looks_like_file_name, plural
from replay.errors import ReplayError
from replay.games import get as get_game
from replay.games import names as game_names
from replay.games.base import StudyFormat
from replay.log import is_log_name, read_logs
from replay.study import FORMAT as STUDY_FORMAT
from replay.study import GLYPHS, StudyGame, comment_text

from .compression import BlobError
from .filters import clean_filters, filter_fields, game_name
from .ratings import leaderboard
from .records import DEFAULT_URL, MAX_INPUT_BYTES, ArchiveError, _as_datetime, _db_message
from .store import Archive
from .studies import Studies, StudySourceError, first_move

EXIT_SOME_QUARANTINED = 1

db_option = click.option("--db", "db", metavar="URL", envvar="GAME_REPLAY_DB",
                         help="Database URL (default: $GAME_REPLAY_DB, else sqlite:///var/game-replay.db).")
json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def clean(text: Any) -> str:
    """Untrusted text made safe for a terminal and for Rich: no control characters, no markup."""
    return escape(_CONTROL.sub("?", "" if text is None else str(text)))


def plain(text: Any) -> str:
    """Untrusted text made safe for a terminal (for plain, non-Rich output)."""
    return _CONTROL.sub("?", "" if text is None else str(text))


SUPPORTED_BACKENDS = ("SQLite (sqlite:///path/to/file.db) and PostgreSQL "
                      "(postgresql+psycopg://user:password@host/db)")


def check_db_url(url: str | None) -> None:
    """Refuse, with a clear message, a URL the archive cannot or should not open.

    Only SQLite and PostgreSQL are supported (other backends used to fail with "driver
    missing", as if they worked once installed). A SQLite file must go into an existing folder:
    a mistyped path is an error, not a new folder. Only the default, ``var/game-replay.db``,
    may have its folder created. Unparseable URLs are left to the archive's own message.
    """
    if not url or url == DEFAULT_URL:
        return
    try:
        parsed = make_url(url)
    except ArgumentError:
        return
    backend = parsed.get_backend_name()
    if backend not in ("sqlite", "postgresql"):
        raise UserError(f"unsupported database {backend!r} ({parsed.render_as_string(hide_password=True)}): "
                        f"the archive supports {SUPPORTED_BACKENDS}")
    if backend == "sqlite":
        database = parsed.database or ""
        if database in ("", ":memory:") or database.startswith("file:") or parsed.query.get("mode") == "memory":
            return
        folder = Path(database).parent
        if not folder.is_dir():
            raise UserError(f"{folder}: no such folder for the SQLite database {Path(database).name} "
                            "(create it first, or check the --db URL)")


def _open(db: str | None):
    check_db_url(db)
    return Archive(db)


def _time_option(ctx, param, value):
    """Check --from/--to here, so that the message names the option typed."""
    if value is None:
        return None
    try:
        _as_datetime(value, param.opts[0])
    except ArchiveError as exc:
        raise UserError(str(exc)) from None
    return value


def archive_errors(fn: Callable) -> Callable:
    """Turn archive and database errors into one-line messages (exit 2)."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except (ArchiveError, BlobError) as exc:
            raise UserError(str(exc)) from None
        except SQLAlchemyError as exc:
            raise UserError(f"database error: {_db_message(exc)}") from None
        except OSError as exc:
            where = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
            raise UserError(f"{where}{exc.strerror or exc}") from None

    return wrapper


def _fact_cell(fact, value, names: dict) -> str:
    """A fact as a listing shows it: a seat fact names the seat's player (``honest-1``, not ``1``)."""
    if value is None or value == "":
        return "-"
    if fact.kind == "seat" and names.get(str(value)) not in (None, str(value)):
        return f"{value} {names[str(value)]}"
    return fact.shown(value)


def _console(stderr: bool = False, wide: bool = False):
    """Rich's console; ``wide``: a table of many columns, written out whole (not folded to 80
    columns) when the output is not a terminal (a pipe, a file)."""
    console = Console(stderr=stderr, highlight=False, soft_wrap=True)
    if wide and not console.is_terminal and "COLUMNS" not in os.environ:
        console.width = 200
    return console


# --- ingest ----------------------------------------------------------------------------------

SUMMARY_LABELS = (("stored", "stored"), ("duplicate", "already there"),
                  ("stored_with_findings", "stored with findings"), ("quarantined", "quarantined"),
                  ("rejected", "rejected"))


def summarize(results) -> dict[str, int]:
    counts = {status: 0 for status, _ in SUMMARY_LABELS}
    for r in results:
        counts[r.status] = counts.get(r.status, 0) + 1
    return counts


def summary_line(counts: dict[str, int]) -> str:
    return ", ".join(f"{label} {counts.get(status, 0)}" for status, label in SUMMARY_LABELS)


@click.command("ingest")
@click.argument("paths", nargs=-1)
@db_option
@click.option("--watch", "watch_dir", type=click.Path(file_okay=False), metavar="DIR",
              help="Keep polling DIR and take in each new file once it is complete (Ctrl-C stops).")
@click.option("--interval", type=click.FloatRange(0.05, 3600), default=2.0, show_default=True,
              help="Seconds between polls of --watch.")
@click.option("--polls", type=click.IntRange(1), default=None, hidden=True, help="Stop after N polls (tests).")
@click.option("--quiet", "-q", is_flag=True, help="Only the summary.")
@click.option("--verbose", "-v", is_flag=True, help="A line per game as soon as it is stored.")
@json_option
@archive_errors
def ingest_command(paths: tuple[str, ...], db: str | None, watch_dir: str | None, interval: float,
                   polls: int | None, quiet: bool, verbose: bool, as_json: bool) -> None:
    """Take games into the archive: files, folders (recursive), .json/.jsonl/.zst, legacy text, - (stdin).

    Each game is judged by the rules engine and stored once; unreadable input goes to the
    quarantine with its error. Ends with a summary: stored, already there, stored with
    findings, quarantined (and rejected: too large or unreadable files, left where they are).
    Exit 0 when everything was stored, 1 when something was quarantined or rejected.
    """
    if not paths and not watch_dir:
        raise UserError("nothing to ingest: give files, folders or - (standard input), or --watch DIR")
    for path in paths:  # only the named paths are checked first; folders are walked as they are read
        if path != "-" and not os.path.isfile(path) and not os.path.isdir(path):
            raise UserError(f"{path}: {'not a file or folder' if os.path.exists(path) else 'no such file or folder'}")
    archive = _open(db)
    counts = summarize(())
    err = _console(stderr=True)
    out = _console()
    first = True
    if as_json:
        sys.stdout.write('{"results": [')

    def report(found) -> None:  # each result as soon as its batch is committed; none is kept
        nonlocal first
        for r in found:
            counts[r.status] = counts.get(r.status, 0) + 1
            if as_json:
                sys.stdout.write(("" if first else ", ") + json.dumps(r.to_json(), ensure_ascii=False))
                first = False
            elif verbose:
                click.echo(f"{plain(r.source)}: {r.status}" + (f" {r.public_id}" if r.public_id else "")
                           + (f": {plain(r.error)}" if r.error else ""))
            elif not quiet and r.status in ("quarantined", "rejected") and r.new:
                out.print(f"{clean(r.source)}: {r.status}: {clean(r.error)}")
        sys.stdout.flush()

    try:
        if paths:
            _ingest_with_progress(archive, paths, err, quiet or as_json or verbose, report)
        if watch_dir:
            _watch(archive, watch_dir, interval, polls, err, quiet or as_json, report)
    except KeyboardInterrupt:
        err.print("stopped")
    finally:
        archive.close()
    if as_json:
        sys.stdout.write(f'], "summary": {json.dumps(counts)}}}\n')
    else:
        click.echo(summary_line(counts))
    if counts["quarantined"] or counts["rejected"]:
        sys.exit(EXIT_SOME_QUARANTINED)


def _ingest_with_progress(archive, paths, err, quiet: bool, report) -> None:
    """Ingest as the walk goes: no file is listed or stat-ed before the first game is stored."""
    show = not quiet and err.is_terminal
    with Progress(SpinnerColumn(), TextColumn("ingesting"), MofNCompleteColumn(), TextColumn("files,"),
                  TextColumn("{task.fields[games]:,} games"), console=err, transient=True,
                  disable=not show) as progress:
        task = progress.add_task("ingest", total=None, games=0)
        games = 0
        last = None
        for path, found in archive.iter_ingest(paths):
            report(found)
            games += len(found)
            # a large file of many games comes in pieces (archive/ingest.py): one file, games as they go
            progress.update(task, advance=0 if path == last else 1, games=games)
            last = path


class _FolderWatch:
    """What a watched folder holds, re-read only where something changed.

    A folder's own time changes when a file is created, renamed or removed in it, so an
    unchanged folder is not listed again; only files not yet taken (or still being written)
    are stat-ed on each poll. A file is taken once its size and time have held still for one
    poll; a file rewritten in place after it was taken is not taken again.
    """

    def __init__(self, root: Path):
        self.root = root
        self.folders: dict[str, tuple[int, list[str], list[str]]] = {}  # path -> (mtime, subfolders, files)
        self.taken: set[str] = set()

    def candidates(self) -> list[str]:
        found: list[str] = []
        stack = [str(self.root)]
        while stack:
            folder = stack.pop()
            try:
                mtime = os.stat(folder).st_mtime_ns
            except OSError:
                self.folders.pop(folder, None)
                continue
            cached = self.folders.get(folder)
            if cached is None or cached[0] != mtime:
                subfolders, files = [], []
                try:
                    with os.scandir(folder) as it:
                        for entry in it:
                            if entry.name.startswith("."):
                                continue
                            if entry.is_dir(follow_symlinks=True):
                                subfolders.append(entry.path)
                            elif is_log_name(entry.name):
                                files.append(entry.path)
                except OSError:
                    continue
                cached = (mtime, sorted(subfolders), sorted(files))
                self.folders[folder] = cached
            stack.extend(reversed(cached[1]))
            found.extend(f for f in cached[2] if f not in self.taken)
        return found


def _watch(archive, directory: str, interval: float, polls: int | None, err, quiet: bool, report) -> None:
    """Poll a folder; a file is taken once its size and time have held still for one poll."""
    root = Path(directory)
    if not root.is_dir():
        raise UserError(f"{directory}: no such folder to watch")
    watch = _FolderWatch(root)
    pending: dict[str, tuple[int, int]] = {}   # path -> (size, mtime_ns) at the last poll
    if not quiet:
        err.print(f"watching {clean(directory)} (Ctrl-C to stop)")
    count = 0
    while True:
        now = time.time()
        for key in watch.candidates():
            try:
                st = os.stat(key)
            except OSError:
                pending.pop(key, None)
                continue  # renamed or removed between listing and stat
            state = (st.st_size, st.st_mtime_ns)
            if pending.get(key) == state and now - st.st_mtime >= interval / 2:
                found = archive.ingest_file(key)
                report(found)
                watch.taken.add(key)
                pending.pop(key, None)
                if not quiet:
                    for r in found:
                        err.print(f"{clean(r.source)}: {r.status.replace('_', ' ')}"
                                  + (f" {r.public_id}" if r.public_id else "")
                                  + (f": {clean(r.error)}" if r.error else ""))
            else:
                pending[key] = state
        count += 1
        if polls is not None and count >= polls:
            return
        time.sleep(interval)


# --- archive group ---------------------------------------------------------------------------

@click.group("archive")
def archive_group() -> None:
    """List, show, count, export and retry what the archive holds."""


#: the option of each neutral filter whose option is not ``--<name>``
_OPTION_NAMES = {"has_findings": "--findings/--no-findings", "listed": "--listed/--unlisted",
                 "started_from": "--from", "started_to": "--to"}


def _filter_options(fn: Callable) -> Callable:
    """``archive list``'s filter options, one per field of the filter spec (``archive/filters.py``):
    the neutral filters, every game's facts (``--turns``: a game's own) and
    ``--fact NAME=VALUE``."""
    options = []
    for field in filter_fields():
        flag = _OPTION_NAMES.get(field.name, "--" + field.name.replace("_", "-"))
        text = field.help or field.label
        text = text[:1].upper() + text[1:]
        if field.fact is not None:
            text = f"{field.label} ({field.game or 'a fact of several games'}): {field.help or 'its value'}"
            if field.values:
                text += f"; one of {', '.join(field.values)}"
        if field.kind == "bool":
            options.append(click.option(flag, field.name, default=None, help=text + "."))
        elif field.kind == "date":
            options.append(click.option(flag, field.name, metavar="TIME", callback=_time_option, help=text + "."))
        elif field.name in ("game", "end_reason"):
            options.append(click.option(flag, field.name, type=click.Choice(field.values), help=text + "."))
        else:
            metavar = "N|>=N|<=N" if field.kind == "int" else field.name.upper()
            options.append(click.option(flag, field.name, metavar=metavar, help=text + "."))
    options.append(click.option("--fact", "fact", multiple=True, metavar="NAME=VALUE",
                                help="A fact of the game: NAME=VALUE, or NAME>=N / NAME<=N for a number, e.g. "
                                     "turns>=30 (repeatable; the facts are the options above)."))
    for option in reversed(options):
        fn = option(fn)
    return fn


@archive_group.command("list")
@db_option
@json_option
@click.option("--limit", type=click.IntRange(0, 10000), default=50, show_default=True)
@click.option("--offset", type=click.IntRange(0, 2**62), default=0, show_default=True)
@click.option("--cursor", metavar="CURSOR", help="Start after this point: a listing's next_cursor (--json).")
@click.option("--quarantine", is_flag=True, help="List the quarantined inputs instead of games.")
@_filter_options
@click.option("--sort", default="-started_at", show_default=True,
              type=click.Choice(["started_at", "-started_at", "ingested_at", "-ingested_at", "findings", "-findings"]))
@archive_errors
def list_command(db, as_json, limit, offset, cursor, quarantine, sort, **filters) -> None:
    """List games (newest first), filtered and paginated; or the quarantine."""
    clean_filters(filters, filters.get("game"))  # a bad filter is refused before the archive is opened
    archive = _open(db)
    try:
        if quarantine:
            page = archive.quarantine(limit=limit, offset=offset)
            if as_json:
                click.echo(json.dumps({"total": page.total, "items": [q.to_json() for q in page.items]},
                                      ensure_ascii=False))
                return
            _print_quarantine(page)
            return
        page = archive.list(sort=sort, limit=limit, offset=offset, cursor=cursor or None, **filters)
    finally:
        archive.close()
    if as_json:
        click.echo(json.dumps({"total": page.total, "total_exact": page.total_exact, "offset": offset,
                               "limit": limit, "next_cursor": page.next_cursor,
                               "items": [g.summary() for g in page.items]}, ensure_ascii=False))
        return
    facts = [f for f in get_game(filters["game"]).facts if f.column] if filters.get("game") else []
    table = Table(title=f"{page.total:,}{'' if page.total_exact else '+'} game{'s' if page.total != 1 else ''}"
                        + (f", {offset + 1}-{offset + len(page.items)} shown" if page.items else ""))
    for col in ("id", "started", "game", "players", "winners", *(f.label for f in facts), "end", "findings"):
        table.add_column(col)
    for g in page.items:
        names = {seat: p.get("name") or p.get("bot") or seat for seat, p in g.players.items()}
        players = ", ".join(f"{seat} {name}" if name != seat else seat for seat, name in names.items())
        winners = ", ".join(names[seat] for seat, p in g.players.items() if p.get("won")) or "-"
        table.add_row(g.public_id, g.started_at.strftime("%Y-%m-%d %H:%M") if g.started_at else "-",
                      clean(g.game), clean(players), clean(winners),
                      *(clean(_fact_cell(f, g.facts.get(f.name), names)) for f in facts), g.end_reason,
                      str(g.findings) + (f" ({', '.join(g.finding_kinds)})" if g.finding_kinds else ""))
    _console(wide=True).print(table)


def _print_quarantine(page) -> None:
    table = Table(title=f"{page.total} quarantined input{'s' if page.total != 1 else ''}")
    for col in ("id", "received", "source", "size", "error"):
        table.add_column(col)
    for q in page.items:
        table.add_row(str(q.id), q.received_at.strftime("%Y-%m-%d %H:%M"), clean(q.source), f"{q.size:,}",
                      clean(q.error))
    _console().print(table)


@archive_group.command("show")
@click.argument("public_id")
@db_option
@json_option
@click.option("--raw", is_flag=True, help="Write the game's raw bytes, exactly as received.")
@archive_errors
def show_command(public_id: str, db, as_json: bool, raw: bool) -> None:
    """Show one game: its index fields and replay summary (or its raw bytes)."""
    archive = _open(db)
    try:
        game = archive.get(public_id)
    finally:
        archive.close()
    if game is None:
        raise UserError(f"no game with id {public_id!r} in this archive")
    if raw:
        sys.stdout.buffer.write(game.raw)
        sys.stdout.buffer.flush()
        return
    replay = game.replay()
    if as_json:
        click.echo(json.dumps({**game.summary(), "replay": replay.to_json()}, ensure_ascii=False))
        return
    out = _console()
    out.print(f"[bold]{game.public_id}[/bold]  {clean(replay.summary_line())}")
    module = replay.game
    for key in ("game", "game_id", "started_at", "rules", "end_reason", "findings", "source", "origin", "ingested_at",
                "code"):
        value = getattr(game, key)
        if key == "findings" and game.finding_kinds:
            value = f"{value} ({', '.join(game.finding_kinds)})"
        out.print(f"  {key}: {clean(value if value is not None else '-')}")
    for name, value in game.facts.items():
        fact = module.fact(name)
        out.print(f"  {clean(fact.label if fact else name)}: {clean(fact.shown(value) if fact else value)}")
    for seat, p in game.players.items():
        out.print(f"  {seat}: {clean(p.get('name') or '-')}"
                  + (f" (id {clean(p['id'])})" if p.get("id") else "")
                  + (f" bot {clean(p['bot'])}" if p.get("bot") else "")
                  + (f", {clean(p['role'])}" if p.get("role") else "")
                  + (", won" if p.get("won") else ""))
    for f in replay.findings:
        out.print(f"  finding at step {f.step}: {clean(f.kind)}: {clean(f.message)}")


@archive_group.command("stats")
@db_option
@json_option
@click.option("--by", type=click.Choice(["player", "bot"]), default="player", show_default=True)
@click.option("--game", "game", metavar="GAME", default=None,
              help="One game's figures: its leaderboard (rating, games, wins, win rate with its 95% interval and "
                   "the zero-sum score, over public decided games) and its own columns (games and wins in its "
                   "counted role, its analysis).")
@archive_errors
def stats_command(db, as_json: bool, by: str, game: str | None) -> None:
    """Per player or bot: games, wins, findings and think time, over every game, and each game's
    duplicate scores where the archive holds duplicated deals; with --game, that game's
    leaderboard and its own columns."""
    module = board = None
    boards: dict[str, Any] = {}
    if game is not None:
        module = get_game(game_name(game))
    archive = _open(db)
    try:
        figures = archive.stats(by=by, game=game)
        if module is not None:
            archive.refresh_ratings()
            rows = leaderboard(archive.engine, game, by)
            own = {r[by]: r for r in figures}
            for r in rows:
                mine = own.get(r["name"], {})
                r.update({k: v for k, v in mine.items() if k not in r and k != by})
            if module.has_analysis:
                analysed = archive.analysis_stats(by, names=[r["name"] for r in rows], game=game)
                for r in rows:
                    r.update(analysed.get(r["name"]) or _NO_ANALYSIS)
            board = archive.duplicate_leaderboard(game, by=by)
            if board.duplicated_deals:
                _add_duplicate(rows, board)
            else:
                board = None
        else:
            rows = figures
            for name in sorted(archive.duplicated_games()):
                found = archive.duplicate_leaderboard(name, by=by)
                if found.duplicated_deals:
                    boards[name] = found
            if boards:
                _add_duplicates(rows, by, boards)
    finally:
        archive.close()
    if as_json:
        click.echo(json.dumps(rows, ensure_ascii=False))
        return
    if module is None:
        table = Table(title=f"by {by} (every game; --game GAME for one game's own columns)", show_edge=False,
                      pad_edge=False)
        for col in (by, "games", "wins", "findings", "think (s)"):
            table.add_column(col, justify="left" if col == by else "right", overflow="fold")
        for r in rows:
            if r.get("games") is None:  # a name with deal scores only (a duplicate table shows it)
                continue
            table.add_row(clean(r[by]), str(r["games"]), str(r["wins"]), str(r["findings"]), _seconds(r["think_ms"]))
        out = _console(wide=True)
        out.print(table)
        for name, found in boards.items():
            out.print(_duplicate_table(name, by, found))
        return
    role = module.counted_role
    columns = ["#", by, "rating", "games", "wins", "win rate (95%)", "score", "findings", "think (s)"]
    if role:
        columns += [f"as {role}", f"won as {role}"]
    if module.has_analysis:
        columns += ["analysed", "mistakes", "lost/game"]
    columns += [figure.label + (" (95%)" if figure.spread else "") for figure in module.seat_figures]
    title = f"{game} by {by}: rating = mu - 3 sigma (Plackett-Luce; --json for mu, sigma)"
    if module.has_analysis:
        title += "; analysed: games with an analysis (see 'archive analyse'), lost/game: lost per analysed game"
    table = Table(title=title)
    for col in columns:
        table.add_column(col, justify="left" if col == by else "right", overflow="fold")
    for r in rows:
        if r.get("rating") is None:  # a name with deal scores only (the duplicate table shows it)
            continue
        low, high = r["win_rate_95"]
        cells = [str(r["rank"]), clean(r["name"]), f"{r['rating']:.2f}", str(r["games"]), str(r["wins"]),
                 f"{100 * r['win_rate']:.1f}% ({100 * low:.1f}-{100 * high:.1f}%)", f"{r['score']:+.2f}",
                 str(r.get("findings", 0)), _seconds(r.get("think_ms"))]
        if role:
            cells += [str(r.get("role_games", 0)), str(r.get("role_won", 0))]
        if module.has_analysis:
            per_game = "-" if r["lost_per_game"] is None else f"{r['lost_per_game']:.2f}"
            cells += [str(r["analysed_games"]), str(r["mistakes"]), per_game]
        cells += [figure_text(figure, (r.get("figures") or {}).get(figure.name)) for figure in module.seat_figures]
        table.add_row(*cells)
    out = _console(wide=True)
    out.print(table)
    if board is not None:
        out.print(_duplicate_table(game, by, board))
    elif module.has_deals:
        out.print(f"{game}: no duplicated deals (no deal stored at two tables or more)")


def _rests_on(board) -> dict[str, int]:
    return {"deals": board.deals, "tables": board.tables, "duplicated_deals": board.duplicated_deals,
            "duplicated_tables": board.duplicated_tables}


def _add_duplicate(rows: list[dict[str, Any]], board) -> None:
    """Each leaderboard row's duplicate-deal figures (``replay.duplicate.Standing`` as JSON, its
    ``unit`` and what the whole board rests on) under ``duplicate``; a bot or player that has
    deal scores but no rating row (no decided public game) gets a row of its own: the other
    rows' fields null, but ``name`` and ``duplicate``."""
    rests = _rests_on(board)
    mine = {s.bot: s for s in board.standings}
    for r in rows:
        standing = mine.pop(r["name"], None)
        r["duplicate"] = None if standing is None else {**standing.to_json(), "unit": board.unit, "rests_on": rests}
    blank = dict.fromkeys(rows[0]) if rows else {}  # the other rows' fields, null
    for name, standing in mine.items():
        rows.append({**blank, "rank": None, "name": name,
                     "duplicate": {**standing.to_json(), "unit": board.unit, "rests_on": rests}})


def _add_duplicates(rows: list[dict[str, Any]], by: str, boards: dict[str, Any]) -> None:
    """Every game's duplicate figures, for the stats over every game: each row gets
    ``duplicate``, ``{game: {**Standing.to_json(), "unit", "rests_on"}}`` for each game with
    duplicated deals it has deal scores in (``{}`` for none); a name with deal scores but no row
    gets a row of its own, the other fields null. Rows are unchanged without duplicated deals."""
    rests = {game: _rests_on(board) for game, board in boards.items()}
    for r in rows:
        r["duplicate"] = {}
    index = {r[by]: r for r in rows}
    blank = dict.fromkeys(rows[0]) if rows else {by: None}
    for game, board in boards.items():
        for standing in board.standings:
            row = index.get(standing.bot)
            if row is None:
                row = index[standing.bot] = {**blank, by: standing.bot, "duplicate": {}}
                rows.append(row)
            row["duplicate"][game] = {**standing.to_json(), "unit": board.unit, "rests_on": rests[game]}


def _duplicate_table(game: str, by: str, board) -> Table:
    """The duplicate leaderboard: per bot (or player), the plain score per table and the
    duplicate score per deal, each with its 95% interval, in the game's deal unit."""
    title = (f"{game} on duplicated deals by {by} ({board.unit} per table; 95% intervals): rests on "
             f"{plural(board.duplicated_deals, 'deal')} played at {plural(board.duplicated_tables, 'table')}, "
             f"of {plural(board.deals, 'deal')} at {plural(board.tables, 'table')} with a score")
    table = Table(title=title)
    for col in (by, "tables", "deals", f"plain ({board.unit})", f"duplicate ({board.unit})"):
        table.add_column(col, justify="left" if col == by else "right", overflow="fold")
    for s in board.standings:
        table.add_row(clean(s.bot), str(s.tables), str(s.deals), s.plain.text(), s.duplicate.text(signed=True))
    return table


_NO_ANALYSIS = {"analysed_games": 0, "cards": 0, "mistakes": 0, "lost": 0, "lost_per_game": None}


def figure_text(figure, found: dict | None) -> str:
    """A seat figure as a table shows it: ``23.5%``, ``+12.40 ± 8.10 bb/100``, ``-`` for none.

    >>> from replay.games.base import SeatFigure
    >>> figure_text(SeatFigure("vpip", "VPIP", count="vpip", of="dealt"), {"value": 23.5, "interval": None, "n": 40})
    '23.5%'
    >>> figure_text(SeatFigure("bb", "bb/100", count="w", of="n", unit=" bb/100", spread="w2"),
    ...             {"value": 12.4, "interval": 8.1, "n": 300})
    '+12.40 ± 8.10 bb/100'
    >>> figure_text(SeatFigure("vpip", "VPIP", count="vpip", of="dealt"), None)
    '-'
    """
    if not found or found.get("value") is None:
        return "-"
    if figure.spread:
        spread = "" if found.get("interval") is None else f" ± {found['interval']:.2f}"
        return f"{found['value']:+.2f}{spread}{figure.unit}"
    return f"{found['value']:.1f}{figure.unit}"


def _seconds(ms: int | None) -> str:
    return "-" if ms is None else f"{ms / 1000:.1f}"


@archive_group.command("analyse")
@db_option
@json_option
@click.option("--limit", type=click.IntRange(1, 10**9), default=None, metavar="N",
              help="Analyse at most N games (oldest first); default: every game not analysed yet.")
@archive_errors
def analyse_command(db, as_json: bool, limit: int | None) -> None:
    """Analyse the archived games that have no analysis yet (the games that offer one), so
    that the stats count them; pages compute a game's analysis on first view anyway."""
    archive = _open(db)
    err = _console(stderr=True)
    failures: list[str] = []
    try:
        with Progress(TextColumn("analysing"), BarColumn(), MofNCompleteColumn(), TextColumn("games"),
                      TimeRemainingColumn(), console=err, transient=True,
                      disable=as_json or not err.is_terminal) as progress:
            task = progress.add_task("analyse", total=None)

            def step(done: int, total: int, row: str, error: str | None) -> None:
                progress.update(task, completed=done, total=total)
                if error is not None:
                    failures.append(f"game row {row}: {error}")

            counts = archive.analyse_pending(limit, step)
    finally:
        archive.close()
    if as_json:
        click.echo(json.dumps({**counts, "errors": failures}, ensure_ascii=False))
        return
    if failures:  # every game that failed, after the run (the others were analysed all the same)
        err.print(f"{plural(len(failures), 'game')} could not be analysed:")
    for line in failures:
        err.print(clean(line))
    skipped = f", {counts['skipped']} skipped (no analysis for their game)" if counts.get("skipped") else ""
    click.echo(f"analysed {plural(counts['analysed'], 'game')}, {counts['shared']} already analysed under "
               f"another copy, {counts['failed']} failed{skipped}; {counts['left']} left")


@archive_group.command("export")
@click.argument("directory", type=click.Path(file_okay=False))
@db_option
@json_option
@click.option("--format", "fmt", type=click.Choice(["raw", "jsonl"]), default="raw", show_default=True,
              help="raw: each game's bytes as received, one file each; jsonl: canonical JSON lines in "
                   "DIRECTORY/games.jsonl.")
@click.option("--inputs", is_flag=True,
              help="With raw: every input file as received (batches, duplicates, quarantined ones), byte for byte.")
@archive_errors
def export_command(directory: str, db, as_json: bool, fmt: str, inputs: bool) -> None:
    """Write what the archive holds into DIRECTORY."""
    archive = _open(db)
    try:
        if fmt == "jsonl":
            if inputs:
                raise UserError("--inputs goes with --format raw only")
            Path(directory).mkdir(parents=True, exist_ok=True)
            target = Path(directory) / "games.jsonl"
            with open(target, "w", encoding="utf-8", newline="\n") as fh:
                count = archive.export_jsonl(fh)
        else:
            count = archive.export(directory, inputs=inputs)
    finally:
        archive.close()
    what = "inputs" if inputs else "games"
    if as_json:
        click.echo(json.dumps({"exported": count, "what": what, "directory": directory, "format": fmt}))
    else:
        click.echo(f"exported {plural(count, what[:-1])} to {directory}")


@archive_group.command("retry")
@db_option
@json_option
@archive_errors
def retry_command(db, as_json: bool) -> None:
    """Read every quarantined input again (after a fix); what reads now becomes games."""
    archive = _open(db)
    try:
        results = archive.retry_quarantine()
    finally:
        archive.close()
    counts = summarize(results)
    if as_json:
        click.echo(json.dumps({"summary": counts, "results": [r.to_json() for r in results]}, ensure_ascii=False))
        return
    out = _console()
    for r in results:
        if r.status == "quarantined":
            out.print(f"{clean(r.source)}: still quarantined: {clean(r.error)}")
        else:
            out.print(f"{clean(r.source)}: {r.status.replace('_', ' ')} {r.public_id}")
    click.echo(summary_line(counts))


@archive_group.command("drop-unlinked-analyses")
@db_option
@click.option("--older-than", "days", type=click.FloatRange(0), default=30, show_default=True, metavar="DAYS",
              help="Only analyses stored more than DAYS ago.")
@archive_errors
def drop_unlinked_analyses_command(db, days: float) -> None:
    """Delete the analyses of games opened only from their replay codes (no archived game links
    to them); they grow with every new game analysed on /r/<code> and are computed again if asked."""
    archive = _open(db)
    try:
        n = archive.analyses.drop_unlinked(days)
    finally:
        archive.close()
    click.echo(f"dropped {plural(n, 'analysis', 'analyses')} no archived game links to")


@archive_group.command("fill-codes")
@db_option
@archive_errors
def fill_codes_command(db) -> None:
    """Fill the replay code of any game stored without one."""
    archive = _open(db)
    try:
        n = archive.fill_codes()
    finally:
        archive.close()
    click.echo(f"filled {plural(n, 'replay code')}")


@archive_group.command("fill-deals")
@db_option
@json_option
@archive_errors
def fill_deals_command(db, as_json: bool) -> None:
    """Fill the deal key and each seat's deal score of games stored before the archive kept them
    (migration 0015): judge again every stored game of a game with deals that has no deal key.
    Safe to run again: games that got a key are not looked at twice."""
    archive = _open(db)
    err = _console(stderr=True)
    try:
        total = archive.deals.pending()
        with Progress(TextColumn("filling deals"), BarColumn(), MofNCompleteColumn(), TextColumn("games"),
                      TimeRemainingColumn(), console=err, transient=True,
                      disable=as_json or not err.is_terminal) as progress:
            task = progress.add_task("fill", total=total)
            result = archive.fill_deals(progress=lambda n: progress.advance(task, n))
    finally:
        archive.close()
    if as_json:
        click.echo(json.dumps(result.to_json()))
        return
    click.echo(f"filled the deal key of {plural(result.keyed, 'game')} ({plural(result.scored, 'seat score')}); "
               f"{plural(result.looked, 'game')} looked at")


@archive_group.command("retrain")
@db_option
@click.option("--recompress", is_flag=True, help="Also rewrite older blobs with the new dictionary.")
@archive_errors
def retrain_command(db, recompress: bool) -> None:
    """Train a new compression dictionary on the latest games (older blobs stay readable)."""
    archive = _open(db)
    try:
        new = archive.train_dictionary(recompress=False)
        if new is None:
            raise UserError("too few games to train a dictionary (32 at least)")
        n = archive.recompress() if recompress else 0
    finally:
        archive.close()
    click.echo(f"dictionary {new} trained" + (f", {plural(n, 'blob')} rewritten" if recompress else ""))


# --- studies -----------------------------------------------------------------------------------

study_db_option = click.option("--db", "--archive", "db", metavar="URL", envvar="GAME_REPLAY_DB",
                               help="Database URL (default: $GAME_REPLAY_DB, else sqlite:///var/game-replay.db).")


def study_errors(fn: Callable) -> Callable:
    """``archive_errors``, and a study that cannot be read or made as one line too (exit 2)."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except ReplayError as exc:  # StudyError, a bad replay code, a log that does not read
            raise UserError(str(exc)) from None

    return archive_errors(wrapper)


@click.group("study")
def study_group() -> None:
    """Studies: games with notes (comments, glyphs, marks) and what-if branches, kept in the
    archive revision by revision. Create, show, export and import them; edit them in the
    viewer (/s/ID) with the owner token."""


def _study_formats() -> list[StudyFormat]:
    """Every registered game's study file formats (``GameModule.study_formats``)."""
    return [fmt for name in game_names() for fmt in get_game(name).study_formats]


def _read_format(fmt: StudyFormat, data: bytes, path: str) -> StudyGame:
    try:
        text = data.decode(fmt.encoding)
    except (UnicodeDecodeError, LookupError) as exc:
        raise UserError(f"{path}: not {fmt.label} text ({exc})") from None
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        return StudyGame.load(fmt.read(text))
    except ReplayError as exc:  # StudyError, LogFormatError
        raise UserError(f"{path}: {exc}") from None


def read_study_file(path: str) -> StudyGame:
    """A study from a file: a ``study/1`` JSON file, a file of a game's study format (told by
    its suffix, else by its content) or a game's log (one game: a study with nothing said yet)."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_INPUT_BYTES + 1)
    except OSError as exc:
        raise UserError(f"{path}: {exc.strerror or exc}") from None
    if len(data) > MAX_INPUT_BYTES:
        raise UserError(f"{path}: larger than {MAX_INPUT_BYTES:,} bytes: not a study or a game's log")
    formats = _study_formats()
    lowered = path.lower()
    for fmt in formats:
        if fmt.suffix and lowered.endswith(fmt.suffix.lower()):
            return _read_format(fmt, data, path)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = None
    if text is not None and text.lstrip().startswith("{"):
        try:
            found = json.loads(text)
        except (ValueError, RecursionError):
            found = None
        if isinstance(found, dict) and found.get("format") == STUDY_FORMAT:
            try:
                return StudyGame.load(found)
            except ReplayError as exc:
                raise UserError(f"{path}: {exc}") from None
    if text is not None:
        for fmt in formats:
            if fmt.looks_like(text):
                return _read_format(fmt, data, path)
    entries = read_logs(data, path)
    if len(entries) != 1:
        raise UserError(f"{path}: holds {plural(len(entries), 'game')}; a study is of one game")
    if entries[0].error is not None:
        raise UserError(f"{path}: not a study, nor a game's log: {entries[0].error}")
    return StudyGame.new(entries[0].log, source={"kind": "file", "ref": None})


def _study_of(archive: Archive, source: str, title: str | None) -> StudyGame:
    """The study SOURCE names: a file, an archived game's public id or a replay code (or link)."""
    if os.path.isfile(source):
        study = read_study_file(source)
    elif os.path.exists(source):
        raise UserError(f"{source}: a folder, not a file (a study is of one game)")
    elif looks_like_file_name(source):
        raise UserError(f"{source}: no such file")
    elif archive.ids.decode(source) is not None:
        study = Studies(archive).from_source("game", source, listed_only=False)
    else:
        try:
            study = Studies(archive).from_source("code", source)
        except StudySourceError as exc:
            raise UserError(f"{source[:60]!r} is not a file, an archived game's id or a replay code ({exc})") from None
    return study if title is None else study.replace(title=title)


def _create(db: str | None, source: str, title: str | None, listed: bool, as_json: bool) -> None:
    archive = _open(db)
    try:
        study = _study_of(archive, source, title)
        created = Studies(archive).create(study, listed=listed)
    finally:
        archive.close()
    if as_json:
        click.echo(json.dumps({**created.to_json(), "listed": listed, "title": study.study.title,
                               "game": study.game.name}, ensure_ascii=False))
    else:
        click.echo(f"study {created.id} created (revision {created.rev}, {'listed' if listed else 'unlisted'}): "
                   f"{plain(study.study.title) or '(untitled)'}")
        click.echo(f"page: {created.url}")
        click.echo(f"owner token: {created.owner_token}")
    click.echo("warning: the owner token is shown this once only and cannot be recovered; whoever holds it "
               "can edit the study and list or unlist it: keep it somewhere safe", err=True)


@study_group.command("create")
@click.argument("source")
@click.option("--title", metavar="TEXT", help="The study's title (default: the study file's own, else none).")
@click.option("--listed", is_flag=True, help="List the study publicly (default: unlisted, opened by its id only).")
@study_db_option
@json_option
@study_errors
def study_create_command(source: str, title: str | None, listed: bool, db: str | None, as_json: bool) -> None:
    """Create a study of SOURCE: a replay code or link, an archived game's id, a game's log file,
    or a study file (study/1 JSON, or a study format of the game's own). Prints the study's id,
    its page and its owner token, which is shown this once only."""
    _create(db, source, title, listed, as_json)


@study_group.command("import")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--title", metavar="TEXT", help="The study's title (default: the file's own, else none).")
@click.option("--listed", is_flag=True, help="List the study publicly (default: unlisted, opened by its id only).")
@study_db_option
@json_option
@study_errors
def study_import_command(file: str, title: str | None, listed: bool, db: str | None, as_json: bool) -> None:
    """Create a study from FILE: study/1 JSON, a study format of the game's own, or a game's log
    ('study create' with a file)."""
    if not os.path.isfile(file):
        raise UserError(f"{file}: no such file")
    _create(db, file, title, listed, as_json)


def _stored(archive: Archive, public_id: str, rev: int | None):
    studies = Studies(archive)
    stored = studies.get(public_id, rev)
    if stored is not None:
        return studies, stored
    latest = studies.summary(public_id)
    if latest is None:
        raise UserError(f"no study with id {public_id[:40]!r} in this archive")
    raise UserError(f"study {public_id} has revisions 1-{latest.rev}, not {rev}")


def _study_lines(study: StudyGame) -> list[dict[str, Any]]:
    lines = []
    for line_id in study.line_ids:
        line = study.line(line_id)
        lines.append({"id": line.id, "parent": line.parent, "at": line.at, "title": line.title, "last": line.last,
                      "depth": line.depth, "first": first_move(study, line_id)})
    return lines


def _marks_text(note: dict[str, Any]) -> str:
    marks = [f"{m['kind']} {m['id']}" for m in note.get("highlights") or ()]
    arrows = [f"{a['from']['kind']} {a['from']['id']} -> {a['to']['kind']} {a['to']['id']}"
              for a in note.get("arrows") or ()]
    parts = ([f"marks: {', '.join(marks)}"] if marks else []) + ([f"arrows: {', '.join(arrows)}"] if arrows else [])
    return "; ".join(parts)


@study_group.command("show")
@click.argument("public_id", metavar="ID")
@click.option("--rev", type=click.IntRange(1), default=None, metavar="N", help="A revision (default: the latest).")
@study_db_option
@json_option
@study_errors
def study_show_command(public_id: str, rev: int | None, db: str | None, as_json: bool) -> None:
    """Show a study: its title, game and revisions, its lines (where each branch leaves its
    parent, and its first move) and its notes, as plain text."""
    archive = _open(db)
    try:
        studies, stored = _stored(archive, public_id, rev)
        revisions = studies.revisions(public_id) or []
    finally:
        archive.close()
    study = stored.study
    lines = _study_lines(study)
    notes = [{**note, "text": comment_text(note["comment"])} for note in stored.data.get("notes", ())]
    if as_json:
        click.echo(json.dumps({"id": stored.id, "rev": stored.rev, "latest": stored.latest, "listed": stored.listed,
                               "title": stored.title, "game": stored.game, "created_at": stored.created_at.isoformat(),
                               "updated_at": stored.updated_at.isoformat(), "saved_at": stored.saved_at.isoformat(),
                               "url": stored.url, "revisions": [r.to_json() for r in revisions], "lines": lines,
                               "notes": notes, "study": stored.data}, ensure_ascii=False))
        return
    click.echo(plain(stored.title) or "(untitled)")
    click.echo(f"  study {stored.id}, revision {stored.rev} of {stored.latest}, "
               f"{'listed' if stored.listed else 'unlisted'}; page {stored.url}")
    click.echo(f"  game: {study.game.title} ({stored.game})")
    source = stored.data.get("source") or {}
    if source:
        click.echo(f"  from: {plain(source.get('kind'))}" + (f" {plain(source['ref'])}" if source.get("ref") else ""))
    click.echo(f"  created {stored.created_at:%Y-%m-%d %H:%M} UTC, this revision saved "
               f"{stored.saved_at:%Y-%m-%d %H:%M} UTC")
    click.echo("  revisions: " + ", ".join(f"{r.rev} ({r.created_at:%Y-%m-%d %H:%M}, {r.size:,} bytes)"
                                          for r in revisions))
    click.echo(f"{plural(len(lines), 'line')}:")
    for line in lines:
        title = f" {plain(line['title'])!r}" if line["title"] else ""
        if line["parent"] is None:
            click.echo(f"  {line['id']}: the game as played, steps 0-{line['last']}")
        else:
            click.echo(f"  {line['id']}{title}: from {line['parent']} after step {line['at']}, first move "
                       f"{plain(line['first'])}; steps {line['at'] + 1}-{line['last']}"
                       + (f" (a branch {line['depth']} deep)" if line["depth"] > 1 else ""))
    click.echo(f"{plural(len(notes), 'note')}:")
    for note in notes:
        glyph = f" {note['glyph']} ({GLYPHS[note['glyph']]})" if note.get("glyph") in GLYPHS else ""
        click.echo(f"  {note['line']} step {note['step']}{glyph}")
        for text_line in plain(note["text"]).strip().splitlines():
            click.echo(f"    {text_line}")
        marks = _marks_text(note)
        if marks:
            click.echo(f"    ({plain(marks)})")


@study_group.command("export")
@click.argument("public_id", metavar="ID")
@click.option("--rev", type=click.IntRange(1), default=None, metavar="N", help="A revision (default: the latest).")
@click.option("--format", "fmt", default="json", show_default=True, metavar="json|FORMAT",
              help="json (study/1, every game), or a study format of the study's game (see the error for its list).")
@click.option("--output", "-o", type=click.Path(dir_okay=False, writable=True), default=None, metavar="FILE",
              help="Write to FILE (default: standard output).")
@study_db_option
@study_errors
def study_export_command(public_id: str, rev: int | None, fmt: str, output: str | None, db: str | None) -> None:
    """Export a study (a revision of it) as study/1 JSON or in a study format of its game."""
    archive = _open(db)
    try:
        _, stored = _stored(archive, public_id, rev)
    finally:
        archive.close()
    if fmt.lower() == "json":
        data = (json.dumps(stored.data, ensure_ascii=False, indent=1, sort_keys=True) + "\n").encode("utf-8")
    else:
        module = get_game(stored.game)
        chosen = next((f for f in module.study_formats if f.name.lower() == fmt.lower()), None)
        if chosen is None:
            known = ", ".join(["json", *(f.name for f in module.study_formats)])
            raise UserError(f"a {stored.game} study exports as {known}, not {fmt[:20]!r}")
        data = chosen.write(stored.study).encode(chosen.encoding)
    if output is None:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    with open(output, "wb") as fh:
        fh.write(data)
    click.echo(f"study {stored.id} revision {stored.rev} written to {output} ({len(data):,} bytes)", err=True)


@study_group.command("list")
@click.option("--game", "game", metavar="GAME", default=None, help="One game's studies (its name).")
@click.option("--limit", type=click.IntRange(0, 500), default=50, show_default=True)
@click.option("--offset", type=click.IntRange(0, 2**62), default=0, show_default=True)
@study_db_option
@json_option
@study_errors
def study_list_command(game: str | None, limit: int, offset: int, db: str | None, as_json: bool) -> None:
    """List the listed studies, latest saved first."""
    if game is not None:
        game = game_name(game)
    archive = _open(db)
    try:
        page = Studies(archive).listing(game=game, limit=limit, offset=offset)
    finally:
        archive.close()
    if as_json:
        click.echo(json.dumps({"total": page.total, "offset": offset, "limit": limit,
                               "items": [s.to_json() for s in page.items]}, ensure_ascii=False))
        return
    click.echo(f"{plural(page.total, 'listed study', 'listed studies')}")
    for s in page.items:
        click.echo(f"  {s.id}  {s.updated_at:%Y-%m-%d %H:%M}  {s.game}  rev {s.rev}, {plural(s.notes, 'note')}, "
                   f"{plural(s.branches, 'branch', 'branches')}  {plain(s.title) or '(untitled)'}")
