"""PartyReplay's JSON, steps, perspectives, outcome, fill_blanks and the GAME object."""

from __future__ import annotations

import json

import pytest

from replay.games import game_for_format, get
from replay.games.base import Outcome, Replay, State
from replay.games.party_cards import GAME
from replay.games.party_cards.cards import fill_blanks
from replay.games.party_cards.engine import PartyState
from replay.games.party_cards.replay import RoundError, SeatError

from .helpers import LOBBY, ROUND_1, log_dict, won_dict


def judge(data):
    return GAME.judge(GAME.parse(data))


def test_registry_finds_the_module():
    assert get("party-cards") is GAME and game_for_format("party-cards/1") is GAME
    assert (GAME.name, GAME.title, GAME.major) == ("party-cards", "Party Cards", 1)
    assert GAME.end_reasons == ("completed", "cancelled", "timeout", "not_enough_players")
    assert set(GAME.bots) == {"random", "greedy"}


def test_engine_state_is_a_state():
    state = PartyState(("a", "b", "c"), [[], [], []], hand_size=0)
    assert isinstance(state, State) and state.to_act == "a" and not state.over and not state.stopped


def test_to_json_fields():
    replay = judge(won_dict())
    assert isinstance(replay, Replay)
    data = replay.to_json()
    json.dumps(data)
    assert data["game"] == "party-cards" and data["game_id"] == "grp-9/cah/4"
    assert data["winners"] == ["p2"] and data["end"] == "completed" and data["checked"] is True
    assert data["scores"] == {"p1": 1, "p2": 2, "p3": 0, "p4": 0} and data["rounds"] == 3
    assert data["seats"] == ["p1", "p2", "p3", "p4"] and data["players"]["p2"] == "Bo"
    assert data["findings"] == [] and data["score_limit"] == 2


def test_findings_json_has_event_step_kind_seat_message():
    data = judge(log_dict(LOBBY + [ROUND_1[0], {"type": "answer", "seat": "p1", "cards": ["a1"]}])).to_json()
    assert data["findings"] == [{"step": 6, "event": 5, "kind": "czar_answered", "seat": "p1",
                                 "message": "p1 answers, but is the czar of round 1", "fatal": False}]


def test_outcome_and_summary():
    replay = judge(won_dict())
    assert replay.outcome() == Outcome("completed", ("p2",), {}, {"rounds": 3, "players": 4, "winner": "p2"})
    assert replay.summary_line() == "grp-9/cah/4  party-cards  p2 won after 3 rounds  0 findings"
    lobby = judge(log_dict([{"type": "join", "seat": "p1"}, {"type": "decline", "seat": "p2"}],
                           {"reason": "not_enough_players"}))
    assert lobby.outcome() == Outcome("not_enough_players", (), {}, {"rounds": 0, "players": 1})
    assert lobby.summary_line() == "grp-9/cah/4  party-cards  not_enough_players after 0 rounds  0 findings"


def test_steps_say_their_round_and_text():
    steps = judge(won_dict()).steps_json()
    assert [s["round"] for s in steps[:6]] == [0, 0, 0, 0, 0, 1]
    assert steps[5]["text"] == "Round 1: Ann is the czar" and steps[5]["czar"] == "p1"
    assert [s["text"] for s in steps if s["kind"] == "round"] == [
        "Round 1: Ann is the czar", "Round 2: Bo is the czar", "Round 3: Cy is the czar"]
    assert steps[10]["text"] == "Ann picks answer 2: Bo scores"
    assert steps[-1]["text"] == "Cy picks answer 1: Bo scores and wins with 2 points"
    assert steps[-1]["scores"] == {"p1": 1, "p2": 2, "p3": 0, "p4": 0} and steps[-1]["winner"] == "p2"
    assert steps[0]["text"] == "The cards are dealt: 4 seats invited, 2 answer cards each"


