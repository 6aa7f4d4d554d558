"""Mucks at the showdown and side pots: a muck forfeits a pot only to a hand still in that pot.

A seat that mucks gives up its claim against the seats that still hold a hand in the same pot;
a pot whose every contender mucked goes to the last of them to muck (the rule of "the last seat
left", pot by pot), never to a seat that did not put enough in to be in it. pokerkit 0.7.7 cannot
settle such a pot (it asserts, or burns the chips with a warning), so the pokerkit cross-check
covers the mucks it can play: those that leave a hand in every pot the mucking seat was in.
"""

from __future__ import annotations

import random

from replay.games.holdem.cards import cards_text
from replay.games.holdem.engine import HoldemState

from .helpers import choose, log, new_state, random_setup
from .test_pokerkit import cross_check

# found by the codec's tests: p1 and p3 all-in for 500, p2 and p4 build a side pot, p4 folds it to
# p2; at the showdown p1 shows, p2 (alone in the side pot) mucks, then p3 mucks
CODEC_HAND = {
    "variant": "NT", "antes": [0, 0, 0, 0], "blinds_or_straddles": [50, 100, 0, 0], "min_bet": 100,
    "starting_stacks": [500, 10000, 500, 10000],
    "actions": ["d dh p1 ????", "d dh p2 8sTc", "d dh p3 3cKd", "d dh p4 ????", "p3 cc", "p4 cbr 450", "p1 cc",
                "p2 cc", "p3 cc", "d db 2c2sTh", "p1 cbr 50", "p2 cc", "p3 cc", "p4 cc", "d db 7s",
                "p2 cbr 1000", "p4 cbr 3666", "p2 cc", "d db Qs", "p2 cbr 100", "p4 f", "p1 sm Ac9s", "p2 sm",
                "p3 sm"],
}


def played(setup, actions=None):
    state = new_state(setup)
    for a in setup["actions"] if actions is None else actions:
        found = state.push_action(a)
        assert found == [], (a, found)
    return state


def most_winnable(state: HoldemState, i: int):
    """The most seat ``i`` can take from the pots: from each seat, what it put in up to what ``i``
    put in (and the dead antes)."""
    return state.dead + sum(min(c, state.contrib[i]) for c in state.contrib)


def test_the_codec_hand_gives_the_side_pot_to_its_only_contender():
    state = played(CODEC_HAND)
    assert state.over
    s = state.settle()
    assert s.settled
    # main pot 4 x 500 = 2000: p1 (shown) against p2 and p3 (mucked); the side pot 2 x 3666 = 7332
    # is p2's and p4's, p4 folded it, p2 is its only contender and keeps it though it mucked
    assert [(p.amount, p.seats, p.winners) for p in s.pots] == [(2000, ("p1",), ("p1",)),
                                                                  (7332, ("p2",), ("p2",))]
    assert s.winnings == [2000, 7332, 0, 0]
    assert s.stacks == [2000, 13166, 0, 5834]
    assert s.payoffs == [1500, 3166, -500, -4166]
    assert s.winners == ["p1", "p2"]
    assert sum(s.stacks) == sum(CODEC_HAND["starting_stacks"])
    assert s.winnings[0] <= most_winnable(state, 0) == 2000


def test_the_codec_hand_replays_without_a_finding_when_the_log_agrees():
    from replay.games.holdem.replay import HoldemReplay

    end = {"reason": "completed", "finishing_stacks": [2000, 13166, 0, 5834], "winnings": [2000, 7332, 0, 0]}
    replay = HoldemReplay.from_log(log(CODEC_HAND, end=end))
    assert replay.findings == [] and replay.winners == ["p1", "p2"]
    data = replay.to_json()
    assert data["settled"] and [p["winners"] for p in data["pots"]] == [["p1"], ["p2"]]
    # the log that pays p1 everything (the old settlement) is now a finding
    wrong = {"reason": "completed", "finishing_stacks": [9332, 5834, 0, 5834]}
    assert {f.kind for f in HoldemReplay.from_log(log(CODEC_HAND, end=wrong)).findings} == {"stacks_mismatch"}


