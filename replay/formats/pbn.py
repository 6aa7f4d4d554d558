"""PBN (Portable Bridge Notation 2.1) export of floating bridge games.

``to_pbn(log)`` writes one game: the fifteen mandatory tags (Event, Site, Date, Board, West,
North, East, South, Dealer, Vulnerable, Deal, Scoring, Declarer, Contract, Result), the
Auction and Play sections, and custom tags for what PBN has no words for: ``PartnerCard``,
``PartnerSeat``, ``Rules`` and ``EndReason``. ``docs/exports.md`` says what PBN cannot express
(the floating partnership above all: ``Result`` counts the declarer's side, declarer plus the
partner card's holder, not North-South or East-West).

>>> from replay.bots import play_game
>>> text = to_pbn(play_game(seed=7))
>>> '[Deal "' in text and '[PartnerCard "' in text and '[Play "' in text
True
"""

from __future__ import annotations

import re
from typing import Iterable

from ..cards import PASS_VALUE, RANK_CHARS, SEATS, Call, Seat
from ..log import GameLog

_SUIT_ORDER = (3, 2, 1, 0)  # spades, hearts, diamonds, clubs
_UNSAFE = re.compile(r"[\x00-\x1f\x7f]")


def _quote(value: object) -> str:
    """A PBN tag value: backslash and double quote escaped, control characters dropped."""
    text = _UNSAFE.sub(" ", "" if value is None else str(value))
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _tag(name: str, value: object) -> str:
    return f"[{name} {_quote(value)}]"


def pbn_hand(cards: Iterable[int]) -> str:
    """``AK93.QT2.8.J7654``: spades, hearts, diamonds, clubs, high to low."""
    by_suit: list[list[int]] = [[], [], [], []]
    for card in cards:
        by_suit[card // 13].append(card % 13)
    return ".".join("".join(RANK_CHARS[r] for r in sorted(by_suit[s], reverse=True)) for s in _SUIT_ORDER)


def pbn_call(call: int) -> str:
    return "Pass" if call == PASS_VALUE else str(Call(call))


def to_pbn(log: GameLog, board: int = 1) -> str:
    """One game as PBN 2.1 text (ends with a newline)."""
    replay = log.replay()
    date = log.started_at.strftime("%Y.%m.%d") if log.started_at else "????.??.??"
    names = {seat: (log.player_name(seat) or "") for seat in SEATS}
    first = log.first_bidder
    deal = f"{first.name}:" + " ".join(
        pbn_hand(log.hands.by_seat()[(first + i) & 3]) for i in range(4))
    lines = [
        _tag("Event", log.game_id or "Floating bridge"),
        _tag("Site", ""),
        _tag("Date", date),
        _tag("Board", board),
        _tag("West", names[Seat.W]),
        _tag("North", names[Seat.N]),
        _tag("East", names[Seat.E]),
        _tag("South", names[Seat.S]),
        _tag("Dealer", first.name),
        _tag("Vulnerable", "None"),
        _tag("Deal", deal),
        _tag("Scoring", ""),
    ]
    contract = replay.contract
    if contract is None:
        passed_out = replay.end_reason == "passed_out"
        lines += [_tag("Declarer", ""), _tag("Contract", "Pass" if passed_out else ""), _tag("Result", "")]
    else:
        plays = [s for s in replay.steps if s.kind == "play"]
        lines += [_tag("Declarer", replay.declarer.name), _tag("Contract", str(contract)),
                  _tag("Result", replay.result.declarer_tricks if plays else "")]
    lines += [
        _tag("PartnerCard", "" if replay.partner_card is None else str(replay.partner_card)),
        _tag("PartnerSeat", "" if replay.partner_seat is None else replay.partner_seat.name),
        _tag("Rules", replay.rules.name),
        _tag("EndReason", replay.end_reason),
    ]
    # auction
    calls = [step for step in replay.steps if step.kind == "call"]
    if calls:
        lines.append(_tag("Auction", calls[0].seat.name))
        row: list[str] = []
        for step in calls:
            row.append(pbn_call(step.action))
            if len(row) == 4:
                lines.append(" ".join(row))
                row = []
        if row:
            lines.append(" ".join(row))
    # play: one line per trick, cards in the columns of the opening leader's rotation
    plays = [step for step in replay.steps if step.kind == "play"]
    if plays:
        leader = plays[0].seat
        lines.append(_tag("Play", leader.name))
        for start in range(0, len(plays), 4):
            columns = ["-"] * 4
            for step in plays[start:start + 4]:
                columns[(step.seat - leader) & 3] = str(step.action)
            lines.append(" ".join(columns))
        if len(plays) < 52:
            lines.append("*")
    if replay.findings:
        notes = "; ".join(f"{f.kind}: {f.message}" for f in replay.findings[:20])
        lines.append("{Findings: " + notes.replace("{", "(").replace("}", ")") + "}")
    return "\n".join(lines) + "\n"


def export_pbn(logs: Iterable[GameLog]) -> str:
    """Several games, numbered boards, separated by blank lines, behind the PBN header."""
    games = [to_pbn(log, board) for board, log in enumerate(logs, start=1)]
    return "% PBN 2.1\n% EXPORT\n" + "\n".join(games)
