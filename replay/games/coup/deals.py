"""Duplicate deals for Coup: a deal's key, each seat's championship score, and championship tables.

**The key** (``deal_key``) is the deck as dealt: the seats in table order, each seat's two dealt
cards (sorted: the order within a hand does not matter) and the first player. It is None when
the log does not tell the whole deal: a hand of other than two cards, or a CoupBots Root log
(``root_log``) that does not hold every player's first ``DECK`` from before play began, or no
``TURN`` to say who moved first (the reader marks such a log's ``meta["deal_unknown"]``). A Root
log that does hold them has the key of the equivalent ``coup/1`` log, so Root logs group by deal
when their deck is known.

**The score** (``deal_scores``, ``score``) is the zero-sum championship score of
``archive/ratings.py``: the winner +1, each other seat -1/(n-1). A game without a winner (cut
short) or with a fatal finding has none.

**A table** (``play_table``): the deck (the deal and every shuffle of the deck during play) and
the first player come from a generator seeded by the deal number alone; the bots' choices and
think times from one seeded by the deal and the table.

>>> from replay.games import get
>>> game = get("coup")
>>> a = game.play_table(3, ["honest", "bluffer", "random"], table=0)
>>> b = game.play_table(3, ["bluffer", "random", "honest"], table=1)
>>> game.deal_key(a) == game.deal_key(b) != game.deal_key(game.play_table(4, ["honest", "bluffer", "random"]))
True
>>> a.game_id, a.meta
('coup-deal-3-table-0', {'championship': {'deal': 3, 'table': 0}})
>>> sorted(game.deal_scores(game.judge(a)).values())
[-0.5, -0.5, 1.0]
"""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from ...duplicate import fingerprint
from .bots import play_game
from .cards import CARD_TEXT
from .log import MAX_SEATS, MIN_SEATS, CoupLog

UNIT = "score"
HAND = 2


def deal_key(log: CoupLog) -> str | None:
    """``fingerprint("coup", seats in order, {seat: its two dealt cards sorted}, first player)``;
    None when a dealt card or the first player is not known."""
    meta = log.meta if isinstance(log.meta, dict) else {}
    if meta.get("deal_unknown"):
        return None
    seats = list(log.seat_order)
    hands = {}
    for seat in seats:
        cards = log.hands.get(seat)
        if cards is None or len(cards) != HAND:
            return None
        hands[seat] = sorted(CARD_TEXT[c] for c in cards)
    return fingerprint("coup", seats, hands, log.first_player)


def deal_scores(replay: Any) -> Mapping[str, float] | None:
    """The winner +1, each other seat -1/(n-1); None without a winner or after a fatal finding."""
    if not replay.checked or replay.winner is None:
        return None
    seats = replay.log.seat_order
    loss = -1.0 / (len(seats) - 1)
    return {seat: 1.0 if seat == replay.winner else loss for seat in seats}


def table_seats(bots: Sequence[str], players: int | None = None, **options: Any) -> int:
    """``players`` if given (2 to 6), else one seat per bot within Coup's 2 to 6."""
    if players is not None:
        if not MIN_SEATS <= players <= MAX_SEATS:
            raise ValueError(f"Coup has {MIN_SEATS} to {MAX_SEATS} seats, not {players}")
        return players
    return min(max(len(bots), MIN_SEATS), MAX_SEATS)


def deal_rng(deal: int) -> random.Random:
    return random.Random(f"coup/deal/{deal}")


def table_rng(deal: int, table: int) -> random.Random:
    return random.Random(f"coup/deal/{deal}/table/{table}")


def play_table(deal: int, bots: Sequence[str], table: int = 0, **options: Any) -> CoupLog:
    """Deal number ``deal`` with ``bots[i]`` in seat ``i + 1`` (``bots[i % len(bots)]`` when the
    table has more seats than bots); options as ``play_game``'s (``players``...)."""
    bots = tuple(bots)
    players = table_seats(bots, options.pop("players", None))
    options.setdefault("game_id", f"coup-deal-{deal}-table-{table}")
    return play_game(deal, bots=bots, players=players, rng=table_rng(deal, table), deal_rng=deal_rng(deal),
                     meta={"championship": {"deal": deal, "table": table}}, **options)
