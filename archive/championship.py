"""``game-replay championship``: every deal played by every bot from every seat, saved, ingested and ranked.

    game-replay championship --game G --bots a,b,c --deals N [--out DIR] [--db URL]
                             [--first-deal 1] [--players P] [--json]

For each deal (numbers ``--first-deal`` on), the tables are ``replay.duplicate.rotation(seats,
bots)`` with ``seats = GAME.table_seats(bots)``: every bot sits in every seat of the deal, and
each table is ``GAME.play_table(deal, seat_bots, table=r)``, whose cards depend on the deal
alone. Each log is saved in ``DIR`` (by default a folder named after the game) as
``deal-<deal>-table-<r>.json``, written to a hidden temporary file first and then linked to its
name (never a half-written file, never one rewritten), and ingested into the archive.

The leaderboard (``replay.duplicate.leaderboard`` of the judged tables, grouped by
``GAME.deal_key``, and by deal number where one key stands for several (``rank``), and scored by
``GAME.deal_scores``) gives per bot its plain score (mean result per table, in the game's
``deal_unit``), its win rate (Wilson's 95% interval) and its duplicate score (its result minus
the mean result of its seat at the deal's tables), each with a 95% interval.

**Resume.** ``DIR/championship.manifest`` records the parameters. The same command again plays
only the tables whose log is not saved yet (the saved ones are ingested again, which stores
nothing twice: a kill between a save and its ingest loses nothing). A saved table is a file
named exactly ``table_file(deal, table)``, and each is checked to be that table (``read_saved``)
before anything is played or ingested. Other parameters in a folder already used, or a manifest
this command did not write, are refused (exit 2): one folder, one championship. At most
``MAX_TABLES`` tables, laid out lazily. Ctrl-C stops between two writes and says how many tables
are played (exit 130).

The module never names a game: everything game-specific comes through ``GameModule``'s hooks.

>>> table_file(7, 2)
'deal-0007-table-2.json'
>>> parse_table_file("deal-0007-table-2.json"), parse_table_file("notes.json")
((7, 2), None)
>>> parse_table_file("deal-7-table-2.json") is None  # only the name table_file gives counts
True
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import re
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Sequence

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table as RichTable

from replay.clitools import UserError, plural
from replay.duplicate import Leaderboard, Table, leaderboard, rotation
from replay.games import UnknownGameError
from replay.games import get as get_game
from replay.games import names as game_names
from replay.log import read_path

from .ratings import wilson
from .records import bot_base
from .cli import _console, _open, archive_errors, check_db_url, clean, db_option, json_option

#: the manifest's file name in the championship's folder (not a log suffix: ``ingest DIR`` leaves it alone)
MANIFEST = "championship.manifest"
#: the manifest's format
MANIFEST_FORMAT = "game-replay-championship/1"
#: the exit status after Ctrl-C
EXIT_INTERRUPTED = 130
#: the most tables a championship plays (``--deals`` times the tables of a deal): its files, its
#: manifest and its leaderboard must fit a folder, a disk and a memory
MAX_TABLES = 1_000_000

_TABLE_FILE = re.compile(r"deal-(\d+)-table-(\d+)\.json")


def table_file(deal: int, table: int) -> str:
    """The file name of a deal's table."""
    return f"deal-{deal:04d}-table-{table}.json"


def parse_table_file(name: str) -> tuple[int, int] | None:
    """``(deal, table)`` of a table's file name, or None for any other name (one that only looks
    like it, ``deal-7-table-2.json`` for ``deal-0007-table-2.json``, too: its table is not saved)."""
    match = _TABLE_FILE.fullmatch(name)
    if not match:
        return None
    deal, table = int(match[1]), int(match[2])
    return (deal, table) if table_file(deal, table) == name else None


