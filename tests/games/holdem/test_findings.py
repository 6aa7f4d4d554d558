"""One test per finding kind of the spec's table, each at its event (and its seat), plus the
table's order (the first row that applies names a breach) and what a fatal finding stops."""

from __future__ import annotations

import re

from replay.games.holdem.engine import FINDING_KINDS, HoldemState, judge
from replay.games.holdem.replay import HoldemReplay

from .helpers import log

SPEC = "/work/shared/spec/holdem.md"
DEAL = ["d dh p1 Ac2d", "d dh p2 Td9d", "d dh p3 7h7s"]
SETUP = {"variant": "NT", "antes": [0, 0, 0], "blinds_or_straddles": [50, 100, 0], "min_bet": 100,
         "starting_stacks": [10000, 10000, 10000]}


def findings(actions, setup=None, end=None):
    replay = HoldemReplay.from_log(log(setup or SETUP, actions, end))
    return [(f.kind, f.event, None if f.seat is None else str(f.seat), f.fatal) for f in replay.findings]


def test_the_kinds_are_the_spec_table_in_order():
    try:
        text = open(SPEC, encoding="utf-8").read()
    except OSError:
        return
    rows = re.findall(r"^\| `(\w+)` \| (yes|no) \|", text, re.M)
    assert [(k, f == "yes") for k, f in rows] == list(FINDING_KINDS.items())


def test_invalid_setup():
    bad = dict(SETUP, blinds_or_straddles=[50, 100])
    assert findings(DEAL, bad) == [("invalid_setup", None, None, True)]
    assert findings(DEAL, dict(SETUP, starting_stacks=[10000, 0, 10000]))[0][0] == "invalid_setup"
    assert findings([], dict(SETUP, antes=[0], blinds_or_straddles=[1], starting_stacks=[5]))[0][0] == "invalid_setup"
    assert findings([], dict(SETUP, min_bet=None))[0][0] == "invalid_setup"


def test_event_after_end():
    assert findings(DEAL + ["p3 f", "p1 f", "p2 cc"]) == [("event_after_end", 5, "p2", True)]
    assert findings(DEAL + ["p3 f", "p1 f", "d db AhKhQh"]) == [("event_after_end", 5, None, True)]


def test_out_of_turn():
    assert findings(DEAL + ["p1 cbr 300"]) == [("out_of_turn", 3, "p1", True)]
    assert findings(DEAL[:2] + ["p3 cc"]) == [("out_of_turn", 2, "p3", True)]  # the dealer must deal
    assert findings(DEAL + ["d db AhKhQh"]) == [("out_of_turn", 3, None, True)]  # p3 must act
    assert findings(DEAL + ["p3 sm 7h7s"]) == [("out_of_turn", 3, "p3", True)]


def test_wrong_deal():
    assert findings(["d dh p2 Ac2d"]) == [("wrong_deal", 0, "p2", True)]  # (a hole deal names its seat)
    assert findings(["d dh p1 Ac2d3d"]) == [("wrong_deal", 0, "p1", True)]
    assert findings(DEAL + ["p3 cc", "p1 cc", "p2 cc", "d db AhKhQhJh"]) == [("wrong_deal", 6, None, True)]
    assert findings(DEAL[:1] + ["d db AhKhQh"]) == [("wrong_deal", 1, None, True)]


def test_duplicate_card():
    assert findings(["d dh p1 Ac2d", "d dh p2 AcTd"]) == [("duplicate_card", 1, "p2", True)]
    end = ["p3 cc", "p1 cc", "p2 cc", "d db AhKhQh", "p1 cc", "p2 cc", "p3 cc", "d db 3s", "p1 cc", "p2 cc",
           "p3 cc", "d db 4s", "p1 cc", "p2 cc", "p3 cc"]
    assert findings(DEAL + end + ["p1 sm AcAd"]) == [("duplicate_card", 18, "p1", True)]


def test_bet_too_large():
    assert findings(DEAL + ["p3 cbr 12000"]) == [("bet_too_large", 3, "p3", True)]
    ft = dict(SETUP, variant="FT", min_bet=None, small_bet=100, big_bet=200)
    assert findings(DEAL + ["p3 cbr 300"], ft) == [("bet_too_large", 3, "p3", True)]


def test_bet_too_small():
    assert findings(DEAL + ["p3 cbr 150"]) == [("bet_too_small", 3, "p3", True)]
    assert findings(DEAL + ["p3 cbr 100"]) == [("bet_too_small", 3, "p3", True)]  # no more than the bet


