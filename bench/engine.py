"""How fast each game's rules engine judges complete games, and what reading a log costs.

    python bench/engine.py [--games 4000] [--game NAME ...] [--rounds 5] [--reading-only]

For every registered game (or the one named), on the same seeded self-play games, one core:
- ``json.loads`` of the canonical log text: the baseline every other figure is a ratio of;
- reading: ``parse_log`` of the same text (JSON, validation, the game's model);
- judging: ``GAME.judge(log)`` (the engine plus findings and result: what ingest, ``validate``
  and the codec use) with every judgement kept, and one after another with each dropped (as
  ingest and ``validate`` judge), and the same plus every step's snapshot (what the viewer draws);
- parse + judge from text (what ingest and ``validate`` do per game).
Each figure is the median of ``--rounds`` runs. A game's judging beside an older commit's code is
that game's own bench (``bench/<its package>/against.py``).
Targets: judging >= 2,000 complete games/s
on one core (issue 2); reading <= 3 times ``json.loads`` (issue 13).

Reading and its baseline are timed as ingest reads: one log after another, each dropped once
read. They are taken in turn, 20 logs at a time (which goes first alternates), in this thread's
CPU time, so that both see the same caches and other processes' load does not count; the
ratio is the median of every chunk's ratio over the rounds. A second line
times ``parse_log`` keeping every log it read alive (as the earlier bench did): the models of
thousands of logs held at once make Python's cyclic garbage collector walk them again and
again, a cost of holding them (``json.loads`` output, dicts of plain values, is not tracked),
not of reading.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from replay.games import get, names  # noqa: E402
from replay.log import parse_log  # noqa: E402


def median_rate(func, arg, games: int, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        func(arg)
        times.append(time.perf_counter() - start)
    return games / statistics.median(times)


def reading_ratio(texts: list[str], rounds: int, chunk: int = 20) -> tuple[float, float, float]:
    """(json.loads games/s, parse_log games/s, median ratio), each log dropped once read.

    Timed in this thread's CPU time (what other processes on a shared machine take does not
    count), the two taken in turn chunk by chunk (``chunk`` logs; which goes first alternates),
    so that both see the same caches and the same clock; the ratio is the median of every
    chunk's over the rounds (bench/archive.py reads the same way)."""
    loads_total = read_total = 0.0
    ratios = []
    for _ in range(rounds):
        for start in range(0, len(texts), chunk):
            part = texts[start:start + chunk]
            spent = {}
            order = (json.loads, parse_log) if (start // chunk) % 2 else (parse_log, json.loads)
            for read in order:
                begun = time.thread_time()
                for text in part:
                    read(text)
                spent[read] = time.thread_time() - begun
            loads_total += spent[json.loads]
            read_total += spent[parse_log]
            if spent[json.loads] > 0:
                ratios.append(spent[parse_log] / spent[json.loads])
    done = len(texts) * rounds
    return done / loads_total, done / read_total, statistics.median(ratios)


def selfplay_logs(name: str, count: int) -> list:
    """Seeded self-play games of every bot: one bot name for all seats where the game's default
    names one (``GAME.default_bots``), else pairs of bots in turn; a game with rule presets
    plays its first two half the time each."""
    game = get(name)
    bots = list(game.bots)
    presets = game.rule_presets
    logs = []
    for seed in range(count):
        if len(game.default_bots) == 1:
            chosen: tuple[str, ...] = (bots[seed % len(bots)],)
        else:
            chosen = (bots[seed % len(bots)], bots[(seed // len(bots)) % len(bots)])
        options = {"rules": presets[0 if seed % 4 < 2 else 1 % len(presets)]} if presets else {}
        logs.append(game.selfplay(seed, bots=chosen, **options))
    return logs


def _judge_each(game, logs: list) -> None:
    """Judge one log after another, each judgement dropped once made: what ingest and
    ``validate`` do (the row above keeps every judgement alive, which makes the cyclic garbage
    collector walk thousands of them again and again)."""
    for log in logs:
        game.judge(log)


def bench_game(name: str, count: int, rounds: int, reading_only: bool = False) -> dict[str, float]:
    game = get(name)
    logs = selfplay_logs(name, count)
    texts = [log.canonical_json() for log in logs]
    events = sum(len(log.events) for log in logs) / count
    size = sum(len(t.encode()) for t in texts) / count
    print(f"\n{game.title} ({name}): {count} self-play games, {events:.1f} events and {size:,.0f} bytes "
          f"of canonical JSON per game")
    loads_rate, read_rate, reading = reading_ratio(texts, rounds)
    rates = {
        "json.loads (baseline)": loads_rate,
        "read: parse_log(text)": read_rate,
        "read, every log kept": median_rate(lambda ts: [parse_log(t) for t in ts], texts, count, rounds),
    }
    if not reading_only:
        rates.update({
            "judge: GAME.judge(log)": median_rate(lambda ls: [game.judge(x) for x in ls], logs, count, rounds),
            "judge, each one dropped": median_rate(lambda ls: _judge_each(game, ls), logs, count, rounds),
            "judge + every step": median_rate(lambda ls: [game.judge(x).steps_json() for x in ls], logs, count,
                                              rounds),
            "read + judge": median_rate(lambda ts: [game.judge(parse_log(t)) for t in ts], texts, count, rounds),
        })
    base = rates["json.loads (baseline)"]
    for label, rate in rates.items():
        print(f"  {label:<26} {rate:>10,.0f} games/s  {1e6 / rate:8.1f} µs/game  "
              f"{base / rate:5.2f}× json.loads")
    print(f"  reading / json.loads, thread CPU time, median of every 20-log chunk's ratio over {rounds} rounds: {reading:.2f}× "
          f"({'meets' if reading <= 3 else 'misses'} the target of 3.00×)")
    if reading_only:
        return rates
    judged = rates["judge: GAME.judge(log)"]
    print(f"  targets: judging >= 2,000 games/s: {judged:,.0f} kept, {rates['judge, each one dropped']:,.0f} dropped "
          f"({'meets' if judged >= 2000 else 'MISSES'}); "
          f"reading <= 3.00× json.loads: {reading:.2f}× ({'meets' if reading <= 3 else 'misses'})")
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--game", choices=names(), action="append",
                        help="only these games (repeatable); default: every registered game")
    parser.add_argument("--reading-only", action="store_true", help="only json.loads and reading, no judging")
    args = parser.parse_args()
    try:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
        pinned = "pinned to one core"
    except (AttributeError, OSError):
        pinned = "not pinned"
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"Python {sys.version.split()[0]}, {pinned}, load average {load:.2f}, "
          f"median of {args.rounds} rounds")
    results = {name: bench_game(name, args.games, args.rounds, args.reading_only) for name in (args.game or names())}
    end_load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"\nload average at the end: {end_load:.2f}")
    if len(results) > 1 and not args.reading_only:
        first = names()[0]
        if first in results:
            for name, rates in results.items():
                if name != first:
                    ratio = rates["judge: GAME.judge(log)"] / results[first]["judge: GAME.judge(log)"]
                    print(f"\n{name} judging is {ratio:.2f}× {get(first).title}'s rate in this run")


if __name__ == "__main__":
    main()
