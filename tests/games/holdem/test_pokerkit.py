"""The engine against pokerkit (the PHH reference): >= 2,000 random legal hands (2 to 10 seats, NT
and FT, random stacks so side pots happen, antes, straddles, dollars and cents) replayed by both,
action by action, with the same seat to act, the same legal call and bet range, and the same
pots, pot winners and finishing stacks; and every PHH file under ``sample_logs/holdem/``."""

from __future__ import annotations

import glob
import os
import random
import warnings
from decimal import Decimal
from typing import Any

import pytest

from pokerkit import Automation, FixedLimitTexasHoldem, Mode, NoLimitTexasHoldem
from pokerkit.notation import parse_action as pk_parse_action

from replay.games.holdem.engine import HoldemState, split

from .helpers import new_state, random_hand, random_setup

HANDS = 2000
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
AUTOMATIONS = (Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
               Automation.CARD_BURNING, Automation.RUNOUT_COUNT_SELECTION, Automation.CHIPS_PULLING)


def _value(text: str) -> Any:
    return int(text) if text.isdigit() else Decimal(text)


def pk_state(setup: dict[str, Any], mode: Mode = Mode.TOURNAMENT, trimming: bool = False):
    amounts = [*setup["antes"], *setup["blinds_or_straddles"], *setup["starting_stacks"],
               *(setup.get(k) for k in ("min_bet", "small_bet", "big_bet") if setup.get(k) is not None)]
    exponent = min((v.as_tuple().exponent for v in amounts if isinstance(v, Decimal)), default=0)
    divide = (lambda amount, ways: split(amount, ways, exponent))  # our odd-cent rule, given to pokerkit too
    n = len(setup["starting_stacks"])
    if setup["variant"] == "NT":
        return NoLimitTexasHoldem.create_state(
            AUTOMATIONS, trimming, setup["antes"], setup["blinds_or_straddles"], setup["min_bet"],
            setup["starting_stacks"], n, mode=mode, divmod=divide)
    return FixedLimitTexasHoldem.create_state(
        AUTOMATIONS, trimming, setup["antes"], setup["blinds_or_straddles"], setup["small_bet"],
        setup["big_bet"], setup["starting_stacks"], n, mode=mode, divmod=divide)


def cross_check(setup: dict[str, Any], mode: Mode = Mode.TOURNAMENT, ours: HoldemState | None = None,
                trimming: bool = False) -> None:
    """Replay ``setup["actions"]`` on both engines and compare everything along the way."""
    ours = ours or new_state(setup)
    theirs = pk_state(setup, mode, trimming)
    for text in setup["actions"]:
        while theirs.can_burn_card():
            theirs.burn_card("??")
        actor = theirs.actor_index
        assert ours.to_act == (None if actor is None else ours.seats[actor]), (text, ours.to_act, actor)
        if actor is not None:
            legal = ours.legal()
            assert legal.call == theirs.checking_or_calling_amount, text
            assert legal.min_to == theirs.min_completion_betting_or_raising_to_amount, (text, legal)
            assert legal.max_to == theirs.max_completion_betting_or_raising_to_amount, (text, legal)
        found = ours.push_action(text)
        assert not [f for f in found if f.fatal], (text, found)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            pk_parse_action(theirs, text, _value)
        if not ours.over:
            assert list(ours.stacks) == list(theirs.stacks), text
    while theirs.can_burn_card():
        theirs.burn_card("??")
    assert ours.over
    # pots as pokerkit forms them, before it kills the losing hands and pushes the chips
    pots = [(p.amount, p.player_indices) for p in theirs.pots]
    if ours.active_count() > 1:  # (when all but one fold, pokerkit leaves the winner's bet out of its pots)
        assert [(a, s) for a, s in ours._pots()] == pots
    while theirs.can_kill_hand():
        theirs.kill_hand()
    won = [0] * ours.n  # what pokerkit pushes to each seat from the pots (its pots are re-formed
    while theirs.can_push_chips():  # after hand killing, so they are compared as totals)
        op = theirs.push_chips()
        won = [w + a for w, a in zip(won, op.amounts)]
    while theirs.can_pull_chips():
        theirs.pull_chips()
    assert not theirs.status
    settlement = ours.settle()
    assert settlement.settled
    assert settlement.stacks == list(theirs.stacks)
    assert sum(settlement.stacks) == sum(setup["starting_stacks"])
    # a folded-to winner keeps its matched bet in pokerkit's bets; ours counts it as winnings
    assert settlement.winners == [ours.seats[i] for i in range(ours.n) if won[i] or ours.active_count() == 1
                                  and not ours.folded[i]]
    if ours.active_count() > 1:
        assert settlement.winnings == won
    assert sum(settlement.winnings) == ours.pot_total()


