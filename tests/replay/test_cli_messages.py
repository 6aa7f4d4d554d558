"""Review 14, item 11: command-line messages say what the user did wrong, in the user's words.

Each test runs ``game-replay`` in-process (``cli_runner``) as a user would and checks the exit
status and the one-line message.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from replay.games.floating_bridge.bots import play_game
from replay.codec import encode

ROOT = Path(__file__).resolve().parents[2]
WORKED = str(ROOT / "sample_logs" / "legacy" / "worked-example.txt")


# -- export / decode --------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["nofile.json", "games/nofile.jsonl", "nofile.txt"])
def test_export_of_a_missing_file_says_there_is_no_such_file(cli_runner, tmp_path, name):
    code, out, err = cli_runner("export", str(tmp_path / name) if "/" in name else name, "--to", "pbn")
    assert code == 2
    assert "no such file or folder" in err
    assert "does not start a replay code" not in err


def test_export_of_a_damaged_code_still_explains_the_code(cli_runner):
    code, out, err = cli_runner("export", "Zzzz", "--to", "pbn")
    assert code == 2 and "replay code" in err and "no such file" not in err


def test_decode_dash_reads_the_code_from_standard_input(cli_runner):
    text = encode(play_game(seed=5))
    code, out, err = cli_runner("decode", "-", input=text + "\n")
    assert code == 0, err
    assert out.startswith("replay code: ") and "1S by N" in out
    assert out == cli_runner("decode", text)[1]


def test_decode_dash_with_nothing_on_standard_input(cli_runner):
    code, out, err = cli_runner("decode", "-", input="")
    assert code == 2 and "no replay code on standard input" in err


@pytest.mark.parametrize("name", ["game1.json", "logs/game1.jsonl", WORKED])
def test_decode_of_a_file_name_points_to_encode_and_replay(cli_runner, name):
    code, out, err = cli_runner("decode", name)
    assert code == 2
    assert "is a file name, not a replay code" in err
    assert f"game-replay encode {name}" in err and f"game-replay replay {name}" in err


# -- no games found ---------------------------------------------------------------------------

@pytest.mark.parametrize("command", ["validate", "replay", "encode"])
def test_a_folder_without_logs_is_an_error_not_all_clean(cli_runner, tmp_path, command):
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "notes.md").write_text("not a log")
    code, out, err = cli_runner(command, str(empty))
    assert code == 2
    assert f"no games found in {empty}" in err
    assert out == ""


def test_a_folder_with_logs_is_still_fine(cli_runner, tmp_path):
    play_game(seed=3, out_dir=str(tmp_path))
    for command in ("validate", "replay", "encode"):
        code, out, err = cli_runner(command, str(tmp_path))
        assert code == 0, (command, err)
        assert out.strip()


# -- archive list: the option the user typed ----------------------------------------------------

@pytest.mark.parametrize("option, internal", [("--from", "started_from"), ("--to", "started_to")])
def test_a_bad_date_names_the_option_typed(cli_runner, tmp_path, option, internal):
    code, out, err = cli_runner("archive", "list", "--db", f"sqlite:///{tmp_path / 'x.db'}", option, "yesterday")
    assert code == 2
    assert f"{option} must be an ISO 8601 date or time, not 'yesterday'" in err
    assert internal not in err


# -- --db URLs --------------------------------------------------------------------------------

@pytest.mark.parametrize("args", [("archive", "list"), ("archive", "stats"), ("ingest", "-")])
def test_a_sqlite_url_in_a_missing_folder_is_refused_and_creates_nothing(cli_runner, tmp_path, args):
    url = f"sqlite:///{tmp_path / 'nodir' / 'x.db'}"
    code, out, err = cli_runner(*args, "--db", url, input="")
    assert code == 2
    assert f"{tmp_path / 'nodir'}: no such folder" in err
    assert not (tmp_path / "nodir").exists()


def test_a_relative_sqlite_url_in_a_missing_folder_is_refused(tmp_path):
    # as the review typed it: sqlite:///nodir/x.db, relative to the working folder
    env = {k: v for k, v in os.environ.items() if not k.startswith("GAME_REPLAY_")}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run([sys.executable, "-m", "viewer.cli", "archive", "list", "--db", "sqlite:///nodir/x.db"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert "nodir: no such folder" in done.stderr
    assert not (tmp_path / "nodir").exists()


def test_the_default_database_may_create_its_var_folder(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("GAME_REPLAY_")}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run([sys.executable, "-m", "viewer.cli", "archive", "list", "--json"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "var" / "game-replay.db").is_file()


@pytest.mark.parametrize("url", ["mysql://u:secret@localhost/db", "mysql+pymysql://u@localhost/db",
                                 "oracle://u@host/db", "mssql+pyodbc://u@dsn"])
def test_an_unsupported_backend_names_the_supported_ones(cli_runner, url):
    code, out, err = cli_runner("archive", "list", "--db", url)
    assert code == 2
    assert "supported" in err and "SQLite" in err and "PostgreSQL" in err
    assert "driver is missing" not in err
    assert "secret" not in err


def test_serve_refuses_a_sqlite_url_in_a_missing_folder(tmp_path):
    # a subprocess: before the fix, serve created the folder and went on serving
    env = {k: v for k, v in os.environ.items() if not k.startswith("GAME_REPLAY_")}
    env["PYTHONPATH"] = str(ROOT)
    try:
        done = subprocess.run([sys.executable, "-m", "viewer.cli", "serve", "--port", "0", "--no-samples",
                               "--db", f"sqlite:///{tmp_path / 'nodir' / 'x.db'}"],
                              cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail("serve started instead of refusing the URL")
    assert done.returncode == 2 and "no such folder" in done.stderr
    assert not (tmp_path / "nodir").exists()


# -- grammar ----------------------------------------------------------------------------------

def test_selfplay_of_one_game_says_game(cli_runner, tmp_path):
    code, out, err = cli_runner("selfplay", "--games", "1", "--out", str(tmp_path / "g"))
    assert code == 0, err
    assert out.startswith(f"saved 1 game to {tmp_path / 'g'}/ (")


def test_lin_export_of_one_finding_says_finding(cli_runner):
    code, out, err = cli_runner("export", str(ROOT / "sample_logs" / "broken" / "revoke.json"), "--to", "lin")
    assert code == 0, err
    assert "1 rule finding" in out and "1 rule findings" not in out


def test_json_errors_do_not_say_at_at(cli_runner, tmp_path):
    cut = tmp_path / "cut.json"
    cut.write_text(play_game(seed=1).canonical_json()[:300])
    code, out, err = cli_runner("validate", str(cut))
    assert code == 2
    assert "Unterminated string starting at line 1" in out and "at at" not in out


def test_a_game_stopped_after_one_trick_says_one_trick(cli_runner, tmp_path):
    import json

    data = play_game(seed=1).to_json_dict()
    first_trick = next(i for i, e in enumerate(data["events"]) if e["type"] == "trick")
    data["events"] = data["events"][:first_trick + 1]   # the log still says "completed"
    path = tmp_path / "short.json"
    path.write_text(json.dumps(data))
    code, out, err = cli_runner("validate", str(path))
    assert code == 1
    assert "play stopped after 1 trick with" in out


def test_the_cli_help_names_every_registered_game(cli_runner):
    from replay.games import get, names

    code, out, err = cli_runner("--help")
    assert code == 0, err
    text = " ".join(out.split()).lower()
    for name in names():
        assert get(name).title.lower() in text, name
