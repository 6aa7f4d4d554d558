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
    assert set(first) >= {"public_id", "game", "game_id", "started_at", "rules", "players", "facts", "end_reason",
                          "findings", "finding_kinds", "source", "ingested_at", "code"}
    assert not set(first) & {"contract", "declarer", "partner_seat", "result"}
    assert set(first["facts"]) >= {"contract", "declarer", "result"}
    assert all(set(p) >= {"role", "won"} for p in first["players"].values())
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
    assert shown["replay"]["contract"] == first["facts"]["contract"]
    code, out, err = cli_runner("archive", "show", first["public_id"], "--db", db_url)
    assert code == 0 and first["public_id"] in out

    code, out, err = cli_runner("archive", "stats", "--db", db_url, "--by", "bot", "--json")
    (row,) = json.loads(out)
    listed = json.loads(cli_runner("archive", "list", "--db", db_url, "--json")[1])["items"]
    assert row["bot"] == "greedy-1" and row["games"] == 4 and "role_games" not in row
    # greedy-1 holds every seat: it won each decided game
    assert row["wins"] == sum(1 for g in listed if any(p["won"] for p in g["players"].values()))
    code, out, err = cli_runner("archive", "stats", "--db", db_url, "--by", "bot", "--json", "--game", "floating-bridge")
    (row,) = json.loads(out)
    assert row["name"] == "greedy-1" and row["role_games"] == sum(1 for g in listed if g["facts"].get("declarer"))

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


# --- issue 25: a game-neutral archive CLI -----------------------------------------------------

def _coup_archive(tmp_path, games: int = 4) -> str:
    from archive import Archive
    from replay.games import get as get_game

    coup = get_game("coup")
    db = f"sqlite:///{tmp_path / 'coup.db'}"
    with Archive(db) as archive:
        for seed in range(games):
            archive.ingest_bytes(coup.selfplay(seed).canonical_json().encode(), f"coup-{seed}.json")
    return db


def test_stats_of_a_coup_only_archive_show_no_other_games_columns(cli_runner, tmp_path):
    db = _coup_archive(tmp_path)
    code, out, err = cli_runner("archive", "stats", "--db", db, "--by", "bot")
    assert code == 0, err
    header = out.lower()
    for word in ("declarer", "made", "tricks", "mistakes", "analysed", "contract"):
        assert word not in header
    assert "wins" in header and "findings" in header and "think" in header
    code, out, err = cli_runner("archive", "stats", "--db", db, "--by", "bot", "--json")
    rows = json.loads(out)
    assert rows and all(set(r) == {"bot", "games", "seats", "wins", "findings", "think_ms"} for r in rows)
    assert sum(r["wins"] for r in rows) > 0
    code, out, err = cli_runner("archive", "stats", "--db", db, "--by", "bot", "--game", "coup")
    assert code == 0, err
    assert "declarer" not in out.lower() and "mistakes" not in out.lower()  # coup has no counted role, no analysis
    code, out, err = cli_runner("archive", "stats", "--db", db, "--by", "bot", "--game", "floating-bridge")
    assert code == 0 and "as declarer" in out and "mistakes" in out  # bridge's own columns, named by its role


def test_list_offers_game_fact_and_winner(cli_runner, tmp_path):
    code, out, err = cli_runner("archive", "list", "--help")
    assert code == 0
    for option in ("--game", "--fact", "--winner", "--contract", "--turns"):
        assert option in out
    db = _coup_archive(tmp_path)
    every = json.loads(cli_runner("archive", "list", "--db", db, "--json")[1])["items"]
    assert every and {g["game"] for g in every} == {"coup"}
    turns = sorted(g["facts"]["turns"] for g in every)
    middle = turns[len(turns) // 2]
    code, out, err = cli_runner("archive", "list", "--db", db, "--json", "--game", "coup", "--fact", f"turns>={middle}")
    assert code == 0, err
    assert sorted(g["public_id"] for g in json.loads(out)["items"]) == sorted(
        g["public_id"] for g in every if g["facts"]["turns"] >= middle)
    code, out, err = cli_runner("archive", "list", "--db", db, "--json", "--turns", f"<={middle}")
    assert sorted(g["public_id"] for g in json.loads(out)["items"]) == sorted(
        g["public_id"] for g in every if g["facts"]["turns"] <= middle)
    winner = next(p for g in every for p in g["players"].values() if p["won"])
    code, out, err = cli_runner("archive", "list", "--db", db, "--json", "--winner", winner["bot"])
    found = json.loads(out)["items"]
    assert found and all(any(p["won"] and p["bot"] == winner["bot"] for p in g["players"].values()) for g in found)
    code, out, err = cli_runner("archive", "list", "--db", db, "--game", "coup")
    assert code == 0 and "Turns" in out and "winners" in out and "contract" not in out.lower()


@pytest.mark.parametrize("args, message", [
    (("--fact", "colour=red"), "colour is not a fact of any game"),
    (("--game", "coup", "--fact", "turns=many"), "turns must be a whole number"),
    (("--game", "coup", "--contract", "3NT"), "contract is a fact of floating-bridge, not of coup"),
    (("--fact", "result>=3"), "needs a fact that is a number"),
    (("--declarer", "X"), "declarer"),
])
def test_list_refuses_an_unknown_fact_or_a_bad_value(cli_runner, tmp_path, args, message):
    db = tmp_path / "never.db"
    code, out, err = cli_runner("archive", "list", "--db", f"sqlite:///{db}", *args)
    assert code == 2 and message in err and "Traceback" not in err
    assert not db.exists()  # refused before the archive was opened: nothing made
