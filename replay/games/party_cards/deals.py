"""Duplicate deals for party cards: a deal's key, each seat's points, and championship tables.

**The key** (``deal_key``) is the card order as the log tells it: each seat's dealt hand (its
cards' ids and texts, sorted), the first czar, the first round's question id, and the score
limit (the points a seat plays to: with another limit the same cards are another game). The
decks' order beyond that is not logged (each draw names its cards): the key is the deal as
logged. A log without a round (the lobby did not fill) has no key.

**The score** (``deal_scores``, ``points``): each seat's rounds won, the awesome points the
engine counts from the czars' picks. A game cut short (no seat reached the score limit) or with
a fatal finding has none.

**A table** (``play_table``): the answer and question decks' order and the first czar come
from a generator seeded by the deal number alone; the bots' swaps, answers and picks and the
reveal order from one seeded by the deal and the table. Every seat joins and none leaves.

>>> from replay.games import get
>>> game = get("party-cards")
>>> a = game.play_table(5, ["random", "greedy", "greedy"], table=0)
>>> b = game.play_table(5, ["greedy", "greedy", "random"], table=1)
>>> game.deal_key(a) == game.deal_key(b) != game.deal_key(game.play_table(6, ["random", "greedy", "greedy"]))
True
>>> a.game_id, a.meta, a.score_limit
('party-cards-deal-5-table-0', {'championship': {'deal': 5, 'table': 0}}, 3)
>>> scores = game.deal_scores(game.judge(a)); max(scores.values()), sorted(scores)
(3.0, ['p1', 'p2', 'p3'])
"""

from __future__ import annotations

import random
from typing import Any, Mapping, Sequence

from ...duplicate import fingerprint
from .bots import play_game
from .log import MAX_SEATS, MIN_SEATS, PartyLog

UNIT = "points"
#: the score limit of a championship table unless ``score_limit`` says otherwise
SCORE_LIMIT = 3


def deal_key(log: PartyLog) -> str | None:
    """``fingerprint("party-cards", {seat: sorted [id, text] of its hand}, first czar, first
    question id, score limit)``; None for a log without a round."""
    first = next((e for e in log.events if e.type == "round"), None)
    if first is None:
        return None
    hands = {seat: sorted([card.id, card.text] for card in cards) for seat, cards in log.hands.items()}
    return fingerprint("party-cards", hands, first.czar, first.question.id, log.score_limit)


def deal_scores(replay: Any) -> Mapping[str, float] | None:
    """Each seat's rounds won; None for a game cut short or with a fatal finding."""
    if not replay.checked or replay.winner is None or replay.end_reason != "completed":
        return None
    return {seat: float(points) for seat, points in replay.scores.items()}


def table_seats(bots: Sequence[str], players: int | None = None, **options: Any) -> int:
    """``players`` if given (3 to 10), else one seat per bot within 3 to 10."""
    if players is not None:
        if not MIN_SEATS <= players <= MAX_SEATS:
            raise ValueError(f"party cards has {MIN_SEATS} to {MAX_SEATS} seats, not {players}")
        return players
    return min(max(len(bots), MIN_SEATS), MAX_SEATS)


def deal_rng(deal: int) -> random.Random:
    return random.Random(f"party-cards/deal/{deal}")


def table_rng(deal: int, table: int) -> random.Random:
    return random.Random(f"party-cards/deal/{deal}/table/{table}")


def play_table(deal: int, bots: Sequence[str], table: int = 0, **options: Any) -> PartyLog:
    """Deal number ``deal`` with ``bots[i]`` in seat ``p{i + 1}`` (``bots[i % len(bots)]``
    when the table has more seats than bots); options as ``play_game``'s (``players``,
    ``score_limit`` (default 3), ``hand_size``, ``rounds``...)."""
    if not bots:
        raise ValueError("name at least one bot")
    n = table_seats(bots, options.pop("players", None))
    names = tuple(bots[i % len(bots)] for i in range(n))
    options.setdefault("game_id", f"party-cards-deal-{deal}-table-{table}")
    options.setdefault("score_limit", SCORE_LIMIT)
    return play_game(deal, bots=names, rng=table_rng(deal, table), deal_rng=deal_rng(deal),
                     meta={"championship": {"deal": deal, "table": table}}, full_table=True, **options)
