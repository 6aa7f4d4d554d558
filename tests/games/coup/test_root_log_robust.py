"""Issue 24, items 3 and 5: a CoupBots Root's log is read whatever debugging output surrounds it,
a file of several Root logs is several games (like a JSON lines file), and a line the reader
cannot take is a refusal naming it, never a crash (through ``read_logs``, ``validate`` and
``replay``)."""

from __future__ import annotations

import pytest

from replay.games.coup import root_log
from replay.log import LogFormatError, read_logs
from tests.conftest import SAMPLE_LOGS

SAMPLE = (SAMPLE_LOGS / "coup" / "root" / "refusal-and-kick.log").read_text("utf-8")
#: the sample without its closing EXIT (and what the Root logs after it)
NO_EXIT = SAMPLE.split("\n2026:11:24 at 00:40:00:000")[0] + "\n"
DEAL = ["Sent to player 1: DECK|D|C", "Sent to player 2: DECK|E|E", "Sent to ALL players: TURN|1"]


def games_of(text: str, name: str = "g.log") -> list:
    return read_logs(text.encode(), name)


@pytest.mark.parametrize("noise", [4_990, 5_001, 20_000])
def test_any_amount_of_debugging_output_before_the_first_protocol_line(noise):
    """Over 5,000 lines of noise used to make the file "not JSON: Extra data"."""
    text = "".join(f"2026:11:24 at 00:39:49:000 | DEBUG | client.root:debug:1 | state {i}\n" for i in range(noise))
    [entry] = games_of(text + SAMPLE)
    assert entry.error is None, entry.error
    alone = games_of(SAMPLE)[0].log
    assert entry.log.events == alone.events and entry.log.meta["lines"] == noise + alone.meta["lines"]


@pytest.mark.parametrize("text, name", [(SAMPLE + SAMPLE, "with EXIT"), (NO_EXIT + NO_EXIT, "without EXIT"),
                                        (SAMPLE + NO_EXIT + SAMPLE, "mixed")])
def test_several_root_logs_in_one_file_are_several_games(text, name):
    """With EXIT the second game was dropped; without it both merged into one invented game."""
    entries = games_of(text, "many.log")
    alone = games_of(SAMPLE)[0].log
    assert len(entries) == text.count("Root starting") and all(e.ok for e in entries)
    assert entries[0].source == "many.log:1" and entries[1].source.startswith("many.log:")
    for entry in entries:
        assert entry.log.events == alone.events and entry.log.replay().winners == ["1"]
        [again] = read_logs(entry.raw, "part.log")  # a game's own lines read alone: the same game
        assert again.log.canonical_json() == entry.log.canonical_json()
    assert b"\n".join(e.raw for e in entries) == text.encode()  # the games' lines are the whole file


def test_lines_after_exit_that_hold_no_game_stay_with_the_game():
    text = SAMPLE + "Player 1: OK\nSent to ALL players: EXIT\nbye\n"
    [entry] = games_of(text)
    assert entry.ok and entry.source == "g.log" and entry.raw == text.encode()


@pytest.mark.parametrize("join", [["Player 4: HELLO", "Sent to player 4: ILLEGAL"],
                                  ["Player 3: READY", "Sent to player 3: ILLEGAL"]])
def test_a_player_refused_when_joining_mid_game_starts_no_game(join):
    """A HELLO or READY the Root refuses mid-game; a stranger's refused message is no event."""
    lines = SAMPLE.split("\n")
    at = next(i for i, line in enumerate(lines) if "Player 1: ACT|1|C|2" in line)
    lines[at:at] = join
    [entry] = games_of("\n".join(lines))
    assert entry.ok, entry.error
    assert entry.log.replay().winners == ["1"] and all(e.seat != "4" for e in entry.log.events)


def test_each_game_of_a_file_is_read_or_refused_on_its_own():
    bad = NO_EXIT.replace("DECK|A|B", "DECK|A|Q")
    entries = games_of(NO_EXIT + bad + NO_EXIT, "three.log")
    assert [e.ok for e in entries] == [True, False, True]
    assert entries[1].error.source == entries[1].source and "'Q' is not a Coup card" in str(entries[1].error)
    assert str(entries[1].error).startswith(f"line {NO_EXIT.count(chr(10)) + 14}:")  # the file's own line number
    with pytest.raises(LogFormatError, match="3 games in one Root log"):
        root_log.read(NO_EXIT + bad + NO_EXIT)


@pytest.mark.parametrize("line, message", [
    ("Player 1: |", None),
    ("Sent to ALL players: |", None),
    ("Player 1:  | | ", None),
    ("Sent to ALL players: COINS|1|²", "line 4: COINS needs a player id and a count: 'COINS|1|²'"),
    ("Sent to ALL players: COINS|1|" + "9" * 5000, "line 4: COINS needs a player id and a count: 'COINS|1|99999"),
])
def test_lines_that_crashed_the_reader(line, message):
    """Each raised IndexError or ValueError: a message of only separators is an empty message
    (ignored, like ``Player 1:``); a count that is not a few ASCII digits is a refusal."""
    [entry] = games_of("\n".join(DEAL + [line]))
    if message is None:
        assert entry.ok, entry.error
    else:
        assert isinstance(entry.error, LogFormatError) and str(entry.error).startswith(message)
        assert len(str(entry.error)) < 120


@pytest.mark.parametrize("command", ["validate", "replay"])
def test_cli_refuses_a_bad_root_log_and_reads_the_good_ones(cli_runner, tmp_path, command):
    """``replay`` and ``validate`` exited 70 (an internal error) on these lines."""
    bad = tmp_path / "bad.log"
    bad.write_text("\n".join(DEAL + ["Sent to ALL players: COINS|1|²"]), encoding="utf-8")
    many = tmp_path / "many.log"
    many.write_text(SAMPLE + SAMPLE, encoding="utf-8")
    code, out, err = cli_runner(command, str(bad), str(many))
    assert code == 2, (out, err)  # an input could not be read
    assert "COINS needs a player id and a count" in out + err and "Traceback" not in out + err
    assert f"{many}:1" in out + err and f"{many}:76" in out + err
