"""The hold'em engine's rules, one by one (pokerkit's defaults where PHH leaves a detail open)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from replay.games.holdem.cards import parse_cards
from replay.games.holdem.engine import HoldemState, Legal, parse_action, split
from replay.log import LogFormatError


def table(stacks, blinds=(50, 100), antes=None, variant="NT", min_bet=100, small_bet=None, big_bet=None,
          cards=None):
    """A hand with its hole cards dealt (``cards``: one text per seat, default distinct cards)."""
    n = len(stacks)
    blinds = list(blinds) + [0] * (n - len(blinds))
    antes = list(antes) if antes is not None else [0] * n
    if variant == "FT":
        min_bet = None
    state, findings = HoldemState.from_setup(variant, antes, blinds, list(stacks), min_bet=min_bet,
                                             small_bet=small_bet, big_bet=big_bet)
    assert findings == []
    default = ["2c3c", "4c5c", "6c7c", "8c9c", "TcJc", "QcKc", "2d3d", "4d5d", "6d7d", "8d9d"]
    for i, text in enumerate(cards or default[:n]):
        assert state.push_action(f"d dh p{i + 1} {text}") == []
    return state


def run(state, *actions):
    for a in actions:
        found = state.push_action(a)
        assert found == [], (a, found)
    return state


def test_blinds_are_posted_and_the_seat_after_the_big_blind_acts_first():
    state = table([1000] * 4)
    assert state.bets == [50, 100, 0, 0] and state.stacks == [950, 900, 1000, 1000]
    assert state.to_act == "p3" and state.legal() == Legal(True, 100, 200, 1000)


def test_heads_up_blinds_are_reversed():
    state = table([1000, 1000], blinds=(50, 100))
    # PHH lists [small, big]; heads-up p1 (the big blind) posts 100 and the button p2 acts first
    assert state.bets == [100, 50] and state.to_act == "p2"
    run(state, "p2 cc", "p1 cc", "d db AhKhQd")
    assert state.to_act == "p1"  # after the flop the big blind acts first


def test_antes_are_dead_money_in_the_main_pot():
    state = table([1000, 1000, 1000], antes=[10, 10, 10])
    assert state.pot_total() == 180 and state.stacks == [940, 890, 990]
    assert [(p.amount, p.seats) for p in state.pots()] == [(30, ("p1", "p2", "p3"))]  # bets: 150


def test_big_blind_ante_and_an_ante_larger_than_the_stack():
    state = table([1000, 1000, 5], antes=[0, 100, 0, ], blinds=(50, 100))
    assert state.stacks == [950, 800, 5]
    state = table([1000, 1000, 5], antes=[10, 10, 10])
    assert state.stacks == [940, 890, 0] and state.all_in == [False, False, True]


def test_a_straddle_acts_last_and_sets_the_bet_to_call():
    state = table([5000] * 5, blinds=(50, 100, 200))
    assert state.to_act == "p4"
    legal = state.legal()
    assert legal.call == 200 and legal.min_to == 300  # pokerkit: the min-raise adds min_bet to the straddle


def test_min_raise_is_the_largest_raise_of_the_street():
    state = table([10000] * 4)
    run(state, "p3 cbr 300")  # raises by 200
    assert state.legal().min_to == 500
    assert state.push_action("p4 cbr 450")[0].kind == "bet_too_small"


def test_an_all_in_for_less_does_not_reopen_the_betting():
    state = table([350, 10000, 10000])
    run(state, "p3 cbr 300", "p1 cbr 350")  # an all-in raise of 50, less than a full raise of 200
    assert state.to_act == "p2"
    assert state.legal().min_to == 550  # p2 has not acted: it may raise
    run(state, "p2 cc")
    assert state.to_act == "p3" and state.legal() == Legal(True, 50, None, None)
    assert state.copy().push_action("p3 cbr 700")[0].kind == "raise_not_allowed"
    run(state, "p3 cc")
    assert state.dealer_due == ("db", 3)


def test_short_all_ins_that_add_up_to_a_full_raise_reopen_the_betting():
    state = table([10000, 10000, 10000, 400, 500])
    run(state, "p3 cbr 300", "p4 cbr 400", "p5 cbr 500", "p1 cc", "p2 f")
    assert state.to_act == "p3" and state.legal().min_to == 700


def test_side_pots_with_three_all_ins():
    state = table([100, 300, 600, 1000], blinds=(50, 100))
    run(state, "p3 cbr 600", "p4 cc", "p1 cc", "p2 cc")
    assert state.dealer_due == ("db", 3)
    assert [(p.amount, p.seats) for p in state.pots()] == [
        (400, ("p1", "p2", "p3", "p4")), (600, ("p2", "p3", "p4")), (600, ("p3", "p4"))]
    assert state.stacks == [0, 0, 0, 400]
    run(state, "d db 2h7s9d", "d db Jd", "d db Kh")
    s = state.settle()
    # p4 (8c9c) pairs the nine: it wins every pot it is in
    assert s.stacks == [0, 0, 0, 2000] and s.settled and s.winners == ["p4"]


def test_a_split_pot_gives_the_odd_chip_to_the_first_seat():
    state = table([100] * 3, blinds=(1, 2), antes=[1, 1, 1], cards=["Qh3c", "Qd4c", "Jh3d"])
    run(state, "p3 cc", "p1 cc", "p2 cc", "d db AsAdKs", "p1 cc", "p2 cc", "p3 cc", "d db Kd", "p1 cc",
        "p2 cc", "p3 cc", "d db 2c", "p1 cc", "p2 cc", "p3 cc")
    s = state.settle()
    assert s.pots[0].amount == 9 and s.pots[0].winners == ("p1", "p2") and s.pots[0].shares == (5, 4)
    assert s.stacks == [102, 101, 97]


def test_the_uncalled_part_of_a_bet_goes_back_and_is_not_winnings():
    state = table([1000, 1000, 1000])
    run(state, "p3 cbr 800", "p1 f", "p2 f")
    s = state.settle()
    assert s.winnings == [0, 0, 250] and s.stacks == [950, 900, 1150]


def test_fixed_limit_sizes_and_the_cap():
    state = table([1000] * 3, blinds=(1, 2), variant="FT", small_bet=2, big_bet=4)
    assert state.legal() == Legal(True, 2, 4, 4)
    assert state.copy().push_action("p3 cbr 5")[0].kind == "bet_too_large"
    # not the fixed size: bet_too_large, the spec's first row for FT, whichever side it misses
    assert state.copy().push_action("p3 cbr 3")[0].kind == "bet_too_large"
    assert state.copy().push_action("p3 cbr 2")[0].kind == "bet_too_small"  # not above the bet: no raise at all
    run(state, "p3 cbr 4", "p1 cbr 6", "p2 cbr 8", "p3 cbr 10")  # four bets and raises: capped
    assert state.to_act == "p1" and state.legal() == Legal(True, 4, None, None)
    assert state.copy().push_action("p1 cbr 12")[0].kind == "raise_not_allowed"
    run(state, "p1 cc", "p2 cc", "d db AhKhQd")
    assert state.legal() == Legal(False, 0, 2, 2)
    run(state, "p1 cc", "p2 cc", "p3 cc", "d db 2s")
    assert state.legal() == Legal(False, 0, 4, 4)  # the big bet from the turn


def test_decimal_amounts_stay_exact():
    half, quarter = Decimal("0.50"), Decimal("0.25")
    state, _ = HoldemState.from_setup("NT", [0, 0, 0], [quarter, half, 0],
                                      [Decimal("10.10"), Decimal("20"), Decimal("7.35")], min_bet=half)
    for i, c in enumerate(["AhAd", "KhKd", "2c7d"]):
        state.push_action(f"d dh p{i + 1} {c}")
    run(state, "p3 cbr 1.10", "p1 cc", "p2 cc", "d db 3s4s9h", "p1 cbr 0.51", "p2 f", "p3 cc", "d db Tc",
        "p1 cc", "p3 cc", "d db Jd", "p1 cc", "p3 cc")
    s = state.settle()
    assert s.stacks == [Decimal("12.81"), Decimal("18.90"), Decimal("5.74")]
    assert sum(s.stacks) == Decimal("37.45") and all(isinstance(x, Decimal) for x in s.stacks)
    assert split(Decimal("1.01"), 2, -2) == (Decimal("0.50"), Decimal("0.01"))


def test_unknown_hole_cards_are_settled_from_the_logged_winnings_with_rake():
    state = table([1000, 1000], cards=["????", "AhAd"])
    run(state, "p2 cbr 300", "p1 cc", "d db 2c7d9h", "p1 cc", "p2 cc", "d db Ts", "p1 cc", "p2 cc",
        "d db Js", "p1 cc", "p2 cc")
    assert not state.settle().settled
    s = state.settle(winnings=[0, 590])
    assert s.settled and s.rake == 10 and s.stacks == [700, 1290] and s.winners == ["p2"]
    s = state.settle(finishing_stacks=[1295, 700])
    assert s.settled and s.rake == 5 and s.winners == ["p1"]
    bad = state.settle(winnings=[700, 0])
    assert [f.kind for f in bad.findings] == ["winnings_mismatch"] and not bad.settled
    both = state.settle(winnings=[600, 600])  # each could have won the pot, not both
    assert [(f.kind, f.seat) for f in both.findings] == [("winnings_mismatch", None)] and not both.settled
    more = state.settle(finishing_stacks=[1300, 1300])
    assert [(f.kind, f.seat) for f in more.findings] == [("stacks_mismatch", None)] and not more.settled


def test_a_shown_card_reveals_an_unknown_hole_card():
    state = table([1000, 1000], cards=["????", "AhAd"])
    run(state, "p2 cc", "p1 cc", "d db 2c7d9h", "p1 cc", "p2 cc", "d db Ts", "p1 cc", "p2 cc", "d db Js")
    assert state.may_show() == []
    run(state, "p1 cc", "p2 cc")
    assert state.may_show() == ["p1", "p2"]
    run(state, "p1 sm QsKs", "p2 sm -")
    assert state.may_show() == []
    s = state.settle()
    assert s.settled and s.winners == ["p1"]  # a straight beats aces
    assert parse_cards("QsKs")[0] not in state.unseen()


def test_the_dealer_and_the_legal_view():
    state, _ = HoldemState.from_setup("NT", [0, 0], [1, 2], [100, 100], min_bet=2)
    assert state.to_act is None and state.legal() is None and state.dealer_due == ("dh", "p1")
    assert len(state.unseen()) == 52
    run(state, "d dh p1 AcAd", "d dh p2 ????")
    assert len(state.unseen()) == 50 and state.street == "preflop"


def test_copy_is_independent():
    state = table([1000] * 3)
    other = state.copy()
    run(other, "p3 cbr 300", "p1 f")
    assert state.to_act == "p3" and state.bets == [50, 100, 0] and not state.folded[0]


def test_chat_and_no_ops_change_nothing():
    from types import SimpleNamespace as NS
    state = table([1000] * 3)
    assert state.push(NS(type="chat", text="hi"), 3) == [] and state.push_action("# a comment", 4) == []
    assert state.steps == 3 and state.to_act == "p3"


def test_notation_that_is_not_phh_is_a_format_error():
    with pytest.raises(LogFormatError):
        parse_action("p1 raise 300")
    with pytest.raises(LogFormatError):
        parse_action("p1 cbr -3")
    with pytest.raises(LogFormatError):
        table([100, 100]).push_action("p7 cc")


@pytest.mark.parametrize("name", ["replay.games.holdem.engine", "replay.games.holdem.replay"])
def test_docstring_examples(name):
    import doctest
    import importlib
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0 and result.attempted > 5
