"""Imports point one way: the neutral core reaches games only through the registry, the
bridge package's data models do not reach upward, and no module-level import cycle exists.

Read from the source (the ``import`` statements), so a lazy import inside a function counts for
the neutral-core rule (it is still a dependency), while only module-level imports make cycles.
Each module is also imported alone in a fresh interpreter, which an import cycle breaks.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "replay"
GAMES = "replay.games."
#: the game-neutral core: may reach a game only through ``replay.games.get`` and friends
NEUTRAL = [m for m in (
    "replay.errors", "replay.envelope", "replay.log", "replay.logger", "replay.cli",
    "replay.codec", "replay.codec.errors", "replay.codec.intcode", "replay.codec.links",
    "replay.codec.generic", "replay.codec.commands", "replay.games", "replay.games.base",
)]
#: floating bridge's data models: nothing above them (engine, replay, codec, logger) at module level
BRIDGE = "replay.games.floating_bridge"
MODELS = {f"{BRIDGE}.cards": set(), f"{BRIDGE}.rules": {f"{BRIDGE}.cards"},
          f"{BRIDGE}.log": {f"{BRIDGE}.cards", f"{BRIDGE}.rules"}}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def all_modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports(name: str, path: Path, top_level_only: bool) -> set[str]:
    """The modules of ours a module imports (``from X import y`` counts X, and X.y when that
    is a module); with ``top_level_only``, not those inside functions or TYPE_CHECKING blocks."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    modules = all_modules()
    found: set[str] = set()

    def visit(node: ast.AST, nested: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner = nested or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                inner = True
            if isinstance(child, ast.Import) and not (top_level_only and nested):
                found.update(a.name for a in child.names if a.name.split(".")[0] == "replay")
            elif isinstance(child, ast.ImportFrom) and not (top_level_only and nested):
                if child.level:
                    base = package.split(".")
                    base = base[:len(base) - child.level + 1]
                    target = ".".join(base + ([child.module] if child.module else []))
                else:
                    target = child.module or ""
                if target.split(".")[0] != "replay":
                    continue
                found.add(target)
                for a in child.names:
                    if f"{target}.{a.name}" in modules:
                        found.add(f"{target}.{a.name}")
            visit(child, inner)

    visit(tree, False)
    return found


def test_the_scan_sees_imports():
    edges = imports(f"{BRIDGE}.codec.compact", all_modules()[f"{BRIDGE}.codec.compact"], True)
    assert f"{BRIDGE}.engine" in edges and "replay.codec.intcode" in edges


@pytest.mark.parametrize("name", NEUTRAL)
def test_neutral_core_imports_no_game(name):
    path = all_modules()[name]
    reached = sorted(m for m in imports(name, path, top_level_only=False)
                     if m.startswith(GAMES) and m != "replay.games.base")
    assert not reached, f"{name} imports a game's modules ({', '.join(reached)}); ask the registry instead"


def test_bridge_data_models_do_not_reach_upward():
    modules = all_modules()
    for name, allowed in MODELS.items():
        ours = {m for m in imports(name, modules[name], top_level_only=True) if m.startswith(BRIDGE)}
        assert ours <= allowed, f"{name} imports {sorted(ours - allowed)} at module level"


def test_no_module_level_import_cycle():
    modules = all_modules()
    graph = {name: {m for m in imports(name, path, True) if m in modules and m != name}
             for name, path in modules.items()}
    # a package's __init__ is run by importing any of its modules: not an edge back to the
    # package from its own modules' point of view, so leave out edges to one's own ancestors
    for name in graph:
        graph[name] = {m for m in graph[name] if not name.startswith(m + ".")}
    state: dict[str, int] = {}
    stack: list[str] = []

    def walk(node: str) -> None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycle = stack[stack.index(nxt):] + [nxt]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if nxt not in state:
                walk(nxt)
        stack.pop()
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            walk(name)


def test_each_module_imports_alone():
    # the neutral core and floating bridge's package (the other games' own tests import theirs)
    names = [n for n in all_modules() if n in NEUTRAL or n == "replay" or n.startswith(BRIDGE)]
    script = ("import importlib, subprocess, sys\n"
              "bad = []\n"
              "for name in sys.argv[1:]:\n"
              "    r = subprocess.run([sys.executable, '-c', f'import {name}'], capture_output=True, text=True)\n"
              "    if r.returncode: bad.append(name + ': ' + r.stderr.strip().splitlines()[-1])\n"
              "print('\\n'.join(bad))\n")
    done = subprocess.run([sys.executable, "-c", script, *names], capture_output=True, text=True, cwd=ROOT,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "", "modules that do not import alone:\n" + done.stdout