@dataclass(frozen=True)
class Plan:
    """What a championship plays: the game, the bots, the deals and each deal's tables."""

    game: str
    bots: tuple[str, ...]
    deals: int
    first_deal: int
    players: int | None
    seats: int
    tables: tuple[tuple[str, ...], ...]  # each table of a deal: the bot of every seat in table order

    @property
    def options(self) -> dict[str, Any]:
        """The options ``table_seats`` and ``play_table`` are given."""
        return {} if self.players is None else {"players": self.players}

    @property
    def deal_numbers(self) -> range:
        return range(self.first_deal, self.first_deal + self.deals)

    @property
    def total(self) -> int:
        return self.deals * len(self.tables)

    def all_tables(self) -> Iterator[tuple[int, int, tuple[str, ...]]]:
        """``(deal, table, seat bots)`` of every table, in playing order (deal by deal), one at a time."""
        for d in self.deal_numbers:
            for r, bots in enumerate(self.tables):
                yield d, r, bots

    def has(self, deal: int, table: int) -> bool:
        """Whether ``(deal, table)`` is one of the plan's tables (arithmetic, no list)."""
        return deal in self.deal_numbers and 0 <= table < len(self.tables)

    def manifest(self) -> dict[str, Any]:
        """The parameters the folder's manifest records (and a re-run must repeat)."""
        return {"format": MANIFEST_FORMAT, "game": self.game, "bots": list(self.bots), "deals": self.deals,
                "first_deal": self.first_deal, "players": self.players, "seats": self.seats,
                "tables_per_deal": len(self.tables)}


def make_plan(game_name: str, bots: Sequence[str] | str, deals: int, first_deal: int = 1,
              players: int | None = None) -> Plan:
    """Check the parameters (``UserError`` with a clear message) and lay out the tables.

    >>> make_plan("no-such-game", "a", 1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    replay.clitools.UserError: 'no-such-game' is not a known game (known: ...)
    """
    try:
        game = get_game(game_name)
    except UnknownGameError:
        raise UserError(f"{game_name!r} is not a known game (known: {', '.join(game_names())})") from None
    if not game.has_deals:
        with_deals = [n for n in game_names() if get_game(n).has_deals]
        raise UserError(f"{game.title} has no duplicate deals, so no championship "
                        f"(games with deals: {', '.join(with_deals) or 'none'})")
    names = [b.strip() for b in bots.split(",")] if isinstance(bots, str) else [b.strip() for b in bots]
    names = [b for b in names if b]
    if not names:
        raise UserError(f"--bots names no bot (choose from {', '.join(game.bots)})")
    unknown = [b for b in names if b not in game.bots]
    if unknown:
        raise UserError(f"{', '.join(map(repr, unknown))}: not a {game.title} bot (choose from {', '.join(game.bots)})")
    repeated = sorted({b for b in names if names.count(b) > 1})
    if repeated:
        raise UserError(f"{', '.join(repeated)}: named twice in --bots (each bot once; the rotation seats it "
                        "in every seat)")
    if deals < 1:
        raise UserError(f"--deals must be at least 1, not {deals}")
    if deals > MAX_TABLES:
        raise UserError(f"--deals {deals:,} is too many: a championship plays at most {MAX_TABLES:,} tables")
    if first_deal < 0:
        raise UserError(f"--first-deal must be 0 or more, not {first_deal}")
    options: dict[str, Any] = {}
    if players is not None:
        low, high = game.player_counts
        if low is not None and not low <= players <= high:
            raise UserError(f"{game.title} has {low} to {high} seats, not {players}")
        try:
            seated = game.table_seats(names, players=players)
        except (TypeError, ValueError) as exc:
            raise UserError(f"--players {players}: {exc}") from None
        if seated != players:  # the game's tables do not take the option
            raise UserError(f"--players is for games with a variable number of seats; {game.title} seats "
                            f"{plural(seated, 'player')} here")
        options["players"] = players
    seats = game.table_seats(names, **options)
    tables = tuple(rotation(seats, names))
    if deals * len(tables) > MAX_TABLES:
        raise UserError(f"--deals {deals:,} at {plural(len(tables), 'table')} a deal is {deals * len(tables):,} "
                        f"tables: a championship plays at most {MAX_TABLES:,} (at most "
                        f"{MAX_TABLES // len(tables):,} deals here)")
    return Plan(game_name, tuple(names), deals, first_deal, players, seats, tables)


