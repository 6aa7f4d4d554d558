"""Imports point one way, and the core names no game: the guard of issue 25 (items 2 and 6).

Read from the source of the whole tree: ``replay/``, ``archive/``, ``viewer/`` and ``bench/``
(a bench may loop over the registry, so it is core too), every ``import`` statement counted,
those inside functions included (they run too, later). Four rules:

1. **No import cycle**, imports inside functions included. ``from package import name`` is an
   edge to ``package.name`` when that is a module, else to ``package`` (even from inside that
   package: ``from . import GAME`` in a game's module runs the package's ``__init__``, which
   imports that module back). ``if TYPE_CHECKING:`` imports never run and make no edge.
2. **An import inside a function is for an optional dependency only**: a third-party module
   that ``pyproject.toml``'s ``dependencies`` does not require. The registry loads games with
   ``importlib`` (no import statement), so it needs no exception.
3. **A core module imports no game**: nothing outside a registered game's own folders
   (``replay/games/<game>/``, its board package, ``viewer/games/<game>/`` by default, and its
   benches, ``bench/<game package's name>/``) imports them; the registry finds games through
   entry points.
4. **A core module uses no game's words.** The words are built from what each registered game
   declares (its name, title, package, facts, roles, exports, chapter, end reasons, finding
   kinds, seats: a list of two or more of one game's seats, or a seat name longer than a
   letter), less what two games share (a shared word is the neutral vocabulary: ``P1``,
   ``completed``, ``winner``), less a few plain English words listed in ``NEUTRAL``, plus the
   words of each game's rules listed in ``RULE_WORDS``. A Python module is read as tokens:
   identifiers (split at ``_`` and camelCase) and string literals count, **comments and
   docstrings do not** (they may explain a hook by a game's example, ``bridge: declarer``,
   without the code depending on it), except a click command's docstring: it is its
   ``--help``, which users read. Templates, scripts and styles of the core viewer count
   too, without their comments: they are what users read ("Replay a floating bridge game").

The registry itself (``replay/games/__init__.py``) and the archive's migrations (a migration
states the schema as it was, bridge columns included) are exempt from rules 3 and 4.
"""

from __future__ import annotations

import ast
import io
import re
import subprocess
import sys
import tokenize
import tomllib
from functools import lru_cache
from pathlib import Path

import pytest

from replay.games import get, names, registrations

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("replay", "archive", "viewer", "bench")
EXEMPT = ("replay/games/__init__.py", "archive/migrations/")
TEXT_SUFFIXES = (".html", ".js", ".css")
#: third-party files served as they are (plotly's bundle): not ours to word
VENDORED = (".min.js",)


# -- the tree ---------------------------------------------------------------------------------

def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@lru_cache(maxsize=None)
def all_modules() -> dict[str, Path]:
    return {module_name(p): p for package in PACKAGES for p in sorted((ROOT / package).rglob("*.py"))}


@lru_cache(maxsize=None)
def game_folders() -> tuple[str, ...]:
    """Every registered game's folders, as path prefixes: its package, its board package and its
    benches (``bench/<the package's last name>/``: a bench of that game alone, such as bridge's
    double-dummy solver beside DDS)."""
    folders = []
    for reg in registrations():
        game = get(reg.name)
        package = reg.target.partition(":")[0]
        board = game.board or "viewer.games." + reg.name.replace("-", "_")
        benches = "bench." + package.rpartition(".")[2]
        for dotted in (package, board, benches):
            folder = ROOT.joinpath(*dotted.split("."))
            if folder.is_dir():
                folders.append(folder.relative_to(ROOT).as_posix() + "/")
    return tuple(folders)


def is_game_file(relative: str) -> bool:
    return relative.startswith(game_folders())


def relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


# -- imports ----------------------------------------------------------------------------------

class Import:
    """One import statement's target: where it is, whether inside a function, and whether it
    ever runs (``if TYPE_CHECKING:`` imports do not)."""

    def __init__(self, target: str, line: int, nested: bool, runs: bool):
        self.target, self.line, self.nested, self.runs = target, line, nested, runs