def test_an_all_in_below_the_minimum_is_no_finding():
    short = dict(SETUP, starting_stacks=[10000, 10000, 150])
    assert findings(DEAL + ["p3 cbr 150"], short) == []


def test_raise_not_allowed():
    short = dict(SETUP, starting_stacks=[350, 10000, 10000])
    assert findings(DEAL + ["p3 cbr 300", "p1 cbr 350", "p2 cc", "p3 cbr 1000"], short) == [
        ("raise_not_allowed", 6, "p3", True)]
    ft = dict(SETUP, variant="FT", min_bet=None, small_bet=100, big_bet=200)
    capped = DEAL + ["p3 cbr 200", "p1 cbr 300", "p2 cbr 400", "p3 cbr 500", "p1 cbr 600"]
    assert findings(capped, ft) == [("raise_not_allowed", 7, "p1", True)]


def test_needless_fold_counts_and_the_hand_goes_on():
    actions = DEAL + ["p3 cc", "p1 cc", "p2 f", "d db AhKhQh", "p1 cc", "p3 cbr 200", "p1 f"]
    assert findings(actions, end={"reason": "completed"}) == [("needless_fold", 5, "p2", False)]
    replay = HoldemReplay.from_log(log(SETUP, actions))
    assert replay.winners == ["p3"] and replay.checked


def test_stacks_mismatch():
    actions = DEAL + ["p3 f", "p1 f"]
    assert findings(actions, end={"finishing_stacks": [9950, 10050, 10000]}) == []
    assert findings(actions, end={"finishing_stacks": [9950, 10100, 9950]}) == [
        ("stacks_mismatch", None, "p2", False), ("stacks_mismatch", None, "p3", False)]


def test_winnings_mismatch():
    actions = DEAL + ["p3 f", "p1 f"]
    assert findings(actions, end={"winnings": [0, 100, 0]}) == []
    assert findings(actions, end={"winnings": [0, 90, 0]}) == []  # 10 of rake
    assert findings(actions, end={"winnings": [0, 150, 0]}) == [("winnings_mismatch", None, "p2", False)]
    assert findings(actions, end={"winnings": [100, 0, 0]}) == [("winnings_mismatch", None, "p1", False)]


def test_end_mismatch():
    assert findings(DEAL + ["p3 cc"], end={"reason": "completed"}) == [("end_mismatch", None, None, False)]
    assert findings(DEAL + ["p3 f", "p1 f"], end={"reason": "timeout"}) == [("end_mismatch", None, None, False)]
    assert findings(DEAL + ["p3 cc"], end={"reason": "timeout"}) == []


def test_the_first_row_that_applies_names_the_breach():
    # out of turn and too large at once: out_of_turn comes first in the table
    assert findings(DEAL + ["p1 cbr 99999"]) == [("out_of_turn", 3, "p1", True)]
    # a raise that is both below the minimum and not allowed: bet_too_small
    short = dict(SETUP, starting_stacks=[350, 10000, 10000])
    assert findings(DEAL + ["p3 cbr 300", "p1 cbr 350", "p2 cc", "p3 cbr 360"], short)[0][0] == "bet_too_small"


def test_a_fatal_finding_stops_rule_checking_and_keeps_the_position():
    actions = DEAL + ["p1 cbr 300", "p3 cbr 1", "p9 nonsense"]
    state, found, settlement = judge(log(SETUP, actions))
    assert [f.kind for f in found] == ["out_of_turn"] and state.stopped and settlement is None
    assert state.to_act is None and state.steps == 3 and state.bets == [50, 100, 0]
    replay = HoldemReplay.from_log(log(SETUP, actions))
    assert not replay.checked and replay.step_count == 4 and len(replay.steps) == 4


def test_shows_at_the_wrong_time():
    allin = dict(SETUP, starting_stacks=[1000, 1000, 1000])
    pushed = DEAL + ["p3 cbr 1000", "p1 cc", "p2 f"]  # all-in before the flop: p1 and p3 may show now
    assert findings(pushed + ["p3 sm 7h7s", "p1 sm -", "d db 2c3c4c", "d db 5h", "d db 9s"], allin) == []
    assert findings(pushed + ["p2 sm Td9d"], allin) == [("out_of_turn", 6, "p2", True)]  # p2 folded
    assert findings(pushed + ["p3 sm 7h7s", "p3 sm 7h7s"], allin) == [("out_of_turn", 7, "p3", True)]
    over = DEAL + ["p3 f", "p1 f"]
    assert findings(over + ["p2 sm Td9d"]) == []  # the last seat may show its cards
    assert findings(over + ["p1 sm Ac2d"]) == [("event_after_end", 5, "p1", True)]
