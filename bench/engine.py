"""How fast the rules engine replays complete games, on one core.

    python bench/engine.py [--games 4000]

Prints games/s for three stages on the same seeded games, side by side:
- the engine alone (Game.push_* over the events, the inner loop every replay runs),
- GameReplay.from_log (the engine plus findings and result: what ingest, `validate` and the
  codec use),
- the same plus every step's snapshot (``GameReplay.steps``, built on first use: the viewer),
- parse + judge from canonical JSON text (what ingest and `validate` do per game).
The target in the replay library issue is >= 2,000 complete games/s on one core.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from replay.bots import play_game  # noqa: E402
from replay.engine import Game  # noqa: E402
from replay.game import GameReplay  # noqa: E402
from replay.log import BidEvent, PartnerEvent, PlayEvent, parse_log  # noqa: E402


def engine_only(logs) -> None:
    for log in logs:
        game = Game(log.hands.by_seat(), log.first_bidder, log.rules)
        game.check_deal()
        for event in log.events:
            if isinstance(event, PlayEvent):
                game.push_play(event.seat, event.card)
            elif isinstance(event, BidEvent):
                game.push_call(event.seat, event.bid)
            elif isinstance(event, PartnerEvent):
                game.push_partner(event.seat, event.card)


def timed(label: str, func, arg, games: int) -> float:
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        func(arg)
        best = min(best, time.perf_counter() - start)
    rate = games / best
    print(f"  {label:<38} {rate:>9,.0f} games/s   ({best * 1e6 / games:6.1f} µs/game)")
    return rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=4000)
    args = parser.parse_args()
    try:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
        pinned = "pinned to one core"
    except (AttributeError, OSError):
        pinned = "not pinned"
    logs = [play_game(seed, bot="greedy" if seed % 2 else "random",
                      rules="bridgebot" if seed % 4 < 2 else "all-tricks") for seed in range(args.games)]
    texts = [log.canonical_json() for log in logs]
    cards = sum(1 for log in logs for e in log.events if isinstance(e, PlayEvent))
    print(f"{args.games} complete self-play games (half greedy, half random; both presets), "
          f"{cards / args.games:.1f} cards played per game, {pinned}, Python {sys.version.split()[0]}")
    timed("engine alone (Game.push_*)", engine_only, logs, args.games)
    rate = timed("GameReplay.from_log (judged)", lambda ls: [GameReplay.from_log(x) for x in ls], logs, args.games)
    stepped = timed("GameReplay.from_log + every step", lambda ls: [GameReplay.from_log(x).steps for x in ls],
                    logs, args.games)
    full = timed("parse JSON + GameReplay (judged)", lambda ts: [parse_log(t).replay() for t in ts], texts, args.games)
    target = 2000
    print(f"target: >= {target:,} complete games/s; GameReplay.from_log: {rate:,.0f} "
          f"({'meets' if rate >= target else 'MISSES'} it); with every step's snapshot: {stepped:,.0f} "
          f"({'meets' if stepped >= target else 'misses'} it); parse + judge: {full:,.0f}")


if __name__ == "__main__":
    main()