@lru_cache(maxsize=None)
def imports(name: str) -> tuple[Import, ...]:
    path = all_modules()[name]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    modules = all_modules()
    found: list[Import] = []

    def visit(node: ast.AST, nested: bool, runs: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inner, live = nested, runs
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                inner = True
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                live = False
            if isinstance(child, ast.Import):
                found.extend(Import(a.name, child.lineno, nested, runs) for a in child.names)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".")
                    base = base[:len(base) - child.level + 1]
                    target = ".".join(base + ([child.module] if child.module else []))
                else:
                    target = child.module or ""
                submodules = [f"{target}.{a.name}" for a in child.names if f"{target}.{a.name}" in modules]
                found.extend(Import(m, child.lineno, nested, runs) for m in submodules)
                if len(submodules) < len(child.names):  # a name defined in the module itself
                    found.append(Import(target, child.lineno, nested, runs))
            visit(child, inner, live)

    visit(tree, False, True)
    return tuple(found)


def ours(target: str) -> bool:
    return target.split(".")[0] in PACKAGES


def owning_module(target: str) -> str | None:
    """The module of ours an import target names (``replay.games.base.Fact`` -> ``replay.games.base``)."""
    modules = all_modules()
    while target and target not in modules:
        target = target.rpartition(".")[0]
    return target or None


@lru_cache(maxsize=None)
def graph() -> dict[str, dict[str, int]]:
    """module -> {module it imports: the line of the first such import}, imports that run only."""
    out: dict[str, dict[str, int]] = {}
    for name in all_modules():
        edges: dict[str, int] = {}
        for imp in imports(name):
            target = owning_module(imp.target) if ours(imp.target) and imp.runs else None
            if target and target != name:
                edges.setdefault(target, imp.line)
        out[name] = edges
    return out


def cycles() -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    edges = graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    counter = [0]
    sys.setrecursionlimit(max(10_000, sys.getrecursionlimit()))

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return sorted(found)


def one_cycle(component: list[str]) -> str:
    """A shortest cycle through the component's first module, each edge with its file:line."""
    edges = graph()
    members = set(component)
    start = component[0]
    paths = {start: [start]}
    queue = [start]
    while queue:
        v = queue.pop(0)
        for w in sorted(edges[v]):
            if w == start:
                path = paths[v] + [start]
                return " -> ".join(f"{a} ({relative(all_modules()[a])}:{edges[a][b]})"
                                   for a, b in zip(path, path[1:])) + f" -> {start}"
            if w in members and w not in paths:
                paths[w] = paths[v] + [w]
                queue.append(w)
    return " -> ".join(component)  # pragma: no cover - a component always has a cycle


# -- rule 1: no cycle -------------------------------------------------------------------------

def test_the_scan_sees_imports_inside_functions_and_relative_ones():
    modules = all_modules()
    assert {"replay.games.base", "archive", "viewer.app", "bench.engine"} <= set(modules)
    targets = {(i.target, i.nested) for i in imports("replay.logger")}
    assert ("replay.errors", False) in targets  # from .errors import ReplayError
    database = {(i.target, i.nested) for i in imports("archive.database")}
    assert ("psycopg", True) in database  # the optional PostgreSQL driver, imported where COPY needs it


def test_no_import_cycle():
    found = cycles()
    assert not found, (f"{len(found)} import cycles (imports inside functions count); one cycle of each:\n"
                       + "\n".join(f"- {len(c)} modules: {one_cycle(c)}" for c in found))


# -- rule 2: imports inside functions -----------------------------------------------------------

def required_dependencies() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    import_names = {"sqlalchemy": "sqlalchemy", "pyyaml": "yaml"}
    out = set()
    for spec in project["dependencies"]:
        name = re.match(r"[A-Za-z0-9_.-]+", spec).group(0).lower().replace("-", "_")
        out.add(import_names.get(name, name))
    return out


