"""Every finding kind of the spec's table, injected, is found at its event with its fatality."""

from __future__ import annotations

import pytest

from replay.games.uno_lite import GAME
from replay.games.uno_lite.cards import parse_card
from replay.games.uno_lite.engine import FINDING_KINDS, UnoState

from .helpers import draw, log_dict, p1_wins_dict, pass_, play

SPEC_TABLE = {
    "invalid_deal": True, "event_after_end": True, "out_of_turn": True, "card_not_in_hand": True,
    "card_not_in_pile": True, "unplayable_card": False, "draw_while_playable": False,
    "second_draw": False, "pass_without_draw": False, "wrong_winner": False, "end_mismatch": False,
}


def judge(data):
    return GAME.judge(GAME.parse(data))


def only(replay):
    assert len(replay.findings) == 1, replay.findings
    return replay.findings[0]


def test_finding_kinds_are_the_spec_table_in_order():
    assert list(FINDING_KINDS.items()) == list(SPEC_TABLE.items())
    assert GAME.finding_kinds is FINDING_KINDS


def test_clean_game_that_p1_wins():
    replay = judge(p1_wins_dict({"reason": "completed", "winner": "P1"}))
    assert replay.findings == [] and replay.winners == ["P1"] and replay.end_reason == "completed"
    assert replay.turns == 13 and replay.hand_sizes == {"P1": 0, "P2": 13}


@pytest.mark.parametrize("name, data, kind, event, fatal", [
    ("a hand of six", log_dict([], hands={"P1": ["R5", "G7", "B1", "Y9", "R2", "G2"], "P2": [
        "B3", "B4", "G1", "G3", "Y1", "Y2", "Y3"]}), "invalid_deal", None, True),
    ("three R5", log_dict([], starter="R5", hands={"P1": ["R5", "G7", "B1", "Y9", "R2", "G2", "R5"], "P2": [
        "B3", "B4", "G1", "G3", "Y1", "Y2", "Y3"]}), "invalid_deal", None, True),
    ("draw after P1 won", p1_wins_dict(extra_events=[draw("P2", "B2")]), "event_after_end", 19, True),
    ("P2 first", log_dict([play("P2", "B3")]), "out_of_turn", 0, True),
    ("P2 twice", log_dict([play("P1", "R5"), draw("P2", "B6"), pass_("P2"), draw("P2", "B7")]),
     "out_of_turn", 3, True),
    ("not held", log_dict([play("P1", "G9")]), "card_not_in_hand", 0, True),
    ("not held and unplayable", log_dict([play("P1", "B9")]), "card_not_in_hand", 0, True),
    ("third R5", log_dict([play("P1", "R5"), draw("P2", "R5"), draw("P2", "R5")]), "card_not_in_pile", 2, True),
    ("dealt card", log_dict([play("P1", "R5"), draw("P2", "Y3"), draw("P2", "Y3")]), "card_not_in_pile", 2, True),
    ("no colour no number", log_dict([play("P1", "B1")]), "unplayable_card", 0, False),
    ("drawn card off", log_dict([play("P1", "R5"), draw("P2", "B6"), play("P2", "B6")]), "unplayable_card", 2, False),
    ("holding R5", log_dict([draw("P1", "B5")]), "draw_while_playable", 0, False),
    ("drawn card playable", log_dict([play("P1", "R5"), draw("P2", "B5"), draw("P2", "B6")]),
     "draw_while_playable", 2, False),
    ("two draws", log_dict([play("P1", "R5"), draw("P2", "B6"), draw("P2", "B7")]), "second_draw", 2, False),
    ("P2 just passes", log_dict([play("P1", "R5"), pass_("P2")]), "pass_without_draw", 1, False),
    ("P1 passes holding", log_dict([pass_("P1")]), "pass_without_draw", 0, False),
    ("wrong announced winner", p1_wins_dict({"reason": "completed", "winner": "P2"}), "wrong_winner", None, False),
    ("winner though nobody won", log_dict([play("P1", "R5")], {"reason": "cancelled", "winner": "P1"}),
     "wrong_winner", None, False),
    ("completed too soon", log_dict([play("P1", "R5")], {"reason": "completed"}), "end_mismatch", None, False),
    ("cancelled after a win", p1_wins_dict({"reason": "cancelled"}), "end_mismatch", None, False),
])
def test_injected_breach(name, data, kind, event, fatal):
    replay = judge(data)
    finding = only(replay)
    assert (finding.kind, finding.event, finding.fatal) == (kind, event, fatal), finding
    assert SPEC_TABLE[kind] == fatal
    assert replay.checked is (not fatal)
    if event is not None:
        assert finding.seat == data["events"][event]["seat"]
    if fatal:
        assert "rule checking stops here" in finding.message or kind == "invalid_deal"


