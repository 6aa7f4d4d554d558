"""UNO Lite's duplicate deals: the key is the deal as logged, the pip count is zero-sum, every
table of a deal is dealt the same cards, and self-play is unchanged by the refactor."""

from __future__ import annotations

import copy
import hashlib

from hypothesis import given, settings
from hypothesis import strategies as st

from replay.duplicate import is_key, rotation
from replay.games.uno_lite import GAME
from replay.games.uno_lite.cards import CARD_TEXT, KINDS, NUMBER_OF

from .helpers import P1_HAND, P2_HAND, log_dict, play

ALL_CARDS = [CARD_TEXT[k] for k in range(KINDS)]


def key(data):
    return GAME.deal_key(GAME.parse(data))


def test_the_key_is_the_deal_as_logged():
    base = key(log_dict([]))
    assert is_key(base)
    # the order a hand was dealt in and the play after the deal do not matter
    shuffled = log_dict([play("P1", "R5")])
    shuffled["hands"]["P1"] = list(reversed(P1_HAND))
    assert key(shuffled) == base
    # the first player and the starter do
    assert key(log_dict([], first_player="P2")) != base
    assert key(log_dict([], starter="R8")) != base
    # swapping the two hands is another deal (P1 is dealt the other cards)
    swapped = log_dict([])
    swapped["hands"] = {"P1": list(P2_HAND), "P2": list(P1_HAND)}
    assert key(swapped) != base


@settings(max_examples=80, deadline=None)
@given(seat=st.sampled_from(["P1", "P2"]), index=st.integers(0, 6), card=st.sampled_from(ALL_CARDS))
def test_changing_one_dealt_card_changes_the_key(seat, index, card):
    data = log_dict([])
    changed = copy.deepcopy(data)
    changed["hands"][seat][index] = card
    same = sorted(changed["hands"][seat]) == sorted(data["hands"][seat])
    assert (key(changed) == key(data)) == same


def test_scores_are_the_pips_zero_sum():
    for deal in range(12):
        log = GAME.play_table(deal, ["greedy", "random"])
        replay = GAME.judge(log)
        scores = GAME.deal_scores(replay)
        assert scores is not None and sum(scores.values()) == 0.0
        loser = "P2" if replay.winner == "P1" else "P1"
        left = sum(NUMBER_OF[c] for c in replay.steps[-1].hands[GAME.seats.index(loser)])
        assert scores[replay.winner] == left > 0 and scores[loser] == -left


def test_cut_short_or_fatal_games_give_no_scores():
    logs = [GAME.selfplay(seed, interrupt_rate=1.0) for seed in range(8)]
    logs += [GAME.play_table(deal, ["greedy", "random"], interrupt_rate=1.0) for deal in range(8)]
    cut = [GAME.judge(log) for log in logs if GAME.judge(log).end_reason != "completed"]
    assert len(cut) >= 4 and all(r.end_reason in ("cancelled", "timeout") and r.winner is None for r in cut)
    assert all(GAME.deal_scores(replay) is None for replay in cut)
    # P1 plays a card it does not hold: fatal, so no score even though the log says who won
    fatal = GAME.judge(GAME.parse(log_dict([play("P1", "Y1")], end={"reason": "completed", "winner": "P1"})))
    assert not fatal.checked and GAME.deal_scores(fatal) is None


def test_every_table_of_a_deal_gets_the_same_cards():
    tables = [GAME.play_table(4, bots, table=t) for t, bots in enumerate(rotation(2, ["greedy", "random"]))]
    assert len({GAME.deal_key(log) for log in tables}) == 1
    assert [log.players["P1"].bot for log in tables] == ["greedy-1", "random-1"]
    assert [log.game_id for log in tables] == ["uno-lite-deal-4-table-0", "uno-lite-deal-4-table-1"]
    assert tables[1].meta == {"championship": {"deal": 4, "table": 1}}
    # the draw pile is the deal's too: until a reshuffle, the tables draw the same cards in order
    for deal in range(10):
        a, b = (GAME.play_table(deal, bots, table=t) for t, bots in enumerate([("random", "random")] * 2))
        if GAME.judge(a).reshuffles or GAME.judge(b).reshuffles:
            continue
        drawn_a = [e.card for e in a.events if e.type == "draw"]
        drawn_b = [e.card for e in b.events if e.type == "draw"]
        n = min(len(drawn_a), len(drawn_b))
        assert drawn_a[:n] == drawn_b[:n]
    # the bots' own choices follow the table: two tables of random bots play differently
    plays = {tuple((e.type, getattr(e, "card", None)) for e in GAME.play_table(2, ["random", "random"], table=t).events)
             for t in range(4)}
    assert len(plays) > 1
    assert GAME.table_seats(["greedy"]) == GAME.table_seats(["greedy", "random", "random"]) == 2


def test_selfplay_is_unchanged():
    """The digest of self-play logs made before the duplicate hooks (commit 44cd9ed)."""
    h = hashlib.sha256()
    for seed in range(8):
        for bots, opts in [(("greedy", "random"), {}), (("random", "greedy"), {"interrupt_rate": 0.3, "chat": True})]:
            h.update(GAME.selfplay(seed, bots=bots, **opts).canonical_json().encode())
    assert h.hexdigest() == "c3d348e5124164dd408599dd98aee29e38284e60ef92b6eab111a44c523a17cf"
