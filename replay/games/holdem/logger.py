"""HoldemLogger: what a poker bot (or the host of its table) calls while a hand is played.

The table is set up when the logger is made; then every deal and every action is one call, and
each becomes one PHH action notation in the ``holdem/1`` log (``d dh p1 Ac2d``, ``p3 cbr 300``).

>>> logger = HoldemLogger(players=["Ann", "Bob", {"name": "callbot", "bot": "callbot-2"}],
...                       blinds=(50, 100), stacks=10000, clock=None)
>>> logger.deal_hole("p1", "Ac 2d"); logger.deal_hole(2, ["??", "??"]); logger.deal_hole("p3", "7h7s")
>>> logger.bet("p3", 300); logger.check_call("p1"); logger.fold("p2")
>>> logger.deal_board("7c8d2s"); logger.check_call(1); logger.bet(3, 400); logger.fold(1)
>>> [e["action"] for e in logger.to_dict()["events"]][-4:]
['d db 7c8d2s', 'p1 cc', 'p3 cbr 400', 'p1 f']
>>> logger.to_dict()["blinds_or_straddles"], logger.to_dict()["min_bet"]
([50, 100, 0], 100)

``end()`` saves the log (when the logger has a directory) atomically and returns the judged
hand (``HoldemReplay``). Nothing refuses an illegal move: a buggy table is logged as it happened
and the engine reports its breaches as findings. What is refused (``LoggerInputError``) is input
that is not a seat, not cards, not an amount, or not a hold'em action notation. Cards are taken
liberally (``Ah``, ``10h``, ``AH``, ``A♥``, ``??``, as a text or a list); amounts are whole
numbers or exact decimals (``Decimal``, or a text such as ``"0.25"``).
"""

from __future__ import annotations

import os
import re
import time
from datetime import datetime, timezone
from decimal import Decimal, InvalidOperation
from typing import Any, Callable, Iterable, Mapping, Sequence

from replay.logger import BaseLogger, LoggerInputError, LoggerStateError

from .cards import card_text, parse_cards
from .log import END_REASONS, FORMAT, MAX_SEATS, MAX_TEXT, MIN_SEATS, ActionError, parse_action
from .log import VARIANTS as VARIANT_CODES

VARIANTS = tuple(VARIANT_CODES)
#: the fields the logger writes itself (``phh_fields`` adds others)
OWN_FIELDS = frozenset(("format", "game_id", "started_at", "players", "variant", "antes", "blinds_or_straddles",
                        "min_bet", "small_bet", "big_bet", "starting_stacks", "events", "end", "meta", "actions"))

_SEAT = re.compile(r"p([1-9][0-9]*)")


def amount(value: Any, what: str = "an amount", positive: bool = False) -> int | Decimal:
    """An amount as the log writes it: a whole number stays an ``int``, anything else an exact
    ``Decimal``; ``LoggerInputError`` for what is not a finite non-negative number."""
    if isinstance(value, bool):
        raise LoggerInputError(f"{what} must be a number, not {value!r}")
    if isinstance(value, int):
        number: int | Decimal = value
    elif isinstance(value, (Decimal, float, str)):
        try:
            number = Decimal(value.strip() if isinstance(value, str) else
                             repr(value) if isinstance(value, float) else value)
        except InvalidOperation:
            raise LoggerInputError(f"{what} must be a number, not {value!r}") from None
        if not number.is_finite():
            raise LoggerInputError(f"{what} must be a finite number, not {value!r}")
        if isinstance(value, str) and re.fullmatch(r"\s*[0-9]+\s*", value):
            number = int(number)
    else:
        raise LoggerInputError(f"{what} must be a number, not {value!r}")
    if number < 0 or (positive and number == 0):
        raise LoggerInputError(f"{what} must be {'positive' if positive else 'zero or more'}, not {value!r}")
    return number


def _amount_text(value: int | Decimal) -> str:
    return str(value) if isinstance(value, int) else format(value, "f")


