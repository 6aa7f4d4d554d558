"""``game-replay ingest`` and ``game-replay archive ...``, run as a user runs them."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest

from archive import Archive
from replay.games.floating_bridge.bots import play_game

from .conftest import write_selfplay


@pytest.fixture
def folder(tmp_path) -> Path:
    logs = tmp_path / "logs"
    write_selfplay(logs, 4, seed=300)
    (logs / "broken.json").write_bytes(b'{"format": "floating-bridge/1", "first_bidder": "Q"')
    (logs / ".hidden.json").write_bytes(b"not a log, and hidden")
    (logs / "notes.md").write_text("not a log")
    return logs


def test_ingest_summary_and_rerun(cli_runner, db_url, folder):
    code, out, err = cli_runner("ingest", str(folder), "--db", db_url)
    assert code == 1  # something was quarantined
    assert out.strip().splitlines()[-1] == (
        "stored 4, already there 0, stored with findings 0, quarantined 1, rejected 0")
    assert "broken.json: quarantined: not JSON" in out
    code, out, err = cli_runner("ingest", str(folder), "--db", db_url, "--quiet")
    assert out.strip() == "stored 0, already there 4, stored with findings 0, quarantined 1, rejected 0"
    with Archive(db_url) as archive:
        assert archive.count() == 4 and archive.quarantine().total == 1


def test_ingest_stdin_and_json(cli_runner, db_url, tmp_path):
    data = play_game(seed=2).canonical_json()
    code, out, err = cli_runner("ingest", "-", "--db", db_url, "--json", input=data)
    assert code == 0, err
    report = json.loads(out)
    assert report["summary"]["stored"] == 1
    (result,) = report["results"]
    assert result["source"] == "<stdin>" and result["status"] == "stored"
    code, out, err = cli_runner("archive", "show", result["public_id"], "--db", db_url, "--raw")
    assert code == 0 and out == data


def test_list_show_stats_export_retry(cli_runner, db_url, folder, tmp_path):
    cli_runner("ingest", str(folder), "--db", db_url, "-q")
    code, out, err = cli_runner("archive", "list", "--db", db_url, "--json", "--limit", "2")
    assert code == 0, err
    page = json.loads(out)
    assert page["total"] == 4 and len(page["items"]) == 2
    first = page["items"][0]
    assert set(first) >= {"public_id", "game_id", "started_at", "rules", "players", "contract", "declarer",
                          "partner_seat", "result", "end_reason", "findings", "finding_kinds", "source",
                          "ingested_at", "code"}
    code, out, err = cli_runner("archive", "list", "--db", db_url, "--json", "--offset", "2", "--limit", "5")
    assert [g["public_id"] for g in json.loads(out)["items"]] not in ([], [first["public_id"]])
    code, out, err = cli_runner("archive", "list", "--db", db_url, "--json", "--bot", "greedy", "--no-findings",
                                "--from", "2026-01-01", "--to", "2027-01-01", "--sort", "started_at")
    listed = json.loads(out)
    assert listed["total"] == 4
    starts = [g["started_at"] for g in listed["items"]]
    assert starts == sorted(starts)
    code, out, err = cli_runner("archive", "list", "--db", db_url, "--json", "--player", "nobody")
    assert json.loads(out)["total"] == 0
    code, out, err = cli_runner("archive", "list", "--db", db_url)
    assert code == 0 and "4 games" in out
    code, out, err = cli_runner("archive", "list", "--db", db_url, "--quarantine", "--json")
    quarantined = json.loads(out)
    assert quarantined["total"] == 1 and quarantined["items"][0]["source"].endswith("broken.json")
    assert "not JSON" in quarantined["items"][0]["error"]

    code, out, err = cli_runner("archive", "show", first["public_id"], "--db", db_url, "--json")
    shown = json.loads(out)
    assert shown["public_id"] == first["public_id"] and "replay" in shown
    assert shown["replay"]["contract"] == first["contract"]
    code, out, err = cli_runner("archive", "show", first["public_id"], "--db", db_url)
    assert code == 0 and first["public_id"] in out

    code, out, err = cli_runner("archive", "stats", "--db", db_url, "--by", "bot", "--json")
    (row,) = json.loads(out)
    assert row["bot"] == "greedy-1" and row["games"] == 4 and row["declarer"] == sum(
        1 for g in json.loads(cli_runner("archive", "list", "--db", db_url, "--json")[1])["items"] if g["declarer"])

    code, out, err = cli_runner("archive", "export", str(tmp_path / "out"), "--db", db_url)
    assert code == 0 and out.strip() == f"exported 4 games to {tmp_path / 'out'}"
    originals = sorted(p.read_bytes() for p in folder.glob("*.json") if p.name not in ("broken.json", ".hidden.json"))
    assert sorted(p.read_bytes() for p in (tmp_path / "out").iterdir()) == originals
    code, out, err = cli_runner("archive", "export", str(tmp_path / "in"), "--inputs", "--db", db_url)
    assert out.startswith("exported 5 inputs")
    exported = sorted(p.read_bytes() for p in (tmp_path / "in").rglob("*") if p.is_file())
    assert exported == sorted(originals + [(folder / "broken.json").read_bytes()])
    code, out, err = cli_runner("archive", "export", str(tmp_path / "jl"), "--format", "jsonl", "--db", db_url)
    lines = (tmp_path / "jl" / "games.jsonl").read_text().splitlines()
    assert len(lines) == 4 and all(json.loads(line)["format"] == "floating-bridge/1" for line in lines)

    code, out, err = cli_runner("archive", "retry", "--db", db_url, "--json")
    assert code == 0 and json.loads(out)["summary"]["quarantined"] == 1


@pytest.mark.parametrize("args, message", [
    (("archive", "list", "--db", "nonsense"), "not a database URL"),
    (("archive", "list", "--db", "sqlite:///{tmp}/x.db", "--contract", "8Q"), "contract must be a bid"),
    (("archive", "list", "--db", "sqlite:///{tmp}/x.db", "--from", "soon"), "ISO 8601"),
    (("archive", "show", "abc", "--db", "sqlite:///{tmp}/x.db"), "no game with id 'abc'"),
    (("ingest", "{tmp}/missing", "--db", "sqlite:///{tmp}/x.db"), "no such file or folder"),
    (("ingest", "--db", "sqlite:///{tmp}/x.db"), "nothing to ingest"),
    (("archive", "list", "--db", "postgresql+psycopg://u:secret@127.0.0.1:1/x"), "cannot open the archive"),
])
def test_errors_are_one_clear_line(cli_runner, tmp_path, args, message):
    code, out, err = cli_runner(*[a.replace("{tmp}", str(tmp_path)) for a in args])
    assert code == 2
    assert message in err
    assert "Traceback" not in err + out
    assert "secret" not in err + out


def test_untrusted_names_cannot_drive_the_terminal(cli_runner, tmp_path):
    db = f"sqlite:///{tmp_path / 'x.db'}"
    data = play_game(seed=9).to_json_dict()
    data["players"]["N"] = {"name": "\x1b[2J\x1b[31m[bold red]Mallory[/]\x07"}
    data["game_id"] = "\x1b]0;pwned\x07"
    (tmp_path / "evil.json").write_text(json.dumps(data))
    cli_runner("ingest", str(tmp_path / "evil.json"), "--db", db)
    for args in (("archive", "list"), ("archive", "stats"), ("archive", "list", "--json")):
        code, out, err = cli_runner(*args, "--db", db)
        assert code == 0
        assert "\x1b" not in out and "\x07" not in out
    code, out, err = cli_runner("archive", "list", "--db", db, "--json")
    assert json.loads(out)["items"][0]["players"]["N"]["name"] == data["players"]["N"]["name"]


def test_watch_takes_complete_files_once_and_leaves_temporary_ones(cli_runner, tmp_path):
    db = f"sqlite:///{tmp_path / 'w.db'}"
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    first = play_game(seed=1).canonical_json()
    (inbox / "first.json").write_text(first)
    (inbox / ".first.json.tmp").write_text(first[:100])
    (inbox / "second.json.part").write_text(first[:100])

    def bot_writes_later():
        time.sleep(0.4)
        from replay.logger import save_log

        save_log(play_game(seed=2), inbox)

    writer = threading.Thread(target=bot_writes_later)
    writer.start()
    code, out, err = cli_runner("ingest", "--watch", str(inbox), "--interval", "0.2", "--polls", "8", "--db", db)
    writer.join()
    assert code == 0, err
    assert out.strip().splitlines()[-1].startswith("stored 2, already there 0")
    with Archive(db) as archive:
        assert archive.count() == 2 and archive.quarantine().total == 0
        assert {Path(g.source).name for g in archive.list().items} == {"first.json", "selfplay-greedy-bridgebot-2.json"}


def test_huge_offset_is_an_option_error_not_a_crash(tmp_path, cli_runner):
    code, out, err = cli_runner("archive", "list", "--db", f"sqlite:///{tmp_path / 'x.db'}",
                                "--offset", "99999999999999999999")
    assert code == 2 and "Traceback" not in out + err and "internal error" not in err


def _drain(stream, lines: list) -> None:
    for line in iter(stream.readline, ""):
        lines.append(line)


def test_watch_interrupted_by_ctrl_c_counts_everything_it_did(tmp_path):
    """Review item 6: a SIGINT-stopped ``ingest --watch`` printed "stored 0, ..." after storing two
    games, finding a duplicate and quarantining a file. The summary must count all of them."""
    import os
    import signal
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[2]
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    db = f"sqlite:///{tmp_path / 'watch.db'}"
    env = {k: v for k, v in os.environ.items() if not k.startswith("GAME_REPLAY_")}
    # Ctrl-C's usual disposition in the child, whatever this process got: a shell starts a
    # background job (``pytest &``, ``nohup``) with SIGINT ignored, children inherit that, and
    # Python then installs no KeyboardInterrupt handler (the watcher would ignore the signal)
    proc = subprocess.Popen(
        [sys.executable, "-m", "viewer.cli", "ingest", "--watch", str(inbox), "--interval", "0.1", "--db", db],
        cwd=root, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    err_lines: list[str] = []
    reader = threading.Thread(target=_drain, args=(proc.stderr, err_lines), daemon=True)
    reader.start()
    try:
        first, second = play_game(seed=41).canonical_json(), play_game(seed=42).canonical_json()
        (inbox / "a.json").write_text(first)
        (inbox / "b.json").write_text(second)
        (inbox / "a-again.json").write_text(first)            # the same game: a duplicate
        (inbox / "cut.json").write_text(first[:300])           # not JSON: quarantined
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            reported = [line for line in err_lines if line.startswith(str(inbox))]
            if len(reported) >= 4:
                break
            assert proc.poll() is None, "".join(err_lines)
            time.sleep(0.05)
        else:
            pytest.fail("the watcher did not take the four files in: " + "".join(err_lines))
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    reader.join(timeout=5)
    assert out.strip().splitlines()[-1] == (
        "stored 2, already there 1, stored with findings 0, quarantined 1, rejected 0"), out + "".join(err_lines)
    assert "cut.json: quarantined: not JSON" in out
    assert proc.returncode == 1  # something was quarantined
    assert "Traceback" not in out + "".join(err_lines)