def test_every_kind_is_covered_by_an_injection():
    params = test_injected_breach.pytestmark[0].args[1]
    kinds = {p[2] for p in params}
    assert kinds == set(SPEC_TABLE)


def test_non_fatal_breach_is_applied_and_checking_goes_on():
    # B1 on R9 is unplayable but applied: B1 becomes the top card, and P2 (holding B3, B4) may follow
    replay = judge(log_dict([play("P1", "B1"), play("P2", "B3"), pass_("P1")]))
    assert [(f.kind, f.event) for f in replay.findings] == [("unplayable_card", 0), ("pass_without_draw", 2)]
    assert replay.steps[1].top == parse_card("B1") and replay.steps[2].top == parse_card("B3")
    assert replay.checked


def test_fatal_finding_leaves_the_position_and_steps_stop():
    replay = judge(log_dict([play("P1", "R5"), play("P1", "R2"), draw("P2", "B6")]))
    finding = only(replay)
    assert (finding.kind, finding.step, finding.event) == ("out_of_turn", 1, 1)
    assert replay.step_count == 2 and len(replay.steps) == 2
    assert replay.event_steps == [1, 1, 1]
    assert replay.hand_sizes == {"P1": 6, "P2": 7}
    assert "unchecked after step 1" in replay.summary_line()


def test_end_checks_skipped_once_checking_stopped():
    replay = judge(log_dict([play("P2", "B3")], {"reason": "completed", "winner": "P2"}))
    assert [f.kind for f in replay.findings] == ["out_of_turn"]
    assert replay.end_reason == "completed" and replay.winners == []


def test_missing_end_is_completed_or_abandoned():
    assert judge(p1_wins_dict()).end_reason == "completed"
    assert judge(log_dict([play("P1", "R5")])).end_reason == "abandoned"


def _stranded_state() -> UnoState:
    """P1 to move on R5 holding 48 cards, none red and none a 5; P2 holds the other 23; no pile."""
    p1 = [k for k in range(36) if k // 9 != 0 and k % 9 != 4 for _ in range(2)]
    p2 = [k for k in range(36) if not (k // 9 != 0 and k % 9 != 4) for _ in range(2)]
    p2.remove(parse_card("R5"))
    return UnoState([p1, p2], parse_card("R5"), "P1")


def test_nothing_to_draw_the_only_pass_without_a_draw():
    state = _stranded_state()
    assert state.pile_size == 0 and state.discard == [parse_card("R5")]
    assert state.legal() == [("pass",)] and state.draw_choices() == []
    assert state.apply("pass", 0, None, 0) == [] and state.to_act == "P2" and state.turns == 1


def test_draw_with_nothing_to_draw_is_card_not_in_pile():
    state = _stranded_state()
    [finding] = state.apply("draw", 0, parse_card("G1"), 0)
    assert finding.kind == "card_not_in_pile" and finding.fatal and state.stopped
    assert "the draw pile is empty and the discard pile has no other card" in finding.message
