"""Every finding kind of the spec's table, injected, is found at its event with its fatality."""

from __future__ import annotations

import pytest

from replay.games.party_cards import GAME
from replay.games.party_cards.engine import FINDING_KINDS

from .helpers import (
    DRAWS_1, GAME as CLEAN_EVENTS, LOBBY, ROUND_1, answer, chat, decline, draw, join, leave, log_dict, pick, reveal,
    round_, swap, won_dict,
)

#: the spec's table, in its order (shared/spec/party-cards.md)
SPEC_TABLE = {
    "invalid_setup": True, "event_after_end": True, "not_enough_players": False, "not_in_game": True,
    "czar_answered": False, "wrong_answer_count": False, "card_not_in_hand": True, "answered_twice": False,
    "wrong_reveal": False, "pick_out_of_range": True, "not_the_czar": True, "wrong_czar": False,
    "hand_not_refilled": False, "played_past_limit": False, "wrong_winner": False, "end_mismatch": False,
}


def judge(data):
    return GAME.judge(GAME.parse(data))


def only(replay):
    assert len(replay.findings) == 1, replay.findings
    return replay.findings[0]


def test_finding_kinds_are_the_spec_table_in_order():
    assert list(FINDING_KINDS.items()) == list(SPEC_TABLE.items())
    assert GAME.finding_kinds is FINDING_KINDS


def test_clean_game_that_bo_wins():
    replay = judge(won_dict())
    assert replay.findings == [] and replay.winners == ["p2"] and replay.end_reason == "completed"
    assert replay.scores == {"p1": 1, "p2": 2, "p3": 0, "p4": 0} and replay.rounds == 3


R1 = LOBBY + ROUND_1  # events 0-3 the lobby, 4 round 1, 5-7 answers, 8 reveal, 9 pick
R1_OPEN = LOBBY + [round_("p1")]
CZAR_ANSWERS = LOBBY + [round_("p1"), answer("p1", "a1")]
ROUND_2_EARLY = R1 + DRAWS_1[:2] + [round_("p2", "q2")]  # Di has not drawn back


def _timed(events, late_at):
    out = [dict(e, t=1000 + 10 * i) for i, e in enumerate(events)]
    out[late_at]["t"] = 99_999
    return out


