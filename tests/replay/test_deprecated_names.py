"""``replay`` re-exports no game's names; the names earlier releases exported from it still
import, each with a ``DeprecationWarning`` that names its new module."""

from __future__ import annotations

import importlib
import subprocess
import sys
import warnings

import pytest

import replay

OLD_NAMES = ["Call", "Card", "Finding", "Game", "GameLog", "GameReplay", "PRESETS", "Result", "Rules",
             "RulesError", "Seat", "Step", "Strain", "Suit"]


def test_the_package_exports_only_game_neutral_names():
    assert set(replay.__all__) == {"GameLogger", "LogEntry", "LogFormatError", "ReplayError", "parse_log",
                                   "read_logs", "read_path", "save_log"}
    assert not set(OLD_NAMES) & set(vars(replay))


def test_importing_replay_imports_no_game():
    code = ("import sys, replay, replay.log, replay.logger, replay.codec; "
            "print(sorted(m for m in sys.modules if m.startswith('replay.games.') and m != 'replay.games.base'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("name", OLD_NAMES)
def test_an_old_name_still_imports_with_a_warning_naming_its_module(name):
    with pytest.warns(DeprecationWarning, match=rf"replay\.{name} is deprecated: import it from replay\.games\.") as got:
        value = getattr(replay, name)
    module = str(got[0].message).split("import it from ")[1].split(" ")[0]
    assert getattr(importlib.import_module(module), name) is value


def test_from_replay_import_old_names_warns():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        from replay import Card, GameReplay  # noqa: F401
    assert caught and all(w.category is DeprecationWarning for w in caught)
    assert {str(w.message).split()[0] for w in caught} == {"replay.Card", "replay.GameReplay"}


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        replay.Nope  # noqa: B018
