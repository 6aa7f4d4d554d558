"""The ingest's writer process (``archive/writer.py``): a long walk stores exactly what the same
walk stores in one process, errors and kills end it cleanly, and scripts need no main guard."""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from sqlalchemy import text

from archive import Archive, ArchiveError
from archive import ingest as ingest_module
from archive.ingest import BATCH_GAMES
from archive.writer import RATE_EVERY
from replay.games import get
from replay.games.floating_bridge.bots import play_game

ROOT = Path(__file__).resolve().parents[2]


def _folder(tmp_path: Path, count: int) -> Path:
    """``count`` games over three full batches and more, with what takes the writer's other
    paths: a game twice in two encodings (in one batch and across batches), a JSON-lines file of
    several games with a blank and a broken line, an unreadable file, UNO Lite games, and a game
    with a NUL in a name (refused by the reader, on every database)."""
    folder = tmp_path / "logs"
    (folder / "a").mkdir(parents=True)
    (folder / "b").mkdir()
    uno = get("uno-lite")
    for i in range(count):
        log = uno.selfplay(i) if i % 7 == 3 else play_game(seed=20_000 + i, interrupt_rate=0.1)
        data = log.to_json_dict()
        if i == 300:
            data["players"]["N"]["name"] = "Nul\u0000Name"
        (folder / "a" / f"g{i:04d}.json").write_text(json.dumps(data, indent=1), encoding="utf-8")
    again = play_game(seed=20_000 + 5, interrupt_rate=0.1)  # g0005 again, compact, in a later folder
    (folder / "b" / "again.json").write_text(again.canonical_json(), encoding="utf-8")
    lines = [play_game(seed=30_000 + k).canonical_json() for k in range(3)]
    (folder / "b" / "batch.jsonl").write_text(lines[0] + "\n\n" + lines[1] + "\n{not json\n" + lines[2] + "\n",
                                              encoding="utf-8")
    (folder / "b" / "broken.json").write_text('{"format": "floating-bridge/1", "players": ', encoding="utf-8")
    return folder


def _stored(archive: Archive) -> dict[str, list[tuple]]:
    """Every table an ingest writes, as sorted rows (times of ingest left out)."""
    queries = {
        "games": "SELECT id, canonical_sha256, game_id, started_at, game, rules, players, end_reason, "
                 "findings, finding_kinds, source, origin, code, listed, raw_blob_id FROM games",
        "players": "SELECT game_id, seat, name, name_lc, player_id, player_id_lc, bot, bot_lc, bot_base_lc, role, "
                   "won, think_ms FROM game_players",
        "findings": "SELECT game_id, number, kind, seat FROM game_findings",
        "facts": "SELECT game_id, name, value, num FROM game_facts",
        "tags": "SELECT tag, started_key, game_id, listed FROM game_tags",
        "blobs": "SELECT id, sha256, size FROM blobs",
        "receipts": "SELECT sha256, source, origin, size, blob_ids FROM receipts",
        "quarantine": "SELECT blob_id, source, origin, error, resolved FROM quarantine",
        "ratings": "SELECT game, kind, name, mu, sigma, games, wins, rated, score, last_game_id FROM ratings",
        "history": "SELECT game_id, kind, name, game, mu, sigma FROM rating_history",
    }
    archive.ingester.fold()
    out = {}
    with archive.engine.connect() as conn:
        for name, sql in queries.items():
            out[name] = sorted(tuple(row) for row in conn.execute(text(sql)))
        out["counters"] = sorted(tuple(row) for row in conn.execute(text(
            "SELECT kind, key, key_lc, games, seats, role_games, role_won, wins, findings, listed_games FROM counters "
            "WHERE games <> 0 OR listed_games <> 0")))
    return out


@pytest.mark.parametrize("rate_every", [RATE_EVERY, 1])
@pytest.mark.parametrize("db_url", ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)],
                         indirect=True)
