"""Every finding kind of the spec's table, injected, is found at its event with its fatality."""

from __future__ import annotations

import pytest

from replay.games.coup import GAME
from replay.games.coup.engine import FINDING_KINDS

from .helpers import SPEC_EVENTS, act, ev, log_dict, two_seat_win

SPEC_TABLE = {
    "invalid_setup": True, "event_after_end": True, "out_of_turn": True, "not_enough_coins": True,
    "must_coup": False, "invalid_target": True, "invalid_block": True, "invalid_challenge": True,
    "card_not_held": True, "card_not_in_deck": True, "wrong_card": True, "missing_step": True,
    "coins_mismatch": False, "refused_message": False, "wrong_winner": False, "end_mismatch": False,
}


def judge(data):
    return GAME.judge(GAME.parse(data))


def test_finding_kinds_are_the_spec_table_in_order():
    assert list(FINDING_KINDS.items()) == list(SPEC_TABLE.items())
    assert GAME.finding_kinds is FINDING_KINDS


def test_the_spec_example_is_clean():
    replay = judge(log_dict(SPEC_EVENTS + [ev("illegal", "2", message="ACT|2|C|1", reason="needs 7 coins"),
                                           ev("chat", "2", text="hmm")]))
    assert [(f.kind, f.event) for f in replay.findings] == [("refused_message", 9)]
    # 1: tax (5); 2's steal is blocked; 3 exchanges and keeps D
    assert replay.coins == {"1": 5, "2": 2, "3": 2} and replay.influence == {"1": 2, "2": 2, "3": 1}


def test_clean_two_seat_game():
    replay = judge(two_seat_win(end={"reason": "completed", "winner": "1"}))
    assert replay.findings == [] and replay.winners == ["1"] and replay.eliminated == ["2"]
    assert replay.coins == {"1": 0, "2": 7}


ALL_E = {"1": ["D", "C"], "2": ["E", "E"], "3": ["E", "B"]}  # no Contessa left in the deck
TEN = [act("1", "T"), act("2", "I"), act("3", "I"), act("1", "T"), act("2", "I"), act("3", "I"), act("1", "T"),
       act("2", "I"), act("3", "I")]  # 1 holds 11 coins, to move


@pytest.mark.parametrize("name, data, kind, event", [
    ("a hand of one", log_dict([], hands={"1": ["D"], "2": ["E", "E"], "3": ["A", "B"]}), "invalid_setup", None),
    ("four Dukes", log_dict([], hands={"1": ["D", "D"], "2": ["D", "D"], "3": ["A", "B"]}), "invalid_setup", None),
    ("after the end", two_seat_win([act("2", "I")]), "event_after_end", 13),
    ("second seat first", log_dict([act("2", "I")]), "out_of_turn", 0),
    ("coup with 3 coins", log_dict([act("1", "I"), act("2", "C", "3")]), "not_enough_coins", 1),
    ("assassin with 2", log_dict([act("1", "A", "2")]), "not_enough_coins", 0),
    ("tax at 11 coins", log_dict(TEN + [act("1", "T")]), "must_coup", 9),
    ("no target", log_dict([act("1", "S")]), "invalid_target", 0),
    ("steal from itself", log_dict([act("1", "S", "1")]), "invalid_target", 0),
    ("tax cannot be blocked", log_dict([act("1", "T"), ev("block", "2", "D")]), "invalid_block", 1),
    ("steal blocked by a bystander", log_dict([act("1", "S", "2"), ev("block", "3", "C")]), "invalid_block", 1),
    ("steal blocked with a Contessa", log_dict([act("1", "S", "2"), ev("block", "2", "E")]), "invalid_block", 1),
    ("income challenged", log_dict([act("1", "I"), ev("challenge", "2")]), "invalid_challenge", 1),
    ("own claim challenged", log_dict([act("1", "T"), ev("challenge", "1")]), "invalid_challenge", 1),
    ("reveals a card not held", log_dict([act("1", "T"), ev("challenge", "2"), ev("reveal", "1", "A")]),
     "card_not_held", 2),
    ("loses a card not held", log_dict([act("1", "T"), ev("challenge", "2"), ev("reveal", "1", "D"),
                                        ev("lose", "2", "D")]), "card_not_held", 3),
    ("draws a fourth Contessa", log_dict([act("1", "T"), ev("challenge", "2"), ev("reveal", "1", "D"),
                                          ev("lose", "2", "E"), ev("replace", "1", "E")], hands=ALL_E),
     "card_not_in_deck", 4),
    ("exchange draws a dealt card", log_dict([act("1", "I"), act("2", "I"), act("3", "X"),
                                              ev("exchange", "3", drawn=["E", "D"], kept=["E", "B"])], hands=ALL_E),
     "card_not_in_deck", 3),
    ("reveals another card", log_dict([act("1", "S", "2"), ev("challenge", "3"), ev("reveal", "1", "D")]),
     "wrong_card", 2),
    ("keeps three", log_dict([act("1", "I"), act("2", "I"), act("3", "X"),
                              ev("exchange", "3", drawn=["D", "C"], kept=["A", "B", "D"])]), "wrong_card", 3),
    ("coup target never loses", log_dict(TEN[:7] + [act("2", "I"), act("3", "I"), act("1", "C", "2"),
                                                    act("2", "I")]), "missing_step", 10),
    ("reveal without a challenge", log_dict([act("1", "T"), ev("reveal", "1", "D")]), "missing_step", 1),
    ("exchange skipped", log_dict([act("1", "I"), act("2", "I"), act("3", "X"), act("1", "I")]), "missing_step", 3),
    ("host coins wrong", log_dict([act("1", "T"), ev("coins", "1", coins=4), act("2", "I")]), "coins_mismatch", 1),
    ("refused message", log_dict([ev("illegal", "2", message="ACT|2|C|1", reason="needs 7 coins")]),
     "refused_message", 0),
    ("wrong winner", two_seat_win(end={"reason": "completed", "winner": "2"}), "wrong_winner", None),
    ("completed too soon", log_dict([act("1", "I")], {"reason": "completed"}), "end_mismatch", None),
])
def test_injected_breach(name, data, kind, event):
    replay = judge(data)
    assert len(replay.findings) == 1, replay.findings
    finding = replay.findings[0]
    fatal = SPEC_TABLE[kind]
    assert (finding.kind, finding.event, finding.fatal) == (kind, event, fatal), finding
    assert replay.checked is (not fatal)
    if event is not None:
        assert finding.seat == data["events"][event]["seat"]
    if fatal and kind != "invalid_setup":
        assert "rule checking stops here" in finding.message


