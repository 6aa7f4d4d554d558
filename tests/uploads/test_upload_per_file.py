"""Issue 24, items 3 and 5, on upload: every file gets its own answer, every stored game its
delete token, whatever the other files hold.

Before the fix a CoupBots Root log with ``Sent to ALL players: |`` or ``COINS|1|²`` made the
reader raise: a single upload answered 500, and a multipart upload of [good, bad] answered 500
after storing the good game, whose delete token was never given (an orphan no one can delete).
"""

from __future__ import annotations

import io

import pytest

from tests.conftest import SAMPLE_LOGS

from .conftest import form_token, table_counts
from .logs import as_bytes, clean_log

ROOT_LOG = (SAMPLE_LOGS / "coup" / "root" / "refusal-and-kick.log").read_bytes()
DEAL = b"Sent to player 1: DECK|D|C\nSent to player 2: DECK|E|E\nSent to ALL players: TURN|1\n"
BAD_ROOT_LOGS = {
    "separators.log": DEAL + b"Player 1: ACT|1|I\nSent to ALL players: |\nSent to ALL players: COINS|1|\xc2\xb2\n",
    "digits.log": DEAL + b"Sent to ALL players: COINS|1|" + b"9" * 5000 + b"\n",
}


def upload(client, *files: tuple[str, bytes], path: str = "/api/logs", **headers):
    data = {"files": [(io.BytesIO(content), name) for name, content in files]}
    return client.post(path, data=data, content_type="multipart/form-data", headers=headers)


@pytest.mark.parametrize("name", sorted(BAD_ROOT_LOGS))
def test_a_bad_root_log_alone_is_a_422_with_its_reason(client, archive, name):
    before = table_counts(archive)
    response = client.post(f"/api/logs?name={name}", data=BAD_ROOT_LOGS[name], content_type="text/plain")
    assert response.status_code == 422, response.data[:300]
    [result] = response.json["files"]
    assert result["status"] == "refused" and "COINS needs a player id and a count" in result["reason"]
    assert len(result["reason"]) < 200 and table_counts(archive) == before


def test_good_and_bad_files_each_get_an_answer_and_each_stored_game_its_token(client, archive):
    good = as_bytes(clean_log(11))
    response = upload(client, ("good.json", good), ("bad.log", BAD_ROOT_LOGS["separators.log"]),
                      ("root.log", ROOT_LOG))
    assert response.status_code == 201, response.data[:300]
    files = {f["file"]: f for f in response.json["files"]}
    assert [f["file"] for f in response.json["files"]] == ["good.json", "bad.log", "root.log"]
    assert files["bad.log"]["status"] == "refused" and "line 6: COINS needs" in files["bad.log"]["reason"]
    assert files["good.json"]["status"] == "stored"
    assert files["root.log"]["status"] == "stored_with_findings"
    assert response.json["stored"] == 2 == archive.count()
    for name in ("good.json", "root.log"):
        [game] = files[name]["games"]
        assert game["delete_token"] and game["manage_url"].endswith(game["delete_token"])
        assert client.delete(f"/api/uploads/{game['token']}",
                             headers={"X-Delete-Token": game["delete_token"]}).status_code == 200
    assert archive.count() == 0  # nothing orphaned: every stored game could be deleted by its uploader


def test_the_form_shows_each_file_and_each_stored_games_manage_link(client, archive):
    token = form_token(client)
    response = upload(client, ("good.json", as_bytes(clean_log(12))), ("bad.log", BAD_ROOT_LOGS["digits.log"]),
                      path="/upload", **{"X-CSRF-Token": token})
    assert response.status_code == 201, response.data[:300]
    page = response.get_data(as_text=True)
    assert "bad.log" in page and "COINS needs a player id and a count" in page
    assert page.count("delete or make public (shown once)") == 1 and archive.count() == 1


def test_a_file_of_several_root_logs_answers_per_game(client, archive):
    """A Root log of two games was one game (or lost the second); one of them bad, the other
    is stored with its token and the bad one is named by its first line."""
    bad = ROOT_LOG.replace(b"DECK|A|B", b"DECK|A|Q")
    response = client.post("/api/logs?name=two.log", data=ROOT_LOG + bad, content_type="text/plain")
    assert response.status_code == 201, response.data[:300]
    [result] = response.json["files"]
    assert result["status"] == "stored_with_findings"
    assert result["reason"] == "1 of 2 games could not be read and were not stored"
    stored, refused = result["games"]
    assert stored["source"] == "two.log:1" and stored["delete_token"]
    assert refused["status"] == "refused" and refused["source"] == "two.log:76"
    assert "line 88: 'Q' is not a Coup card" in refused["reason"]
    both = client.post("/api/logs?name=twice.log", data=ROOT_LOG + ROOT_LOG.replace(b"00:39:5", b"00:49:5"),
                       content_type="text/plain")
    assert both.status_code == 201 and [g["status"] for g in both.json["files"][0]["games"]] == [
        "duplicate", "stored_with_findings"]
    assert archive.count() == 2