def test_all_open_submissions_in_the_czars_order_with_the_pick():
    pick_step = judge(won_dict()).steps_json()[10]
    assert pick_step["revealed"] and pick_step["choice"] == 2 and pick_step["round_winner"] == "p2"
    subs = pick_step["submissions"]
    assert [(s["number"], s["seat"], s["won"]) for s in subs] == [(1, "p3", False), (2, "p2", True), (3, "p4", False)]
    assert subs[1]["segments"] == [{"text": "Why can't I sleep at night? ", "answer": None, "blank": False},
                                   {"text": "Answer 3.", "answer": 0, "blank": True}]
    before_reveal = judge(won_dict()).steps_json()[7]
    assert [(s["number"], s["seat"]) for s in before_reveal["submissions"]] == [(None, "p2"), (None, "p3")]


def test_a_seats_perspective():
    replay = judge(won_dict())
    bo = replay.steps_json(seat="p2")
    # hands: only Bo's own
    assert all(s["hands"]["p1"] is None and isinstance(s["hands"]["p2"], list) for s in bo)
    assert bo[11]["hand_sizes"]["p3"] == 1 and bo[12]["hand_sizes"]["p3"] == 2
    # before the reveal: only Bo's own answer, with Bo as its author
    assert [(s["seat"], s["mine"]) for s in bo[8]["submissions"]] == [("p2", True)]
    assert bo[8]["answered"] == ["p2", "p3", "p4"]
    # after the reveal, before the pick: all answers in the czar's order, anonymous
    revealed = bo[9]["submissions"]
    assert [(s["number"], s["seat"], s["mine"]) for s in revealed] == [(1, None, False), (2, None, True),
                                                                      (3, None, False)]
    # after the pick: the authors
    assert [s["seat"] for s in bo[10]["submissions"]] == ["p3", "p2", "p4"]
    # other seats' drawn cards are not shown
    assert bo[11]["cards"] == [{"id": "a9", "text": "Drawn a9."}] and bo[12]["cards"] is None
    assert "Drawn a10." not in json.dumps(bo[:14])
    # the czar saw nothing before the reveal, and the answers anonymously after it
    ann = replay.steps_json(seat="p1")
    assert ann[8]["submissions"] == [] and [s["seat"] for s in ann[9]["submissions"]] == [None, None, None]


def test_steps_json_refuses_an_unknown_seat():
    with pytest.raises(SeatError, match="'N' is not a seat of this game"):
        judge(won_dict()).steps_json(seat="N")


def test_round_record():
    replay = judge(won_dict())
    record = replay.round_record(2)
    assert record["czar"] == "p2" and record["winner"] == "p1" and record["choice"] == 1
    assert "".join(s["text"] for s in record["submissions"][0]["segments"]) == \
        "Answer 1 plus Answer 2: the recipe for a perfect Sunday."
    with pytest.raises(RoundError, match="round 4 is not a round of this game"):
        replay.round_record(4)


@pytest.mark.parametrize("question, answers, expected", [
    ("Why? ___", ["Bees."], "Why? Bees."),
    ("I packed ___ for the trip.", ["A goose."], "I packed A goose for the trip."),
    ("Calls for ___.", ["Soup."], "Calls for Soup."),
    ("Calls for ___!", ["Wait..."], "Calls for Wait...!"),
    ("___ plus ___", ["A", "B"], "A plus B"),
    ("___ plus ___", ["A"], "A plus ___"),
    ("What's that smell?", ["Bees."], "What's that smell? Bees."),
    ("Make a haiku.", ["A.", "B.", "C."], "Make a haiku. A. / B. / C."),
    ("____ and _____", ["<b>x</b>", "&"], "<b>x</b> and &"),
])
def test_fill_blanks(question, answers, expected):
    segments = fill_blanks(question, answers)
    assert "".join(s["text"] for s in segments) == expected
    assert [s["answer"] for s in segments if s["answer"] is not None] == list(range(len(answers)))
