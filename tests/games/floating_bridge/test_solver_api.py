"""The solver's Python API (Position from a game, errors), the analysis of a whole game, and
the ``analyse`` command."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from replay.games.floating_bridge.bots import play_game
from replay.games.floating_bridge.cards import SUIT_MASKS, Card, mask_of
from replay.cli import cli
from replay.games.floating_bridge.engine import PLAY, Game
from replay.games.floating_bridge import solver
from replay.games.floating_bridge.analysis import analyse, game_at_step
from replay.games.floating_bridge.solver import Position, PositionError

from .helpers import brute_force


def _game_with_tricks_left(seed: int, tricks: int) -> Game:
    """A bot game's engine, pushed until `tricks` tricks (and no card of them) are left."""
    log = play_game(seed=seed, rules="all-tricks")
    game = Game(log.hands.by_seat(), log.first_bidder, log.rules)
    for event in log.events:
        if game.phase == PLAY and not game.trick and len(game.trick_winners) == 13 - tricks:
            return game
        game.push(event)
    raise AssertionError("the game ended early")


def test_position_from_game_is_solved_like_brute_force():
    for seed in (1, 2, 3):
        game = _game_with_tricks_left(seed, 4)
        position = Position.from_game(game)
        assert position.tricks_left == 4
        assert set(position.declarer_side) == {int(game.declarer), int(game.partner_seat)}
        assert position.trump == game.trump and position.trump_broken == game.trump_broken
        assert solver.solve(position) == brute_force(position)
        assert set(solver.card_values(position)) == set(game.legal_cards())


def test_position_from_replay_matches_the_engine_at_that_step():
    replay = play_game(seed=4).replay()
    step = replay.step_count - 6
    game = game_at_step(replay, step)
    assert Position.from_replay(replay, step) == Position.from_game(game)
    assert tuple(game.hands) == replay.steps[step].hands


def test_positions_that_make_no_sense_are_refused():
    one = mask_of([Card.parse("SA")])
    with pytest.raises(PositionError, match="disjoint"):
        Position((one, one, 0, 0), None, (0, 2), 0)
    with pytest.raises(PositionError, match="matching numbers"):
        Position((one, 0, 0, 0), None, (0, 2), 0)
    with pytest.raises(PositionError, match="one to three seats"):
        Position((1, 2, 4, 8), None, (0, 1, 2, 3), 0)
    with pytest.raises(PositionError, match="trump"):
        Position((1, 2, 4, 8), 4, (0,), 0)
    with pytest.raises(PositionError, match="play phase"):
        Position.from_game(Game.new_random(seed=1))


def test_analysis_of_a_game_is_consistent_card_to_card():
    for seed in (1, 5):
        replay = play_game(seed=seed).replay()
        result = analyse(replay)
        plays = [i for i, e in enumerate(replay.log.events) if e.type == "play"]
        assert [c.event for c in result.cards] == plays
        assert result.start == result.cards[0].before
        for card, following in zip(result.cards, result.cards[1:]):
            # the position a card makes is the one the next card is played in
            assert card.after == following.before
        for card in result.cards:
            assert card.legal and card.loss >= 0
            assert (card.card in card.best) == (card.loss == 0)
            assert card.before <= 13 and card.after <= 13


def test_analysis_of_a_game_without_play_is_empty():
    log = play_game(seed=1)
    truncated = log.model_copy(update={"events": [e for e in log.events if e.type == "bid"][:2], "end": None})
    assert analyse(truncated.replay()).cards == []


def test_analyse_command_json(tmp_path):
    log = play_game(seed=5)
    path = tmp_path / "game.json"
    path.write_text(log.canonical_json(), encoding="utf-8")
    result = CliRunner().invoke(cli, ["analyse", str(path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["source"] == str(path)
    expected = analyse(log.replay())
    assert len(data["cards"]) == len(expected.cards)
    first = data["cards"][0]
    assert set(first) >= {"event", "seat", "card", "before", "after", "best"}
    assert first["card"] == str(expected.cards[0].card) and first["best"] == [str(c) for c in expected.cards[0].best]
    text = CliRunner().invoke(cli, ["analyse", str(path)])
    assert text.exit_code == 0 and "with best play from the opening lead" in text.output


def test_analyse_command_takes_a_replay_code_and_refuses_garbage():
    from replay.codec import encode

    log = play_game(seed=5)
    result = CliRunner().invoke(cli, ["analyse", encode(log), "--json"])
    assert result.exit_code == 0, result.output
    assert len(json.loads(result.output)["cards"]) == len(analyse(log.replay()).cards)
    bad = CliRunner().invoke(cli, ["analyse", "not-a-code-or-file!"])
    assert bad.exit_code != 0 and "Traceback" not in bad.output


@pytest.mark.parametrize("module", ["replay.games.floating_bridge.solver",
                                    "replay.games.floating_bridge.analysis"])
def test_doctests(module):
    import doctest
    import importlib

    failures, tried = doctest.testmod(importlib.import_module(module))
    assert tried > 0 and failures == 0


def test_a_revoke_is_analysed_as_not_legal_and_play_stops_at_a_fatal_finding():
    log = play_game(seed=5)
    game = Game(log.hands.by_seat(), log.first_bidder, log.rules)
    events = list(log.events)
    for i, event in enumerate(events):
        if event.type == "play" and game.trick:
            led = game.trick[0][1] // 13
            hand = game.hands[event.seat]
            off = [c for c in range(52) if hand >> c & 1 and c // 13 != led]
            if hand & SUIT_MASKS[led] and off:
                events[i] = event.model_copy(update={"card": Card(off[0])})
                break
        game.push(event)
    revoked = log.model_copy(update={"events": events, "end": None})
    replay = revoked.replay()
    assert "revoke" in replay.finding_kinds()
    result = analyse(replay)
    bad = [c for c in result.cards if not c.legal]
    assert len(bad) == 1 and bad[0].event == i
    rest = Position.from_game(game_at_step(replay, replay.event_steps[i]))
    won = game_at_step(replay, replay.event_steps[i]).declarer_side_tricks
    assert bad[0].after == won + solver.solve(rest)