def test_random_hands_agree_with_pokerkit():
    rng = random.Random(2026)
    kinds = {"NT": 0, "FT": 0, "side_pots": 0, "split": 0, "cents": 0, "heads_up": 0, "ten": 0}
    for _ in range(HANDS):
        hand = random_hand(rng, folds=0.4)  # (pokerkit's showdowns are slow: fewer many-way ones)
        cross_check(hand)
        state = new_state(hand)
        for a in hand["actions"]:
            state.push_action(a)
        s = state.settle()
        kinds[hand["variant"]] += 1
        kinds["side_pots"] += len(s.pots) > 1
        kinds["split"] += any(len(p.winners) > 1 for p in s.pots)
        kinds["cents"] += isinstance(hand["starting_stacks"][0], Decimal)
        kinds["heads_up"] += len(hand["starting_stacks"]) == 2
        kinds["ten"] += len(hand["starting_stacks"]) == 10
    # the generator does reach what it is meant to test
    assert all(v >= 50 for v in kinds.values()), kinds


def sample_files() -> list[str]:
    return sorted(glob.glob(os.path.join(ROOT, "sample_logs", "holdem", "*.phh"))
                  + glob.glob(os.path.join(ROOT, "sample_logs", "holdem", "*.phhs")))


@pytest.mark.parametrize("path", sample_files() or [pytest.param(None, marks=pytest.mark.skip("no PHH samples yet"))])
def test_sample_phh_files_agree_with_pokerkit(path):
    """Every hand of every PHH sample: pokerkit's own reader against ours (finishing stacks)."""
    from pokerkit import HandHistory
    from replay.games.holdem import phh  # the log helper's reader

    with open(path, "rb") as f:
        data = f.read()
    if path.endswith(".phhs"):
        histories = list(HandHistory.loads_all(data.decode()))
        logs = [part.log for part in phh.read_games(data.decode(), path) if part.log is not None]
    else:
        histories = [HandHistory.loads(data.decode())]
        logs = [phh.read(data.decode(), path)]
    assert len(histories) == len(logs)
    from replay.games.holdem.engine import judge
    for history, log in zip(histories, logs):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            states = list(history)
        final = states[-1]
        state, findings, settlement = judge(log)
        if [f for f in findings if f.fatal]:
            # a hand we stop on must be one pokerkit complains about too (it only warns, e.g.
            # about a card dealt twice)
            assert caught, (path, findings)
            continue
        unknown = any(c is None for h in state.hole if h for c in h)
        if settlement.settled and not unknown:
            assert settlement.stacks == list(final.stacks), path


def test_trimmed_antes_agree_with_pokerkit():
    """PHH's ``ante_trimming_status = true``: an ante above the second largest goes back, and
    antes count as each seat's contribution (not dead money)."""
    rng = random.Random(7)
    checked = 0
    while checked < 100:
        setup = random_setup(rng)
        if not any(setup["antes"]):
            continue
        setup["ante_trimming_status"] = True
        cross_check(random_hand(rng, setup, folds=0.4), trimming=True)
        checked += 1
