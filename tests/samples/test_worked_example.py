"""The legacy spec's worked example, written as a BridgeBot text log, replays to the game the
spec describes (shared/spec/bridgebot-legacy.md, code
0DzHzIMzzN-y-mfJFZNDnrCzxwvbKMXWIlqeTGVgmABOYHdyjPohiaELQRScpkUsut)."""

from __future__ import annotations

import json

import pytest

from replay.games.floating_bridge.cards import Card, Seat
from replay.games.floating_bridge.formats.bridgebot_text import parse_text_log
from replay.log import read_path

from ..conftest import SAMPLE_LOGS

PATH = SAMPLE_LOGS / "legacy" / "worked-example.txt"


@pytest.fixture(scope="module")
def replay():
    log = parse_text_log(PATH.read_text(encoding="utf-8"))
    return log.replay()


def test_auction_and_contract(replay):
    assert replay.log.first_bidder == Seat.N
    calls = [(s.name, str(c)) for s, c in replay.calls]
    assert calls == [
        ("N", "1S"), ("E", "pass"), ("S", "2H"), ("W", "pass"), ("N", "2S"), ("E", "3H"),
        ("S", "pass"), ("W", "pass"), ("N", "3S"),
        # the three closing passes the text log does not write
        ("E", "pass"), ("S", "pass"), ("W", "pass"),
    ]
    assert str(replay.contract) == "3S" and replay.declarer == Seat.N
    assert str(replay.partner_card) == "SK" and replay.partner_seat == Seat.S


def test_play(replay):
    assert len(replay.trick_winners) == 13
    north = [str(e.card) for e in replay.log.events if e.type == "play" and e.seat == Seat.N]
    assert north == "H7 CJ C7 DA D2 C5 S2 S6 C4 SA SQ SJ ST".split()
    plays = [(e.seat.name, str(e.card)) for e in replay.log.events if e.type == "play"]
    assert plays[:4] == [("E", "H3"), ("S", "HA"), ("W", "H2"), ("N", "H7")]
    assert replay.trick_winners[0] == Seat.S
    assert plays[4] == ("S", "C2")  # S leads trick 2 with C2


def test_result_and_cleanliness(replay):
    assert replay.findings == []
    assert replay.end_reason == "completed" and replay.log.end.reason == "completed"
    assert replay.result.winner == "declarer"
    assert (replay.result.declarer_tricks, replay.result.needed) == (9, 9)
    assert replay.rules.name == "bridgebot"
    # every hand is 13 cards: played cards first; nothing was left unplayed
    assert all(len(h) == 13 for h in replay.log.hands.by_seat())
    assert replay.final.hands == (0, 0, 0, 0)


def test_the_hands_are_the_code_hands():
    """The letters of the code give each seat's 13 cards; the text log holds the same sets."""
    code = "0DzHzIMzzN-y-mfJFZNDnrCzxwvbKMXWIlqeTGVgmABOYHdyjPohiaELQRScpkUsut"
    letters = code.split("-")[2][1:]

    def value(ch: str) -> int:
        return ord(ch) - 65 if ch.isupper() else ord(ch) - 97 + 26

    by_code = [sorted(Card(value(ch)) for ch in letters[13 * i:13 * (i + 1)]) for i in range(4)]
    log = parse_text_log(PATH.read_text(encoding="utf-8"))
    assert [sorted(h) for h in log.hands.by_seat()] == by_code
    # and each seat played its cards in the code's order
    for seat in Seat:
        played = [e.card for e in log.events if e.type == "play" and e.seat == seat]
        assert played == [Card(value(ch)) for ch in letters[13 * seat:13 * (seat + 1)]]


def test_the_cli_reads_the_text_log_directly(cli_runner):
    code, out, err = cli_runner("replay", str(PATH), "--json")
    assert code == 0, err
    row = json.loads(out)
    assert (row["contract"], row["declarer"], row["partner_card"], row["partner_seat"]) == ("3S", "N", "SK", "S")
    assert row["trick_winners"] == ["S", "E", "E", "N", "S", "E", "N", "S", "W", "N", "N", "N", "N"]
    assert row["result"]["winner"] == "declarer" and row["findings"] == []
    [entry] = read_path(str(PATH))
    assert entry.ok and entry.log.meta["source_format"] == "bridgebot-text"


def test_the_text_log_and_the_legacy_code_are_the_same_game(replay):
    """Cross-check with the codec's own legacy decoder (written separately from this reader)."""
    from replay.codec import decode

    coded = decode("0DzHzIMzzN-y-mfJFZNDnrCzxwvbKMXWIlqeTGVgmABOYHdyjPohiaELQRScpkUsut").replay()
    plays = lambda r: [(e.seat, e.card) for e in r.log.events if e.type == "play"]  # noqa: E731
    assert plays(coded) == plays(replay)
    assert coded.calls == replay.calls and coded.partner_card == replay.partner_card
    assert coded.trick_winners == replay.trick_winners and coded.result == replay.result
