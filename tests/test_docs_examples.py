"""The examples in README.md and docs/*.md are run, and what they show must be what they print.

Console examples (review 14, item 12) are the fenced blocks marked ```` ```console ````:

- A line starting with ``$ `` is a command (a command ending in ``\\`` goes on to the next
  line). The lines after it, up to the next ``$ `` line or the end of the block, are its
  expected output: standard output and standard error together, as a terminal shows them.
  A command with no lines after it must print nothing. Blank lines at the end are ignored.
  A block without ``$ `` lines holds no commands (e.g. the install lines at the top of the
  README).
- An output line that is exactly ``...`` stands for any number of lines (none included), and a
  line ending in ``...`` for one line that starts with the text before the ``...``: use them for
  output that legitimately varies or is too long to show. Every other line must match exactly
  (trailing spaces aside).
- ``game-replay`` is this checkout's ``python -m viewer.cli``. ``echo $?`` prints the exit status
  of the command before it. Each document's commands run in order, in a fresh temporary folder
  of their own holding a copy of ``sample_logs/`` and ``docs/``, with no ``GAME_REPLAY_*``
  settings: the archive is the default, ``var/game-replay.db`` in that folder.
- Some commands cannot run in a test, and are skipped (reported as skipped, with the reason):
  commands that run until stopped (``game-replay serve``, ``game-replay ingest --watch``), and
  commands of other programs (``curl``, ``gunicorn``, ``export``, ``python bench/...``): they
  need a running server, a deployment or a benchmark's minutes. A skipped ``export`` of a
  setting is not applied, so the commands after it use the test's SQLite archive.

Two examples that call the web server are checked through the app instead: the ``/api/games``
query in docs/api.md (against an archive filled from ``sample_logs/``) and the oEmbed answer in
docs/deploy.md. There, ``...`` may also stand inside a line, for anything.

Figures measured by the benches live in the README's Figures table; the other documents quote
them from there (``test_bench_figures_in_docs_are_the_readmes``).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
ANY_LINES = "..."


@dataclass
class Example:
    document: Path
    line: int  # 1-based line of the ``$ `` command in the document
    command: str
    expected: list[str] = field(default_factory=list)

    @property
    def id(self) -> str:
        return f"{self.document.relative_to(ROOT)}:{self.line}"


def console_examples(document: Path) -> list[Example]:
    """Every ``$ `` command of the document's ```console blocks, with its expected output."""
    examples: list[Example] = []
    in_block = False
    current: Example | None = None
    continued = False
    for number, line in enumerate(document.read_text(encoding="utf-8").splitlines(), 1):
        if not in_block:
            in_block = line.strip() == "```console"
            current, continued = None, False
            continue
        if line.strip() == "```":
            in_block = False
            continue
        if continued and current is not None:
            current.command = current.command[:-1] + "\n" + line
            continued = line.endswith("\\")
        elif line.startswith("$ "):
            current = Example(document, number, line[2:])
            examples.append(current)
            continued = line.endswith("\\")
        elif current is not None:
            current.expected.append(line)
    for example in examples:
        while example.expected and not example.expected[-1].strip():
            example.expected.pop()
    return examples


def skip_reason(command: str) -> str | None:
    """Why a command cannot run in a test, or None (the rule in the module's docstring)."""
    words = shlex.split(command, comments=True)
    if not words:
        return None
    program = words[0]
    if "=" in program and program.split("=")[0].isidentifier():  # VAR=value program ...
        program = next((w for w in words if "=" not in w), program)
    if program == "game-replay":
        if len(words) > 1 and words[1] == "serve":
            return "game-replay serve runs until stopped"
        if "--watch" in words:
            return "game-replay ingest --watch runs until stopped"
        return None
    if program == "echo" and words[1:] == ["$?"]:
        return None
    if program == "export":
        return "export sets a deployment's setting; the commands after it use the test's SQLite archive"
    return f"{program} is not game-replay: it needs a running server, a deployment or a benchmark"


def line_matches(expected: str, actual: str) -> bool:
    if expected.endswith(ANY_LINES):
        return actual.startswith(expected[:-len(ANY_LINES)])
    return expected.rstrip() == actual.rstrip()


def output_matches(expected: list[str], actual: list[str]) -> bool:
    """Line by line; a line that is exactly ``...`` matches any number of lines, a line ending
    in ``...`` one line that starts with the text before it."""
    if not expected:
        return not actual
    if expected[0].strip() == ANY_LINES:
        return any(output_matches(expected[1:], actual[i:]) for i in range(len(actual) + 1))
    return bool(actual) and line_matches(expected[0], actual[0]) and output_matches(expected[1:], actual[1:])


