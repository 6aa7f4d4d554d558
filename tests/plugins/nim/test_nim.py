"""Nim, a fifth game from another distribution, installed through its entry point alone.

Nothing in the project names Nim: its folder (``tests/plugins/nim/``) holds its package
(``replay_nim``), its ``pyproject.toml`` and the ``*.dist-info`` folder a pip install of it
writes, whose ``entry_points.txt`` registers ``nim = replay_nim:GAME`` in the
``game_replay.games`` group. Putting the folder on ``PYTHONPATH`` installs it: no pip, no
network. Each check below runs in a subprocess with the folder on the path, so this test
session's own registry (and every other test) keeps the four built-in games.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

PLUGIN = Path(__file__).resolve().parent
ROOT = PLUGIN.parents[2]
RELATIVE = PLUGIN.relative_to(ROOT).as_posix()  # tests/plugins/nim
DIST_INFO = PLUGIN / "game_replay_nim-0.1.0.dist-info"
CHECKS = sorted(p.name for p in (PLUGIN / "checks").glob("check_*.py"))
GUIDE = ROOT / "docs" / "adding-a-game.md"


def installed_env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(PLUGIN)])
    return env


def pytest_in_subprocess(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rfE", *args],
                          capture_output=True, text=True, cwd=ROOT, env=installed_env(), timeout=900)


def python_in_subprocess(code: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                          env=env or installed_env(), timeout=300)


# -- the registration ---------------------------------------------------------------------------

def test_not_registered_without_its_folder():
    """This session runs without the plugin: the registry has only the built-in games."""
    from replay.games import names

    assert "nim" not in names()


def test_the_dist_info_is_the_pyproject_registration():
    """The committed ``*.dist-info`` says what ``pip install tests/plugins/nim`` would write."""
    project = tomllib.loads((PLUGIN / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    metadata = dict(line.split(": ", 1) for line in (DIST_INFO / "METADATA").read_text().splitlines() if ": " in line)
    assert metadata["Name"] == project["name"] and metadata["Version"] == project["version"]
    assert DIST_INFO.name == f"{project['name'].replace('-', '_')}-{project['version']}.dist-info"
    points = (DIST_INFO / "entry_points.txt").read_text().split()
    declared = project["entry-points"]["game_replay.games"]
    assert points == ["[game_replay.games]"] + [w for k, v in declared.items() for w in (k, "=", v)]


def test_installed_through_its_entry_point():
    done = python_in_subprocess(
        "import sys\n"
        "from replay.games import names, get, problems, registrations\n"
        "assert 'replay_nim' not in sys.modules\n"
        "print(names())\n"
        "reg = [r for r in registrations() if r.name == 'nim'][0]\n"
        "print(reg.target, reg.origin)\n"
        "print(get('nim').title, problems())\n")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "['floating-bridge', 'uno-lite', 'coup', 'party-cards', 'holdem', 'nim']"
    assert lines[1] == "replay_nim:GAME distribution game-replay-nim 0.1.0"
    assert lines[2] == "Nim []"


def test_its_doctests():
    done = python_in_subprocess(
        "import doctest, importlib, pkgutil, replay_nim\n"
        "names = ['replay_nim'] + [m.name for m in pkgutil.walk_packages(replay_nim.__path__, 'replay_nim.')]\n"
        "for name in names:\n"
        "    r = doctest.testmod(importlib.import_module(name))\n"
        "    assert r.attempted and not r.failed, (name, r)\n"
        "print(len(names))\n")
    assert done.returncode == 0, done.stdout + done.stderr
    assert int(done.stdout) == 7


# -- the suites, run with Nim installed ---------------------------------------------------------

def test_the_conformance_suite():
    done = pytest_in_subprocess("tests/games/test_conformance.py", "-k", "nim", "-v")
    ids = re.findall(r"test_conformance\.py::(\w+\[nim\]) (PASSED|FAILED|ERROR)", done.stdout)
    assert ids, "no conformance test ran for nim:\n" + done.stdout[-3000:] + done.stderr[-2000:]
    failed = [name for name, status in ids if status != "PASSED"]
    assert not failed and done.returncode == 0, f"failed for nim: {failed}\n" + done.stdout[-6000:]
    collected = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--collect-only", "-q",
                                "tests/games/test_conformance.py"], capture_output=True, text=True, cwd=ROOT,
                               env=installed_env(), timeout=300).stdout
    every = {line.split("::")[1].split("[")[0] for line in collected.splitlines() if "::" in line}
    assert {name.split("[")[0] for name, _ in ids} == every  # every conformance test has a nim case


@pytest.mark.parametrize("check", CHECKS)
def test_with_nim_installed(check):
    """``checks/<check>`` (the CLI, the archive, the logger, the viewer, the API)."""
    done = pytest_in_subprocess("-q", f"{RELATIVE}/checks/{check}")
    assert done.returncode == 0, done.stdout[-8000:] + done.stderr[-2000:]


# -- no edit outside its folder -----------------------------------------------------------------

#: the one file outside the folder allowed to name Nim: the guide that walks through it
GUIDE_ONLY = {"docs/adding-a-game.md"}
NAMES = re.compile(r"\bnim\b|replay_nim|game-replay-nim|game_replay_nim", re.IGNORECASE)


def test_nothing_outside_its_folder_names_it():
    """The folder is self-contained: no tracked file outside it (code, config, tests, samples)
    names the game, its package or its distribution, so a `git diff --stat` of adding it
    touches only its folder (and the guide that points at it)."""
    files = subprocess.run(["git", "ls-files", "-z"], capture_output=True, cwd=ROOT, check=True).stdout
    offenders = []
    for name in files.decode().split("\0"):
        if not name or name.startswith(RELATIVE + "/") or name in GUIDE_ONLY:
            continue
        path = ROOT / name
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
            continue  # binary (images, compressed logs) or removed in the work tree
        for number, line in enumerate(text.splitlines(), 1):
            if NAMES.search(line):
                offenders.append(f"{name}:{number}: {line.strip()[:120]}")
    assert not offenders, "outside tests/plugins/nim/ these name Nim:\n" + "\n".join(offenders)


# -- the guide is true --------------------------------------------------------------------------

def test_every_file_the_guide_names_exists():
    text = GUIDE.read_text(encoding="utf-8")
    named = set(re.findall(r"`(tests/plugins/nim/[\w./-]+)`", text))
    assert len(named) >= 8, named
    missing = sorted(n for n in named if not (ROOT / n.rstrip("/")).exists())
    assert not missing, f"docs/adding-a-game.md names files Nim does not have: {missing}"


def test_the_guide_shows_the_real_registration():
    text = GUIDE.read_text(encoding="utf-8")
    pyproject = (PLUGIN / "pyproject.toml").read_text(encoding="utf-8")
    block = re.search(r'\[project\.entry-points\."game_replay\.games"\]\n(.+?)\n', pyproject).group(0)
    assert block in text
    entry_points = (DIST_INFO / "entry_points.txt").read_text(encoding="utf-8")
    assert entry_points.strip() in text


def test_the_guide_names_every_hook_nim_sets():
    """Every hook Nim's ``GAME`` sets is named in the guide (as ``name``)."""
    text = GUIDE.read_text(encoding="utf-8")
    source = (PLUGIN / "replay_nim" / "__init__.py").read_text(encoding="utf-8")
    hooks = set(re.findall(r"^    (\w+): ClassVar", source, re.M)) | set(re.findall(r"^    def (\w+)\(", source, re.M))
    missing = sorted(h for h in hooks if f"`{h}" not in text)
    assert not missing, f"docs/adding-a-game.md does not name these hooks of Nim's GAME: {missing}"


def test_the_guide_commands_are_the_checked_ones():
    """Each ``game-replay`` command the guide shows for Nim is one a check runs."""
    text = GUIDE.read_text(encoding="utf-8")
    checks = "".join((PLUGIN / "checks" / c).read_text(encoding="utf-8") for c in CHECKS)
    shown = re.findall(r"^\$ game-replay ((?:archive )?\w+)", text, re.M)
    assert len(shown) >= 6, shown
    for command in shown:
        words = command.split()
        assert all(f'"{w}"' in checks for w in words), f"the guide shows `game-replay {command}`, no check runs it"
