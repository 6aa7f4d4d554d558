"""Championship leaderboards: bb/100 with 95% intervals on a known sample, and the all-in
adjustment of a hand-made all-in before the flop equal to the equity share of the pot."""

from __future__ import annotations

import math
import statistics

import pytest

pytest.importorskip("replay.games.holdem.engine")
pytest.importorskip("replay.games.holdem.equity")

from replay.games.holdem.cards import parse_cards  # noqa: E402
from replay.games.holdem.championship import (HandResult, all_in_moment, championship, hand_result,  # noqa: E402
                                              interval, leaderboard)
from replay.games.holdem.engine import HoldemState  # noqa: E402
from replay.games.holdem.equity import equities  # noqa: E402


def test_interval_on_a_known_sample():
    values = [2.0, -1.0, 0.5, 3.5, -4.0, 1.0]
    got = interval(values, 100.0)
    mean = sum(values) / 6
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / 5)
    assert got.mean == pytest.approx(100 * mean)
    assert got.half == pytest.approx(100 * 1.96 * sd / math.sqrt(6))
    assert got.low == pytest.approx(got.mean - got.half) and got.width == pytest.approx(2 * got.half)
    assert got.n == 6
    assert interval([1.0]).half is None and interval([]).n == 0


def test_leaderboard_averages_a_bots_seats_within_a_hand():
    hands = [
        HandResult({"p1": "a", "p2": "a", "p3": "b"}, {"p1": 2.0, "p2": 0.0, "p3": -2.0},
                   {"p1": 1.0, "p2": 0.0, "p3": -1.0}, True),
        HandResult({"p1": "b", "p2": "a", "p3": "a"}, {"p1": 3.0, "p2": -1.0, "p3": -2.0},
                   {"p1": 3.0, "p2": -1.0, "p3": -2.0}, False),
        HandResult({"p1": "a", "p2": "b", "p3": "b"}, {"p1": -1.0, "p2": 0.5, "p3": 0.5},
                   {"p1": -1.0, "p2": 0.5, "p3": 0.5}, False),
    ]
    board = leaderboard(hands)
    a = next(s for s in board.standings if s.bot == "a")
    b = next(s for s in board.standings if s.bot == "b")
    assert (a.hands, a.seats, a.all_in_hands) == (3, 5, 1)
    assert (b.hands, b.seats) == (3, 4)
    raw_a = [1.0, -1.5, -1.0]
    adj_a = [0.5, -1.5, -1.0]
    assert a.raw.mean == pytest.approx(100 * statistics.fmean(raw_a))
    assert a.raw.half == pytest.approx(100 * 1.96 * statistics.stdev(raw_a) / math.sqrt(3))
    assert a.adjusted.mean == pytest.approx(100 * statistics.fmean(adj_a))
    assert a.width_ratio == pytest.approx(statistics.stdev(adj_a) / statistics.stdev(raw_a))
    assert b.raw.mean == pytest.approx(100 * statistics.fmean([-2.0, 3.0, 0.5]))
    assert [s.bot for s in board.standings] == ["b", "a"]  # best raw rate first
    data = board.to_json()
    assert data["hands"] == 3 and data["all_in_hands"] == 1
    assert data["standings"][1]["bb_per_100"]["mean"] == pytest.approx(a.raw.mean)


PREFLOP_ALL_IN = [
    "d dh p1 AsAh", "d dh p2 KdKc", "d dh p3 7h2c",
    "p3 f", "p1 cbr 10000", "p2 cc",
    "d db 2d5s9h", "d db Kh", "d db 3c",   # kings win the run-out
]


def made_log(actions, stacks=(10000, 10000, 10000)):
    """A hand-made ``holdem/1`` log: 3 seats, blinds 50/100, two bots and a person."""
    from replay.games.holdem.log import parse

    data = {"format": "holdem/1", "game_id": "allin", "variant": "NT", "antes": [0, 0, 0],
            "blinds_or_straddles": [50, 100, 0], "min_bet": 100, "starting_stacks": list(stacks),
            "players": {"p1": {"name": "A", "bot": "aces"}, "p2": {"name": "K", "bot": "kings"},
                        "p3": {"name": "Cy"}},
            "events": [{"action": a} for a in actions]}
    return parse(data)


def finish(actions):
    """The actions, with the showdown's ``sm`` events the engine asks for after the river."""
    state, _ = HoldemState.from_setup("NT", [0, 0, 0], [50, 100, 0], [10000] * 3, min_bet=100)
    out = list(actions)
    for i, a in enumerate(out):
        state.push_action(a, i)
    while not state.over:
        seat = state.to_act
        out.append(f"{seat} sm " + "".join(PREFLOP_ALL_IN[int(seat[1]) - 1].split()[-1:]))
        state.push_action(out[-1], len(out) - 1)
    return out


def test_the_all_in_adjustment_of_a_preflop_all_in_is_the_equity_share():
    log = made_log(finish(PREFLOP_ALL_IN))
    result = hand_result(log)
    assert result is not None and result.all_in
    assert result.bots == {"p1": "aces", "p2": "kings", "p3": "Cy"}
    # the run-out: kings win the 20,000 pot (the big blind's 100 is in it, p3 put nothing in)
    assert result.raw == {"p1": -100.0, "p2": 100.0, "p3": 0.0}
    share = equities([parse_cards("AsAh"), parse_cards("KdKc")], [], parse_cards("7h2c")).shares
    assert 0.80 < share[0] < 0.84
    assert result.adjusted["p1"] == pytest.approx((-10000 + 20000 * share[0]) / 100)
    assert result.adjusted["p2"] == pytest.approx((-10000 + 20000 * share[1]) / 100)
    assert result.adjusted["p3"] == 0.0
    assert sum(result.adjusted.values()) == pytest.approx(0.0)


