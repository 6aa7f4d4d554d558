"""The figures poker players read first, per seat of a hand: what ``GAME.seat_figures`` sums.

Each hand gives each seat counters (``Outcome.counts``); the archive sums them per player and
per bot and the stats pages show the figures:

- ``dealt``: 1 (a hand dealt to the seat);
- ``vpip``: 1 when the seat put money in voluntarily before the flop (a call or a raise; the
  blinds and a big blind's free check are not voluntary);
- ``pfr``: 1 when the seat raised (or opened) before the flop;
- ``showdowns`` and ``showdowns_won``: 1 when the seat reached the showdown, and when it also
  collected chips there;
- ``won_mbb`` and ``won_mbb_sq``: the seat's winnings in thousandths of a big blind (the
  biggest forced bet; the small bet in fixed-limit), and their square, so that big blinds per
  100 hands come with a 95% interval (counted up to a million big blinds either way, ``MAX_MBB``).

>>> from types import SimpleNamespace as NS
>>> log = NS(variant="NT", seats=("p1", "p2", "p3"), blinds_or_straddles=[50, 100, 0], small_bet=None,
...          events=[NS(type="action", action=a) for a in
...                  ("d dh p1 AcAd", "d dh p2 7h2c", "d dh p3 KsKd", "p3 cbr 300", "p1 cc", "p2 f",
...                   "d db 2s3s4s", "p1 cc", "p3 cc", "d db 5h", "p1 cc", "p3 cc", "d db 9c",
...                   "p1 cbr 500", "p3 cc", "p1 sm AcAd", "p3 sm KsKd")])
>>> counts = seat_counts(log, {"p1": 1000, "p2": -100, "p3": -900}, street="showdown", winners=("p1",))
>>> counts["p1"]["vpip"], counts["p1"]["pfr"], counts["p3"]["pfr"], counts["p2"]["vpip"]
(1, 0, 1, 0)
>>> counts["p1"]["showdowns_won"], counts["p3"]["showdowns"], counts["p2"]["showdowns"], counts["p1"]["won_mbb"]
(1, 1, 0, 10000)

Heads-up the button (p2) posts the small blind: its limp is voluntary, the big blind's check is not.

>>> log = NS(variant="NT", seats=("p1", "p2"), blinds_or_straddles=[50, 100], small_bet=None,
...          events=[NS(type="action", action=a) for a in ("d dh p1 AcAd", "d dh p2 7h2c", "p2 cc", "p1 cc")])
>>> counts = seat_counts(log, {"p1": 0, "p2": 0}, street="flop", winners=())
>>> counts["p1"]["vpip"], counts["p2"]["vpip"]
(0, 1)
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any, Mapping, Sequence

from ..base import SeatFigure

#: the figures the stats pages show (``GAME.seat_figures``)
FIGURES = (
    SeatFigure("vpip", "VPIP", count="vpip", of="dealt",
               help="voluntarily put money in the pot before the flop, % of hands"),
    SeatFigure("pfr", "PFR", count="pfr", of="dealt", help="raised before the flop, % of hands"),
    SeatFigure("showdown_wins", "Showdowns won", count="showdowns_won", of="showdowns",
               help="% of the showdowns reached where the seat collected chips"),
    SeatFigure("bb_per_100", "bb/100", count="won_mbb", of="dealt", scale=1000, unit=" bb/100",
               spread="won_mbb_sq", help="big blinds won per 100 hands, with its 95% interval"),
)


#: a hand's winnings are counted up to a million big blinds either way, so that their squares
#: (and the sums of many) stay within a 64-bit column: 10**9 thousandths, squared 10**18
MAX_MBB = 10 ** 9


def big_blind(log: Any) -> Any:
    """The hand's big blind: its biggest forced bet (the small bet in fixed-limit when no blind)."""
    forced = [a for a in log.blinds_or_straddles if a]
    if forced:
        return max(forced)
    return log.small_bet or 1


def seat_counts(log: Any, payoffs: Mapping[str, Any], street: str, winners: Sequence[str]) -> dict[str, dict[str, int]]:
    """Each seat's counters for one hand (see the module's documentation)."""
    seats = tuple(log.seats)
    blinds = list(log.blinds_or_straddles)
    if len(seats) == 2:  # heads-up the forced bets are read reversed (PHH): p2, the button, posts the small
        blinds.reverse()
    paid = {seat: blind for seat, blind in zip(seats, blinds)}
    to_call = max(paid.values(), default=0)
    counts = {seat: {"dealt": 1, "vpip": 0, "pfr": 0, "showdowns": 0, "showdowns_won": 0} for seat in seats}
    folded: set[str] = set()
    preflop = True
    for event in log.events:
        if event.type != "action":
            continue
        parts = event.action.split("#", 1)[0].split()
        if len(parts) < 2:
            continue
        if parts[0] == "d":
            if parts[1] == "db":
                preflop = False
            continue
        seat, verb = parts[0], parts[1]
        if seat not in counts:
            continue
        if verb == "f":
            folded.add(seat)
        elif preflop and verb == "cc":
            if paid.get(seat, 0) < to_call:
                counts[seat]["vpip"] = 1
                paid[seat] = to_call
        elif preflop and verb == "cbr" and len(parts) > 2:
            counts[seat]["vpip"] = counts[seat]["pfr"] = 1
            try:
                amount = Decimal(parts[2])
            except ArithmeticError:
                continue
            paid[seat] = amount
            to_call = max(to_call, amount)
    if street == "showdown":
        won = set(winners)
        for seat in seats:
            if seat not in folded:
                counts[seat]["showdowns"] = 1
                counts[seat]["showdowns_won"] = int(seat in won)
    blind = Decimal(str(big_blind(log)))
    for seat in seats:
        mbb = int((Decimal(str(payoffs.get(seat, 0))) * 1000 / blind).to_integral_value()) if blind else 0
        mbb = max(-MAX_MBB, min(MAX_MBB, mbb))
        counts[seat]["won_mbb"] = mbb
        counts[seat]["won_mbb_sq"] = mbb * mbb
    return counts
