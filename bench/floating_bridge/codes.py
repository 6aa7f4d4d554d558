"""Floating bridge's replay code figures: length against the information bound and the
original BridgeBot code, and speed (the game's own bench: ``bench/codes.py`` measures every
game's generic codes).

    python bench/floating_bridge/codes.py                 # 10,000 random-legal + 10,000 greedy games
    python bench/floating_bridge/codes.py --games 2000    # quicker
    python bench/floating_bridge/against.py codes 42bbf35 [--games 2000] [--rounds 5]   # beside that commit

For each corpus (seeded self-play games, bridgebot rules, as ``play_game(seed, bot)`` makes
them: completed and passed-out games) it prints, measured in the same run:
- the code length: mean, p99 and max, in characters;
- the information bound: the sum of log2 of each choice's option count (deal, first bidder,
  every call, partner card, every card), in base-62 characters, and the mean distance to it;
- the original BridgeBot code's length for the same games (57 + one letter per written call;
  games with a contract) and the mean ratio of the new length to it;
- encode and decode speed in games/s on one core: ``encode(GameLog)`` (which judges the game
  to pick the compact or the fallback form) and ``decode(code)`` (back to a ``GameLog``).
Then the longest code among adversarial games (long auctions, each hand a whole suit, NT,
all 13 tricks, some cancelled in the last trick).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, ROOT)

from replay.codec import decode, encode  # noqa: E402
from replay.games.floating_bridge.bots import play_game  # noqa: E402
from replay.games.floating_bridge.codec.measure import information_characters, legacy_length  # noqa: E402


def percentile(values: list[int], share: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def best_time(func, repeats: int = 3) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        func()
        best = min(best, time.perf_counter() - start)
    return best


def corpus_figures(bot: str, games: int) -> dict:
    logs = [play_game(seed, bot) for seed in range(games)]
    codes = [encode(log) for log in logs]
    lengths = [len(c) for c in codes]
    bounds = [information_characters(log) for log in logs]
    legacy = [(len(c), legacy_length(log)) for c, log in zip(codes, logs) if legacy_length(log)]
    encode_time = best_time(lambda: [encode(log) for log in logs])
    decode_time = best_time(lambda: [decode(code) for code in codes])
    return {
        "bot": bot, "games": games,
        "mean": statistics.fmean(lengths), "p99": percentile(lengths, 0.99), "max": max(lengths),
        "bound": statistics.fmean(bounds),
        "over": statistics.fmean(a - b for a, b in zip(lengths, bounds)),
        "legacy": statistics.fmean(b for _, b in legacy),
        "ratio": statistics.fmean(a / b for a, b in legacy),
        "encode": games / encode_time, "decode": games / decode_time,
        "both": games / (encode_time + decode_time),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10_000, help="games per corpus (default 10,000)")
    args = parser.parse_args()
    try:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
        pinned = "pinned to one core"
    except (AttributeError, OSError):
        pinned = "not pinned"
    print(f"{args.games:,} seeded games per corpus, bridgebot rules, {pinned}, Python {sys.version.split()[0]}, "
          f"load average {os.getloadavg()[0]:.2f}")
    header = (f"{'corpus':<8} {'mean':>6} {'p99':>4} {'max':>4} {'bound':>6} {'over':>5} "
              f"{'legacy':>7} {'ratio':>6} {'encode/s':>9} {'decode/s':>9} {'enc+dec/s':>9}")
    print(header)
    rows = [corpus_figures(bot, args.games) for bot in ("random", "greedy")]
    for r in rows:
        print(f"{r['bot']:<8} {r['mean']:>6.2f} {r['p99']:>4} {r['max']:>4} {r['bound']:>6.2f} {r['over']:>+5.2f} "
              f"{r['legacy']:>7.2f} {r['ratio']:>6.3f} {r['encode']:>9,.0f} {r['decode']:>9,.0f} {r['both']:>9,.0f}")
    print("(lengths in characters; bound = information bound in base-62 characters; over = mean code "
          "length minus bound; legacy = original BridgeBot code, ratio = mean new/legacy)")
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    try:
        from codec.games import adversarial_games  # type: ignore[import-not-found]
    except ImportError:
        adversarial_games = None
    if adversarial_games is not None:
        games = adversarial_games(240)
        lengths = [len(encode(log)) for log in games]
        print(f"adversarial games (long auctions, a whole suit per hand, NT, all tricks): "
              f"max {max(lengths)}, mean {statistics.fmean(lengths):.1f} characters (limit 57)")
    ok = all(r["mean"] <= 38 and r["over"] <= 3 and r["ratio"] <= 0.65 and r["both"] >= 2000 for r in rows)
    print("targets (mean <= 38, over <= 3, ratio <= 0.65, encode+decode >= 2,000 games/s): "
          + ("all met" if ok else "NOT all met"))




if __name__ == "__main__":
    main()
