"""No input makes a reader raise anything but its own error (``LogFormatError``), and
``read_logs`` never raises for bad content: whatever a file holds, it is read or refused.

The fuzzing that found the CoupBots Root-log reader's crashes (issue 24: ``Player 1: |``,
``Sent to ALL players: |``, ``COINS|1|²``, a 5,000-digit count) kept as properties, over every
reader the game registry names (each game's ``readers`` for text logs, and the JSON and JSON
lines reading every game's log goes through), so that a game added later is fuzzed too.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay.games import get, names
from replay.games.coup import root_log
from replay.log import LogFormatError, parse_log, read_logs
from tests.conftest import SAMPLE_LOGS

FUZZ = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: every text reader the registry knows, as ``game:module``
TEXT_READERS = [(game, reader) for game in names() for reader in getattr(get(game), "readers", ())]


def refused_or_read(read, *args):
    """Call a reader: it gives a game or raises its own error, nothing else."""
    try:
        return read(*args)
    except LogFormatError as exc:
        assert str(exc)  # a refusal says why
        return None


def read_cleanly(data: bytes, name: str = "fuzz.log") -> list:
    """``read_logs`` on ``data``: never raises; each entry is a game or a ``LogFormatError``."""
    entries = read_logs(data, name)
    assert entries
    for entry in entries:
        assert (entry.log is None) != (entry.error is None)
        if entry.error is not None:
            assert isinstance(entry.error, LogFormatError) and str(entry.error)
    return entries


# --- Root-log lines ---------------------------------------------------------------------------

_PREFIXES = ["", "2026:11:24 at 00:39:57:823 | INFO     | client.root:_send_single:270 | ",
             "2026-11-24 00:39:57.823 | SUCCESS | root:receive - ", "x | ", "9999:99:99 at 99:99:99:999 | y | "]
_IDS = ["1", "2", "3", "9", "a.b", "0", "²", "", "1 2", "-"]
_FORMS = ["Player {}: ", "Sent to player {}: ", "Sent to all except player {}: ", "Sent to ALL players: "]
_FIELDS = ["", "|", " ", "||", "1", "2", "3", "²", "٣", "9" * 5000, "-1", "D", "C", "A", "B", "E", "Duke", "Q",
           "T", "I", "S", "X", "F", "ACT", "COINS", "DECK", "x" * 300, "\x00", "é", "🏆"]
_COMMANDS = sorted(root_log.COMMANDS) + ["FOLD", "act", "", "|", " | "]


@st.composite
def root_lines(draw) -> str:
    """A line as a Root logs one, with a command of the protocol (or not) and fields of any kind."""
    if draw(st.integers(0, 9)) == 0:
        return draw(st.text(max_size=40))  # noise, or a line of nothing in particular
    form = draw(st.sampled_from(_FORMS)).format(draw(st.sampled_from(_IDS)))
    fields = [draw(st.sampled_from(_COMMANDS))] + draw(st.lists(st.sampled_from(_FIELDS), max_size=4))
    separator = draw(st.sampled_from(["|", " ", " | ", "||"]))
    return draw(st.sampled_from(_PREFIXES)) + form + separator.join(fields)


_SAMPLE = (SAMPLE_LOGS / "coup" / "root" / "refusal-and-kick.log").read_text("utf-8").split("\n")


@FUZZ
@given(st.lists(root_lines(), min_size=1, max_size=30))
def test_root_log_lines_are_read_or_refused(lines):
    text = "\n".join(lines)
    refused_or_read(root_log.read, text, "fuzz.log")
    read_cleanly(text.encode())


@FUZZ
@given(st.lists(st.tuples(st.integers(0, len(_SAMPLE) - 1), st.sampled_from(["drop", "dup", "put"]), root_lines()),
                min_size=1, max_size=8))
def test_a_mangled_root_log_is_read_or_refused(edits):
    """A real game's lines with lines dropped, repeated or put in: a game (or games) or a refusal."""
    lines = list(_SAMPLE)
    for index, kind, line in edits:
        index %= len(lines)
        if kind == "drop":
            del lines[index]
        elif kind == "dup":
            lines.insert(index, lines[index])
        else:
            lines.insert(index, line)
    text = "\n".join(lines)
    read_cleanly(text.encode())
    for part in root_log.read_games(text, "fuzz.log"):
        assert (part.log is None) != (part.error is None)


