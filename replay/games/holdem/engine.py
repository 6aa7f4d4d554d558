"""The Texas hold'em engine: one hand, pushed forward one PHH action notation at a time.

``HoldemState`` follows the PHH standard and, where PHH leaves a detail to the implementation,
pokerkit's default behaviour (``replay/games/holdem`` docs list every choice). It never raises
on a breach of the rules: ``push`` returns the findings of the spec's table (first row that
applies), and a fatal one stops rule checking (``stopped``) and leaves the position as it was.
Text that is not PHH action notation at all (an unknown verb, a bad amount) is a format error:
``parse_action`` raises ``replay.log.LogFormatError`` (log readers call it to validate).

The rules where PHH leaves a detail open, as pokerkit 0.7.7 plays them by default (each checked
against pokerkit on random hands, ``tests/games/holdem/test_pokerkit.py``):

- forced bets: antes first (at most the stack), then blinds and straddles (at most the stack
  less the ante); heads-up both lists are read reversed (``[50, 100]``: p1, the big blind, posts
  100 and p2, the button, posts 50 and acts first before the flop). Without
  ``ante_trimming_status`` antes are dead money in the main pot; with it an ante above the second
  largest goes back and antes count as each seat's contribution;
- the first to act before the flop is the seat after the largest blind or straddle (ties: the
  later seat); after the flop p1. Seats all-in, or whose bet already covers every other stack in
  the hand, are skipped;
- a bet or raise is to at least the current bet plus the larger of ``min_bet`` (FT: the street's
  fixed bet) and the largest bet or raise increment of the street (a straddle's own size does not
  count: with 50/100/200 the least raise is to 300); an all-in for less is always allowed;
- an all-in raise for less than a full raise does not reopen the betting for seats that have
  acted (several short all-ins that add up to a full raise do); a seat whose call is less than
  the last full raise increment may not raise; nobody raises when every other seat is all-in;
- fixed-limit: bets ``small_bet`` on the flop and before, ``big_bet`` on the turn and river, at
  most four bets and raises a street (the blinds not counted);
- when a street ends, a bet above the second largest goes back to its owner (not winnings);
- pots: one per all-in level; a pot goes to the best hand among the seats in it; pokerkit first
  puts out the hands that cannot win any pot and forms the pots again from the hands left (pots
  with the same contenders merge); a split pot's odd chips all go to the first winner in seat
  order (p1 first). Decimal amounts split in the smallest unit of the table (cents), the odd
  cents like odd chips (pokerkit's own divmod would give fractions of a cent);
- showdown: ``sm`` may come once the betting is over for good (the hand over, or all-in before
  the river: then before or after the run-out), in any order, by each seat still in; showing is
  never required: known hole cards count whether shown or not (pokerkit counts only cards shown);
  a muck gives up the seat's claim to each pot, but only to the hands still in that pot: a pot
  whose every contender mucked goes to the last of them to muck (ours: pokerkit fails there, or
  burns the chips), never to a seat that is not in it.

Per-seat values are lists indexed like ``state.seats`` (``state.index[seat]`` gives the
index): ``stacks``, ``bets`` (this street's), ``hole`` (two card numbers, ``None`` for an
unknown card, or ``None`` before the deal), ``folded``, ``all_in``. ``by_seat(values)`` turns
one into a dict.

>>> state, findings = HoldemState.from_setup("NT", [0, 0, 0], [50, 100, 0], [10000, 10000, 10000], min_bet=100)
>>> findings, state.dealer_due, state.to_act
([], ('dh', 'p1'), None)
>>> for i, text in enumerate(["d dh p1 Ac2d", "d dh p2 ????", "d dh p3 7h7s"]):
...     assert state.push_action(text, i) == []
>>> state.to_act, state.legal()
('p3', Legal(fold=True, call=100, min_to=200, max_to=10000))
>>> state.push_action("p3 cbr 300", 3), state.push_action("p1 cc", 4), state.push_action("p2 f", 5)
([], [], [])
>>> state.dealer_due, state.pot_total(), state.street
(('db', 3), 700, 'preflop')
>>> state.push_action("d db 7c8d2s", 6), state.push_action("p1 cc", 7), state.push_action("p3 cbr 400", 8)
([], [], [])
>>> state.push_action("p1 f", 9), state.over
([], True)
>>> s = state.settle()
>>> s.stacks, s.payoffs, s.winners, s.settled
([9700, 9900, 10400], [-300, -100, 400], ['p3'], True)
>>> state.push_action("p2 cc", 10)[0].kind
'event_after_end'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any, NamedTuple, Sequence

from replay.games.base import Finding
from replay.log import LogFormatError

from .cards import card_text, cards_text, parse_cards
from .evaluator import rank

#: kind -> fatal, in the order of the spec's table (the first row that applies names a breach)
FINDING_KINDS: dict[str, bool] = {
    "invalid_setup": True,
    "event_after_end": True,
    "out_of_turn": True,
    "wrong_deal": True,
    "duplicate_card": True,
    "bet_too_large": True,
    "bet_too_small": True,
    "raise_not_allowed": True,
    "needless_fold": False,
    "stacks_mismatch": False,
    "winnings_mismatch": False,
    "end_mismatch": False,
}

VARIANTS = ("NT", "FT")
STREETS = ("preflop", "flop", "turn", "river", "showdown")
#: board cards dealt at the start of the flop, turn and river
BOARD_SIZES = (3, 1, 1)
#: pokerkit's default cap on completions, bets and raises a street in fixed-limit games
FT_RAISE_CAP = 4
MIN_SEATS, MAX_SEATS = 2, 10

# phases
HOLE, BET, BOARD, DONE = range(4)


class Legal(NamedTuple):
    """What the seat to act may do: ``fold`` (True when facing a bet: a fold with checking free
    is a ``needless_fold``), ``call`` (the amount ``cc`` puts in; 0 is a check), and the smallest
    and largest legal ``cbr`` totals (both None when no bet or raise is legal; equal in FT)."""

    fold: bool
    call: Any
    min_to: Any
    max_to: Any


@dataclass
class Pot:
    """A pot: its amount, the seats that can win it and, once settled, its winners and their
    shares (in the winners' order)."""

    amount: Any
    seats: tuple[str, ...]
    winners: tuple[str, ...] = ()
    shares: tuple[Any, ...] = ()


@dataclass
class Settlement:
    """How the hand ends: finishing ``stacks`` and ``payoffs`` (lists like ``seats``; a payoff is
    None for a seat whose result could not be worked out), the ``pots`` with winners,
    ``settled`` (every pot's winner known), ``rake`` (pot minus winnings, when winnings are
    logged) and ``winners`` (seats that collected chips from a pot, in seat order)."""

    stacks: list[Any]
    payoffs: list[Any]
    pots: list[Pot]
    settled: bool
    rake: Any = 0
    winners: list[str] = field(default_factory=list)
    winnings: list[Any] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)


