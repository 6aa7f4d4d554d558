"""The worker of ``bench/floating_bridge/against.py``: runs inside either revision's code.

    python bench/floating_bridge/against_worker.py ROOT KIND GAMES

It puts ``ROOT`` (a checkout, or a revision written out by ``git archive``) first on
``sys.path`` and loads that revision's modules with ``importlib``: which code is imported is
decided at run time, and it must not be this checkout's (an ``import`` statement at the top
would load this checkout's ``replay`` before ``ROOT`` is on the path). Only what both revisions
have is used: ``from replay import parse_log`` (the public API) and the self-play bots and
codec, found where each revision keeps them.

It reads one command per line on stdin (``measure NAME``) and answers one JSON line each: the
seconds one pass over the corpus took. The driver takes every measurement in turn, old then new.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
import time


# --- the worker: runs inside either revision ------------------------------------------------

def _bridge(root: str):
    """(play_game, parse_log, encode, decode) of the code under ``root``."""
    sys.path.insert(0, root)
    parse_log = importlib.import_module("replay").parse_log
    try:
        bots = importlib.import_module("replay.games.floating_bridge.bots")
    except ImportError:  # releases before games became modules
        bots = importlib.import_module("replay.bots")
    codec = importlib.import_module("replay.codec")
    return bots.play_game, parse_log, codec.encode, codec.decode


def _corpus(play_game, games: int) -> list:
    """The seeded games bench/engine.py judges: both bots, both presets."""
    bots = ("greedy", "random")
    return [play_game(seed, bots[seed % 2], rules="bridgebot" if seed % 4 < 2 else "all-tricks")
            for seed in range(games)]


def _timed(func) -> float:
    start = time.perf_counter()
    func()
    return time.perf_counter() - start


def worker(root: str, kind: str, games: int) -> None:
    try:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    except (AttributeError, OSError):
        pass
    play_game, parse_log, encode, decode = _bridge(root)
    logs = _corpus(play_game, games)
    texts = [log.canonical_json() for log in logs]
    codes = [encode(log) for log in logs]
    fixed = {"lengths": [len(c) for c in codes], "codes": codes}
    print(json.dumps({"ready": True, **(fixed if kind == "codes" else {})}), flush=True)
    measures = {
        "engine": {
            "loads": lambda: [json.loads(t) for t in texts],
            "read": lambda: [parse_log(t) for t in texts],
            "judge": lambda: [log.replay() for log in logs],
        },
        "codes": {
            "encode": lambda: [encode(log) for log in logs],
            "decode": lambda: [decode(code) for code in codes],
        },
    }[kind]
    for line in sys.stdin:  # "measure NAME": the seconds one pass over the corpus takes
        command, _, name = line.strip().partition(" ")
        if command != "measure" or name not in measures:
            break
        print(json.dumps({name: _timed(measures[name])}), flush=True)


if __name__ == "__main__":
    worker(sys.argv[1], sys.argv[2], int(sys.argv[3]))
