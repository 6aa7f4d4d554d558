"""The solver against DDS (through endplay, a test dependency) where the two games agree:
the partner sits opposite the declarer, and the trump-lead rule cannot bind (no trumps, or
trumps already broken). 1,000 random positions of 4-8 tricks, at a trick's start or part
way through one; every legal card's value is compared, not just the best."""

from __future__ import annotations

import random

import pytest

from replay.games.floating_bridge.cards import CARDS
from replay.games.floating_bridge import solver
from tests.conftest import skip_or_fail

from .helpers import random_position

RANKS = "23456789TJQKA"


@pytest.fixture(scope="module")
def dds():
    try:
        from endplay.dds import solve_board
        from endplay.types import Deal, Denom, Player
    except ImportError:
        skip_or_fail("endplay is not installed (it is in the test extra: pip install -e '.[test]')")
    denoms = {None: Denom.nt, 0: Denom.clubs, 1: Denom.diamonds, 2: Denom.hearts, 3: Denom.spades}
    return solve_board, Deal, denoms, Player


def _pbn(hands) -> str:
    def text(mask):
        return ".".join("".join(RANKS[r] for r in range(12, -1, -1) if mask >> (13 * s + r) & 1)
                        for s in (3, 2, 1, 0))

    return "N:" + " ".join(text(h) for h in hands)


def _dds_values(dds, position) -> dict[int, int]:
    """DDS's tricks for the side to play, per card, from the trick under way on."""
    solve_board, Deal, denoms, Player = dds
    hands = list(position.hands)
    for k, card in enumerate(position.trick):  # put the trick back, then play it
        hands[(position.leader + k) & 3] |= 1 << card
    deal = Deal.from_pbn(_pbn(hands))
    deal.trump = denoms[position.trump]
    deal.first = Player(position.leader)
    for card in position.trick:
        deal.play("SHDC"[3 - card // 13] + RANKS[card % 13])
    out = {}
    for card, tricks in solve_board(deal):
        suit = 3 - int(card.suit)  # endplay: spades 0 .. clubs 3
        rank = RANKS.index(card.rank.abbr)
        out[suit * 13 + rank] = tricks
    return out


def test_solver_equals_dds_on_1000_positions(dds):
    rng = random.Random(2024)
    checked = 0
    for i in range(1000):
        position = random_position(rng, 4 + i % 5, side=(0, 2), trump_broken=True,
                                   first_trick=False)
        ours = solver.card_values(position)
        theirs = _dds_values(dds, position)
        left = position.tricks_left
        mover_declares = position.to_act in position.declarer_side
        expected = {CARDS[c]: (v if mover_declares else left - v) for c, v in theirs.items()}
        assert ours == expected, (position, ours, theirs)
        best = max(ours.values()) if mover_declares else min(ours.values())
        assert solver.solve(position) == best
        checked += 1
    assert checked == 1000
