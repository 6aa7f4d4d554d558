"""Properties of the engine over random legal hands (hypothesis draws the hands' seeds)."""

from __future__ import annotations

import random
from decimal import Decimal

from hypothesis import given, settings, strategies as st

from replay.games.holdem.replay import HoldemReplay

from .helpers import choose, log, new_state, random_hand, random_setup

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


@settings(max_examples=200, deadline=None)
@given(SEEDS)
def test_chips_are_conserved_at_every_action_and_at_the_end(seed):
    hand = random_hand(random.Random(seed))
    total = sum(hand["starting_stacks"])
    state = new_state(hand)
    for text in hand["actions"]:
        assert state.push_action(text) == []
        assert sum(state.stacks) + state.pot_total() == total
        assert all(s >= 0 for s in state.stacks)
    s = state.settle()
    assert s.settled and sum(s.stacks) + s.rake == total and s.rake == 0
    assert sum(s.payoffs) == 0
    assert sum(p.amount for p in s.pots) == state.pot_total()
    assert all(sum(p.shares) == p.amount for p in s.pots)


@settings(max_examples=100, deadline=None)
@given(SEEDS)
def test_the_legal_range_is_exactly_what_push_accepts(seed):
    rng = random.Random(seed)
    state = new_state(random_setup(rng))
    deck = list(range(52))
    rng.shuffle(deck)
    from replay.games.holdem.cards import cards_text
    while not state.over:
        due = state.dealer_due
        if due is not None:
            n = 2 if due[0] == "dh" else due[1]
            text = (f"d dh {due[1]} " if due[0] == "dh" else "d db ") + cards_text([deck.pop() for _ in range(n)])
            assert state.push_action(text) == []
            continue
        seat, legal = state.to_act, state.legal()
        assert legal.call <= state.stacks[state.index[seat]]
        if legal.min_to is not None:
            assert legal.min_to <= legal.max_to
            assert state.copy().push_action(f"{seat} cbr {legal.min_to}") == []
            assert state.copy().push_action(f"{seat} cbr {legal.max_to}") == []
            unit = Decimal("0.01") if isinstance(legal.max_to, Decimal) else 1
            assert state.copy().push_action(f"{seat} cbr {legal.max_to + unit}")[0].kind == "bet_too_large"
        else:
            top = max(state.bets) + 10 ** 6
            assert state.copy().push_action(f"{seat} cbr {top}")[0].fatal
        if not legal.fold:
            assert [f.kind for f in state.copy().push_action(f"{seat} f")] == ["needless_fold"]
        text = choose(rng, state)
        twin = state.copy()
        assert state.push_action(text) == twin.push_action(text)
        assert (state.to_act, state.stacks, state.bets, state.dealer_due) == (
            twin.to_act, twin.stacks, twin.bets, twin.dealer_due)


@settings(max_examples=60, deadline=None)
@given(SEEDS)
def test_a_seat_never_sees_hidden_hole_cards(seed):
    hand = random_hand(random.Random(seed))
    replay = HoldemReplay.from_log(log(hand))
    assert replay.findings == [] and replay.step_count == len(replay.steps)
    everything = replay.steps_json()
    seat = replay.seats[seed % len(replay.seats)]
    view = replay.steps_json(seat)
    assert len(view) == len(everything) == len(hand["actions"]) + 1
    shown: set[str] = set()
    for step, full in zip(view, everything):
        if step["kind"] == "show":
            shown.add(step["seat"])
        for other, cards in step["hole"].items():
            if other == seat or other in shown:
                assert cards == full["hole"][other]
            elif full["hole"][other]:
                assert cards == ["??", "??"]
                assert "".join(full["hole"][other]) not in step["text"]
    assert everything[-1]["last"] and not any(s["last"] for s in everything[:-1])
    assert set(everything[-1]["payoffs"]) == set(replay.seats)


NOTATION = st.one_of(
    st.builds(lambda s, v: f"p{s} {v}", st.integers(1, 4), st.sampled_from(["f", "cc", "sm", "sm -"])),
    st.builds(lambda s, a: f"p{s} cbr {a}", st.integers(1, 4), st.integers(1, 3000)),
    st.builds(lambda s, c: f"p{s} sm {c}", st.integers(1, 4), st.sampled_from(["AcAd", "2c3c", "????", "Ac??"])),
    st.builds(lambda s, c: f"d dh p{s} {c}", st.integers(1, 4),
              st.sampled_from(["AcAd", "KsKh", "2c3c", "????", "Qd", "7h8h9h"])),
    st.builds(lambda c: f"d db {c}", st.sampled_from(["2d3d4d", "5s", "6s", "AcKcQc", "Jh", "TsTd", "??"])),
    st.just("# a comment"),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(NOTATION, max_size=40), st.sampled_from(["NT", "FT"]))
def test_any_sequence_of_notations_gives_findings_never_an_exception(actions, variant):
    from replay.games.holdem.engine import FINDING_KINDS, HoldemState
    state, _ = HoldemState.from_setup(variant, [0, 0, 0, 0], [50, 100, 0, 0], [1000, 500, 3000, 200],
                                      min_bet=100, small_bet=100, big_bet=200)
    total = 1000 + 500 + 3000 + 200
    for i, text in enumerate(actions):
        before = state.steps
        found = state.push_action(text, i)
        assert all(f.kind in FINDING_KINDS and f.fatal == FINDING_KINDS[f.kind] for f in found)
        if any(f.fatal for f in found):
            assert state.stopped and state.steps == before and state.to_act is None
        assert sum(state.stacks) + state.pot_total() == total
    s = state.settle()
    assert sum(x for x in s.stacks) + s.rake <= total
