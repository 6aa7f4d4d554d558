"""The examples in the party-cards modules' docstrings run and give what they show."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "replay.games",
    "replay.games.party_cards",
    "replay.games.party_cards.cards",
    "replay.games.party_cards.log",
    "replay.games.party_cards.engine",
    "replay.games.party_cards.replay",
    "replay.games.party_cards.logger",
    "replay.games.party_cards.bots",
    "replay.games.party_cards.image",
    "replay.games.party_cards.codec",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0
