"""Equities against exhaustive enumeration judged by pokerkit's hands (an independent evaluator)
and pokerkit's own calculate_equities; the C and pure-Python loops bit for bit; Monte Carlo
within its ±1% at 95%; step_equities from only what each step shows."""

from __future__ import annotations

import random
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pokerkit import Card, Deck, StandardHighHand, calculate_equities, parse_range

from replay.games.holdem import equity as equity_module
from replay.games.holdem import evaluator
from replay.games.holdem.cards import cards_text, parse_cards as P
from replay.games.holdem.equity import (EXACT_LIMIT, MONTE_CARLO_SAMPLES, Equity, deal_count, equities,
                                        showdowns_python, step_equities)

NATIVE = evaluator._native
BACKENDS = [pytest.param(False, id="python"),
            pytest.param(True, id="native", marks=pytest.mark.skipif(NATIVE is None, reason="C extension not built"))]


def pokerkit_judge(hole, board):
    return StandardHighHand.from_game(cards_text(hole), cards_text(board))


def our_judge(hole, board):
    return evaluator.rank_python(hole + board)


def brute_force(holes, board, dead=(), judge=pokerkit_judge):
    """Every ordered way to fill the unknown cards (each unordered deal the same number of
    times), each seat's hand judged by ``judge`` (pokerkit's hands by default: slow, so small
    cases; our evaluator, itself checked against pokerkit, for bigger ones); ties split."""
    known = {c for h in holes for c in h if c is not None} | set(board) | set(dead)
    rest = [c for c in range(52) if c not in known]
    unknown = sum(c is None for h in holes for c in h) + 5 - len(board)
    totals = [0.0] * len(holes)
    deals = 0
    for cards in permutations(rest, unknown):
        it = iter(cards)
        filled = [[c if c is not None else next(it) for c in h] for h in holes]
        full_board = list(board) + list(it)
        hands = [judge(h, full_board) for h in filled]
        best = max(hands)
        winners = [i for i, h in enumerate(hands) if h == best]
        for i in winners:
            totals[i] += 1 / len(winners)
        deals += 1
    return [t / deals for t in totals]


@st.composite
def positions(draw, max_unknown=2):
    """2..4 seats, a flop/turn/river board, a few unknown hole cards, maybe a dead card; at most
    ``max_unknown`` unknown cards in all (so the brute force stays small)."""
    seats = draw(st.integers(2, 4))
    board_size = draw(st.sampled_from([3, 4, 5][max(0, 2 - max_unknown):]))
    deck = draw(st.permutations(range(52)))
    holes = [list(deck[2 * i:2 * i + 2]) for i in range(seats)]
    board = list(deck[2 * seats:2 * seats + board_size])
    dead = list(deck[2 * seats + board_size:2 * seats + board_size + draw(st.integers(0, 2))])
    budget = max_unknown - (5 - board_size)
    for _ in range(draw(st.integers(0, max(budget, 0)))):
        holes[draw(st.integers(0, seats - 1))][draw(st.integers(0, 1))] = None
    return holes, board, dead


@pytest.mark.parametrize("native", BACKENDS)
@settings(max_examples=30, deadline=None, derandomize=True)
@given(positions(max_unknown=1))
def test_exact_equities_are_the_brute_force_ones_judged_by_pokerkit(native, position):
    holes, board, dead = position
    result = equities(holes, board, dead, native=native)
    assert result.exact and result.samples == deal_count(holes, board, dead)
    assert result.shares == pytest.approx(brute_force(holes, board, dead), abs=1e-12)
    assert sum(result.shares) == pytest.approx(1.0)


@pytest.mark.parametrize("native", BACKENDS)
@settings(max_examples=25, deadline=None, derandomize=True)
@given(positions(max_unknown=2))
def test_exact_equities_are_the_brute_force_ones(native, position):
    holes, board, dead = position
    result = equities(holes, board, dead, native=native)
    assert result.exact and result.samples == deal_count(holes, board, dead)
    assert result.shares == pytest.approx(brute_force(holes, board, dead, our_judge), abs=1e-12)