def test_a_side_pot_whose_contenders_all_muck_goes_to_the_last_to_muck():
    # p1 all-in for 500 preflop; p2 and p3 play a side pot to the river and both muck
    setup = {"variant": "NT", "antes": [0, 0, 0], "blinds_or_straddles": [50, 100, 0], "min_bet": 100,
             "starting_stacks": [500, 5000, 5000]}
    deal = ["d dh p1 2h7d", "d dh p2 AcAd", "d dh p3 KcKd", "p3 cbr 500", "p1 cc", "p2 cc", "d db 2c5d9h",
            "p2 cbr 1000", "p3 cc", "d db Ts", "p2 cc", "p3 cc", "d db Js", "p2 cc", "p3 cc"]
    for order, last in ((["p2 sm", "p3 sm"], "p3"), (["p3 sm", "p2 sm"], "p2")):
        state = played(setup, deal + ["p1 sm -"] + order)
        s = state.settle()
        assert s.settled
        assert [(p.amount, p.winners) for p in s.pots] == [(1500, ("p1",)), (2000, (last,))]
        assert sum(s.stacks) == 10500
    # when p1 mucks last of all, the main pot is still p1's: the last to muck in it
    state = played(setup, deal + ["p2 sm", "p3 sm", "p1 sm"])
    s = state.settle()
    assert [(p.amount, p.winners) for p in s.pots] == [(1500, ("p1",)), (2000, ("p3",))]


def test_two_hands_left_beside_a_side_pot_everybody_in_mucked():
    # p1 and p3 all-in for 500; p2 and p4 fight a side pot and both muck; p1 and p3 show down the main pot
    setup = {"variant": "NT", "antes": [0, 0, 0, 0], "blinds_or_straddles": [50, 100, 0, 0], "min_bet": 100,
             "starting_stacks": [500, 5000, 500, 5000]}
    actions = ["d dh p1 AhAs", "d dh p2 2d7c", "d dh p3 KhKs", "d dh p4 3d8c", "p3 cbr 500", "p4 cc", "p1 cc",
               "p2 cc", "d db 2c5d9h", "p2 cbr 1000", "p4 cc", "d db Ts", "p2 cc", "p4 cc", "d db Jd", "p2 cc",
               "p4 cc", "p4 sm", "p2 sm", "p3 sm -", "p1 sm -"]
    s = played(setup, actions).settle()
    assert s.settled
    assert [(p.amount, p.seats, p.winners) for p in s.pots] == [(2000, ("p1",), ("p1",)),  # p3 killed
                                                                  (2000, ("p2", "p4"), ("p2",))]
    assert s.stacks == [2000, 5500, 0, 3500]


def test_heads_up_both_muck():
    setup = {"variant": "NT", "antes": [0, 0], "blinds_or_straddles": [50, 100], "min_bet": 100,
             "starting_stacks": [1000, 1000]}
    deal = ["d dh p1 AcAd", "d dh p2 KcKd", "p2 cc", "p1 cc", "d db 2c3d4h", "p1 cc", "p2 cc", "d db 9s", "p1 cc",
            "p2 cc", "d db Js", "p1 cc", "p2 cc"]
    for order, last in ((["p1 sm", "p2 sm"], "p2"), (["p2 sm", "p1 sm"], "p1")):
        state = played(setup, deal + order)
        assert state.over and state.may_show() == []
        s = state.settle()
        assert s.settled and s.winners == [last] and [p.amount for p in s.pots] == [200]
        assert sum(s.stacks) == 2000  # pokerkit burns this pot (both hands mucked): we keep the chips
    # all-in before the flop, both muck before the run-out (the board is dealt while nothing is decided)
    state = played(setup, deal[:2] + ["p2 cbr 1000", "p1 cc", "p1 sm", "p2 sm"])
    for board in ("2c3d4h", "9s", "Js"):
        if state.dealer_due:
            assert state.push_action(f"d db {board}") == []
    s = state.settle()
    assert state.over and s.settled and s.stacks == [0, 2000] and s.winners == ["p2"]


