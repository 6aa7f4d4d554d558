"""The duplicate-deal conformance suite: what every registered game with deals must do, through
the registry alone (``GameModule.has_deals``: a game without deals is left out, never by name).

- every table of ``rotation(table_seats(bots), bots)`` for one deal number has the same deal key,
  and two deal numbers never share one unless they dealt the same as logged (a property test over
  deal numbers: a small game such as two-seat Coup has few deals, so deal numbers can meet);
- ``deal_scores`` gives a finite number for every seat of each finished table;
- the key survives the log's JSON round trip;
- ``deal_key`` of every bundled sample log (``sample_logs``) is a key or None, never an error.
"""

from __future__ import annotations

import json
import math
import numbers
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay.duplicate import is_key, rotation
from replay.games import get, names
from replay.log import read_path

GAMES = [name for name in names() if get(name).has_deals]
#: the end reasons of a table that did not finish (no score is due)
CUT_SHORT = frozenset(("cancelled", "timeout", "abandoned", "not_enough_players"))
DEALS = st.integers(min_value=0, max_value=2**31 - 1)


def table_bots(game) -> list[str]:
    """Up to three of the game's bots, in registry order."""
    return list(game.bots)[:3]


#: the envelope's fields: what is not the deal (``setup`` leaves them out)
ENVELOPE = frozenset(("format", "game_id", "started_at", "players", "events", "end", "meta"))


def _unordered(value):
    """``value`` with every list sorted (a hand's order is not the deal's)."""
    if isinstance(value, dict):
        return {k: _unordered(v) for k, v in value.items()}
    if isinstance(value, list):
        return sorted((_unordered(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
    return value


def setup(log) -> str:
    """What a log says was dealt, game-neutrally: its JSON without the envelope's fields, lists
    taken as sets."""
    data = json.loads(log.canonical_json())
    return json.dumps(_unordered({k: v for k, v in data.items() if k not in ENVELOPE}), sort_keys=True)


def first_table(game) -> tuple[str, ...]:
    """The bots of a deal's first table, seat by seat."""
    bots = table_bots(game)
    return rotation(game.table_seats(bots), bots)[0]


def deal_tables(game, deal: int) -> list:
    """Every table of ``deal``: each bot in each seat."""
    bots = table_bots(game)
    seats = game.table_seats(bots)
    return [game.play_table(deal, seated, table=t) for t, seated in enumerate(rotation(seats, bots))]


def test_the_games_with_deals_say_how_they_score():
    for name in names():
        game = get(name)
        if game.has_deals:
            assert isinstance(game.deal_unit, str) and game.deal_unit, name


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deal=DEALS, other=DEALS)
def test_the_tables_of_a_deal_share_its_key_and_other_deals_never_do(name, deal, other):
    game = get(name)
    tables = deal_tables(game, deal)
    keys = {game.deal_key(log) for log in tables}
    assert len(keys) == 1
    [key] = keys
    assert key is not None and is_key(key)
    for log in tables:
        # the key is the log's, not the object's: it survives the JSON round trip
        assert game.deal_key(game.parse(json.loads(log.canonical_json()))) == key
        replay = game.judge(log)
        scores = game.deal_scores(replay)
        if scores is None:
            assert replay.end_reason in CUT_SHORT, (log.game_id, replay.end_reason)
            continue
        assert set(scores) == set(game.seat_order(log)), log.game_id
        # a number (an int is a float to the type hints: PEP 484), finite, for every seat
        assert all(isinstance(v, numbers.Real) and not isinstance(v, bool) and math.isfinite(v)
                   for v in scores.values()), scores
    if other != deal:
        first, second = tables[0], game.play_table(other, first_table(game))
        assert (game.deal_key(second) == key) <= (setup(second) == setup(first))


@pytest.mark.parametrize("name", GAMES)
def test_consecutive_deals_are_told_apart_and_mostly_scored(name):
    game = get(name)
    logs = [game.play_table(deal, first_table(game)) for deal in range(12)]
    keys = {game.deal_key(log) for log in logs}
    # the key tells apart at least what the logs' setups do (more where the deal is in the events)
    assert len(keys) >= len({setup(log) for log in logs}) and len(keys) >= 6
    scored = [game.deal_scores(game.judge(log)) for log in logs]
    assert sum(s is not None for s in scored) >= 9


@pytest.mark.parametrize("name", [n for n in GAMES if get(n).sample_logs is not None])
def test_deal_key_of_every_sample_log_never_raises(name):
    """(A game whose samples are not in a folder of its own reads them in its own deal tests.)"""
    game = get(name)
    folder = game.sample_logs
    files = [p for p in sorted(Path(folder).rglob("*")) if p.is_file() and p.suffix != ".py"]
    read = 0
    for path in files:
        for entry in read_path(str(path)):
            if entry.log is None or not str(getattr(entry.log, "format", "")).startswith(f"{game.name}/"):
                continue
            key = game.deal_key(entry.log)
            assert key is None or is_key(key), (entry.source, key)
            read += 1
    assert read, f"no sample log of {name} read from {folder}"
