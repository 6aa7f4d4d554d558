"""Floating bridge's duplicate deals: the deal key, the side tricks, and championship tables.

Every table of a deal (``replay.duplicate.rotation``) is dealt the same whoever sits there, so
its key is the same; different deals, a card moved or another first bidder give another key;
``deal_scores`` is each seat's side's tricks over or short of its number; and ``selfplay`` still gives the logs it gave
before ``play_table`` shared its code.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from replay.duplicate import is_key, rotation
from replay.games import game_for_format, get
from replay.games.floating_bridge import bots as bridge_bots
from replay.games.floating_bridge.cards import SEATS
from replay.log import read_path

GAME = get("floating-bridge")
BOT_NAMES = tuple(bridge_bots.BOTS)
DEALS = st.integers(min_value=0, max_value=10**9)
SAMPLES = Path(__file__).resolve().parents[3] / "sample_logs"


def bot_lists():
    """One to four bot names, not all alike (so that the tables of a rotation differ)."""
    return st.lists(st.sampled_from(BOT_NAMES), min_size=2, max_size=4).filter(lambda b: len(set(b)) > 1)


def data_of(log) -> dict:
    return json.loads(log.canonical_json())


def keyed(data: dict):
    return GAME.deal_key(GAME.parse(data))


@settings(max_examples=25, deadline=None)
@given(DEALS, bot_lists(), st.sampled_from(GAME.rule_presets))
def test_every_table_of_a_rotation_has_the_deals_key(deal, bots, rules):
    tables = rotation(GAME.table_seats(bots), bots)
    logs = [GAME.play_table(deal, seated, table, rules=rules) for table, seated in enumerate(tables)]
    keys = {GAME.deal_key(log) for log in logs}
    assert len(keys) == 1 and is_key(keys.pop())
    seatings = [tuple(log.players[s].bot for s in SEATS) for log in logs]
    assert seatings == [tuple(f"{b}-1" for b in seated) for seated in tables]
    assert len(set(seatings)) > 1  # the bots differ from table to table, the cards do not
    assert len({(str(log.hands), log.first_bidder) for log in logs}) == 1


@settings(max_examples=40, deadline=None)
@given(DEALS, DEALS)
def test_different_deals_never_share_a_key(one, two):
    if one == two:
        return
    first, second = GAME.play_table(one, ("greedy",) * 4), GAME.play_table(two, ("greedy",) * 4)
    assert (first.hands, first.first_bidder) != (second.hands, second.first_bidder)
    assert GAME.deal_key(first) != GAME.deal_key(second)


@settings(max_examples=40, deadline=None)
@given(DEALS, st.sampled_from(SEATS), st.integers(1, 3), st.integers(0, 12), st.integers(0, 12))
def test_moving_one_card_changes_the_key(deal, seat, step, mine, theirs):
    data = data_of(GAME.play_table(deal, ("greedy",) * 4))
    key = keyed(data)
    other = SEATS[(seat + step) % 4]
    hands = data["hands"]
    hands[seat.name][mine], hands[other.name][theirs] = hands[other.name][theirs], hands[seat.name][mine]
    swapped = keyed(data)
    assert swapped is not None and swapped != key
    # the same hands in another order are the same deal
    hands[seat.name].reverse()
    assert keyed(data) == swapped


@settings(max_examples=20, deadline=None)
@given(DEALS, st.integers(1, 3))
def test_another_first_bidder_changes_the_key(deal, step):
    data = data_of(GAME.play_table(deal, ("greedy",) * 4))
    key = keyed(data)
    data["first_bidder"] = SEATS[(SEATS.index(next(s for s in SEATS if s.name == data["first_bidder"])) + step) % 4].name
    assert keyed(data) not in (None, key)


def test_a_log_without_the_whole_deal_has_no_key():
    data = data_of(GAME.play_table(1, ("greedy",) * 4))
    short = json.loads(json.dumps(data))
    short["hands"]["N"].pop()
    assert keyed(short) is None
    twice = json.loads(json.dumps(data))
    twice["hands"]["N"][0] = twice["hands"]["E"][0]  # a card dealt twice, another not at all
    assert keyed(twice) is None
    assert keyed(data) is not None


@settings(max_examples=15, deadline=None)
@given(DEALS, st.integers(0, 20))
def test_a_key_survives_the_json_round_trip(deal, table):
    log = GAME.play_table(deal, ("random", "greedy", "random", "greedy"), table, chat=True)
    again = GAME.parse(json.loads(log.canonical_json()))
    assert GAME.deal_key(again) == GAME.deal_key(log) is not None
    assert GAME.deal_scores(again.replay()) == GAME.deal_scores(log.replay())


def test_reading_the_sample_logs_never_raises():
    seen = keys = 0
    for path in sorted(SAMPLES.rglob("*")):
        if not path.is_file() or path.suffix in (".py", ".md"):
            continue
        for entry in read_path(str(path)):
            if not entry.ok or game_for_format(entry.log.format) is not GAME:
                continue
            seen += 1
            key = GAME.deal_key(entry.log)
            keys += key is not None
            assert key is None or is_key(key)
            scores = GAME.deal_scores(GAME.judge(entry.log))
            assert scores is None or set(scores) == {s.name for s in SEATS}
    assert seen >= 20 and keys >= 20


def side_pairs(replay, scores):
    """(a declarer-side seat's tricks, a defender's tricks), and each side's seats' scores."""
    roles = replay.roles()
    declarers = {scores[s] for s, r in roles.items() if r != "defender"}
    defenders = {scores[s] for s, r in roles.items() if r == "defender"}
    return declarers, defenders


@settings(max_examples=25, deadline=None)
@given(DEALS, bot_lists().map(lambda b: (b * 4)[:4]), st.integers(0, 3))
def test_side_tricks_are_each_sides_and_add_up(deal, bots, table):
    for rules in GAME.rule_presets:
        replay = GAME.play_table(deal, bots, table, rules=rules).replay()
        scores = GAME.deal_scores(replay)
        if replay.end_reason == "passed_out":
            assert scores == {s.name: 0 for s in SEATS}
            continue
        declarers, defenders = side_pairs(replay, scores)
        assert len(declarers) == len(defenders) == 1  # one number a side
        total = declarers.pop() + defenders.pop()
        assert declarers == defenders == set()
        result = replay.result
        assert scores[replay.declarer.name] == result.declarer_tricks - result.needed
        assert result.needed + result.defenders_needed == 14
        if rules == "all-tricks":  # 13 tricks against the 14 the two numbers ask for
            assert total == -1
        else:  # play stops once a side reaches its number: that side 0, the other its shortfall
            assert total + 14 == len(replay.trick_winners) <= 13
            winner = result.declarer_tricks - result.needed if result.winner == "declarer" else \
                result.defender_tricks - result.defenders_needed
            assert winner == 0 and total < 0


def test_the_declarer_alone_keeps_its_own_tricks(monkeypatch):
    """With ``self_partner``, a declarer that calls its own card plays one against three."""
    def own_card(self, game, seat):
        hand = [c for c in game.legal_partner_cards() if game.hands[seat] >> c & 1]
        return hand[0] if hand else game.legal_partner_cards()[0]

    monkeypatch.setattr(bridge_bots.GreedyBot, "partner_card", own_card)
    rules = {"preset": "all-tricks", "self_partner": True}
    for deal in range(40):
        replay = GAME.play_table(deal, ("greedy",) * 4, rules=rules).replay()
        if replay.declarer is not None and replay.partner_seat == replay.declarer:
            break
    else:
        pytest.fail("no deal where the declarer called its own card")
    scores = GAME.deal_scores(replay)
    alone = replay.declarer.name
    assert scores[alone] == replay.result.declarer_tricks - replay.result.needed
    others = [scores[s.name] for s in SEATS if s.name != alone]
    assert len(set(others)) == 1 and scores[alone] + others[0] == -1


def test_no_scores_for_a_game_cut_short_or_broken_and_zero_for_a_pass_out():
    played = [GAME.play_table(deal, ("random",) * 4, interrupt_rate=1.0) for deal in range(20)]
    cut = [log for log in played if log.end.reason in ("cancelled", "timeout")]
    assert len(cut) >= 4  # (an interruption drawn after the game's last action never happens)
    assert all(GAME.deal_scores(log.replay()) is None for log in cut)
    assert all(GAME.deal_key(log) is not None for log in cut)  # the deal is still known

    data = data_of(GAME.play_table(2, ("greedy",) * 4))
    first = SEATS[[s.name for s in SEATS].index(data["first_bidder"])]
    passes = [{"type": "bid", "seat": SEATS[(first + i) % 4].name, "bid": "pass"} for i in range(4)]
    passed = GAME.parse({**data, "events": passes, "end": {"reason": "passed_out"}}).replay()
    assert passed.end_reason == "passed_out" and GAME.deal_scores(passed) == {s.name: 0 for s in SEATS}

    broken = json.loads(json.dumps(data))
    plays = [e for e in broken["events"] if e["type"] == "play"]
    plays[0]["card"] = next(c for c in broken["hands"][SEATS[(SEATS.index(
        next(s for s in SEATS if s.name == plays[0]["seat"])) + 1) % 4].name])  # a card it does not hold
    replay = GAME.parse(broken).replay()
    assert any(f.fatal for f in replay.findings) and GAME.deal_scores(replay) is None
    assert GAME.deal_scores(GAME.parse(data).replay()) is not None


def test_play_table_names_the_deal_table_and_bots():
    log = GAME.play_table(11, ("greedy", "random", "random", "greedy"), 3, rules="all-tricks")
    assert log.game_id == "championship-floating-bridge-all-tricks-d11-t3"
    assert log.meta == {"championship": {"deal": 11, "table": 3}}
    assert [log.players[s].bot for s in SEATS] == ["greedy-1", "random-1", "random-1", "greedy-1"]
    names = [log.players[s].name for s in SEATS]
    assert len(set(names)) == 4 and all(n.startswith(b) for n, b in zip(names, ("greedy", "random", "random", "greedy")))
    assert log.replay().rules.name == "all-tricks"
    again = GAME.play_table(11, ("greedy", "random", "random", "greedy"), 3, rules="all-tricks")
    assert again.canonical_json() == log.canonical_json()  # a table is reproducible
    # the table number seeds the bots' choices: random bots play another game at another table
    plays = {tuple(e.card for e in GAME.play_table(11, ("random",) * 4, t).events if e.type == "play")
             for t in range(4)}
    assert len(plays) > 1
    with pytest.raises(ValueError):
        GAME.play_table(1, ("greedy", "random"))
    with pytest.raises(ValueError):
        GAME.play_table(1, ("greedy", "random", "greedy", "nobody"))
    assert GAME.has_deals and GAME.deal_unit == "tricks" and GAME.table_seats(("a", "b")) == 4


#: the SHA-256 of ``selfplay``'s canonical JSON on main before ``play_table`` shared its code:
#: (seed, options) -> digest
SELFPLAY = {
    (7, ()): "acec04ef12141ee11469c10cc1de9c0fedbf8a67f51d85dfd0904a9d125f14be",
    (7, (("rules", "all-tricks"),)): "049c0ff2a1d681927d66e9bdb63d1c1cdb6c9b4ffcbd8539eb95a59263f1f04f",
    (7, (("bots", ("random",)), ("interrupt_rate", 0.3), ("chat", True))):
        "f318a0dc92dfab7624c815aa8138ee4fccab24372c2b35f89da75a43444fac6b",
}


@pytest.mark.parametrize("seed, options", list(SELFPLAY))
def test_selfplay_gives_the_logs_it_always_gave(seed, options):
    log = GAME.selfplay(seed, **dict(options))
    assert hashlib.sha256(log.canonical_json().encode()).hexdigest() == SELFPLAY[seed, options]
    assert "championship" not in log.meta and log.meta["selfplay"]["seed"] == seed