def test_imports_inside_functions_are_for_optional_dependencies_only():
    required = required_dependencies()
    stdlib = set(sys.stdlib_module_names)
    bad = []
    for name, path in all_modules().items():
        for imp in imports(name):
            if not imp.nested:
                continue
            top = imp.target.split(".")[0]
            if ours(imp.target):
                why = "our own module"
            elif top in stdlib:
                why = "the standard library"
            elif top.lower() in required:
                why = "a required dependency"
            else:
                continue  # an optional dependency: imported where it is needed
            bad.append(f"{relative(path)}:{imp.line}: {imp.target} ({why})")
    assert not bad, (f"{len(bad)} imports inside functions that are not of an optional dependency "
                     "(move them to the top of the module, or break the cycle they hide):\n" + "\n".join(sorted(set(bad))))


# -- rule 3: the core imports no game -----------------------------------------------------------

def core_files(suffixes: tuple[str, ...] = (".py",)) -> list[Path]:
    files = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*")):
            rel = relative(path)
            if (path.suffix in suffixes and path.is_file() and not is_game_file(rel) and not rel.startswith(EXEMPT)
                    and not path.name.endswith(VENDORED)):
                files.append(path)
    return files


def test_the_game_folders_are_known():
    folders = game_folders()
    assert "replay/games/floating_bridge/" in folders and "viewer/games/uno_lite/" in folders
    assert "bench/floating_bridge/" in folders  # a game's own benches
    assert not is_game_file("replay/games/base.py") and not is_game_file("viewer/games/__init__.py")
    assert not is_game_file("bench/engine.py")


def test_the_core_imports_no_game():
    game_modules = {module_name(ROOT / f.rstrip("/") / "__init__.py") for f in game_folders()}
    bad = []
    for path in core_files():
        name = module_name(path)
        for imp in imports(name):
            hit = next((g for g in game_modules if imp.target == g or imp.target.startswith(g + ".")), None)
            if hit:
                where = "inside a function" if imp.nested else "at module level"
                bad.append(f"{relative(path)}:{imp.line}: imports {imp.target} ({where})")
    assert not bad, (f"{len(bad)} imports of a game's package by the core (ask replay.games.get(name) and "
                     "the game's declared hooks instead):\n" + "\n".join(bad))


# -- rule 4: the core uses no game's words -------------------------------------------------------

#: Plain words some game declares that the core may use in their plain sense.
NEUTRAL = frozenset({
    "result", "results", "rules", "cards", "card", "game", "games", "lite", "floating", "turns", "turn", "step",
    "steps", "winner", "seat", "seats", "player", "players", "round", "rounds", "hand", "hands", "pass",
    "action", "actions", "text", "json", "all", "title", "abandoned", "hold", "variant",
})

#: The words of each game's rules that its declarations do not spell out.
RULE_WORDS = {
    "floating-bridge": ("bridge", "contract", "declarer", "defender", "defenders", "partner", "trick", "tricks",
                        "trump", "trumps", "auction", "bid", "bids", "bidding", "revoke", "dummy", "double-dummy",
                        "pbn", "lin", "hcp", "bridgebot", "no-trump", "notrump", "passed out"),
    "uno-lite": ("uno", "starter", "reshuffle", "reshuffled"),
    "coup": ("coup", "influence", "assassinate", "assassin", "ambassador", "duke", "contessa", "captain",
             "exchange", "coins", "coin", "foreign aid"),  # not "challenge": HTTP auth challenges
    "party-cards": ("party cards", "party-cards", "party_cards", "czar", "prompt card", "black card",
                    "white card", "white cards"),
    "holdem": ("poker", "hold'em", "phh", "phhs", "pokerkit", "flop", "big blind", "small blind", "blinds",
               "side pot", "side pots", "vpip", "pfr", "all-in", "preflop"),
}


def split_words(text: str) -> list[str]:
    """``partner_seat`` -> partner, seat; ``contractLevel`` -> contract, level; lower case."""
    text = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", text)
    return [w.lower() for w in re.findall(r"[A-Za-z]+", text)]