@pytest.mark.parametrize("name, data, kind, event, fatal", [
    ("a card id dealt twice", log_dict([], hands={"p1": [{"id": "a1", "text": "x"}, {"id": "a2", "text": "y"}],
                                                  "p2": [{"id": "a1", "text": "z"}, {"id": "a4", "text": "w"}],
                                                  "p3": [{"id": "a5", "text": "v"}, {"id": "a6", "text": "u"}],
                                                  "p4": [{"id": "a7", "text": "t"}, {"id": "a8", "text": "s"}]}),
     "invalid_setup", None, True),
    ("a hand of three", log_dict([], hand_size=3), "invalid_setup", None, True),
    ("a seat dealt no hand", log_dict([], hands={"p1": [{"id": "a1", "text": "x"}, {"id": "a2", "text": "y"}]}),
     "invalid_setup", None, True),
    ("a drawn card reuses an id", log_dict(R1 + [draw("p2", "a5")]), "invalid_setup", 10, True),
    ("a question reuses an id", log_dict(R1 + DRAWS_1 + [round_("p2", "q1")]), "invalid_setup", 13, True),
    ("a swap draws a dealt id", log_dict(LOBBY + [swap("p2", ["a3"], ["a1"])]), "invalid_setup", 4, True),
    ("an answer after the end", log_dict(_timed(R1, 6), {"reason": "cancelled", "t": 5000}), "event_after_end", 6,
     True),
    ("a join after the end", log_dict(_timed(LOBBY, 3), {"reason": "cancelled", "t": 5000}), "event_after_end", 3,
     True),
    ("two seats in the game", log_dict([join("p1"), join("p2"), decline("p3"), round_("p1")]), "not_enough_players",
     3, False),
    ("a leave leaves two", log_dict(R1 + DRAWS_1 + [leave("p3"), leave("p4"), round_("p2", "q2")]),
     "not_enough_players", 15, False),
    ("a declined seat answers", log_dict([join("p1"), join("p2"), join("p3"), decline("p4"), round_("p1"),
                                          answer("p4", "a7")]), "not_in_game", 5, True),
    ("a silent seat draws", log_dict([join("p1"), join("p2"), join("p3"), draw("p4", "a9")]), "not_in_game", 3, True),
    ("a seat that left swaps", log_dict(LOBBY + [leave("p4"), swap("p4", ["a7"], ["a9"])]), "not_in_game", 5, True),
    ("a seat leaves twice", log_dict(LOBBY + [leave("p4"), leave("p4")]), "not_in_game", 5, True),
    ("the czar left and picks", log_dict(LOBBY + ROUND_1[:5] + [leave("p1"), pick("p1", 1)]), "not_in_game", 10, True),
    ("the czar answers", log_dict(CZAR_ANSWERS), "czar_answered", 5, False),
    ("two cards for one blank", log_dict(R1_OPEN + [answer("p2", "a3", "a4")]), "wrong_answer_count", 5, False),
    ("one card for two blanks", log_dict(LOBBY + [round_("p1", pick=2), answer("p2", "a3")]), "wrong_answer_count", 5,
     False),
    ("another seat's card", log_dict(R1_OPEN + [answer("p2", "a5")]), "card_not_in_hand", 5, True),
    ("the same card twice", log_dict(LOBBY + [round_("p1", pick=2), answer("p2", "a3", "a3")]), "card_not_in_hand",
     5, True),
    ("a swap throws away a card not held", log_dict(LOBBY + [swap("p2", ["a1"], ["a9"])]), "card_not_in_hand", 4, True),
    ("a card already played", log_dict(R1 + DRAWS_1 + [round_("p2", "q2"), answer("p3", "a5")]), "card_not_in_hand",
     14, True),
    ("a second answer", log_dict(R1_OPEN + [answer("p2", "a3"), answer("p2", "a4")]), "answered_twice", 6, False),
    ("the reveal leaves Di out", log_dict(R1_OPEN + ROUND_1[1:4] + [reveal("p3", "p2")]), "wrong_reveal", 8, False),
    ("the reveal lists the czar", log_dict(R1_OPEN + ROUND_1[1:4] + [reveal("p3", "p2", "p4", "p1")]), "wrong_reveal",
     8, False),
    ("the reveal lists Bo twice", log_dict(R1_OPEN + ROUND_1[1:4] + [reveal("p3", "p2", "p2")]), "wrong_reveal", 8,
     False),
    ("choice 4 of 3", log_dict(R1_OPEN + ROUND_1[1:5] + [pick("p1", 4)]), "pick_out_of_range", 9, True),
    ("choice 0", log_dict(R1_OPEN + ROUND_1[1:5] + [pick("p1", 0)]), "pick_out_of_range", 9, True),
    ("a pick before any answer", log_dict(R1_OPEN + [pick("p1", 1)]), "pick_out_of_range", 5, True),
    ("Bo picks", log_dict(R1_OPEN + ROUND_1[1:5] + [pick("p2", 1)]), "not_the_czar", 9, True),
    ("round 2's czar skips Bo", log_dict(R1 + DRAWS_1 + [round_("p3", "q2")]), "wrong_czar", 13, False),
    ("the first czar declined", log_dict([join("p1"), join("p2"), join("p3"), decline("p4"), round_("p4")]),
     "wrong_czar", 4, False),
    ("Di has not drawn back", log_dict(ROUND_2_EARLY), "hand_not_refilled", 12, False),
    ("a round after the winner", log_dict(R1 + DRAWS_1 + [round_("p2", "q2")], score_limit=1), "played_past_limit",
     13, False),
    ("the log names Cy", won_dict({"reason": "completed", "winner": "p3"}), "wrong_winner", None, False),
    ("a winner though nobody won", log_dict(R1, {"reason": "timeout", "winner": "p2"}), "wrong_winner", None, False),
    ("completed too soon", log_dict(R1, {"reason": "completed"}), "end_mismatch", None, False),
])
def test_injected_breach(name, data, kind, event, fatal):
    replay = judge(data)
    finding = only(replay)
    assert (finding.kind, finding.event, finding.fatal) == (kind, event, fatal), finding
    assert SPEC_TABLE[kind] == fatal
    assert replay.checked is (not fatal)
    if event is not None:
        logged = data["events"][event]
        assert finding.seat == logged.get("seat", logged.get("czar")) or kind in ("wrong_reveal", "hand_not_refilled",
                                                                                   "played_past_limit")
    if fatal and kind != "invalid_setup" or event is not None and fatal:
        assert finding.message.endswith("rule checking stops here")


def test_every_kind_is_covered_by_an_injection():
    params = test_injected_breach.pytestmark[0].args[1]
    assert {p[2] for p in params} == set(SPEC_TABLE)


# -- the first row that applies names an event that breaks several rules ----------------------