def _amount(text: str) -> Any:
    """``300`` -> 300, ``2.50`` -> Decimal('2.50'); anything else raises ValueError."""
    if text.isdigit():
        return int(text)
    try:
        value = Decimal(text)
    except InvalidOperation:
        raise ValueError(text) from None
    if not value.is_finite() or value <= 0:
        raise ValueError(text)
    if value == value.to_integral_value() and "." not in text and "e" not in text.lower():
        return int(value)
    return value


_INDEXES: dict[tuple[str, ...], dict[str, int]] = {}  # seats -> seat -> index
_ROTATIONS: dict[tuple[int, int], tuple[int, ...]] = {}  # (seats, opener) -> the seats from the opener on
_CACHE: dict[str, Any] = {}
_CACHE_SIZE = 50_000
_NOOP = ("noop",)


def _parsed(text: str) -> tuple:
    """``parse_action`` without the seat check, cached (hands repeat most notations); no-ops
    come back as ``_NOOP``."""
    hit = _CACHE.get(text)
    if hit is None:
        hit = parse_action(text)
        if hit is None:
            hit = _NOOP
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.clear()
        _CACHE[text] = hit
    return hit


def parse_action(text: str, seats: Sequence[str] | None = None) -> tuple | None:
    """One PHH action notation -> a tuple, or None for a no-op (empty or a ``# comment``).

    ``("dh", seat, cards)``, ``("db", cards)``, ``(seat, "f")``, ``(seat, "cc")``,
    ``(seat, "cbr", amount)``, ``(seat, "sm", cards | None)`` (no cards: a muck; ``-``: the
    cards dealt, as ``"-"``). Cards are tuples of card numbers (``None`` unknown). With
    ``seats``, a seat that is not one of them is an error too.

    >>> parse_action("p3 cbr 300 # a raise"), parse_action("d dh p1 Ac??"), parse_action("  # hi")
    (('p3', 'cbr', 300), ('dh', 'p1', (48, None)), None)
    >>> parse_action("p1 cbr 2.50"), parse_action("p2 sm -"), parse_action("p2 sm")
    (('p1', 'cbr', Decimal('2.50')), ('p2', 'sm', '-'), ('p2', 'sm', None))
    >>> parse_action("p1 raises 300")
    Traceback (most recent call last):
    ...
    replay.log.LogFormatError: 'p1 raises 300' is not PHH action notation (an unknown action 'raises')
    """
    if "#" in text:
        text = text[:text.index("#")]
    words = text.split()
    if not words:
        return None
    n = len(words)
    actor = words[0]
    if actor == "d":
        if n == 3 and words[1] == "db":
            cards = parse_cards(words[2])
            if cards:
                return ("db", tuple(cards))
        elif n == 4 and words[1] == "dh":
            cards = parse_cards(words[3])
            if cards and _seat_ok(words[2], seats):
                return ("dh", words[2], tuple(cards))
        raise LogFormatError(f"{text.strip()!r} is not PHH action notation (a dealing is 'd db <cards>' "
                             f"or 'd dh <seat> <cards>')")
    if not _seat_ok(actor, seats):
        raise LogFormatError(f"{text.strip()!r} is not PHH action notation (no seat {actor!r})")
    verb = words[1] if n > 1 else ""
    if n == 2 and (verb == "cc" or verb == "f"):
        return (actor, verb)
    if verb == "cbr" and n == 3:
        try:
            return (actor, "cbr", _amount(words[2]))
        except ValueError:
            raise LogFormatError(f"{text.strip()!r} is not PHH action notation (the amount {words[2]!r} "
                                 f"is not a positive number)") from None
    if verb == "sm":
        if n == 2:
            return (actor, "sm", None)
        if n == 3:
            if words[2] == "-":
                return (actor, "sm", "-")
            cards = parse_cards(words[2])
            if cards:
                return (actor, "sm", tuple(cards))
    if verb in ("cc", "f", "cbr", "sm"):
        raise LogFormatError(f"{text.strip()!r} is not PHH action notation (wrong arguments for {verb!r})")
    raise LogFormatError(f"{text.strip()!r} is not PHH action notation (an unknown action {verb!r})")


def _seat_ok(name: str, seats: Sequence[str] | None) -> bool:
    if seats is not None:
        return name in seats
    return len(name) > 1 and name[0] == "p" and name[1:].isdigit()


def _exponent(value: Any) -> int:
    if isinstance(value, Decimal):
        exp = value.as_tuple().exponent
        return exp if isinstance(exp, int) else 0
    return 0


def split(amount: Any, ways: int, exponent: int = 0) -> tuple[Any, Any]:
    """``amount`` split ``ways`` ways -> (each share, the odd chips left over). Integers split in
    chips; decimals in the smallest unit (``10 ** exponent``, the finest of the amount and the
    table's stakes), so the odd cents are odd chips too.

    >>> split(101, 2), split(Decimal("1.01"), 2, -2), split(Decimal("3"), 2, -2)
    ((50, 1), (Decimal('0.50'), Decimal('0.01')), (Decimal('1.50'), Decimal('0.00')))
    """
    if isinstance(amount, int):
        return divmod(amount, ways)
    exp = min(exponent, _exponent(amount))
    units = int(amount.scaleb(-exp))
    q, r = divmod(units, ways)
    return Decimal(q).scaleb(exp), Decimal(r).scaleb(exp)


