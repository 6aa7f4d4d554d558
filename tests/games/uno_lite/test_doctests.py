"""The examples in the UNO Lite modules' docstrings run and give what they show."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "replay.games.uno_lite",
    "replay.games.uno_lite.cards",
    "replay.games.uno_lite.log",
    "replay.games.uno_lite.engine",
    "replay.games.uno_lite.replay",
    "replay.games.uno_lite.logger",
    "replay.games.uno_lite.bots",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0
