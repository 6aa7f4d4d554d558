"""The greedy bot is sensible: it beats the random bot over a few hundred games."""

from __future__ import annotations

import pytest

from replay.games.uno_lite.bots import play_game


def test_greedy_beats_random_in_either_seat():
    games = 600
    wins = 0
    for seed in range(games):
        greedy_seat = "P1" if seed % 2 == 0 else "P2"
        bots = ("greedy", "random") if greedy_seat == "P1" else ("random", "greedy")
        wins += play_game(seed, bots=bots).replay().winners == [greedy_seat]
    # measured: 328 of these 600 (55%); a random-vs-random pairing wins about half
    assert wins / games > 0.52


def test_bad_bot_names_are_refused():
    with pytest.raises(ValueError, match="'clever' is not a bot"):
        play_game(1, bots=("clever", "random"))
    with pytest.raises(ValueError, match="two bot names"):
        play_game(1, bots=("greedy",))


def test_interrupted_games_end_cancelled_or_timeout():
    reasons = {play_game(seed, interrupt_rate=1.0).replay().end_reason for seed in range(40)}
    assert reasons <= {"cancelled", "timeout", "completed"} and {"cancelled", "timeout"} <= reasons