def test_a_flop_six_handed_and_a_hidden_hand_on_the_turn_match_the_brute_force():
    holes = [P("AsAd"), P("KsKd"), P("QhJh"), P("9c9d"), P("7s6s"), P("2h3h")]
    result = equities(holes, P("2c7h9s"))
    assert result.exact and result.samples == 666  # 37 choose 2
    assert result.shares == pytest.approx(brute_force(holes, P("2c7h9s"), judge=our_judge), abs=1e-12)
    hidden = [P("AsAd"), [None, None]]
    result = equities(hidden, P("2c7h9sKd"))
    assert result.exact and result.samples == 1035 * 44  # 46 choose 2 holes, then 44 rivers
    assert result.shares == pytest.approx(brute_force(hidden, P("2c7h9sKd"), judge=our_judge), abs=1e-12)


def test_pokerkits_calculate_equities_agrees():
    holes, board = [P("AsAd"), P("KhKc"), P("Th9h")], P("2c7h9sTd")
    ours = equities(holes, board)
    theirs = calculate_equities(tuple(parse_range(cards_text(h)) for h in holes), Card.parse(cards_text(board)),
                                2, 5, Deck.STANDARD, (StandardHighHand,), sample_count=1000)
    assert ours.exact
    assert ours.shares == pytest.approx(theirs, abs=0.05)  # theirs: 1,000 draws of the river


@pytest.mark.parametrize("holes, board, dead", [
    ([P("AsAd"), P("KhKc")], [], []),                          # preflop: Monte Carlo
    ([P("AsAd"), P("Kh??"), P("????")], P("2c7h9s"), P("Qd")),  # unknown cards: too many deals
    ([P("AsAd"), P("KsKd"), P("QhJh"), P("9c9d"), P("7s6s"), P("2h3h")], [], []),
    ([P("7c2d"), P("????")], P("2c7h9sTd"), []),                # exact
    ([P("7c2d"), P("????")], P("2c7h9sTdJd"), []),
])
@pytest.mark.skipif(NATIVE is None, reason="C extension not built")
def test_the_c_and_python_loops_give_the_same_numbers_bit_for_bit(holes, board, dead):
    native = equities(holes, board, dead, native=True)
    python = equities(holes, board, dead, native=False)
    assert native == python
    assert native.exact == (deal_count(holes, board, dead) <= EXACT_LIMIT)


@pytest.mark.skipif(NATIVE is None, reason="C extension not built (the exact preflop answer takes it)")
@pytest.mark.parametrize("holes", [[P("AsAd"), P("KhKc")], [P("7c2d"), P("JsTs")], [P("AsKs"), P("????")]])
def test_monte_carlo_is_within_one_point_of_the_exact_answer(holes):
    known = {c for h in holes for c in h if c is not None}
    rest = [c for c in range(52) if c not in known]
    coded = [[-1 if c is None else c for c in h] for h in holes]
    if any(None in h for h in holes):  # enumerating the unknown hole too is too long: many seeds agree
        exact = None
    else:
        totals, deals = NATIVE.showdowns(coded, [], rest, 0, 0)
        exact = [t / deals for t in totals]
    runs = [equities(holes, [], rng=random.Random(seed)) for seed in range(20)]
    assert all(not r.exact and r.samples == MONTE_CARLO_SAMPLES for r in runs)
    if exact is None:
        totals, deals = NATIVE.showdowns(coded, [], rest, 400_000, 1)
        exact = [t / deals for t in totals]  # 400,000 draws: within 0.2 points
    misses = sum(abs(r.shares[i] - exact[i]) > 0.01 for r in runs for i in range(len(holes)))
    assert misses <= 3  # 95% each: about 2 misses expected in 40 at worst
    assert all(abs(r.shares[i] - exact[i]) < 0.02 for r in runs for i in range(len(holes)))


def test_monte_carlo_is_seeded_by_the_cards_or_by_rng():
    holes = [P("AsAd"), P("KhKc")]
    assert equities(holes, []) == equities(holes, [])
    assert equities(holes, [], rng=random.Random(1)) == equities(holes, [], rng=random.Random(1))
    assert equities(holes, [], rng=random.Random(1)) != equities(holes, [], rng=random.Random(2))
    assert equities(holes, []) != equities([P("AsAd"), P("KhKs")], [])