def declared_words(name: str) -> set[str]:
    """The game's words: its name, title and package word by word; its facts, roles, exports,
    chapter, end reasons and finding kinds as whole phrases (``partner_seat``, ``passed_out``:
    their parts alone are plain words); and its ``RULE_WORDS``."""
    game = get(name)
    package = next(r.target for r in registrations() if r.name == name).partition(":")[0].split(".")[-1]
    words: set[str] = set()
    for phrase in (game.name, game.title, package):
        words.update(split_words(phrase))
    phrases = [game.counted_role or "", game.chapter, *(f.name for f in game.facts), *game.roles,
               *(e.name for e in game.exports), *game.end_reasons, *game.finding_kinds]
    words.update(" ".join(split_words(p)) for p in phrases if p)
    words.update(RULE_WORDS.get(name, ()))
    return words


@lru_cache(maxsize=None)
def vocabulary() -> dict[str, str]:
    """word or phrase -> the one game it belongs to (words of two games are neutral)."""
    owners: dict[str, set[str]] = {}
    for name in names():
        for word in declared_words(name):
            owners.setdefault(word, set()).add(name)
    return {w: next(iter(g)) for w, g in owners.items() if len(g) == 1 and w not in NEUTRAL and len(w) > 2}


@lru_cache(maxsize=None)
def seat_literals() -> dict[str, str]:
    """A seat name only one game has (bridge's ``N``, ``E``, ``S``, ``W``) -> that game."""
    owners: dict[str, set[str]] = {}
    for name in names():
        for seat in (s for s in get(name).seats if s.isalpha()):
            owners.setdefault(seat, set()).add(name)
    return {s: next(iter(g)) for s, g in owners.items() if len(g) == 1}


def python_words(path: Path) -> list[tuple[int, str, str]]:
    """(line, kind, text) of every identifier and string literal but docstrings; no comments."""
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    docstrings = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
                re.search(r"\b(command|group)\b", ast.unparse(d)) for d in node.decorator_list):
            continue  # a click command's docstring is its --help text: users read it
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                docstrings.add(first.lineno)
    out = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.NAME:
            out.append((token.start[0], "name", token.string))
        elif token.type == tokenize.STRING and token.start[0] not in docstrings:
            out.append((token.start[0], "string", token.string))
        elif token.type == getattr(tokenize, "FSTRING_MIDDLE", -1):
            out.append((token.start[0], "string", token.string))
    return out


COMMENTS = re.compile(r"\{#.*?#\}|<!--.*?-->|/\*.*?\*/|(?<![:\"'\\])//[^\n]*", re.S)


def text_words(path: Path) -> list[tuple[int, str, str]]:
    """(line, "text", line's text) of a template, script or style sheet without its comments."""
    source = path.read_text(encoding="utf-8")
    stripped = COMMENTS.sub(lambda m: "\n" * m.group(0).count("\n"), source)
    return [(number, "text", line) for number, line in enumerate(stripped.splitlines(), 1)]


def game_words_in(items: list[tuple[int, str, str]]) -> list[tuple[int, str, str]]:
    """(line, word, game) of each game word or seat literal found."""
    vocab = vocabulary()
    single = {w: g for w, g in vocab.items() if re.fullmatch(r"[a-z]+", w)}
    # a phrase's words may be joined by a space, _ or - (passed_out, "passed out", double-dummy)
    phrases = [(re.compile(r"\b" + r"[\s_-]".join(map(re.escape, split_words(w))) + r"\b", re.I), w, g)
               for w, g in vocab.items() if w not in single]
    seats = seat_literals()
    hits = []
    for line, kind, text in items:
        for word in split_words(text):
            if word in single:
                hits.append((line, word, single[word]))
        for pattern, word, game in phrases:
            if pattern.search(text):
                hits.append((line, word, game))
        if kind == "string":
            try:
                value = ast.literal_eval(text)
            except (ValueError, SyntaxError):
                value = None
            if isinstance(value, str) and len(value) > 1 and value in seats:
                hits.append((line, repr(value), seats[value]))
    return hits


