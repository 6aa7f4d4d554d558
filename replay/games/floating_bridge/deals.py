"""Duplicate deals in floating bridge (``replay.duplicate``): a deal's key and each seat's result.

**The key** is ``replay.duplicate.fingerprint("floating-bridge", hands, first_bidder)``: each
seat's 13 cards (sorted, as card texts such as ``SA``) by seat, and the seat that calls first,
as the issue asks ("the 52 cards and who calls first"). The rules are not part of it: a
championship plays all its tables under one preset. A log whose hands are not a whole deal (a
hand without 13 cards, a card twice) has no key.

**The scores** are tricks, counted as bridge results are: each seat's side's tricks over (+) or
short (-) of the number that side needed (the declarer's side ``6 + level``, the defenders
``8 - level``): ``+1`` made with one over, ``-2`` two down. The side is the declarer and its
partner (the declarer alone when it called one of its own cards, where the rules allow it) or
the defenders. Counting against the side's number (and not raw tricks) is what lets a deal's
tables be compared: the contract each table reached is part of its result. Under the
``bridgebot`` rules play stops as soon as a side reaches its number, so that side scores 0 and
the other its shortfall; under ``all-tricks`` the two sides' margins add up to -1 (13 tricks
against the 14 the two numbers ask for). A deal passed out scores 0 at every seat (in duplicate
a pass-out is a result, and the other tables' contracts are compared with it); a game that did
not finish (cancelled, timed out, abandoned, or stopped by a fatal finding) gives no scores.

>>> from .bots import play_table
>>> log = play_table(5, ("greedy", "greedy", "greedy", "greedy"), rules="all-tricks")
>>> key = deal_key(log); len(key), key == deal_key(play_table(5, ("random",) * 4, table=3, rules="all-tricks"))
(24, True)
>>> replay = log.replay(); scores = deal_scores(replay); sorted(scores)
['E', 'N', 'S', 'W']
>>> defender = next(s for s, role in replay.roles().items() if role == "defender")
>>> scores[replay.declarer.name] + scores[defender]
-1
"""

from __future__ import annotations

from typing import Any

from ...duplicate import fingerprint
from .cards import SEATS

GAME_NAME = "floating-bridge"


def deal_parts(log: Any) -> tuple[dict[str, list[str]], str] | None:
    """The deal as the key is made of it: ``({seat: sorted card texts}, first bidder)``, or None
    when the log's hands are not 52 different cards, 13 a seat."""
    hands = log.hands.by_seat()
    seen: set[int] = set()
    parts: dict[str, list[str]] = {}
    for seat, cards in zip(SEATS, hands):
        if len(cards) != 13:
            return None
        seen.update(int(c) for c in cards)
        parts[seat.name] = [str(c) for c in sorted(cards)]
    if len(seen) != 52:
        return None
    return parts, log.first_bidder.name


def deal_key(log: Any) -> str | None:
    """The deal's key (see the module's text), or None when the log does not hold a whole deal."""
    parts = deal_parts(log)
    if parts is None:
        return None
    hands, first = parts
    return fingerprint(GAME_NAME, hands, first)


def deal_scores(replay: Any) -> dict[str, int] | None:
    """Each seat's side's tricks over or short of its number (``N``, ``E``, ``S``, ``W``), or
    None for a game without a result. The judged game already says who is on which side, how
    many tricks each side took and needed (``replay.result``: only a completed game, checked to
    its end, has a winner)."""
    if replay.end_reason == "passed_out" and replay.checked and not any(f.fatal for f in replay.findings):
        return {seat.name: 0 for seat in SEATS}  # a pass-out is a result: nobody over, nobody short
    result = replay.result
    if result.winner is None or replay.declarer is None or not replay.checked:
        return None
    side = {replay.declarer}
    if replay.partner_seat is not None:  # the declarer's own card: it plays alone
        side.add(replay.partner_seat)
    declarers = result.declarer_tricks - result.needed
    defenders = result.defender_tricks - result.defenders_needed
    return {seat.name: declarers if seat in side else defenders for seat in SEATS}


__all__ = ["deal_key", "deal_parts", "deal_scores"]
