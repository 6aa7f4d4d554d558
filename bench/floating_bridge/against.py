"""Floating bridge side by side with another revision's code: judging and reading (what
``bench/engine.py`` measures), or codes (what ``bench/codes.py`` measures).

    python bench/floating_bridge/against.py engine 42bbf35 [--games 2000] [--rounds 5]
    python bench/floating_bridge/against.py codes 42bbf35 [--games 2000] [--rounds 5]

The revision is written out with ``git archive REV | tar -x`` into a temporary folder (nothing
in the repository changes), and the same floating bridge measurement runs in two worker
processes (``against_worker.py`` beside this file), one with that folder first on ``sys.path``
and one with this checkout: the same seeded games, every measurement taken in turn (old, new,
old, new...), so both see the same load. Each figure is the median of its rounds; the ratio is
new/old.

Only what both revisions have is used: ``from replay import ...`` (the public API) and the
self-play bots and codec, found where each revision keeps them.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))  # bench/floating_bridge/ -> the repository
WORKER = os.path.join(HERE, "against_worker.py")
sys.path.insert(0, ROOT)

# reads version 1 and 2 codes: both revisions' codes are compared by their payloads
from replay.games.floating_bridge.codec.compact import read_payload  # noqa: E402


# --- the driver -----------------------------------------------------------------------------

def materialise(rev: str) -> str:
    """A temporary folder holding revision ``rev`` of this repository (``git archive``)."""
    folder = tempfile.mkdtemp(prefix="game-replay-" + rev.replace("/", "_")[:20] + "-")
    archive = subprocess.run(["git", "-C", ROOT, "archive", "--format=tar", rev, "replay"],
                             capture_output=True, check=False)
    if archive.returncode:
        shutil.rmtree(folder)
        raise SystemExit(f"revision {rev}: {archive.stderr.decode(errors='replace').strip()}")
    subprocess.run(["tar", "-x", "-C", folder], input=archive.stdout, check=True)
    return folder


class Worker:
    def __init__(self, root: str, kind: str, games: int):
        self.process = subprocess.Popen(
            [sys.executable, WORKER, root, kind, str(games)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=root)
        self.ready = self._answer()

    def _answer(self) -> dict:
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit(f"the worker in {self.process.args[2]} stopped (exit {self.process.wait()})")
        return json.loads(line)

    def measure(self, name: str) -> float:
        self.process.stdin.write(f"measure {name}\n")
        self.process.stdin.flush()
        return self._answer()[name]

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait()


MEASURES = {"engine": ("loads", "read", "judge"), "codes": ("encode", "decode")}


def side_by_side(rev: str, kind: str, games: int, rounds: int) -> dict:
    """Medians of both revisions' rounds and the new/old ratios. Every measurement is taken in
    turn, old then new then old..., so a change in the machine's load hits both sides alike."""
    folder = materialise(rev)
    try:
        old = Worker(folder, kind, games)
        new = Worker(ROOT, kind, games)
        seconds: dict[str, dict[str, list[float]]] = {"old": {}, "new": {}}
        for _ in range(rounds):
            for name in MEASURES[kind]:
                for side, worker in (("old", old), ("new", new)):
                    seconds[side].setdefault(name, []).append(worker.measure(name))
        old.close()
        new.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    medians = {}
    for side, by_name in seconds.items():
        m = {name: statistics.median(times) for name, times in by_name.items()}
        rates = {name: games / t for name, t in m.items()}
        if kind == "engine":
            rates["read_ratio"] = m["read"] / m["loads"]
        else:
            rates["both"] = games / (m["encode"] + m["decode"])
        medians[side] = rates
    return {"old": medians["old"], "new": medians["new"], "ready_old": old.ready, "ready_new": new.ready}


def print_engine(rev: str, games: int, rounds: int) -> None:
    load = os.getloadavg()[0]
    found = side_by_side(rev, "engine", games, rounds)
    old, new = found["old"], found["new"]
    print(f"\nfloating bridge beside {rev} ({games:,} seeded games, median of {rounds} rounds, each measurement taken in turn, "
          f"one core each, load average {load:.2f} at the start, {os.getloadavg()[0]:.2f} at the end)")
    print(f"  {'':<32} {'old':>12} {'new':>12} {'new/old':>8}")
    rows = [("judging: games/s", "judge", ",.0f"), ("reading: parse_log / json.loads", "read_ratio", ".2f"),
            ("reading: games/s", "read", ",.0f"), ("json.loads: games/s", "loads", ",.0f")]
    for label, key, fmt in rows:
        print(f"  {label:<32} {format(old[key], fmt):>12} {format(new[key], fmt):>12} {new[key] / old[key]:>8.3f}")


def print_codes(rev: str, games: int, rounds: int) -> None:
    load = os.getloadavg()[0]
    found = side_by_side(rev, "codes", games, rounds)
    old, new = found["old"], found["new"]
    old_codes, new_codes = found["ready_old"]["codes"], found["ready_new"]["codes"]
    old_len, new_len = found["ready_old"]["lengths"], found["ready_new"]["lengths"]
    same = sum(a == b for a, b in zip(old_codes, new_codes))
    same_payload = sum(read_payload(a) == read_payload(b) for a, b in zip(old_codes, new_codes))
    diffs = sorted({b - a for a, b in zip(old_len, new_len)})
    print(f"\nfloating bridge codes beside {rev} ({games:,} seeded games, median of {rounds} rounds, each "
          f"measurement taken in turn, one core each, load average {load:.2f} at the start, {os.getloadavg()[0]:.2f} at the end)")
    print(f"  code length: mean {statistics.fmean(old_len):.2f} (old) / {statistics.fmean(new_len):.2f} (new); "
          f"identical codes {same:,} of {games:,}, identical payloads (the game's integer, read by this "
          f"checkout's decoder) {same_payload:,} of {games:,}; new minus old length per game: "
          f"{', '.join(f'{d:+d}' for d in diffs)}")
    print(f"  {'':<32} {'old':>12} {'new':>12} {'new/old':>8}")
    for label, key in (("encode: games/s", "encode"), ("decode: games/s", "decode"), ("encode + decode: games/s", "both")):
        print(f"  {label:<32} {old[key]:>12,.0f} {new[key]:>12,.0f} {new[key] / old[key]:>8.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("kind", choices=tuple(MEASURES), help="engine: judging and reading; codes: encode and decode")
    parser.add_argument("rev", metavar="REV", help="the revision to measure beside this checkout (e.g. 42bbf35)")
    parser.add_argument("--games", type=int, default=2000, help="seeded games (default 2,000)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds per side (default 5)")
    args = parser.parse_args()
    if args.games < 1 or args.rounds < 1:
        parser.error("--games and --rounds must be at least 1")
    (print_engine if args.kind == "engine" else print_codes)(args.rev, args.games, args.rounds)


if __name__ == "__main__":
    main()
