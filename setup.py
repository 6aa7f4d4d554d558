"""The parts of the build that pyproject.toml cannot say.

Packages are found, not listed (adding a game adds packages under replay/games/ and
viewer/games/ without editing the build), plus ``viewer.sample_logs``: the top-level
``sample_logs/`` folder shipped inside the wheel (``package-dir`` in pyproject.toml) so that
a plain ``pip install .`` can fill its first archive.
"""

from setuptools import find_packages, setup


def packages() -> list[str]:
    return sorted(find_packages(include=["replay*", "archive*", "viewer*"])) + ["viewer.sample_logs"]


if __name__ == "__main__":
    setup(packages=packages())
