"""Archive figures: ingest speed, stored bytes per game, listing time at 100,000 games.

    python bench/archive.py                 # 2,000 self-play logs, listing at 100,000 games
    python bench/archive.py --games 500 --listing-games 20000   # quicker

Everything is measured in one run on the same logs, into a fresh SQLite file:

1. ingest: ``Archive.ingest_paths`` over one file per game (GameLogger's layout), each game
   parsed, judged by the rules engine (validation), compressed and committed in its own
   transaction; one thread (``--pin`` also pins it to one CPU). Wall time and CPU time are
   both printed: on a busy machine the CPU figure is the one to compare.
2. bytes per game: the raw JSON files, each file by ``gzip -9``, each file by zstd -19
   without a dictionary, and the archive's blobs (zstd with the dictionary it trained on these
   logs); also the whole SQLite file per game (indexes, index rows and dictionary included).
3. listing: the archive is grown to 100,000 games by bulk-inserting synthetic index rows
   (copies of the ingested games' rows with other players, dates, rules, results and findings,
   sharing their raw blobs: the listing reads index rows only), then filtered, paginated
   listings of 50 games are timed (median and worst of 20 runs, and median CPU time; the count
   of matches is included, exact up to 1,000).
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def make_logs(folder: Path, count: int) -> list[Path]:
    from replay.bots import play_game

    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for seed in range(count):
        log = play_game(seed, bot="random" if seed % 4 == 0 else "greedy",
                        rules="all-tricks" if seed % 5 == 0 else "bridgebot", interrupt_rate=0.05)
        text = json.dumps(log.to_json_dict(), ensure_ascii=False, indent=1) + "\n"  # save_log's layout
        path = folder / f"game-{seed:06d}.json"
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    return paths


def bench_judging_only(paths: list[Path]) -> tuple[float, float]:
    """The library's share of ingest: read, parse, judge and code each log, store nothing."""
    from archive.store import replay_code
    from replay.log import read_logs

    wall = time.perf_counter()
    cpu = time.process_time()
    for path in paths:
        (entry,) = read_logs(path.read_bytes(), str(path))
        replay_code(entry.log.replay())
    return time.perf_counter() - wall, time.process_time() - cpu


def bench_ingest(db_path: Path, paths: list[Path]) -> tuple["Archive", float, float]:
    from archive import Archive

    archive = Archive(f"sqlite:///{db_path}", salt="bench")
    wall = time.perf_counter()
    cpu = time.process_time()
    results = archive.ingest_paths([str(p) for p in paths])
    cpu = time.process_time() - cpu
    wall = time.perf_counter() - wall
    stored = sum(r.status in ("stored", "stored_with_findings") for r in results)
    assert stored == len(paths), f"only {stored} of {len(paths)} stored"
    return archive, wall, cpu


def bytes_per_game(archive, paths: list[Path], db_path: Path) -> dict[str, float]:
    import zstandard
    from sqlalchemy import func, select

    from archive.models import Blob

    raws = [p.read_bytes() for p in paths]
    n = len(raws)
    z19 = zstandard.ZstdCompressor(level=19)
    with archive.engine.connect() as conn:
        blob_bytes, raw_bytes = conn.execute(select(func.sum(func.length(Blob.data)), func.sum(Blob.size))).one()
    archive.engine.dispose()
    with archive.engine.connect() as conn:  # fold the WAL into the file before measuring it
        conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    return {
        "raw JSON": sum(map(len, raws)) / n,
        "gzip -9": sum(len(gzip.compress(r, 9)) for r in raws) / n,
        "zstd -19, no dictionary": sum(len(z19.compress(r)) for r in raws) / n,
        "archive blobs (zstd + trained dictionary)": blob_bytes / n,
        "whole SQLite file (blobs, index rows, indexes, dictionary)": db_path.stat().st_size / n,
        "_raw_check": raw_bytes / n,
    }


def grow_to(archive, total: int, seed: int = 1) -> int:
    """Bulk-insert synthetic index rows until the archive holds ``total`` games; returns how many."""
    from sqlalchemy import func, insert, select

    from archive.models import Game, GameFinding, GamePlayer
    from archive.store import bot_base

    rng = random.Random(seed)
    with archive.engine.connect() as conn:
        have = conn.execute(select(func.count()).select_from(Game)).scalar_one()
        templates = [dict(r._mapping) for r in conn.execute(select(Game.__table__))]
    names = [f"player{i:03d}" for i in range(300)]
    bots = ["greedy-1", "greedy-2", "random-1", "bridgebot-2.1", None, None]
    kinds = ["revoke", "card_not_in_hand", "trick_winner_mismatch", "out_of_turn", "end_mismatch"]
    start = datetime(2025, 1, 1)
    added = 0
    next_id = have + 1
    with archive.engine.begin() as conn:
        while have + added < total:
            games, players, findings = [], [], []
            for _ in range(min(5000, total - have - added)):
                row = dict(rng.choice(templates))
                row["id"] = next_id
                row["canonical_sha256"] = f"{next_id:064x}"
                row["started_at"] = start + timedelta(seconds=rng.randrange(2 * 365 * 86400))
                row["ingested_at"] = row["started_at"] + timedelta(seconds=rng.randrange(3600))
                row["rules"] = rng.choice(["bridgebot", "bridgebot", "bridgebot", "all-tricks"])
                row["game_id"] = f"synthetic/{next_id}"
                row["code"] = None
                row["source"] = "synthetic"
                row["result"] = rng.choice([row["result"], "declarer", "defenders"])
                nf = rng.choice([0, 0, 0, 0, 0, 0, 1, 2])
                row["findings"] = nf
                fk = sorted({rng.choice(kinds) for _ in range(nf)})
                row["finding_kinds"] = ",".join(fk)
                seats = {}
                for seat in "NESW":
                    name = rng.choice(names)
                    bot = rng.choice(bots)
                    seats[seat] = {"name": name, **({"bot": bot} if bot else {})}
                    players.append({"game_id": next_id, "seat": seat, "name": name, "name_lc": name,
                                    "player_id": None, "player_id_lc": None, "bot": bot,
                                    "bot_lc": bot, "bot_base_lc": bot_base(bot) if bot else None})
                row["players"] = json.dumps(seats)
                for i in range(nf):
                    findings.append({"game_id": next_id, "number": i, "kind": fk[i % len(fk)],
                                     "seat": rng.choice("NESW")})
                games.append(row)
                next_id += 1
            conn.execute(insert(Game.__table__), games)
            conn.execute(insert(GamePlayer.__table__), players)
            if findings:
                conn.execute(insert(GameFinding.__table__), findings)
            added += len(games)
    with archive.engine.connect() as conn:
        conn.exec_driver_sql("ANALYZE")
        conn.commit()
    return added


