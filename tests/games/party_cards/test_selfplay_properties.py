"""Thousands of seeded bot games: no findings; every legal action from their positions is clean."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from replay.games.party_cards import GAME
from replay.games.party_cards.bots import play_game
from replay.games.party_cards.engine import IN, PartyState

BOTS = st.sampled_from([("random",), ("greedy",), ("random", "greedy", "random"), ("greedy",) * 10,
                        ("random", "random", "greedy", "greedy", "random")])


def state_of(log) -> PartyState:
    seats = log.seats
    return PartyState(seats, [[(c.id, c.text) for c in log.hands[s]] for s in seats], log.hand_size,
                      log.score_limit, log.end.t if log.end else None)


def check_game(log) -> None:
    replay = GAME.judge(log)
    assert replay.findings == [], replay.findings
    assert replay.checked
    assert sum(replay.scores.values()) <= replay.rounds
    if log.end.reason == "completed":
        assert replay.winners == [log.end.winner] and replay.scores[log.end.winner] == log.score_limit
    else:
        assert replay.winners == [] and max(replay.scores.values()) < log.score_limit
    if log.end.reason == "not_enough_players":
        assert len(replay.in_game) < 3
    assert replay.step_count == len(replay.steps) == 1 + sum(1 for e in log.events if e.type != "chat")
    # every logged decision of the seat to act is one of its legal actions
    state = state_of(log)
    for index, event in enumerate(log.events):
        legal = state.legal()
        if event.type in ("join", "decline", "answer", "pick") and state.to_act == event.seat:
            action = (event.type, event.seat, tuple(event.cards) if event.type == "answer" else event.choice) \
                if event.type in ("answer", "pick") else (event.type, event.seat)
            assert action in legal, (index, action)
        assert state.push(event, index) == []
    assert state.rounds == replay.rounds and list(state.scores) == list(replay.scores.values())


@settings(max_examples=600, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), bots=BOTS, interrupt=st.sampled_from([0.0, 0.3]), chat=st.booleans(),
       rounds=st.sampled_from([None, 1, 5]), hand_size=st.sampled_from([10, 10, 4, 1]))
def test_bot_games_are_clean(seed, bots, interrupt, chat, rounds, hand_size):
    check_game(play_game(seed, bots=bots, interrupt_rate=interrupt, chat=chat, rounds=rounds, hand_size=hand_size))


def test_two_thousand_seeded_games_judge_clean():
    ends = set()
    for seed in range(2000):
        log = play_game(seed, bots=("random",) if seed % 2 else ("greedy",))
        replay = GAME.judge(log)
        assert replay.findings == [], (seed, replay.findings)
        ends.add(replay.end_reason)
        facts = {"rounds": replay.rounds, "players": replay.joined}
        if replay.winner:
            facts["winner"] = replay.winner
        assert replay.outcome().facts == facts
    assert ends == {"completed", "not_enough_players"}


def test_every_legal_action_from_self_played_positions_replays_without_a_finding():
    rng = random.Random(0)
    tried = 0
    kinds = set()
    for seed in range(60):
        log = play_game(seed, bots=("random",), interrupt_rate=0.2, hand_size=(10, 3)[seed % 2])
        state = state_of(log)
        for index, event in enumerate(log.events):
            legal = state.legal()
            if len(legal) > 24:  # answers to a pick-3 question: up to 720; a sample of them
                legal = rng.sample(legal, 24)
            for action in legal:
                trial = state.copy()
                assert trial.apply_action(action, index) == [], (seed, index, action)
                assert trial.steps == state.steps + 1
                tried += 1
                kinds.add(action[0])
            state.push(event, index)
    assert tried > 5000 and kinds == {"join", "decline", "answer", "pick"}


def test_copy_is_independent():
    log = play_game(4)
    state = state_of(log)
    for index, event in enumerate(log.events[:12]):
        state.push(event, index)
    before = (list(state.status), [dict(h) for h in state.hands], list(state.scores), dict(state.submissions))
    trial = state.copy()
    for action in [trial.legal()[0]] if trial.legal() else []:
        trial.apply_action(action, 99)
    trial.status[0] = IN
    trial.hands[0]["zz"] = None
    trial.scores[0] += 5
    assert (state.status, state.hands, state.scores, state.submissions) == tuple(before)


def test_selfplay_is_deterministic_per_seed():
    assert GAME.selfplay(11, ("random",)).canonical_json() == play_game(11).canonical_json()
    assert play_game(11).canonical_json() != play_game(12).canonical_json()


def test_selfplay_names_the_bots_and_seats():
    log = GAME.selfplay(5, ("random", "greedy", "random"))
    assert [p.bot for p in log.players.values()] == ["random-1", "greedy-1", "random-1"]
    assert log.seats == ("p1", "p2", "p3") and log.meta["selfplay"] == {"bots": ["random", "greedy", "random"],
                                                                       "seed": 5}


def test_rounds_caps_the_game():
    replay = GAME.judge(play_game(3, rounds=2, score_limit=3))
    assert replay.rounds == 2 and replay.end_reason == "cancelled" and replay.findings == []
