"""Every UNO Lite sample gives what its table in sample_logs/README.md promises, and the
generator gives the same bytes again."""

from __future__ import annotations

import filecmp
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from replay.games.uno_lite.engine import FINDING_KINDS
from replay.log import read_path
from tests.conftest import SAMPLE_LOGS

UNO = SAMPLE_LOGS / "uno-lite"
HEADER = ["uno-lite file", "end", "winner", "findings", "notes"]


def promises() -> dict[str, tuple[str, str, tuple[str, ...] | str]]:
    rows, in_table = {}, False
    for line in (SAMPLE_LOGS / "README.md").read_text(encoding="utf-8").splitlines():
        if not line.startswith("|"):
            in_table = False
            continue
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if cells[:2] == HEADER[:2]:
            assert cells == HEADER
            in_table = True
            continue
        if in_table and not set(line) <= set("|-: "):
            file, end, winner, findings, _notes = (cells + [""])[:5]
            if findings.startswith("rejected: "):
                rows[file.strip("`")] = (end, winner, findings[len("rejected: "):])
                continue
            kinds = () if findings == "none" else tuple(k.strip() for k in findings.split(","))
            assert set(kinds) <= set(FINDING_KINDS), line
            rows[file.strip("`")] = (end, winner, kinds)
    return rows


PROMISES = promises()


def entries() -> dict:
    out = {}
    for path in sorted(UNO.rglob("*")):
        if path.suffix in (".json", ".jsonl", ".zst"):
            for entry in read_path(str(path)):
                out[os.path.relpath(entry.source, SAMPLE_LOGS)] = entry
    return out


ENTRIES = entries()


def test_every_uno_game_has_a_row_and_every_row_a_game():
    assert set(ENTRIES) == set(PROMISES)


@pytest.mark.parametrize("source", sorted(PROMISES))
def test_each_uno_sample_gives_what_the_readme_promises(source):
    entry = ENTRIES[source]
    end, winner, findings = PROMISES[source]
    if isinstance(findings, str):
        assert end == "rejected" and entry.error is not None and str(entry.error) == findings
        return
    assert entry.error is None, entry.error
    replay = entry.log.replay()
    assert (replay.end_reason, ",".join(replay.winners) or "—", tuple(f.kind for f in replay.findings)) == \
        (end, winner, findings)
    if source.startswith("uno-lite/broken/") and replay.findings[0].fatal:
        assert not replay.checked


def test_the_samples_cover_what_the_issue_asks_for():
    broken = {PROMISES[s][2][0] for s in PROMISES if s.startswith("uno-lite/broken/") and PROMISES[s][0] != "rejected"}
    assert {k for k, fatal in FINDING_KINDS.items() if fatal} <= broken
    ends = {PROMISES[s][0] for s in PROMISES if "/selfplay/" in s}
    assert {"completed", "cancelled", "timeout"} <= ends
    suffixes = {Path(s.split(":")[0]).name.split(".", 1)[1] for s in PROMISES}
    assert {"json", "jsonl", "json.zst"} <= suffixes
    reshuffled = ENTRIES["uno-lite/selfplay/uno-reshuffle_32.json"].log.replay()
    assert reshuffled.reshuffles >= 1


def test_make_samples_regenerates_the_same_bytes(tmp_path):
    copy = tmp_path / "uno-lite"
    shutil.copytree(UNO, copy, ignore=shutil.ignore_patterns("__pycache__"))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SAMPLE_LOGS.parent), os.environ.get("PYTHONPATH", "")])}
    result = subprocess.run([sys.executable, str(copy / "make_samples.py")], capture_output=True, text=True,
                            timeout=120, cwd=SAMPLE_LOGS.parent, env=env)
    assert result.returncode == 0, result.stderr
    for path in UNO.rglob("*"):
        if path.is_file() and path.suffix in (".json", ".jsonl", ".zst"):
            assert filecmp.cmp(path, copy / path.relative_to(UNO), shallow=False), path