def bench_listing(archive, runs: int = 20) -> list[tuple[str, int, float, float]]:
    queries = [
        ("newest 50 (no filter)", {}),
        ("rules=bridgebot, no findings, page 11", {"rules": "bridgebot", "has_findings": False, "offset": 500}),
        ("player=player017", {"player": "player017"}),
        ("player=player01* (prefix, ~13% of games)", {"player": "player01*"}),
        ("player=player0* (prefix, ~80% of games)", {"player": "player0*"}),
        ("bot=random, result=declarer", {"bot": "random", "result": "declarer"}),
        ("finding_kind=revoke, sort -findings", {"finding_kind": "revoke", "sort": "-findings"}),
        ("contract=1S, declarer=N, 2025-06..2025-09", {"contract": "1S", "declarer": "N",
                                                       "started_from": "2025-06-01", "started_to": "2025-09-01"}),
        ("end_reason=cancelled, oldest first", {"end_reason": "cancelled", "sort": "started_at"}),
    ]
    out = []
    for label, kw in queries:
        kw = {"limit": 50, **kw}
        archive.list(**kw)  # warm the page cache
        times, cpu_times = [], []
        for _ in range(runs):
            t, c = time.perf_counter(), time.process_time()
            page = archive.list(**kw)
            times.append((time.perf_counter() - t) * 1000)
            cpu_times.append((time.process_time() - c) * 1000)
        total = f"{page.total:,}" + ("" if page.total_exact else "+")
        out.append((label, total, statistics.median(times), max(times), statistics.median(cpu_times)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="self-play logs to ingest (default 2000)")
    parser.add_argument("--listing-games", type=int, default=100_000, help="archive size for the listing")
    parser.add_argument("--keep", metavar="DIR", help="work in DIR and keep it (default: a temporary folder)")
    parser.add_argument("--pin", action="store_true",
                        help="pin the process to one CPU (ingest is single-threaded either way)")
    args = parser.parse_args()
    if args.pin and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bench-archive-"))
    work.mkdir(parents=True, exist_ok=True)
    db_path = work / "bench.db"
    for suffix in ("", "-wal", "-shm"):
        Path(str(db_path) + suffix).unlink(missing_ok=True)

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"# bench/archive.py: {args.games} self-play logs, SQLite, one thread{' pinned to one CPU' if args.pin else ''} "
          f"(python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {load:.1f} at start)")
    paths = make_logs(work / "logs", args.games)
    floor_wall, floor_cpu = bench_judging_only(paths)
    archive, wall, cpu = bench_ingest(db_path, paths)
    print("\n## ingest (parse + rules engine + replay code + compress + one transaction per game)")
    print(f"games/s (wall):  {len(paths) / wall:8.0f}   ({wall:.2f} s for {len(paths)} games)")
    print(f"games/s (CPU):   {len(paths) / cpu:8.0f}   ({cpu:.2f} s CPU)   target >= 500")
    print(f"beside it, the same logs only read, judged and coded (no archive): "
          f"{len(paths) / floor_wall:.0f} games/s wall, {len(paths) / floor_cpu:.0f} games/s CPU")

    sizes = bytes_per_game(archive, paths, db_path)
    raw = sizes.pop("raw JSON")
    sizes.pop("_raw_check")
    print("\n## stored bytes per game (same logs, same run)")
    print(f"{'raw JSON':60s} {raw:8.0f}   1/1")
    for label, value in sizes.items():
        print(f"{label:60s} {value:8.0f}   1/{raw / value:.1f}")
    print("target: archive blobs <= 1/8 of raw JSON")

    from archive import Archive

    archive = Archive(f"sqlite:///{db_path}", salt="bench")
    added = grow_to(archive, args.listing_games)
    print(f"\n## filtered listing of 50 games out of {archive.count():,}")
    print(f"({added:,} synthetic index rows bulk-inserted: copies of the {len(paths)} ingested games' rows with "
          "other players, dates, rules, results and findings)")
    for label, total, median, worst, cpu in bench_listing(archive):
        print(f"{label:45s} matches {total:>8s}   median {median:6.1f} ms   worst {worst:6.1f} ms   "
              f"CPU {cpu:6.1f} ms")
    from archive.store import COUNT_CAP

    print(f"target: <= 50 ms ('+': the count stops at {COUNT_CAP:,}; Archive.list(exact_total=True) counts all)")
    archive.close()


if __name__ == "__main__":
    main()
