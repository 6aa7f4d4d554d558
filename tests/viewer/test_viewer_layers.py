"""Issue 25 item 6 for the viewer: its core (app, view, blueprints, services, templates and the
shell's scripts) names no game; no import inside a function; no import cycle; a blueprint
imports services, never another blueprint."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import viewer
from replay.games import names

ROOT = Path(viewer.__file__).resolve().parent
#: the game-specific folders: every registered game's board package (its own code may use its words)
GAME_FOLDERS = tuple(f"games/{name.replace('-', '_')}" for name in names())
GAME_WORDS = re.compile(r"\b(contract|declarer|tricks?|bridge|uno|coup|party|pbn|lin|double.dummy)\b", re.I)


def core_files(*suffixes: str) -> list[Path]:
    return [p for p in sorted(ROOT.rglob("*")) if p.suffix in suffixes
            and not any(p.relative_to(ROOT).as_posix().startswith(f) for f in GAME_FOLDERS)
            and "plotly" not in p.name]


def code_of(path: Path) -> str:
    """A module's code without its docstrings and comments (prose may name a game as an example)."""
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body \
                and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant):
            node.body[0].value.value = ""
    return ast.unparse(tree)


def test_core_modules_import_no_game_and_use_no_games_words():
    for path in core_files(".py"):
        code = code_of(path)
        assert "replay.games." not in code.replace("replay.games.base", ""), path
        assert not re.search(r"viewer\.games\.[a-z]", code), path
        found = GAME_WORDS.findall(re.sub(r"'[^']*'|\"[^\"]*\"", "", code))
        assert not found, (path, found)


def test_core_templates_and_shell_scripts_use_no_games_words():
    for path in core_files(".html", ".js"):
        text = re.sub(r"\{#.*?#\}|/\*.*?\*/|//[^\n]*", "", path.read_text(), flags=re.S)
        assert not GAME_WORDS.findall(text), (path, GAME_WORDS.findall(text))


def _imports(path: Path) -> tuple[list[str], list[int]]:
    tree = ast.parse(path.read_text())
    package = ".".join(("viewer", *path.relative_to(ROOT).with_suffix("").parts))
    if path.name == "__init__.py":
        package = package.rsplit(".", 1)[0] + ".__init__"
    top, nested = [], []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package.split(".")[:-node.level]
            top.append(".".join(base + ([node.module] if node.module else [])))
        elif isinstance(node, ast.ImportFrom):
            top.append(node.module or "")
        elif isinstance(node, ast.Import):
            top.extend(a.name for a in node.names)
    for fn in ast.walk(tree):
        if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            nested += [n.lineno for n in ast.walk(fn) if isinstance(n, (ast.Import, ast.ImportFrom))]
    return top, nested


def test_no_import_inside_a_function():
    for path in sorted(ROOT.rglob("*.py")):
        _, nested = _imports(path)
        assert not nested, (path, nested)


def test_blueprints_import_no_other_blueprint():
    for path in sorted((ROOT / "blueprints").glob("*.py")):
        top, _ = _imports(path)
        assert not [m for m in top if m.startswith("viewer.blueprints")], path


def test_no_import_cycle_in_the_viewer():
    modules = {}
    for path in sorted(ROOT.rglob("*.py")):
        name = ".".join(("viewer", *path.relative_to(ROOT).with_suffix("").parts)).removesuffix(".__init__")
        modules[name] = path
    graph = {}
    for name, path in modules.items():
        top, _ = _imports(path)
        targets = set()
        for m in top:
            m = m.removesuffix(".__init__")
            while m and m not in modules:
                m = m.rpartition(".")[0]
            if m and m != name:
                targets.add(m)
        graph[name] = targets
    # a cycle is a module reaching itself
    for start in graph:
        seen, stack = set(), list(graph[start])
        while stack:
            m = stack.pop()
            if m == start:
                raise AssertionError(f"import cycle through {start}")
            if m not in seen:
                seen.add(m)
                stack.extend(graph.get(m, ()))
