"""sample_logs/party-cards/: every file gives what its row in sample_logs/README.md promises."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from replay.games.party_cards import GAME
from replay.log import read_path

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = ROOT / "sample_logs"
HEADER = ["party-cards log", "end", "winners", "rounds", "findings", "notes"]


def read_rows() -> list[tuple[str, str, list[str], int, list[str]]]:
    rows, in_table = [], False
    for line in (SAMPLES / "README.md").read_text(encoding="utf-8").splitlines():
        if not line.startswith("|"):
            in_table = False
            continue
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if cells[:1] == HEADER[:1]:
            assert cells == HEADER
            in_table = True
            continue
        if not in_table or set(line) <= set("|-: "):
            continue
        file, end, winners, rounds, findings, _ = cells
        rows.append((file.strip("`"), end, [] if winners == "—" else winners.split(", "), int(rounds),
                     [] if findings == "none" else findings.split(", ")))
    return rows


ROWS = read_rows()


def test_every_file_has_one_row():
    files = sorted(str(p.relative_to(SAMPLES)) for p in (SAMPLES / "party-cards").rglob("*.json"))
    assert sorted(r[0] for r in ROWS) == files and len(files) >= 15


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r[0])
def test_each_sample_gives_what_the_readme_promises(row):
    file, end, winners, rounds, kinds = row
    [entry] = read_path(str(SAMPLES / file))
    assert entry.error is None
    replay = GAME.judge(entry.log)
    assert (replay.end_reason, replay.winners, replay.rounds, [f.kind for f in replay.findings]) == \
        (end, winners, rounds, kinds)
    assert bool(kinds) == file.startswith("party-cards/broken/")


def test_the_samples_cover_what_the_issue_asks_for():
    broken = {k for r in ROWS if r[0].startswith("party-cards/broken/") for k in r[4]}
    assert broken == {kind for kind, fatal in GAME.finding_kinds.items() if fatal}
    assert "not_enough_players" in {r[1] for r in ROWS if r[3] == 0}
    hostile = (SAMPLES / "party-cards" / "hostile-texts.json").read_text(encoding="utf-8")
    for text in ("<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "\u202e", "🐐"):
        assert text in hostile
    [entry] = read_path(str(SAMPLES / "party-cards" / "swaps-and-a-leave.json"))
    assert {e.type for e in entry.log.events} >= {"swap", "leave", "chat"}


def test_make_samples_regenerates_the_same_bytes(tmp_path):
    copy = tmp_path / "party-cards"
    shutil.copytree(SAMPLES / "party-cards", copy, ignore=shutil.ignore_patterns("__pycache__"))
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    result = subprocess.run([sys.executable, str(copy / "make_samples.py")], capture_output=True, text=True,
                            timeout=120, env=env, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    before = {p.relative_to(SAMPLES / "party-cards"): p.read_bytes() for p in (SAMPLES / "party-cards").rglob("*.json")}
    after = {p.relative_to(copy): p.read_bytes() for p in copy.rglob("*.json")}
    assert before == after
    table = [line for line in (SAMPLES / "README.md").read_text(encoding="utf-8").splitlines()
             if line.startswith("| `party-cards/")]
    assert result.stdout.splitlines() == table