def test_a_hand_without_an_all_in_keeps_its_raw_result():
    log = made_log(["d dh p1 AsAh", "d dh p2 KdKc", "d dh p3 7h2c", "p3 f", "p1 cbr 300", "p2 f"])
    result = hand_result(log)
    assert not result.all_in and result.adjusted == result.raw
    assert result.raw == {"p1": 1.0, "p2": -1.0, "p3": 0.0}


def test_an_all_in_on_the_river_is_not_adjusted():
    actions = ["d dh p1 AsAh", "d dh p2 KdKc", "d dh p3 7h2c", "p3 f", "p1 cc", "p2 cc",
               "d db 2d5s9h", "p1 cc", "p2 cc", "d db Kh", "p1 cc", "p2 cc", "d db 3c",
               "p1 cbr 9900", "p2 cc"]
    result = hand_result(made_log(finish(actions)))
    assert not result.all_in and result.adjusted == result.raw


def test_the_moment_is_found_only_when_no_more_betting_can_happen():
    state, _ = HoldemState.from_setup("NT", [0, 0, 0], [50, 100, 0], [10000] * 3, min_bet=100)
    for i, a in enumerate(PREFLOP_ALL_IN[:5]):
        state.push_action(a, i)
        assert all_in_moment(state) is None  # p2 has not answered the all-in yet
    state.push_action("p2 cc", 5)
    moment = all_in_moment(state)
    assert moment is not None
    assert moment["stacks"] == {"p1": 0, "p2": 0, "p3": 10000}
    assert sum(moment["credit"].values()) == pytest.approx(20000)


def test_championship_of_self_play_hands():
    from replay.games.holdem.bots import play_game

    logs = [play_game(seed) for seed in range(30)]
    board = championship(logs)
    assert board.hands == 30 and board.skipped == 0
    assert {s.bot for s in board.standings} == {"tag-1", "call-1", "random-1"}
    for s in board.standings:
        assert s.hands == 30 and s.seats == 60
    # the raw payoffs of every hand sum to zero, so the bots' rates (two seats each) do too
    assert sum(s.raw.mean for s in board.standings) == pytest.approx(0.0, abs=1e-6)
    assert sum(s.adjusted.mean for s in board.standings) == pytest.approx(0.0, abs=1e-6)
    assert "Raw" in [c.header for c in board.table().columns]


def test_the_command_prints_the_leaderboard_as_a_table_and_as_json(tmp_path):
    import json

    from click.testing import CliRunner

    from replay.games.holdem.bots import play_game
    from replay.games.holdem.championship import championship_command

    for seed in range(12):
        play_game(seed, out_dir=str(tmp_path))
    runner = CliRunner()
    result = runner.invoke(championship_command, [str(tmp_path), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["hands"] == 12 and data["unit"] == "bb/100" and len(data["standings"]) == 3
    assert {"bb_per_100", "bb_per_100_adjusted", "width_ratio"} <= set(data["standings"][0])
    table = runner.invoke(championship_command, [str(tmp_path)])
    assert table.exit_code == 0 and "tag-1" in table.output and "AIVAT" in table.output
    (tmp_path / "broken.json").write_text("{not json")
    broken = runner.invoke(championship_command, [str(tmp_path), "--json"])
    assert broken.exit_code == 2 and json.loads(broken.stdout)["unreadable"] == 1
    empty = tmp_path / "empty"
    empty.mkdir()
    assert runner.invoke(championship_command, [str(empty)]).exit_code == 2


def test_adjusted_hands_keep_chips_and_only_all_ins_are_adjusted():
    """Over many self-play hands: the adjustment moves no chip in or out of a hand (payoffs still
    sum to zero), changes nothing in a hand with no all-in before the river, and a hand it
    adjusts has no betting left after the all-in (only board cards and the showdown)."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from replay.games.holdem.bots import play_game

    @settings(max_examples=60, deadline=None)
    @given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 10), stacks=st.integers(200, 20000))
    def check(seed, players, stacks):
        log = play_game(seed, players=players, stacks=stacks)
        result = hand_result(log)
        assert result is not None
        assert sum(result.raw.values()) == pytest.approx(0.0, abs=1e-9)
        assert sum(result.adjusted.values()) == pytest.approx(0.0, abs=1e-6)
        acts = log.actions
        last_bet = max(i for i, a in enumerate(acts) if not a.startswith("d ") and " sm " not in a)
        tail = acts[last_bet + 1:]
        board_after = [a for a in tail if a.startswith("d db ")]
        # board cards dealt with no betting after them: the money was all in before the river
        assert result.all_in == bool(board_after)
        if not result.all_in:
            assert result.adjusted == result.raw
        # a seat that folded keeps its raw result
        folded = {a.split()[0] for a in acts if a.endswith(" f")}
        for seat in folded:
            assert result.adjusted[seat] == result.raw[seat]

    check()


def test_the_adjustment_narrows_the_intervals_of_self_play():
    """On the same 150 seeded hands (deterministic), every bot's adjusted interval is narrower
    (bench/holdem/intervals.py measures it on thousands)."""
    from replay.games.holdem.bots import play_game

    board = championship(play_game(seed) for seed in range(150))
    assert board.all_in_hands > 40
    for s in board.standings:
        assert s.width_ratio is not None and s.width_ratio < 0.95, s
        # unbiased: the two rates differ by less than the raw interval's half-width
        assert abs(s.adjusted.mean - s.raw.mean) < s.raw.half
