"""Thousands of seeded bot games: no findings, every logged action legal, 72 cards kept by kind."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from replay.games.uno_lite import GAME
from replay.games.uno_lite.bots import play_game
from replay.games.uno_lite.cards import COPIES, DECK_SIZE, KINDS
from replay.games.uno_lite.engine import SEAT_INDEX, UnoState

BOT_PAIRS = st.sampled_from([("greedy", "random"), ("random", "greedy"), ("greedy", "greedy"), ("random", "random")])


def check_game(log) -> None:
    replay = GAME.judge(log)
    assert replay.findings == [], replay.findings
    assert replay.checked
    # walk the log again, checking each action against legal() and the cards' conservation
    state = UnoState(log.hands.by_seat(), log.starter, log.first_player)
    for index, event in enumerate(log.events):
        if event.type == "chat":
            continue
        legal = state.legal()
        assert state.to_act == event.seat
        if event.type == "play":
            assert ("play", event.card) in legal
        elif event.type == "draw":
            assert legal == [("draw",)]
            assert event.card in state.draw_choices()
        else:
            assert ("pass",) in legal
        plays = [a[1] for a in legal if a[0] == "play"]
        assert plays == sorted(set(plays))
        assert state.push(event, index) == []
        discard_counts = [0] * KINDS
        for card in state.discard:
            discard_counts[card] += 1
        for kind in range(KINDS):
            assert state.hands[0][kind] + state.hands[1][kind] + state.pile[kind] + discard_counts[kind] == COPIES
        assert sum(state.hand_sizes) + state.pile_size + len(state.discard) == DECK_SIZE
        assert state.hand_sizes == [sum(state.hands[0]), sum(state.hands[1])]
    assert state.turns == replay.turns
    if log.end.reason == "completed":
        assert replay.winners == [log.end.winner] and replay.hand_sizes[log.end.winner] == 0
    else:
        assert replay.winners == [] and min(replay.hand_sizes.values()) > 0
    assert replay.step_count == state.steps + 1 == len(replay.steps)
    last = replay.steps[-1]
    assert len(last.hands[0]) + len(last.hands[1]) + last.pile_size + last.discard_size == DECK_SIZE


@settings(max_examples=1000, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), bots=BOT_PAIRS, interrupt=st.sampled_from([0.0, 0.3]), chat=st.booleans())
def test_bot_games_are_clean_and_keep_the_72_cards(seed, bots, interrupt, chat):
    check_game(play_game(seed, bots=bots, interrupt_rate=interrupt, chat=chat))


def test_two_thousand_seeded_games_judge_clean():
    for seed in range(2000):
        log = play_game(seed, bots=("random", "random") if seed % 2 else ("greedy", "random"))
        replay = GAME.judge(log)
        assert replay.findings == [] and replay.end_reason == "completed"
        assert replay.outcome().facts == {"turns": replay.turns, "winner": replay.winner}


def test_selfplay_is_deterministic_per_seed():
    assert GAME.selfplay(11, ("greedy", "random")).canonical_json() == play_game(11).canonical_json()
    assert play_game(11).canonical_json() != play_game(12).canonical_json()


def test_selfplay_names_the_bots():
    log = GAME.selfplay(5, ("random", "greedy"))
    assert (log.players["P1"].bot, log.players["P2"].bot) == ("random-1", "greedy-1")