def test_every_kind_is_covered_by_an_injection():
    params = test_injected_breach.pytestmark[0].args[1]
    assert {p[2] for p in params} == set(SPEC_TABLE)
    assert {p[2] for p in params if SPEC_TABLE[p[2]]} == {k for k, fatal in SPEC_TABLE.items() if fatal}


def test_out_seat_responding_is_out_of_turn():
    events = [act("1", "T"), act("2", "I"), act("3", "I"), act("1", "T"), act("2", "I"), act("3", "I"),
              act("1", "C", "3"), ev("lose", "3", "A"), act("2", "I"), act("3", "I"), act("1", "I"),
              act("2", "I"), act("3", "I"), act("1", "I"), act("2", "I"), act("3", "I"), act("1", "I"),
              act("2", "I"), act("3", "I"), act("1", "I"), act("2", "C", "3"), ev("lose", "3", "B"),
              act("1", "T"), ev("challenge", "3")]
    replay = judge(log_dict(events))
    assert [(f.kind, f.event, f.seat) for f in replay.findings] == [("out_of_turn", 23, "3")]
    assert "3 is out of the game" in replay.findings[0].message


def test_first_row_wins_and_must_coup_does_not_hide_a_fatal_breach():
    # a steal from itself at 11 coins: must_coup (the first row) names it; the fatal breach follows
    replay = judge(log_dict(TEN + [act("1", "S", "1")]))
    assert [(f.kind, f.event, f.fatal) for f in replay.findings] == [
        ("must_coup", 9, False), ("invalid_target", 9, True)]
    # not held and the wrong card: card_not_held comes first in the table
    replay = judge(log_dict([act("1", "S", "2"), ev("challenge", "3"), ev("reveal", "1", "A")]))
    assert [f.kind for f in replay.findings] == ["card_not_held"]


def test_later_challenges_change_nothing():
    events = [act("1", "T"), ev("challenge", "2"), ev("challenge", "3"), ev("reveal", "1", "D"),
              ev("challenge", "3"), ev("lose", "2", "E"), ev("replace", "1", "A"), act("2", "I")]
    replay = judge(log_dict(events))
    assert replay.findings == [] and replay.coins["1"] == 5 and replay.influence == {"1": 2, "2": 1, "3": 2}


def test_a_failed_assassination_returns_its_coins_and_a_host_that_keeps_them_is_flagged():
    events = [act("1", "I"), act("2", "I"), act("3", "I"), act("1", "A", "2"), ev("challenge", "2"),
              ev("lose", "1", "C"), ev("coins", "1", coins=0), act("2", "I")]
    replay = judge(log_dict(events))
    assert [(f.kind, f.event, f.seat) for f in replay.findings] == [("coins_mismatch", 6, "1")]
    assert replay.coins["1"] == 3 and "the host counts 0 coins for 1, the rules give 3" in replay.findings[0].message


def test_target_blocks_after_losing_its_challenge_and_double_loss():
    events = [act("1", "I"), act("2", "I"), act("3", "I"),
              act("1", "S", "2"), ev("challenge", "2"), ev("replace", "1", "D")]
    assert judge(log_dict(events)).findings[0].kind == "missing_step"
    events = [act("1", "I"), act("2", "I"), act("3", "I"), act("1", "I"), act("2", "I"), act("3", "A", "2"),
              ev("challenge", "2"), ev("reveal", "3", "A"), ev("lose", "2", "E"), ev("replace", "3", "D"),
              ev("block", "2", "E"), act("1", "I")]
    replay = judge(log_dict(events))
    assert replay.findings == [] and replay.coins["3"] == 0 and replay.influence["2"] == 1
    # without the block, the assassination takes 2's last influence
    events[-2:] = [ev("lose", "2", "E")]
    replay = judge(log_dict(events))
    assert replay.findings == [] and replay.eliminated == ["2"]


def test_replacement_may_be_left_out_or_logged_after_the_end():
    base = two_seat_win()["events"][:6]  # 2 holds one Contessa and is to move
    # 1 claims Duke, 2 challenges and loses its last card: the game ends before 1's replacement draw
    events = base + [act("2", "I"), act("1", "T"), ev("challenge", "2"), ev("reveal", "1", "D"), ev("lose", "2", "E")]
    for tail in ([], [ev("replace", "1", "A")]):
        data = two_seat_win()
        data["events"] = events + tail
        data["end"] = {"reason": "completed", "winner": "1"}
        replay = judge(data)
        assert replay.findings == [] and replay.winners == ["1"], replay.findings


def test_leave_puts_a_seat_out_and_its_cards_out_of_play():
    replay = judge(log_dict([act("1", "I"), ev("leave", "2"), act("3", "I"), ev("leave", "3")]))
    assert replay.findings == [] and replay.winners == ["1"] and replay.eliminated == ["2", "3"]
    assert replay.end_reason == "completed"