def _cards(value: Any, what: str = "cards") -> list[int | None]:
    """Cards in any accepted spelling -> card numbers (None for ``??``)."""
    if isinstance(value, str):
        cards = parse_cards(value)
    elif isinstance(value, Iterable):
        cards = []
        for item in value:
            if item is None:
                cards.append(None)
                continue
            if isinstance(item, int) and not isinstance(item, bool):
                if not 0 <= item < 52:
                    raise LoggerInputError(f"{item!r} is not a card number (0..51)")
                cards.append(item)
                continue
            one = parse_cards(item) if isinstance(item, str) else None
            if one is None or len(one) != 1:
                raise LoggerInputError(f"{item!r} is not a card (such as 'Ah', '10h', 'A♥' or '??')")
            cards.extend(one)
    else:
        cards = None
    if cards is None:
        raise LoggerInputError(f"{value!r} is not {what} (cards such as 'Ac2d', 'Ah Kh' or '????')")
    if not cards:
        raise LoggerInputError(f"no {what} given")
    return cards


class HoldemLogger(BaseLogger):
    """Record one hand of Texas hold'em as ``holdem/1``.

    ``players`` names the seats in PHH order (``p1`` the small blind, the last seat the button):
    a list of names (or mappings with ``name``, ``id``, ``bot``), or a mapping by seat. Without
    it, ``seats`` (or the length of a ``stacks`` list) says how many seats there are.
    ``blinds`` are the forced bets from ``p1`` on (``(50, 100)``: the small and the big blind;
    the rest of the seats post none) and ``antes`` one amount for every seat or a list.
    ``stacks`` is one starting stack for every seat or a list. ``min_bet`` (no-limit) is the
    big blind unless given; ``small_bet`` and ``big_bet`` (fixed-limit) are the big blind and
    twice it unless given. ``phh_fields`` are PHH's optional fields to keep (``{"table": "7",
    "currency": "USD"}``).
    """

    format = FORMAT
    end_reasons = END_REASONS
    max_chat = MAX_TEXT
    before_deal = "the table is set up when the logger is made"
    setup_call = "HoldemLogger(...)"

    def __init__(self, *, players: "Sequence[Any] | Mapping[Any, Any] | None" = None, seats: int | None = None,
                 variant: str = "NT", antes: Any = 0, blinds: Any = (50, 100), stacks: Any = 10000,
                 min_bet: Any = None, small_bet: Any = None, big_bet: Any = None,
                 game_id: str | None = None, out_dir: "str | os.PathLike[str] | None" = None,
                 started_at: datetime | None = None, meta: Mapping[str, Any] | None = None,
                 clock: Callable[[], float] | None = time.monotonic, phh_fields: Mapping[str, Any] | None = None):
        self._open(game_id, out_dir, started_at, meta, clock)
        self.seats = self._count(players, seats, stacks, antes, blinds)
        if isinstance(players, Mapping):
            self.players = self._players(players)
        elif players is not None:
            self.players = self._players({f"p{i}": p for i, p in enumerate(players, start=1)})
        else:
            self.players = {}
        for seat, player in self.players.items():
            if not isinstance(player.get("name"), str):
                raise LoggerInputError(f"{seat}'s player needs a name (a text), not {player!r}")
        if variant not in VARIANTS:
            raise LoggerInputError(f"variant {variant!r} is not one this game plays (one of {', '.join(VARIANTS)})")
        self.variant = variant
        self.antes = self._per_seat(antes, "antes", pad=False)
        self.blinds = self._per_seat(blinds, "blinds", pad=True)
        self.stacks = [amount(s, "a starting stack", positive=True) for s in self._per_seat(stacks, "stacks", pad=False)]
        big = max(self.blinds) if any(self.blinds) else None
        self.bet_sizes: dict[str, int | Decimal] = {}
        if variant == "NT":
            if small_bet is not None or big_bet is not None:
                raise LoggerInputError("small_bet and big_bet are fixed-limit (variant='FT') sizes; no-limit takes min_bet")
            if min_bet is None and big is None:
                raise LoggerInputError("min_bet is needed when there are no blinds")
            self.bet_sizes["min_bet"] = amount(big if min_bet is None else min_bet, "min_bet", positive=True)
        else:
            if min_bet is not None:
                raise LoggerInputError("min_bet is a no-limit size; fixed-limit (variant='FT') takes small_bet and big_bet")
            if small_bet is None and big is None:
                raise LoggerInputError("small_bet is needed when there are no blinds")
            small = amount(big if small_bet is None else small_bet, "small_bet", positive=True)
            self.bet_sizes["small_bet"] = small
            self.bet_sizes["big_bet"] = amount(small * 2 if big_bet is None else big_bet, "big_bet", positive=True)
        self.extra = dict(phh_fields or {})  # PHH's optional fields (table, venue, currency, hand...)
        for key in self.extra:
            if not isinstance(key, str) or key in OWN_FIELDS or not key.isidentifier():
                raise LoggerInputError(f"{key!r} is not a PHH field a logger may add (such as 'table', 'venue', 'hand')")
        self._hands = {}  # the table is set up: events may be logged
        if self.started_at is None:
            self.started_at = datetime.now(timezone.utc).replace(microsecond=0)
        self._start = self.clock() if self.clock else None

    # -- the setup -----------------------------------------------------------------------------
    @staticmethod
    def _count(players: Any, seats: Any, stacks: Any, antes: Any, blinds: Any) -> int:
        counts = {}
        if players is not None:
            if isinstance(players, (str, bytes)) or not isinstance(players, (Mapping, Sequence)):
                raise LoggerInputError(f"players must be a list of names or a mapping by seat, not {players!r}")
            counts["players"] = len(players)
        if seats is not None:
            if isinstance(seats, bool) or not isinstance(seats, int):
                raise LoggerInputError(f"seats must be a whole number, not {seats!r}")
            counts["seats"] = seats
        for name, value in (("stacks", stacks), ("antes", antes)):
            if isinstance(value, (list, tuple)):
                counts[name] = len(value)
        if not counts:
            raise LoggerInputError("how many seats? give players, seats or a list of stacks")
        if len(set(counts.values())) > 1:
            said = ", ".join(f"{k} {v}" for k, v in counts.items())
            raise LoggerInputError(f"the seat counts differ ({said})")
        n = next(iter(counts.values()))
        if not MIN_SEATS <= n <= MAX_SEATS:
            raise LoggerInputError(f"a table has {MIN_SEATS} to {MAX_SEATS} seats, not {n}")
        if isinstance(blinds, (list, tuple)) and len(blinds) > n:
            raise LoggerInputError(f"{len(blinds)} blinds for {n} seats")
        return n

    def _per_seat(self, value: Any, what: str, pad: bool) -> list[int | Decimal]:
        n = self.seats
        if isinstance(value, (list, tuple)):
            if len(value) != n and not pad:
                raise LoggerInputError(f"{what}: {len(value)} amounts for {n} seats")
            values = [amount(v, f"{what}[{i}]") for i, v in enumerate(value)]
            return values + [0] * (n - len(values))
        one = amount(value, what)
        return [one] * n

    # -- recording -----------------------------------------------------------------------------
    def deal_hole(self, seat: Any, cards: Any, t: int | None = None) -> None:
        """A seat's hole cards (``??`` for one nobody saw): ``d dh p1 Ac2d``."""
        self._action(f"d dh {self.seat_name(seat)} {self._cards_text(cards)}", t)

    def deal_board(self, cards: Any, t: int | None = None) -> None:
        """The flop (three cards), the turn or the river (one): ``d db 7c8d2s``."""
        self._action(f"d db {self._cards_text(cards)}", t)

    def fold(self, seat: Any, t: int | None = None) -> None:
        self._action(f"{self.seat_name(seat)} f", t)

    def check_call(self, seat: Any, t: int | None = None) -> None:
        """A check, or a call (for less when all-in)."""
        self._action(f"{self.seat_name(seat)} cc", t)

    def bet(self, seat: Any, to: Any, t: int | None = None) -> None:
        """A bet or a raise *to* ``to`` (the seat's total bet on this street, as PHH's ``cbr``)."""
        self._action(f"{self.seat_name(seat)} cbr {_amount_text(amount(to, 'a bet', positive=True))}", t)

    raise_to = bet

    def show(self, seat: Any, cards: Any = "-", t: int | None = None) -> None:
        """A seat shows its hole cards at the showdown (``-``: the cards it was dealt)."""
        text = "-" if isinstance(cards, str) and cards.strip() == "-" else self._cards_text(cards)
        self._action(f"{self.seat_name(seat)} sm {text}", t)

    def muck(self, seat: Any, t: int | None = None) -> None:
        """A seat mucks its hole cards at the showdown."""
        self._action(f"{self.seat_name(seat)} sm", t)

    def action(self, text: str, t: int | None = None) -> None:
        """Any hold'em action notation of PHH (``"p2 cbr 600"``, ``"d db Ah"``), cards in any
        accepted spelling (written back canonically) and an optional ``# commentary``."""
        if not isinstance(text, str):
            raise LoggerInputError(f"an action is a PHH notation text, not {text!r}")
        self._action(self._notation(text), t)

    def end(self, reason: str = "completed", t: int | None = None, *, finishing_stacks: Any = None,
            winnings: Any = None) -> Any:
        """Close the log, save it (when the logger has a directory) and return the judged hand.
        ``finishing_stacks`` and ``winnings`` (one amount per seat) are the table's own
        figures, checked by the rules."""
        self._check_open()
        if reason not in self.end_reasons:
            raise LoggerInputError(f"unknown end reason {reason!r} (one of {', '.join(self.end_reasons)})")
        end: dict[str, Any] = {"reason": reason}
        for name, value in (("finishing_stacks", finishing_stacks), ("winnings", winnings)):
            if value is not None:
                if not isinstance(value, (list, tuple)) or len(value) != self.seats:
                    raise LoggerInputError(f"{name} must be a list of {self.seats} amounts, not {value!r}")
                end[name] = [amount(v, f"{name}[{i}]") for i, v in enumerate(value)]
        return self._close(end, t)

    # -- helpers -------------------------------------------------------------------------------
    def _action(self, text: str, t: int | None) -> None:
        self._event({"action": text}, t)

    @staticmethod
    def _cards_text(cards: Any) -> str:
        return "".join(card_text(c) for c in _cards(cards))

    def _notation(self, text: str) -> str:
        try:
            action = parse_action(text)
        except ActionError as exc:
            raise LoggerInputError(f"{text!r} is not a hold'em action notation: {exc}") from None
        for seat in (action.actor, action.target):
            if seat not in (None, "d"):
                self.seat_name(seat)
        if not action.verb and action.comment is None:
            raise LoggerInputError("an empty action notation")
        return action.text()

    def seat_name(self, value: Any) -> str:
        """``p1``..``pN`` as the log writes it: from ``"p3"``, ``3`` or ``"3"``."""
        if isinstance(value, int) and not isinstance(value, bool):
            seat = f"p{value}"
        elif isinstance(value, str):
            seat = value.strip()
            seat = f"p{seat}" if seat.isdigit() else seat
        else:
            raise LoggerInputError(f"{value!r} is not a seat (p1..pN, or its number)")
        match = _SEAT.fullmatch(seat)
        if match is None:
            raise LoggerInputError(f"{value!r} is not a seat name (p1..pN, or its number)")
        n = getattr(self, "seats", None)
        if n is not None and int(match.group(1)) > n:
            raise LoggerInputError(f"{value!r} is not a seat of this table (p1..p{n})")
        return seat

    def _fields(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        if self.players:
            data["players"] = self.players
        data.update(self.extra)
        data["variant"] = self.variant
        data["antes"] = list(self.antes)
        data["blinds_or_straddles"] = list(self.blinds)
        data.update(self.bet_sizes)
        data["starting_stacks"] = list(self.stacks)
        return data


__all__ = ["HoldemLogger", "LoggerInputError", "LoggerStateError", "amount"]