SHELL_PRELUDE = 'game-replay() { "$GAME_REPLAY_PYTHON" -m viewer.cli "$@"; }\n'


class DocumentRun:
    """Runs one document's runnable commands in order, once, in a folder of its own."""

    def __init__(self, document: Path, folder: Path):
        self.folder = folder
        shutil.copytree(ROOT / "sample_logs", folder / "sample_logs")
        shutil.copytree(ROOT / "docs", folder / "docs")
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("GAME_REPLAY_")}
        self.env.update(PYTHONPATH=str(ROOT), GAME_REPLAY_PYTHON=sys.executable, COLUMNS="100",
                        NO_COLOR="1", TERM="dumb")
        self.results: dict[int, tuple[list[str], int]] = {}
        status = 0
        for example in console_examples(document):
            if skip_reason(example.command) is not None:
                continue
            if example.command.strip() == "echo $?":
                self.results[example.line] = ([str(status)], 0)
                continue
            done = subprocess.run(["bash", "-c", SHELL_PRELUDE + example.command], cwd=folder, env=self.env,
                                  stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True, timeout=300)
            status = done.returncode
            self.results[example.line] = (done.stdout.splitlines(), status)


ALL_EXAMPLES = [example for document in DOCUMENTS for example in console_examples(document)]


@pytest.fixture(scope="module")
def document_runs(tmp_path_factory):
    runs: dict[Path, DocumentRun] = {}

    def get(document: Path) -> DocumentRun:
        if document not in runs:
            runs[document] = DocumentRun(document, tmp_path_factory.mktemp(document.stem))
        return runs[document]

    return get


RUNNABLE = [e for e in ALL_EXAMPLES if skip_reason(e.command) is None]
#: The examples that are shown but not run, each for the reason ``skip_reason`` gives: a
#: server that runs until stopped, another program, a deployment's setting. Listed here so that
#: a new example that cannot run is a decision, not an accident.
NOT_RUN = {
    "README.md": ["game-replay ingest --watch"],
    "docs/deploy.md": ["export GAME_REPLAY_DB", "GAME_REPLAY_PROXY_FIX=1 gunicorn", "curl", "curl", "curl"],
    "docs/log-format.md": [],
}


def test_the_examples_not_run_are_the_listed_ones():
    not_run: dict[str, list[str]] = {}
    for e in ALL_EXAMPLES:
        if skip_reason(e.command) is not None:
            not_run.setdefault(e.id.split(":")[0], []).append(e.command)
    for document, commands in not_run.items():
        expected = NOT_RUN.get(document, [])
        assert len(commands) == len(expected) and all(c.startswith(p) for c, p in zip(commands, expected)), (
            document, commands)


@pytest.mark.parametrize("example", RUNNABLE, ids=[e.id for e in RUNNABLE])
def test_console_example(example: Example, document_runs):
    actual, status = document_runs(example.document).results[example.line]
    shown = "\n".join(example.expected)
    printed = "\n".join(actual)
    assert output_matches(example.expected, actual), (
        f"{example.id}: $ {example.command}\n--- the document shows:\n{shown}\n"
        f"--- the command printed (exit {status}):\n{printed}")


def test_the_examples_are_found():
    """The parser sees the examples (a broken parser must not pass every document vacuously)."""
    ids = {e.id.split(":")[0]: 0 for e in ALL_EXAMPLES}
    for e in ALL_EXAMPLES:
        ids[e.id.split(":")[0]] += 1
    assert ids.get("README.md", 0) >= 8
    assert ids.get("docs/log-format.md", 0) >= 3
    runnable = [e for e in ALL_EXAMPLES if skip_reason(e.command) is None]
    assert len(runnable) >= 10
    assert any(e.expected == [] for e in runnable)  # "prints nothing" is checked too


def test_the_matcher_and_the_skip_rule():
    assert output_matches(["a", "...", "z"], ["a", "b", "c", "z"])
    assert output_matches(["a", "...", "z"], ["a", "z"])
    assert not output_matches(["a", "...", "z"], ["a", "b"])
    assert not output_matches([], ["something"])
    assert not output_matches(["a"], ["a", "b"])
    assert output_matches(['{"a": 1, ...'], ['{"a": 1, "b": 2}'])
    assert not output_matches(['{"a": 1, ...'], ['{"a": 2, "b": 2}'])
    assert skip_reason("game-replay serve --port 0") and skip_reason("game-replay ingest --watch logs/")
    assert skip_reason("curl -s http://127.0.0.1:8000/") and skip_reason("GAME_REPLAY_PROXY_FIX=1 gunicorn x")
    assert skip_reason("game-replay validate x.json   # a comment") is None
    assert skip_reason("echo $?") is None


