"""Every sample log gives exactly what sample_logs/README.md promises.

The test reads the README's tables (every table whose header starts ``| file | end |``), so the
list and the files cannot drift apart: a file without a row, a row without a file, or a game
whose end, contract, winner or findings differ from its row fails here.
"""

from __future__ import annotations

import filecmp
import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from replay.games.floating_bridge.cards import Seat
from replay.games.floating_bridge.engine import FINDING_KINDS
from replay.games import names
from replay.log import LogEntry, log_suffixes, read_path

from ..conftest import SAMPLE_LOGS

LOG_SUFFIXES = log_suffixes()
COLUMNS = ["file", "end", "contract", "winner", "findings", "notes"]
END_VALUES = {"completed", "passed_out", "cancelled", "timeout", "abandoned", "rejected"}


@dataclass(frozen=True)
class Promise:
    source: str  # below sample_logs/, "x.jsonl:N" for line N of a batch
    end: str
    contract: str | None
    winner: str | None
    findings: tuple[str, ...] | None  # None when the file is promised to be rejected
    error: str | None
    line: int  # README line, for messages


def _cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split(" | ")]


def read_promises(readme: Path) -> list[Promise]:
    promises: list[Promise] = []
    in_table = False
    for number, line in enumerate(readme.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.startswith("|"):
            in_table = False
            continue
        cells = _cells(line)
        if cells[:2] == ["file", "end"]:
            assert cells == COLUMNS, f"README line {number}: table columns must be {COLUMNS}"
            in_table = True
            continue
        if not in_table or set(line) <= set("|-: "):
            continue
        assert len(cells) == len(COLUMNS), f"README line {number}: {len(cells)} cells, expected {len(COLUMNS)}"
        file, end, contract, winner, findings, _notes = cells
        assert file.startswith("`") and file.endswith("`"), f"README line {number}: file in backticks"
        assert end in END_VALUES, f"README line {number}: unknown end {end!r}"
        error = None
        kinds: tuple[str, ...] | None
        if findings.startswith("rejected: "):
            assert end == "rejected", f"README line {number}: a rejected file has end 'rejected'"
            error, kinds = findings[len("rejected: "):], None
        else:
            kinds = () if findings == "none" else tuple(k.strip() for k in findings.split(","))
            unknown = [k for k in kinds if k not in FINDING_KINDS]
            assert not unknown, f"README line {number}: {unknown} are not finding kinds"
        promises.append(Promise(
            source=file.strip("`"), end=end,
            contract=None if contract == "—" else contract,
            winner=None if winner == "—" else winner,
            findings=kinds, error=error, line=number,
        ))
    return promises


#: the folders of the other games' samples, each checked by that game's own tests
OTHER_GAMES = tuple(name for name in names() if name != "floating-bridge")


def sample_files() -> list[Path]:
    return sorted(p for p in SAMPLE_LOGS.rglob("*")
                  if p.is_file() and p.suffix in LOG_SUFFIXES and not p.name.startswith(".")
                  and p.relative_to(SAMPLE_LOGS).parts[0] not in OTHER_GAMES)


def read_all() -> dict[str, LogEntry]:
    entries: dict[str, LogEntry] = {}
    for path in sample_files():
        for entry in read_path(str(path)):
            entries[os.path.relpath(entry.source, SAMPLE_LOGS)] = entry
    return entries


PROMISES = read_promises(SAMPLE_LOGS / "README.md")
ENTRIES = read_all()


def test_the_readme_lists_every_game_exactly_once():
    listed = Counter(p.source for p in PROMISES)
    assert [s for s, n in listed.items() if n > 1] == []
    assert sorted(set(ENTRIES) - set(listed)) == [], "games without a README row"
    assert sorted(set(listed) - set(ENTRIES)) == [], "README rows without a game"


@pytest.mark.parametrize("promise", PROMISES, ids=lambda p: p.source)
def test_each_sample_gives_what_the_readme_promises(promise: Promise):
    entry = ENTRIES[promise.source]
    if promise.error is not None:
        assert entry.error is not None, f"{promise.source} was read, but README line {promise.line} says rejected"
        assert str(entry.error) == promise.error
        return
    assert entry.error is None, f"{promise.source}: {entry.error}"
    replay = entry.log.replay()
    contract = None if replay.contract is None else f"{replay.contract} by {replay.declarer.name}"
    got = (replay.end_reason, contract, replay.result.winner, tuple(f.kind for f in replay.findings))
    assert got == (promise.end, promise.contract, promise.winner, promise.findings)


def test_the_samples_cover_what_the_issue_asks_for():
    games = {s: e for s, e in ENTRIES.items() if e.ok}
    selfplay = [e.log for s, e in games.items() if not s.startswith(("broken/", "legacy/"))]
    assert len(selfplay) >= 40
    assert {log.rules.preset for log in selfplay} == {"bridgebot", "all-tricks"}
    assert {log.meta["selfplay"]["bot"] for log in selfplay if "selfplay" in log.meta} >= {"greedy", "random"}
    ends = Counter(log.replay().end_reason for log in selfplay)
    assert ends["cancelled"] and ends["timeout"] and ends["passed_out"] >= 2 and ends["completed"] >= 30
    suffixes = {Path(s.split(":")[0]).name.split(".", 1)[1] for s in ENTRIES}
    assert {"json", "jsonl", "json.zst", "txt"} <= suffixes
    broken_kinds = {k for p in PROMISES if p.source.startswith("broken/") for k in (p.findings or ())}
    assert {"revoke", "card_not_in_hand", "out_of_turn", "wrong_trick_winner"} <= broken_kinds
    assert any(p.source.startswith("broken/truncated") and p.error and "truncated" in p.error for p in PROMISES)
    names = {pl.name for e in games.values() for pl in e.log.players.values()}
    assert "<script>alert(1)</script>" in names
    assert any(not name.isascii() for name in names if name)
    # every broken sample sits in broken/, every other sample is clean
    for p in PROMISES:
        if not p.source.startswith("broken/"):
            assert p.findings == () and p.error is None, p.source


def test_self_play_tables_name_their_bots_and_mix_in_people():
    """A bot's seat says which bot it is (``players.<seat>.bot``, what /stats counts per bot); as
    in a real group most tables also seat people, some are all bots; four names per table."""
    tables = Counter()
    for source, entry in ENTRIES.items():
        if not entry.ok or "selfplay" not in entry.log.meta:
            continue
        players = entry.log.players
        assert len({p.name for p in players.values()}) == len(players) == 4, source
        bots = {p.bot for p in players.values() if p.bot}
        people = [p for p in players.values() if not p.bot]
        assert all(p.id and p.id.startswith("tg:") for p in people), source
        bot = entry.log.meta["selfplay"]["bot"]
        if bot == "human-like":  # the passed-out games: four people
            assert not bots, source
        else:
            assert bots == {f"{bot}-1"}, source
        tables[(len(bots) > 0, len(people) > 0)] += 1
    assert tables[(True, True)] >= 20 and tables[(True, False)] >= 2 and tables[(False, True)] >= 2, tables


def test_validate_on_the_samples(cli_runner):
    code, out, err = cli_runner("validate", str(SAMPLE_LOGS), "-q")
    assert code == 2  # broken/ holds files that cannot be read
    assert "Traceback" not in out + err
    bridge_lines = [line for line in out.splitlines()
                    if os.path.relpath(line.split(": ", 1)[0], SAMPLE_LOGS).split(os.sep)[0] not in OTHER_GAMES]
    assert len(bridge_lines) == len(ENTRIES)
    assert len(out.splitlines()) > len(ENTRIES)  # the other games' samples are judged too
    clean = [str(SAMPLE_LOGS / d) for d in ("selfplay", "batch", "legacy")]
    code, out, _ = cli_runner("validate", *clean, "-q")
    assert code == 0, out
    code, out, _ = cli_runner("validate", str(SAMPLE_LOGS / "broken" / "revoke.json"))
    assert code == 1 and "revoke" in out


def test_the_script_tag_name_is_read_verbatim_for_the_pages_to_escape():
    log = ENTRIES["broken/script-player-name.json"].log
    assert log.players[Seat.N].name == "<script>alert(1)</script>"
    assert json.loads(log.canonical_json())["players"]["N"]["name"] == "<script>alert(1)</script>"


def test_make_samples_regenerates_the_same_bytes(tmp_path):
    """The generated part is deterministic: running the script again changes nothing."""
    copy = tmp_path / "sample_logs"
    shutil.copytree(SAMPLE_LOGS, copy, ignore=shutil.ignore_patterns("__pycache__"))
    # the copy imports this checkout's code, not whatever copy of the project is installed
    paths = [str(SAMPLE_LOGS.parent)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}
    result = subprocess.run([sys.executable, str(copy / "make_samples.py")], capture_output=True, text=True,
                            timeout=300, env=env)
    assert result.returncode == 0, result.stderr
    compare = filecmp.dircmp(SAMPLE_LOGS, copy, ignore=["__pycache__"])

    def differences(cmp: filecmp.dircmp, prefix: str = "") -> list[str]:
        out = [prefix + n for n in cmp.diff_files + cmp.left_only + cmp.right_only]
        for name, sub in cmp.subdirs.items():
            out += differences(sub, prefix + name + "/")
        return out

    # dircmp compares shallowly (size and time); compare the bytes of every file
    changed = differences(compare)
    for path in sample_files():
        other = copy / path.relative_to(SAMPLE_LOGS)
        if not other.exists() or other.read_bytes() != path.read_bytes():
            changed.append(str(path.relative_to(SAMPLE_LOGS)))
    readme = (copy / "README.md").read_bytes() == (SAMPLE_LOGS / "README.md").read_bytes()
    assert sorted(set(changed)) == [] and readme