@pytest.mark.parametrize("line", ["Player 1: |", "Sent to ALL players: |", "Sent to ALL players: COINS|1|²",
                                  "Sent to ALL players: COINS|1|" + "9" * 5000])
def test_the_lines_that_crashed_the_root_reader(line):
    """The fuzz's finds: each raised IndexError or ValueError in the reader."""
    text = "\n".join(["Sent to player 1: DECK|D|C", "Sent to player 2: DECK|E|E", line])
    refused_or_read(root_log.read, text, "g.log")
    [entry] = read_cleanly(text.encode(), "g.log")
    assert entry.error is None or len(str(entry.error)) < 200  # a 5,000-digit count is not echoed whole


# --- every text reader of the registry -----------------------------------------------------------

def _samples_for(reader) -> list[str]:
    texts = []
    for path in sorted(SAMPLE_LOGS.rglob("*")):
        if path.is_file() and path.suffix in (".txt", ".log", *reader.suffixes):
            text = path.read_text("utf-8", errors="replace")
            if reader.looks_like(text):
                texts.append(text)
    return texts


_PIECES = ["|", ":", " ", "²", "9" * 5000, "\x00", "\r", "\ufeff", "Player 1: ", "Sent to ALL players: ", "EXIT",
           "Player hands:", "Bidding:", "♠", "10", "wins trick", "DECK|D", "HELLO", "READY", "é" * 3]


@pytest.mark.parametrize("game, reader", TEXT_READERS, ids=[f"{g}:{r.name}" for g, r in TEXT_READERS])
@FUZZ
@given(data=st.data())
def test_every_text_reader_reads_or_refuses(game, reader, data):
    samples = _samples_for(reader)
    assert samples, f"no sample log in {SAMPLE_LOGS} that {reader.name} reads"
    lines = data.draw(st.sampled_from(samples)).split("\n")
    for _ in range(data.draw(st.integers(1, 6))):
        index = data.draw(st.integers(0, len(lines) - 1))
        kind = data.draw(st.sampled_from(["drop", "dup", "cut", "put"]))
        at = data.draw(st.integers(0, 60))
        if kind == "drop" and len(lines) > 1:
            del lines[index]
        elif kind == "dup":
            lines.insert(index, lines[index])
        elif kind == "cut":
            lines[index] = lines[index][:at]
        else:
            lines[index] = lines[index][:at] + data.draw(st.sampled_from(_PIECES)) + lines[index][at:]
    text = "\n".join(lines)
    refused_or_read(reader.read, text, "fuzz.txt")
    read_cleanly(text.encode(), "fuzz.txt")


# --- JSON and JSON lines, every game ----------------------------------------------------------------

_JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12),
                     lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                     max_leaves=8)


def _logs() -> list[dict]:
    return [get(game).selfplay(7).to_json_dict() for game in names()]


_BASES = _logs()


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, prefix + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node[:6]):
            yield from _paths(value, prefix + (index,))


@FUZZ
@given(st.sampled_from(range(len(_BASES))), st.data())
def test_every_games_json_log_is_read_or_refused(which, data):
    """A game's log with a value anywhere replaced by any JSON: parsed or refused, alone and as a line."""
    log = json.loads(json.dumps(_BASES[which]))
    for _ in range(data.draw(st.integers(1, 3))):
        paths = list(_paths(log))
        path = data.draw(st.sampled_from(paths[1:]))
        node = log
        for key in path[:-1]:
            node = node[key]
        if data.draw(st.booleans()):
            node[path[-1]] = data.draw(_JSON)
        else:
            del node[path[-1]]
    text = json.dumps(log, ensure_ascii=data.draw(st.booleans()))
    refused_or_read(parse_log, text, "fuzz.json")
    refused_or_read(parse_log, log, "fuzz.json")
    read_cleanly(text.encode(), "fuzz.json")
    read_cleanly((json.dumps(_BASES[0]) + "\n" + text + "\n").encode(), "fuzz.jsonl")


@FUZZ
@given(st.binary(max_size=300) | st.text(max_size=300).map(str.encode))
def test_any_bytes_are_read_or_refused(data):
    read_cleanly(data, "fuzz.bin")
