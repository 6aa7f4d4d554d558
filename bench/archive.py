"""The archive at scale (issue 13): ingest speed, bytes per game, memory, and every listing
filter and statistic at N games and at N/100, on SQLite and PostgreSQL, on real rows.

    python bench/archive.py --games 200000              # both backends; PostgreSQL started here
    python bench/archive.py --games 20000 --backend sqlite
    python bench/archive.py --games 20000 --backend postgresql --pg-url postgresql+psycopg://u@h/db

Everything is measured in one run, on the same logs:

1. logs: self-play games (the first registered game, floating bridge, and one in five of the
   second, UNO Lite: ``replay.games.names()``) saved as bots save them
   (one pretty-printed file each, in folders of 1,000), then copies of them with a new game id,
   new player names and a new start time, until there are N. Every row of the archive goes
   through the real ingest (``Archive.iter_ingest``, what ``game-replay ingest`` runs).
2. ingest: in a child process (so that its peak memory is its own), the N files into a fresh
   database, and beside it, in this run, the same work without an archive: read each file,
   judge it and make its replay code (on the first 10,000 files, just before and just after
   the ingest: the load of a shared machine moves). The target is ingest >= 0.8 of that in
   games per second (wall time); the CPU of the ingesting process and of its writer process
   (``archive/writer.py``) are printed beside it. Peak memory (max RSS of the ingesting process or its writer, the larger) at N files beside an
   ingest of N/20 files (SQLite).
3. bytes per game: the blobs (zstd with the trained dictionary) and the whole database.
4. listings and statistics: each filter the web, the API and the CLI offer, alone and combined
   (a game's filters taken from the facts, seats, finding kinds and rule presets it declares),
   as the web asks (listed games, 50 a page), timed ``--runs`` times at N and at N/100 (an
   archive of the first N/100 files, from N = 1,000; the two archives take turns, run by run):
   p50 and p99, and p99 at N over p99 at N/100. Targets: p99 <= 50 ms, ratio <= 2.
5. reading: ``parse_log(text)`` against ``json.loads`` of the same texts, every game, in CPU
   time, interleaved 20 logs at a time, median of the ratios (target <= 3).

The load average is printed at the start and the end: other processes on the machine show.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from sqlalchemy import create_engine, func, select, text  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402

from archive import Archive  # noqa: E402
from archive.models import Blob  # noqa: E402
from archive.pgserver import PostgresServer, find_bindir  # noqa: E402
from archive.records import replay_code  # noqa: E402
from engine import reading_ratio as engine_reading_ratio, selfplay_logs  # noqa: E402  (bench/engine.py)
from replay.games import get, names  # noqa: E402
from replay.log import parse_log, read_logs  # noqa: E402

FOLDER = 1000  # files per folder, as a bot saving by day would
#: the bots of the first game's games: the common one, and the one of every fourth game
BOT, RARE_BOT = "greedy", "random"


def corpus_games():
    """(main, minor): the first two registered games (floating bridge and UNO Lite): the main
    one plays four games in five, the minor one the fifth."""
    registered = names()
    return get(registered[0]), get(registered[1 % len(registered)])


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


# --- logs ------------------------------------------------------------------------------------

def make_logs(folder: Path, count: int) -> list[Path]:
    """``count`` log files in folders of ``FOLDER``: self-play games, then renamed copies.

    The main game's games: ``RARE_BOT`` in every fourth, ``BOT`` in the others, at every seat;
    its second rule preset in every third game (where it has presets); 5% of them interrupted.
    The minor game's: its bots paired in turn."""
    lead, minor = corpus_games()
    minor_bots = list(minor.bots)
    presets = lead.rule_presets
    bases = []
    for seed in range(min(count, 1000)):
        if seed % 5 == 4:
            log = minor.selfplay(seed, bots=(minor_bots[seed % len(minor_bots)],
                                             minor_bots[(seed // 2) % len(minor_bots)]))
        else:
            options = {"rules": presets[1] if seed % 3 == 0 else presets[0]} if len(presets) > 1 else {}
            log = lead.selfplay(seed, bots=(RARE_BOT if seed % 4 == 0 else BOT,), interrupt_rate=0.05, **options)
        bases.append(log.to_json_dict())
    done = folder / f".complete-{count}"
    if done.exists():  # written by an earlier run with the same --games (and --work)
        return sorted(p for p in folder.iterdir() if p.is_dir())
    # Player names: the first seat's player comes and goes as the archive grows (game i's is
    # player i // 200: 200 games each, in the first N/100 files as in all N, so that one
    # player's games is the same question of both archives); the other seats are guests from a
    # pool of max(200, N / 50) names (at least the 200 rows the web's statistics page shows)
    guests = max(200, count // 50)
    start = datetime(2025, 1, 1, tzinfo=timezone.utc)
    folders: list[Path] = []
    for i in range(count):
        if i % FOLDER == 0:
            folders.append(folder / f"{i // FOLDER:04d}")
            folders[-1].mkdir(parents=True, exist_ok=True)
        data = dict(bases[i % len(bases)])
        if i >= len(bases):
            data["game_id"] = f"copy-{i}"
            data["players"] = {seat: {**player, "name": f"player{i // 200:05d}" if n == 0
                                      else f"guest{(i * 7 + n) % guests:05d}"}
                               for n, (seat, player) in enumerate(data.get("players", {}).items())}
        data["started_at"] = (start + timedelta(minutes=5 * i + i % 7)).isoformat().replace("+00:00", "Z")
        path = folders[-1] / f"game-{i:07d}.json"
        path.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    done.touch()
    return folders


def floor_rate(folders: list[Path], limit: int) -> tuple[int, float, float]:
    """Read, judge and code ``limit`` files without an archive: (games, wall s, CPU s)."""
    wall, cpu, done = time.perf_counter(), time.process_time(), 0
    for folder in folders:
        for path in sorted(folder.iterdir()):
            if done >= limit:
                break
            (entry,) = read_logs(path.read_bytes(), str(path))
            replay_code(entry.log.replay())
            done += 1
    return done, time.perf_counter() - wall, time.process_time() - cpu


def ingest_child(url: str, folders: list[str]) -> dict:
    """Run in a child process: ingest the folders, report counts, times and peak memory."""
    archive = Archive(url, salt="bench")
    wall, cpu, before = time.perf_counter(), time.process_time(), os.times()
    counts: dict[str, int] = {}
    for _path, results in archive.iter_ingest(folders):
        for r in results:
            counts[r.status] = counts.get(r.status, 0) + 1
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    after = os.times()  # the writer process has ended (and been waited for) when the walk ends
    out = {"counts": counts, "wall": wall, "cpu": cpu,
           "writer_cpu": after.children_user + after.children_system - before.children_user - before.children_system,
           "maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
           "writer_maxrss_kb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}
    archive.close()
    return out


def ingest(url: str, folders: list[Path]) -> dict:
    child = subprocess.run([sys.executable, __file__, "--ingest-child", url, *map(str, folders)],
                           capture_output=True, text=True, cwd=ROOT)
    if child.returncode != 0:
        raise SystemExit(f"ingest failed: {child.stderr[-3000:]}")
    return json.loads(child.stdout.strip().splitlines()[-1])


def analyze(url: str) -> None:
    """PostgreSQL: VACUUM ANALYZE after the bulk load, as autovacuum would soon after it (planner
    statistics, and the visibility map that index-only scans need)."""
    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    if engine.dialect.name == "postgresql":
        with engine.connect() as conn:
            conn.exec_driver_sql("VACUUM ANALYZE")
    engine.dispose()


# --- sizes -----------------------------------------------------------------------------------

def sizes(url: str, games: int) -> tuple[float, float]:
    """(blob bytes, whole database bytes) per game."""
    engine = create_engine(url)
    with engine.connect() as conn:
        blobs = conn.execute(select(func.sum(func.length(Blob.data)))).scalar_one()
        if engine.dialect.name == "postgresql":
            whole = conn.execute(text("SELECT pg_database_size(current_database())")).scalar_one()
        else:
            conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
            path = url.split("///", 1)[1]
            whole = os.path.getsize(path)
    engine.dispose()
    return blobs / games, whole / games


# --- queries ---------------------------------------------------------------------------------

def player_name(archive) -> str:
    """P, the player the player filters ask for: the first named player of the newest game a
    greedy bot played (200 games in any archive of ``make_logs`` files from 1,200 on)."""
    player = archive.list(limit=1, bot=BOT).items[0].players
    return next(p["name"] for p in player.values() if p.get("name"))


class Declared:
    """The filters of the corpus's games, found in what they declare (``GameModule``): the main
    game's first column fact of text (floating bridge: contract), its first seat fact and first
    seat (declarer, N), its first other fact with listed values and the first of them (result,
    declarer), its finding kinds and its second rule preset (all-tricks); the minor game's first
    whole-number fact (UNO Lite: turns). A filter the games do not declare is left out."""

    def __init__(self) -> None:
        lead, minor = corpus_games()
        self.main, self.minor = lead.name, minor.name
        self.finding_kinds = tuple(lead.finding_kinds)
        self.text_fact = next((f.name for f in lead.facts if f.kind == "text" and f.column and not f.values), None)
        seat_fact = next((f for f in lead.facts if f.kind == "seat" and lead.seats), None)
        self.seat = (seat_fact.name, lead.seats[0]) if seat_fact else None
        valued = next((f for f in lead.facts if f.kind == "text" and f.values), None)
        self.valued = (valued.name, valued.values[0]) if valued else None
        self.preset = lead.rule_presets[1] if len(lead.rule_presets) > 1 else None
        self.number_fact = next((f.name for f in minor.facts if f.kind == "int"), None)


def choices(archive, declared: Declared) -> dict[str, str]:
    """What the filters that name a value ask each archive for, chosen the same way in both (the
    labels name the rule, so that sizes compare): P, the player (``player_name``); C, the most
    common value of the main game's text fact (``Declared``); E, the rarest end reason with a
    page (50) of games or more; K, the main game's finding kind fewest games have (none, with
    bots: the first such in its declared order); and the week before the newest game. A value
    with fewer matches than a page at N/100 (3NT had 14 at 2,000 games) would time a shorter
    page there, not the same question."""
    with archive.engine.connect() as conn:
        def tags(prefix: str) -> list[tuple[str, int]]:
            return [(k[len(prefix):], n) for k, n in conn.execute(text(
                "SELECT key, listed_games FROM counters WHERE kind = 'tag' AND key LIKE :p"), {"p": prefix + "%"})]
        common = (sorted(tags(f"fact:{declared.text_fact}="), key=lambda kn: (-kn[1], kn[0]))
                  if declared.text_fact else [])
        ends = (sorted((kn for kn in tags("end:") if kn[1] > 50), key=lambda kn: (kn[1], kn[0]))
                or sorted(tags("end:"), key=lambda kn: (-kn[1], kn[0])))  # a tiny archive: the commonest
        kinds = dict(tags("kind:"))
    rarest_kind = min(declared.finding_kinds, key=lambda k: kinds.get(k, 0), default="")
    newest = archive.list(limit=1).items[0].started_at
    return {"P": player_name(archive), "C": common[0][0] if common else "", "E": ends[0][0], "K": rarest_kind,
            "from": (newest - timedelta(days=7)).isoformat(), "to": newest.isoformat()}


def queries(chosen: dict[str, str], declared: Declared) -> list[tuple[str, str, dict]]:
    """(label, kind, arguments): every filter the web and API offer, alone and combined
    (``chosen``: each archive's own values, see ``choices``; the games' filters: ``Declared``)."""
    name = chosen["P"]
    web = {"listed": True, "limit": 50}
    lead, minor, number = declared.main, declared.minor, declared.number_fact
    game_filters = []
    if declared.finding_kinds:
        game_filters.append(("finding_kind=K (fewest games)", "list", {**web, "finding_kind": chosen["K"]}))
    game_filters.append(("from/to: the week before the newest game", "list",
                         {**web, "started_from": chosen["from"], "started_to": chosen["to"]}))
    if declared.preset:
        game_filters.append((f"rules={declared.preset}", "list", {**web, "rules": declared.preset}))
    if declared.text_fact and chosen["C"]:
        game_filters.append((f"{declared.text_fact}=C (fact: the most common)", "list",
                             {**web, "fact": f"{declared.text_fact}={chosen['C']}"}))
    if declared.seat and declared.valued:
        (seat_fact, seat), (valued, value) = declared.seat, declared.valued
        game_filters.append((f"{seat_fact}={seat} + {valued}={value}", "list", {**web, seat_fact: seat, valued: value}))
    game_filters.append(("end_reason=E (the rarest with 50 games)", "list", {**web, "end_reason": chosen["E"]}))
    if number:
        game_filters += [(f"{number}>=40 ({minor} fact range)", "list", {**web, "fact": f"{number}>=40"}),
                         (f"{number}>=40 + bot={BOT}", "list", {**web, "fact": f"{number}>=40", "bot": BOT})]
    return [
        ("newest 50, no filter", "list", web),
        (f"game={minor}", "list", {**web, "game": minor}),
        (f"bot={BOT} (in most games)", "list", {**web, "bot": BOT}),
        (f"bot={BOT}, CLI (listed or not)", "list", {"limit": 50, "bot": BOT}),
        (f"bot={RARE_BOT}-1 (exact version)", "list", {**web, "bot": f"{RARE_BOT}-1"}),
        ("player=P", "list", {**web, "player": name}),
        (f"bot={BOT} + player=P", "list", {**web, "bot": BOT, "player": name}),
        ("winner=P", "list", {**web, "winner": name}),
        ("has_findings=yes (few or none)", "list", {**web, "has_findings": True}),
        ("has_findings=no", "list", {**web, "has_findings": False}),
        *game_filters,
        ("player=*P* (wildcard)", "list", {**web, "player": f"*{name}*"}),
        (f"game={minor} + has_findings=yes", "list", {**web, "game": minor, "has_findings": True}),
        (f"game={lead}, oldest first", "list", {**web, "game": lead, "sort": "started_at"}),
        (f"page 40 by cursor (bot={BOT})", "deep", {**web, "bot": BOT}),
        ("recent (home page)", "recent", {}),
        ("count", "count", {}),
        ("stats by player (web, 200)", "stats", {"by": "player", "listed_only": True, "limit": 200}),
        ("stats by bot (web, 200)", "stats", {"by": "bot", "listed_only": True, "limit": 200}),
        ("stats for player P", "stats", {"by": "player", "listed_only": True, "name": name}),
    ]


def _prepared_calls(archive, chosen: dict[str, str], declared: Declared) -> dict[str, Any]:
    """Per query label, a function that asks it of ``archive`` and returns its match count."""
    calls = {}
    for label, kind, kw in queries(chosen, declared):
        kw = dict(kw)
        if kind == "deep":
            cursor = None
            for _ in range(39):
                cursor = archive.list(cursor=cursor, **kw).next_cursor
                if cursor is None:
                    break
            kw["cursor"] = cursor

        def call(kind=kind, kw=kw):
            if kind in ("list", "deep"):
                page = archive.list(**kw)
                return f"{page.total:,}{'' if page.total_exact else '+'}"
            if kind == "recent":
                return str(len(archive.recent()))
            if kind == "count":
                return f"{archive.count():,}"
            return f"{len(archive.stats(**kw))} rows"

        calls[label] = call
    return calls


def time_queries(urls: list[str], runs: int) -> tuple[list, list[dict], list[dict]]:
    """Every query on every archive in ``urls``, ``runs`` times, the archives taking turns run
    by run (the large archive's run, then the small one's, then the large one's again...): a
    shared machine's load drifts over minutes, and timing one archive after the other put the
    drift into the ratio (an unfiltered page, the same work at both sizes, once measured 2.04).
    Returns the queries asked and, per archive, ``{label: (matches, p50, p99)}`` and its choices."""
    declared = Declared()
    archives = [Archive(url, salt="bench") for url in urls]
    chosen = [choices(a, declared) for a in archives]
    calls = [_prepared_calls(a, c, declared) for a, c in zip(archives, chosen)]
    asked = queries(chosen[0], declared)
    out: list[dict] = [{} for _ in urls]
    for label, _, _ in asked:
        matches = [c[label]() for c in calls]  # warm
        times: list[list[float]] = [[] for _ in urls]
        for _ in range(runs):
            for i, c in enumerate(calls):
                started = time.perf_counter()
                c[label]()
                times[i].append((time.perf_counter() - started) * 1000)
        for i, t in enumerate(times):
            t.sort()
            # p99 by nearest rank: the ceil(0.99 n)-th fastest (of 100 runs the 99th, of 200 the 198th)
            out[i][label] = (matches[i], statistics.median(t), t[math.ceil(len(t) * 0.99) - 1])
    for a in archives:
        a.close()
    return asked, out, chosen


def reading_ratio(rounds: int = 9, count: int = 300, chunk: int = 20) -> dict[str, float]:
    """``parse_log(text)`` over ``json.loads(text)`` of the same texts, for every game, measured
    as ``bench/engine.py`` measures it (thread CPU time, ``chunk`` logs of each in turn, the
    median of every chunk's ratio over the ``rounds``; each log dropped once read)."""
    out = {}
    for name in names():
        texts = [log.canonical_json() for log in selfplay_logs(name, count)]
        parse_log(texts[0])  # the reading validator is built on first use
        out[name] = engine_reading_ratio(texts, rounds, chunk)[2]
    return out


# --- main ------------------------------------------------------------------------------------

def first_files(folders: list[Path], count: int) -> list[Path]:
    """The first ``count`` log files, in the order the ingest walks them."""
    out: list[Path] = []
    for folder in folders:
        out += sorted(p for p in folder.iterdir() if not p.name.startswith("."))[:count - len(out)]
        if len(out) >= count:
            break
    return out


def bench_backend(backend: str, make_url, folders: list[Path], n: int, runs: int, floor_limit: int) -> None:
    small_folders = first_files(folders, n // 100) if n >= 1000 else None
    print(f"\n## {backend}")
    full_url = make_url("full")
    # read + judge + encode alone, just before and just after the ingest, and the two summed:
    # on a shared machine the load moves, and a baseline measured minutes away measures it
    before = floor_rate(folders, floor_limit)
    result = ingest(full_url, folders)
    after = floor_rate(folders, floor_limit)
    games, f_wall, f_cpu = (before[0] + after[0], before[1] + after[1], before[2] + after[2])
    print(f"read + judge + encode alone, before / after the ingest: {before[0] / before[1]:,.0f} / "
          f"{after[0] / after[1]:,.0f} games/s wall, {before[0] / before[2]:,.0f} / {after[0] / after[2]:,.0f} CPU")
    stored = result["counts"].get("stored", 0) + result["counts"].get("stored_with_findings", 0)
    both_cpu = result["cpu"] + result["writer_cpu"]
    print(f"ingest: {stored:,} games stored ({result['counts']}) in {result['wall']:.0f} s: "
          f"{stored / result['wall']:,.0f} games/s wall; CPU {result['cpu']:.1f} s in the ingesting process "
          f"(reading, judging) + {result['writer_cpu']:.1f} s in its writer process (the database's work"
          f"{', SQLite in it' if backend == 'SQLite' else '; the PostgreSQL server not counted'}): "
          f"{stored / result['cpu']:,.0f} games/s of the ingesting process's CPU, {stored / both_cpu:,.0f} of both; "
          f"peak memory {result['maxrss_kb'] / 1024:,.0f} MB (ingesting) and {result['writer_maxrss_kb'] / 1024:,.0f} MB "
          "(writer)")
    print(f"read + judge + encode alone (first {games // 2:,} files, before and after): {games / f_wall:,.0f} games/s wall, "
          f"{games / f_cpu:,.0f} games/s CPU")
    print(f"ingest / (read + judge + encode): {(stored / result['wall']) / (games / f_wall):.2f} wall (target >= 0.8); "
          f"CPU: {(stored / result['cpu']) / (games / f_cpu):.2f} for the ingesting process, "
          f"{(stored / both_cpu) / (games / f_cpu):.2f} for both processes")
    if backend == "SQLite" and len(folders) >= 20:
        part = ingest(make_url("mem"), folders[:len(folders) // 20])
        peak, part_peak = (max(r["maxrss_kb"], r["writer_maxrss_kb"]) for r in (result, part))
        print(f"peak memory (the larger of the two processes): {peak / 1024:,.0f} MB at {n:,} files, "
              f"{part_peak / 1024:,.0f} MB at {len(folders) // 20 * FOLDER:,} files: "
              f"{peak / part_peak:.2f}x (target <= 1.2)")
    analyze(full_url)
    blob, whole = sizes(full_url, stored)
    print(f"bytes per game: blobs {blob:,.0f}, whole database {whole:,.0f}")
    print()
    small = small_name = None
    if small_folders is not None:
        small_url = make_url("small")
        ingest(small_url, small_folders)
        analyze(small_url)
        asked, (big, small), (name, small_name) = time_queries([full_url, small_url], runs)
    else:
        asked, (big,), (name,) = time_queries([full_url], runs)
    size_small = len(small_folders) if small_folders else 0
    declared = Declared()
    for label, rule in (("P", f"the first named player of the newest game a {BOT} bot played"),
                        ("C", f"the most common {declared.text_fact}"),
                        ("E", "the rarest end reason with over 50 games"),
                        ("K", f"the {declared.main} finding kind fewest games have")):
        print(f"{label} = {name[label]} at {n:,} games" + (f", {small_name[label]} at {size_small:,}" if small else "")
              + f" ({rule})")
    print(f"listings (listed games, 50 a page) and statistics, {runs} runs each: p50 / p99 in ms at "
          f"{n:,} games" + (f" and at {size_small:,} (the two archives in turns, run by run); "
                            f"ratio = p99 at {n:,} / p99 at {size_small:,}" if small else ""))
    print(f"{'':44s} {'matches':>9s} {'p50':>7s} {'p99':>7s}" + (f" {'small p50':>10s} {'small p99':>10s} {'ratio':>6s}"
                                                                   if small else ""))
    worst, worst_ratio = 0.0, 0.0
    for label, _, _ in asked:
        matches, p50, p99 = big[label]
        line = f"{label[:44]:44s} {matches:>9s} {p50:7.1f} {p99:7.1f}"
        worst = max(worst, p99)
        if small:
            _, s50, s99 = small[label]
            ratio = p99 / s99 if s99 else float("inf")
            worst_ratio = max(worst_ratio, ratio)
            line += f" {s50:10.1f} {s99:10.1f} {ratio:6.2f}"
        print(line)
    print(f"worst p99 {worst:.1f} ms (target <= 50)" + (f"; worst ratio {worst_ratio:.2f} (target <= 2)" if small else ""))


def main() -> None:
    if len(sys.argv) > 2 and sys.argv[1] == "--ingest-child":
        print(json.dumps(ingest_child(sys.argv[2], sys.argv[3:])))
        return
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--backend", choices=("sqlite", "postgresql", "both"), default="both")
    parser.add_argument("--pg-url", help="a PostgreSQL server to use (databases are created in it); "
                                         "default: start one here from Debian's binaries")
    parser.add_argument("--runs", type=int, default=100, help="timed runs of each query (default 100)")
    parser.add_argument("--work", help="folder for the logs and databases (default: a temporary one)")
    args = parser.parse_args()
    work = Path(args.work or tempfile.mkdtemp(prefix="bench-archive-"))
    work.mkdir(parents=True, exist_ok=True)
    print(f"# bench/archive.py --games {args.games:,} (python {sys.version.split()[0]}, {os.cpu_count()} CPUs, "
          f"{load()} at start)")
    started = time.perf_counter()
    folders = make_logs(work / "logs", args.games)
    print(f"{args.games:,} log files written in {time.perf_counter() - started:.0f} s")
    floor = 10_000  # files read, judged and coded alone, beside each backend's ingest
    ratios = reading_ratio()
    print("reading: parse_log(text) / json.loads, CPU time, interleaved by 20 logs, median over 9 rounds: "
          + ", ".join(f"{k} {v:.2f}x" for k, v in ratios.items()) + " (target <= 3)")
    if args.backend in ("sqlite", "both"):
        def make_sqlite_url(tag: str) -> str:
            for suffix in ("", "-wal", "-shm"):  # a fresh database, also when --work is used again
                (work / f"{tag}.db{suffix}").unlink(missing_ok=True)
            return f"sqlite:///{work / f'{tag}.db'}"

        bench_backend("SQLite", make_sqlite_url, folders, args.games, args.runs, floor)
    if args.backend in ("postgresql", "both"):
        server = None
        if args.pg_url:
            base = args.pg_url
        else:
            bindir = find_bindir()
            if bindir is None:
                raise SystemExit("PostgreSQL binaries not found: give --pg-url")
            server = PostgresServer(bindir)
            # as docs/deploy.md asks: shared_buffers holding the indexes (at 200,000 games the
            # database is 2 GB, its indexes about half), and checkpoints spaced for a bulk load
            settings = "-c shared_buffers=1GB -c max_wal_size=4GB"
            server.start(settings)
            print(f"PostgreSQL {bindir.parent.name}, started here with {settings} (fsync off: a benchmark)")
            base = server.url()
        try:
            import psycopg  # the postgres extra: only for this backend

            plain = make_url(base).set(drivername="postgresql")

            def make_pg_url(tag: str) -> str:
                name = f"bench_{tag}_{os.getpid()}"
                with psycopg.connect(plain.render_as_string(hide_password=False), autocommit=True) as conn:
                    conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
                    conn.execute(f'CREATE DATABASE "{name}"')
                return make_url(base).set(database=name).render_as_string(hide_password=False)

            bench_backend("PostgreSQL", make_pg_url, folders, args.games, args.runs, floor)
        finally:
            if server is not None:
                server.stop()
    print(f"\n# done in {time.perf_counter() - started:.0f} s, {load()} at the end")


if __name__ == "__main__":
    main()
