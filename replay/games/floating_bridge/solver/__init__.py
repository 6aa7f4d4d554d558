"""Exact double-dummy analysis of floating bridge: every hand known, best play by both sides.

>>> position = Position(hands=(0x1, 0x2, 0x4, 0x8), trump=None, declarer_side=(0, 2), leader=0)
>>> solve(position)   # N leads C2 into E's C3, S's C4 and W's C5: W wins
0
>>> card_values(position)
{Card('C2'): 0}

The declarer's side is the declarer and its partner wherever the partner sits (or the
declarer alone); the others defend. ``solve`` answers the tricks that side still takes from
the trick under way on (that trick included); ``card_values`` answers it for every legal card
of the seat to play. The rules handled are the engine's: follow suit, no trump lead before
trumps are broken unless the leader holds only trumps, and ``trump_in_first_trick``.

The search is native (``_dds.c``, built by ``pip install``); if it could not be built, a
pure-Python search with the same answers stands in, far slower, and says so once.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..cards import CARDS, Card, ReplayError
from ..engine import PLAY, game_at_step
from ..rules import legal_cards_mask, Rules
from . import _pysolver

if TYPE_CHECKING:  # pragma: no cover
    from ..engine import Game
    from ..game import GameReplay

try:
    from . import _dds as _native
except ImportError:  # the C extension was not built: say so once, then go on slowly
    _native = None
    warnings.warn("floating bridge solver: the C extension _dds was not built at install time "
                  "(no C compiler or Python headers?); using the pure-Python solver, which is "
                  "much slower (reinstall with gcc and python3-dev present)", RuntimeWarning, stacklevel=2)

#: "native" (the C search) or "python" (the fallback)
BACKEND = "native" if _native is not None else "python"


class PositionError(ReplayError, ValueError):
    """A position the solver cannot take: hands that do not fit the trick, a game not in play."""


@dataclass(frozen=True, slots=True)
class Position:
    """A position in the play: the cards each seat still holds and the trick under way.

    ``hands`` are 52-bit masks (N, E, S, W) of the cards not yet played; ``trick`` the cards
    already played to the trick under way, in order, led by ``leader``; ``declarer_side`` the
    seats of the declarer and its partner (one seat when the declarer plays alone).
    """

    hands: tuple[int, int, int, int]
    trump: int | None
    declarer_side: tuple[int, ...]
    leader: int
    trick: tuple[int, ...] = ()
    trump_broken: bool = False
    first_trick: bool = False
    trump_in_first_trick: bool = True

    def __post_init__(self) -> None:
        seen = 0
        for hand in self.hands:
            if hand < 0 or hand >> 52 or hand & seen:
                raise PositionError("hands must be disjoint sets of the 52 cards")
            seen |= hand
        for card in self.trick:
            if not 0 <= card < 52 or seen >> card & 1:
                raise PositionError(f"trick card {card!r} is not a card, or is also in a hand")
            seen |= 1 << card
        if len(self.trick) > 3:
            raise PositionError("a trick under way holds at most 3 cards")
        if self.trump is not None and self.trump not in (0, 1, 2, 3):
            raise PositionError(f"trump must be None or a suit 0-3, not {self.trump!r}")
        if self.leader not in (0, 1, 2, 3):
            raise PositionError(f"leader must be a seat 0-3, not {self.leader!r}")
        side = set(self.declarer_side)
        if not side or not side <= {0, 1, 2, 3} or len(side) == 4:
            raise PositionError("the declarer's side must be one to three seats")
        base = bin(self.hands[self.leader]).count("1")
        for k in range(4):
            seat = (self.leader + k) & 3
            want = base if (k < len(self.trick) or not self.trick) else base + 1
            if bin(self.hands[seat]).count("1") != want:
                raise PositionError("the hands do not hold matching numbers of cards for this trick")

    # -- derived -------------------------------------------------------------------------
    @property
    def to_act(self) -> int:
        return (self.leader + len(self.trick)) & 3

    @property
    def tricks_left(self) -> int:
        """Tricks not yet finished, the one under way included."""
        return bin(self.hands[(self.leader + 3) & 3]).count("1")

    @property
    def side_mask(self) -> int:
        mask = 0
        for seat in self.declarer_side:
            mask |= 1 << seat
        return mask

    def legal_mask(self) -> int:
        led = self.trick[0] // 13 if self.trick else None
        return legal_cards_mask(self.hands[self.to_act], led, self.trump, self.trump_broken,
                                self.first_trick, Rules(trump_in_first_trick=self.trump_in_first_trick))

    def _args(self) -> tuple:
        return (tuple(self.hands), -1 if self.trump is None else self.trump, self.side_mask,
                self.leader, tuple(self.trick), bool(self.trump_broken), bool(self.first_trick),
                bool(self.trump_in_first_trick))

    # -- construction --------------------------------------------------------------------
    @classmethod
    def from_game(cls, game: "Game") -> "Position":
        """The position of an engine ``Game`` in its play phase (before the next card)."""
        if game.phase != PLAY or game.declarer is None or game.to_act is None:
            raise PositionError(f"the game is not in its play phase (phase {game.phase})")
        side = {int(game.declarer)}
        if game.partner_seat is not None:
            side.add(int(game.partner_seat))
        trick = tuple(int(card) for _, card in game.trick)
        leader = int(game.trick[0][0]) if game.trick else int(game.to_act)
        return cls(hands=tuple(game.hands), trump=game.trump, declarer_side=tuple(sorted(side)),
                   leader=leader, trick=trick, trump_broken=game.trump_broken,
                   first_trick=not game.trick_winners,
                   trump_in_first_trick=game.rules.trump_in_first_trick)

    @classmethod
    def from_replay(cls, replay: "GameReplay", step: int) -> "Position":
        """The position after ``replay.steps[step]`` (the engine is run up to that step)."""
        game = game_at_step(replay, step)
        return cls.from_game(game)


def solve(position: Position) -> int:
    """Tricks the declarer's side takes from the trick under way on, with best play by all."""
    if position.tricks_left == 0:
        return 0
    if _native is not None:
        return _native.solve(*position._args())[0]
    return _pysolver.solve(*position._args())


