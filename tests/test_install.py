"""Installing the project: a wheel (``pip install .``) and an editable install both ship or find the
sample logs, and ``game-replay serve`` fills a first archive from them when run from any folder.

The install tests build the wheel from a copy of the sources (so nothing is written into the
checkout), install it into a fresh venv without its dependencies, and let that venv see the
dependencies of the environment running the tests through a ``.pth`` file written after the
install. No network: ``--no-index --no-build-isolation`` (setuptools comes from the ``test`` extra).
"""

from __future__ import annotations

import os
import re
import shutil
import site
import subprocess
import sys
import sysconfig
import time
import tomllib
from pathlib import Path

import pytest

from replay.log import log_suffixes

from tests.conftest import ROOT

SOURCES = ("setup.py", "pyproject.toml", "README.md", "replay", "archive", "viewer", "sample_logs")
PIP = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"]


def _run(args: list, **kwargs) -> subprocess.CompletedProcess:
    result = subprocess.run([str(a) for a in args], capture_output=True, text=True, timeout=120, **kwargs)
    assert result.returncode == 0, f"{args}\n{result.stdout}\n{result.stderr}"
    return result


def _env() -> dict[str, str]:
    """The environment without anything that would point Python at the checkout."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env["PYTHONNOUSERSITE"] = "1"
    return env


@pytest.fixture(scope="module")
def source_copy(tmp_path_factory) -> Path:
    """The project's sources copied out of the checkout (builds write egg-info next to them)."""
    copy = tmp_path_factory.mktemp("src") / "game-replay"
    copy.mkdir()
    skip = shutil.ignore_patterns("__pycache__", "*.egg-info", "*.pyc")
    for name in SOURCES:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, copy / name, ignore=skip)
        else:
            shutil.copy2(source, copy / name)
    return copy


