"""Texas hold'em equities: each seat's share of the pot if the cards still to come were dealt now.

``equities(holes, board, dead)`` takes one hole per seat still in the hand (two card numbers,
``None`` for a card the viewer does not know, drawn at random from the cards nobody has seen), the
board so far and any other cards known to be out of the deck (folded hands shown, burnt cards),
and returns an ``Equity``: one share per seat (ties split the pot, so the shares sum to 1), whether
it is ``exact`` and how many deals it looked at (``samples``).

- **Exact** when every deal of the unknown cards can be looked at: at most ``EXACT_LIMIT`` deals
  (from the flop on with every hole known: 990 deals heads-up or fewer, 741 six-handed on the flop).
- **Monte Carlo** otherwise: ``MONTE_CARLO_SAMPLES`` deals (9,604), so that every share is within
  ±1 percentage point at 95% confidence: a share is the mean of values in [0, 1], whose variance
  is at most 1/4, and 1.96 * sqrt(0.25 / 9604) <= 0.01. The draws come from a generator seeded
  from the cards themselves (or from ``rng`` when given), so the same position always gives the
  same numbers, with or without the C extension (both paths run the same generator, splitmix64,
  and add the shares in the same order: bit-identical results).

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
from itertools import combinations
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


def _slots(holes, board):
    """The unknown cards' places: (seat, index) for hole cards, (-1, index) for the board."""
    slots, sizes = [], []
    for p, hole in enumerate(holes):
        unknown = [(p, j) for j, c in enumerate(hole) if c is None]
        if unknown:
            slots += unknown
            sizes.append(len(unknown))
    if len(board) < 5:
        slots += [(-1, j) for j in range(len(board), 5)]
        sizes.append(5 - len(board))
    return slots, sizes


def showdowns_python(holes, board, rest, samples: int, seed: int) -> tuple[list[float], int]:
    """The pure-Python twin of ``_native.showdowns`` (same deals, same order, same sums)."""
    n = len(holes)
    holes = [list(h) for h in holes]
    slots, sizes = _slots(holes, board)
    board = list(board) + [None] * (5 - len(board))
    totals = [0.0] * n
    deals = 0

    def showdown() -> None:
        b = [0, 0, 0, 0]
        for c in board:
            b[c & 3] |= 1 << (c >> 2)
        values = []
        for c0, c1 in holes:
            s = b[:]
            s[c0 & 3] |= 1 << (c0 >> 2)
            s[c1 & 3] |= 1 << (c1 >> 2)
            values.append(_value(s[0], s[1], s[2], s[3]))
        best = max(values)
        share = 1.0 / values.count(best)
        for p in range(n):
            if values[p] == best:
                totals[p] += share

    def place(slot, card) -> None:
        p, j = slot
        if p < 0:
            board[j] = card
        else:
            holes[p][j] = card

    if samples == 0:
        groups = []
        i = 0
        for size in sizes:
            groups.append(slots[i:i + size])
            i += size

        def deal(g: int, used: frozenset) -> None:
            nonlocal deals
            if g == len(groups):
                showdown()
                deals += 1
                return
            group = groups[g]
            for cards in combinations([c for c in rest if c not in used], len(group)):
                for slot, card in zip(group, cards):
                    place(slot, card)
                deal(g + 1, used | set(cards))

        if len(groups) == 1 and groups[0][0][0] < 0:  # only the board: the common case, flat
            group = groups[0]
            for cards in combinations(rest, len(group)):
                for slot, card in zip(group, cards):
                    place(slot, card)
                showdown()
                deals += 1
        else:
            deal(0, frozenset())
        return totals, deals
    deck = list(rest)
    span = len(deck)
    state = seed & _MASK64
    for _ in range(samples):
        for i, slot in enumerate(slots):
            state = (state + 0x9E3779B97F4A7C15) & _MASK64
            z = state
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
            z ^= z >> 31
            j = i + z % (span - i)
            c = deck[j]
            deck[j] = deck[i]
            deck[i] = c
            place(slot, c)
        showdown()
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
