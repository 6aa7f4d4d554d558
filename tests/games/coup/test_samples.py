"""Every Coup sample gives what its table in sample_logs/README.md promises; the generator is deterministic."""

from __future__ import annotations

import filecmp
import os
import shutil
import subprocess
import sys

import pytest

from replay.games.coup.engine import FINDING_KINDS
from replay.log import read_path
from tests.conftest import SAMPLE_LOGS

COUP = SAMPLE_LOGS / "coup"


def promises() -> dict[str, tuple[str, str, tuple[str, ...]]]:
    rows, in_table = {}, False
    for line in (SAMPLE_LOGS / "README.md").read_text(encoding="utf-8").splitlines():
        if not line.startswith("|"):
            in_table = False
            continue
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if cells[:2] == ["coup file", "end"]:
            assert cells == ["coup file", "end", "winner", "findings", "notes"]
            in_table = True
            continue
        if in_table and not set(line) <= set("|-: "):
            file, end, winner, findings, _notes = cells
            kinds = () if findings == "none" else tuple(k.strip() for k in findings.split(","))
            assert set(kinds) <= set(FINDING_KINDS), line
            rows[file.strip("`")] = (end, winner, kinds)
    return rows


PROMISES = promises()


def test_every_coup_file_has_a_row_and_every_row_a_file():
    files = {str(p.relative_to(SAMPLE_LOGS)) for p in COUP.rglob("*") if p.suffix in (".json", ".log")}
    assert files == set(PROMISES)
    assert {f.split("/")[1] for f in files} == {"selfplay", "root", "broken"}


@pytest.mark.parametrize("source", sorted(PROMISES))
def test_each_coup_sample_gives_what_the_readme_promises(source):
    [entry] = read_path(str(SAMPLE_LOGS / source))
    assert entry.error is None, entry.error
    replay = entry.log.replay()
    winner = ",".join(replay.winners) or "—"
    assert (replay.end_reason, winner, tuple(f.kind for f in replay.findings)) == PROMISES[source]
    if source.startswith("coup/broken/") and replay.findings[0].fatal:
        assert not replay.checked


def test_the_samples_cover_every_fatal_kind_and_seat_counts():
    broken = {PROMISES[s][2][0] for s in PROMISES if s.startswith("coup/broken/")}
    assert {k for k, fatal in FINDING_KINDS.items() if fatal} <= broken
    seats = {len(read_path(str(SAMPLE_LOGS / s))[0].log.seat_order) for s in PROMISES if "/selfplay/" in s}
    assert seats == {2, 3, 5}


def test_make_coup_samples_regenerates_the_same_bytes(tmp_path):
    copy = tmp_path / "coup"
    shutil.copytree(COUP, copy, ignore=shutil.ignore_patterns("__pycache__"))
    # the copy imports this checkout's code, not whatever copy of the project is installed
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SAMPLE_LOGS.parent), os.environ.get("PYTHONPATH", "")])}
    result = subprocess.run([sys.executable, str(copy / "make_coup_samples.py")], capture_output=True, text=True,
                            timeout=120, cwd=SAMPLE_LOGS.parent, env=env)
    assert result.returncode == 0, result.stderr
    for path in COUP.rglob("*.json"):
        assert filecmp.cmp(path, copy / path.relative_to(COUP), shallow=False), path
