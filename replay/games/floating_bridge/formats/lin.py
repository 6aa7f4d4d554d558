"""LIN export (BBO's Handviewer and BBO itself) of floating bridge games.

``to_lin(log)`` writes ``pn`` (players, South first), ``md`` (dealer digit and the hands),
``ah`` (the board's name), ``sv`` (vulnerability, none), ``mb`` (each call), ``pc`` (each card
played) and one ``nt`` note naming the partner card, its holder, the rules and the end,
since LIN has no field for them. ``docs/exports.md`` lists what LIN cannot express.

Every logged call and card is written as logged, also after a fatal finding has stopped rule
checking; the note says where it stopped.

>>> from replay.games.floating_bridge.bots import play_game
>>> text = to_lin(play_game(seed=7))
>>> text.startswith("pn|") and "|md|" in text and "|mb|" in text and "|pc|" in text
True
"""

from __future__ import annotations

import re
from typing import Iterable
from urllib.parse import quote

from ..cards import PASS_VALUE, RANK_CHARS, Call, Seat
from ..log import GameLog
from .pbn import stop_note

#: LIN lists seats from South: 1 = S, 2 = W, 3 = N, 4 = E.
LIN_ORDER = (Seat.S, Seat.W, Seat.N, Seat.E)
HANDVIEWER = "https://www.bridgebase.com/tools/handviewer.html?lin="
_UNSAFE = re.compile(r"[|,\x00-\x1f\x7f]")


def _clean(text: str | None) -> str:
    """LIN fields end at ``|`` and names at ``,``: both become spaces."""
    return _UNSAFE.sub(" ", text or "").strip()


def lin_hand(cards: Iterable[int]) -> str:
    """``SAK93HQT2D8CJ7654``."""
    by_suit: list[list[int]] = [[], [], [], []]
    for card in cards:
        by_suit[card // 13].append(card % 13)
    return "".join("SHDC"[3 - s] + "".join(RANK_CHARS[r] for r in sorted(by_suit[s], reverse=True))
                   for s in (3, 2, 1, 0))


def lin_call(call: int) -> str:
    if call == PASS_VALUE:
        return "p"
    text = str(Call(call))
    return text.replace("NT", "N")


def to_lin(log: GameLog, board: int = 1) -> str:
    """One game as a LIN line."""
    replay = log.replay()
    hands = log.hands.by_seat()
    names = ",".join(_clean(log.player_name(seat)) for seat in LIN_ORDER)
    dealer = LIN_ORDER.index(log.first_bidder) + 1
    parts = [f"pn|{names}", "st|", f"md|{dealer}" + ",".join(lin_hand(hands[s]) for s in LIN_ORDER),
             "rh|", f"ah|Board {board}", "sv|o"]
    # as logged: every call and card, also those after a fatal finding stopped rule checking
    for event in log.events:
        if event.type == "bid":
            parts.append(f"mb|{lin_call(event.bid)}")
    note = [f"Floating bridge, rules {replay.rules.name}"]
    if replay.partner_card is not None:
        note.append(f"partner card {replay.partner_card} held by {replay.partner_seat.full_name}")
    note.append(f"end: {replay.end_reason}")
    if replay.contract is not None and replay.result.winner:
        note.append(f"{replay.result.winner} won, declarer's side {replay.result.declarer_tricks} tricks")
    if replay.findings:
        note.append(f"{len(replay.findings)} rule finding{'s' if len(replay.findings) != 1 else ''}")
    stop = stop_note(replay)
    if stop:
        note.append(stop)
    parts.append("nt|" + _clean("; ".join(note)).replace(",", " "))
    parts.append("pg|")
    count = 0
    for event in log.events:
        if event.type == "play":
            parts.append(f"pc|{event.card}")
            count += 1
            if count % 4 == 0:
                parts.append("pg|")
    return "|".join(parts) + "|\n"


def handviewer_url(log: GameLog) -> str:
    """A link that opens the game in BBO's Handviewer."""
    return HANDVIEWER + quote(to_lin(log).strip(), safe="")


def export_lin(logs: Iterable[GameLog]) -> str:
    """One LIN line per game."""
    return "".join(to_lin(log, board) for board, log in enumerate(logs, start=1))
