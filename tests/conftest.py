"""Shared test helpers.

``tests`` is a package (every folder has an ``__init__.py``), so import helpers with
``from tests.conftest import skip_or_fail, IN_CI, SAMPLE_LOGS``.

Browser and PostgreSQL tests may skip on a developer's machine that lacks Chromium or a
PostgreSQL server, with a clear reason; in CI (``CI=true``) the same condition fails the test.
"""

from __future__ import annotations

import glob
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLE_LOGS = ROOT / "sample_logs"
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def skip_or_fail(reason: str) -> None:
    """Skip locally; fail in CI, where every test must run."""
    if IN_CI:
        pytest.fail(f"cannot run in CI: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def postgres_server():
    """One real PostgreSQL server for the whole session (see tests/archive/conftest.py)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not found:
        skip_or_fail("PostgreSQL server binaries not found in /usr/lib/postgresql/*/bin "
                     "(apt-get install postgresql)")
    try:
        import psycopg  # noqa: F401
    except ImportError:
        skip_or_fail("psycopg is not installed (pip install 'psycopg[binary]')")
    from tests.archive.conftest import PostgresServer

    server = PostgresServer(Path(found[-1]).parent)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def sample_logs() -> Path:
    return SAMPLE_LOGS


@pytest.fixture
def cli_runner():
    """Run ``game-replay ARGS`` in-process; returns (exit_code, stdout, stderr)."""
    from click.testing import CliRunner

    def run(*args: str, input: str | bytes | None = None):
        old = sys.argv
        try:
            result = CliRunner().invoke(_entry, list(args), input=input, catch_exceptions=False)
        finally:
            sys.argv = old
        return result.exit_code, result.stdout, result.stderr

    return run


import click  # noqa: E402


@click.command(context_settings={"ignore_unknown_options": True, "allow_extra_args": True,
                                 "help_option_names": []})
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def _entry(args):
    from replay.cli import run
    from viewer.cli import cli

    sys.argv = ["game-replay", *args]
    run(cli)
