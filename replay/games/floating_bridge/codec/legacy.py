"""Original BridgeBot replay codes (read only), as ``shared/spec/bridgebot-legacy.md`` describes.

Layout: ``<first bidder digit><call letters>-<partner card letter>-<tricks letter><N 13><E 13><S 13><W 13>``.
A letter stands for a value 0-51 (``A``-``Z`` then ``a``-``z``); a call letter is a bid
``(level-1)*5 + strain`` or ``z`` for pass (the three closing passes are left out); a card is
``suit*13 + rank-2``; each seat's 13 letters are the cards it played, in trick order, then its
unplayed cards. These codes have no checksum, so they are checked strictly: any code that is
not exactly a legal bridgebot game is refused with the reason.

>>> log = decode_legacy("0DzHzIMzzN-y-mfJFZNDnrCzxwvbKMXWIlqeTGVgmABOYHdyjPohiaELQRScpkUsut")
>>> [str(e.bid) for e in log.events if e.type == "bid"][:3], str(log.events[12].card)
(['1S', 'pass', '2H'], 'SK')
"""

from __future__ import annotations

from typing import Any

from ..cards import CARD_TEXT, CARDS, PASS_VALUE, SEATS, Call
from ..engine import OVER, Game
from ..rules import PRESETS, targets
from .compact import _event, _make_log
from replay.codec.errors import CodeError

_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_LETTER_VALUE = {ch: i for i, ch in enumerate(_LETTERS)}
LEGACY_CARD_LETTERS = 53  # the tricks letter and 52 cards


def looks_legacy(code: str) -> bool:
    """Whether a bare code has the legacy shape: it holds a ``-`` or starts with a digit 1-3.

    Legacy codes always hold two ``-`` and start with the first bidder, 0-3; replay codes never
    hold a ``-``, and version 2 codes start with ``0``, so a ``0`` without a ``-`` is a replay
    code and the two never overlap.
    """
    return "-" in code or code[:1] in ("1", "2", "3")


def _letter(ch: str, what: str, place: int) -> int:
    value = _LETTER_VALUE.get(ch)
    if value is None:
        raise CodeError(f"legacy code: character {place}, {ch!r}, is not a letter ({what})")
    return value


def _card_name(value: int) -> str:
    return CARD_TEXT[value]


def decode_legacy(code: str) -> Any:
    """The game of an original BridgeBot code, under the ``bridgebot`` rules; raises ``CodeError``."""
    parts = code.split("-")
    if len(parts) != 3:
        raise CodeError(
            "legacy code: expected <bidder><calls>-<partner card>-<tricks><52 cards> with two '-', "
            f"found {len(parts) - 1}")
    head, partner_text, tail = parts
    if not head or head[0] not in "0123":
        raise CodeError("legacy code: it must start with the first bidder, a digit 0-3 (N, E, S, W)")
    first_bidder = int(head[0])
    # --- calls
    calls: list[int] = []
    for place, ch in enumerate(head[1:], start=2):
        value = _letter(ch, "a call", place)
        if ch == "z":
            calls.append(PASS_VALUE)
        elif value <= 34:
            calls.append(value)
        else:
            raise CodeError(f"legacy code: character {place}, {ch!r}, is not a call (bids are A-Z and a-i, pass is z)")
    bids = [c for c in calls if c != PASS_VALUE]
    if not bids:
        raise CodeError("legacy code: the auction has no bid (legacy codes always have a contract)")
    run = 0
    highest = -1
    for number, call in enumerate(calls, start=1):
        if call == PASS_VALUE:
            run += 1
            if (highest < 0 and run >= 4) or (highest >= 0 and run >= 3):
                raise CodeError(f"legacy code: call {number} comes after the auction had already ended")
            continue
        if call <= highest:
            raise CodeError(f"legacy code: call {number}, {Call(call)}, is not higher than {Call(highest)}")
        if highest == 34:
            raise CodeError(f"legacy code: call {number} comes after 7NT, which ends the auction")
        highest, run = call, 0
    if calls[-1] == PASS_VALUE:
        raise CodeError("legacy code: the call letters must end with the last bid (closing passes are not written)")
    last_bid_at = len(calls)
    if highest != 34:
        calls.extend([PASS_VALUE] * 3)
    contract = highest
    declarer = (first_bidder + last_bid_at - 1) & 3
    # --- partner card
    offset = len(head) + 2
    if len(partner_text) != 1:
        raise CodeError(f"legacy code: the partner card is one letter between the two '-', not {len(partner_text)}")
    partner = _letter(partner_text, "the partner card", offset)
    # --- tricks and cards
    offset += 2
    if len(tail) != LEGACY_CARD_LETTERS:
        raise CodeError(f"legacy code: wrong length: expected 53 letters after the second '-' "
                        f"(the tricks letter and 52 cards), found {len(tail)}")
    tricks_value = _letter(tail[0], "the tricks letter", offset)
    if tricks_value > 12 + 26 or tricks_value < 26:
        raise CodeError(f"legacy code: the tricks letter {tail[0]!r} must be a-m (1-13 tricks)")
    tricks = tricks_value - 26 + 1
    seen: dict[int, int] = {}
    rows: list[list[int]] = [[], [], [], []]
    for i, ch in enumerate(tail[1:]):
        place = offset + 1 + i
        value = _letter(ch, "a card", place)
        if value in seen:
            raise CodeError(f"legacy code: card {_card_name(value)} appears twice "
                            f"(characters {seen[value]} and {place})")
        seen[value] = place
        rows[i // 13].append(value)
    hands = [sorted(row) for row in rows]
    if any(partner == c for c in rows[declarer]):
        raise CodeError(f"legacy code: the partner card {_card_name(partner)} is held by the declarer "
                        f"({SEATS[declarer].full_name}), which the bridgebot rules do not allow")
    # --- replay the play to check it and to learn who led each trick
    rules = PRESETS["bridgebot"]
    game = Game([[CARDS[c] for c in h] for h in hands], first_bidder, rules)
    problems = game.check_deal()
    if problems:
        raise CodeError(f"legacy code: {problems[0].message}")
    events: list[Any] = []
    seat = first_bidder
    for call in calls:
        game.push_call(seat, call)
        events.append(_event("bid", seat, call))
        seat = (seat + 1) & 3
    game.push_partner(declarer, partner)
    events.append(_event("partner", declarer, partner))
    for number in range(tricks):
        if game.phase == OVER:
            need, need_def = targets(contract)
            raise CodeError(f"legacy code: it says {tricks} tricks were played, but play ended after "
                            f"{number} (a side reached its number: {need} or {need_def})")
        for _ in range(4):
            seat = game.to_act
            card = rows[seat][number]
            found = game.push_play(seat, card)
            if found:
                raise CodeError(f"legacy code: trick {number + 1}: {found[0].message}")
            events.append(_event("play", seat, card))
        events.append(_event("trick", game.trick_winners[-1], 0))
    if game.phase != OVER:
        raise CodeError(f"legacy code: play stops after {tricks} tricks, before either side reached its "
                        "number (legacy codes are made when a game ends)")
    return _make_log(rules, first_bidder, [[CARDS[c] for c in h] for h in hands], events, "completed")


