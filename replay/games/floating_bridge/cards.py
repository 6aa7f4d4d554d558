"""Seats, suits, cards and calls: the vocabulary of floating bridge.

Cards and calls are small ``int`` subclasses with one interned instance per value, so the
engine can use them as plain integers (fast, hashable) while users get readable objects:

>>> Card.parse("10♥")
Card('HT')
>>> str(Card.parse("as")), Card.parse("SA").rank, Card.parse("SA").suit.name
('SA', 14, 'S')
>>> Call.parse("2nt"), Call.parse("Pass")
(Call('2NT'), Call('pass'))
>>> Seat.N.next
<Seat.E: 1>

Readers are liberal (see ``Card.parse``); writers print one canonical form.
"""

from __future__ import annotations

from enum import IntEnum
from typing import Iterable

from ...errors import ReplayError


class CardParseError(ReplayError, ValueError):
    """Text that is not a card (``'S1O' is not a card``)."""


class CallParseError(ReplayError, ValueError):
    """Text that is not a call (``'8C' is not a call``)."""


class Seat(IntEnum):
    """A seat at the table, clockwise: N, E, S, W (players 1-4 in chat bots)."""

    N = 0
    E = 1
    S = 2
    W = 3

    @property
    def next(self) -> "Seat":
        return SEATS[(self + 1) & 3]

    @property
    def full_name(self) -> str:
        return ("North", "East", "South", "West")[self]

    @classmethod
    def parse(cls, text: object) -> "Seat":
        """Accept ``N``/``north``/``1``-``4`` (player numbers) or a Seat."""
        if isinstance(text, Seat):
            return text
        if isinstance(text, int) and not isinstance(text, bool) and 1 <= text <= 4:
            return SEATS[text - 1]
        if isinstance(text, str):
            key = text.strip().upper()
            if key in _SEAT_NAMES:
                return _SEAT_NAMES[key]
        raise ReplayError(f"{text!r} is not a seat (use N, E, S or W)")

    def __str__(self) -> str:
        return self.name


SEATS: tuple[Seat, ...] = tuple(Seat)
_SEAT_NAMES = {
    **{s.name: s for s in Seat},
    **{s.full_name.upper(): s for s in Seat},
    **{f"P{i + 1}": s for i, s in enumerate(Seat)},
    **{str(i + 1): s for i, s in enumerate(Seat)},
}


class Suit(IntEnum):
    """Suits in bidding order C < D < H < S."""

    C = 0
    D = 1
    H = 2
    S = 3

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[self]

    @property
    def full_name(self) -> str:
        return ("clubs", "diamonds", "hearts", "spades")[self]


class Strain(IntEnum):
    """Bid strains C < D < H < S < NT. A suit strain's value equals its Suit's."""

    C = 0
    D = 1
    H = 2
    S = 3
    NT = 4

    @property
    def symbol(self) -> str:
        return "NT" if self == Strain.NT else SUIT_SYMBOLS[self]


SUIT_SYMBOLS = ("♣", "♦", "♥", "♠")
RANK_CHARS = "23456789TJQKA"
_SUIT_FROM_CHAR = {"C": 0, "D": 1, "H": 2, "S": 3, "♣": 0, "♦": 1, "♥": 2, "♠": 3,
                   "♧": 0, "♢": 1, "♡": 2, "♤": 3}
_RANK_FROM_TEXT = {ch: i for i, ch in enumerate(RANK_CHARS)} | {"10": 8}


