"""A test-only encoder of the original BridgeBot replay codes, written from the spec
(``shared/spec/bridgebot-legacy.md``), to check the decoder against. The project never
writes legacy codes itself."""

from __future__ import annotations

from replay.games.floating_bridge.cards import PASS_VALUE
from replay.games.floating_bridge.log import GameLog

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def letter(value: int) -> str:
    """A..Z for 0-25, a..z for 26-51."""
    return LETTERS[value]


def legacy_encode(log: GameLog) -> str:
    calls = [int(e.bid) for e in log.events if e.type == "bid"]
    last_bid = max(i for i, c in enumerate(calls) if c != PASS_VALUE)
    call_letters = "".join("z" if c == PASS_VALUE else letter(c) for c in calls[: last_bid + 1])
    partner = next(int(e.card) for e in log.events if e.type == "partner")
    plays = [(int(e.seat), int(e.card)) for e in log.events if e.type == "play"]
    assert len(plays) % 4 == 0, "legacy codes hold whole tricks only"
    tricks = len(plays) // 4
    rows = []
    for seat, hand in enumerate(log.hands.by_seat()):
        played = [card for s, card in plays if s == seat]
        unplayed = sorted(int(c) for c in hand if int(c) not in played)
        rows.append("".join(letter(c) for c in played + unplayed))
    return (f"{int(log.first_bidder)}{call_letters}-{letter(partner)}-"
            f"{letter(26 + tricks - 1)}{''.join(rows)}")
