"""Review fixes: a muck reveals no cards in other seats' views; a fixed-limit bet or raise of any
size but the fixed one (not all-in) is ``bet_too_large``; ``biggest_pot`` counts in the table's unit."""

from __future__ import annotations

from replay.games.holdem.replay import HoldemReplay

from .helpers import log

SETUP = {"variant": "NT", "antes": [0, 0, 0], "blinds_or_straddles": [50, 100, 0], "min_bet": 100,
         "starting_stacks": [10000, 10000, 10000]}
DEAL = ["d dh p1 Ac2d", "d dh p2 Td9d", "d dh p3 7h7s"]
TO_RIVER = ["p3 cc", "p1 cc", "p2 cc", "d db AhKhQh", "p1 cc", "p2 cc", "p3 cc", "d db 3s", "p1 cc", "p2 cc",
            "p3 cc", "d db 4s", "p1 cc", "p2 cc", "p3 cc"]


def findings(actions, setup):
    replay = HoldemReplay.from_log(log(setup, actions))
    return [(f.kind, f.event, f.seat, f.fatal) for f in replay.findings]


def test_a_muck_reveals_no_cards_to_other_seats():
    replay = HoldemReplay.from_log(log(SETUP, DEAL + TO_RIVER + ["p1 sm Ac2d", "p2 sm", "p3 sm"]))
    assert [s["kind"] for s in replay.steps_json()[-3:]] == ["show", "muck", "muck"]
    for step in replay.steps_json("p1"):
        assert step["hole"]["p2"] in ([], ["??", "??"]), step
        assert step["hole"]["p3"] in ([], ["??", "??"]), step
    last = replay.steps_json("p2")[-1]["hole"]
    assert last["p1"] == ["Ac", "2d"] and last["p3"] == ["??", "??"] and last["p2"] == ["Td", "9d"]
    everything = replay.steps_json(None)[-1]["hole"]
    assert everything == {"p1": ["Ac", "2d"], "p2": ["Td", "9d"], "p3": ["7h", "7s"]}


def test_a_show_with_a_dash_reveals_the_cards():
    replay = HoldemReplay.from_log(log(SETUP, DEAL + TO_RIVER + ["p1 sm -", "p2 sm", "p3 sm"]))
    assert replay.steps_json("p3")[-1]["hole"]["p1"] == ["Ac", "2d"]
    assert replay.steps_json("p3")[-1]["hole"]["p2"] == ["??", "??"]


def test_a_fixed_limit_bet_not_of_the_fixed_size_is_too_large():
    ft = dict(SETUP, variant="FT", min_bet=None, small_bet=100, big_bet=200)
    assert findings(DEAL + ["p3 cbr 150"], ft) == [("bet_too_large", 3, "p3", True)]  # below the fixed size
    assert findings(DEAL + ["p3 cbr 300"], ft) == [("bet_too_large", 3, "p3", True)]  # above it
    assert findings(DEAL + ["p3 cbr 200"], ft) == []
    short = dict(ft, starting_stacks=[10000, 10000, 150])
    assert findings(DEAL + ["p3 cbr 150"], short) == []  # all-in for less
    flop = ["p3 cc", "p1 cc", "p2 cc", "d db AhKhQh", "p1 cbr 50"]
    assert findings(DEAL + flop, ft) == [("bet_too_large", 7, "p1", True)]


def test_biggest_pot_counts_in_the_table_unit():
    whole = HoldemReplay.from_log(log(SETUP, DEAL + ["p3 cbr 500", "p1 cc", "p2 f"]))
    odd = HoldemReplay.from_log(log(dict(SETUP, min_bet=1, blinds_or_straddles=[1, 2, 0],
                                         starting_stacks=[100, 100, 100]), DEAL + ["p3 cbr 5.5", "p1 cc", "p2 f"]))
    even = HoldemReplay.from_log(log(dict(SETUP, min_bet=1, blinds_or_straddles=[1, 2, 0],
                                          starting_stacks=[100, 100, 100]), DEAL + ["p3 cbr 5", "p1 cc", "p2 f"]))
    assert whole.outcome().facts["biggest_pot"] == 1100
    assert even.outcome().facts["biggest_pot"] == 12
    assert odd.outcome().facts["biggest_pot"] == 13  # chips at a whole-number table, though the pot is a Decimal
    from decimal import Decimal
    cents = dict(SETUP, min_bet=Decimal("0.10"), blinds_or_straddles=[Decimal("0.05"), Decimal("0.10"), 0],
                 starting_stacks=[10, 10, 10])
    dollars = HoldemReplay.from_log(log(cents, DEAL + ["p3 cbr 1", "p1 cc", "p2 f"]))
    assert dollars.outcome().facts["biggest_pot"] == 210