# -- the folder -----------------------------------------------------------------------------------

def read_manifest(folder: Path) -> dict[str, Any] | None:
    """The folder's manifest, None without one; ``UserError`` for a file that is not a
    manifest this command wrote (not UTF-8, not JSON, another format, a parameter of the wrong type)."""
    path = folder / MANIFEST
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise UserError(f"{path}: cannot read the championship manifest ({exc.strerror or exc})") from None
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise UserError(f"{path}: not a championship manifest (not UTF-8 text); use another --out folder") from None
    except (ValueError, RecursionError):
        raise UserError(f"{path}: not a championship manifest (unreadable JSON); use another --out folder") from None
    if not isinstance(data, dict) or data.get("format") != MANIFEST_FORMAT:
        raise UserError(f"{path}: not a championship manifest; use another --out folder")
    wrong = [key for key, ok in _MANIFEST_TYPES.items() if key in data and not ok(data[key])]
    missing = [key for key in CHOSEN if key not in data]
    if wrong or missing:
        why = "; ".join([*(f"{key} is not {_MANIFEST_WANTED[key]}" for key in wrong),
                         *(f"no {key}" for key in missing)])
        raise UserError(f"{path}: a malformed championship manifest ({why}); use another --out folder")
    return data


def _count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


#: what each manifest entry must be (a hand-edited manifest is refused, not half understood)
_MANIFEST_TYPES: dict[str, Callable[[Any], bool]] = {
    "game": lambda v: isinstance(v, str),
    "bots": lambda v: isinstance(v, list) and all(isinstance(b, str) for b in v),
    "deals": _count, "first_deal": _count, "seats": _count, "tables_per_deal": _count,
    "players": lambda v: v is None or _count(v),
}
_MANIFEST_WANTED = {"game": "a name", "bots": "a list of names", "deals": "a whole number",
                    "first_deal": "a whole number", "seats": "a whole number", "tables_per_deal": "a whole number",
                    "players": "a whole number or null"}


#: the manifest's entries a user chooses (the others follow from them and the game's code)
CHOSEN = ("game", "bots", "deals", "first_deal", "players")


def _shown(value: Any) -> str:
    if isinstance(value, list):
        return ",".join(map(str, value))
    return "none" if value is None else str(value)


def _differences(old: Mapping[str, Any], new: Mapping[str, Any]) -> list[str]:
    """What differs between two manifests, the chosen parameters first (the derived ones only
    when the chosen ones agree: the game's code changed its tables).

    >>> _differences({"deals": 2, "bots": ["a", "b"], "seats": 2}, {"deals": 3, "bots": ["a", "b"], "seats": 3})
    ['--deals 2 there, 3 now']
    """
    def diff(keys: Sequence[str]) -> list[str]:
        return [f"{'--' + key.replace('_', '-') if key in CHOSEN else key} {_shown(old.get(key))} there, "
                f"{_shown(new[key])} now" for key in keys if key in new and old.get(key) != new[key]]

    return diff(CHOSEN) or diff([k for k in new if k not in CHOSEN])


def prepare_folder(folder: Path, plan: Plan) -> None:
    """Make the folder ready for ``plan``: a new one gets its manifest; a used one must hold the
    same championship (``UserError`` otherwise, and nothing is written). Temporary files a
    killed run left behind are removed."""
    manifest = plan.manifest()
    if folder.exists() and not folder.is_dir():
        raise UserError(f"{folder}: not a folder")
    old = read_manifest(folder) if folder.is_dir() else None
    if old is not None:
        changed = _differences(old, manifest)
        if changed:
            raise UserError(f"{folder} holds another championship ({'; '.join(changed)}): run it with the "
                            f"same parameters to go on, or choose another --out folder")
    elif folder.is_dir() and any(parse_table_file(p.name) for p in folder.iterdir()):
        raise UserError(f"{folder} holds table logs but no {MANIFEST}: choose another --out folder")
    folder.mkdir(parents=True, exist_ok=True)
    for stale in [*folder.glob(".deal-*.tmp"), *folder.glob(f".{MANIFEST}.*.tmp")]:
        stale.unlink(missing_ok=True)
    if old is None:
        write_new(folder / MANIFEST, (json.dumps(manifest, indent=1) + "\n").encode("utf-8"))


