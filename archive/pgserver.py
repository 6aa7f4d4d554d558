"""A throwaway PostgreSQL server from Debian's binaries, for the tests and ``bench/archive.py``.

Started in a temporary folder on a free loopback port (as root it runs as the ``postgres``
system user), with durability off (``fsync=off``): for tests and benchmarks only, never for data.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from pathlib import Path


class PostgresUnavailable(RuntimeError):
    """The server binaries, ``runuser`` or psycopg are missing."""


def find_bindir() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(found[-1]).parent if found else None


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
                raise PostgresUnavailable("running as root but runuser is missing: cannot start PostgreSQL "
                                          "as postgres")
            self.prefix = [runuser, "-u", "postgres", "--"]
            shutil.chown(self.root, "postgres", "postgres")
        os.chmod(self.root, 0o700)

    def _run(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([*self.prefix, *args], capture_output=True, text=True, timeout=120)

    def start(self, extra: str = "") -> None:
        out = self._run(str(self.bindir / "initdb"), "-D", str(self.data), "-A", "trust", "-U", "postgres",
                        "-E", "UTF8", "--no-sync", "--locale=C")
        if out.returncode != 0:
            raise RuntimeError(f"initdb failed: {out.stderr or out.stdout}")
        options = (f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off "
                   "-c synchronous_commit=off -c full_page_writes=off -c max_connections=50 " + extra)
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
