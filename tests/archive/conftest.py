"""Archive test fixtures: the same tests run against SQLite and a real PostgreSQL server.

The PostgreSQL server is started once per session from Debian's binaries
(``/usr/lib/postgresql/*/bin``) in a temporary folder on a free loopback port; as root it runs
as the ``postgres`` system user. Without the binaries the PostgreSQL half skips locally and
fails in CI (``skip_or_fail``). Each test gets a database of its own.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from archive.pgserver import PostgresServer  # noqa: F401 - tests/conftest.py starts it


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def db_url(request, tmp_path):
    """A fresh, empty archive database URL: SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'archive.db'}"
        return
    server = request.getfixturevalue("postgres_server")
    name = server.create_database()
    try:
        yield server.url(name)
    finally:
        server.drop_database(name)


@pytest.fixture(autouse=True)
def _no_ambient_config(monkeypatch):
    """Tests say which database and salt they use; the environment must not leak in."""
    monkeypatch.delenv("GAME_REPLAY_DB", raising=False)
    monkeypatch.delenv("GAME_REPLAY_SALT", raising=False)


@pytest.fixture
def archive(db_url):
    from archive import Archive

    a = Archive(db_url)
    try:
        yield a
    finally:
        a.close()


def write_selfplay(directory: Path, count: int, seed: int = 0, **kwargs) -> list[Path]:
    """``count`` self-play logs saved as a bot would (one file per game)."""
    from replay.games.floating_bridge.bots import play_game

    directory.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        play_game(seed + i, out_dir=str(directory), **kwargs)
    return sorted(p for p in directory.iterdir() if p.is_file() and not p.name.startswith("."))


@pytest.fixture(scope="session")
def selfplay_2000(tmp_path_factory) -> list[Path]:
    return write_selfplay(tmp_path_factory.mktemp("selfplay2000"), 2000, seed=10_000, interrupt_rate=0.1)
