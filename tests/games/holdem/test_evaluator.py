"""The hand evaluator against pokerkit's (an independent implementation), over every kind of
5-card hand and many random 5, 6 and 7-card hands, in both backends (pure Python and the C
extension, when built): same order, same ties, same categories."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations, combinations_with_replacement, product
from math import comb, prod

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pokerkit import StandardHighHand

from replay.games.holdem import evaluator
from replay.games.holdem.cards import cards_text, parse_cards
from replay.games.holdem.evaluator import CATEGORIES, describe, rank_python

NATIVE = evaluator._native
BACKENDS = [pytest.param(rank_python, id="python"),
            pytest.param(NATIVE.rank if NATIVE else None, id="native",
                         marks=pytest.mark.skipif(NATIVE is None, reason="C extension not built"))]

#: how many of the 2,598,960 five-card hands fall in each category (the textbook table)
FIVE_CARD_COUNTS = {
    "straight flush": 40, "four of a kind": 624, "full house": 3744, "flush": 5108,
    "straight": 10200, "three of a kind": 54912, "two pair": 123552, "one pair": 1098240,
    "high card": 1302540,
}


def pk(cards):
    return StandardHighHand.from_game(cards_text(cards))


def pk_category(hand) -> str:
    return hand.entry.label.value.lower()


def five_card_classes():
    """One hand per kind of 5-card hand, with how many of the 2,598,960 hands are of its kind:
    every multiset of ranks off-suit, and every set of 5 distinct ranks suited too."""
    for ranks in combinations_with_replacement(range(13), 5):
        counts = Counter(ranks)
        if max(counts.values()) > 4:
            continue
        # suits: the i-th copy of a rank in suit i, but distinct ranks in two suits at least
        cards, seen = [], Counter()
        for r in ranks:
            cards.append(r * 4 + seen[r])
            seen[r] += 1
        if len(counts) == 5:
            cards[0] = ranks[0] * 4 + 1  # off-suit: c, d, c, c, c
            yield cards, 4 ** 5 - 4
            yield [r * 4 + 3 for r in ranks], 4  # suited
        else:
            yield cards, prod(comb(4, m) for m in counts.values())


CLASSES = list(five_card_classes())


def test_the_classes_cover_every_five_card_hand():
    assert len(CLASSES) == 7462
    assert sum(n for _, n in CLASSES) == comb(52, 5)


@pytest.mark.parametrize("rank", BACKENDS)
def test_every_kind_of_five_card_hand_orders_as_pokerkit_and_the_categories_count_right(rank):
    values = [rank(cards) for cards, _ in CLASSES]
    assert len(set(values)) == 7462  # every kind its own value
    theirs = [pk(cards).entry.index for cards, _ in CLASSES]  # pokerkit: higher is stronger
    order = sorted(range(len(CLASSES)), key=values.__getitem__)
    assert [theirs[i] for i in order] == sorted(theirs)
    counts = Counter()
    for (cards, n), value in zip(CLASSES, values):
        assert CATEGORIES[value >> 20] == pk_category(pk(cards))
        counts[CATEGORIES[value >> 20]] += n
    assert counts == FIVE_CARD_COUNTS


@pytest.mark.skipif(NATIVE is None, reason="C extension not built")
def test_all_2598960_five_card_hands_by_the_c_evaluator():
    counts = Counter(v >> 20 for v in map(NATIVE.rank, combinations(range(52), 5)))
    assert {CATEGORIES[c]: n for c, n in counts.items()} == FIVE_CARD_COUNTS


hands = st.integers(5, 7).flatmap(lambda n: st.lists(st.integers(0, 51), min_size=n, max_size=n, unique=True))


@settings(max_examples=600, deadline=None, derandomize=True)
@given(hands, hands)
def test_random_hands_compare_as_pokerkit(a, b):
    ours = [rank_python(a), rank_python(b)]
    theirs = [pk(a), pk(b)]
    assert (ours[0] > ours[1]) == (theirs[0] > theirs[1])
    assert (ours[0] == ours[1]) == (theirs[0] == theirs[1])
    assert [CATEGORIES[v >> 20] for v in ours] == [pk_category(h) for h in theirs]
    if NATIVE is not None:
        assert [NATIVE.rank(a), NATIVE.rank(b)] == ours


@settings(max_examples=400, deadline=None, derandomize=True)
@given(st.integers(6, 7).flatmap(lambda n: st.lists(st.integers(0, 51), min_size=n, max_size=n, unique=True)))
def test_six_and_seven_cards_are_their_best_five(cards):
    assert rank_python(cards) == max(rank_python(five) for five in combinations(cards, 5))


def test_a_sorted_sample_of_seven_card_hands_is_sorted_for_pokerkit_too():
    rng = random.Random(26)
    sample = [rng.sample(range(52), 7) for _ in range(3000)]
    values = [evaluator.rank(h) for h in sample]
    theirs = [pk(h) for h in sample]
    order = sorted(range(len(sample)), key=values.__getitem__)
    for i, j in zip(order, order[1:]):
        assert (values[i] == values[j]) == (theirs[i] == theirs[j])
        assert theirs[i] <= theirs[j]


@pytest.mark.skipif(NATIVE is None, reason="C extension not built")
def test_both_backends_agree_on_many_random_hands():
    rng = random.Random(5)
    for _ in range(30000):
        cards = rng.sample(range(52), rng.choice((5, 6, 7)))
        assert NATIVE.rank(cards) == rank_python(cards), cards


@pytest.mark.parametrize("rank", BACKENDS)
@pytest.mark.parametrize("a, b", [
    ("AsKsQsJsTs", "AhKhQhJhTh"),          # royal flushes split
    ("2c3d4h5s7c", "2d3h4s5c7d"),          # nothing split
    ("KsKd7h7c2s", "KhKc7s7d2d"),          # same two pair, same kicker
    ("AcAd", "AhAs"),                      # the board plays for both (7 cards)
    ("2c3d", "4h4s"),                      # a board straight beats the pair of fours: both play it
])
def test_ties(rank, a, b):
    board = {"AcAd": "KsQsJd9c2h", "AhAs": "KsQsJd9c2h", "2c3d": "9h8d7c6sTc", "4h4s": "9h8d7c6sTc"}
    a_cards = parse_cards(a + board.get(a, ""))
    b_cards = parse_cards(b + board.get(b, ""))
    assert rank(a_cards) == rank(b_cards)


@pytest.mark.parametrize("rank", BACKENDS)
@pytest.mark.parametrize("better, worse", [
    ("As2s3s4s5s", "AdAhAcAsKd"),   # the steel wheel beats four aces
    ("2c3d4h5s6c", "AcAdAhKsQd"),             # a six-high straight beats trips
    ("KcKdKhQsQd", "Ac2d3h4s5c"),             # a full house beats the wheel
    ("6c2d3h4s5c", "Ac2d3h4s5d"),             # six-high beats the wheel
    ("KsKd7h7c3s", "KhKc7s7d2d"),             # the kicker decides
    ("AhAd9c9d2s3h4c", "AsAc8h8s2d3c4d"),     # two pair: the second pair decides
    ("AhAdAc9c9d2s", "KhKdKc9h9sQs"),         # full houses by their trips
    ("8h8d8c2s2h", "7c7s7hAsAd"),
    ("AhKhQh2h4hAs", "AcKcQc2c3cAd"),         # flushes to the fifth card
])
def test_order(rank, better, worse):
    assert rank(parse_cards(better)) > rank(parse_cards(worse))


@pytest.mark.parametrize("cards, words", [
    ("AsKsQsJsTs", "a royal flush"),
    ("9s8s7s6s5s2c", "a straight flush, nine high"),
    ("As2s3s4s5s", "a straight flush, five high"),
    ("QcQdQhQs3d", "four of a kind, queens"),
    ("6c6d6h9s9d", "a full house, sixes full of nines"),
    ("AhJh9h4h2hKsKd", "a flush, ace high"),
    ("Tc9d8h7s6c", "a straight, ten high"),
    ("As2d3c4h5s9d", "a straight, five high"),
    ("7c7d7hAsKd", "three of a kind, sevens"),
    ("KsKd7h7c2s", "two pair, kings and sevens"),
    ("2c2dAhKsQd", "a pair of twos"),
    ("Ac9d7h4s2c", "high card, ace"),
])
def test_describe(cards, words):
    value = evaluator.rank(parse_cards(cards))
    assert describe(value) == words
    assert evaluator.category(value) in words or words.startswith(("a royal", "a pair"))


@pytest.mark.parametrize("rank", BACKENDS)
@pytest.mark.parametrize("cards, message", [
    ([1, 2, 3, 4], "5, 6 or 7 cards, not 4"),
    (list(range(8)), "5, 6 or 7 cards, not 8"),
    ([0, 1, 2, 3, 3], "distinct"),
    ([0, 1, 2, 3, 52], "distinct numbers 0..51"),
])
def test_bad_hands_are_value_errors(rank, cards, message):
    with pytest.raises(ValueError, match=message):
        rank(cards)


def test_describe_refuses_a_non_value():
    with pytest.raises(ValueError, match="not a hand value"):
        describe(9 << 20)


def test_the_module_says_which_backend_it_uses():
    assert evaluator.BACKEND == ("native" if NATIVE else "python")
    assert evaluator.rank is (NATIVE.rank if NATIVE else rank_python)


def test_setup_builds_every_games_c_file_as_an_optional_extension():
    import runpy

    from tests.conftest import ROOT

    extensions = runpy.run_path(str(ROOT / "setup.py"))["extensions"]()
    named = {e.name: e.sources for e in extensions}
    assert named["replay.games.holdem._native"] == ["replay/games/holdem/_native.c"]
    assert named["replay.games.floating_bridge.solver._dds"] == ["replay/games/floating_bridge/solver/_dds.c"]
    assert all(e.optional for e in extensions)
