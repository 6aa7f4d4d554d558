"""Texas hold'em equities: each seat's share of the pot if the cards still to come were dealt now.

``equities(holes, board, dead)`` takes one hole per seat still in the hand (two card numbers,
``None`` for a card the viewer does not know, drawn at random from the cards nobody has seen), the
board so far and any other cards known to be out of the deck (folded hands shown, burnt cards),
and returns an ``Equity``: one share per seat (ties split the pot, so the shares sum to 1), whether
it is ``exact`` and how many deals it looked at (``samples``).

- **Exact** when every deal of the unknown cards can be looked at: at most ``EXACT_LIMIT`` deals
  (from the flop on with every hole known: 990 deals heads-up or fewer, 666 six-handed on the flop).
- **By symmetry** when no hole card is known at all: an equal share each (``samples`` 0).
- **Monte Carlo** otherwise: ``MONTE_CARLO_SAMPLES`` deals (9,604), so that every share is within
  ±1 percentage point at 95% confidence: a share is the mean of values in [0, 1], whose variance
  is at most 1/4, and 1.96 * sqrt(0.25 / 9604) <= 0.01. The draws come from a generator seeded
  from the cards themselves (or from ``rng`` when given), so the same position always gives the
  same numbers, with or without the C extension (both paths run the same generator, Knuth's
  64-bit linear congruential one, of which they take the top 31 bits, and add the shares in the
  same order: bit-identical results).

``step_equities(steps)`` computes the equity chart of a replay from its steps (``steps_json``
dicts): a ``{seat: share}`` per step for the seats still in the hand, from only what the step
shows (a seat's view has ``??`` for the other seats' hidden cards, and those stay unknown).

>>> from replay.games.holdem.cards import parse_cards
>>> e = equities([parse_cards("AsAd"), parse_cards("KsKd")], parse_cards("2c7h9s"))
>>> e.exact, e.samples, [round(s, 4) for s in e.shares]
(True, 990, [0.9162, 0.0838])
>>> e = equities([parse_cards("AsAd"), parse_cards("????")], [])
>>> e.exact, e.samples, 0.84 < e.shares[0] < 0.87
(False, 9604, True)
>>> steps = [{"kind": "setup", "hole": {"p1": [], "p2": []}, "board": [], "folded": []},
...          {"kind": "board", "hole": {"p1": ["Ah", "Ad"], "p2": ["Kc", "Qc"]},
...           "board": ["2c", "7h", "9s", "Jd", "3s"], "folded": []},
...          {"kind": "fold", "hole": {"p1": ["Ah", "Ad"], "p2": ["Kc", "Qc"]},
...           "board": ["2c", "7h", "9s", "Jd", "3s"], "folded": ["p2"]}]
>>> step_equities(steps)
[None, {'p1': 1.0, 'p2': 0.0}, None]
"""

from __future__ import annotations

import random
import zlib
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement
from math import comb
from typing import Iterable, Sequence

from . import evaluator
from .cards import parse_cards
from .evaluator import _value

#: the most deals looked at one by one; beyond it, Monte Carlo
EXACT_LIMIT = 50_000
#: Monte Carlo deals: 1.96 * sqrt(1/4 / n) <= 0.01 for every share
MONTE_CARLO_SAMPLES = 9604

_MASK64 = (1 << 64) - 1


@dataclass(frozen=True, slots=True)
class Equity:
    """Each seat's share of the pot (ties split), whether exact, and how many deals were looked at."""

    shares: list[float]
    exact: bool
    samples: int


def deal_count(holes: Sequence[Sequence[int | None]], board: Sequence[int], dead: Iterable[int] = ()) -> int:
    """How many deals of the unknown cards there are (each seat's unknown hole cards and the
    missing board cards, each an unordered group)."""
    known = _known_cards(holes, board, dead)
    left = 52 - len(known)
    total = 1
    for size in _group_sizes(holes, board):
        total *= comb(left, size)
        left -= size
    return total


def _known_cards(holes, board, dead) -> set[int]:
    cards = [c for hole in holes for c in hole if c is not None] + list(board) + list(dead)
    seen = set(cards)
    if len(seen) != len(cards):
        raise ValueError(f"a card is dealt twice: {cards}")
    if any(not isinstance(c, int) or not 0 <= c <= 51 for c in seen):
        raise ValueError(f"cards must be numbers 0..51: {cards}")
    return seen


def _group_sizes(holes, board) -> list[int]:
    sizes = [n for n in (sum(c is None for c in hole) for hole in holes) if n]
    if len(board) < 5:
        sizes.append(5 - len(board))
    return sizes