def _venv(path: Path) -> tuple[Path, Path]:
    """A bare venv (no pip, no packages): its python and its site-packages."""
    _run([sys.executable, "-m", "venv", "--without-pip", path])
    python = path / ("Scripts" if os.name == "nt" else "bin") / "python"
    purelib = _run([python, "-I", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                   env=_env()).stdout.strip()
    return python, Path(purelib)


def _see_our_dependencies(site_packages: Path) -> None:
    """Let the venv import the test environment's packages (flask, SQLAlchemy, ...), after its own."""
    outer = [p for p in site.getsitepackages() if Path(p).is_dir()]
    (site_packages / "zz_test_dependencies.pth").write_text("\n".join(outer) + "\n", encoding="utf-8")


def _serve_first_lines(script: Path, db: str, cwd: Path) -> str:
    """Start ``game-replay serve`` on a free port, read its output up to the URL line, stop it."""
    process = subprocess.Popen([str(script), "serve", "--db", db, "--port", "0"], cwd=cwd, env=_env(),
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lines: list[str] = []
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = process.stdout.readline()
            if not line:
                break
            lines.append(line)
            if "http://" in line:
                break
    finally:
        process.terminate()
        process.wait(timeout=10)
    return "".join(lines)


def _where(python: Path, cwd: Path) -> dict[str, str]:
    code = ("import json, viewer, viewer.serve as s; "
            "print(json.dumps({'viewer': viewer.__file__, 'samples': str(s.find_sample_logs())}))")
    import json

    return json.loads(_run([python, "-I", "-c", code], cwd=cwd, env=_env()).stdout)


def _bin(python: Path, name: str) -> Path:
    return python.parent / (name + (".exe" if os.name == "nt" else ""))


def test_a_wheel_ships_the_sample_logs_and_serve_fills_an_archive_from_them(source_copy, tmp_path):
    dist = tmp_path / "dist"
    _run(PIP + ["wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", dist, source_copy], env=_env())
    wheel = next(dist.glob("game_replay-*.whl"))
    import zipfile

    names = zipfile.ZipFile(wheel).namelist()
    for sample in ("viewer/sample_logs/README.md", "viewer/sample_logs/legacy/worked-example.txt",
                   "viewer/sample_logs/batch/kopi-bridge-export.jsonl",
                   "viewer/sample_logs/batch/hall7-bridge-finals.json.zst"):
        assert sample in names
    assert len([n for n in names if n.startswith("viewer/sample_logs/selfplay/")]) >= 30
    # every log and every README of every game's samples (each game's own file endings too)
    logs = [p.relative_to(source_copy / "sample_logs").as_posix() for p in (source_copy / "sample_logs").rglob("*")
            if p.is_file() and (p.suffix in log_suffixes() or p.name == "README.md")]
    assert len(logs) >= 140 and not [n for n in logs if f"viewer/sample_logs/{n}" not in names]

    python, site_packages = _venv(tmp_path / "venv")
    _run(PIP + ["--python", python, "install", "--no-index", "--no-deps", wheel], env=_env())
    _see_our_dependencies(site_packages)  # after the install, so pip sees no other game-replay

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = _where(python, elsewhere)
    assert Path(where["viewer"]).is_relative_to(site_packages)  # the wheel's code, not the checkout's
    assert where["samples"] == str(site_packages / "viewer" / "sample_logs")

    # the pictures' fonts ship in the wheel, and a picture with a CJK name draws from them there
    fonts = {n.rsplit("/", 1)[1] for n in names if n.startswith("replay/picture/fonts/")}
    assert {"DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "NotoSansCJKsc-Regular.otf", "coverage.json",
            "LICENSE-DejaVu.txt", "LICENSE-NotoSansCJK.txt"} <= fonts
    code = ("import replay.picture.fonts as f, replay.games as g; from replay.picture import picture; "
            "game = g.get('uno-lite'); png = picture(game.judge(game.selfplay(seed=1)), names={'P1': '李小龍'}); "
            "print(len(png), f.__file__)")
    size, fonts_module = _run([python, "-I", "-c", code], cwd=elsewhere, env=_env()).stdout.split()
    assert int(size) > 10_000 and Path(fonts_module).is_relative_to(site_packages)

    out = _serve_first_lines(_bin(python, "game-replay"), f"sqlite:///{tmp_path / 'first.db'}", elsewhere)
    filled = re.search(r"filled the empty archive with (\d+) games from (\S+)", out)
    assert filled, out
    assert Path(filled.group(2)) == site_packages / "viewer" / "sample_logs"
    listed = re.search(r"\((\d+) archived games\)", out)
    assert listed and int(listed.group(1)) == int(filled.group(1)) >= 50, out
    assert "Traceback" not in out


def test_an_editable_install_finds_the_sample_logs_in_the_checkout(source_copy, tmp_path):
    python, site_packages = _venv(tmp_path / "venv")
    _see_our_dependencies(site_packages)  # setuptools for the build, without build isolation
    _run(PIP + ["--python", python, "install", "--no-index", "--no-deps", "--no-build-isolation", "-e", source_copy],
         env=_env())
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = _where(python, elsewhere)
    assert Path(where["viewer"]) == source_copy / "viewer" / "__init__.py"
    assert where["samples"] == str(source_copy / "sample_logs")
    out = _serve_first_lines(_bin(python, "game-replay"), f"sqlite:///{tmp_path / 'first.db'}", elsewhere)
    assert re.search(rf"filled the empty archive with \d+ games from {re.escape(str(source_copy / 'sample_logs'))}",
                     out), out


def test_the_build_finds_every_package_folder():
    """setup.py finds the packages (a new game's folders need no build edit) and adds the
    sample logs' mapped package."""
    import runpy

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert "packages" not in config  # setup.py finds them
    folders = {".".join(p.parent.relative_to(ROOT).parts)
               for top in ("replay", "archive", "viewer") for p in (ROOT / top).rglob("__init__.py")}
    found = set(runpy.run_path(str(ROOT / "setup.py"))["packages"]())
    assert folders <= found, sorted(folders - found)
    assert config["package-dir"]["viewer.sample_logs"] == "sample_logs"
    assert found - folders == {"viewer.sample_logs"}


def test_an_archive_that_stays_empty_says_why_and_where_samples_were_looked_for(tmp_path, monkeypatch):
    from archive import Archive
    from viewer import serve

    archive = Archive(f"sqlite:///{tmp_path / 'empty.db'}")
    try:
        nowhere = (tmp_path / "pkg" / "sample_logs", tmp_path / "sample_logs")
        monkeypatch.setattr(serve, "SAMPLE_LOG_PLACES", nowhere)
        [line] = serve.first_start(archive)
        assert line.startswith("the archive is empty: no sample logs found")
        assert str(nowhere[0]) in line and str(nowhere[1]) in line and "game-replay ingest" in line
        [line] = serve.first_start(archive, samples=False)
        assert "empty" in line and "--no-samples" in line
        assert archive.count() == 0

        # a folder that holds the samples' layout but no readable game: said so, nothing stored
        fake = tmp_path / "sample_logs"
        (fake / "selfplay").mkdir(parents=True)
        (fake / "README.md").write_text("no games\n", encoding="utf-8")
        (fake / "selfplay" / "x.json").write_text("{not json", encoding="utf-8")
        [line] = serve.first_start(archive)
        assert line == (f"the archive is empty: the sample logs in {fake} gave no games; "
                        "add games with `game-replay ingest PATH`")
        assert archive.count() == 0

        monkeypatch.undo()
        [line] = serve.first_start(archive)
        assert re.fullmatch(r"filled the empty archive with \d+ games from .*sample_logs", line)
        assert serve.first_start(archive) == []  # not empty any more: nothing to say
    finally:
        archive.close()
