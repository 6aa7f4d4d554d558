"""Hold'em hands for the engine's tests: random legal hands driven by the engine, and small logs.

``random_hand(rng)`` gives a setup and a legal PHH action list (2 to 10 seats, NT or FT, random
stacks so that side pots happen, sometimes antes, straddles and dollars-and-cents amounts); at
each showdown every seat in the hand shows (``sm -`` or its cards), as pokerkit's tournament
mode wants before a runout.
"""

from __future__ import annotations

import random
from decimal import Decimal
from types import SimpleNamespace
from typing import Any

from replay.games.holdem.cards import cards_text
from replay.games.holdem.engine import HoldemState


def _money(rng: random.Random, low: Any, high: Any, cents: bool) -> Any:
    if cents:
        return Decimal(rng.randint(int(low * 100), int(high * 100))).scaleb(-2)
    return rng.randint(int(low), int(high))


def random_setup(rng: random.Random, n: int | None = None, variant: str | None = None,
                 cents: bool | None = None) -> dict[str, Any]:
    n = n if n is not None else rng.randint(2, 10)
    variant = variant or ("FT" if rng.random() < 0.3 else "NT")
    cents = cents if cents is not None else rng.random() < 0.15
    if cents:
        sb, bb = Decimal("0.05"), Decimal("0.10")
    else:
        sb, bb = rng.choice([(1, 2), (50, 100), (5, 10), (25, 50)])
    blinds = [sb, bb] + [0] * (n - 2)
    if n >= 4 and rng.random() < 0.15:
        blinds[2] = 2 * bb  # a straddle
    antes = [0] * n
    r = rng.random()
    if r < 0.2:
        antes = [bb / 5 if cents else max(1, bb // 5)] * n
    elif r < 0.3:
        antes = [0] * n
        antes[1 if n > 2 else 0] = bb  # a big blind ante
    stacks = []
    for _ in range(n):
        kind = rng.random()
        if kind < 0.08:
            stacks.append(_money(rng, bb * Decimal("0.1") if cents else 1, bb, cents))  # shorter than a blind
        elif kind < 0.5:
            stacks.append(_money(rng, bb, 20 * bb, cents))
        else:
            stacks.append(_money(rng, 20 * bb, 200 * bb, cents))
    stacks = [s if s > 0 else (Decimal("0.01") if cents else 1) for s in stacks]
    setup = {"variant": variant, "antes": antes, "blinds_or_straddles": blinds, "starting_stacks": stacks}
    if variant == "NT":
        setup["min_bet"] = bb
    else:
        setup["small_bet"], setup["big_bet"] = bb, 2 * bb
    return setup


def new_state(setup: dict[str, Any]) -> HoldemState:
    state, findings = HoldemState.from_setup(
        setup["variant"], setup["antes"], setup["blinds_or_straddles"], setup["starting_stacks"],
        min_bet=setup.get("min_bet"), small_bet=setup.get("small_bet"), big_bet=setup.get("big_bet"),
        ante_trimming=setup.get("ante_trimming_status", False))
    assert findings == [], findings
    return state


def choose(rng: random.Random, state: HoldemState, folds: float = 0.2) -> str:
    """A random legal decision of the seat to act, as notation (``folds``: how often it folds
    when facing a bet)."""
    seat = state.to_act
    legal = state.legal()
    r = rng.random()
    if legal.fold and r < folds:
        return f"{seat} f"
    if legal.min_to is not None and r > 0.6:
        low, high = legal.min_to, legal.max_to
        pick = rng.random()
        if pick < 0.4 or low == high:
            to = low
        elif pick < 0.6:
            to = high
        elif isinstance(low, Decimal) or isinstance(high, Decimal):
            to = Decimal(rng.randint(int(low * 100), int(high * 100))).scaleb(-2)
        else:
            to = rng.randint(low, high)
        return f"{seat} cbr {to}"
    return f"{seat} cc"


def random_hand(rng: random.Random, setup: dict[str, Any] | None = None, shows: bool = True,
                folds: float = 0.2) -> dict[str, Any]:
    """A setup and a legal action list, played to the end."""
    setup = setup or random_setup(rng)
    state = new_state(setup)
    deck = list(range(52))
    rng.shuffle(deck)
    actions: list[str] = []
    while True:
        if shows and (state.over or state.all_in_status) and state.active_count() > 1:
            pending = [i for i in range(state.n) if not state.folded[i] and not state.shown[i]]
            if pending:
                i = pending[0]
                text = f"{state.seats[i]} sm " + ("-" if rng.random() < 0.5 else cards_text(state.hole[i]))
                assert state.push_action(text) == [], text
                actions.append(text)
                continue
        due = state.dealer_due
        if due is not None:
            if due[0] == "dh":
                text = f"d dh {due[1]} {cards_text([deck.pop(), deck.pop()])}"
            else:
                text = "d db " + cards_text([deck.pop() for _ in range(due[1])])
        elif state.to_act is not None:
            text = choose(rng, state, folds)
        else:
            break
        found = state.push_action(text)
        assert found == [], (text, found)
        actions.append(text)
    setup = dict(setup)
    setup["actions"] = actions
    return setup


def log(setup: dict[str, Any], actions: list[str] | None = None, end: dict[str, Any] | None = None) -> Any:
    """A stand-in for the log model: the attributes the engine and the replay read."""
    actions = setup.get("actions", []) if actions is None else actions
    n = len(setup["starting_stacks"])
    events = [SimpleNamespace(type="chat", text=a[5:]) if a.startswith("chat ") else
              SimpleNamespace(type="action", action=a, t=None) for a in actions]
    end_ns = None if end is None else SimpleNamespace(reason=end.get("reason", "completed"),
                                                      finishing_stacks=end.get("finishing_stacks"),
                                                      winnings=end.get("winnings"))
    return SimpleNamespace(
        format="holdem/1", game_id="test/1", variant=setup["variant"], antes=setup["antes"],
        blinds_or_straddles=setup["blinds_or_straddles"], min_bet=setup.get("min_bet"),
        small_bet=setup.get("small_bet"), big_bet=setup.get("big_bet"),
        starting_stacks=setup["starting_stacks"], seats=tuple(f"p{i + 1}" for i in range(n)),
        players={f"p{i + 1}": SimpleNamespace(name=f"P{i + 1}") for i in range(n)},
        events=events, end=end_ns, meta={})
