"""Thousands of seeded bot games of 2-6 seats: no findings, every logged event legal, the 15 cards
and every coin accounted for; every legal action from their positions replays without a finding."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from replay.games.coup import GAME
from replay.games.coup.bots import play_game
from replay.games.coup.cards import ACTION_CLAIM, COPIES, KINDS
from replay.games.coup.engine import CoupState

BOTS = st.lists(st.sampled_from(["honest", "bluffer", "random"]), min_size=1, max_size=3)


def recount_coins(log) -> dict[str, int]:
    """Each seat's coins, counted from the events turn by turn (independently of the engine)."""
    coins = {s: 2 for s in log.seat_order}
    lost = {s: 0 for s in log.seat_order}
    turns: list[list] = []
    for e in log.events:
        if e.type == "action":
            turns.append([e])
        elif e.type not in ("chat", "illegal", "coins") and turns:
            turns[-1].append(e)
    for turn in turns:
        act, rest = turn[0], turn[1:]
        a, t, letter = act.seat, act.target, act.action
        claim_failed = block_stands = False
        blocker = None
        challenged_block = False
        for i, e in enumerate(rest):
            if e.type == "lose":
                lost[e.seat] += 1
            if e.type == "block":
                blocker, block_stands = e.seat, True
            elif e.type == "challenge" and i + 1 < len(rest):
                nxt = rest[i + 1]
                if blocker is None and letter in ACTION_CLAIM and nxt.type == "lose" and nxt.seat == a:
                    claim_failed = True
                if blocker is not None and not challenged_block:
                    challenged_block = True
                    if nxt.type == "lose" and nxt.seat == blocker:
                        block_stands = False
        effective = not claim_failed and not block_stands
        if letter == "C":
            coins[a] -= 7
        elif letter == "A":
            coins[a] -= 0 if claim_failed else 3
        elif letter == "I":
            coins[a] += 1
        elif letter == "F" and effective:
            coins[a] += 2
        elif letter == "T" and effective:
            coins[a] += 3
        elif letter == "S" and effective and lost[t] < 2:  # a seat that is out keeps its coins
            taken = min(2, coins[t])
            coins[t] -= taken
            coins[a] += taken
    return coins


def check_game(log) -> None:
    replay = GAME.judge(log)
    assert replay.findings == [] and replay.checked, replay.findings
    seats = log.seat_order
    state = CoupState(seats, [log.hands[s] for s in seats], log.first_player)
    for index, event in enumerate(log.events):
        if event.type == "chat":
            continue
        legal = state.legal()
        kind = event.type
        if kind == "action":
            assert ("action", event.seat, event.action, event.target) in legal
        elif kind in ("block", "reveal", "lose"):
            assert (kind, event.seat, event.card) in legal
        elif kind == "replace":
            assert ("replace", event.seat) in legal and event.card in state.draw_choices()
        elif kind == "exchange":
            assert ("exchange", event.seat) in legal and tuple(sorted(event.kept)) in state.keep_choices(event.drawn)
        elif kind == "challenge":
            assert ("challenge", event.seat) in legal or state.phase_name != "window"
        assert state.push(event, index) == []
        assert state.card_total() == [COPIES] * KINDS
        assert state.deck_size == sum(state.deck) and min(state.coins) >= 0
        assert all(sum(state.hidden[i]) == state.influence[i] or state.phase_name == "revealed"
                   for i in range(state.n))
    assert state.finish() == []  # an open action at the end of the log resolves
    assert replay.coins == recount_coins(log) == dict(zip(seats, state.coins))
    assert replay.step_count == state.steps + 1 == len(replay.steps)
    if log.end.reason == "completed":
        assert replay.winners == [log.end.winner] and len(replay.eliminated) == len(seats) - 1
        assert sum(replay.influence.values()) == replay.influence[log.end.winner] > 0


@settings(max_examples=1500, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), bots=BOTS, players=st.integers(2, 6),
       interrupt=st.sampled_from([0.0, 0.3]), chat=st.booleans())
def test_bot_games_are_clean_and_keep_the_cards_and_coins(seed, bots, players, interrupt, chat):
    check_game(play_game(seed, bots=tuple(bots), players=players, interrupt_rate=interrupt, chat=chat))


def test_two_thousand_seeded_games_judge_clean():
    ends = Counter()
    for seed in range(2000):
        players = 2 + seed % 5
        log = play_game(seed, bots=("honest", "bluffer", "random")[seed % 3:] or ("random",), players=players)
        replay = GAME.judge(log)
        assert replay.findings == [], (seed, replay.findings)
        ends[replay.end_reason] += 1
        assert replay.outcome().facts["players"] == players
    assert ends["completed"] >= 1990


def _exchange_draws(state: CoupState) -> tuple[int, int]:
    first = state.draw_choices()[0]
    state.deck[first] -= 1
    second = state.draw_choices()[0]
    state.deck[first] += 1
    return first, second


def test_every_legal_action_from_self_played_positions_replays_clean():
    tried = Counter()
    for seed in range(60):
        log = play_game(seed, bots=("random", "bluffer", "honest"), players=2 + seed % 5)
        seats = log.seat_order
        state = CoupState(seats, [log.hands[s] for s in seats], log.first_player)
        for index, event in enumerate(log.events):
            for entry in state.legal():
                trial = state.copy()
                if entry[0] == "replace":
                    ev = trial.event_for(entry, card=trial.draw_choices()[0])
                elif entry[0] == "exchange":
                    drawn = _exchange_draws(trial)
                    ev = trial.event_for(entry, drawn=drawn, kept=trial.keep_choices(drawn)[-1])
                else:
                    ev = trial.event_for(entry)
                assert trial.push(ev, index) == [], (seed, index, entry)
                assert trial.card_total() == [COPIES] * KINDS
                tried[entry[0]] += 1
            state.push(event, index)
    assert set(tried) == {"action", "challenge", "block", "reveal", "lose", "replace", "exchange"}, tried


def test_selfplay_is_deterministic_and_names_the_bots():
    assert GAME.selfplay(11, ("honest", "random"), players=4).canonical_json() == \
        play_game(11, ("honest", "random"), players=4).canonical_json()
    log = GAME.selfplay(5, ("random", "bluffer", "honest"), players=5)
    assert [log.players[s].bot for s in log.seat_order] == ["random-1", "bluffer-1", "honest-1", "random-1",
                                                            "bluffer-1"]
    assert log.meta["selfplay"] == {"bots": ["random", "bluffer", "honest"], "players": 5, "seed": 5}