@pytest.mark.parametrize("name, events, kind", [
    ("the czar answers with a card it does not hold", LOBBY + [round_("p1"), answer("p1", "a7")], "czar_answered"),
    ("wrong count and a card not held", LOBBY + [round_("p1"), answer("p2", "a3", "a8")], "wrong_answer_count"),
    ("a declined seat's card not held", [join("p1"), join("p2"), join("p3"), decline("p4"), round_("p1"),
                                         answer("p4", "a1")], "not_in_game"),
    ("Bo picks out of range", R1_OPEN + ROUND_1[1:5] + [pick("p2", 7)], "pick_out_of_range"),
    ("a reused id drawn by a seat not in the game", [join("p1"), join("p2"), join("p3"), draw("p4", "a1")],
     "invalid_setup"),
    ("two seats and the wrong czar", [join("p1"), join("p2"), round_("p4")], "not_enough_players"),
    ("wrong czar and short hands", R1 + [round_("p4", "q2")], "wrong_czar"),
    ("short hands after the winner", R1 + [round_("p2", "q2")], "hand_not_refilled"),
])
def test_the_first_row_that_applies_names_the_breach(name, events, kind):
    data = log_dict(events, score_limit=1 if "winner" in name else 2)
    assert [f.kind for f in judge(data).findings] == [kind]


def test_non_fatal_breaches_are_applied_and_checking_goes_on():
    # Bo answers twice (the second answer replaces the first, whose card goes back to the hand),
    # the reveal forgets Di, the czar picks Bo's answer: Bo scores
    events = R1_OPEN + [answer("p2", "a3"), answer("p2", "a4"), answer("p3", "a5"), answer("p4", "a7"),
                        reveal("p3", "p2"), pick("p1", 2)]
    replay = judge(log_dict(events))
    assert [(f.kind, f.event) for f in replay.findings] == [("answered_twice", 6), ("wrong_reveal", 9)]
    assert replay.scores["p2"] == 1 and replay.checked
    last = replay.steps_json()[-1]
    assert [c["id"] for c in last["hands"]["p2"]] == ["a3"]
    assert [s["cards"][0]["id"] for s in last["submissions"]] == ["a5", "a4"]


def test_hand_not_refilled_names_every_short_seat():
    finding = only(judge(log_dict(R1 + [round_("p2", "q2")])))
    assert finding.seat == "p2" and finding.message.endswith("p2 holds 1, p3 holds 1, p4 holds 1")


def test_a_fatal_finding_stops_the_steps():
    replay = judge(log_dict(R1_OPEN + [answer("p2", "a5"), answer("p3", "a5")]))
    finding = only(replay)
    assert (finding.kind, finding.step, finding.event) == ("card_not_in_hand", 5, 5)
    assert replay.step_count == 6 == len(replay.steps)
    assert replay.event_steps == [1, 2, 3, 4, 5, 5, 5]
    assert "unchecked after step 5" in replay.summary_line()


def test_end_checks_are_skipped_once_checking_stopped():
    replay = judge(log_dict(R1_OPEN + [answer("p2", "a5")], {"reason": "completed", "winner": "p3"}))
    assert [f.kind for f in replay.findings] == ["card_not_in_hand"]
    assert replay.end_reason == "completed" and replay.winners == []


def test_missing_end_is_completed_or_abandoned():
    assert judge(log_dict(CLEAN_EVENTS)).end_reason == "completed"
    assert judge(log_dict(R1)).end_reason == "abandoned"


def test_chat_is_never_a_game_event():
    # chat by a seat that declined, and chat after the end's time: no finding
    events = [join("p1"), join("p2"), join("p3"), decline("p4"), dict(chat("p4", "lol"), t=99_999)]
    replay = judge(log_dict(events, {"reason": "cancelled", "t": 5000}))
    assert replay.findings == [] and replay.step_count == 5


def test_a_swap_before_round_one_is_clean_and_refills_the_hand():
    replay = judge(log_dict(LOBBY + [swap("p2", ["a3"], ["a9"]), round_("p1"), answer("p2", "a9")]))
    assert replay.findings == []


def test_a_seat_left_is_skipped_by_the_czar_rotation():
    # Bo leaves after round 1: Cy is the next czar
    events = R1 + DRAWS_1 + [leave("p2"), round_("p3", "q2")]
    assert judge(log_dict(events)).findings == []
    events = R1 + DRAWS_1 + [leave("p2"), round_("p2", "q2")]
    assert [f.kind for f in judge(log_dict(events)).findings] == ["wrong_czar"]


def test_a_winner_named_on_a_cancelled_game_stands():
    replay = judge(won_dict({"reason": "cancelled", "winner": "p2"}))
    assert replay.findings == [] and replay.winners == ["p2"] and replay.end_reason == "cancelled"
