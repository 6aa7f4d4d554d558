"""Coup's duplicate deals: the key is the deck as dealt (also read from a CoupBots Root log when
its deck is known), the championship score is zero-sum, every table of a deal is dealt the same
cards, and self-play is unchanged by the refactor."""

from __future__ import annotations

import copy
import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay.duplicate import is_key, rotation
from replay.games.coup import GAME, root_log
from replay.log import read_logs
from tests.conftest import SAMPLE_LOGS

from .helpers import act, log_dict

ROOT_SAMPLE = SAMPLE_LOGS / "coup" / "root" / "refusal-and-kick.log"
CARDS = ["D", "A", "B", "C", "E"]


def key(data):
    return GAME.deal_key(GAME.parse(data))


def root(lines: list[str]):
    [entry] = read_logs("\n".join(lines).encode(), "root.log")
    assert entry.error is None, entry.error
    return entry.log


DEAL = ["Sent to player 1: DECK|D|C", "Sent to player 2: DECK|E|E", "Sent to player 3: DECK|A|B"]


def test_the_key_is_the_deck_as_dealt():
    base = key(log_dict([]))
    assert is_key(base)
    reordered = log_dict([act("1", "I")])
    reordered["hands"]["1"] = ["C", "D"]  # the order within a hand does not matter, nor the play
    assert key(reordered) == base
    assert key(log_dict([], first_player="2")) != base
    players = log_dict([])["players"]
    assert key(log_dict([], players={s: players[s] for s in ("2", "1", "3")})) != base  # another seat order


@settings(max_examples=80, deadline=None)
@given(seat=st.sampled_from(["1", "2", "3"]), index=st.integers(0, 1), card=st.sampled_from(CARDS))
def test_changing_one_dealt_card_changes_the_key(seat, index, card):
    data = log_dict([])
    changed = copy.deepcopy(data)
    changed["hands"][seat][index] = card
    same = sorted(changed["hands"][seat]) == sorted(data["hands"][seat])
    assert (key(changed) == key(data)) == same


def test_root_logs_of_one_deal_share_the_key_of_the_coup_log():
    [entry] = read_logs(ROOT_SAMPLE.read_bytes(), str(ROOT_SAMPLE))
    sample = entry.log
    # another game of the same deal, played otherwise (1 takes income, 2 foreign aid, 3 tax),
    # from a Root log with loguru's prefix
    other = root(["2026-11-24 10:00:00.000 | INFO | x - Player 1: HELLO", *DEAL,
                  "Sent to ALL players: COINS|1|2", "Sent to ALL players: TURN|1", "Player 1: ACT|1|I",
                  "Sent to ALL players: TURN|2", "Player 2: ACT|2|F", "Player 1: OK", "Player 3: OK",
                  "Sent to ALL players: TURN|3", "Player 3: ACT|3|T"])
    assert [e.type for e in other.events if e.type != "coins"] != [e.type for e in sample.events if e.type != "coins"]
    assert GAME.deal_key(sample) == GAME.deal_key(other) == key(log_dict([]))
    # a Root log of another deal does not share it
    changed = root(["Sent to player 1: DECK|D|D", *DEAL[1:], "Sent to ALL players: TURN|1", "Player 1: ACT|1|I"])
    assert GAME.deal_key(changed) not in (None, GAME.deal_key(sample))


@pytest.mark.parametrize("lines, unknown", [
    # the log starts after play began: the first DECK player 1 got is not its deal
    (["Sent to ALL players: TURN|2", "Player 2: ACT|2|I", *DEAL, "Sent to ALL players: TURN|3"], {"hands": ["1", "2", "3"]}),
    (["Sent to player 2: DECK|E|E", "Sent to ALL players: TURN|2", "Player 2: ACT|2|I", "Sent to player 1: DECK|D|C",
      "Sent to player 3: DECK|A|B", "Sent to ALL players: TURN|3"], {"hands": ["1", "3"]}),
    # no TURN: who moves first is not known
    (DEAL, {"first_player": True}),
])
def test_a_root_log_without_its_deal_has_no_key(lines, unknown):
    log = root(lines)
    assert log.meta["deal_unknown"] == unknown
    assert GAME.deal_key(log) is None
    assert GAME.deal_key(GAME.parse(log.to_json_dict())) is None  # the mark survives the round trip


