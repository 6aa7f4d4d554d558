"""A CoupBots Root's log file is read as the game it describes, through replay.log.read_logs."""

from __future__ import annotations

import pytest

from replay.games.coup import root_log
from replay.log import LogFormatError, read_logs
from tests.conftest import SAMPLE_LOGS

SAMPLE = SAMPLE_LOGS / "coup" / "root" / "refusal-and-kick.log"


def read_one(text: str, name: str = "g.log"):
    [entry] = read_logs(text.encode(), name)
    return entry


def test_the_hand_written_root_log_replays_to_its_game():
    [entry] = read_logs(SAMPLE.read_bytes(), str(SAMPLE))
    assert entry.error is None, entry.error
    log = entry.log
    assert log.format == "coup/1" and log.game_id is None and log.seat_order == ("1", "2", "3")
    assert {s: log.hands[s] for s in log.seat_order} == {"1": [0, 3], "2": [4, 4], "3": [1, 2]}
    kinds = [e.type for e in log.events if e.type != "coins"]
    assert kinds == ["action", "challenge", "reveal", "lose", "replace", "illegal", "action", "block", "illegal",
                     "leave", "action", "action", "challenge", "lose", "action", "lose"]
    illegal = [e for e in log.events if e.type == "illegal"]
    assert [(e.seat, e.message) for e in illegal] == [("2", "ACT|2|C|1"), ("3", "ACT|3|Q")]
    replace = next(e for e in log.events if e.type == "replace")
    assert (replace.seat, replace.card) == ("1", 1)  # the DECK after the SHOW: C A, so A was drawn
    replay = log.replay()
    assert [(f.kind, f.seat) for f in replay.findings] == [("refused_message", "2"), ("refused_message", "3")]
    assert replay.end_reason == "completed" and replay.winners == ["1"] and replay.eliminated == ["3", "2"]
    assert replay.coins == {"1": 1, "2": 2, "3": 2} and log.end.winner is None
    assert str(log.started_at) == "2026-11-24 00:39:50.100000+00:00" and log.events[-1].t == 9600


LINES = [
    "Sent to player 1: DECK|D|C", "Sent to player 2: DECK E E", "Sent to ALL players: TURN|1",
    "Player 1: ACT|1|A|2",
]


def test_both_prefixes_both_separators_and_noise():
    text = "\n".join([
        "2026-11-24 00:39:57.823 | INFO | root:send - Sent to player 1: DECK D C",
        "x | y | Sent to player 2: DECK|E|E",
        "Sent to ALL players: TURN 1", "New Turn: Player 1", "Player 1:", "🏆 Player 5 wins!",
        "Player 2: OK", "state dump {'1': {'coins': 2}}", "Player 1: ACT 1 T",
    ])
    entry = read_one(text)
    assert entry.error is None and [e.type for e in entry.log.events] == ["action"]


def test_kick_and_coins_cross_checked():
    text = "\n".join(LINES[:3] + ["Player 1: ACT|1|I", "Sent to ALL players: COINS|1|4", "Sent to ALL players: END|2"])
    replay = read_one(text).log.replay()
    assert [(f.kind, f.seat) for f in replay.findings] == [("coins_mismatch", "1")]
    assert replay.winners == ["1"] and replay.end_reason == "completed"


def test_a_root_that_breaks_the_rules_is_stored_and_flagged():
    entry = read_one("\n".join(LINES))  # assassination with 2 coins
    assert entry.error is None
    assert [f.kind for f in entry.log.replay().findings] == ["not_enough_coins"]


@pytest.mark.parametrize("bad, message", [
    ("Sent to player 1: DECK|D|Q", "line 5: 'Q' is not a Coup card (D, A, B, C, E or a character's name)"),
    ("Player 1: FOLD", "line 5: 'FOLD' is not a message of the CoupBots protocol"),
    ("Player 1: ACT|2|I", "line 5: player 1 sent a ACT for player 2"),
    ("Sent to ALL players: COINS|1|x", "line 5: COINS needs a player id and a count: 'COINS|1|x'"),
    ("Player 1: KEEP|D", "line 5: player 1 keeps cards, but was offered none (no CHOOSE before)"),
])
def test_a_line_that_cannot_be_read_names_its_number(bad, message):
    entry = read_one("\n".join(LINES[:3] + ["Player 2: OK", bad, "Player 2: OK"]))
    assert entry.log is None and str(entry.error) == message
    assert isinstance(entry.error, LogFormatError) and entry.error.source == "g.log"


def test_an_unreadable_message_the_root_refused_is_an_illegal_event():
    entry = read_one("\n".join(LINES[:3] + ["Player 1: FOLD now", "Sent to player 1: ILLEGAL", "Player 1: ACT 1 I"]))
    assert entry.error is None
    assert [(e.type, getattr(e, "message", None)) for e in entry.log.events] == [
        ("illegal", "FOLD now"), ("action", None)]


def test_looks_like_only_protocol_lines():
    assert root_log.looks_like("\n".join(LINES))
    assert not root_log.looks_like("Player hands: N: SA\nPlayer 1: hello there\nNew Turn: Player 1")
    assert read_one("just some text").error is not None
