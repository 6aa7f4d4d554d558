"""Duplicate deals in Texas hold'em (``replay.duplicate``): a deal's key and each seat's result.

**The key** is ``replay.duplicate.fingerprint("holdem", variant, seats, holes)``: the variant
(``NT``, ``FT``), the number of seats and each seat's two hole cards (sorted, as PHH card texts)
in seat order ``p1``..``pN``. Every hole card must be known: a hand whose dealt cards are
hidden (``????`` in a PHH history) has no key, unless the seat showed them at the showdown.

The board is left out on purpose. A hand folded before the flop never shows it, so a key with
the board would split the tables of one deal by how far they got; and at one deal the deck
(shuffled from the deal number alone, ``bots.play_table``) gives every table the same board
anyway. The price: two hands dealt the same hole cards at every seat share a key even when
their boards differ. Heads-up, with about 1.6 million ways to deal the holes, that happens
(14 pairs among 8,000 random deal numbers); from three seats on it practically never does. A
championship knows what it dealt and keeps such deals apart by deal number; the archive, which
knows only the logs, groups them. The stakes are left out too: the scores are counted in big
blinds.

**The scores** are big blinds: each seat's payoff (what it won minus what it put in) over the
big blind, raw (no all-in adjustment), as ``championship.hand_result`` counts it; a hand that
cannot be counted (a fatal finding, not over, not settled) gives none.

>>> from .bots import play_table
>>> log = play_table(8, ("tag", "call", "random"))
>>> key = deal_key(log); len(key), key == deal_key(play_table(8, ("call", "random", "tag"), table=2))
(24, True)
>>> scores = deal_scores(log.replay()); list(scores), sum(scores.values())
(['p1', 'p2', 'p3'], 0.0)
"""

from __future__ import annotations

from typing import Any

from ...duplicate import fingerprint
from ...log import LogFormatError
from .cards import cards_text
from .championship import hand_result
from .engine import parse_action

GAME_NAME = "holdem"


def hole_cards(log: Any) -> list[list[int]] | None:
    """Each seat's two hole cards (sorted card numbers) in seat order, or None when one is not
    known: not dealt in the log, dealt hidden and never shown, or dealt twice."""
    seats = tuple(log.seats)
    dealt: dict[str, tuple] = {}
    shown: dict[str, tuple] = {}
    for event in log.events:
        if event.type != "action":
            continue
        try:
            action = parse_action(event.action)
        except LogFormatError:
            continue
        if action is None:
            continue
        if action[0] == "dh":
            if action[1] in dealt:
                return None  # dealt twice: which deal is it?
            dealt[action[1]] = action[2]
        elif len(action) == 3 and action[1] == "sm" and isinstance(action[2], tuple):
            shown.setdefault(action[0], action[2])
    holes = []
    for seat in seats:
        cards = dealt.get(seat)
        if cards is None or len(cards) != 2:
            return None
        if None in cards:  # hidden when dealt: known if the seat showed them (and they agree)
            seen = shown.get(seat)
            if (seen is None or len(seen) != 2 or None in seen
                    or any(c is not None and c not in seen for c in cards)):
                return None
            cards = seen
        holes.append(sorted(cards))
    return holes


def deal_key(log: Any) -> str | None:
    """The deal's key (see the module's text), or None when a hole card is not known."""
    holes = hole_cards(log)
    if holes is None:
        return None
    return fingerprint(GAME_NAME, log.variant, len(log.seats), [cards_text(h) for h in holes])


def deal_scores(replay: Any) -> dict[str, float] | None:
    """Each seat's payoff in big blinds (``championship.hand_result``'s raw payoffs), or None."""
    try:
        result = hand_result(replay)
    except ValueError:  # no blinds and no minimum bet: no big blind to count in
        return None
    if result is None:
        return None
    return dict(result.raw)


__all__ = ["deal_key", "deal_scores", "hole_cards"]