def _seed(holes, board, dead) -> int:
    text = repr(([list(h) for h in holes], list(board), sorted(dead)))
    return zlib.crc32(text.encode()) * 0x9E3779B1 & _MASK64


def equities(
    holes: Sequence[Sequence[int | None]],
    board: Sequence[int],
    dead: Iterable[int] = (),
    *,
    rng: random.Random | None = None,
    native: bool | None = None,
) -> Equity:
    """Each seat's share of the pot: exact when at most ``EXACT_LIMIT`` deals, else Monte Carlo.

    ``holes`` one per seat still in the hand (two card numbers, ``None`` unknown); ``board`` 0..5
    cards; ``dead`` cards out of the deck besides. ``rng`` seeds the Monte Carlo draws (default:
    a seed from the cards). ``native`` forces the C loops (True) or the pure-Python ones (False);
    by default the C loops when the extension is built.
    """
    dead = list(dead)
    holes = [list(h) for h in holes]
    board = list(board)
    if not holes:
        raise ValueError("no seats")
    if any(len(h) != 2 for h in holes):
        raise ValueError(f"a hole is two cards: {holes}")
    if len(board) > 5:
        raise ValueError(f"a board is at most 5 cards: {board}")
    known = _known_cards(holes, board, dead)
    rest = [c for c in range(52) if c not in known]
    count = deal_count(holes, board, dead)
    if count == 0:
        raise ValueError("not enough cards left to deal")
    if all(c is None for h in holes for c in h):  # nobody's cards known: the seats are alike
        return Equity([1 / len(holes)] * len(holes), True, 0)
    samples = 0 if count <= EXACT_LIMIT else MONTE_CARLO_SAMPLES
    seed = (rng.getrandbits(64) if rng is not None else _seed(holes, board, dead))
    if native is None:
        native = evaluator._native is not None
    if native:
        if evaluator._native is None:
            raise RuntimeError("the C extension replay.games.holdem._native is not built")
        coded = [[-1 if c is None else c for c in h] for h in holes]
        totals, deals = evaluator._native.showdowns(coded, board, rest, samples, seed)
    else:
        totals, deals = showdowns_python(holes, board, rest, samples, seed)
    return Equity([t / deals for t in totals], samples == 0, deals)


#: a card's bit in a 52-bit hand mask: 13 bits a suit (clubs lowest), a bit a rank
_BIT = tuple(1 << ((c & 3) * 13 + (c >> 2)) for c in range(52))


def _slots(holes, board) -> tuple[list[int], list[int]]:
    """The unknown cards' owners in slot order (a seat's index, or -1 for the board: each seat's
    unknown hole cards in seat order, then the missing board cards) and the groups' sizes."""
    owners, sizes = [], []
    for p, hole in enumerate(holes):
        unknown = sum(c is None for c in hole)
        if unknown:
            owners += [p] * unknown
            sizes.append(unknown)
    if len(board) < 5:
        owners += [-1] * (5 - len(board))
        sizes.append(5 - len(board))
    return owners, sizes


#: a card's share of a rank key (base 5: how many of each rank) and of a suit key (3 bits a suit)
_RANK_KEY = tuple(5 ** (c >> 2) for c in range(52))
_SUIT_KEY = tuple(1 << 3 * (c & 3) for c in range(52))
_tables: list = []


def _seven_card_tables() -> tuple[list[int], list[int], dict[int, int]]:
    """For the pure-Python loops, built on first use (a quarter of a second): a suit key's
    flush suit as a shift into the 52-bit mask (-1: no flush); a flush suit mask's value; and
    every 7-card rank key's value without a flush (49,205 of them)."""
    if not _tables:
        flush_shift = [-1] * 4096
        for key in range(4096):
            for suit in range(4):
                if key >> 3 * suit & 7 >= 5:
                    flush_shift[key] = 13 * suit
        flush_value = [_value(mask, 0, 0, 0) if bin(mask).count("1") >= 5 else 0 for mask in range(8192)]
        ranks: dict[int, int] = {}
        for combo in combinations_with_replacement(range(13), 7):
            masks = [0, 0, 0, 0]
            key = 0
            for i, r in enumerate(combo):  # round robin over the suits: no suit gets five
                if masks[i & 3] >> r & 1:
                    break  # five or more of a rank
                masks[i & 3] |= 1 << r
                key += 5 ** r
            else:
                ranks[key] = _value(*masks)
        _tables.extend((flush_shift, flush_value, ranks))
    return _tables[0], _tables[1], _tables[2]