class HoldemState:
    """One hand of Texas hold'em (see the module's documentation)."""

    __slots__ = (
        "seats", "n", "index", "variant", "antes", "blinds", "starting", "min_bet", "small_bet", "big_bet",
        "ante_trimming", "exponent", "end", "stacks", "bets", "contrib", "dead", "hole", "shown", "folded",
        "board", "street_index", "phase", "next_hole", "actors", "acted", "raise_amount", "raise_count",
        "short_sum", "opener", "all_in_status", "over", "stopped", "steps", "known", "returned", "top",
        "mucked", "revealed",
    )

    # -- construction ----------------------------------------------------------------------
    @classmethod
    def from_setup(cls, variant: str, antes: Sequence[Any], blinds: Sequence[Any], stacks: Sequence[Any],
                   min_bet: Any = None, small_bet: Any = None, big_bet: Any = None, *,
                   ante_trimming: bool = False, seats: Sequence[str] | None = None,
                   end: Any = None) -> "tuple[HoldemState, list[Finding]]":
        """A new hand (blinds and antes posted, hole cards due) and the setup's findings
        (``invalid_setup``, fatal: the state is then ``stopped``)."""
        state = cls.__new__(cls)
        problems = _setup_problems(variant, antes, blinds, stacks, min_bet, small_bet, big_bet)
        n = len(stacks) if stacks is not None else 0
        state.seats = seats = tuple(seats) if seats is not None else tuple(f"p{i + 1}" for i in range(n))
        state.n = n
        index = _INDEXES.get(seats)  # shared: never changed
        if index is None:
            index = {s: i for i, s in enumerate(seats)}
            if len(_INDEXES) < 1000:
                _INDEXES[seats] = index
        state.index = index
        state.variant = variant
        state.end = end
        state.steps = 0
        state.over = False
        state.stopped = False
        if problems:
            state._blank()
            state.stopped = True
            return state, [Finding(0, "invalid_setup", None, "; ".join(problems) + "; rule checking stops here",
                                   None, True)]
        state.antes = list(antes)
        state.blinds = list(blinds)
        state.starting = list(stacks)
        state.min_bet, state.small_bet, state.big_bet = min_bet, small_bet, big_bet
        state.ante_trimming = bool(ante_trimming)
        exponent = 0
        if not (type(sum(antes) + sum(blinds) + sum(stacks)) is int and type(min_bet) is not Decimal
                and type(small_bet) is not Decimal and type(big_bet) is not Decimal):  # else every amount is whole
            for values in (antes, blinds, stacks, (min_bet, small_bet, big_bet)):
                for v in values:
                    if type(v) is not int and v is not None:
                        exponent = min(exponent, _exponent(v))
        state.exponent = exponent
        state._start()
        return state, []

    @classmethod
    def from_log(cls, log: Any) -> "tuple[HoldemState, list[Finding]]":
        """The hand a log sets up (nothing pushed yet) and the setup's findings. Reads ``variant``,
        ``antes``, ``blinds_or_straddles``, ``min_bet``, ``small_bet``, ``big_bet``,
        ``starting_stacks``, ``seats``, ``end`` (kept for ``settle``) and, if present,
        ``ante_trimming_status``. ``judge(log)`` pushes the events too."""
        return cls.from_setup(
            getattr(log, "variant", None), getattr(log, "antes", None), getattr(log, "blinds_or_straddles", None),
            getattr(log, "starting_stacks", None), getattr(log, "min_bet", None), getattr(log, "small_bet", None),
            getattr(log, "big_bet", None), ante_trimming=bool(getattr(log, "ante_trimming_status", False) or False),
            seats=getattr(log, "seats", None), end=getattr(log, "end", None))

    def _blank(self) -> None:
        n = self.n
        self.antes = self.blinds = self.starting = [0] * n
        self.min_bet = self.small_bet = self.big_bet = None
        self.ante_trimming = False
        self.exponent = 0
        self.stacks = [0] * n
        self.bets = [0] * n
        self.contrib = [0] * n
        self.dead = 0
        self._new_hand(n, DONE)
        self.returned = [0] * n
        self.top = 0

    def _new_hand(self, n: int, phase: int) -> None:
        """What a hand starts with before any card or action: no cards, nobody folded or acted."""
        self.hole = [None] * n
        self.shown = [False] * n  # shown or mucked (``may_show``)
        self.revealed = [False] * n  # shown (``sm <cards>`` or ``sm -``): what every seat may see
        self.folded = [False] * n
        self.board = []
        self.street_index = 0
        self.phase = phase
        self.next_hole = 0
        self.actors = []
        self.acted = 0
        self.raise_amount = 0
        self.raise_count = 0
        self.short_sum = 0
        self.opener = 0
        self.all_in_status = False
        self.known = 0
        self.mucked = []

    def _start(self) -> None:
        """Antes (then collected), blinds and straddles posted; hole cards due (pokerkit's order)."""
        n = self.n
        heads_up = n == 2
        starting = self.starting
        stacks = list(starting)
        antes = self.antes[::-1] if heads_up else self.antes
        blinds = self.blinds[::-1] if heads_up else self.blinds
        contrib = [0] * n
        self.returned = [0] * n
        dead = 0
        if not any(antes):  # the common table, no antes
            posted = contrib
            bets = [b if 0 <= b <= s else min(abs(b), s) for b, s in zip(blinds, starting)]
        else:
            posted = [min(antes[i], starting[i]) for i in range(n)]
            # pokerkit: a blind is at most the starting stack less the ante (even one trimmed back)
            bets = [min(abs(blinds[i]), starting[i] - posted[i]) for i in range(n)]
        if any(posted):
            for i in range(n):
                stacks[i] -= posted[i]
            if self.ante_trimming:  # pokerkit trims an ante above the second largest, then collects
                cutoff = sorted(posted)[-2]
                for i in range(n):
                    if posted[i] > cutoff:
                        stacks[i] += posted[i] - cutoff
                        posted[i] = cutoff
                contrib = posted
            else:  # antes are dead money in the main pot
                dead = sum(posted)
        for i in range(n):
            stacks[i] -= bets[i]
        self.stacks = stacks
        self.bets = bets
        self.top = max(bets)
        self.contrib = list(contrib)
        self.dead = dead
        self._new_hand(n, HOLE)

    def copy(self) -> "HoldemState":
        new = HoldemState.__new__(HoldemState)
        for name in HoldemState.__slots__:
            value = getattr(self, name)
            if type(value) is list:
                value = [list(v) if type(v) is list else v for v in value]
            setattr(new, name, value)
        return new

    # -- views -----------------------------------------------------------------------------
    @property
    def street(self) -> str:
        return STREETS[self.street_index]

    @property
    def button(self) -> str:
        return self.seats[-1]

    @property
    def all_in(self) -> list[bool]:
        """Seats still in the hand with no chips behind."""
        return [not self.folded[i] and not self.stacks[i] for i in range(self.n)]

    @property
    def to_act(self) -> str | None:
        if self.phase == BET and self.actors and not self.stopped:
            return self.seats[self.actors[0]]
        return None

    @property
    def dealer_due(self) -> tuple | None:
        if self.stopped:
            return None
        if self.phase == HOLE:
            return ("dh", self.seats[self.next_hole])
        if self.phase == BOARD:
            return ("db", BOARD_SIZES[self.street_index])
        return None

    def may_show(self) -> list[str]:
        """The seats that may show or muck now (``sm``): at a showdown (the hand over, or every
        seat but one all-in), each seat still in the hand that has not shown yet. Showing is
        never required: a seat's known cards count at the showdown whether shown or not."""
        if self.stopped or not (self.over or (self.all_in_status and self.phase != BET)):
            return []
        return [self.seats[i] for i in range(self.n) if not self.folded[i] and not self.shown[i]]

    def by_seat(self, values: Sequence[Any]) -> dict[str, Any]:
        return dict(zip(self.seats, values))

    def active_count(self) -> int:
        return self.folded.count(False)

    def pot_total(self) -> Any:
        """Everything in the middle: collected pots and this street's bets."""
        return self.dead + sum(self.contrib) + sum(self.bets)

    def pots(self) -> list[Pot]:
        """The main pot and side pots collected so far, each with the seats in the hand that have
        put in enough to win it (pokerkit's rule: a pot for each all-in level, antes dead money in
        the main pot); this street's bets are in ``bets`` until the street ends. A seat that mucked
        is in no pot that still has a hand in it; a pot whose every contender mucked names them and
        its winner already, the last of them to muck (see ``_claims``)."""
        seats = self.seats
        return [Pot(amount, tuple(seats[i] for i in eligible)) if taker is None else
                Pot(amount, tuple(seats[i] for i in eligible), (seats[taker],), (amount,))
                for amount, eligible, taker in self._claims()]

    def _claims(self, alive: set[int] | None = None) -> list[tuple[Any, tuple[int, ...], int | None]]:
        """The pots as the showdown's mucks leave them, main pot first: ``(amount, seats, taker)``.

        A muck forfeits the seat's claim only to the hands still in the same pot. A pot that still
        has a hand in it is formed without the seats that mucked (pokerkit's rule: they are out of
        the hand, and pots with the same contenders merge), ``taker`` None. A pot whose every
        contender mucked (pokerkit cannot settle it: it fails, or burns the chips) goes to the last
        of them to muck, ``taker`` (the rule of the last seat left, pot by pot: nobody contests it,
        and a seat that did not put enough in to be in it never takes it); ``seats`` are then its
        contenders. ``alive``: the only seats left to contest the pots that still have hands in them
        (pokerkit's hand killing). A pot nobody is in at all (not a hand played by the rules) keeps
        ``seats`` empty."""
        mucked = self.mucked
        if not mucked and alive is None:
            return [(amount, eligible, None) for amount, eligible in self._pots()]
        n = self.n
        by_fold = [self.folded[i] and i not in mucked for i in range(n)]  # out by a fold, not a muck
        out = [by_fold[i] or i in mucked or (alive is not None and i not in alive) for i in range(n)]
        claims = [(level, amount, eligible, None) for amount, eligible, level in self._pot_levels(out) if eligible]
        for amount, eligible, level in self._pot_levels(by_fold):
            if not eligible:
                claims.append((level, amount, eligible, None))
            elif all(i in mucked for i in eligible):
                claims.append((level, amount, eligible, max(eligible, key=mucked.index)))
        claims.sort(key=lambda claim: claim[0])
        return [(amount, eligible, taker) for _, amount, eligible, taker in claims]

    def _pots(self, out: Sequence[bool] | None = None) -> list[tuple[Any, tuple[int, ...]]]:
        return [(amount, eligible) for amount, eligible, _ in self._pot_levels(out)]

    def _pot_levels(self, out: Sequence[bool] | None = None) -> list[tuple[Any, tuple[int, ...], Any]]:
        """``(amount, seats, level)`` for each pot: the seats not ``out`` (by default: folded) that
        put in up to its level, the contribution it reaches up to."""
        n = self.n
        paid = self.contrib
        bets = self.bets
        folded = self.folded if out is None else out
        pots: list[tuple[Any, tuple[int, ...], Any]] = []
        amount = self.dead
        previous = 0
        for level in sorted(set(paid)):
            count = 0
            eligible = []
            for i in range(n):
                if paid[i] >= level:
                    count += 1
                if not folded[i] and paid[i] + bets[i] >= level:
                    eligible.append(i)
            amount += (level - previous) * count
            key = tuple(eligible)
            while pots and pots[-1][1] == key:
                amount += pots.pop()[0]
            if amount:
                pots.append((amount, key, level))
            amount = 0
            previous = level
        return pots

    def unseen(self) -> list[int]:
        """Card numbers not dealt face-up nor known to anybody (the deck left)."""
        known = self.known
        return [c for c in range(52) if not known >> c & 1]

    def legal(self) -> Legal | None:
        """What the seat to act may do (None when no seat must act: see ``dealer_due``)."""
        if self.phase != BET or not self.actors or self.stopped:
            return None
        p = self.actors[0]
        bets = self.bets
        top = self.top
        call = min(self.stacks[p], top - bets[p])
        if self._raise_refusal(p, top, call) is not None:
            return Legal(bets[p] < top, call, None, None)
        low, high = self._raise_range(p, top)
        return Legal(bets[p] < top, call, low, high)

    def _street_bet(self) -> Any:
        if self.variant == "FT":
            return self.small_bet if self.street_index < 2 else self.big_bet
        return self.min_bet

    def _raise_range(self, p: int, top: Any) -> tuple[Any, Any]:
        total = self.stacks[p] + self.bets[p]
        if self.variant == "FT":
            size = self.small_bet if self.street_index < 2 else self.big_bet
        else:
            size = self.min_bet
        low = top + (self.raise_amount if self.raise_amount > size else size)
        if low > total:
            low = total
        return low, (low if self.variant == "FT" else total)

    def _raise_refusal(self, p: int, top: Any, call: Any) -> str | None:
        """Why seat ``p`` may not bet or raise now (pokerkit's rules), or None."""
        if call < self.raise_amount:
            return "an all-in for less did not reopen the betting"
        if self.variant == "FT" and self.raise_count >= FT_RAISE_CAP:
            return f"the betting is capped ({FT_RAISE_CAP} bets and raises a street)"
        if self.short_sum and self.short_sum < self.raise_amount and self.acted >> p & 1:
            return "an all-in for less did not reopen the betting for a seat that has acted"
        if self.stacks[p] <= top - self.bets[p]:
            return "the seat can only call (it is covered)"
        bets, stacks, folded = self.bets, self.stacks, self.folded
        for i in range(self.n):
            if i != p and not folded[i] and stacks[i] + bets[i] > top:
                return None
        return "every other seat has folded or is all-in"

    # -- pushing ---------------------------------------------------------------------------
    def push(self, event: Any, index: int | None) -> list[Finding]:
        """Apply one logged event (``.type`` "action" with ``.action`` the notation; other types,
        such as chat, change nothing)."""
        if event.type == "action":
            return self.push_action(event.action, index)
        return []

    def push_action(self, text: str, index: int | None = None) -> list[Finding]:
        """Apply one PHH action notation; the findings it caused."""
        if self.stopped:
            return []
        action = _CACHE.get(text) or _parsed(text)
        if action is _NOOP:
            return []
        first, verb = action[0], action[1]
        if self.phase == BET:
            if verb == "cc":  # the commonest action, inline
                actors = self.actors
                p = self.index.get(first)
                if actors and p == actors[0]:
                    bets = self.bets
                    amount = self.top - bets[p]
                    stack = self.stacks[p]
                    if amount > stack:
                        amount = stack
                    actors.pop(0)
                    self.acted |= 1 << p
                    bets[p] += amount
                    self.stacks[p] = stack - amount
                    self.steps += 1
                    if not actors:
                        self._end_betting()
                    return []
            elif verb == "f":  # the next commonest, inline
                actors = self.actors
                p = self.index.get(first)
                if actors and p == actors[0]:
                    findings = []
                    if self.bets[p] >= self.top:
                        findings.append(Finding(self.steps + 1, "needless_fold", first,
                                                f"{first} folds when checking was free (the fold counts)", index))
                    actors.pop(0)
                    self.acted |= 1 << p
                    folded = self.folded
                    folded[p] = True
                    self.steps += 1
                    if not actors or folded.count(False) <= 1:
                        self._end_betting()
                    return findings
        elif verb == "sm":
            p = self.index.get(first)
            if p is not None:
                return self._show(p, action[2], index)
        elif first == "dh":
            return self._deal_hole(verb, action[2], index)
        elif first == "db":
            return self._deal_board(verb, index)
        return self.apply(action, index)

    def apply(self, action: tuple, index: int | None = None) -> list[Finding]:
        """Apply one parsed action (``parse_action``'s tuple)."""
        if self.stopped:
            return []
        first = action[0]
        if first == "dh":
            return self._deal_hole(action[1], action[2], index)
        if first == "db":
            return self._deal_board(action[1], index)
        verb = action[1]
        p = self.index.get(first)
        if p is None:
            raise LogFormatError(f"{first!r} is not a seat of this hand ({', '.join(self.seats)})")
        if verb == "sm":
            return self._show(p, action[2], index)
        if self.phase != BET or not self.actors:
            if self.over:
                return self._fatal("event_after_end", first, index, f"{first} acts after the hand is over")
            due = self.dealer_due
            what = "the hole cards of " + due[1] if due[0] == "dh" else "the " + STREETS[self.street_index]
            return self._fatal("out_of_turn", first, index, f"{first} acts while the dealer must deal {what}")
        actor = self.actors[0]
        if p != actor:
            return self._fatal("out_of_turn", first, index, f"{first} acts out of turn ({self.seats[actor]} is to act)")
        bets = self.bets
        if verb == "cc":
            amount = self.top - bets[p]
            stack = self.stacks[p]
            if amount > stack:
                amount = stack
            self.actors.pop(0)
            self.acted |= 1 << p
            bets[p] += amount
            self.stacks[p] = stack - amount
            self.steps += 1
            if not self.actors:
                self._end_betting()
            return []
        if verb == "f":
            findings = []
            if bets[p] >= self.top:
                findings.append(Finding(self.steps + 1, "needless_fold", first,
                                        f"{first} folds when checking was free (the fold counts)", index))
            self.actors.pop(0)
            self.acted |= 1 << p
            self.folded[p] = True
            self.steps += 1
            if not self.actors or self.folded.count(False) <= 1:
                self._end_betting()
            return findings
        return self._raise(p, action[2], index)

    def _raise(self, p: int, to: Any, index: int | None) -> list[Finding]:
        seat = self.seats[p]
        bets, stacks = self.bets, self.stacks
        top = self.top
        total = stacks[p] + bets[p]
        low, high = self._raise_range(p, top)
        if to > high:
            if self.variant == "FT" and to <= total:
                return self._fatal("bet_too_large", seat, index,
                                   f"{seat} bets to {to}, but a fixed-limit bet or raise here is to {high}")
            return self._fatal("bet_too_large", seat, index, f"{seat} bets to {to} with only {total} in front and behind")
        if self.variant == "FT" and top < to < low:  # not the fixed size, and not all-in (low is then the stack)
            return self._fatal("bet_too_large", seat, index,
                               f"{seat} bets to {to}, but a fixed-limit bet or raise here is to {high}")
        if to <= top:
            return self._fatal("bet_too_small", seat, index,
                               f"{seat} bets to {to}, not more than the bet of {top} already made (a call is 'cc')")
        if to < low:
            return self._fatal("bet_too_small", seat, index,
                               f"{seat} bets to {to}, below the minimum of {low}, and is not all-in")
        call = min(stacks[p], top - bets[p])
        refusal = self._raise_refusal(p, top, call)
        if refusal is not None:
            return self._fatal("raise_not_allowed", seat, index, f"{seat} may not raise: {refusal}")
        self.actors.pop(0)
        increment = to - top
        stacks[p] -= to - bets[p]
        bets[p] = to
        self.top = to
        n = self.n
        folded = self.folded
        actors = []
        for k in range(1, n):
            i = (p + k) % n
            if not folded[i] and stacks[i]:
                actors.append(i)
        self.actors = actors
        self.opener = p
        if increment >= self.raise_amount:
            self.acted = 1 << p
        else:
            self.acted |= 1 << p
        if increment > self.raise_amount:
            self.raise_amount = increment
        self.raise_count += 1
        if stacks[p]:
            self.short_sum = 0
        else:
            self.short_sum += increment
        if self.short_sum >= self.raise_amount:
            self.short_sum = 0
        self.steps += 1
        if not actors:
            self._end_betting()
        return []

    def _fatal(self, kind: str, seat: str | None, index: int | None, message: str) -> list[Finding]:
        self.stopped = True
        return [Finding(self.steps, kind, seat, message + "; rule checking stops here", index, True)]

    def _deal_hole(self, seat: str, cards: tuple, index: int | None) -> list[Finding]:
        i = self.next_hole
        if self.phase == HOLE and len(cards) == 2 and self.seats[i] == seat:  # the common deal, lean
            c0, c1 = cards
            if c0 is not None and c1 is not None and c0 != c1:
                bits = (1 << c0) | (1 << c1)
                known = self.known
                if not known & bits:
                    self.known = known | bits
                    self.hole[i] = [c0, c1]
                    self.next_hole = i = i + 1
                    self.steps += 1
                    if i == self.n:
                        self._begin_betting()
                    return []
        if seat not in self.index:
            raise LogFormatError(f"{seat!r} is not a seat of this hand ({', '.join(self.seats)})")
        if self.phase != HOLE:
            if self.over:
                return self._fatal("event_after_end", seat, index, f"the dealer deals {seat} cards after the hand is over")
            if self.phase == BET:
                return self._fatal("out_of_turn", seat, index,
                                   f"the dealer deals {seat} cards while {self.to_act} must act")
            return self._fatal("wrong_deal", seat, index,
                               f"the dealer deals {seat} hole cards when the {STREETS[self.street_index]} is due")
        due = self.seats[self.next_hole]
        if seat != due:
            return self._fatal("wrong_deal", seat, index, f"the dealer deals {seat} hole cards before {due}")
        if len(cards) != 2:
            return self._fatal("wrong_deal", seat, index, f"the dealer deals {seat} {len(cards)} hole cards, not 2")
        problem = self._take_cards(cards)
        if problem:
            return self._fatal("duplicate_card", seat, index, f"the dealer deals {seat} {problem}")
        self.hole[self.next_hole] = list(cards)
        self.next_hole += 1
        self.steps += 1
        if self.next_hole == self.n:
            self._begin_betting()
        return []

    def _take_cards(self, cards: list) -> str | None:
        known = self.known
        for c in cards:
            if c is not None:
                bit = 1 << c
                if known & bit:
                    return f"{card_text(c)}, a card already dealt"
                known |= bit
        self.known = known
        return None

    def _deal_board(self, cards: list, index: int | None) -> list[Finding]:
        if self.phase == BOARD and len(cards) == BOARD_SIZES[self.street_index] and None not in cards:
            bits = 0  # the common deal, lean: known cards, none dealt before, none twice
            for c in cards:
                bits |= 1 << c
            known = self.known
            if not known & bits and bits.bit_count() == len(cards):
                self.known = known | bits
                self.board.extend(cards)
                self.street_index += 1
                self.steps += 1
                self._begin_betting()
                return []
        if self.phase != BOARD:
            if self.over:
                return self._fatal("event_after_end", None, index, "the dealer deals the board after the hand is over")
            if self.phase == BET:
                return self._fatal("out_of_turn", None, index,
                                   f"the dealer deals the board while {self.to_act} must act")
            return self._fatal("wrong_deal", None, index,
                               f"the dealer deals the board while the hole cards of {self.seats[self.next_hole]} are due")
        size = BOARD_SIZES[self.street_index]
        if len(cards) != size:
            return self._fatal("wrong_deal", None, index,
                               f"the dealer deals {len(cards)} board cards on the {STREETS[self.street_index + 1]}, not {size}")
        problem = self._take_cards(cards)
        if problem:
            return self._fatal("duplicate_card", None, index, f"the dealer deals the board {problem}")
        self.board.extend(cards)
        self.street_index += 1
        self.steps += 1
        self._begin_betting()
        return []

    def _show(self, p: int, cards: Any, index: int | None) -> list[Finding]:
        showdown = self.over or (self.all_in_status and self.phase != BET)
        if showdown and not self.folded[p] and not self.shown[p] and (
                cards == "-" or (cards is not None and None not in cards and list(cards) == self.hole[p])):
            self.revealed[p] = True  # the common show, lean: the cards dealt
            self.shown[p] = True
            self.steps += 1
            return []
        seat = self.seats[p]
        if not showdown or self.folded[p] or self.shown[p]:
            if self.over:
                return self._fatal("event_after_end", seat, index,
                                   f"{seat} shows or mucks after the hand is over "
                                   + ("(it had folded)" if self.folded[p] else "(it already did)"))
            if self.folded[p]:
                why = f"{seat} has folded"
            elif self.shown[p]:
                why = f"{seat} has already shown or mucked"
            elif self.phase == BET:
                why = f"{self.to_act} is to act"
            else:
                why = "the showdown has not come"
            return self._fatal("out_of_turn", seat, index, f"{seat} shows or mucks out of turn ({why})")
        hole = self.hole[p]
        if cards is None:  # a muck: the seat is out of the hand (unless it is the last seat in it); it
            self.mucked.append(p)  # forfeits each pot only to a hand still in it (see ``_claims``)
            if self.folded.count(False) > 1:
                self.folded[p] = True
        elif cards != "-":
            dealt = [c for c in hole if c is not None]
            shown = [c for c in cards if c is not None]
            if len(cards) != 2:
                return self._fatal("duplicate_card", seat, index, f"{seat} shows {len(cards)} cards, not its 2")
            if len(set(shown)) != len(shown):
                return self._fatal("duplicate_card", seat, index, f"{seat} shows one card twice")
            new = []
            if len([c for c in dealt if c not in shown]) + len(shown) > 2:
                return self._fatal("duplicate_card", seat, index,
                                   f"{seat} shows {cards_text(cards)}, but it was dealt {cards_text(hole)}")
            for c in shown:
                if c not in dealt:
                    if len(dealt) == 2 or self.known >> c & 1:
                        return self._fatal("duplicate_card", seat, index,
                                           f"{seat} shows {card_text(c)}, which it was not dealt "
                                           f"(it was dealt {cards_text(hole)})")
                    new.append(c)
            for c in new:
                self.known |= 1 << c
            merged = list(shown) + [c for c in dealt if c not in shown]
            merged += [None] * (2 - len(merged))
            self.hole[p] = merged[:2]
        if cards is not None:
            self.revealed[p] = True
        self.shown[p] = True
        self.steps += 1
        return []

    # -- the flow of a hand (pokerkit's) ---------------------------------------------------
    def _begin_betting(self) -> None:
        n = self.n
        bets, stacks, folded = self.bets, self.stacks, self.folded
        if self.street_index == 0:
            blinds = self.blinds[::-1] if n == 2 else self.blinds
            # the seat with the largest blind (by its sign: a negative one counts as less), ties the later
            best = 0
            best_value = None
            for i in range(n):
                b = blinds[i]
                value = bets[i] if b > 0 else -bets[i] if b < 0 else 0
                if best_value is None or value >= best_value:
                    best_value, best = value, i
            opener = (best + 1) % n
        else:
            opener = 0
        self.opener = opener
        # pokerkit leaves out seats whose effective stack is nothing: all-in, or a bet already as
        # big as what the second biggest seat in the hand has
        first = second = 0
        for i in range(n):
            if not folded[i]:
                t = bets[i] + stacks[i]
                if t > first:
                    first, second = t, first
                elif t > second:
                    second = t
        order = _ROTATIONS.get((n, opener))
        if order is None:
            order = _ROTATIONS[(n, opener)] = tuple(range(opener, n)) + tuple(range(opener))
        self.actors = actors = [i for i in order if not folded[i] and stacks[i] and bets[i] < second]
        self.raise_amount = 0
        self.raise_count = 0
        self.acted = 0
        self.short_sum = 0
        self.phase = BET
        if not actors or (len(actors) == 1 and bets[actors[0]] >= self.top) or folded.count(False) <= 1:
            self._end_betting()

    def _end_betting(self) -> None:
        n = self.n
        self.actors = []
        folded, stacks, bets = self.folded, self.stacks, self.bets
        active = folded.count(False)
        if active > 1:
            behind = 0
            for i in range(n):
                if not folded[i] and stacks[i]:
                    behind += 1
            if behind <= 1:
                self.all_in_status = True
        # collect: a bet above the second largest is uncalled and goes back to its owner
        if any(bets):
            cutoff = sorted(bets)[-2]
            contrib = self.contrib
            for i in range(n):
                b = bets[i]
                if b > cutoff:
                    stacks[i] += b - cutoff
                    self.returned[i] += b - cutoff
                    b = cutoff
                contrib[i] += b
                bets[i] = 0
            self.top = 0
        if active <= 1:
            self._finish()
        elif self.street_index == 3:
            self.street_index = 4
            self._finish()
        else:
            self.phase = BOARD

    def _finish(self) -> None:
        self.phase = DONE
        self.over = True
        self.actors = []

    # -- the end -------------------------------------------------------------------------
    def settle(self, winnings: Sequence[Any] | None = None,
               finishing_stacks: Sequence[Any] | None = None) -> Settlement:
        """Who wins each pot, the finishing stacks and payoffs. A pot whose winner the known cards
        cannot tell is settled from ``winnings`` or ``finishing_stacks`` (by default the log's
        ``end``'s), checked; without them the hand stays unsettled. Findings about ``end``
        (``winnings_mismatch``, ``stacks_mismatch``) are in ``settlement.findings``."""
        end = self.end
        if winnings is None and end is not None:
            winnings = getattr(end, "winnings", None)
        if finishing_stacks is None and end is not None:
            finishing_stacks = getattr(end, "finishing_stacks", None)
        n, seats = self.n, self.seats
        base = [self.stacks[i] + self.bets[i] for i in range(n)]  # behind, before the pots are pushed
        mucked = self.mucked
        if (self.over and winnings is None and finishing_stacks is None
                and (self.folded.count(False) if not mucked else
                     [self.folded[i] and i not in mucked for i in range(n)].count(False)) == 1):
            # the common end, everybody else folded (not mucked): one pot, to the last seat
            w = self.folded.index(False)
            total = self.pot_total()
            won = [0] * n
            won[w] = total
            stacks = [base[i] + won[i] for i in range(n)]
            starting = self.starting
            return Settlement(stacks, [stacks[i] - starting[i] for i in range(n)],
                              [Pot(total, (seats[w],), (seats[w],), (total,))], True, 0, [seats[w]], won, [])
        board = self.board
        complete = len(board) == 5 and None not in board
        if self.over and complete and not mucked and winnings is None and finishing_stacks is None:
            # the common showdown: one pot, every hand in it known (else the whole way below)
            paid = self.contrib
            top = max(paid)
            folded = self.folded
            pots_ = None
            if not any(self.bets):
                eligible = tuple(i for i in range(n) if not folded[i])
                amount = self.dead + sum(paid)
                if amount and all(paid[i] == top for i in eligible):
                    pots_ = [(amount, eligible)]  # every seat still in paid the most: one pot (``_pot_levels``)
            if pots_ is None:
                pots_ = self._pots()
            if len(pots_) == 1 and pots_[0][1]:
                amount, eligible = pots_[0]
                hole = self.hole
                best = None
                winners_ = []
                for i in eligible:
                    cards = hole[i]
                    if cards is None or None in cards:
                        break
                    r = rank(cards + board)
                    if best is None or r > best:
                        best, winners_ = r, [i]
                    elif r == best:
                        winners_.append(i)
                else:
                    each, odd = split(amount, len(winners_), self.exponent)
                    shares = [each + odd if j == 0 else each for j in range(len(winners_))]
                    won = [0] * n
                    for i, share_ in zip(winners_, shares):
                        won[i] += share_
                    stacks = [base[i] + won[i] for i in range(n)]
                    starting = self.starting
                    return Settlement(stacks, [stacks[i] - starting[i] for i in range(n)],
                                      [Pot(amount, tuple(seats[i] for i in eligible),
                                           tuple(seats[i] for i in winners_), tuple(shares))],
                                      True, 0, [seats[i] for i in range(n) if won[i]], won, [])
        # the pots, each with the seats that still hold a hand in it, or with its taker when every
        # contender mucked (a muck forfeits a pot only to a hand still in it: ``_claims``)
        claims = self._claims()
        ranks: dict[int, int | None] = {}
        if self.over and complete and len(claims) > 1:
            # pokerkit kills the hands that cannot win any pot, then forms the pots again from the
            # hands left (pots with the same contenders merge, which moves odd chips)
            for _, eligible, taker in claims:
                for i in eligible if taker is None else ():
                    if i not in ranks:
                        hole = self.hole[i]
                        ranks[i] = None if hole is None or None in hole else rank(hole + board)
            if None not in ranks.values():
                alive = set()
                for _, eligible, taker in claims:
                    if taker is None and eligible:
                        best = max(ranks[i] for i in eligible)
                        alive.update(i for i in eligible if ranks[i] == best)
                claims = self._claims(alive)
        raw = [(amount, eligible) for amount, eligible, _ in claims]
        pot_total = self.dead + sum(self.contrib) + sum(self.bets)
        share = [0] * n
        pots: list[Pot] = []
        unknown: list[int] = []
        for k, (amount, eligible, taker) in enumerate(claims):
            if taker is not None:
                winners = [taker]
            elif len(eligible) == 1:
                winners = list(eligible)
            elif not self.over or not complete:
                winners = None
            else:
                best = None
                winners = []
                for i in eligible:
                    if i not in ranks:
                        hole = self.hole[i]
                        ranks[i] = None if hole is None or None in hole else rank(hole + board)
                    r = ranks[i]
                    if r is None:
                        winners = None
                        break
                    if best is None or r > best:
                        best, winners = r, [i]
                    elif r == best:
                        winners.append(i)
            if winners is None or not eligible:
                unknown.append(k)
                pots.append(Pot(amount, tuple(seats[i] for i in eligible)))
                continue
            each, odd = split(amount, len(winners), self.exponent)
            shares = [each + odd if j == 0 else each for j in range(len(winners))]
            for i, s in zip(winners, shares):
                share[i] += s
            pots.append(Pot(amount, tuple(seats[i] for i in eligible), tuple(seats[i] for i in winners),
                            tuple(shares)))
        findings: list[Finding] = []
        step = self.steps
        # the most each seat could have won: its share plus every unknown pot it is in
        most = list(share)
        for k in unknown:
            for i in raw[k][1]:
                most[i] += raw[k][0]
        logged = None
        source = ""
        if winnings is not None and len(winnings) == n:
            logged = list(winnings)
            source = "winnings"
        elif finishing_stacks is not None and len(finishing_stacks) == n and unknown:
            logged = [finishing_stacks[i] - base[i] for i in range(n)]
            source = "finishing_stacks"
        usable = False
        if logged is not None and self.over:
            usable = True
            for i in range(n):
                w = logged[i]
                if w < 0 or w > most[i]:
                    usable = False
                    what = ("won no pot" if most[i] == 0 else f"could win at most {most[i]}")
                    if source == "winnings":
                        findings.append(Finding(step, "winnings_mismatch", seats[i],
                                                f"the log gives {seats[i]} winnings of {w}, but it {what}", None))
                    else:
                        findings.append(Finding(step, "stacks_mismatch", seats[i],
                                                f"the log gives {seats[i]} a finishing stack of {finishing_stacks[i]}: "
                                                f"{w} from the pots, but it {what}", None))
            if usable and sum(logged) > pot_total:
                usable = False  # chips are not conserved: more paid out than went in
                kind = "winnings_mismatch" if source == "winnings" else "stacks_mismatch"
                findings.append(Finding(step, kind, None,
                                        f"the log's {source} pay out {sum(logged)} from pots of {pot_total}", None))
        settled = not unknown and self.over
        rake: Any = 0
        if usable:
            winnings_out = logged
            rake = pot_total - sum(logged)
            if unknown:
                # name the winners of the unknown pots: seats in them that collected beyond known shares
                for k in unknown:
                    amount, eligible = raw[k]
                    takers = tuple(seats[i] for i in eligible if logged[i] > share[i])
                    pots[k] = Pot(amount, pots[k].seats, takers, ())
                settled = True
        elif settled:
            winnings_out = share
        else:
            winnings_out = [None if any(i in raw[k][1] for k in unknown) else share[i] for i in range(n)]
        stacks = [base[i] + winnings_out[i] if winnings_out[i] is not None else base[i] for i in range(n)]
        payoffs = [stacks[i] - self.starting[i] if winnings_out[i] is not None else None for i in range(n)]
        if finishing_stacks is not None and len(finishing_stacks) == n and self.over and (settled or usable):
            for i in range(n):
                if finishing_stacks[i] != stacks[i]:
                    findings.append(Finding(step, "stacks_mismatch", seats[i],
                                            f"the log gives {seats[i]} a finishing stack of {finishing_stacks[i]}, "
                                            f"the engine {stacks[i]}", None))
        winners = [seats[i] for i in range(n) if winnings_out[i]]
        return Settlement(stacks, payoffs, pots, settled, rake, winners, winnings_out, findings)

    def end_findings(self, reason: str | None) -> list[Finding]:
        """``end_mismatch`` when the logged end reason and the position disagree."""
        if reason is None or self.stopped:
            return []
        if reason == "completed" and not self.over:
            due = self.to_act or (self.dealer_due and "the dealer")
            return [Finding(self.steps, "end_mismatch", None,
                            f"the log says the hand was completed, but it is not over ({due} must act)", None)]
        if reason != "completed" and self.over:
            return [Finding(self.steps, "end_mismatch", None,
                            f"the log says the hand was {reason}, but it is over", None)]
        return []


