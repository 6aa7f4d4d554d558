"""Nim bots and seeded self-play, logged through ``NimLogger`` as a real bot would.

>>> log = play_game(seed=3, bots=("greedy", "greedy"))
>>> log.format, log.heaps, len(log.events), log.end.winner
('nim/1', [5, 5], 6, 'P2')
"""

from __future__ import annotations

import random
from datetime import datetime, timezone
from functools import reduce
from operator import xor
from typing import Callable

from .engine import NimState
from .log import SEATS
from .logger import NimLogger

Bot = Callable[[NimState, random.Random], tuple[int, int]]


def random_bot(state: NimState, rng: random.Random) -> tuple[int, int]:
    """Any legal move."""
    return rng.choice(state.legal())


def greedy_bot(state: NimState, rng: random.Random) -> tuple[int, int]:
    """The winning move when there is one (leave a nim-sum of zero), else one object."""
    total = reduce(xor, state.heaps, 0)
    for heap, size in enumerate(state.heaps):
        if total and size ^ total < size:
            return heap, size - (size ^ total)
    return random_bot(state, rng)


BOTS: dict[str, Bot] = {"greedy": greedy_bot, "random": random_bot}


def play_game(seed: int, bots: tuple[str, str] = ("greedy", "random"), game_id: str | None = None,
              out_dir=None, chat: bool = False, interrupt_rate: float = 0.0):
    """A seeded game between two bots: its ``NimLog`` (saved into ``out_dir`` when given).

    With ``interrupt_rate``, that share of games stop early, ``abandoned`` (``selfplay``'s
    ``--interrupt-rate``)."""
    unknown = [b for b in bots if b not in BOTS]
    if unknown:
        raise ValueError(f"{', '.join(unknown)}: not a Nim bot (known: {', '.join(BOTS)})")
    rng = random.Random(seed)
    heaps = [rng.randint(1, 7) for _ in range(rng.randint(2, 4))]
    first = SEATS[rng.randrange(2)]
    logger = NimLogger(game_id=game_id or f"selfplay-nim-{bots[0]}-{bots[1]}-{seed}",
                       players={seat: {"name": f"{bot}-{i + 1}", "bot": bot} for i, (seat, bot) in enumerate(zip(SEATS, bots))},
                       out_dir=out_dir, clock=None,
                       started_at=datetime(2026, 1, 1, tzinfo=timezone.utc).replace(second=seed % 60))
    logger.setup(heaps, first)
    state = NimState(heaps, first)
    t = 0
    stop_after = rng.randint(0, sum(heaps) - 1) if interrupt_rate and rng.random() < interrupt_rate else None
    while not state.over:
        if stop_after is not None and state.moves >= stop_after:
            logger.end("abandoned", t=t + 100)
            return logger.to_log()
        seat = state.to_act
        heap, count = BOTS[bots[SEATS.index(seat)]](state, rng)
        t += rng.randint(200, 3000)
        logger.take(seat, heap, count, t=t)
        state.take(seat, heap, count, 0)
        if chat and rng.random() < 0.2:
            logger.chat("good move", seat=seat, t=t)
    logger.end("completed", winner=state.winner, t=t + 100)
    return logger.to_log()
