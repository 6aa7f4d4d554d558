"""A plugin game's own study format (``GameModule.study_formats``) through ``game-replay study``:
Nim, given a format of its own in a subprocess, imports, shows and exports a study file."""

from __future__ import annotations

import json
from pathlib import Path


# -- a game's own study format (GameModule.study_formats), through a real plugin ------------------

STUDY_NIM = '''
"""Nim with a study format of its own: the game's log on the first line, a note a line."""

import json

from replay.games.base import StudyFormat
from replay.study import StudyError
from replay_nim import Nim

MARK = "NIMSTUDY "


def write(study):
    data = study.to_json()
    lines = [MARK + json.dumps(data["log"], sort_keys=True)]
    for note in data["notes"]:
        lines.append(f"{note['line']} {note['step']} {note['glyph'] or '-'} {json.dumps(note['comment'])}")
    return "\\n".join(lines) + "\\n"


def read(text):
    first, *rest = text.splitlines()
    if not first.startswith(MARK):
        raise StudyError("a Nim study file starts with NIMSTUDY")
    notes = []
    for line in rest:
        where, step, glyph, comment = line.split(" ", 3)
        notes.append({"line": where, "step": int(step), "glyph": None if glyph == "-" else glyph,
                      "comment": json.loads(comment)})
    return {"format": "study/1", "title": "a Nim study", "log": json.loads(first[len(MARK):]), "notes": notes}


class StudyNim(Nim):
    study_formats = (StudyFormat("nimstudy", "Nim study", ".nimstudy", "text/plain", write, read,
                                 lambda text: text.startswith(MARK)),)


GAME = StudyNim()
'''

SESSION = """
import json
import sys

from click.testing import CliRunner

from replay.games import get
from replay.study import StudyGame
from viewer.cli import cli

folder, db = sys.argv[1], sys.argv[2]
game = get("nim")
study = StudyGame.new(game.selfplay(seed=2, bots=("greedy", "random")))
study = study.with_note("main", 1, comment="a *good* take", glyph="!")
(fmt,) = game.study_formats
text = fmt.write(study)
open(folder + "/game.nimstudy", "w").write(text)
open(folder + "/unnamed.txt", "w").write(text)
out = {"original": text}
for name, args in json.loads(sys.argv[3]):
    ids = {"{id}": out.get("import", {}).get("id"), "{other}": out.get("content", {}).get("id")}
    args = [ids.get(a) or a for a in args]
    result = CliRunner().invoke(cli, [*args, "--db", db])
    out[name] = {"code": result.exit_code, "stdout": result.stdout, "stderr": result.stderr}
    if name in ("import", "content") and result.exit_code == 0:
        out[name]["id"] = result.stdout.split()[1]
print(json.dumps(out))
"""

STEPS = [
    ("import", ["study", "import", "game.nimstudy"]),
    ("export", ["study", "export", "{id}", "--format", "nimstudy"]),
    ("show", ["study", "show", "{id}"]),
    ("content", ["study", "create", "unnamed.txt", "--title", "told by content"]),
    ("again", ["study", "export", "{other}", "--format", "NIMSTUDY"]),
    ("wrong", ["study", "export", "{other}", "--format", "pgn"]),
]


def test_a_games_study_format_imports_and_exports(tmp_path):
    """A plugin game whose ``study_formats`` has a format: a file of it is told by its suffix
    (or, under another name, by its content), imports as a study and exports back the same.
    The plugin is installed in a subprocess of its own (this session's registry keeps the
    built-in games), where the commands run in-process one after another."""
    import os
    import shutil
    import subprocess
    import sys

    here = Path(__file__).resolve().parent
    root = here.parents[2]
    plugin = tmp_path / "plugin"
    plugin.mkdir()
    shutil.copytree(here / "replay_nim", plugin / "replay_nim")
    (plugin / "study_nim.py").write_text(STUDY_NIM)
    info = plugin / "game_replay_study_nim-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: game-replay-study-nim\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[game_replay.games]\nnim = study_nim:GAME\n")
    env = {k: v for k, v in os.environ.items() if k not in ("GAME_REPLAY_DB", "GAME_REPLAY_SALT")}
    env["PYTHONPATH"] = os.pathsep.join([str(root), str(plugin)])
    db = f"sqlite:///{tmp_path / 'archive.db'}"
    ran = subprocess.run([sys.executable, "-c", SESSION, str(tmp_path), db, json.dumps(STEPS)], capture_output=True,
                         text=True, cwd=tmp_path, env=env, timeout=300)
    assert ran.returncode == 0, ran.stderr
    out = json.loads(ran.stdout)
    assert all(out[name]["code"] == 0 for name in ("import", "export", "show", "content", "again")), out
    assert out["import"]["stdout"].startswith(f"study {out['import']['id']} created (revision 1, unlisted): a Nim study")
    assert out["export"]["stdout"] == out["original"]
    assert "main step 1 ! (good move)\n    a good take" in out["show"]["stdout"]
    assert out["content"]["stdout"].startswith(f"study {out['content']['id']} created (revision 1, unlisted): "
                                               "told by content")
    assert out["again"]["stdout"] == out["original"]
    assert out["wrong"]["code"] != 0 and "a nim study exports as json, nimstudy, not 'pgn'" in out["wrong"]["stderr"]
