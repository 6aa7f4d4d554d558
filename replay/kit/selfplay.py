"""One self-play loop over the engine's legal moves: a game played from a setup by choosing,
at each point, one of ``GAME.legal_events(state)`` (each legal action, and for an action with
a chance outcome one event per outcome that can happen).

A game needs only its setup and a way to choose: the rules, the order of the options and the
events come from the game's own hooks (``start``, ``legal_events``, ``finish``), so a bot that
chooses among legal moves plays any game, and every game it plays is legal by construction.

>>> import random
>>> from replay.games import get, names
>>> game = get(names()[0])
>>> log = play_legal(game, game.selfplay(seed=2), random.Random(2))
>>> game.judge(log).findings
[]
"""

from __future__ import annotations

import random
from typing import Any, Callable, Sequence

from ..games.base import GameModule, State

#: chooses the next event among the legal ones (default: uniformly at random)
Chooser = Callable[[State, Sequence[Any], random.Random], Any]

#: a bound that keeps a game whose rules never end it (reshuffles...) finite
MAX_ACTIONS = 10_000


def random_choice(state: State, options: Sequence[Any], rng: random.Random) -> Any:
    """Any legal event, uniformly."""
    return options[rng.randrange(len(options))]


def play_legal(game: GameModule, setup: Any, rng: random.Random, choose: Chooser = random_choice,
               max_actions: int = MAX_ACTIONS) -> Any:
    """A log of ``game`` with ``setup``'s setup (a log of the game: its events and end are
    replaced) and events chosen by ``choose`` among the legal ones until the game is over,
    no event is legal, or ``max_actions`` were played. The log ends ``completed`` when the
    game is over, else it has no ``end`` (abandoned)."""
    data = setup.to_json_dict()
    data.pop("end", None)
    data["events"] = []
    log = game.parse(data, "selfplay")
    state, findings = game.start(log)
    if findings:
        raise ValueError(f"the setup breaks the rules: {findings[0].message}")
    events = []
    for index in range(max_actions):
        if state.over:
            break
        options = game.legal_events(state)
        if not options:
            break
        event = choose(state, options, rng)
        events.append(event.model_dump(mode="json", exclude_none=True))
        state.push(event, index)
    data["events"] = events
    if state.over and not game.finish(state):
        data["end"] = {"reason": "completed"}
    return game.parse(data, "selfplay")