def _setup_problems(variant, antes, blinds, stacks, min_bet, small_bet, big_bet) -> list[str]:
    # the common case first, cheaply: every check below passes
    if (variant == "NT" and min_bet is not None and min_bet > 0 and antes is not None and blinds is not None
            and stacks is not None and MIN_SEATS <= len(stacks) <= MAX_SEATS
            and len(antes) == len(stacks) == len(blinds) and None not in stacks and min(stacks) > 0
            and min(antes) >= 0 and (any(blinds) or any(antes))):
        return []
    problems = []
    if variant not in VARIANTS:
        problems.append(f"the variant must be NT or FT, not {variant!r}")
    lists = {"antes": antes, "blinds_or_straddles": blinds, "starting_stacks": stacks}
    for name, value in lists.items():
        if value is None:
            problems.append(f"{name} is missing")
    present = {name: len(v) for name, v in lists.items() if v is not None}
    if len(set(present.values())) > 1:
        problems.append("antes, blinds_or_straddles and starting_stacks have different lengths ("
                        + ", ".join(f"{k} {v}" for k, v in present.items()) + ")")
    if stacks is not None and not MIN_SEATS <= len(stacks) <= MAX_SEATS:
        problems.append(f"{len(stacks)} seats; a hand has {MIN_SEATS} to {MAX_SEATS}")
    if stacks is not None and any(s is None or s <= 0 for s in stacks):
        problems.append("every starting stack must be positive")
    if antes is not None and any(a < 0 for a in antes):
        problems.append("antes must not be negative")
    if variant == "NT" and (min_bet is None or min_bet <= 0):
        problems.append("no-limit needs a positive min_bet")
    if variant == "FT" and (small_bet is None or big_bet is None or small_bet <= 0 or big_bet <= 0):
        problems.append("fixed-limit needs a positive small_bet and big_bet")
    if not problems and not any(antes) and not any(blinds):
        problems.append("no antes, blinds or straddles: somebody must post a forced bet")
    return problems


def judge(log: Any) -> "tuple[HoldemState, list[Finding], Settlement | None]":
    """A whole log judged: (final state, findings in order, settlement or None when stopped)."""
    state, findings = HoldemState.from_log(log)
    if state.stopped:
        return state, findings, None
    for number, event in enumerate(log.events):
        if event.type != "action":
            continue
        new = state.push_action(event.action, number)
        if new:
            findings.extend(new)
            if state.stopped:
                break
    if state.stopped:
        return state, findings, None
    settlement = state.settle()
    findings.extend(settlement.findings)
    end = getattr(log, "end", None)
    findings.extend(state.end_findings(getattr(end, "reason", None) if end is not None else None))
    return state, findings, settlement


__all__ = ["FINDING_KINDS", "HoldemState", "Legal", "Pot", "Settlement", "judge", "parse_action", "split"]