def test_a_long_walk_through_the_writer_stores_what_one_process_stores(db_url, tmp_path, monkeypatch, rate_every):
    """With ``rate_every`` 1 the writer refreshes the ratings after every batch (on PostgreSQL in a
    thread, beside the next batches): they come out as one refresh at the end makes them."""
    folder = _folder(tmp_path, 3 * BATCH_GAMES + 40)
    started = []

    class Watched(ingest_module.WriterProcess):
        def __init__(self, config):
            super().__init__(dataclasses.replace(config, rate_every=rate_every))
            started.append(self.process.pid)

    monkeypatch.setattr(ingest_module, "WriterProcess", Watched)
    with Archive(db_url, salt="same") as piped:
        results = [(os.path.relpath(p, folder), [(r.status, r.public_id, r.findings) for r in rs])
                   for p, rs in piped.iter_ingest([str(folder)])]
        assert len(started) == 1, "a walk of several full batches runs one writer process"
        stored = _stored(piped)
        piped.engine.dispose()
        # the same walk again: everything is there (the writer judges nothing, stores nothing)
        again = piped.ingest_paths([str(folder)])
        assert {r.status for r in again} <= {"duplicate", "quarantined"}
        assert _stored(piped) == stored
        postgres = piped.engine.dialect.name == "postgresql"
        with piped.engine.begin() as conn:  # empty the database for the same walk in one process
            for table in ("rating_history", "ratings", "rating_watermark", "game_tags", "game_facts",
                          "game_findings", "game_players", "quarantine", "games", "receipts", "counter_deltas",
                          "counters", "blobs", "dictionaries"):
                conn.execute(text(f"DELETE FROM {table}"))
            conn.execute(text("DELETE FROM settings WHERE key = 'dictionary_trained_at_blobs'"))
            if postgres:
                for table in ("games", "blobs", "receipts", "quarantine", "dictionaries"):
                    conn.execute(text(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), 1, false)"))
    writers = len(started)
    with Archive(db_url, salt="same") as alone:
        alone.ingester.writer_config = None
        expected = [(os.path.relpath(p, folder), [(r.status, r.public_id, r.findings) for r in rs])
                    for p, rs in alone.iter_ingest([str(folder)])]
        assert len(started) == writers, "with no writer configured, no process starts"
        assert results == expected
        assert _stored(alone) == stored
    statuses = [s for _, rs in results for s, _, _ in rs]
    assert statuses.count("duplicate") == 1 and statuses.count("quarantined") == 3


def test_a_script_without_a_main_guard_ingests_a_long_walk(tmp_path):
    """The writer is a new interpreter started with ``-c``, not a ``multiprocessing`` child (whose start
    runs the parent's script again)."""
    folder = _folder(tmp_path, BATCH_GAMES + 10)
    script = tmp_path / "ingest_all.py"
    script.write_text(textwrap.dedent(f"""
        from archive import Archive
        archive = Archive({f"sqlite:///{tmp_path / 'a.db'}"!r})
        results = archive.ingest_paths([{str(folder)!r}])
        print(sum(r.status == "stored" for r in results), archive.count())
    """), encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    # and the 3 games of the JSON lines, less g0300 (a NUL in a name: quarantined)
    assert done.stdout.split() == [str(BATCH_GAMES + 10 + 3 - 1)] * 2


def test_a_writer_that_dies_is_an_error_and_a_rerun_stores_the_rest(tmp_path, monkeypatch):
    folder = _folder(tmp_path, 4 * BATCH_GAMES)
    writers = []

    class Watched(ingest_module.WriterProcess):
        def __init__(self, config):
            super().__init__(config)
            writers.append(self)

    monkeypatch.setattr(ingest_module, "WriterProcess", Watched)
    url = f"sqlite:///{tmp_path / 'a.db'}"
    reported = 0
    with Archive(url) as archive:
        with pytest.raises(ArchiveError, match="the ingest's writer process stopped"):
            for _path, results in archive.iter_ingest([str(folder)]):
                if not reported:
                    writers[0].process.kill()
                reported += sum(r.status == "stored" for r in results)
        assert 0 < reported <= archive.count() < 4 * BATCH_GAMES
        archive.ingest_paths([str(folder)])
        assert archive.count() == 4 * BATCH_GAMES + 3 - 1  # g0300 holds a NUL in a name: quarantined


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(c) for c in (task / "children").read_text().split()]
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads children from /proc (Linux)")
def test_killing_an_ingest_ends_its_writer(tmp_path):
    folder = _folder(tmp_path, 6 * BATCH_GAMES)
    proc = subprocess.Popen([sys.executable, "-m", "viewer.cli", "ingest", str(folder), "--db",
                             f"sqlite:///{tmp_path / 'a.db'}"], cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        writers: list[int] = []
        while not writers and time.monotonic() < deadline and proc.poll() is None:
            writers = [c for c in _children(proc.pid)
                       if b"archive.writer" in Path(f"/proc/{c}/cmdline").read_bytes()]
            time.sleep(0.05)
        assert writers, "the ingest never started its writer process"
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
        deadline = time.monotonic() + 60
        while _alive(writers[0]) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _alive(writers[0]), "the writer outlived its ingest"
    finally:
        if proc.poll() is None:
            proc.kill()