def card_values(position: Position) -> dict[Card, int]:
    """Every legal card of the seat to play, with the tricks the declarer's side then takes
    (from the trick under way on, as ``solve``)."""
    if position.tricks_left == 0:
        return {}
    if _native is not None:
        pairs = _native.card_values(*position._args())[0]
    else:
        pairs = _pysolver.card_values(*position._args())
    return {CARDS[card]: value for card, value in sorted(pairs)}


def best_cards(position: Position, played: int | None = None) -> tuple[int, tuple[Card, ...], int | None]:
    """What an analysis needs: the best value (as ``solve``), the legal cards that reach it,
    and the value of the card ``played`` (None when it is not legal or not given). Cheaper
    than ``card_values``: other cards are only compared with the best."""
    if position.tricks_left == 0:
        return 0, (), None
    if _native is not None:
        best, cards, value, _ = _native.best_cards(*position._args(), -1 if played is None else int(played))
        return best, tuple(CARDS[c] for c in cards), (None if value < 0 else value)
    values = card_values(position)
    pick = max if position.to_act in position.declarer_side else min
    best = pick(values.values())
    value = values.get(CARDS[played]) if played is not None and 0 <= played < 52 else None
    return best, tuple(c for c, v in values.items() if v == best), value


def clear() -> None:
    """Forget the transposition table (it is kept between calls with the same trump,
    sides and flags, which is what makes a whole game's analysis fast)."""
    if _native is not None:
        _native.clear()
    _pysolver.clear()


__all__ = ["BACKEND", "Position", "PositionError", "solve", "card_values", "best_cards", "clear"]
