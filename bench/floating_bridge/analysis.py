"""How fast the double-dummy solver is, beside DDS (endplay's solve_board) in the same run.

    python bench/floating_bridge/analysis.py [--deals 12] [--games 12] [--rounds 3] [--seed 1]

Pinned to one core. Prints, as medians over rounds:
- full 52-card deals, partner opposite (the positions DDS also plays): our card_values at the
  opening lead (every card's value) and endplay's solve_board (every card's value, its
  default), per deal, and the ratio of the median times ours / DDS (target <= 3); beside it
  the median of the per-deal ratios, the ratio of the summed times and the worst deal's, for
  a reader who counts "per deal" another way;
- whole-game analysis (every card of a bot game): seconds per game (target <= 2 s).
The table is emptied before each deal and each game, so no run profits from an earlier one.
Needs endplay (pip install -e '.[test]'). Run it on a quiet machine: it prints the load.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

# the repository's root (two folders up: bench/floating_bridge/), so that the checkout's
# replay package is the one measured
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

from replay.games.floating_bridge.bots import play_game  # noqa: E402
from replay.games.floating_bridge import solver  # noqa: E402
from replay.games.floating_bridge.analysis import analyse  # noqa: E402
from replay.games.floating_bridge.solver import Position  # noqa: E402

RANKS = "23456789TJQKA"


def pbn(hands) -> str:
    def text(mask):
        return ".".join("".join(RANKS[r] for r in range(12, -1, -1) if mask >> (13 * s + r) & 1)
                        for s in (3, 2, 1, 0))

    return "N:" + " ".join(text(h) for h in hands)


def deals(n: int, seed: int):
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        deck = list(range(52))
        rng.shuffle(deck)
        hands = tuple(sum(1 << c for c in deck[i * 13:(i + 1) * 13]) for i in range(4))
        trump = rng.choice([None, 0, 1, 2, 3])
        declarer = rng.randrange(4)
        leader = declarer if trump is None else (declarer + 1) & 3
        # trumps count as broken: DDS knows no trump-lead rule, and the same positions are
        # wanted on both sides
        out.append(Position(hands, trump, tuple(sorted((declarer, (declarer + 2) & 3))), leader,
                            (), True, False, True))
    return out


def load() -> str:
    return "load average %.2f %.2f %.2f" % os.getloadavg()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=12)
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    try:
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[-1]})
    except (AttributeError, OSError):
        pass
    from endplay.dds import solve_board
    from endplay.types import Deal, Denom, Player

    denoms = {None: Denom.nt, 0: Denom.clubs, 1: Denom.diamonds, 2: Denom.hearts, 3: Denom.spades}
    print(f"solver backend: {solver.BACKEND}; {load()}")
    positions = deals(args.deals, args.seed)
    dds_deals = []
    for p in positions:
        d = Deal.from_pbn(pbn(p.hands))
        d.trump = denoms[p.trump]
        d.first = Player(p.leader)
        dds_deals.append(d)

    ours_rounds, dds_rounds, worst_ratio, deal_ratio, sum_ratio = [], [], [], [], []
    for r in range(args.rounds):
        ours, theirs = [], []
        for p, d in zip(positions, dds_deals):
            solver.clear()
            t = time.perf_counter()
            values = solver.card_values(p)
            ours.append(time.perf_counter() - t)
            t = time.perf_counter()
            result = list(solve_board(d))
            theirs.append(time.perf_counter() - t)
            if r == 0:  # the answers agree (DDS counts the leader's side's tricks)
                mine = max(values.values()) if p.leader in p.declarer_side else 13 - min(values.values())
                assert mine == max(t for _, t in result), "solver and DDS disagree"
        ours_rounds.append(statistics.median(ours))
        dds_rounds.append(statistics.median(theirs))
        worst_ratio.append(max(a / b for a, b in zip(ours, theirs)))
        deal_ratio.append(statistics.median(a / b for a, b in zip(ours, theirs)))
        sum_ratio.append(sum(ours) / sum(theirs))
        print(f"  round {r + 1}: deal median ours {ours_rounds[-1] * 1e3:8.1f} ms, "
              f"DDS {dds_rounds[-1] * 1e3:6.1f} ms; totals ours {sum(ours):.2f} s, DDS {sum(theirs):.2f} s")
    ours_med, dds_med = statistics.median(ours_rounds), statistics.median(dds_rounds)
    print(f"full deal, every card's value: ours {ours_med * 1e3:.1f} ms, DDS {dds_med * 1e3:.1f} ms "
          f"per deal (medians of {args.deals} deals x {args.rounds} rounds): ratio {ours_med / dds_med:.2f} "
          f"(target <= 3)")
    print(f"  the same deals counted other ways (medians over rounds): median of the per-deal ratios "
          f"{statistics.median(deal_ratio):.2f}, summed times {statistics.median(sum_ratio):.2f}, "
          f"worst single deal {statistics.median(worst_ratio):.1f}")

    logs = [play_game(seed=args.seed + i) for i in range(args.games)]
    replays = [log.replay() for log in logs]
    replays = [r for r in replays if any(e.type == "play" for e in r.log.events)]
    game_rounds, worst = [], []
    for r in range(args.rounds):
        times = []
        for replay in replays:
            solver.clear()
            t = time.perf_counter()
            analyse(replay)
            times.append(time.perf_counter() - t)
        game_rounds.append(statistics.median(times))
        worst.append(max(times))
        print(f"  round {r + 1}: game median {game_rounds[-1]:.2f} s, slowest {worst[-1]:.2f} s")
    print(f"whole-game analysis (every card): {statistics.median(game_rounds):.2f} s per game median, "
          f"slowest {statistics.median(worst):.2f} s, over {len(replays)} bot games x {args.rounds} rounds "
          f"(target <= 2 s)")
    print(load())


if __name__ == "__main__":
    main()
