"""``game-replay study create|import|show|export|list``: studies from codes, archived games, log
files and study files, shown as plain text, exported and imported back unchanged."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from archive import Archive
from archive.studies import Studies
from replay.codec import encode
from replay.games import get
from replay.study import StudyGame


@pytest.fixture
def db(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'archive.db'}"


def _created(stdout: str) -> tuple[str, str]:
    """(study id, owner token) from what ``study create`` printed."""
    found = re.search(r"^study (\w+) created", stdout, re.M)
    token = re.search(r"^owner token: (\S+)$", stdout, re.M)
    assert found and token, stdout
    return found.group(1), token.group(1)


def _log_file(tmp_path: Path, game: str = "uno-lite", seed: int = 3) -> Path:
    path = tmp_path / f"{game}-{seed}.json"
    path.write_text(get(game).selfplay(seed=seed).canonical_json(indent=1), encoding="utf-8")
    return path


def test_create_from_a_log_then_show_export_and_import_round_trip(cli_runner, db, tmp_path):
    path = _log_file(tmp_path)
    code, out, err = cli_runner("study", "create", str(path), "--title", "A first look", "--db", db)
    assert code == 0, err
    study_id, token = _created(out)
    assert f"page: /s/{study_id}" in out and "unlisted" in out
    assert "shown this once only" in err and token not in err
    # the owner adds a note and a branch (as the viewer would)
    with Archive(db) as archive:
        studies = Studies(archive)
        study = studies.get(study_id).study
        move = study.moves("main", 4)[-1]
        branched, line = study.with_branch("main", 4, [move.event], title="what if")
        noted = branched.with_note(line, 5, comment="**Keep** it: see [the rules](https://example.org/r)",
                                   glyph="!?", highlights=[{"kind": "seat", "id": "P1"}])
        noted = noted.with_note("main", 2, comment="first line\nsecond line", glyph="??")
        assert studies.save(study_id, token, 1, noted) == 2
    code, out, err = cli_runner("study", "show", study_id, "--db", db)
    assert code == 0, err
    assert out.startswith("A first look\n")
    assert f"study {study_id}, revision 2 of 2, unlisted" in out
    assert "main: the game as played, steps 0-" in out
    assert f"b1 'what if': from main after step 4, first move {move.text};" in out
    assert "main step 2 ?? (blunder)\n    first line\n    second line\n" in out
    assert "b1 step 5 !? (interesting move)\n    Keep it: see the rules (https://example.org/r)\n" in out
    assert "(marks: seat P1)" in out and "**" not in out
    code, old, _ = cli_runner("study", "show", study_id, "--rev", "1", "--db", db)
    assert code == 0 and "revision 1 of 2" in old and "0 notes" in old and "1 line:" in old
    # JSON export -> import -> export: the same study
    code, exported, err = cli_runner("study", "export", study_id, "--db", db)
    assert code == 0, err
    assert json.loads(exported) == noted.to_json() and exported == noted.export_json()
    saved = tmp_path / "study.json"
    saved.write_text(exported, encoding="utf-8")
    code, out, err = cli_runner("study", "import", str(saved), "--db", db)
    assert code == 0, err
    copy_id, copy_token = _created(out)
    assert copy_id != study_id and copy_token != token
    code, again, _ = cli_runner("study", "export", copy_id, "--db", db)
    assert code == 0 and again == exported
    # an old revision exports as it was, and -o writes a file
    target = tmp_path / "first.json"
    code, out, err = cli_runner("study", "export", study_id, "--rev", "1", "--format", "json", "-o", str(target),
                                "--db", db)
    assert code == 0 and out == "" and "revision 1 written" in err
    assert StudyGame.load(target.read_text(encoding="utf-8")).to_json()["notes"] == []
    # show --json has the lines, the notes as text and the study
    code, out, _ = cli_runner("study", "show", study_id, "--json", "--db", db)
    shown = json.loads(out)
    assert shown["rev"] == shown["latest"] == 2 and [r["rev"] for r in shown["revisions"]] == [1, 2]
    assert [(l["id"], l["parent"], l["at"], l["first"]) for l in shown["lines"]] == [
        ("main", None, 0, ""), ("b1", "main", 4, move.text)]
    assert shown["study"] == noted.to_json()
    assert [n["text"] for n in shown["notes"]] == ["first line\nsecond line",
                                                  "Keep it: see the rules (https://example.org/r)"]


def test_create_from_a_code_or_an_archived_game(cli_runner, db, tmp_path):
    log = get("coup").selfplay(seed=5)
    code, out, err = cli_runner("study", "create", encode(log), "--listed", "--json", "--db", db)
    assert code == 0, err
    created = json.loads(out)
    assert created["listed"] is True and created["game"] == "coup" and created["url"] == f"/s/{created['id']}"
    path = tmp_path / "coup.json"
    path.write_text(log.canonical_json(), encoding="utf-8")
    code, out, err = cli_runner("ingest", str(path), "--json", "--db", db)
    public_id = json.loads(out)["results"][0]["public_id"]
    code, out, err = cli_runner("study", "create", public_id, "--db", db)
    assert code == 0, err
    study_id, _ = _created(out)
    code, out, _ = cli_runner("study", "show", study_id, "--db", db)
    assert f"from: game {public_id}" in out and "(untitled)" in out
    code, out, _ = cli_runner("study", "show", created["id"], "--db", db)
    assert "from: code " in out and ", listed;" in out
    code, out, _ = cli_runner("study", "list", "--json", "--db", db)
    assert [s["id"] for s in json.loads(out)["items"]] == [created["id"]]
    code, out, _ = cli_runner("study", "list", "--game", "uno-lite", "--db", db)
    assert code == 0 and out.startswith("0 listed studies")


def test_hostile_text_is_shown_as_plain_text(cli_runner, db, tmp_path):
    title = "\x1b[2J\x1b]0;pwned\x07<script>alert(1)</script> \u202eevil"
    study = StudyGame.new(get("uno-lite").selfplay(seed=2), title=title)
    study = study.with_note("main", 1, comment="\x1b[31mred\x1b[0m <b>bold</b> " + "x" * 100_000)
    path = tmp_path / "hostile.json"
    path.write_text(study.export_json(), encoding="utf-8")
    code, out, err = cli_runner("study", "import", str(path), "--db", db)
    assert code == 0, err
    study_id, _ = _created(out)
    code, out, _ = cli_runner("study", "show", study_id, "--db", db)
    assert code == 0
    assert "\x1b" not in out and "\x07" not in out
    assert "<script>alert(1)</script>" in out and "<b>bold</b>" in out and "x" * 100_000 in out


@pytest.mark.parametrize("args, message", [
    (("study", "show", "nosuchid"), "no study with id 'nosuchid'"),
    (("study", "export", "nosuchid"), "no study with id 'nosuchid'"),
    (("study", "create", "missing/file.json"), "missing/file.json: no such file"),
    (("study", "create", "!!nope!!"), "is not a file, an archived game's id or a replay code"),
    (("study", "import", "missing.json"), "missing.json: no such file"),
])
def test_errors_are_one_line_without_a_traceback(cli_runner, db, args, message):
    code, out, err = cli_runner(*args, "--db", db)
    assert code == 2 and message in err and "Traceback" not in err + out


def test_bad_files_and_formats_are_refused_with_their_reason(cli_runner, db, tmp_path):
    two = tmp_path / "two.jsonl"
    two.write_text("\n".join(get("uno-lite").selfplay(seed=s).canonical_json() for s in (1, 2)) + "\n")
    code, _, err = cli_runner("study", "create", str(two), "--db", db)
    assert code == 2 and "holds 2 games; a study is of one game" in err
    broken = tmp_path / "broken.json"
    study = json.loads(StudyGame.new(get("uno-lite").selfplay(seed=1)).export_json())
    study["notes"] = [{"line": "main", "step": 1, "glyph": "?!?"}]
    broken.write_text(json.dumps(study))
    code, _, err = cli_runner("study", "import", str(broken), "--db", db)
    assert code == 2 and "notes.0.glyph" in err and "Traceback" not in err
    branch = dict(study, notes=[], branches=[{"id": "b1", "parent": "main", "at": 1,
                                               "moves": [{"type": "nonsense"}]}])
    broken.write_text(json.dumps(branch))
    code, _, err = cli_runner("study", "import", str(broken), "--db", db)
    assert code == 2 and "branch 'b1'" in err
    code, out, _ = cli_runner("study", "create", str(_log_file(tmp_path)), "--db", db)
    study_id, _ = _created(out)
    code, _, err = cli_runner("study", "export", study_id, "--format", "nosuch", "--db", db)
    assert code == 2 and "a uno-lite study exports as json" in err and "not 'nosuch'" in err
    code, _, err = cli_runner("study", "show", study_id, "--rev", "3", "--db", db)
    assert code == 2 and f"study {study_id} has revisions 1-1, not 3" in err
    code, _, err = cli_runner("study", "create", str(_log_file(tmp_path)), "--title", "t" * 500, "--db", db)
    assert code == 2 and "title" in err and "200" in err


def test_the_archive_option_names_the_database(cli_runner, db, tmp_path, monkeypatch):
    path = _log_file(tmp_path)
    code, out, err = cli_runner("study", "create", str(path), "--archive", db)
    assert code == 0, err
    study_id, _ = _created(out)
    monkeypatch.setenv("GAME_REPLAY_DB", db)
    code, out, _ = cli_runner("study", "show", study_id)
    assert code == 0 and f"study {study_id}, revision 1 of 1" in out
