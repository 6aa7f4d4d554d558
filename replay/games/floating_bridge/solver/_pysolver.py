"""The pure-Python double-dummy search: the stand-in when the C extension is not built.

Same arguments and answers as ``_dds`` (see ``_dds.c``): a zero-window alpha-beta over cards,
a transposition table of trick-start positions keyed on relative ranks, and equivalent cards
merged. Much slower; fine for endings, slow for whole deals.
"""

from __future__ import annotations

SUIT = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
FULL = (1 << 52) - 1

_table: dict = {}
_table_context: tuple | None = None


def clear() -> None:
    global _table_context
    _table.clear()
    _table_context = None


def _legal(hand: int, trick: list, trump: int, broken: bool, first: bool, tifr: bool) -> int:
    if trick:
        follow = hand & SUIT[trick[0] // 13]
        if follow:
            return follow
        if first and trump >= 0 and not tifr:
            other = hand & ~SUIT[trump]
            if other:
                return other
        return hand
    if trump < 0:
        return hand
    if not broken or (first and not tifr):
        other = hand & ~SUIT[trump]
        if other:
            return other
    return hand


def _winner(cards: list, trump: int) -> int:
    best, bc = 0, cards[0]
    for i in range(1, len(cards)):
        c = cards[i]
        if c // 13 == bc // 13:
            if c > bc:
                best, bc = i, c
        elif c // 13 == trump and bc // 13 != trump:
            best, bc = i, c
    return best


def _key(hands: list, leader: int, broken: bool, first: bool) -> tuple:
    """Per suit, who holds each card still out from the top (relative ranks)."""
    owner = {}
    for seat, hand in enumerate(hands):
        while hand:
            low = hand & -hand
            owner[low.bit_length() - 1] = seat
            hand ^= low
    parts = []
    for s in range(4):
        parts.append(tuple(owner[c] for c in range(13 * s + 12, 13 * s - 1, -1) if c in owner))
    return (tuple(parts), leader, broken, first)


class _Search:
    def __init__(self, hands, trump, side_mask, leader, trick, broken, first, tifr):
        self.hands = list(hands)
        self.trump = trump
        self.side = [(side_mask >> k) & 1 for k in range(4)]
        self.tifr = tifr
        self.broken = broken
        self.first = first
        self.leader = leader
        self.trick = list(trick)
        held = 0
        for h in hands:
            held |= h
        for c in trick:
            held |= 1 << c
        self.gone = FULL & ~held

    def moves(self, p: int) -> list[int]:
        """One card per run of equivalent cards (nothing between them but the seat's own
        cards or cards gone in finished tricks)."""
        legal = _legal(self.hands[p], self.trick, self.trump, self.broken, self.first, self.tifr)
        same = self.hands[p] | self.gone
        out = []
        last = None
        c = 51
        while c >= 0:
            if legal >> c & 1:
                if last is not None and last // 13 == c // 13 and all(same >> x & 1 for x in range(c + 1, last)):
                    pass  # same run as the previous card kept
                else:
                    out.append(c)
                last = c
            c -= 1
        return out

    def left(self) -> int:
        return bin(self.hands[(self.leader + 3) & 3]).count("1")

    def search(self, target: int) -> bool:
        """Can the declarer's side take ``target`` tricks from the trick under way on?"""
        if target <= 0:
            return True
        left = self.left()
        if target > left:
            return False
        key = None
        if not self.trick:
            key = _key(self.hands, self.leader, self.broken, self.first)
            lb, ub = _table.get(key, (0, left))
            if lb >= target:
                return True
            if ub < target:
                return False
        p = (self.leader + len(self.trick)) & 3
        maxi = self.side[p]
        result = not maxi
        for card in self.moves(p):
            bit = 1 << card
            old_broken = self.broken
            self.hands[p] &= ~bit
            self.trick.append(card)
            if card // 13 == self.trump:
                self.broken = True
            if len(self.trick) == 4:
                w = (self.leader + _winner(self.trick, self.trump)) & 3
                saved = (self.trick, self.leader, self.first)
                for c in self.trick:
                    self.gone |= 1 << c
                self.trick, self.leader, self.first = [], w, False
                r = self.search(target - self.side[w])
                self.trick, self.leader, self.first = saved
                for c in self.trick:
                    self.gone &= ~(1 << c)
            else:
                r = self.search(target)
            self.trick.pop()
            self.hands[p] |= bit
            self.broken = old_broken
            if maxi and r:
                result = True
                break
            if not maxi and not r:
                result = False
                break
        if key is not None:
            lb, ub = _table.get(key, (0, left))
            _table[key] = (max(lb, target), ub) if result else (lb, min(ub, target - 1))
        return result

    def exact(self) -> int:
        lo, hi = 0, self.left()
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.search(mid):
                lo = mid
            else:
                hi = mid - 1
        return lo


def _context(trump, side_mask, tifr) -> None:
    global _table_context
    if _table_context != (trump, side_mask, tifr):
        _table.clear()
        _table_context = (trump, side_mask, tifr)


def solve(hands, trump, side_mask, leader, trick, broken, first, tifr) -> int:
    _context(trump, side_mask, tifr)
    return _Search(hands, trump, side_mask, leader, trick, broken, first, tifr).exact()


def card_values(hands, trump, side_mask, leader, trick, broken, first, tifr) -> list[tuple[int, int]]:
    _context(trump, side_mask, tifr)
    p = (leader + len(trick)) & 3
    legal = _legal(hands[p], list(trick), trump, broken, first, tifr)
    out = []
    c = legal
    while c:
        low = c & -c
        card = low.bit_length() - 1
        c ^= low
        new_hands = list(hands)
        new_hands[p] &= ~low
        new_trick = list(trick) + [card]
        new_broken = broken or card // 13 == trump
        if len(new_trick) == 4:
            w = (leader + _winner(new_trick, trump)) & 3
            gained = (side_mask >> w) & 1
            rest = _Search(new_hands, trump, side_mask, w, (), new_broken, False, tifr)
            for x in new_trick:
                rest.gone |= 1 << x
            value = gained + rest.exact()
        else:
            value = _Search(new_hands, trump, side_mask, leader, new_trick, new_broken, first, tifr).exact()
        out.append((card, value))
    return out
