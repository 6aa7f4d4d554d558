"""Figures about codes: the information bound of a game and the legacy code's length.

>>> from replay.games.floating_bridge.bots import play_game
>>> log = play_game(seed=7)
>>> bits = information_bits(log)
>>> 150 < bits < 400, legacy_length(log) >= 57
(True, True)
"""

from __future__ import annotations

from math import factorial, log2

from ..cards import PASS_VALUE
from ..engine import Game
from ..log import BidEvent, GameLog, PartnerEvent, PlayEvent
from replay.codec.intcode import BASE

DEAL_BITS = log2(factorial(52) // factorial(13) ** 4)
BITS_PER_CHARACTER = log2(BASE)


def information_bits(log: GameLog) -> float:
    """The sum of log2 of each choice's option count: deal, first bidder, calls, partner card,
    plays. The options come from the engine (``legal_calls``, ``legal_partner_cards``,
    ``legal_cards``); a forced choice costs nothing.
    """
    game = Game(log.hands.by_seat(), log.first_bidder, log.rules)
    bits = DEAL_BITS + 2.0
    for event in log.events:
        if isinstance(event, BidEvent):
            bits += log2(len(game.legal_calls()))
            game.push_call(event.seat, event.bid)
        elif isinstance(event, PartnerEvent):
            bits += log2(len(game.legal_partner_cards()))
            game.push_partner(event.seat, event.card)
        elif isinstance(event, PlayEvent):
            bits += log2(len(game.legal_cards()))
            game.push_play(event.seat, event.card)
    return bits


def information_characters(log: GameLog) -> float:
    """``information_bits`` in base-62 characters."""
    return information_bits(log) / BITS_PER_CHARACTER


def legacy_length(log: GameLog) -> int | None:
    """Length of the original BridgeBot code for the game: 57 + one letter per written call.

    ``None`` for a game the legacy format cannot hold (no contract).
    """
    calls = [e.bid for e in log.events if isinstance(e, BidEvent)]
    bids = [i for i, c in enumerate(calls) if c != PASS_VALUE]
    if not bids:
        return None
    return 57 + bids[-1] + 1