def test_a_hand_not_of_two_cards_has_no_key():
    data = log_dict([])
    data["hands"]["3"] = ["A"]
    assert key(data) is None


def test_scores_are_zero_sum():
    seen = set()
    for deal in range(10):
        for n in (2, 3, 5):
            log = GAME.play_table(deal, ["honest", "bluffer", "random"], players=n)
            replay = GAME.judge(log)
            scores = GAME.deal_scores(replay)
            assert scores is not None and set(scores) == set(log.seat_order)
            assert abs(sum(scores.values())) < 1e-9
            assert scores[replay.winner] == 1.0
            assert all(v == pytest.approx(-1 / (n - 1)) for s, v in scores.items() if s != replay.winner)
            seen.add(replay.winner)
    assert len(seen) > 1


def test_cut_short_or_fatal_games_give_no_scores():
    logs = [GAME.selfplay(seed, bots=("honest", "bluffer", "random"), interrupt_rate=1.0) for seed in range(8)]
    logs += [GAME.play_table(deal, ["honest", "bluffer"], interrupt_rate=1.0) for deal in range(8)]
    cut = [GAME.judge(log) for log in logs if GAME.judge(log).end_reason != "completed"]
    assert len(cut) >= 4 and all(r.winner is None for r in cut)
    assert all(GAME.deal_scores(replay) is None for replay in cut)
    # 2 acts out of turn: fatal, no score
    fatal = GAME.judge(GAME.parse(log_dict([act("2", "I")], end={"reason": "completed", "winner": "2"})))
    assert not fatal.checked and GAME.deal_scores(fatal) is None


def test_every_table_of_a_deal_gets_the_same_cards():
    bots = ["honest", "bluffer", "random"]
    tables = [GAME.play_table(9, seated, table=t) for t, seated in enumerate(rotation(3, bots))]
    assert len({GAME.deal_key(log) for log in tables}) == 1
    assert [log.players["1"].bot for log in tables] == ["honest-1", "bluffer-1", "random-1"]
    assert [log.game_id for log in tables] == [f"coup-deal-9-table-{t}" for t in range(3)]
    assert tables[2].meta == {"championship": {"deal": 9, "table": 2}}
    assert len({GAME.deal_key(GAME.play_table(d, bots)) for d in range(30)}) == 30
    # the bots' own choices follow the table
    moves = {tuple((e.type, getattr(e, "action", None)) for e in GAME.play_table(2, ["random"] * 3, table=t).events)
             for t in range(4)}
    assert len(moves) > 1
    assert GAME.table_seats(bots) == 3 and GAME.table_seats(bots, players=5) == 5
    assert GAME.table_seats(["honest"]) == 2 and GAME.table_seats(["honest"] * 8) == 6
    with pytest.raises(ValueError):
        GAME.table_seats(bots, players=7)
    assert GAME.play_table(1, bots, players=5).seat_order == ("1", "2", "3", "4", "5")


def test_selfplay_is_unchanged():
    """The digest of self-play logs made before the duplicate hooks (commit 44cd9ed)."""
    h = hashlib.sha256()
    cases = [(("honest", "bluffer"), {}),
             (("honest", "bluffer", "random"), {"players": 5, "interrupt_rate": 0.3, "chat": True})]
    for seed in range(8):
        for bots, opts in cases:
            h.update(GAME.selfplay(seed, bots=bots, **opts).canonical_json().encode())
    assert h.hexdigest() == "45fbdc4f8889e3af3e93afeee606cc96e4d3a6f39df1eb2e65a61c49b35139b1"