def showdowns_python(holes, board, rest, samples: int, seed: int) -> tuple[list[float], int]:
    """The pure-Python twin of ``_native.showdowns`` (same deals, same order, same sums).

    A hand is three numbers that add up card by card: a rank key (``_RANK_KEY``), a suit key
    (``_SUIT_KEY``) and a 52-bit mask (``_BIT``); a seat's is its hole's plus the board's. Its
    value is a table look-up: the flush suit's mask's value if the suit key has a flush, else
    the rank key's value (``_seven_card_tables``)."""
    flush_shift, flush_value, rank_value = _seven_card_tables()
    n = len(holes)
    bit, rank_key, suit_key = _BIT, _RANK_KEY, _SUIT_KEY
    owners, sizes = _slots(holes, board)
    hole_k = [sum(rank_key[c] for c in hole if c is not None) for hole in holes]
    hole_s = [sum(suit_key[c] for c in hole if c is not None) for hole in holes]
    hole_m = [sum(bit[c] for c in hole if c is not None) for hole in holes]
    board_k = sum(rank_key[c] for c in board)
    board_s = sum(suit_key[c] for c in board)
    board_m = sum(bit[c] for c in board)
    totals = [0.0] * n
    deals = 0
    seats = range(n)

    def showdown(hk, hs, hm, bk, bs, bm) -> None:
        values = []
        for p in seats:
            shift = flush_shift[bs + hs[p]]
            values.append(rank_value[bk + hk[p]] if shift < 0 else flush_value[(bm | hm[p]) >> shift & 8191])
        best = max(values)
        winners = values.count(best)
        if winners == 1:
            totals[values.index(best)] += 1.0
        else:
            share = 1.0 / winners
            for p in seats:
                if values[p] == best:
                    totals[p] += share

    def deal(cards) -> None:
        hk, hs, hm = hole_k[:], hole_s[:], hole_m[:]
        bk, bs, bm = board_k, board_s, board_m
        for owner, c in zip(owners, cards):
            if owner < 0:
                bk += rank_key[c]
                bs += suit_key[c]
                bm |= bit[c]
            else:
                hk[owner] += rank_key[c]
                hs[owner] += suit_key[c]
                hm[owner] |= bit[c]
        showdown(hk, hs, hm, bk, bs, bm)

    if samples == 0:
        if len(sizes) == 1 and owners[0] < 0:  # only the board: the common case, flat
            for cards in combinations(rest, sizes[0]):
                bk, bs, bm = board_k, board_s, board_m
                for c in cards:
                    bk += rank_key[c]
                    bs += suit_key[c]
                    bm |= bit[c]
                showdown(hole_k, hole_s, hole_m, bk, bs, bm)
                deals += 1
            return totals, deals
        chosen: list[int] = []

        def groups(g: int, used: set) -> None:
            nonlocal deals
            if g == len(sizes):
                deal(chosen)
                deals += 1
                return
            for cards in combinations([c for c in rest if c not in used], sizes[g]):
                chosen.extend(cards)
                groups(g + 1, used | set(cards))
                del chosen[-sizes[g]:]

        groups(0, set())
        return totals, deals
    deck = list(rest)
    span = len(deck)
    slots = range(len(owners))
    state = seed & _MASK64
    for _ in range(samples):
        for i in slots:
            state = (state * 6364136223846793005 + 1442695040888963407) & _MASK64
            j = i + (state >> 33) % (span - i)
            deck[i], deck[j] = deck[j], deck[i]
        deal(deck)
        deals += 1
    return totals, deals


def _cards(texts: Sequence[str]) -> list[int | None]:
    cards = parse_cards("".join(texts))
    if cards is None:
        raise ValueError(f"not cards: {texts!r}")
    return cards


def step_equities(steps: Sequence[dict], *, native: bool | None = None) -> list[dict[str, float] | None]:
    """Per step of ``steps_json``: ``{seat: share}`` for the seats still in the hand, or None
    (the setup, hole cards not all dealt yet, one seat left, or the hand over with no showdown
    to come). Uses only what each step shows; one computation per distinct (holes, board, dead)."""
    cache: dict[tuple, dict[str, float]] = {}
    out: list[dict[str, float] | None] = []
    for step in steps:
        hole = step.get("hole") or {}
        folded = set(step.get("folded") or ())
        live = [seat for seat in hole if seat not in folded]
        if step.get("kind") == "setup" or len(live) < 2 or any(len(hole[s]) != 2 for s in live):
            out.append(None)
            continue
        holes = tuple(tuple(_cards(hole[s])) for s in live)
        board = tuple(_cards(step.get("board") or ()))
        dead = tuple(sorted(c for s in hole if s in folded for c in _cards(hole[s]) if c is not None))
        key = (tuple(live), holes, board, dead)
        if key not in cache:
            result = equities(holes, board, dead, native=native)
            cache[key] = dict(zip(live, result.shares))
        out.append(dict(cache[key]))
    return out