def _muck_hand(rng: random.Random, pokerkit_can: bool) -> dict:
    """A random hand played to its end whose showdown has mucks: every seat still in shows its cards,
    shows ``-`` or mucks, in a random order (before the run-out when all-in, as pokerkit wants). With
    ``pokerkit_can``, a seat mucks only if each pot it is in keeps a contender that has not mucked,
    and never leaves a single hand before the run-out."""
    setup = random_setup(rng)
    state = new_state(setup)
    deck = list(range(52))
    rng.shuffle(deck)
    actions: list[str] = []
    mucked: set[int] = set()
    while True:
        if (state.over or state.all_in_status) and (state.active_count() > 1 or mucked):
            pending = [state.index[s] for s in state.may_show()]
            if pending:
                i = rng.choice(pending)
                muck = rng.random() < 0.6
                if muck and pokerkit_can:
                    if not state.over and state.active_count() <= 2:
                        muck = False  # pokerkit asserts when one hand is left before the run-out
                    for pot in _contested(state, mucked):
                        if i in pot and not [j for j in pot if j != i and j not in mucked]:
                            muck = False
                text = f"{state.seats[i]} sm" if muck else f"{state.seats[i]} sm " + rng.choice(
                    ["-", cards_text(state.hole[i])])
                if muck:
                    mucked.add(i)
                assert state.push_action(text) == [], text
                actions.append(text)
                continue
        due = state.dealer_due
        if due is not None:
            if due[0] == "dh":
                text = f"d dh {due[1]} {cards_text([deck.pop(), deck.pop()])}"
            else:
                text = "d db " + cards_text([deck.pop() for _ in range(due[1])])
        elif state.to_act is not None:
            text = choose(rng, state, 0.3)
        else:
            break
        assert state.push_action(text) == [], text
        actions.append(text)
    return dict(setup, actions=actions)


def _contested(state: HoldemState, mucked: set[int]) -> list[list[int]]:
    """The contenders of each pot, mucked seats included (folded ones not)."""
    out = [state.folded[i] and i not in mucked for i in range(state.n)]
    return [list(seats) for _, seats in state._pots(out)]


def test_chips_are_conserved_and_no_seat_wins_from_a_pot_it_is_not_in():
    rng = random.Random(11)
    orphaned = 0
    for _ in range(600):
        hand = _muck_hand(rng, pokerkit_can=False)
        state = played(hand)
        assert state.over
        s = state.settle()
        assert s.settled, hand
        assert sum(s.stacks) == sum(hand["starting_stacks"]), hand
        assert sum(s.winnings) == state.pot_total() == sum(p.amount for p in s.pots), hand
        for i in range(state.n):
            assert s.winnings[i] <= most_winnable(state, i), (hand, i)
        for p in s.pots:
            assert p.winners and set(p.winners) <= set(p.seats) and sum(p.shares) == p.amount, hand
        # the rule itself: a pot goes to hands still in it, else to the last of its contenders to muck
        order = [state.index[a.split()[0]] for a in hand["actions"] if a.endswith(" sm")]
        pots = [(amount, seats) for amount, seats in state._pots(
            [state.folded[i] and i not in order for i in range(state.n)])]
        orphans = [seats for _, seats in pots if seats and all(i in order for i in seats)]
        orphaned += bool(orphans)
        for seats in orphans:
            last = state.seats[max(seats, key=order.index)]
            assert any(p.winners == (last,) and set(p.seats) == {state.seats[i] for i in seats} for p in s.pots), hand
        for p in s.pots:  # a pot that still has a hand in it goes to hands, never to a muck
            if not all(state.index[seat] in order for seat in p.seats):
                assert not any(state.index[w] in order for w in p.winners), hand
    assert orphaned >= 50, orphaned  # the generator does reach pots nobody still holds a hand in


def test_mucks_pokerkit_can_play_agree_with_pokerkit():
    rng = random.Random(5)
    mucks = 0
    for _ in range(300):
        hand = _muck_hand(rng, pokerkit_can=True)
        cross_check(hand)
        mucks += sum(a.endswith(" sm") for a in hand["actions"])
    assert mucks >= 100, mucks
