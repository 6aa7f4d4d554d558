"""A game whose draw pile runs out: the discard pile (less its top) becomes the new pile."""

from __future__ import annotations

from replay.games.uno_lite import GAME
from replay.games.uno_lite.bots import play_game
from replay.games.uno_lite.cards import CARD_TEXT
from replay.games.uno_lite.engine import UnoState

RESHUFFLE_SEED = 32  # random vs random: the pile runs out once


def test_reshuffle_game_is_clean_and_replayed():
    log = play_game(RESHUFFLE_SEED, bots=("random", "random"))
    replay = GAME.judge(log)
    assert replay.findings == [] and replay.reshuffles == 1
    steps = replay.steps
    [at] = [s.index for s in steps if s.reshuffled]
    before, after = steps[at - 1], steps[at]
    assert before.pile_size == 0 and after.kind == "draw"
    # everything under the top card went into the pile, and one card of it was drawn
    assert after.discard_size == 1 and after.top == before.top
    assert after.pile_size == before.discard_size - 2
    assert after.text.startswith("The discard pile is shuffled into a new draw pile; ")
    assert replay.steps_json()[at]["reshuffled"] is True


def test_draw_choices_after_the_pile_runs_out_are_the_discards_under_the_top():
    log = play_game(RESHUFFLE_SEED, bots=("random", "random"))
    state = UnoState(log.hands.by_seat(), log.starter, log.first_player)
    for index, event in enumerate(log.events):
        if event.type == "draw" and state.pile_size == 0:
            assert state.draw_choices() == sorted(set(state.discard[:-1]))
            assert event.card in state.draw_choices()
            state.push(event, index)
            assert state.reshuffled and state.reshuffles == 1
            return
        state.push(event, index)
    raise AssertionError("the pile never ran out")


def test_drawing_a_card_not_under_the_top_at_a_reshuffle_is_card_not_in_pile():
    log = play_game(RESHUFFLE_SEED, bots=("random", "random"))
    data = log.to_json_dict()
    state = UnoState(log.hands.by_seat(), log.starter, log.first_player)
    for index, event in enumerate(log.events):
        if event.type == "draw" and state.pile_size == 0:
            break
        state.push(event, index)
    # only the cards under the top card become the new pile: any other card cannot be drawn
    absent = next(k for k in range(36) if k not in state.discard[:-1])
    data["events"][index]["card"] = CARD_TEXT[absent]
    replay = GAME.judge(GAME.parse(data))
    assert [(f.kind, f.event, f.fatal) for f in replay.findings] == [("card_not_in_pile", index, True)]