class Card(int):
    """One of the 52 cards, valued ``suit * 13 + (rank - 2)`` (C2 = 0, SA = 51)."""

    __slots__ = ()

    def __new__(cls, value: int) -> "Card":
        return CARDS[value] if CARDS else int.__new__(cls, value)

    @property
    def suit(self) -> Suit:
        return Suit(self // 13)

    @property
    def rank(self) -> int:
        """2..14, ace high."""
        return self % 13 + 2

    @property
    def points(self) -> int:
        """High-card points: A=4, K=3, Q=2, J=1."""
        return max(0, self % 13 - 8)

    @property
    def symbol(self) -> str:
        """Suit symbol then rank, ``♠A``, ``♥10``."""
        rank = RANK_CHARS[self % 13]
        return SUIT_SYMBOLS[self // 13] + ("10" if rank == "T" else rank)

    def __str__(self) -> str:
        return CARD_TEXT[self]

    def __repr__(self) -> str:
        return f"Card({CARD_TEXT[self]!r})"

    @classmethod
    def parse(cls, text: object) -> "Card":
        """Read a card liberally: ``SA``, ``sa``, ``S10``, ``♠A``, ``♠️A``, ``AS``, ``10h``, ``K♠``."""
        if isinstance(text, Card):
            return text
        if isinstance(text, str):
            found = _CARD_CACHE.get(text)
            if found is not None:
                return found
            key = text.strip().replace("\ufe0f", "").upper()
            found = _parse_card_key(key)
            if found is not None:
                if len(_CARD_CACHE) < 4096:
                    _CARD_CACHE[text] = found
                return found
        raise CardParseError(f"{text!r} is not a card")

    @classmethod
    def from_singbridge(cls, number: object) -> "Card":
        """A card in Singbridge's numbers: suit (1-4 = C, D, H, S) times 100 plus rank (2-14).

        >>> Card.from_singbridge(114), Card.from_singbridge("402")
        (Card('CA'), Card('S2'))
        """
        value = singbridge_number(number)
        if value is not None and 1 <= value // 100 <= 4 and 2 <= value % 100 <= 14:
            return CARDS[(value // 100 - 1) * 13 + value % 100 - 2]
        raise CardParseError(f"{number!r} is not a card in Singbridge notation "
                             "(suit 1-4 for C, D, H, S times 100 plus rank 2-14: 114 is CA)")


def singbridge_number(value: object) -> int | None:
    """The number a Singbridge log writes for a card or call (an int, or digits), else None."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        text = value.strip()
        if text.isascii() and text.isdigit() and len(text) <= 6:
            return int(text)
    return None


def _parse_card_key(key: str) -> Card | None:
    if len(key) < 2:
        return None
    # suit first: "SA", "S10", "♠A"
    suit = _SUIT_FROM_CHAR.get(key[0])
    if suit is not None:
        rank = _RANK_FROM_TEXT.get(key[1:].strip())
        if rank is not None:
            return CARDS[suit * 13 + rank]
    # rank first: "AS", "10H", "K♠"
    suit = _SUIT_FROM_CHAR.get(key[-1])
    if suit is not None:
        rank = _RANK_FROM_TEXT.get(key[:-1].strip())
        if rank is not None:
            return CARDS[suit * 13 + rank]
    return None


CARDS: tuple[Card, ...] = ()
CARDS = tuple(int.__new__(Card, v) for v in range(52))
CARD_TEXT: tuple[str, ...] = tuple("CDHS"[v // 13] + RANK_CHARS[v % 13] for v in range(52))
_CARD_CACHE: dict[str, Card] = {t: CARDS[i] for i, t in enumerate(CARD_TEXT)}

SUIT_MASKS: tuple[int, ...] = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
FULL_DECK_MASK = (1 << 52) - 1


def mask_of(cards: Iterable[int]) -> int:
    """A 52-bit set of cards."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def cards_of(mask: int) -> list[Card]:
    """The cards in a 52-bit set, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return out


def hand_points(cards: Iterable[int]) -> int:
    """Points for the wash rule: A=4, K=3, Q=2, J=1, plus 1 per card beyond four in a suit."""
    lengths = [0, 0, 0, 0]
    points = 0
    for card in cards:
        lengths[card // 13] += 1
        rank_index = card % 13
        if rank_index >= 9:
            points += rank_index - 8
    return points + sum(n - 4 for n in lengths if n > 4)


def sort_hand(cards: Iterable[int]) -> list[Card]:
    """Cards in display order: spades, hearts, diamonds, clubs, high to low."""
    return sorted((CARDS[c] for c in cards), key=lambda c: (-(c // 13), -(c % 13)))


class Call(int):
    """A call in the auction: a bid ``(level-1)*5 + strain`` (1C = 0 .. 7NT = 34) or pass (35)."""

    __slots__ = ()

    def __new__(cls, value: int) -> "Call":
        return CALLS[value] if CALLS else int.__new__(cls, value)

    @property
    def is_pass(self) -> bool:
        return self == PASS_VALUE

    @property
    def is_bid(self) -> bool:
        return self != PASS_VALUE

    @property
    def level(self) -> int | None:
        return None if self == PASS_VALUE else self // 5 + 1

    @property
    def strain(self) -> Strain | None:
        return None if self == PASS_VALUE else Strain(self % 5)

    @property
    def symbol(self) -> str:
        """``1♠``, ``2NT``, ``Pass``."""
        if self == PASS_VALUE:
            return "Pass"
        return f"{self // 5 + 1}{Strain(self % 5).symbol}"

    def __str__(self) -> str:
        return CALL_TEXT[self]

    def __repr__(self) -> str:
        return f"Call({CALL_TEXT[self]!r})"

    @classmethod
    def bid(cls, level: int, strain: int) -> "Call":
        if not (1 <= level <= 7 and 0 <= strain <= 4):
            raise CallParseError(f"level {level}, strain {strain} is not a bid")
        return CALLS[(level - 1) * 5 + strain]

    @classmethod
    def from_singbridge(cls, number: object) -> "Call":
        """A call in Singbridge's numbers: level times 10 plus strain (1-5 = C, D, H, S, NT); 0 is pass.

        >>> Call.from_singbridge(45), Call.from_singbridge(0)
        (Call('4NT'), Call('pass'))
        """
        value = singbridge_number(number)
        if value == 0:
            return PASS
        if value is not None and 1 <= value // 10 <= 7 and 1 <= value % 10 <= 5:
            return CALLS[(value // 10 - 1) * 5 + value % 10 - 1]
        raise CallParseError(f"{number!r} is not a call in Singbridge notation "
                             "(0 for pass, or level 1-7 times 10 plus strain 1-5 for C, D, H, S, NT: 45 is 4NT)")

    @classmethod
    def parse(cls, text: object) -> "Call":
        """Read a call liberally: ``pass``, ``p``, ``1S``, ``1♠``, ``2nt``, ``2N``, ``3 NT``."""
        if isinstance(text, Call):
            return text
        if isinstance(text, str):
            found = _CALL_CACHE.get(text)
            if found is not None:
                return found
            key = text.strip().replace("\ufe0f", "").replace(" ", "").upper()
            if key in ("P", "PASS", "PASSES", "PASSES."):
                return PASS
            if len(key) >= 2 and key[0] in "1234567":
                strain_text = key[1:]
                strain = {"N": 4, "NT": 4, "NOTRUMP": 4, "NOTRUMPS": 4}.get(strain_text)
                if strain is None and len(strain_text) == 1:
                    strain = _SUIT_FROM_CHAR.get(strain_text)
                if strain is not None:
                    return CALLS[(int(key[0]) - 1) * 5 + strain]
        raise CallParseError(f"{text!r} is not a call")


PASS_VALUE = 35
CALLS: tuple[Call, ...] = ()
CALLS = tuple(int.__new__(Call, v) for v in range(36))
PASS = CALLS[PASS_VALUE]
CALL_TEXT: tuple[str, ...] = tuple(
    f"{v // 5 + 1}{('C', 'D', 'H', 'S', 'NT')[v % 5]}" for v in range(35)
) + ("pass",)
_CALL_CACHE: dict[str, Call] = {t: CALLS[i] for i, t in enumerate(CALL_TEXT)}
