"""Party cards' duplicate deals: the key is the card order as logged (hands, first czar, first
question, score limit), the score is each seat's rounds won, every table of a deal is dealt the
same cards, and self-play is unchanged by the refactor."""

from __future__ import annotations

import copy
import hashlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay.duplicate import is_key, rotation
from replay.games.party_cards import GAME as PARTY

from .helpers import GAME as EVENTS, LOBBY, ROUND_1, log_dict, pick, round_, won_dict


def key(data):
    return PARTY.deal_key(PARTY.parse(data))


def test_the_key_is_the_card_order_as_logged():
    base = key(won_dict())
    assert is_key(base)
    assert key(log_dict(LOBBY + ROUND_1)) == base  # the play after the first question does not matter
    reordered = won_dict()
    reordered["hands"]["p1"].reverse()  # nor the order within a hand
    assert key(reordered) == base
    first = copy.deepcopy(ROUND_1)
    first[0] = round_("p2")
    assert key(log_dict(LOBBY + first)) != base  # the first czar does
    first[0] = round_("p1", qid="q9")
    assert key(log_dict(LOBBY + first)) != base  # the first question does
    assert key(won_dict(score_limit=3)) != base  # and the score limit
    assert key(log_dict(LOBBY)) is None  # no round: the first czar and question are not known


@settings(max_examples=80, deadline=None)
@given(seat=st.sampled_from(["p1", "p2", "p3", "p4"]), index=st.integers(0, 1),
       card=st.fixed_dictionaries({"id": st.sampled_from(["a1", "a3", "a40"]), "text": st.sampled_from(["Bees?", "Answer 1."])}))
def test_changing_one_dealt_card_changes_the_key(seat, index, card):
    data = won_dict()
    changed = copy.deepcopy(data)
    changed["hands"][seat][index] = card
    def cards(hand):
        return sorted((card["id"], card["text"]) for card in hand)

    same = cards(changed["hands"][seat]) == cards(data["hands"][seat])
    assert (key(changed) == key(data)) == same


def test_scores_are_rounds_won():
    replay = PARTY.judge(PARTY.parse(won_dict()))
    assert PARTY.deal_scores(replay) == {"p1": 1.0, "p2": 2.0, "p3": 0.0, "p4": 0.0}
    for deal in range(6):
        log = PARTY.play_table(deal, ["random", "greedy", "greedy", "random"])
        replay = PARTY.judge(log)
        scores = PARTY.deal_scores(replay)
        assert scores is not None and set(scores) == set(log.seats)
        assert scores[replay.winner] == log.score_limit == 3
        assert sum(scores.values()) == replay.rounds


def test_cut_short_or_fatal_games_give_no_scores():
    assert PARTY.deal_scores(PARTY.judge(PARTY.parse(log_dict(LOBBY + ROUND_1, {"reason": "cancelled"})))) is None
    logs = [PARTY.play_table(deal, ["random", "greedy", "random"], interrupt_rate=1.0) for deal in range(6)]
    cut = [PARTY.judge(log) for log in logs if PARTY.judge(log).end_reason != "completed"]
    assert len(cut) >= 3 and all(PARTY.deal_scores(replay) is None for replay in cut)
    # a pick by a seat that is not the czar: fatal, no score
    events = LOBBY + ROUND_1[:-1] + [pick("p2", 2)]
    fatal = PARTY.judge(PARTY.parse(log_dict(events, {"reason": "completed", "winner": "p2"}, score_limit=1)))
    assert not fatal.checked and PARTY.deal_scores(fatal) is None


def test_every_table_of_a_deal_gets_the_same_cards():
    bots = ["random", "greedy", "greedy"]
    tables = [PARTY.play_table(11, seated, table=t) for t, seated in enumerate(rotation(3, bots))]
    assert len({PARTY.deal_key(log) for log in tables}) == 1
    assert [log.players["p1"].bot.split("-")[0] for log in tables] == ["random", "greedy", "greedy"]
    assert [log.game_id for log in tables] == [f"party-cards-deal-11-table-{t}" for t in range(3)]
    assert tables[0].meta == {"championship": {"deal": 11, "table": 0}}
    # every seat joins; the question deck's order is the deal's: the tables ask the same questions
    for log in tables:
        assert [e.type for e in log.events[:3]] == ["join"] * 3
    asked = [[e.question.id for e in log.events if e.type == "round"] for log in tables]
    n = min(map(len, asked))
    assert all(q[:n] == asked[0][:n] for q in asked)
    assert len({PARTY.deal_key(PARTY.play_table(d, bots)) for d in range(20)}) == 20
    # the bots' choices follow the table
    picks = {tuple(e.choice for e in PARTY.play_table(3, ["random"] * 4, table=t).events if e.type == "pick")
             for t in range(4)}
    assert len(picks) > 1
    assert PARTY.table_seats(bots) == 3 and PARTY.table_seats(["random"]) == 3 and PARTY.table_seats(bots, players=6) == 6
    with pytest.raises(ValueError):
        PARTY.table_seats(bots, players=2)
    assert PARTY.play_table(1, ["random"], players=5).seats == ("p1", "p2", "p3", "p4", "p5")


def test_selfplay_is_unchanged():
    """The digest of self-play logs made before the duplicate hooks (commit 44cd9ed)."""
    h = hashlib.sha256()
    cases = [(("random",), {}), (("random", "greedy", "greedy", "random"), {"interrupt_rate": 0.3, "chat": True})]
    for seed in range(8):
        for bots, opts in cases:
            h.update(PARTY.selfplay(seed, bots=bots, **opts).canonical_json().encode())
    assert h.hexdigest() == "9efb346b462b7416d34cd524e878aaa871d8500d1e332b0951bb1b0b90f66bae"
