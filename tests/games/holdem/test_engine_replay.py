"""HoldemReplay: the JSON a replay reports, its outcome facts and the steps contract the viewer
builds on (step 0 the setup, one step per action, chat none, seat views, the final step)."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from replay.games.holdem.replay import HoldemReplay, SeatError

from .helpers import log

SETUP = {"variant": "NT", "antes": [0, 0, 0], "blinds_or_straddles": [50, 100, 0], "min_bet": 100,
         "starting_stacks": [10000, 10000, 10000]}
SPEC_EXAMPLE = ["d dh p1 Ac2d", "d dh p2 ????", "d dh p3 7h7s", "p3 cbr 300", "chat here we go", "p1 cc", "p2 f",
                "d db 7c8d2s", "p1 cc", "p3 cbr 400", "p1 f"]
KEYS = {"i", "kind", "seat", "text", "event", "street", "amount", "stacks", "bets", "pot", "pots", "board", "hole",
        "folded", "all_in", "to_act", "button", "blinds", "last"}


def replay_of(actions, setup=SETUP, end=None):
    return HoldemReplay.from_log(log(setup, actions, end))


def test_the_spec_example():
    replay = replay_of(SPEC_EXAMPLE, end={"reason": "completed", "finishing_stacks": [9700, 9900, 10400]})
    data = replay.to_json()
    assert replay.findings == [] and replay.winners == ["p3"] and replay.end_reason == "completed"
    assert data["stacks"] == {"p1": 9700, "p2": 9900, "p3": 10400}
    assert data["payoffs"] == {"p1": -300, "p2": -100, "p3": 400}
    assert data["pots"] == [{"amount": 700, "seats": ["p3"], "winners": ["p3"], "shares": [700]}]
    assert data["board"] == ["7c", "8d", "2s"] and data["street"] == "flop" and data["settled"] and data["rake"] == 0
    json.dumps(data)
    facts = replay.outcome().facts
    assert facts == {"variant": "NT", "seats": 3, "stakes": "50/100", "street": "flop", "showdown": "no",
                     "biggest_pot": 700, "winner": "p3"}


def test_steps_one_per_action_and_none_for_chat():
    replay = replay_of(SPEC_EXAMPLE)
    steps = replay.steps_json()
    assert len(steps) == 11 and replay.step_count == 11  # the setup and ten actions (no chat)
    assert [s["kind"] for s in steps] == ["setup", "hole", "hole", "hole", "raise", "call", "fold", "board", "check",
                                          "bet", "fold"]
    assert [s["event"] for s in steps] == [None, 0, 1, 2, 3, 5, 6, 7, 8, 9, 10]
    assert all(set(s) >= KEYS for s in steps) and [s["i"] for s in steps] == list(range(11))
    raise_, call = steps[4], steps[5]
    assert raise_["text"] == "p3 raises to 300" and raise_["amount"] == 300 and raise_["to_act"] == "p1"
    assert call["text"] == "p1 calls 250" and call["bets"] == {"p1": 300, "p2": 100, "p3": 300}
    assert steps[0]["blinds"] == {"p1": 50, "p2": 100} and steps[0]["button"] == "p3"
    assert steps[7]["text"] == "Flop: 7c 8d 2s" and steps[7]["pot"] == 700 and steps[7]["street"] == "flop"
    assert steps[-1]["last"] and steps[-1]["payoffs"] == {"p1": -300, "p2": -100, "p3": 400}
    assert steps[-1]["winners"] == ["p3"] and steps[-1]["pots"][0]["winners"] == ["p3"]
    assert not any(s["last"] for s in steps[:-1]) and "payoffs" not in steps[3]
    json.dumps(steps)


def test_a_seat_sees_only_its_own_cards_until_a_show():
    actions = ["d dh p1 Ac2d", "d dh p2 KsKd", "d dh p3 7h7s", "p3 cc", "p1 cc", "p2 cc", "d db 7c8d2s", "p1 cc",
               "p2 cc", "p3 cc", "d db 3s", "p1 cc", "p2 cc", "p3 cc", "d db 4s", "p1 cc", "p2 cc", "p3 cc",
               "p1 sm Ac2d", "p2 sm", "p3 sm -"]
    replay = replay_of(actions)
    view = replay.steps_json("p2")
    assert view[1]["text"] == "p1 is dealt two cards" and view[2]["text"] == "p2 is dealt KsKd"
    assert view[5]["hole"] == {"p1": ["??", "??"], "p2": ["Ks", "Kd"], "p3": ["??", "??"]}
    assert view[19]["hole"]["p1"] == ["Ac", "2d"] and view[19]["hole"]["p3"] == ["??", "??"]
    assert view[-1]["hole"]["p3"] == ["7h", "7s"]
    assert view[19]["text"].startswith("p1 shows Ac2d (") and view[20]["kind"] == "muck"
    assert replay.winners == ["p3"] and "three of a kind, sevens" in view[-1]["text"]  # p2 mucked
    facts = replay.outcome().facts
    assert facts["showdown"] == "yes" and facts["street"] == "showdown" and view[-1]["street"] == "showdown"
    with pytest.raises(SeatError):
        replay.steps_json("p9")


def test_decimals_become_json_numbers_and_rake_is_reported():
    setup = {"variant": "NT", "antes": [0, 0], "blinds_or_straddles": [Decimal("0.25"), Decimal("0.50")],
             "min_bet": Decimal("0.50"), "starting_stacks": [Decimal("50"), Decimal("48.75")]}
    actions = ["d dh p1 ????", "d dh p2 ????", "p2 cbr 1.50", "p1 cc", "d db 2c3d9h", "p1 cc", "p2 cc",
               "d db Ts", "p1 cc", "p2 cc", "d db Js", "p1 cc", "p2 cc"]
    replay = replay_of(actions, setup, end={"reason": "completed", "winnings": [0, Decimal("2.85")]})
    data = replay.to_json()
    assert data["settled"] and data["rake"] == pytest.approx(0.15) and data["winners"] == ["p2"]
    assert data["stacks"] == {"p1": 48.5, "p2": 50.1}
    assert replay.outcome().facts["biggest_pot"] == 300  # in cents
    assert replay.outcome().facts["stakes"] == "0.25/0.50"
    json.dumps(replay.steps_json())


def test_unknown_cards_without_winnings_leave_the_hand_unsettled():
    actions = ["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "p3 cc", "p1 cc", "p2 cc", "d db 2c3d9h", "p1 cc",
               "p2 cc", "p3 cc", "d db Ts", "p1 cc", "p2 cc", "p3 cc", "d db Js", "p1 cc", "p2 cc", "p3 cc"]
    replay = replay_of(actions, end={"reason": "completed"})
    data = replay.to_json()
    assert not data["settled"] and data["winners"] == [] and data["payoffs"]["p1"] is None
    assert data["stacks"] == {"p1": 9900, "p2": 9900, "p3": 9900} and replay.findings == []
    assert replay.summary_line() == "test/1  holdem  completed after 18 actions (3 seats, pot 300)  0 findings"


def test_a_stopped_hand():
    replay = replay_of(["d dh p1 Ac2d", "d dh p2 Td9d", "d dh p3 7h7s", "p1 cbr 300"])
    assert not replay.checked and replay.end_reason == "abandoned" and replay.winners == []
    assert "unchecked after step 3" in replay.summary_line()
    steps = replay.steps_json()
    assert len(steps) == 4 and steps[-1]["last"] and steps[-1]["payoffs"] is None
    assert replay.to_json()["settled"] is False