# -- examples that talk to the web server, checked through the app -----------------------------

def _pattern(shown: str) -> re.Pattern:
    """``shown`` as a regex: any run of whitespace matches any whitespace, ``...`` anything."""
    parts = []
    for piece in re.split(r"(\.\.\.|\s+)", shown.strip()):
        if piece == ANY_LINES:
            parts.append(".*?")
        elif piece.isspace():
            parts.append(r"\s*")
        elif piece:
            parts.append(re.escape(piece))
    return re.compile("".join(parts), re.S)


def _shown_after(text: str, position: int) -> str:
    """The output lines after the line holding ``position``: up to a blank line, ``$`` or a fence."""
    lines = []
    for line in text[text.index("\n", position) + 1:].splitlines():
        if not line.strip() or line.startswith("$ ") or line.startswith("```"):
            break
        lines.append(line)
    return "\n".join(lines)


@pytest.fixture(scope="module")
def sample_app(tmp_path_factory):
    from viewer.app import create_app, get_archive
    from viewer.serve import fill_if_empty

    folder = tmp_path_factory.mktemp("sample-archive")
    app = create_app({"TESTING": True, "DB": f"sqlite:///{folder / 'archive.db'}"})
    with app.app_context():
        assert fill_if_empty(get_archive(), ROOT / "sample_logs") > 0
    return app


def test_api_md_query_examples_are_true_against_the_sample_archive(sample_app):
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    found = list(re.finditer(r"^\$ curl -s '(http://localhost:8000)(/api/[^']*)'", text, re.M))
    assert found, "docs/api.md shows no /api/ query to check"
    client = sample_app.test_client()
    for match in found:
        response = client.get(match.group(2))
        actual = json.dumps(response.get_json(), ensure_ascii=False)
        shown = _shown_after(text, match.start())
        assert _pattern(shown).fullmatch(actual), f"{match.group(2)}\n--- shown:\n{shown}\n--- actual:\n{actual}"


def test_deploy_md_oembed_example_is_what_the_app_answers():
    from viewer.app import create_app

    text = (ROOT / "docs" / "deploy.md").read_text(encoding="utf-8")
    match = re.search(r"^\$ curl -s ((?:.*\\\n)*.*/oembed\?.*)$", text, re.M)
    assert match, "docs/deploy.md shows no oEmbed request"
    words = shlex.split(match.group(1).replace("\\\n", " "))
    headers = dict(w.split(": ", 1) for prev, w in zip(words, words[1:]) if prev == "-H")
    url = words[-1]
    assert url.startswith("http://127.0.0.1:8000/oembed?")
    app = create_app({"TESTING": True, "DB": "sqlite://", "PROXY_FIX": 1})
    response = app.test_client().get(url.removeprefix("http://127.0.0.1:8000"), headers=headers)
    assert response.status_code == 200, response.get_data(as_text=True)
    actual = json.dumps(response.get_json(), ensure_ascii=False)
    shown = _shown_after(text, match.end())
    assert _pattern(shown).fullmatch(actual), f"--- shown:\n{shown}\n--- actual:\n{actual}"


# -- bench figures: measured once, quoted from the README ---------------------------------------

FIGURE = re.compile(r"\d[\d,]*(?:\.\d+)? ?(?:req/s|ms|games/s|code pages/s)\b")


def test_bench_figures_in_docs_are_the_readmes():
    """A speed figure in docs/*.md must be one of the README's Figures table (measured, dated)."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme[readme.index("## Figures"):readme.index("\n## ", readme.index("## Figures") + 1)]
    quoted = {f.replace(" ", "") for f in FIGURE.findall(table)}
    stale = []
    for document in sorted((ROOT / "docs").glob("*.md")):
        for number, line in enumerate(document.read_text(encoding="utf-8").splitlines(), 1):
            for figure in FIGURE.findall(line):
                if figure.replace(" ", "") not in quoted:
                    stale.append(f"{document.name}:{number}: {figure}")
    assert not stale, "figures not in the README's Figures table:\n" + "\n".join(stale)
