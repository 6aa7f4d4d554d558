"""How fast each game's rules engine judges complete games, and what reading a log costs.

    python bench/engine.py [--games 4000] [--game floating-bridge|uno-lite] [--rounds 5]
    python bench/engine.py --against 42bbf35 [--games 2000] [--rounds 5]   # bridge, beside that commit

For every registered game (or the one named), on the same seeded self-play games, one core:
- ``json.loads`` of the canonical log text: the baseline every other figure is a ratio of;
- reading: ``parse_log`` of the same text (JSON, validation, the game's model);
- judging: ``GAME.judge(log)`` (the engine plus findings and result: what ingest, ``validate``
  and the codec use), and the same plus every step's snapshot (what the viewer draws);
- parse + judge from text (what ingest and ``validate`` do per game).
Each figure is the median of ``--rounds`` runs. With ``--against REV``, floating bridge's judging
and reading are measured beside the code of commit ``REV`` (``bench/against.py``: both in
worker processes, rounds taken in turn) and printed with both medians and new/old ratios.
Targets: judging >= 2,000 complete games/s
on one core (issue 2); reading <= 3 times ``json.loads`` (issue 13).
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


def selfplay_logs(name: str, count: int) -> list:
    game = get(name)
    bots = list(game.bots)
    logs = []
    for seed in range(count):
        if name == "floating-bridge":
            logs.append(game.selfplay(seed, bots=(bots[seed % len(bots)],),
                                      rules="bridgebot" if seed % 4 < 2 else "all-tricks"))
        else:
            pair = (bots[seed % len(bots)], bots[(seed // len(bots)) % len(bots)])
            logs.append(game.selfplay(seed, bots=pair))
    return logs


def bench_game(name: str, count: int, rounds: int) -> dict[str, float]:
    game = get(name)
    logs = selfplay_logs(name, count)
    texts = [log.canonical_json() for log in logs]
    events = sum(len(log.events) for log in logs) / count
    size = sum(len(t.encode()) for t in texts) / count
    print(f"\n{game.title} ({name}): {count} self-play games, {events:.1f} events and {size:,.0f} bytes "
          f"of canonical JSON per game")
    rates = {
        "json.loads (baseline)": median_rate(lambda ts: [json.loads(t) for t in ts], texts, count, rounds),
        "read: parse_log(text)": median_rate(lambda ts: [parse_log(t) for t in ts], texts, count, rounds),
        "judge: GAME.judge(log)": median_rate(lambda ls: [game.judge(x) for x in ls], logs, count, rounds),
        "judge + every step": median_rate(lambda ls: [game.judge(x).steps_json() for x in ls], logs, count, rounds),
        "read + judge": median_rate(lambda ts: [game.judge(parse_log(t)) for t in ts], texts, count, rounds),
    }
    base = rates["json.loads (baseline)"]
    for label, rate in rates.items():
        print(f"  {label:<26} {rate:>10,.0f} games/s  {1e6 / rate:8.1f} µs/game  "
              f"{base / rate:5.2f}× json.loads")
    judged = rates["judge: GAME.judge(log)"]
    reading = base / rates["read: parse_log(text)"]
    print(f"  targets: judging >= 2,000 games/s: {judged:,.0f} ({'meets' if judged >= 2000 else 'MISSES'}); "
          f"reading <= 3.00× json.loads: {reading:.2f}× ({'meets' if reading <= 3 else 'misses'})")
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--game", choices=names(), action="append",
                        help="only these games (repeatable); default: every registered game")
    parser.add_argument("--against", metavar="REV",
                        help="floating bridge only, side by side with commit REV's code (e.g. 42bbf35)")
    args = parser.parse_args()
    if args.against:
        from against import print_engine

        print_engine(args.against, args.games, args.rounds)
        return
    try:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
        pinned = "pinned to one core"
    except (AttributeError, OSError):
        pinned = "not pinned"
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"Python {sys.version.split()[0]}, {pinned}, load average {load:.2f}, "
          f"median of {args.rounds} rounds")
    results = {name: bench_game(name, args.games, args.rounds) for name in (args.game or names())}
    if len(results) > 1:
        bridge = results.get("floating-bridge")
        if bridge:
            for name, rates in results.items():
                if name != "floating-bridge":
                    ratio = rates["judge: GAME.judge(log)"] / bridge["judge: GAME.judge(log)"]
                    print(f"\n{name} judging is {ratio:.2f}× floating bridge's rate in this run")


if __name__ == "__main__":
    main()
