"""Texas hold'em equities: what a whole hand's equity chart costs (every step of the spectator
view of generated 6-seat hands), with the C loops and, as the baseline in the same run, the
pure-Python loops (and, if asked, pokerkit's ``calculate_equities``).

    python bench/holdem/equity.py                      # 100 hands, 5 rounds, 20 hands for the baseline
    python bench/holdem/equity.py --hands 300 --rounds 7 --baseline-hands 30 --pokerkit 1 --source bots

Hands (6 seats, 10,000 chips, 50/100 blinds): ``--source engine`` (the default) a seeded random
policy on the engine's legal actions (call or check most of the time, so that most hands see a
flop with several seats; fold a quarter of the time facing a bet; bet or raise one time in eight
to a legal size); ``--source bots`` the bots' ``play_game(seed)``. Each is replayed by
``HoldemReplay``; their spectator-view steps (``steps_json()``) are made before the clock starts. A hand's time is ``step_equities(steps)`` over all of its
steps (one computation per distinct position: every street, and again after each fold), in this
thread's CPU time (one core; other processes' load does not count; the wall time is printed too).
Each figure is the median over rounds of the median hand. Target (issue 26): <= 50 ms a hand.

``--pokerkit N`` also times pokerkit's ``calculate_equities`` on the first N hands' positions at
our accuracy (as many samples as our computation looked at deals), measured on at most
``--pokerkit-samples`` samples a position and scaled up linearly (its cost is per sample: about a
millisecond a sample six-handed, a minute or more a hand), so off by default.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", ".."))

from replay.games.holdem import evaluator  # noqa: E402
from replay.games.holdem.cards import cards_text  # noqa: E402
from replay.games.holdem.engine import HoldemState  # noqa: E402
from replay.games.holdem.equity import _seven_card_tables, equities, step_equities  # noqa: E402
from replay.games.holdem.log import parse  # noqa: E402
from replay.games.holdem.replay import HoldemReplay  # noqa: E402

SEATS, STACK, BLINDS = 6, 10000, [50, 100, 0, 0, 0, 0]


def engine_log(seed: int):
    """One hand of the random policy (module docstring) as a holdem/1 log."""
    rng = random.Random(seed)
    state, _ = HoldemState.from_setup("NT", [0] * SEATS, BLINDS, [STACK] * SEATS, min_bet=BLINDS[1])
    deck = rng.sample(range(52), 52)
    actions = []
    while not state.over:
        if state.to_act is None:
            kind, what = state.dealer_due
            if kind == "dh":
                text = f"d dh {what} {cards_text([deck.pop(), deck.pop()])}"
            else:
                text = f"d db {cards_text([deck.pop() for _ in range(what)])}"
        else:
            legal = state.legal()
            roll = rng.random()
            if legal.min_to is not None and roll < 0.125:
                text = f"{state.to_act} cbr {rng.randint(legal.min_to, min(legal.max_to, 4 * legal.min_to))}"
            elif legal.fold and legal.call and roll < 0.375:
                text = f"{state.to_act} f"
            else:
                text = f"{state.to_act} cc"
        if state.push_action(text, len(actions)):
            raise RuntimeError(f"the engine refused {text!r}")
        actions.append(text)
    return parse({"format": "holdem/1", "variant": "NT", "antes": [0] * SEATS, "blinds_or_straddles": BLINDS,
                  "min_bet": BLINDS[1], "starting_stacks": [STACK] * SEATS,
                  "events": [{"action": a} for a in actions],
                  "end": {"reason": "completed", "finishing_stacks": list(state.settle().stacks)}})


def spectator_steps(seed: int, source: str) -> list[dict]:
    if source == "bots":
        from replay.games.holdem.bots import play_game

        log = play_game(seed, players=SEATS, stacks=STACK, blinds=tuple(BLINDS[:2]))
    else:
        log = engine_log(seed)
    return HoldemReplay.from_log(log).steps_json()


def time_hands(hands: list[list[dict]], native: bool) -> tuple[list[float], list[float]]:
    """Per hand: (CPU seconds, wall seconds) of ``step_equities``."""
    cpu, wall = [], []
    for steps in hands:
        c0, w0 = time.thread_time(), time.perf_counter()
        step_equities(steps, native=native)
        cpu.append(time.thread_time() - c0)
        wall.append(time.perf_counter() - w0)
    return cpu, wall


def positions(steps: list[dict]) -> list[tuple]:
    """The distinct positions step_equities computes for a hand: (holes, board, dead, deals)."""
    from replay.games.holdem.cards import parse_cards

    seen, out = set(), []
    for step in steps:
        hole, folded = step["hole"], set(step["folded"])
        live = [s for s in hole if s not in folded]
        if step["kind"] == "setup" or len(live) < 2 or any(len(hole[s]) != 2 for s in live):
            continue
        holes = tuple(tuple(parse_cards("".join(hole[s]))) for s in live)
        board = tuple(parse_cards("".join(step["board"])))
        dead = tuple(c for s in hole if s in folded for c in parse_cards("".join(hole[s])))
        if (holes, board, dead) not in seen:
            seen.add((holes, board, dead))
            out.append((holes, board, dead, equities(holes, board, dead).samples))
    return out


def pokerkit_seconds(steps: list[dict], cap: int) -> tuple[float, int]:
    from pokerkit import Card, Deck, StandardHighHand, calculate_equities, parse_range

    from replay.games.holdem.cards import cards_text

    total, count = 0.0, 0
    for holes, board, dead, deals in positions(steps):
        deck = [c for c in Deck.STANDARD if repr(c) not in {cards_text([d]) for d in dead}]
        samples = min(deals, cap)
        c0 = time.thread_time()
        calculate_equities(tuple(parse_range(cards_text(h)) for h in holes), Card.parse(cards_text(board)),
                           2, 5, tuple(deck), (StandardHighHand,), sample_count=samples)
        total += (time.thread_time() - c0) * deals / samples
        count += 1
    return total, count


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--baseline-hands", type=int, default=20, help="hands timed with the pure-Python loops")
    parser.add_argument("--pokerkit", type=int, default=0, help="hands timed with pokerkit's calculate_equities")
    parser.add_argument("--pokerkit-samples", type=int, default=300)
    parser.add_argument("--source", choices=("engine", "bots"), default="engine")
    args = parser.parse_args(argv)
    print("$ python " + " ".join(["bench/holdem/equity.py"] + (sys.argv[1:] if argv is None else argv)))
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}, {os.cpu_count()} cores;"
          f" evaluator backend: {evaluator.BACKEND}")
    hands = [spectator_steps(seed, args.source) for seed in range(args.hands)]
    steps = [len(h) for h in hands]
    computed = [len(positions(h)) for h in hands]
    flops = sum(any(len(step["board"]) >= 3 for step in h) for h in hands)
    print(f"{args.hands} hands of 6 seats ({args.source}): {statistics.mean(steps):.1f} steps and "
          f"{statistics.mean(computed):.1f} equity computations a hand on average; {flops} see a flop")
    c0 = time.thread_time()
    _seven_card_tables()  # the pure-Python loops' tables, built once on first use: not a hand's cost
    print(f"pure-Python tables built in {1e3 * (time.thread_time() - c0):.0f} ms CPU (once, on first use)")
    rows = []
    if evaluator._native is not None:
        rows.append(("C loops", hands, True))
    else:
        print("the C extension is not built (python setup.py build_ext --inplace): no C figures")
    rows.append(("pure Python (baseline)", hands[:args.baseline_hands], False))
    results = {}
    for label, subset, native in rows:
        cpu_medians, wall_medians, cpu_means, worst = [], [], [], []
        for _ in range(args.rounds):
            cpu, wall = time_hands(subset, native)
            cpu_medians.append(statistics.median(cpu))
            wall_medians.append(statistics.median(wall))
            cpu_means.append(statistics.mean(cpu))
            worst.append(max(cpu))
        results[label] = (statistics.median(cpu_medians), len(subset))
        print(f"{label:24s} {len(subset):4d} hands x {args.rounds} rounds: median hand "
              f"{1e3 * statistics.median(cpu_medians):8.2f} ms CPU ({1e3 * statistics.median(wall_medians):.2f} ms wall),"
              f" mean {1e3 * statistics.median(cpu_means):.2f} ms, slowest {1e3 * statistics.median(worst):.2f} ms")
    if "C loops" in results:
        c = results["C loops"][0]
        py = results["pure Python (baseline)"][0]
        print(f"C loops: {py / c:.0f}x faster than pure Python; target <= 50 ms a hand: "
              f"{'met' if c <= 0.050 else 'NOT met'}")
    if args.pokerkit:
        total, count = 0.0, 0
        per_hand = []
        for steps_ in hands[:args.pokerkit]:
            seconds, n = pokerkit_seconds(steps_, args.pokerkit_samples)
            per_hand.append(seconds)
            total += seconds
            count += n
        print(f"pokerkit calculate_equities, {args.pokerkit} hands ({count} positions, one round, as many "
              f"samples as our deals, timed on at most {args.pokerkit_samples} a position and scaled): "
              f"median hand {1e3 * statistics.median(per_hand):.0f} ms CPU")


if __name__ == "__main__":
    main()
