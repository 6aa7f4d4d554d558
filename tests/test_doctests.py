"""Every docstring example in ``replay``, ``archive`` and ``viewer`` runs and gives what it shows.

Modules are found by walking the packages, so a new module's examples run without being listed
here. A module that fails to import fails its test (a broken module is a bug, not a skip).
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

PACKAGES = ("replay", "archive", "viewer")
#: Modules that are not library code: run by tools, not imported (Alembic loads these itself
#: with its own context; importing them outside a migration fails by design).
NOT_IMPORTED = ("archive.migrations.env", "archive.migrations.versions.")


def module_names() -> list[str]:
    names = []
    for package in PACKAGES:
        names.append(package)
        root = importlib.import_module(package)
        for info in pkgutil.walk_packages(root.__path__, prefix=package + "."):
            if not info.name.startswith(NOT_IMPORTED):
                names.append(info.name)
    return sorted(names)


MODULES = module_names()


#: Modules whose docstrings show examples; each must keep at least one (an example that is
#: deleted or turned into plain text would otherwise pass unnoticed).
WITH_EXAMPLES = (
    "archive", "archive.compression", "archive.ids", "archive.uploads", "replay.games.floating_bridge.bots", "replay.games.floating_bridge.cards",
    "replay.codec", "replay.games.floating_bridge.codec.compact", "replay.codec.intcode", "replay.games.floating_bridge.codec.legacy",
    "replay.codec.links", "replay.games.floating_bridge.codec.measure", "replay.games.floating_bridge.engine", "replay.games.floating_bridge.formats.bridgebot_text",
    "replay.games.floating_bridge.formats.lin", "replay.games.floating_bridge.formats.pbn", "replay.games.floating_bridge.game", "replay.log", "replay.logger",
    "replay.games.floating_bridge.rules", "viewer.app", "viewer.assets", "viewer.games.floating_bridge.charts", "viewer.ratelimit",
    "viewer.view", "replay.games", "replay.games.base", "replay.games.floating_bridge", "replay.games.uno_lite",
    "replay.codec.generic", "replay.games.uno_lite.codec", "archive.filters",
    "replay.games.holdem", "replay.games.holdem.log", "replay.games.holdem.phh", "replay.games.holdem.engine",
    "replay.games.holdem.cards", "replay.games.holdem.stats", "replay.games.holdem.evaluator",
    "replay.games.holdem.equity", "replay.games.holdem.codec", "replay.games.holdem.logger",
    "archive.studies", "replay.study",
)


def test_every_package_is_walked():
    """The walk reaches every module known to hold examples (it does not stop at the top)."""
    assert set(WITH_EXAMPLES) <= set(MODULES)
    assert "viewer.blueprints.replay" in MODULES


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner()
    report: list[str] = []
    for test in finder.find(module, name):
        runner.run(test, out=report.append)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, "".join(report)
    if name in WITH_EXAMPLES:
        assert result.attempted > 0, f"{name} no longer shows any example"