@pytest.mark.parametrize("native", BACKENDS)
def test_the_river_is_one_deal_and_ties_split(native):
    result = equities([P("2c3d"), P("2h3s"), P("4c5c")], P("AsKsQsJsTs"), native=native)
    assert result == Equity([1 / 3, 1 / 3, 1 / 3], True, 1)
    result = equities([P("2c3d"), P("Ac5c")], P("AsKsQd7s8h"), native=native)
    assert result == Equity([0.0, 1.0], True, 1)


@pytest.mark.parametrize("native", BACKENDS)
@pytest.mark.parametrize("holes, board, dead, message", [
    ([P("AsAd"), P("AsKd")], [], [], "twice"),
    ([P("AsAd"), P("KhKd")], P("Kh2c3c"), [], "twice"),
    ([P("AsAd"), P("KhKd")], [], P("Ad"), "twice"),
    ([P("AsAd"), P("Kh")], [], [], "two cards"),
    ([P("AsAd"), P("KhKd")], P("2c3c4c5c6c7c"), [], "at most 5"),
    ([P("AsAd"), [60, 1]], [], [], "0..51"),
    ([], [], [], "no seats"),
])
def test_bad_positions_are_value_errors(native, holes, board, dead, message):
    if native and NATIVE is None:
        pytest.skip("C extension not built")
    with pytest.raises(ValueError, match=message):
        equities(holes, board, dead, native=native)


@pytest.mark.parametrize("board", [[], P("2c7h9s"), P("2c7h9sTdJd")])
def test_nobodys_cards_known_is_an_equal_share_each(board):
    assert equities([[None, None]] * 3, board, P("As")) == Equity([1 / 3] * 3, True, 0)


@pytest.mark.skipif(NATIVE is None, reason="C extension not built")
@pytest.mark.parametrize("args, message", [
    (([[0, 1], [2, 3]], [4, 5, 6], [1, 7, 8], 0, 0), "twice"),
    (([[0, 1], [2, 3]], [4, 5, 6, 7, 8, 9], [10], 0, 0), "at most 5"),
    (([[0, 1], [2, 52]], [], [10], 0, 0), "not a card"),
    (([[0, 1], [2]], [], [10], 0, 0), "two cards"),
    (([[0, 1], [2, 3]], [], [10, 11], 0, 0), "5 unknown cards to draw from 2"),
    (([[0, 1], [2, 3]], [4, 5, 6, 7, 8], [], -1, 0), "samples"),
])
def test_the_c_loops_check_their_arguments(args, message):
    with pytest.raises(ValueError, match=message):
        NATIVE.showdowns(*args)


def test_too_many_unknown_cards_for_the_deck():
    with pytest.raises(ValueError, match="not enough cards"):
        equities([[None, None]] * 24, [])


def test_the_python_loops_alone_for_one_unknown_hole_card():
    holes, board = [P("AsAd"), [None, P("7c")[0]]], P("2c7h9sTd")
    rest = [c for c in range(52) if c not in P("AsAd7c2c7h9sTd")]
    totals, deals = showdowns_python(holes, board, rest, 0, 0)
    assert deals == 45 * 44  # the hole card, then the river
    assert [t / deals for t in totals] == pytest.approx(brute_force(holes, board, judge=our_judge), abs=1e-12)


# ---- step_equities ----

def step(kind, hole, board=(), folded=()):
    return {"kind": kind, "hole": hole, "board": list(board), "folded": list(folded)}