def write_new(path: Path, data: bytes) -> bool:
    """Write ``data`` to ``path`` atomically, never over an existing file: to a hidden temporary
    file in the same folder, synced, then linked to its name. False when ``path`` exists (it is
    left as it was)."""
    fd, tmp = tempfile.mkstemp(prefix="." + path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        try:
            os.link(tmp, path)
        except FileExistsError:
            return False
        return True
    finally:
        os.unlink(tmp)


def saved_tables(folder: Path, plan: Plan) -> set[tuple[int, int]]:
    """The ``(deal, table)`` of the plan whose log is saved in the folder: a file named exactly
    ``table_file(deal, table)`` (one folder listing; no list of the plan's tables)."""
    if not folder.is_dir():
        return set()
    found = (parse_table_file(p.name) for p in folder.iterdir())
    return {t for t in found if t is not None and plan.has(*t)}


def read_saved(game: Any, plan: Plan, path: Path, deal: int, table: int, seat_bots: Sequence[str]) -> Any:
    """The log saved for a table, checked to be that table before anything of it is ingested: one
    readable log of the plan's game, its ``meta.championship`` this deal and table, and the
    rotation's bot in every seat. ``UserError`` naming the file otherwise (a stray or edited file:
    remove it and the table is played again)."""
    def wrong(why: str) -> UserError:
        return UserError(f"{path}: not this championship's deal {deal} table {table} ({why}); "
                         "remove it to play the table again")

    try:
        entries = read_path(str(path))
    except OSError as exc:
        raise wrong(f"cannot read it: {exc.strerror or exc}") from None
    if len(entries) != 1 or not entries[0].ok:
        error = entries[0].error if len(entries) == 1 else f"{len(entries)} games in one file" if entries else "empty"
        raise wrong(f"not a readable table log: {error}")
    log = entries[0].log
    fmt = getattr(log, "format", None)
    name = fmt.partition("/")[0] if isinstance(fmt, str) else None
    if name != plan.game:
        raise wrong(f"a log of {name or 'another game'}, not {plan.game}")
    meta = getattr(log, "meta", None)
    where = meta.get("championship") if isinstance(meta, Mapping) else None
    if not isinstance(where, Mapping) or (where.get("deal"), where.get("table")) != (deal, table):
        told = (f"deal {where.get('deal')} table {where.get('table')}" if isinstance(where, Mapping)
                else "no championship table")
        raise wrong(f"its meta.championship says {told}")
    try:
        seats = [str(s) for s in game.seat_order(log)]
        players = {str(k): v for k, v in log.players.items()}
        sat = [bot_base(players[s].bot) if players[s].bot else None for s in seats]
    except (AttributeError, KeyError, TypeError, ValueError):
        raise wrong("its seats cannot be read") from None
    if sat != list(seat_bots):
        raise wrong(f"its seats hold {', '.join(map(str, sat))}, not {', '.join(seat_bots)}")
    return log


# -- results --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class TableResult:
    """One judged table: the neutral ``Table`` and each bot's win share there (None: not counted)."""

    deal_number: int
    table: Table | None
    wins: Mapping[str, float] = field(default_factory=dict)
    key_missing: bool = False


@dataclass(frozen=True)
class WinRate:
    """A bot's win rate over its counted tables, with Wilson's 95% score interval (which stays
    within 0 to 1 and has a width at 0% or 100%, unlike mean ± 1.96 sd / sqrt(n))."""

    mean: float
    low: float
    high: float
    n: int

    @classmethod
    def of(cls, shares: Sequence[float]) -> "WinRate":
        """The win rate of ``shares`` (each table's share of wins, 0 to 1).

        >>> r = WinRate.of([0.0] * 6)
        >>> r.text()
        '0.0% (0.0-39.0%)'
        """
        n = len(shares)
        if not n:
            return cls(0.0, 0.0, 0.0, 0)
        wins = math.fsum(shares)
        low, high = wilson(wins, n)  # type: ignore[arg-type, misc]
        return cls(wins / n, low, high, n)

    def text(self) -> str:
        if not self.n:
            return "-"
        return f"{100 * self.mean:.1f}% ({100 * self.low:.1f}-{100 * self.high:.1f}%)"

    def to_json(self) -> dict[str, Any]:
        return {"mean": self.mean, "low": self.low, "high": self.high, "n": self.n, "interval": "wilson"}


def judge_table(game: Any, deal: int, r: int, seat_bots: Sequence[str], log: Any, ref: str) -> TableResult:
    """A table's log judged: its deal key, each seat's score and bot, each bot's share of wins
    (the mean over its seats of 1 for a winning seat, else 0). A table the game gives no scores
    for is not counted (``table`` None)."""
    replay = game.judge(log)
    scores = game.deal_scores(replay)
    if scores is None:
        return TableResult(deal, None)
    key = game.deal_key(log)
    seats = [str(s) for s in game.seat_order(log)]
    bots = dict(zip(seats, seat_bots))
    winners = {str(w) for w in (getattr(replay, "winners", None) or ())}
    won: dict[str, list[float]] = {}
    for seat, bot in bots.items():
        won.setdefault(bot, []).append(1.0 if seat in winners else 0.0)
    table = Table(key or f"deal {deal}", bots, {str(s): float(v) for s, v in scores.items()}, ref)
    return TableResult(deal, table, {b: math.fsum(v) / len(v) for b, v in won.items()}, key is None)


@dataclass
class Championship:
    """The leaderboard of a championship's tables, with each bot's win rate."""

    plan: Plan
    unit: str
    board: Leaderboard
    win_rates: dict[str, WinRate]
    counted: int
    not_counted: int
    split_deals: list[int]
    #: deal keys shared by several deal numbers (the game's key does not tell those deals apart)
    merged_keys: int = 0

    def to_json(self) -> dict[str, Any]:
        data = self.board.to_json()
        for standing in data["standings"]:
            standing["win_rate"] = self.win_rates[standing["bot"]].to_json()
        return {"game": self.plan.game, "bots": list(self.plan.bots), "first_deal": self.plan.first_deal,
                "deals_played": self.plan.deals, "tables_per_deal": len(self.plan.tables),
                "seats": self.plan.seats, "not_counted": self.not_counted, "split_deals": self.split_deals,
                "merged_keys": self.merged_keys,
                "leaderboard": data}


def rank(plan: Plan, results: Sequence[TableResult]) -> Championship:
    """The championship's leaderboard (``replay.duplicate.leaderboard``) and win rates.

    Tables are grouped by their deal key, and by deal number where one key stands for several
    numbers: a game's key tells the deal as logged, and may give deals that differ only in what
    the log does not show (a deck's order below the dealt hands) one key; the championship knows
    what it dealt, so those deals stay apart (the archive's statistics, which have only the key,
    count them as one deal). A deal number whose tables got different keys is a game's bug,
    reported in ``split_deals``."""
    game = get_game(plan.game)
    counted = [r for r in results if r.table is not None]
    keys: dict[int, set[str]] = {}
    numbers: dict[str, set[int]] = {}
    for r in counted:
        keys.setdefault(r.deal_number, set()).add(r.table.deal)  # type: ignore[union-attr]
        numbers.setdefault(r.table.deal, set()).add(r.deal_number)  # type: ignore[union-attr]
    split = sorted(d for d, k in keys.items() if len(k) > 1)
    shared = {k for k, n in numbers.items() if len(n) > 1}
    tables = [dataclasses.replace(r.table, deal=f"{r.table.deal}/{r.deal_number}")  # type: ignore[union-attr]
              if r.table.deal in shared else r.table for r in counted]  # type: ignore[union-attr]
    board = leaderboard(tables, unit=game.deal_unit or "points")  # type: ignore[arg-type]
    wins: dict[str, list[float]] = {}
    for r in counted:
        for bot, share in r.wins.items():
            wins.setdefault(bot, []).append(share)
    return Championship(plan, board.unit, board, {b: WinRate.of(v) for b, v in wins.items()}, len(counted),
                        len(results) - len(counted), split, len(shared))


def board_table(champ: Championship, title: str) -> Any:
    """The leaderboard as a ``rich`` table."""
    table = RichTable(title=title)
    for name, justify in (("Bot", "left"), ("Tables", "right"), (f"{champ.unit.capitalize()} per table", "right"),
                          ("Win rate", "right"), ("Duplicate score", "right"), ("Deals", "right")):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for s in champ.board.standings:
        table.add_row(clean(s.bot), str(s.tables), s.plain.text(), champ.win_rates[s.bot].text(),
                      s.duplicate.text(signed=True), str(s.duplicate.n))
    return table


# -- playing --------------------------------------------------------------------------------------

class Interrupted(Exception):
    def __init__(self, done: int, total: int):
        super().__init__(f"{done} of {total} tables played")
        self.done, self.total = done, total


def play(plan: Plan, folder: Path, archive: Any, on_table: Callable[[int, int], None] | None = None
         ) -> tuple[list[TableResult], dict[str, int], int]:
    """Play the plan's tables not saved yet in ``folder`` (saving and ingesting each), ingest the
    ones saved before, and judge them all: ``(results, ingest counts, tables played now)``.
    Ctrl-C raises ``Interrupted`` (the files saved so far are whole)."""
    game = get_game(plan.game)
    counts: dict[str, int] = {}
    done = saved_tables(folder, plan)
    results: list[TableResult] = []
    played = 0

    def ingest(path: Path) -> None:
        for r in archive.ingest_file(str(path)):
            counts[r.status] = counts.get(r.status, 0) + 1

    # every saved file is checked before anything is played or ingested: a stray one stops the run
    for deal, r in sorted(done):
        read_saved(game, plan, folder / table_file(deal, r), deal, r, plan.tables[r])
    try:
        for deal, r, seat_bots in plan.all_tables():
            path = folder / table_file(deal, r)
            if (deal, r) in done:
                log = read_saved(game, plan, path, deal, r, seat_bots)
            else:
                log = game.play_table(deal, list(seat_bots), table=r, **plan.options)
                data = (json.dumps(log.to_json_dict(), ensure_ascii=False, indent=1) + "\n").encode("utf-8")
                write_new(path, data)
                done.add((deal, r))
                played += 1
            ingest(path)
            results.append(judge_table(game, deal, r, seat_bots, log, path.name))
            if on_table is not None:
                on_table(deal, len(done))
    except KeyboardInterrupt:
        raise Interrupted(len(done), plan.total) from None
    finally:
        try:
            archive.refresh_ratings()
        except KeyboardInterrupt:
            pass
    return results, counts, played


@click.command("championship")
@click.option("--game", "game_name", required=True, metavar="GAME", help="The game (one with duplicate deals).")
@click.option("--bots", "bots", required=True, metavar="A,B,...", help="Comma-separated bots, each once.")
@click.option("--deals", type=int, required=True, metavar="N", help="How many deals (each played at every table of "
              f"the rotation; at most {MAX_TABLES:,} tables in all).")
@click.option("--first-deal", type=int, default=1, show_default=True, help="The first deal's number (deals are "
              "numbered on from it; the same number is the same cards).")
@click.option("--players", type=int, default=None, help="Seats at the table, for games with a variable number.")
@click.option("--out", "out_dir", type=click.Path(), default=None, metavar="DIR",
              help="Folder of the logs (default: a folder named after the game, here).")
@db_option
@json_option
@archive_errors
def championship_command(game_name: str, bots: str, deals: int, first_deal: int, players: int | None,
                         out_dir: str | None, db: str | None, as_json: bool) -> None:
    """Play every deal with every bot in every seat, save and ingest the logs, print the leaderboard.

    Each bot's plain score (mean result per table in the game's unit), win rate and duplicate
    score (its result minus the mean of its seat at the deal's tables), with 95% intervals.
    The same command again resumes: saved tables are not played again. Ctrl-C stops cleanly.
    """
    plan = make_plan(game_name, bots, deals, first_deal, players)
    if out_dir is not None and not out_dir.strip():
        raise UserError("--out names no folder (leave it out for a folder named after the game)")
    game = get_game(plan.game)
    folder = Path(out_dir if out_dir is not None else plan.game)
    check_db_url(db)  # before anything is written
    err = _console(stderr=True)
    try:
        prepare_folder(folder, plan)
        archive = _open(db)
        try:
            with Progress(TextColumn("playing"), BarColumn(), MofNCompleteColumn(),
                          TextColumn("tables, deal {task.fields[deal]}"), console=err, transient=True,
                          disable=as_json or not err.is_terminal) as progress:
                task = progress.add_task("tables", total=plan.total, completed=len(saved_tables(folder, plan)),
                                         deal=plan.first_deal)
                results, counts, played = play(plan, folder, archive,
                                               lambda deal, n: progress.update(task, completed=n, deal=deal))
        finally:
            archive.close()
    except (KeyboardInterrupt, Interrupted):
        done = len(saved_tables(folder, plan))
        click.echo(f"stopped: {done} of {plan.total} tables played; run the same command again to go on", err=True)
        sys.exit(EXIT_INTERRUPTED)
    champ = rank(plan, results)
    if as_json:
        click.echo(json.dumps({**champ.to_json(), "folder": str(folder), "played_now": played,
                               "ingest": counts}, ensure_ascii=False, indent=2))
        return
    out = _console(wide=True)
    board = champ.board
    title = (f"{game.title}: {plural(board.deals, 'deal')}, {plural(board.tables, 'table')} "
             f"({game.deal_unit or 'points'}, 95% intervals)")
    out.print(board_table(champ, title))
    click.echo(f"duplicate score: a seat's result minus that seat's mean at the deal's tables, "
               f"over {plural(board.duplicated_deals, 'deal')} played at {plural(len(plan.tables), 'table')} each")
    if champ.not_counted:
        click.echo(f"not counted: {plural(champ.not_counted, 'table')} the game gives no scores for")
    if champ.merged_keys:
        click.echo(f"note: {plural(champ.merged_keys, 'deal key')} stand for several deal numbers ({game.title}'s key "
                   "does not tell those deals apart): each deal number counts as a deal here, the archive's "
                   "stats count each key as one")
    if champ.split_deals:
        click.echo(f"warning: the tables of {plural(len(champ.split_deals), 'deal')} have different deal keys "
                   f"(deal {', '.join(map(str, champ.split_deals[:5]))})", err=True)
    stored = counts.get("stored", 0) + counts.get("stored_with_findings", 0)
    trouble = [f"{counts[s]} {s}" for s in ("quarantined", "rejected") if counts.get(s)]
    click.echo(f"{plural(played, 'table')} played now, {plural(plan.total, 'log')} in {folder}/; archive: "
               f"stored {stored}, already there {counts.get('duplicate', 0)}" + "".join(f", {t}" for t in trouble))


__all__ = ["MANIFEST", "MAX_TABLES", "Championship", "Plan", "TableResult", "WinRate", "championship_command",
           "judge_table", "make_plan", "parse_table_file", "play", "prepare_folder", "rank", "read_saved",
           "saved_tables", "table_file", "write_new"]
