"""Texas hold'em championship intervals: how much the all-in adjustment narrows them.

    python bench/holdem/intervals.py [--hands 3000] [--seed 0] [--rounds 1] [--players 6] [--json]

Self-plays ``--hands`` seeded 6-seat no-limit hands (10,000-chip stacks, blinds 50/100) between
the three bots (``tag``, ``call``, ``random``; seats rotate with the seed), judges them, and
prints each bot's big blinds per 100 hands with its 95% interval, raw and all-in adjusted
(``replay.games.holdem.championship``), and the width of the adjusted interval over the raw
one's, on the same hands. Each round plays the next ``--hands`` seeds; with several rounds the
spread of the round means (raw against adjusted) is printed too, an interval-free check of the
variance reduction. The command, the Python version and the load average are printed first.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", ".."))

from replay.games.holdem.bots import play_game  # noqa: E402
from replay.games.holdem import evaluator  # noqa: E402
from replay.games.holdem.championship import hand_result, leaderboard  # noqa: E402

BOTS = ("tag", "call", "random")


def one_round(first: int, hands: int, players: int) -> tuple[list, float, float, int]:
    """The hands' results, the seconds spent playing and judging, and the hands skipped."""
    results = []
    skipped = 0
    play = judge = 0.0
    for seed in range(first, first + hands):
        start = time.perf_counter()
        log = play_game(seed, bots=BOTS, players=players)
        middle = time.perf_counter()
        result = hand_result(log)
        judge += time.perf_counter() - middle
        play += middle - start
        if result is None:
            skipped += 1
        else:
            results.append(result)
    return results, play, judge, skipped


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=0, help="the first hand's seed")
    parser.add_argument("--rounds", type=int, default=1, help="rounds of --hands new hands each")
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = parser.parse_args(argv)
    print("$ python " + " ".join(["bench/holdem/intervals.py"] + (argv if argv is not None else sys.argv[1:])))
    path = "the C extension" if evaluator._native is not None else "pure Python (the C extension is not built)"
    print(f"Python {sys.version.split()[0]}, evaluator and equities: {path}, load average %.2f %.2f %.2f"
          % os.getloadavg())
    print(f"{args.rounds} round(s) of {args.hands} hands: {args.players} seats, 10,000-chip stacks, blinds 50/100, "
          f"bots {', '.join(BOTS)}\n")
    rounds = []
    for r in range(args.rounds):
        first = args.seed + r * args.hands
        results, play, judge, skipped = one_round(first, args.hands, args.players)
        board = leaderboard(results, skipped)
        rounds.append(board)
        print(f"round {r + 1}: seeds {first}..{first + args.hands - 1}; {board.all_in_hands} of {board.hands} hands "
              f"all-in before the river ({100 * board.all_in_hands / max(1, board.hands):.1f}%), {skipped} skipped; "
              f"played in {play:.1f} s, judged and adjusted in {judge:.1f} s")
        print(f"  {'bot':<10} {'hands':>6} {'raw bb/100':>18} {'adjusted bb/100':>18} {'width raw':>10} "
              f"{'width adj':>10} {'ratio':>6}")
        for s in board.standings:
            ratio = "-" if s.width_ratio is None else f"{s.width_ratio:.3f}"
            print(f"  {s.bot:<10} {s.hands:>6} {s.raw.text():>18} {s.adjusted.text():>18} {s.raw.width or 0:>10.1f} "
                  f"{s.adjusted.width or 0:>10.1f} {ratio:>6}")
        ratios = [s.width_ratio for s in board.standings if s.width_ratio is not None]
        if ratios:
            print(f"  width adjusted / raw: mean {statistics.fmean(ratios):.3f} over {len(ratios)} bots\n")
    if len(rounds) > 1:
        print("spread of the round means (sd of bb/100 across rounds), raw against adjusted:")
        for bot in sorted({s.bot for b in rounds for s in b.standings}):
            raw = [s.raw.mean for b in rounds for s in b.standings if s.bot == bot]
            adj = [s.adjusted.mean for b in rounds for s in b.standings if s.bot == bot]
            if len(raw) > 1:
                sr, sa = statistics.stdev(raw), statistics.stdev(adj)
                print(f"  {bot:<10} raw sd {sr:8.1f}  adjusted sd {sa:8.1f}  ratio {sa / sr if sr else math.nan:.3f}")
    if args.json:
        print(json.dumps([b.to_json() for b in rounds], indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
