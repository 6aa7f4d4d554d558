"""The parts of the build that pyproject.toml cannot say.

- Packages are found, not listed (adding a game adds packages under replay/games/ and
  viewer/games/ without editing the build), plus ``viewer.sample_logs``: the top-level
  ``sample_logs/`` folder shipped inside the wheel (``package-dir`` in pyproject.toml) so that a
  plain ``pip install .`` can fill its first archive.
- The native part: the floating bridge double-dummy solver, a C extension. It is optional: if
  it cannot be compiled (no C compiler or no Python headers), setuptools warns and the install
  goes on, and the solver falls back to its pure-Python search (much slower), saying so when
  first imported.
"""

from setuptools import Extension, find_packages, setup


def packages() -> list[str]:
    return sorted(find_packages(include=["replay*", "archive*", "viewer*"])) + ["viewer.sample_logs"]


if __name__ == "__main__":
    setup(
        packages=packages(),
        ext_modules=[
            Extension(
                "replay.games.floating_bridge.solver._dds",
                sources=["replay/games/floating_bridge/solver/_dds.c"],
                optional=True,
            )
        ],
    )
