"""Study figures of every game, each beside a baseline measured in the same run.

    python bench/studies.py                 # 5 rounds, the median of each figure
    python bench/studies.py --rounds 7 --seed 3 --branches 8 --moves 12

For every registered game, one bot-played game (``selfplay(seed=...)``) becomes a study
(``replay.study``) with ``--branches`` what-if branches, each leaving a random step of the game
(or of an earlier branch) and continued with up to ``--moves`` legal moves chosen at random, and
a note on every tenth step. Figures, ratios first:

- **open**: reading the study's JSON and judging every line (``StudyGame.load`` then ``line()``
  of each), divided by judging the same lines' logs alone (``GAME.judge`` of each line's log,
  already parsed): what a study adds to the engine's own work (parsing, replaying each branch's
  prefix to check its moves are legal).
- **moves**: "try another move" (``StudyGame.moves`` on a line's step: the position rebuilt
  from the log, then the legal events with their words), divided by the engine listing the
  legal events of a position it already holds (``GAME.legal_events``).
- **size**: the study's compact JSON (as the archive keeps it, before compression) against the
  game log's compact JSON (``canonical_json``): the branches' moves and the notes on top of the
  game.

Each figure is the median of ``--rounds`` rounds; times are this process's CPU time.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from typing import Any, Callable

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from replay.games import get, names  # noqa: E402
from replay.study import StudyGame  # noqa: E402


def cpu(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.process_time()
    out = fn()
    return time.process_time() - start, out


def build(game_name: str, seed: int, branches: int, moves: int) -> StudyGame:
    """A study of one self-play game with random legal branches and notes."""
    game = get(game_name)
    rng = random.Random(seed)
    study = StudyGame.new(game.selfplay(seed=seed), title=f"bench {game_name}")
    tries = 0
    while len(study.study.branches) < branches and tries < branches * 20:
        tries += 1
        line_id = rng.choice(study.line_ids)
        line = study.line(line_id)
        step = rng.randint(line.at, line.last)
        options = study.moves(line_id, step)
        if not options:
            continue
        events = [rng.choice(options).event]
        before = study
        study, branch = before.with_branch(line_id, step, events)
        for _ in range(moves - 1):
            more = study.moves(branch, study.line(branch).last)
            if not more:
                break
            events.append(rng.choice(more).event)
            study, branch = before.with_branch(line_id, step, events)
    for step in range(0, study.line("main").last + 1, 10):
        study = study.with_note("main", step, comment=f"step {step}: *why*", glyph="!?")
    return study


def measure(game_name: str, study: StudyGame) -> dict[str, float]:
    game = get(game_name)
    text = study.export_json()
    logs = [study.line(line_id).log for line_id in study.line_ids]

    def open_all() -> None:
        fresh = StudyGame.load(text)
        for line_id in fresh.line_ids:
            fresh.line(line_id)

    t_open, _ = cpu(open_all)
    t_judge, _ = cpu(lambda: [game.judge(log).steps_json() for log in logs])
    # "try another move" at every tenth step of the main line, against the engine's own list
    main = study.line("main")
    steps = list(range(0, main.last, max(1, main.last // 10)))
    t_moves, _ = cpu(lambda: [study.moves("main", step) for step in steps])
    states = [study.position("main", step) for step in steps]
    t_legal, _ = cpu(lambda: [game.legal_events(state) for state in states if not state.over])
    return {"open": t_open, "judge": t_judge, "moves": t_moves / len(steps), "legal": t_legal / len(steps),
            "bytes": len(json.dumps(study.to_json(), ensure_ascii=False, separators=(",", ":")).encode()), "log": len(main.log.canonical_json().encode()),
            "lines": len(study.line_ids), "steps": sum(study.line(i).replay.step_count for i in study.line_ids)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--branches", type=int, default=8)
    parser.add_argument("--moves", type=int, default=12)
    args = parser.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.2f}; {args.rounds} rounds, median; CPU time")
    print(f"{'game':16} {'open/judge':>10} {'moves/legal':>11} {'size/log':>9}  {'open ms':>8} {'judge ms':>8} "
          f"{'moves ms':>8} {'lines':>5} {'steps':>6} {'KB':>6}")
    for game_name in names():
        study = build(game_name, args.seed, args.branches, args.moves)
        rounds = [measure(game_name, study) for _ in range(args.rounds)]
        med = {k: statistics.median(r[k] for r in rounds) for k in rounds[0]}
        print(f"{game_name:16} {med['open'] / med['judge']:10.2f} {med['moves'] / max(med['legal'], 1e-9):11.2f} "
              f"{med['bytes'] / med['log']:9.2f}  {med['open'] * 1000:8.1f} {med['judge'] * 1000:8.1f} "
              f"{med['moves'] * 1000:8.2f} {med['lines']:5.0f} {med['steps']:6.0f} {med['bytes'] / 1000:6.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
