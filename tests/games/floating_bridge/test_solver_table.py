"""What makes the native solver fast must not change its answers: the table kept from call to
call (and across every card of ``card_values``), the moves merged across cards of the trick
under way, and the quick tricks counted from length. Each is checked against the plain
exhaustive minimax of ``helpers.brute_force`` or against the same solver starting cold."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay.games.floating_bridge.bots import play_game
from replay.games.floating_bridge.cards import Card, mask_of
from replay.games.floating_bridge import solver
from replay.games.floating_bridge.analysis import game_at_step
from replay.games.floating_bridge.solver import Position

from .helpers import ARRANGEMENTS, brute_force, random_position

def _hand(*cards: str) -> int:
    return mask_of(Card.parse(c) for c in cards)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), tricks=st.integers(1, 4), arrangement=st.sampled_from(ARRANGEMENTS),
       binding=st.booleans())
def test_native_solver_equals_brute_force_on_any_ending(seed, tricks, arrangement, binding):
    # the table is not emptied between examples: what earlier endings left in it must not leak
    position = random_position(random.Random(seed), tricks, side=arrangement,
                               trump_broken=False if binding else None)
    expected = brute_force(position)
    assert solver.solve(position) == expected
    values = solver.card_values(position)
    pick = max if position.to_act in position.declarer_side else min
    assert pick(values.values()) == expected
    best, cards, _ = solver.best_cards(position)
    assert best == expected and set(cards) == {c for c, v in values.items() if v == expected}


def test_a_warm_table_gives_the_answers_of_a_cold_one():
    """Every position of three bot games solved in play order with the table kept (as the
    analysis does), then each again from an empty table: the same values."""
    positions = []
    for seed in (2, 3, 7):
        replay = play_game(seed=seed, rules="all-tricks").replay()
        for step in range(replay.step_count):
            game = game_at_step(replay, step)
            try:
                position = Position.from_game(game)
            except solver.PositionError:
                continue
            if position.tricks_left <= 7:
                positions.append(position)
    assert len(positions) > 60
    solver.clear()
    warm = [solver.card_values(p) for p in positions]
    cold = []
    for p in positions:
        solver.clear()
        cold.append(solver.card_values(p))
    assert warm == cold


def test_card_values_of_a_full_deal_do_not_depend_on_the_order_cards_are_tried():
    """card_values reuses the table from one card to the next; solving each card's position
    alone, from an empty table, must give the same value."""
    rng = random.Random(11)
    for trump in (None, 2):
        deck = list(range(52))
        rng.shuffle(deck)
        # 7 tricks each, so that every card's position solves in moments
        hands = tuple(sum(1 << c for c in deck[i * 7:(i + 1) * 7]) for i in range(4))
        position = Position(hands, trump, (1, 2), 1, (), True, False, True)
        solver.clear()
        values = solver.card_values(position)
        for card, value in values.items():
            rest = list(hands)
            rest[1] &= ~(1 << int(card))
            after = Position(tuple(rest), trump, (1, 2), 1, (int(card),), True, False, True)
            solver.clear()
            assert solver.solve(after) == value, card


def test_cards_with_only_trick_cards_between_them_get_one_value():
    # No trumps; W leads SK, N plays S8. E holds S9 and S7: the S8 lies between them, but
    # neither beats the SK, so they are one move, and both must still be reported.
    hands = (_hand("H2", "D3"), _hand("S9", "S7", "C4"), _hand("S2", "H5", "D6"), _hand("HA", "DA"))
    position = Position(hands, None, (0, 2), 3, (Card.parse("SK"), Card.parse("S8")), True)
    values = solver.card_values(position)
    assert set(values) == {Card.parse("S9"), Card.parse("S7")}
    assert values[Card.parse("S9")] == values[Card.parse("S7")] == brute_force(position)
    # with the trick led by a small card the S9 wins it and the S7 does not: two moves
    low = Position(hands, None, (0, 2), 3, (Card.parse("S3"), Card.parse("S8")), True)
    low_values = solver.card_values(low)
    assert set(low_values) == {Card.parse("S9"), Card.parse("S7")}
    for card, value in low_values.items():
        rest = list(hands)
        rest[1] &= ~(1 << int(card))
        trick = (Card.parse("S3"), Card.parse("S8"), card)
        assert value == brute_force(Position(tuple(rest), None, (0, 2), 3, trick, True)), card


def test_length_winners_count_only_when_partner_cannot_overtake():
    # N leads in no trumps holding SA SK S3 S2 H2; E and W hold two spades at most. The small
    # spades win once E and W are out -- unless S's spade is above them and takes the lead.
    def deal(south_spade: str):
        north = _hand("SA", "SK", "S3", "S2", "H2")
        east = _hand("SQ", "SJ", "HA", "HK", "HQ")
        south = _hand(south_spade, "D2", "D3", "D4", "D5")
        west = _hand("ST", "S9", "HJ", "HT", "H9")
        return Position((north, east, south, west), None, (0, 2), 0, (), True)

    for south_spade in ("S4", "S8"):
        position = deal(south_spade)
        assert solver.solve(position) == brute_force(position), south_spade
