"""The registry finds games through the ``game_replay.games`` entry-point group.

Each case builds a plugin in a temporary folder (its package and the ``*.dist-info`` a pip
install writes) and runs Python with that folder on ``PYTHONPATH``: the real discovery through
``importlib.metadata``, no pip and no network. A broken plugin is left out with a warning that
names its entry point, and the built-in games keep working.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import pytest

from replay.games import BUILTIN, GROUP, names

ROOT = Path(__file__).resolve().parents[2]
BUILTIN_NAMES = ["floating-bridge", "uno-lite", "coup", "party-cards", "holdem"]

GOOD = '''
from replay.games.base import GameModule

class Toy(GameModule):
    name, title, major = "{name}", "Toy", 1

GAME = Toy()
'''


def plugin(folder: Path, dist: str, points: dict[str, str], modules: dict[str, str]) -> Path:
    """A distribution ``dist`` in ``folder``: its modules and its dist-info with ``points``."""
    info = folder / f"{dist.replace('-', '_')}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {dist}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[{GROUP}]\n" + "".join(f"{k} = {v}\n" for k, v in points.items()))
    for name, source in modules.items():
        (folder / f"{name}.py").write_text(textwrap.dedent(source))
    return folder


def run(folder: Path, code: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(folder)]), PYTHONWARNINGS="default")
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, cwd=ROOT,
                          env=env, timeout=300)


REPORT = """
import sys, warnings
from replay.games import names, get, problems, GamePluginWarning
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    listed = names()
print(listed)
print([str(w.message) for w in caught if issubclass(w.category, GamePluginWarning)])
print(get("uno-lite").judge(get("uno-lite").selfplay(1, bots=("greedy", "greedy"))).findings)
"""


def test_pyproject_registers_the_built_in_games_as_the_fallback_list_says():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["entry-points"][GROUP] == BUILTIN
    assert list(BUILTIN) == BUILTIN_NAMES


def test_a_checkout_without_plugins_has_the_built_in_games_in_order():
    assert names()[:len(BUILTIN_NAMES)] == BUILTIN_NAMES


def test_built_in_packages_are_imported_on_first_use(tmp_path):
    done = run(tmp_path, """
        import sys
        from replay.games import names, get
        names()
        print(sorted(m for m in sys.modules if m.startswith("replay.games.") and m != "replay.games.base"))
        get("coup")
        print("replay.games.coup" in sys.modules, "replay.games.uno_lite" in sys.modules)
    """)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["[]", "True False"]


def test_a_plugin_comes_after_the_built_in_games_by_name(tmp_path):
    plugin(tmp_path, "zz-games", {"zeta": "zeta_game:GAME", "alpha": "alpha_game:GAME"},
           {"zeta_game": GOOD.format(name="zeta"), "alpha_game": GOOD.format(name="alpha")})
    done = run(tmp_path, REPORT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [str(BUILTIN_NAMES + ["alpha", "zeta"]), "[]", "[]"]


def test_the_same_built_in_registration_seen_through_metadata_is_no_clash(tmp_path):
    """An installed game-replay lists the built-in games as entry points too: the same targets."""
    plugin(tmp_path, "game-replay-copy", dict(BUILTIN), {})
    done = run(tmp_path, REPORT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [str(BUILTIN_NAMES), "[]", "[]"]


@pytest.mark.parametrize("case, points, modules, why", [
    ("import error", {"broken": "broken_game:GAME"}, {"broken_game": "import no_such_module\n"},
     "its module does not import (ModuleNotFoundError: No module named 'no_such_module')"),
    ("missing module", {"ghost": "ghost_game:GAME"}, {},
     "its module does not import (ModuleNotFoundError: No module named 'ghost_game')"),
    ("no GAME", {"empty": "empty_game:GAME"}, {"empty_game": "X = 1\n"}, "module empty_game defines no GAME"),
    ("not a GameModule", {"plain": "plain_game:GAME"}, {"plain_game": "GAME = object()\n"},
     "plain_game:GAME is a object, not a replay.games.base.GameModule"),
    ("name clash by entry point", {"coup": "fake_coup:GAME"}, {"fake_coup": GOOD.format(name="coup")},
     "'coup' is a built-in game's name"),
    ("name clash by GAME.name", {"other": "other_game:GAME"}, {"other_game": GOOD.format(name="uno-lite")},
     "the game it gives is named 'uno-lite' (a built-in game's name), not 'other'"),
])
def test_a_broken_plugin_is_left_out_with_a_warning_naming_its_entry_point(tmp_path, case, points, modules, why):
    plugin(tmp_path, "broken-games", points, modules)
    done = run(tmp_path, REPORT)
    assert done.returncode == 0, done.stderr
    listed, warned, findings = done.stdout.splitlines()
    assert listed == str(BUILTIN_NAMES)  # the built-in games, untouched
    assert findings == "[]"
    (name, target), = points.items()
    assert f"entry point {name} = '{target}' (distribution broken-games 1.0)" in warned, warned
    assert why in warned, warned


def test_get_of_a_broken_plugin_says_why(tmp_path):
    plugin(tmp_path, "broken-games", {"empty": "empty_game:GAME"}, {"empty_game": "X = 1\n"})
    done = run(tmp_path, """
        import warnings
        warnings.simplefilter("ignore")
        from replay.games import get, GamePluginError, UnknownGameError
        try:
            get("empty")
        except GamePluginError as exc:
            print(isinstance(exc, UnknownGameError), exc)
    """)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ("True game plugin left out: entry point empty = 'empty_game:GAME' "
                                   "(distribution broken-games 1.0): module empty_game defines no GAME")


def test_a_plugin_is_a_known_format(tmp_path):
    plugin(tmp_path, "toy-games", {"toy": "toy_game:GAME"}, {"toy_game": GOOD.format(name="toy")})
    done = run(tmp_path, """
        from replay.games import formats, game_for_format
        print(formats()[-1], game_for_format("toy/1").title)
    """)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "toy/1 Toy"
