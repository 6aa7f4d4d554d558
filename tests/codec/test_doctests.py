"""The examples in the codec's and exporters' docstrings run."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["replay.codec", "replay.codec.intcode", "replay.codec.compact", "replay.codec.legacy",
           "replay.codec.links", "replay.codec.measure", "replay.formats.pbn", "replay.formats.lin"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0
    assert result.attempted > 0
