"""Issue 24, items 3 and 5, in the archive: a file the reader refuses is quarantined and the walk
(or the watch) goes on; a text log of several games stores each, and its bytes come back whole.

Before the fix a CoupBots Root log with ``COINS|1|²`` raised ValueError out of the reader:
``ingest DIR`` stopped and stored 0 of 3 files (two of them good), and ``ingest --watch`` died.
"""

from __future__ import annotations

from pathlib import Path

from archive import Archive
from replay.games.floating_bridge.bots import play_game
from tests.conftest import SAMPLE_LOGS

ROOT_LOG = (SAMPLE_LOGS / "coup" / "root" / "refusal-and-kick.log").read_text("utf-8")
DEAL = "Sent to player 1: DECK|D|C\nSent to player 2: DECK|E|E\nSent to ALL players: TURN|1\n"
CRASHERS = {"separators.log": DEAL + "Player 1: ACT|1|I\nSent to ALL players: |\nPlayer 2: |\n"
                                     "Sent to ALL players: COINS|1|²\n",
            "digits.log": DEAL + "Sent to ALL players: COINS|1|" + "9" * 5000 + "\n"}


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "a-good.json").write_text(play_game(seed=41).canonical_json(), encoding="utf-8")
    (folder / "b-bad.log").write_text(CRASHERS["separators.log"], encoding="utf-8")
    (folder / "c-good.log").write_text(ROOT_LOG, encoding="utf-8")
    return folder


def test_ingest_quarantines_the_bad_file_and_stores_the_good_ones(cli_runner, db_url, tmp_path):
    folder = _folder(tmp_path)
    (folder / "d-digits.log").write_text(CRASHERS["digits.log"], encoding="utf-8")
    code, out, err = cli_runner("ingest", str(folder), "--db", db_url)
    assert code == 1, err  # something was quarantined
    assert out.strip().splitlines()[-1] == "stored 1, already there 0, stored with findings 1, quarantined 2, rejected 0"
    assert "b-bad.log: quarantined: line 7: COINS needs a player id and a count: 'COINS|1|²'" in out
    assert "Traceback" not in out + err
    with Archive(db_url) as archive:
        assert archive.count() == 2
        held = {Path(q.source).name: q for q in archive.quarantine().items}
        assert sorted(held) == ["b-bad.log", "d-digits.log"]
        assert held["b-bad.log"].raw == (folder / "b-bad.log").read_bytes()
        assert len(held["d-digits.log"].error) < 200


def test_the_watcher_goes_on_after_a_bad_file(cli_runner, tmp_path):
    db = f"sqlite:///{tmp_path / 'w.db'}"
    folder = _folder(tmp_path)
    code, out, err = cli_runner("ingest", "--watch", str(folder), "--interval", "0.05", "--polls", "4", "--db", db)
    assert code == 1, err
    assert out.strip().splitlines()[-1] == "stored 1, already there 0, stored with findings 1, quarantined 1, rejected 0"
    assert "b-bad.log: quarantined: line 7: COINS needs a player id" in err


def test_a_file_of_several_root_logs_stores_each_game_and_keeps_its_bytes(db_url, tmp_path):
    """With EXIT the second game was dropped; without it both became one invented game."""
    bad = ROOT_LOG.replace("DECK|A|B", "DECK|A|Q")
    data = (ROOT_LOG + bad + ROOT_LOG.replace("00:39:5", "00:49:5")).encode()
    path = tmp_path / "three.log"
    path.write_bytes(data)
    with Archive(db_url) as archive:
        results = archive.ingest_paths([str(path)])
        assert [(r.source, r.status) for r in results] == [
            (f"{path}:1", "stored_with_findings"), (f"{path}:76", "quarantined"), (f"{path}:150", "stored_with_findings")]
        assert "line 88: 'Q' is not a Coup card" in results[1].error
        assert archive.count() == 2
        assert dict(archive.iter_inputs()) == {str(path): data}  # the receipt gives the file back byte for byte
        [held] = archive.quarantine().items
        assert held.raw == b"\n".join(data.split(b"\n")[75:149])  # the bad game's lines alone
        for result in (results[0], results[2]):
            game = archive.get(result.public_id)
            assert game.log.seat_order == ("1", "2", "3") and game.replay().winners == ["1"]
        again = archive.ingest_paths([str(path)])
        assert [r.status for r in again] == ["duplicate", "quarantined", "duplicate"]
