"""CoupReplay's JSON, outcome, steps and perspectives (no hidden card leaks), and the GAME object."""

from __future__ import annotations

import json
import re

import pytest

from replay.games import game_for_format, get
from replay.games.base import Outcome, Replay, State
from replay.games.coup import GAME
from replay.games.coup.bots import play_game
from replay.games.coup.cards import CARD_NAMES, CARD_TEXT
from replay.games.coup.engine import CoupState
from replay.games.coup.replay import SeatError

from .helpers import SPEC_EVENTS, act, ev, log_dict, two_seat_win


def judge(data):
    return GAME.judge(GAME.parse(data))


def test_registry_and_protocols():
    assert get("coup") is GAME and game_for_format("coup/1") is GAME
    assert (GAME.name, GAME.title, GAME.major) == ("coup", "Coup", 1)
    assert set(GAME.bots) == {"honest", "bluffer", "random"}
    state = CoupState(("1", "2"), [[0, 1], [2, 3]], "2")
    assert isinstance(state, State) and state.to_act == "2"
    assert isinstance(judge(log_dict([])), Replay)


def test_to_json_and_outcome():
    replay = judge(two_seat_win(end={"reason": "completed", "winner": "1", "t": 9}))
    data = replay.to_json()
    json.dumps(data)
    assert data["game"] == "coup" and data["winners"] == ["1"] and data["end"] == "completed"
    assert data["eliminated"] == ["2"] and data["coins"] == {"1": 0, "2": 7} and data["findings"] == []
    assert replay.outcome() == Outcome("completed", ("1",), {}, {"turns": 11, "players": 2, "winner": "1"})
    bad = judge(log_dict([act("2", "I")])).to_json()["findings"]
    assert bad[0]["event"] == 0 and bad[0]["step"] == 0 and bad[0]["kind"] == "out_of_turn" and bad[0]["seat"] == "2"
    assert set(bad[0]) >= {"event", "step", "kind", "seat", "message"}
    assert replay.summary_line() == "test/1  coup  1 won in 11 turns (2 seats)  0 findings"


def test_step_and_turn_text():
    events = [act("1", "I"), act("2", "I"), act("3", "I"), act("1", "S", "2"), ev("challenge", "3"),
              ev("reveal", "1", "C"), ev("lose", "3", "A"), ev("replace", "1", "C")]
    replay = judge(log_dict(events))
    steps = replay.steps_json()
    assert steps[8]["turn_text"] == ("1 steals from 2, claiming Captain (true); 3 challenges; 1 shows Captain; "
                                     "3 loses Assassin; 1 draws Captain as a replacement")
    mine = replay.steps_json(seat="2")
    assert mine[8]["turn_text"] == ("1 steals from 2, claiming Captain; 3 challenges; 1 shows Captain; "
                                    "3 loses Assassin; 1 draws a replacement card")
    assert "bluff" not in mine[4] and steps[4]["bluff"] is False
    assert replay.steps_json(seat="1")[4]["bluff"] is False


def test_bluff_flag_only_where_the_viewer_may_know():
    replay = judge(log_dict([act("1", "I"), act("2", "T")]))  # 2 holds two Contessas: a bluff
    assert replay.steps_json()[2]["bluff"] is True and replay.steps_json("2")[2]["bluff"] is True
    assert "bluff" not in replay.steps_json("1")[2] and "bluff" not in replay.steps_json("3")[2]
    assert replay.steps[2].text_for("1") == "2 collects tax, claiming Duke"


def _hidden_tokens(text: str) -> set[str]:
    return set(re.findall(r'"([DABCE])"', text)) | {n for n in CARD_NAMES if n in text}


def test_no_other_seats_face_down_card_appears_in_a_seat_view():
    # 3 holds Ambassador and Assassin, never claimed, shown or lost; 1 and 2 never name them either
    events = [act("1", "T"), act("2", "I"), act("3", "I"), act("1", "I"), act("2", "F"), ev("block", "1", "D"),
              act("3", "I")]
    data = log_dict(events)
    replay = judge(data)
    assert replay.findings == []
    for seat in ("1", "2"):
        text = json.dumps(replay.steps_json(seat), ensure_ascii=False)
        assert not {"A", "B", "Assassin", "Ambassador"} & _hidden_tokens(text), seat
    assert "Ambassador" not in json.dumps(replay.steps_json("1")) and '"B"' in json.dumps(replay.steps_json("3"))


def test_a_seat_view_does_not_depend_on_the_other_seats_hidden_cards():
    """Swap cards no one else saw (hands, replacements, exchanges): the other seats' views are equal."""
    for seed in range(40):
        log = play_game(seed, bots=("random", "bluffer", "honest"), players=3)
        views = {s: json.dumps(GAME.judge(log).steps_json(s)) for s in log.seat_order}
        for seat in log.seat_order:
            for token in ("drawn", "kept", "deck"):
                assert all(step[token] is None for step in GAME.judge(log).steps_json(seat)
                           if step["seat"] != seat) or token == "deck"
            others = [s for s in log.seat_order if s != seat]
            for step in json.loads(views[seat]):
                assert all(step["hands"][o] is None for o in others) and step["deck"] is None
                if step["kind"] in ("replace", "exchange") and step["seat"] != seat:
                    assert step["card"] is None and step["drawn"] is None and step["kept"] is None
                    assert "Ambassador and" not in step["text"] and " as a replacement" not in step["text"]


def test_steps_json_refuses_an_unknown_seat():
    with pytest.raises(SeatError, match="'N' is not a seat of this Coup game"):
        judge(log_dict([])).steps_json(seat="N")


def test_legal_and_draw_choices():
    state = CoupState(("1", "2", "3"), [[0, 3], [4, 4], [1, 2]], "1")
    assert state.legal()[:3] == [("action", "1", "I", None), ("action", "1", "F", None), ("action", "1", "T", None)]
    assert state.draw_choices() == [0, 1, 2, 3, 4]
    state.apply_event("action", "1", action="S", target="2", index=0)
    assert state.legal()[:4] == [("challenge", "2"), ("challenge", "3"), ("block", "2", 3), ("block", "2", 2)]
    state.apply_event("challenge", "3", index=1)
    assert state.legal() == [("reveal", "1", 3), ("lose", "1", 0), ("lose", "1", 3)]
