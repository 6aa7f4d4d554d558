"""The hold'em self-play bots: every hand they play is legal (judged without a finding), a seed
always gives the same hand, the call bot never folds or raises, and the tight-aggressive bot
plays its hands by strength."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("replay.games.holdem.engine")
pytest.importorskip("replay.games.holdem.logger")

from replay.games.holdem.bots import BOTS, TagBot, chen_score, hand_strength, play_game, seat_bots  # noqa: E402
from replay.games.holdem.cards import parse_cards  # noqa: E402
from replay.games.holdem.engine import HoldemState  # noqa: E402
from replay.games.holdem.replay import HoldemReplay  # noqa: E402

BOT_LISTS = st.lists(st.sampled_from(sorted(BOTS)), min_size=1, max_size=3)


def judged(log) -> HoldemReplay:
    return HoldemReplay.from_log(log)


def actions(log) -> list[str]:
    return [e.action for e in log.events if e.type == "action"]


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), bots=BOT_LISTS, players=st.integers(2, 10))
def test_every_hand_is_legal_and_complete(seed, bots, players):
    log = play_game(seed, bots=tuple(bots), players=players)
    replay = judged(log)
    assert replay.findings == []
    assert log.end.reason == "completed"
    assert replay.end_reason == "completed" and replay.checked
    assert replay.state.over and replay.settlement.settled
    assert len(log.seats) == players
    # chips are conserved
    assert sum(replay.to_json()["payoffs"].values()) == 0


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), bots=BOT_LISTS, players=st.integers(2, 10))
def test_fixed_limit_hands_are_legal(seed, bots, players):
    log = play_game(seed, bots=tuple(bots), players=players, variant="FT", stacks=3000)
    assert log.variant == "FT" and (log.small_bet, log.big_bet) == (100, 200)
    replay = judged(log)
    assert replay.findings == [] and replay.state.over


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), stacks=st.integers(150, 50_000))
def test_short_and_deep_stacks_are_legal(seed, stacks):
    """Short stacks make all-ins for less and side pots; deep ones long raising wars."""
    log = play_game(seed, bots=("random", "random", "tag"), players=6, stacks=stacks)
    assert judged(log).findings == []


def test_many_seeds_no_findings_and_showdowns_shown():
    shown = 0
    for seed in range(300):
        log = play_game(seed)
        assert judged(log).findings == [], seed
        acts = actions(log)
        shown += sum(" sm " in a for a in acts)
        # hole cards are dealt first, seat by seat, in seat order
        deals = [a for a in acts if a.startswith("d dh ")]
        assert [a.split()[2] for a in deals] == list(log.seats)
        assert acts[:len(deals)] == deals
    assert shown > 0  # some hands reach a showdown, where the cards are shown


def test_a_seed_always_gives_the_same_hand():
    for seed in (0, 1, 17, 123456789):
        assert play_game(seed).to_json_dict() == play_game(seed).to_json_dict()
    assert play_game(1).to_json_dict() != play_game(2).to_json_dict()


def test_seats_rotate_with_the_seed():
    assert seat_bots(0, ("tag", "call", "random"), 6) == ["tag", "call", "random"] * 2
    assert seat_bots(1, ("tag", "call", "random"), 3) == ["call", "random", "tag"]
    log = play_game(2, players=3)
    assert [log.players[s].bot for s in log.seats] == ["random-1", "tag-1", "call-1"]


def test_the_call_bot_never_folds_or_raises():
    for seed in range(200):
        log = play_game(seed, bots=("call", "random", "tag"))
        calling = {s for s in log.seats if log.players[s].bot.startswith("call")}
        for a in actions(log):
            seat, _, rest = a.partition(" ")
            if seat in calling:
                assert rest == "cc" or rest.startswith("sm"), (seed, a)


def test_an_all_call_table_checks_down_to_a_showdown():
    log = play_game(5, bots=("call",), players=4)
    acts = actions(log)
    assert not any(" f" == a[-2:] or " cbr " in a for a in acts)
    assert judged(log).state.street == "showdown"


def test_interrupted_hands_are_judged_without_findings():
    reasons = Counter()
    for seed in range(60):
        log = play_game(seed, interrupt_rate=0.5)
        reasons[log.end.reason] += 1
        assert judged(log).findings == [], seed
    assert reasons["completed"] and (reasons["cancelled"] or reasons["timeout"])


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="2 to 10 seats"):
        play_game(1, players=11)
    with pytest.raises(ValueError, match="not a Texas hold'em bot"):
        play_game(1, bots=("shark",))
    with pytest.raises(ValueError, match="NT or FT"):
        play_game(1, variant="PO")


def test_chen_scores():
    assert chen_score(parse_cards("AsAh")) == 20
    assert chen_score(parse_cards("KdKc")) == 16
    assert chen_score(parse_cards("AhKh")) == 12
    assert chen_score(parse_cards("7h2c")) == -1
    assert chen_score(parse_cards("5s4s")) == 6
    assert chen_score(parse_cards("AhKh")) > chen_score(parse_cards("AhKd"))


def test_hand_strength_orders_made_hands():
    rng = random.Random(3)
    board = parse_cards("Ah7d2c")
    sets = hand_strength(parse_cards("7s7c"), board, rng)
    air = hand_strength(parse_cards("4s3h"), board, rng)
    assert sets > 0.9 and air < 0.4


def preflop_state(seats: int = 6):
    """A 6-seat 50/100 table with every seat's cards dealt, the first seat after the blinds to act."""
    state, _ = HoldemState.from_setup("NT", [0] * seats, [50, 100] + [0] * (seats - 2), [10000] * seats, min_bet=100)
    holes = ["AsAh", "7h2c", "KdQd", "9c8c", "5s5d", "JhTs", "4c4d", "3h3s", "6c6d", "2s2h"][:seats]
    for i, hole in enumerate(holes):
        assert state.dealer_due == ("dh", f"p{i + 1}")
        state.push_action(f"d dh p{i + 1} {hole}", i)
    return state


