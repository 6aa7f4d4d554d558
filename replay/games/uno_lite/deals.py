"""Duplicate deals for UNO Lite: a deal's key, each seat's points, and championship tables.

**The key** (``deal_key``) is the deal as the log tells it: the first player, each seat's seven
dealt cards (sorted: the order a hand was dealt in does not matter) and the starter. The order
of the draw pile is not logged (each ``draw`` names its card), so two logs of the same shuffled
deck have equal keys, and two logs with the same hands, starter and first player but another
draw pile have equal keys too: the key is the deal as logged.

**The score** (``deal_scores``, ``points``) is UNO's standard count made zero-sum: the winner
scores the pips (number values) left in the other hand, and the other seat loses the pips left
in its own hand. A game cut short (no winner) or with a fatal finding has none.

**A table** (``play_table``): the deck (the hands, the starter and the draw pile, including any
reshuffle) and the first player come from a generator seeded by the deal number alone, the bots'
choices, names and think times from one seeded by the deal and the table: every table of a deal
is dealt the same cards.

>>> from replay.games import get
>>> game = get("uno-lite")
>>> a = game.play_table(7, ["greedy", "random"], table=0)
>>> b = game.play_table(7, ["random", "greedy"], table=1)
>>> game.deal_key(a) == game.deal_key(b) != game.deal_key(game.play_table(8, ["greedy", "random"]))
True
>>> a.game_id, a.meta
('uno-lite-deal-7-table-0', {'championship': {'deal': 7, 'table': 0}})
>>> scores = game.deal_scores(game.judge(a)); sum(scores.values()), sorted(scores)
(0.0, ['P1', 'P2'])
"""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from ...duplicate import fingerprint
from .bots import play_game
from .cards import CARD_TEXT, NUMBER_OF
from .engine import SEATS
from .log import UnoLog

UNIT = "points"


def deal_key(log: UnoLog) -> str | None:
    """The deal's key: ``fingerprint("uno-lite", first player, {seat: sorted hand}, starter)``,
    cards as their canonical texts."""
    hands = {seat: sorted(CARD_TEXT[c] for c in cards) for seat, cards in zip(SEATS, log.hands.by_seat())}
    return fingerprint("uno-lite", log.first_player, hands, CARD_TEXT[log.starter])


def deal_scores(replay: Any) -> Mapping[str, float] | None:
    """The winner +pips left in the other hand, the other seat -pips left in its own hand; None
    for a game without a winner (cut short) or with a fatal finding."""
    if not replay.checked or replay.winner is None or replay.end_reason != "completed":
        return None
    left = {seat: sum(NUMBER_OF[c] for c in hand) for seat, hand in zip(SEATS, replay.steps[-1].hands)}
    winner = replay.winner
    return {seat: float(sum(left.values()) if seat == winner else -left[seat]) for seat in SEATS}


def table_seats(bots: Sequence[str], players: int | None = None, **options: Any) -> int:
    """UNO Lite has two seats, whatever the bots: ``players`` may only say 2."""
    if players is not None and players != len(SEATS):
        raise ValueError(f"UNO Lite has {len(SEATS)} seats, not {players}")
    return len(SEATS)


def deal_rng(deal: int) -> random.Random:
    return random.Random(f"uno-lite/deal/{deal}")


def table_rng(deal: int, table: int) -> random.Random:
    return random.Random(f"uno-lite/deal/{deal}/table/{table}")


def play_table(deal: int, bots: Sequence[str], table: int = 0, **options: Any) -> UnoLog:
    """Deal number ``deal`` played by ``bots[0]`` as P1 and ``bots[1]`` as P2 (one bot named
    plays both); options as ``play_game``'s (``players`` may say 2)."""
    bots = tuple(bots)
    if len(bots) == 1:
        bots = bots * 2
    table_seats(bots, options.pop("players", None))
    options.setdefault("game_id", f"uno-lite-deal-{deal}-table-{table}")
    return play_game(deal, bots=bots, rng=table_rng(deal, table), deal_rng=deal_rng(deal),
                     meta={"championship": {"deal": deal, "table": table}}, **options)
