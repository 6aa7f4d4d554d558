"""Archive test fixtures: the same tests run against SQLite and a real PostgreSQL server.

The PostgreSQL server is started once per session from Debian's binaries
(``/usr/lib/postgresql/*/bin``) in a temporary folder on a free loopback port; as root it runs
as the ``postgres`` system user. Without the binaries the PostgreSQL half skips locally and
fails in CI (``skip_or_fail``). Each test gets a database of its own.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path

import pytest

from tests.conftest import skip_or_fail


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PostgresServer:
    def __init__(self, bindir: Path):
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="game-replay-pg-"))
        self.data = self.root / "data"
        self.port = _free_port()
        self.as_root = os.geteuid() == 0
        self.prefix: list[str] = []
        if self.as_root:
            runuser = shutil.which("runuser")
            if runuser is None:
                skip_or_fail("running as root but runuser is missing: cannot start PostgreSQL as postgres")
            self.prefix = [runuser, "-u", "postgres", "--"]
            shutil.chown(self.root, "postgres", "postgres")
        os.chmod(self.root, 0o700)

    def _run(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([*self.prefix, *args], capture_output=True, text=True, timeout=120)

    def start(self) -> None:
        out = self._run(str(self.bindir / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres",
                        "-E", "UTF8", "--no-sync", "--locale=C")
        if out.returncode != 0:
            raise RuntimeError(f"initdb failed: {out.stderr or out.stdout}")
        options = (f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off "
                   "-c synchronous_commit=off -c full_page_writes=off -c max_connections=50")
        out = self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-o", options,
                        "-l", str(self.root / "server.log"), "-w", "-t", "60", "start")
        if out.returncode != 0:
            log = (self.root / "server.log").read_text(errors="replace") if (self.root / "server.log").exists() else ""
            raise RuntimeError(f"pg_ctl start failed: {out.stderr or out.stdout}\n{log}")

    def stop(self) -> None:
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self) -> str:
        import psycopg

        name = "t_" + uuid.uuid4().hex[:12]
        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres",
                             autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return name

    def drop_database(self, name: str) -> None:
        import psycopg

        with psycopg.connect(f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres",
                             autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


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
    from replay.bots import play_game

    directory.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        play_game(seed + i, out_dir=str(directory), **kwargs)
    return sorted(p for p in directory.iterdir() if p.is_file() and not p.name.startswith("."))


@pytest.fixture(scope="session")
def selfplay_2000(tmp_path_factory) -> list[Path]:
    return write_selfplay(tmp_path_factory.mktemp("selfplay2000"), 2000, seed=10_000, interrupt_rate=0.1)