HAND = [
    step("setup", {"p1": [], "p2": [], "p3": []}),
    step("hole", {"p1": ["As", "Ad"], "p2": [], "p3": []}),
    step("hole", {"p1": ["As", "Ad"], "p2": ["Kh", "Kc"], "p3": []}),
    step("hole", {"p1": ["As", "Ad"], "p2": ["Kh", "Kc"], "p3": ["7c", "2d"]}),
    step("call", {"p1": ["As", "Ad"], "p2": ["Kh", "Kc"], "p3": ["7c", "2d"]}),
    step("fold", {"p1": ["As", "Ad"], "p2": ["Kh", "Kc"], "p3": ["7c", "2d"]}, folded=["p3"]),
    step("board", {"p1": ["As", "Ad"], "p2": ["Kh", "Kc"], "p3": ["7c", "2d"]}, ["2c", "7h", "9s"], ["p3"]),
    step("check", {"p1": ["As", "Ad"], "p2": ["Kh", "Kc"], "p3": ["7c", "2d"]}, ["2c", "7h", "9s"], ["p3"]),
    step("board", {"p1": ["As", "Ad"], "p2": ["Kh", "Kc"], "p3": ["7c", "2d"]}, ["2c", "7h", "9s", "Kd"], ["p3"]),
    step("fold", {"p1": ["As", "Ad"], "p2": ["Kh", "Kc"], "p3": ["7c", "2d"]}, ["2c", "7h", "9s", "Kd"], ["p3", "p1"]),
]


def test_step_equities_live_seats_only_none_before_the_deal_and_after_the_hand_is_decided():
    out = step_equities(HAND)
    assert out[:3] == [None, None, None]
    assert set(out[3]) == {"p1", "p2", "p3"} and out[3] == out[4]
    assert set(out[5]) == {"p1", "p2"}
    assert out[5]["p1"] > 0.8 and sum(out[5].values()) == pytest.approx(1)
    flop = equities([P("AsAd"), P("KhKc")], P("2c7h9s"), dead=P("7c2d"))  # the folded hand is dead
    assert out[6] == out[7] == {"p1": flop.shares[0], "p2": flop.shares[1]}
    turn = brute_force([P("AsAd"), P("KhKc")], P("2c7h9sKd"), dead=P("7c2d"))
    assert [out[8]["p1"], out[8]["p2"]] == pytest.approx(turn, abs=1e-12)
    assert out[9] is None


def test_step_equities_compute_once_per_distinct_position(monkeypatch):
    calls = []
    real = equity_module.equities

    def counting(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(equity_module, "equities", counting)
    step_equities(HAND)
    assert len(calls) == 4  # preflop 3-way, preflop after the fold, the flop, the turn


def test_a_seat_view_uses_only_what_it_shows():
    view = [step("hole", {"p1": ["As", "Ad"], "p2": ["??", "??"]}),
            step("board", {"p1": ["As", "Ad"], "p2": ["??", "??"]}, ["2c", "7h", "9s", "Kd"])]
    out = step_equities(view)
    assert out[0] == dict(zip(["p1", "p2"], equities([P("AsAd"), [None, None]], []).shares))
    brute = brute_force([P("AsAd"), [None, None]], P("2c7h9sKd"), judge=our_judge)
    assert [out[1]["p1"], out[1]["p2"]] == pytest.approx(brute, abs=1e-12)
    # whatever p2 really holds, the view's numbers are the same: they come from the step alone
    for hidden in (["Kh", "Kc"], ["7c", "2d"]):
        spectator = step_equities([step("board", {"p1": ["As", "Ad"], "p2": hidden}, ["2c", "7h", "9s", "Kd"])])
        assert spectator[0] != out[1]


def test_a_half_known_hole_in_a_step():
    out = step_equities([step("board", {"p1": ["As", "??"], "p2": ["Kh", "Kc"]}, ["2c", "7h", "9s", "Kd", "3h"])])
    assert out[0] == dict(zip(["p1", "p2"], equities([[P("As")[0], None], P("KhKc")], P("2c7h9sKd3h")).shares))
    assert out[0]["p2"] == 1.0  # trip kings: one card cannot beat them on this board
    assert [out[0]["p1"], out[0]["p2"]] == pytest.approx(
        brute_force([[P("As")[0], None], P("KhKc")], P("2c7h9sKd3h")), abs=1e-12)


def test_step_equities_refuses_text_that_is_not_cards():
    with pytest.raises(ValueError, match="not cards"):
        step_equities([step("hole", {"p1": ["As", "Ax"], "p2": ["Kh", "Kc"]})])


@pytest.mark.skipif(NATIVE is None, reason="C extension not built")
def test_step_equities_are_the_same_with_and_without_the_c_loops():
    assert step_equities(HAND, native=True) == step_equities(HAND, native=False)

