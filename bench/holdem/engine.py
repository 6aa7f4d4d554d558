"""How fast the hold'em engine judges hands: random six-seat no-limit hands, one core.

    python bench/holdem/engine.py [--hands 3000] [--rounds 5] [--seats 6]

Figures (hands a second, the best of ``--rounds`` runs, in this thread's CPU time so other
processes' load counts as little as it can: on a shared machine the median also shows):
- engine: ``HoldemState.from_setup``, every action pushed, ``settle``;
- replay: ``HoldemReplay.from_log`` on the ``holdem/1`` models (what ``judge`` does);
- steps: the same with every step's snapshot (what the viewer draws).
The corpus is frozen out of the garbage collector's way (``gc.freeze``) once built, as a reader
that takes one log at a time never holds thousands of log models.
Target: judging >= 5,000 six-seat no-limit hands a second (issue 26).
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", ".."))

from replay.games.holdem.cards import cards_text  # noqa: E402
from replay.games.holdem.engine import HoldemState  # noqa: E402
from replay.games.holdem.log import parse  # noqa: E402
from replay.games.holdem.replay import HoldemReplay  # noqa: E402


def random_hand(rng: random.Random, seats: int) -> dict:
    """A random legal hand: 50/100 blinds, stacks of 20 to 200 big blinds, random decisions
    (fold, call, min-raise, a random size, all-in), every seat left showing at the end."""
    stacks = [rng.randint(20, 200) * 100 for _ in range(seats)]
    setup = {"variant": "NT", "antes": [0] * seats, "blinds_or_straddles": [50, 100] + [0] * (seats - 2),
             "min_bet": 100, "starting_stacks": stacks}
    state, _ = HoldemState.from_setup("NT", setup["antes"], setup["blinds_or_straddles"], stacks, min_bet=100)
    deck = list(range(52))
    rng.shuffle(deck)
    actions = []
    while True:
        if state.over and state.active_count() > 1:
            pending = [i for i in range(state.n) if not state.folded[i] and not state.shown[i]]
            if pending:
                text = f"{state.seats[pending[0]]} sm -"
                state.push_action(text)
                actions.append(text)
                continue
        due = state.dealer_due
        if due is not None:
            count = 2 if due[0] == "dh" else due[1]
            text = (f"d dh {due[1]} " if due[0] == "dh" else "d db ") + cards_text([deck.pop() for _ in range(count)])
        elif state.to_act is not None:
            seat, legal = state.to_act, state.legal()
            r = rng.random()
            if legal.fold and r < 0.35:
                text = f"{seat} f"
            elif legal.min_to is not None and r > 0.8:
                to = rng.choice([legal.min_to, legal.max_to, rng.randint(legal.min_to, legal.max_to)])
                text = f"{seat} cbr {to}"
            else:
                text = f"{seat} cc"
        else:
            break
        state.push_action(text)
        actions.append(text)
    setup["actions"] = actions
    return setup


def judge_engine(hands: list[dict]) -> None:
    for h in hands:
        state, _ = HoldemState.from_setup(h["variant"], h["antes"], h["blinds_or_straddles"], h["starting_stacks"],
                                          min_bet=h["min_bet"])
        push = state.push_action
        for i, text in enumerate(h["actions"]):
            push(text, i)
        state.settle()


def judge_replay(logs: list) -> None:
    for log in logs:
        HoldemReplay.from_log(log)


def judge_steps(logs: list) -> None:
    for log in logs:
        HoldemReplay.from_log(log).steps


def rate(func, arg, count: int, rounds: int) -> str:
    times = []
    for _ in range(rounds):
        start = time.thread_time()
        func(arg)
        times.append(time.thread_time() - start)
    return f"{count / min(times):8,.0f} hands/s (median {count / statistics.median(times):,.0f})"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seats", type=int, default=6)
    args = parser.parse_args(argv)
    rng = random.Random(26)
    hands = [random_hand(rng, args.seats) for _ in range(args.hands)]
    logs = [parse({"format": "holdem/1", **{k: v for k, v in h.items() if k != "actions"},
                   "events": [{"action": a} for a in h["actions"]]}) for h in hands]
    # the corpus is built once and held: freeze it, so that Python's cyclic garbage collector does
    # not walk thousands of held log models again and again (ingest reads one log at a time)
    gc.collect()
    gc.freeze()
    actions = sum(len(h["actions"]) for h in hands) / len(hands)
    print(f"{args.hands} random {args.seats}-seat no-limit hands, {actions:.1f} actions a hand, one core (CPU time)")
    print(f"  engine (setup, push every action, settle): {rate(judge_engine, hands, len(hands), args.rounds)}")
    print(f"  HoldemReplay.from_log:                     {rate(judge_replay, logs, len(logs), args.rounds)}"
          "   (target >= 5,000)")
    print(f"  from_log + every step's snapshot:          {rate(judge_steps, logs, len(logs), max(1, args.rounds // 2))}")


if __name__ == "__main__":
    main()
