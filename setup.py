"""The parts of the build that pyproject.toml cannot say.

- Packages are found, not listed (adding a game adds packages under replay/games/ and
  viewer/games/ without editing the build), plus ``viewer.sample_logs``: the top-level
  ``sample_logs/`` folder shipped inside the wheel (``package-dir`` in pyproject.toml) so that a
  plain ``pip install .`` can fill its first archive.
- The native parts: every ``replay/games/**/_*.c`` is a C extension named by its path
  (``replay/games/floating_bridge/solver/_dds.c``, the bridge double-dummy solver, becomes
  ``replay.games.floating_bridge.solver._dds``; ``replay/games/holdem/_native.c``, hold'em's hand
  evaluator and equity loops, ``replay.games.holdem._native``), so a game adds one by adding
  the file. Each is optional: if it cannot be compiled (no C compiler or no Python headers),
  setuptools warns and the install goes on, and the game falls back to its pure-Python code
  (slower, same answers).
"""

from pathlib import Path

from setuptools import Extension, find_packages, setup

ROOT = Path(__file__).resolve().parent


def packages() -> list[str]:
    return sorted(find_packages(include=["replay*", "archive*", "viewer*"])) + ["viewer.sample_logs"]


def extensions() -> list[Extension]:
    """One optional extension per ``replay/games/**/_*.c``, named by its path."""
    sources = sorted(p.relative_to(ROOT) for p in (ROOT / "replay" / "games").glob("**/_*.c"))
    return [
        Extension(".".join(source.with_suffix("").parts), sources=[source.as_posix()], optional=True)
        for source in sources
    ]


if __name__ == "__main__":
    setup(packages=packages(), ext_modules=extensions())
