def test_help_lists_the_commands(cli_runner):
    code, out, _ = cli_runner("--help")
    assert code == 0
    for command in ("validate", "replay", "selfplay", "schema"):
        assert command in out


def test_missing_file_is_a_message_not_a_traceback(cli_runner):
    code, out, err = cli_runner("validate", "/no/such/file.json")
    assert code == 2
    assert "no such file" in err
    assert "Traceback" not in out + err


# -- games come from the registry ---------------------------------------------------------------

import os  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TOY = '''
from replay.games.base import GameModule

class Toy(GameModule):
    name, title, major = "toy-game", "Toy Game", 1

GAME = Toy()
'''


def installed_toy(folder: Path) -> dict[str, str]:
    """A toy game registered through the entry-point group, as another distribution would."""
    info = folder / "toy_games-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-games\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[game_replay.games]\ntoy-game = toy_game:GAME\n")
    (folder / "toy_game.py").write_text(TOY)
    return dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), str(folder)]))


def help_text(env: dict[str, str], *args: str) -> str:
    done = subprocess.run([sys.executable, "-m", "viewer.cli", *args, "--help"], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    return " ".join(done.stdout.split())


def test_game_choices_come_from_the_registry(tmp_path):
    env = installed_toy(tmp_path)
    for command in (("selfplay",), ("schema",)):
        assert "toy-game" in help_text(env, *command), command


def test_the_help_lists_every_game_or_none(tmp_path):
    """The top help names the games from the registry (a plugin's too), or names none."""
    from replay.games import get, names

    text = help_text(installed_toy(tmp_path))
    titles = [get(name).title for name in names()]
    named = [title for title in titles if title.lower() in text.lower()]
    assert named == [] or "Toy Game" in text, f"the help names {named} but not the plugin's game"