def test_the_tag_bot_folds_trash_and_raises_aces():
    state = preflop_state()
    bot = TagBot(random.Random(1))
    state.push_action("p3 f", 6)  # KQs folds, to reach the seats we set up below
    state.push_action("p4 f", 7)
    state.push_action("p5 f", 8)
    state.push_action("p6 f", 9)
    assert state.to_act == "p1"
    assert bot.decide(state, "p1", state.legal()) == ("cbr", 250)  # aces open to 2.5 big blinds
    state.push_action("p1 cbr 250", 10)
    assert state.to_act == "p2"
    assert bot.decide(state, "p2", state.legal()) == ("f",)  # seven-deuce folds to a raise


def test_saved_logs_read_back_and_chat_changes_nothing(tmp_path):
    from replay.games.holdem.log import parse

    log = play_game(7, out_dir=str(tmp_path), chat=True, game_id="club/7")
    files = list(tmp_path.iterdir())
    assert len(files) == 1
    again = parse(__import__("json").loads(files[0].read_text()))
    assert again.to_json_dict() == log.to_json_dict()
    chats = 0
    for seed in range(40):
        with_chat = play_game(seed, chat=True)
        chats += sum(e.type == "chat" for e in with_chat.events)
        assert judged(with_chat).findings == []
        assert with_chat.actions == play_game(seed).actions  # chat changes nothing in the play
    assert chats > 0


def flop_state(board: str, holes: list[str]):
    """Three seats all in for 100 before the flop, then the flop dealt: p1 to act."""
    state, _ = HoldemState.from_setup("NT", [0] * 3, [50, 100, 0], [10000] * 3, min_bet=100)
    actions = [f"d dh p{i + 1} {h}" for i, h in enumerate(holes)] + ["p3 cc", "p1 cc", "p2 cc", f"d db {board}"]
    for i, a in enumerate(actions):
        assert state.push_action(a, i) == [], a
    return state


def test_the_tag_bot_bets_strength_and_folds_air_to_a_big_bet():
    bot = TagBot(random.Random(4))
    state = flop_state("AhAd7c", ["AsKd", "4c3h", "9s8s"])  # p1 has trips
    assert state.to_act == "p1"
    decision = bot.decide(state, "p1", state.legal())
    assert decision == ("cbr", 200)  # two thirds of the 300 pot
    state = flop_state("AhAd7c", ["4c3h", "AsKd", "9s8s"])  # p1 has nothing
    assert bot.decide(state, "p1", state.legal()) == ("cc",)  # checks
    state.push_action("p1 cc", 10)
    state.push_action("p2 cbr 300", 11)
    state.push_action("p3 f", 12)
    assert bot.decide(state, "p1", state.legal()) == ("f",)
