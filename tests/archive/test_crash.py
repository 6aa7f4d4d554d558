"""Crash safety: SIGKILL an ingest of 5,000 logs three times at random points, then finish it."""

from __future__ import annotations

import hashlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from archive import Archive
from replay.games.floating_bridge.bots import play_game

GAMES = 5000
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def logs_5000(tmp_path_factory) -> Path:
    """5,000 different games, one file each, in GameLogger's layout.

    500 self-played deals, each logged ten times under another game id and table (so ten
    different games to the archive), keep the fixture quick to make.
    """
    folder = tmp_path_factory.mktemp("crash5000")
    base = [play_game(50_000 + seed, bot="random" if seed % 3 == 0 else "greedy").to_json_dict()
            for seed in range(GAMES // 10)]
    for n in range(GAMES):
        data = dict(base[n % len(base)])
        data["game_id"] = f"crash-table-{n // len(base)}/{n:05d}"
        data["players"] = {seat: {**p, "name": f"{p['name']}-{n // len(base)}"} for seat, p in data["players"].items()}
        text = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
        (folder / f"game-{n:05d}.json").write_text(text, encoding="utf-8")
    return folder


def _ingest(folder: Path, db_url: str, cwd: Path) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
    env.pop("GAME_REPLAY_SALT", None)
    return subprocess.Popen([sys.executable, "-m", "viewer.cli", "ingest", str(folder), "--db", db_url, "-v"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd, env=env)


def _reported(lines: list[bytes]) -> dict[str, str]:
    """source -> public id of every game the process reported as stored (or already there)."""
    out = {}
    for line in lines:
        text = line.decode("utf-8", "replace").rstrip("\n")
        source, _, rest = text.rpartition(": ")
        parts = rest.split()
        if len(parts) == 2 and parts[0] in ("stored", "stored_with_findings", "duplicate"):
            out[source] = parts[1]
    return out


@pytest.mark.slow
def test_sigkill_three_times_then_finish(db_url, logs_5000, tmp_path):
    rng = random.Random(20261121)
    reported: dict[str, str] = {}
    for _ in range(3):
        already = len(reported)
        target = already + rng.randrange(150, 900)
        proc = _ingest(logs_5000, db_url, tmp_path)
        lines: list[bytes] = []
        deadline = time.monotonic() + 120
        try:
            while len(_reported(lines)) + already < target and time.monotonic() < deadline:
                line = proc.stdout.readline()
                if not line:
                    break
                lines.append(line)
            time.sleep(rng.random() * 0.05)  # somewhere inside the next game's transaction, or between
        finally:
            proc.send_signal(signal.SIGKILL)
            # read on through proc.stdout itself: communicate() reads the pipe beneath it and
            # would drop what readline() has buffered (a batch reports many lines at once)
            rest = proc.stdout.read()
            proc.wait(timeout=60)
        assert proc.returncode == -signal.SIGKILL, "the ingest ended before it could be killed"
        lines.extend(rest.splitlines(keepends=True))
        reported.update(_reported(lines))
    assert len(reported) < GAMES

    done = _ingest(logs_5000, db_url, tmp_path)
    out, err = done.communicate(timeout=600)
    assert done.returncode == 0, err.decode()
    assert out.decode().rstrip().endswith("quarantined 0, rejected 0")
    final = _reported(out.splitlines(keepends=True))
    assert len(final) == GAMES

    with Archive(db_url) as archive:
        assert archive.count() == GAMES
        from sqlalchemy import func, select

        from archive.models import Blob, Game, GamePlayer, Quarantined, Receipt

        with archive.engine.connect() as conn:
            assert conn.execute(select(func.count(Game.canonical_sha256.distinct()))).scalar() == GAMES
            assert conn.execute(select(func.count(Game.game_id.distinct()))).scalar() == GAMES
            assert conn.execute(select(func.count()).select_from(GamePlayer)).scalar() == 4 * GAMES
            assert conn.execute(select(func.count()).select_from(Receipt)).scalar() == GAMES
            assert conn.execute(select(func.count()).select_from(Blob)).scalar() == GAMES
            assert conn.execute(select(func.count()).select_from(Quarantined)).scalar() == 0
        # nothing reported as stored was lost, and it kept its id
        for source, public_id in reported.items():
            assert final[source] == public_id
        # every game intact: its bytes are its file's, byte for byte
        seen = set()
        for public_id, raw in archive.iter_games():
            digest = hashlib.sha256(raw).hexdigest()
            assert digest not in seen
            seen.add(digest)
        files = {hashlib.sha256(p.read_bytes()).hexdigest() for p in logs_5000.iterdir()}
        assert seen == files
        for source, public_id in list(final.items())[::250]:
            game = archive.get(public_id)
            assert game.raw == Path(source).read_bytes()
            assert game.replay().findings == []
