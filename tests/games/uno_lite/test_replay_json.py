"""UnoReplay's JSON, steps, perspectives, outcome and the GAME object."""

from __future__ import annotations

import json

import pytest

from replay.games import game_for_format, get
from replay.games.base import Outcome, Replay
from replay.games.uno_lite import GAME
from replay.games.uno_lite.replay import SeatError

from .helpers import draw, log_dict, p1_wins_dict, pass_, play


def judge(data):
    return GAME.judge(GAME.parse(data))


def test_registry_finds_the_module():
    assert get("uno-lite") is GAME and game_for_format("uno-lite/1") is GAME
    assert (GAME.name, GAME.title, GAME.major, GAME.seats) == ("uno-lite", "UNO Lite", 1, ("P1", "P2"))
    assert GAME.end_reasons == ("completed", "cancelled", "timeout")
    assert set(GAME.bots) == {"random", "greedy"}


def test_engine_state_is_a_state():
    from replay.games.base import State
    from replay.games.uno_lite.engine import UnoState

    state = UnoState([[0] * 7, [1] * 7], 2, "P2")
    assert isinstance(state, State) and state.to_act == "P2" and not state.over and not state.stopped


def test_to_json_fields():
    replay = judge(p1_wins_dict({"reason": "completed", "winner": "P1", "t": 99}))
    assert isinstance(replay, Replay)
    data = replay.to_json()
    json.dumps(data)
    assert data["game"] == "uno-lite" and data["game_id"] == "test/1"
    assert data["winners"] == ["P1"] and data["end"] == "completed" and data["checked"] is True
    assert data["turns"] == 13 and data["hand_sizes"] == {"P1": 0, "P2": 13}
    assert data["first_player"] == "P1" and data["starter"] == "R9"
    assert data["hands"]["P1"] == ["R1", "R2", "R3", "R4", "R5", "R6", "R7"]
    assert data["findings"] == []


def test_findings_json():
    data = judge(log_dict([play("P1", "R5"), pass_("P2")], {"reason": "completed"})).to_json()
    assert data["findings"] == [
        {"step": 2, "event": 1, "kind": "pass_without_draw", "seat": "P2",
         "message": "P2 passes without drawing a card", "fatal": False},
        {"step": 2, "event": None, "kind": "end_mismatch", "seat": None, "fatal": False,
         "message": "the log says the game was completed, but no hand is empty (P1 holds 6, P2 holds 7)"},
    ]
    assert data["winners"] == [] and data["turns"] == 2


def test_outcome():
    assert judge(p1_wins_dict()).outcome() == Outcome("completed", ("P1",), {}, {"turns": 13, "winner": "P1"})
    assert judge(log_dict([play("P1", "R5")], {"reason": "timeout"})).outcome() == Outcome(
        "timeout", (), {}, {"turns": 1})


def test_summary_line():
    assert judge(p1_wins_dict()).summary_line() == "test/1  uno-lite  P1 won in 13 turns  0 findings"
    assert judge(log_dict([play("P1", "R5")], {"reason": "cancelled"})).summary_line() == \
        "test/1  uno-lite  cancelled after 1 turn  0 findings"


GAME_EVENTS = [play("P1", "R5"), {"type": "chat", "seat": "P2", "text": "hm"}, draw("P2", "B6"), pass_("P2"),
               play("P1", "R2")]


def test_steps_and_event_steps():
    replay = judge(log_dict(GAME_EVENTS))
    assert replay.step_count == 5 == len(replay.steps)
    assert replay.event_steps == [1, 1, 2, 3, 4]
    kinds = [(s.kind, s.seat, s.turn) for s in replay.steps]
    assert kinds == [("deal", None, 1), ("play", "P1", 1), ("draw", "P2", 2), ("pass", "P2", 2), ("play", "P1", 3)]
    assert [s.text for s in replay.steps] == [
        "The cards are dealt; the starter is 🔴9 (R9)", "P1 plays 🔴5 (R5)", "P2 draws 🔵6 (B6)", "P2 passes",
        "P1 plays 🔴2 (R2)"]


def test_steps_json_all_open():
    steps = judge(log_dict(GAME_EVENTS)).steps_json()
    draw_step = steps[2]
    assert draw_step["card"] == "B6" == draw_step["drawn"]
    assert "B6" in draw_step["hands"]["P2"] and len(draw_step["hands"]["P1"]) == 6
    assert draw_step["hand_sizes"] == {"P1": 6, "P2": 8}
    assert draw_step["top"] == "R5" and draw_step["pile_size"] == 72 - 14 - 1 - 1
    assert draw_step["to_act"] == "P2" and steps[3]["to_act"] == "P1"
    assert draw_step["event"] == 2 and steps[0]["event"] is None


def test_steps_json_from_one_seat_hides_the_other_hand_and_its_draws():
    replay = judge(log_dict(GAME_EVENTS))
    mine = replay.steps_json(seat="P1")
    assert all(s["hands"]["P2"] is None and isinstance(s["hands"]["P1"], list) for s in mine)
    assert mine[2]["card"] is None and mine[2]["drawn"] is None and mine[2]["text"] == "P2 draws a card"
    assert "B6" not in json.dumps(mine, ensure_ascii=False)
    assert mine[2]["hand_sizes"] == {"P1": 6, "P2": 8}
    theirs = replay.steps_json(seat="P2")
    assert theirs[2]["drawn"] == "B6" and theirs[1]["card"] == "R5" and theirs[1]["hands"]["P1"] is None


def test_steps_json_refuses_an_unknown_seat():
    with pytest.raises(SeatError, match="'N' is not a seat of UNO Lite"):
        judge(log_dict(GAME_EVENTS)).steps_json(seat="N")


def test_last_play_says_who_won():
    replay = judge(p1_wins_dict())
    assert replay.steps[-1].text == "P1 plays 🔴7 (R7) and wins"
    assert replay.steps[-1].to_act is None and replay.steps[-1].winner == "P1"
