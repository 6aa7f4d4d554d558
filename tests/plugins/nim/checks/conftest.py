"""Fixtures of the checks that run with Nim installed (its folder on ``sys.path``, so its
``*.dist-info`` registers it): ``tests/plugins/nim/test_nim.py`` runs each ``check_*.py`` here in
a subprocess with ``PYTHONPATH`` holding the project and the plugin's folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

PLUGIN = Path(__file__).resolve().parents[1]
ROOT = PLUGIN.parents[2]
SAMPLES = PLUGIN / "sample_logs"
CLEAN = sorted(SAMPLES.glob("selfplay-*.json"))
BROKEN = SAMPLES / "broken-take-after-end.json"


@pytest.fixture(scope="session", autouse=True)
def nim_is_installed():
    """Nim is registered through its entry point, not by any edit of the project."""
    from replay.games import names, problems

    assert "nim" in names(), ("Nim is not registered: run these checks through tests/plugins/nim/test_nim.py "
                              f"(its folder on PYTHONPATH); problems: {problems()}")
    assert problems() == []


@pytest.fixture
def cli():
    """``game-replay ARGS...`` in a subprocess: (exit code, stdout, stderr)."""

    def run(*args: str, stdin: str | None = None) -> tuple[int, str, str]:
        done = subprocess.run([sys.executable, "-m", "viewer.cli", *args], capture_output=True, text=True,
                              cwd=ROOT, env=dict(os.environ), input=stdin, timeout=300)
        return done.returncode, done.stdout, done.stderr

    return run


@pytest.fixture
def logs():
    """The clean sample logs, read: {path: log}."""
    from replay.log import read_path

    return {path: read_path(str(path))[0].log for path in CLEAN}


def expected_winners() -> dict[str, str]:
    """game_id -> winner of each clean sample (from the logs' own end objects)."""
    return {json.loads(p.read_text())["game_id"]: json.loads(p.read_text())["end"]["winner"] for p in CLEAN}