def seat_lists_in(path: Path) -> list[tuple[int, str, str]]:
    """(line, seats, game) of each tuple, list, set or dict (keys) literal holding two or more
    seats of one game: a one-letter seat alone (``metavar="N"``) is no sign, a list of them is."""
    seats = seat_literals()
    hits = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            items = node.elts
        elif isinstance(node, ast.Dict):
            items = [k for k in node.keys if k is not None]
        else:
            continue
        found = [i.value for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str) and i.value in seats]
        games = {seats[v] for v in found}
        if len(found) >= 2 and len(games) == 1:
            hits.append((node.lineno, "seats " + ",".join(found), games.pop()))
    return hits


def test_the_vocabulary_is_the_games_own():
    vocab = vocabulary()
    assert vocab["declarer"] == "floating-bridge" and vocab["contract"] == "floating-bridge"
    assert vocab["uno"] == "uno-lite" and vocab["coup"] == "coup"
    assert "completed" not in vocab and "winner" not in vocab  # shared or plain words are neutral
    assert seat_literals().get("N") == "floating-bridge"
    found = game_words_in([(1, "name", "declarer_seat"), (2, "string", '"N"'), (3, "name", "result"),
                           (4, "text", "Replay a floating bridge game")])
    assert [(line, word) for line, word, _ in found] == [(1, "declarer"), (4, "bridge")]


def test_seat_lists_are_found(tmp_path):
    source = tmp_path / "m.py"
    source.write_text('SEATS = ("N", "E", "S", "W")\nhelp = dict(metavar="N")\nodd = {"N": 1, "P1": 2}\n')
    assert seat_lists_in(source) == [(1, "seats N,E,S,W", "floating-bridge")]


#: the one table that names old homes on purpose: the names bots imported from ``replay`` before
#: games were plugins, kept importable with a DeprecationWarning (``_MOVED``, module paths as text)
DEPRECATED_NAMES = ("replay/__init__.py",)


def test_the_core_uses_no_game_words():
    bad = []
    for path in core_files((".py",) + TEXT_SUFFIXES):
        if relative(path) in DEPRECATED_NAMES:
            assert "_MOVED" in path.read_text(encoding="utf-8"), f"{relative(path)} is no longer the deprecated-names shim"
            continue
        items = python_words(path) if path.suffix == ".py" else text_words(path)
        hits = game_words_in(items) + (seat_lists_in(path) if path.suffix == ".py" else [])
        for line, word, game in sorted(hits):
            bad.append(f"{relative(path)}:{line}: {word} ({game})")
    files = sorted({b.split(":")[0] for b in bad})
    assert not bad, (f"{len(bad)} uses of a game's words in {len(files)} core files (go through the game's "
                     "declared hooks):\n" + "\n".join(bad))


# -- floating bridge's data models stay below its engine ------------------------------------------

BRIDGE = "replay.games.floating_bridge"
#: its data models import nothing of the package above them at module level
MODELS = {f"{BRIDGE}.cards": set(), f"{BRIDGE}.rules": {f"{BRIDGE}.cards"},
          f"{BRIDGE}.log": {f"{BRIDGE}.cards", f"{BRIDGE}.rules"}}


def test_bridge_data_models_do_not_reach_upward():
    for name, allowed in MODELS.items():
        reached = {owning_module(i.target) for i in imports(name) if not i.nested and i.runs
                   and i.target.startswith(BRIDGE + ".")}
        assert reached <= allowed, f"{name} imports {sorted(reached - allowed)} at module level"


# -- the modules still import alone -------------------------------------------------------------

def test_each_core_module_of_replay_imports_alone():
    """An import cycle at module level breaks importing one of its modules first."""
    chosen = [n for n, p in all_modules().items()
              if n.split(".")[0] == "replay" and not is_game_file(relative(p))]
    script = ("import subprocess, sys\n"
              "bad = []\n"
              "for name in sys.argv[1:]:\n"
              "    r = subprocess.run([sys.executable, '-c', f'import {name}'], capture_output=True, text=True)\n"
              "    if r.returncode: bad.append(name + ': ' + r.stderr.strip().splitlines()[-1])\n"
              "print('\\n'.join(bad))\n")
    done = subprocess.run([sys.executable, "-c", script, *chosen], capture_output=True, text=True, cwd=ROOT,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "", "modules that do not import alone:\n" + done.stdout
