"""The solver against a plain exhaustive minimax on random endings of 2-5 tricks: partners
in every arrangement, trumps unbroken (the trump-lead rule binding) or broken, first-trick
rules on and off, positions at a trick's start and part way through one."""

from __future__ import annotations

import random

import pytest

from replay.games.floating_bridge import solver
from replay.games.floating_bridge.solver import _pysolver

from .helpers import ARRANGEMENTS, brute_force, random_position

SIZES = {2: 900, 3: 750, 4: 320, 5: 30}  # 2,000 endings in all


@pytest.mark.parametrize("tricks", sorted(SIZES))
def test_solver_equals_brute_force(tricks):
    rng = random.Random(1000 + tricks)
    binding = 0
    for i in range(SIZES[tricks]):
        position = random_position(rng, tricks, side=ARRANGEMENTS[i % 4],
                                   trump_broken=False if i % 2 else None)
        expected = brute_force(position)
        assert solver.solve(position) == expected, position
        values = solver.card_values(position)
        assert set(values) == {c for c in range(52) if position.legal_mask() >> c & 1}
        best = max(values.values()) if position.to_act in position.declarer_side else min(values.values())
        assert best == expected, position
        if position.trump is not None and not position.trump_broken and not position.trick:
            binding += 1
    assert binding >= SIZES[tricks] // 30  # the trump-lead rule was in play in some of them


def test_card_values_equal_brute_force_after_each_card():
    rng = random.Random(7)
    for _ in range(150):
        position = random_position(rng, 3)
        for card, value in solver.card_values(position).items():
            hands = list(position.hands)
            hands[position.to_act] &= ~(1 << card)
            trick = position.trick + (card,)
            broken = position.trump_broken or card // 13 == position.trump
            if len(trick) == 4:
                from replay.games.floating_bridge.rules import trick_winner_index

                winner = (position.leader + trick_winner_index(trick, position.trump)) & 3
                rest = solver.Position(tuple(hands), position.trump, position.declarer_side, winner, (),
                                       broken, False, position.trump_in_first_trick)
                expected = (winner in position.declarer_side) + brute_force(rest)
            else:
                rest = solver.Position(tuple(hands), position.trump, position.declarer_side,
                                       position.leader, trick, broken, position.first_trick,
                                       position.trump_in_first_trick)
                expected = brute_force(rest)
            assert value == expected, (position, card)


def test_trump_lead_rule_changes_the_answer():
    # Spades are trumps; N plays alone and leads. With trumps broken N leads SJ, drawing
    # E's and S's trumps, and takes all three tricks; unbroken, N must lead a heart, which
    # E or S ruffs, and N takes one.
    from replay.games.floating_bridge.cards import Card, mask_of

    def hand(*cards):
        return mask_of(Card.parse(c) for c in cards)

    hands = (hand("H3", "HA", "SJ"), hand("C2", "D8", "S3"), hand("C4", "CJ", "S7"), hand("C3", "DJ", "H9"))
    broken = solver.Position(hands, 3, (0,), 0, (), True)
    unbroken = solver.Position(hands, 3, (0,), 0, (), False)
    assert solver.solve(broken) == brute_force(broken) == 3
    assert solver.solve(unbroken) == brute_force(unbroken) == 1
    assert set(solver.card_values(unbroken)) == {Card.parse("H3"), Card.parse("HA")}


def test_a_winning_card_counts_with_the_cards_it_was_one_move_with():
    # Hearts are trumps, N and E play together. S led D8, W played DQ; N follows. E ruffs:
    # with HT (or HK, one move: HJ and HQ are gone), E keeps H3 to lead under N's H4, and N
    # cashes its last diamond: all four tricks. Ruffing with H3 wins only three. The search
    # once tried H3 first, learnt from that line only that HK's rank mattered (HK beat H4 as
    # the move "HT-HK"), and skipped HT as "below every relevant card": three.
    from replay.games.floating_bridge.cards import Card, mask_of

    def hand(*cards):
        return mask_of(Card.parse(c) for c in cards)

    hands = (hand("C2", "D9", "DT", "H4"), hand("CT", "H3", "HT", "HK"), hand("C6", "SQ", "SA"),
             hand("C4", "CQ", "SJ"))
    trick = (int(Card.parse("D8")), int(Card.parse("DQ")))
    position = solver.Position(hands, 2, (0, 1), 2, trick, True, False, True)
    solver.clear()
    assert brute_force(position) == 4
    assert solver.solve(position) == 4
    assert solver.card_values(position) == {Card.parse("D9"): 4, Card.parse("DT"): 4}


def test_pure_python_fallback_equals_brute_force():
    rng = random.Random(99)
    for i in range(300):
        position = random_position(rng, 2 + i % 3, side=ARRANGEMENTS[i % 4])
        args = position._args()
        _pysolver.clear()
        assert _pysolver.solve(*args) == brute_force(position), position
        values = dict(_pysolver.card_values(*args))
        native = solver.card_values(position)
        assert values == {int(c): v for c, v in native.items()}


def test_best_cards_agrees_with_card_values():
    rng = random.Random(5)
    for i in range(400):
        position = random_position(rng, 3 + i % 3, side=ARRANGEMENTS[i % 4])
        values = solver.card_values(position)
        pick = max if position.to_act in position.declarer_side else min
        best = pick(values.values())
        for played in list(values)[:2] + [None]:
            got = solver.best_cards(position, played)
            assert got == (best, tuple(c for c, v in values.items() if v == best),
                           None if played is None else values[played]), position


def _beyond_top_run(position) -> bool:
    """Some seat holds a trump that no higher opposing trump is left to beat, below its top
    run (e.g. K-Q-J against the lone ace): where the solver's sure trump count goes further
    than the top run."""
    trump = position.trump
    for seat in range(4):
        mine = position.hands[seat]
        opp = 0
        for other in range(4):
            if (other in position.declarer_side) != (seat in position.declarer_side):
                opp |= position.hands[other]
        killers = alive = run = 0
        in_run = True
        for card in range(13 * trump + 12, 13 * trump - 1, -1):
            if opp >> card & 1:
                killers += 1
                in_run = False
            elif mine >> card & 1:
                if killers:
                    killers -= 1
                else:
                    alive += 1
                    run += in_run
            elif any(h >> card & 1 for h in position.hands):
                in_run = False
        if alive > run:
            return True
    return False


def test_trump_heavy_endings_equal_brute_force():
    """Endings of 4 tricks dealt from 9 trumps and 7 other cards, at a trick's start: the
    trump bounds (a seat's unbeatable trumps, trumps drawn before cashing, the other side
    taking the coming trick) decide many of them."""
    rng = random.Random(15)
    bites = 0
    for i in range(300):
        trump = rng.randrange(4)
        trumps = rng.sample(range(13 * trump, 13 * trump + 13), 9)
        others = rng.sample([c for c in range(52) if c // 13 != trump], 7)
        deck = trumps + others
        rng.shuffle(deck)
        hands = tuple(sum(1 << c for c in deck[4 * k:4 * k + 4]) for k in range(4))
        declarer = rng.randrange(4)
        side = tuple(sorted({(declarer + s) & 3 for s in ARRANGEMENTS[i % 4]}))
        position = solver.Position(hands, trump, side, rng.randrange(4), (), True, False, True)
        expected = brute_force(position)
        solver.clear()
        assert solver.solve(position) == expected, position
        values = solver.card_values(position)
        best = max(values.values()) if position.to_act in position.declarer_side else min(values.values())
        assert best == expected, position
        bites += _beyond_top_run(position)
    assert bites >= 30  # the bound beyond the top run was in play in many of them
