"""Many machines, one archive (issue 13): several ``ingest`` processes and several viewer
processes against one real PostgreSQL.

- Four ``game-replay ingest`` processes on overlapping folders of the same 2,000 logs (every
  log in two folders), one of them killed mid-way: exactly 2,000 games, each stored once,
  every input's bytes kept, the counters exact, and no survivor aborted by a deadlock.
- Two ``game-replay serve`` processes: an upload accepted by one is at once visible, listed
  and counted by the other.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from archive import Archive
from replay.games.floating_bridge.bots import play_game

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.postgres


@pytest.fixture
def pg_url(postgres_server):
    name = postgres_server.create_database()
    try:
        yield postgres_server.url(name)
    finally:
        postgres_server.drop_database(name)


def _cli(*args: str, **kwargs) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("GAME_REPLAY_DB", None)
    return subprocess.Popen([sys.executable, "-m", "viewer.cli", *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kwargs)


def _games(url: str) -> int:
    engine = create_engine(url)
    try:
        with engine.connect() as conn:
            return conn.execute(text("SELECT COUNT(*) FROM games")).scalar_one()
    finally:
        engine.dispose()


def test_four_ingesters_on_overlapping_folders_store_each_game_once(pg_url, selfplay_2000, tmp_path):
    with Archive(pg_url, salt="many"):  # the schema, made once before the race
        pass
    folders = [tmp_path / f"in{k}" for k in range(4)]
    for folder in folders:
        folder.mkdir()
    for i, path in enumerate(selfplay_2000):  # chunk c of 500 logs is in folders c and c - 1
        chunk = i // 500
        for k in (chunk, (chunk + 3) % 4):
            os.link(path, folders[k] / path.name)
    procs = [_cli("ingest", str(folder), "--db", pg_url, "-q") for folder in folders]
    victim = procs[0]
    deadline = time.monotonic() + 300
    while _games(pg_url) < 150 and time.monotonic() < deadline and victim.poll() is None:
        time.sleep(0.05)
    assert victim.poll() is None, "the first ingester finished before it could be killed: too few logs"
    victim.send_signal(signal.SIGKILL)
    victim.wait()
    outcomes = [(p.wait(timeout=600), *p.communicate()) for p in procs[1:]]
    for code, out, err in outcomes:
        assert code == 0, err.decode()
        assert b"deadlock" not in err and b"Traceback" not in err
    with Archive(pg_url, salt="many") as archive:
        assert archive.count() == 2000
        with archive.engine.connect() as conn:
            assert conn.execute(text("SELECT COUNT(DISTINCT canonical_sha256) FROM games")).scalar_one() == 2000
            assert conn.execute(text("SELECT COUNT(*) FROM quarantine")).scalar_one() == 0
            assert conn.execute(text("SELECT COUNT(*) FROM game_tags WHERE tag = '*'")).scalar_one() == 2000
        assert archive.list().total == 2000 and archive.list(has_findings=False, exact_total=True).total == \
            archive.list(has_findings=False, sort="-ingested_at", exact_total=True).total
        kept = {hashlib.sha256(data).hexdigest() for _source, data in archive.iter_inputs()}
        assert kept == {hashlib.sha256(p.read_bytes()).hexdigest() for p in selfplay_2000}
        assert sum(r["seats"] for r in archive.stats(by="player")) == \
            sum(len(json.loads(p.read_bytes())["players"]) for p in selfplay_2000)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def test_an_upload_to_one_viewer_is_seen_by_another_at_once(pg_url):
    with Archive(pg_url):
        pass
    ports = [_free_port(), _free_port()]
    servers = [_cli("serve", "--db", pg_url, "--port", str(port), "--no-samples") for port in ports]
    try:
        for port, server in zip(ports, servers):
            deadline = time.monotonic() + 60
            while True:
                assert server.poll() is None, server.communicate()[1].decode()
                try:
                    if _get(f"http://127.0.0.1:{port}/games.json")[0] == 200:
                        break
                except OSError:
                    pass
                assert time.monotonic() < deadline, "the viewer did not start"
                time.sleep(0.2)
        one, other = (f"http://127.0.0.1:{port}" for port in ports)
        body = play_game(seed=4242).canonical_json().encode()
        request = urllib.request.Request(f"{one}/api/logs?name=g.json", data=body, method="POST",
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as response:
            assert response.status == 201
            (game,) = json.loads(response.read())["files"][0]["games"]
        status, page = _get(f"{other}/u/{game['token']}.json")
        assert status == 200, page
        assert _get(f"{other}/games.json")[1] and json.loads(_get(f"{other}/games.json")[1])["total"] == 0
        publish = urllib.request.Request(f"{one}/api/uploads/{game['token']}/publish", method="POST",
                                         headers={"X-Delete-Token": game["delete_token"]})
        with urllib.request.urlopen(publish, timeout=30) as response:
            public_id = json.loads(response.read())["id"]
        listing = json.loads(_get(f"{other}/games.json")[1])
        assert listing["total"] == 1 and [g["id"] for g in listing["games"]] == [public_id]
        assert _get(f"{other}/api/games/{public_id}")[0] == 200
        stats = json.loads(_get(f"{other}/stats.json")[1])
        assert stats["rows"] and all(r["games"] == 1 for r in stats["rows"])
    finally:
        for server in servers:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
