"""Texas hold'em in a replay code: the table, the cards dealt and every action, in one integer.

The game's ``payload_codec`` (``replay/codec/generic.py`` writes the marker, base 62 and the
checksum around it, and refuses damaged codes). The payload's first digit is its form:

- **compact** (``0``): how the hand ended; the unit of its amounts (chips, or cents and finer
  for a cash game in dollars); the table (a common one, such as six seats of 10,000 chips at
  50/100 no-limit, in a fraction of a bit; any other field by field); PHH's fields beside the
  game's own (``hand``, ``table``, ``venue``...) as their JSON text; then the hand as the
  engine (``HoldemState``) plays it: each deal as the choice of its known cards among the cards
  still unseen (and where they sit among unknown ``??`` cards, and their order when the hand
  keeps one), each decision as one of fold, check or call, the common sizes (the minimum raise,
  half, two thirds and the whole pot, all-in, and the sizes bots play) or any other size in
  the legal range, each show or muck, and commentaries as their text; last ``winnings`` and
  ``finishing_stacks``: absent, what the engine works out, or given (rake, or a pot that
  unknown cards leave to the table's word). Choices are coded with their usual frequencies
  (range coding into the one integer, exact, without rounding loss), so a typical hand costs
  far less than the uniform bound (``information_bits``);
- **raw** (``1``): the zstd of the canonical JSON without names, times, chat and meta, for
  what the compact form cannot say exactly: a hand with findings, amounts finer than
  ``MAX_PLACES`` decimal places, a table outside 2 to 10 seats...

A compact payload is decoded again before it is used, and must give back the same hand (the
canonical JSON without names, times, chat and meta); anything else takes the raw form. Decoding
anything that is not a payload raises ``replay.codec.errors.CodeError``.

>>> actions = ["d dh p1 Ac2d", "d dh p2 ????", "d dh p3 7h7s", "p3 cbr 300", "p1 cc", "p2 f",
...            "d db 7c8d2s", "p1 cc", "p3 cbr 400", "p1 f"]
>>> log = parse({"format": "holdem/1", "variant": "NT", "antes": [0, 0, 0], "blinds_or_straddles": [50, 100, 0],
...              "min_bet": 100, "starting_stacks": [10000] * 3, "events": [{"action": a} for a in actions],
...              "end": {"reason": "completed", "finishing_stacks": [9700, 9900, 10400]}})
>>> value = CODEC.payload(log)
>>> value % 2, CODEC.from_payload(value)["events"][3]
(0, {'action': 'p3 cbr 300'})
>>> round(information_bits(log)) > value.bit_length()
True
"""

from __future__ import annotations

import json
from bisect import bisect_right
from functools import lru_cache
from decimal import Decimal
from math import comb, factorial, log2
from typing import Any, Sequence

import zstandard

from replay.codec.errors import CodeError
from replay.codec.intcode import rank_subset, unrank_subset
from replay.log import LogFormatError

from .cards import cards_text
from .engine import HoldemState
from .log import END_REASONS, FORMAT, Action, amount_text, amount_value, parse

RAW_PREFIX = b"\x01"
MAX_RAW_BYTES = 1 << 20
MAX_STEPS = 2_000          # no hand has more actions (the log format's own cap)
MAX_BITS = 64              # a whole-number table field up to 2**64 - 1
DAMAGED = "the code is damaged"
MAX_EXTRA = 1 << 16        # bytes of PHH fields beside the game's own a compact code carries
#: the fields the compact form codes itself (any other field of the log travels as JSON text)
OWN_FIELDS = frozenset(("format", "variant", "antes", "blinds_or_straddles", "min_bet", "small_bet", "big_bet",
                        "starting_stacks", "events", "end"))


class NotCompact(ValueError):
    """A hand the compact form cannot say exactly (it takes the raw form)."""


# --- range coding into one integer -------------------------------------------------------------

class Model:
    """Frequencies of a choice's options (each at least 1): an option costs log2(total / freq) bits."""

    __slots__ = ("freqs", "cum", "total")

    def __init__(self, freqs: Sequence[int]) -> None:
        self.freqs = tuple(freqs)
        cum = [0]
        for f in self.freqs:
            if f < 1:
                raise ValueError("every option needs a frequency of at least 1")
            cum.append(cum[-1] + f)
        self.cum = tuple(cum)
        self.total = cum[-1]

    def bits(self, index: int) -> float:
        return log2(self.total / self.freqs[index])


class Writer:
    """Collects choices; ``value()`` packs them into one integer (range coding with exact big
    integers: ``x -> (x // f) * total + cum + x % f``, the last choice first, so a ``Reader``
    reads them back in the order they were written). A uniform choice among ``radix`` options
    is a mixed-radix digit, as ``replay.codec.intcode.DigitWriter`` writes."""

    __slots__ = ("steps",)

    def __init__(self) -> None:
        self.steps: list[tuple[int, int, int]] = []  # (cum, freq, total)

    def put(self, digit: int, radix: int) -> None:
        if not 0 <= digit < radix:
            raise ValueError(f"digit {digit} out of range for radix {radix}")
        if radix > 1:
            self.steps.append((digit, 1, radix))

    def choose(self, index: int, model: Model) -> None:
        if model.total > 1:
            self.steps.append((model.cum[index], model.freqs[index], model.total))

    def value(self) -> int:
        x = 0
        for cum, freq, total in reversed(self.steps):
            x = (x // freq) * total + cum + x % freq
        return x

    def bits(self) -> float:
        return sum(log2(total / freq) for _, freq, total in self.steps)


class Reader:
    """Reads a ``Writer``'s choices back."""

    __slots__ = ("value",)

    def __init__(self, value: int) -> None:
        self.value = value

    def get(self, radix: int) -> int:
        if radix <= 1:
            return 0
        self.value, digit = divmod(self.value, radix)
        return digit

    def choose(self, model: Model) -> int:
        if model.total <= 1:
            return 0
        high, low = divmod(self.value, model.total)
        index = bisect_right(model.cum, low) - 1
        self.value = model.freqs[index] * high + low - model.cum[index]
        return index


def put_uint(w: Writer, value: int) -> None:
    """A whole number below 2**64 in about 6 + its bit length bits."""
    if not 0 <= value < 1 << MAX_BITS:
        raise NotCompact(f"{value} is out of the compact form's range")
    length = value.bit_length()
    w.put(length, MAX_BITS + 1)
    if length > 1:
        w.put(value - (1 << (length - 1)), 1 << (length - 1))


def get_uint(r: Reader) -> int:
    length = r.get(MAX_BITS + 1)
    if length <= 1:
        return length
    return (1 << (length - 1)) + r.get(1 << (length - 1))


# --- the table -------------------------------------------------------------------------------

#: common tables: (small blind, big blind, starting stack), antes none, the blinds on p1 and p2,
#: every stack the same, min_bet the big blind (NT) or small_bet/big_bet the big blind and twice it (FT)
PRESETS = ((50, 100, 10000), (1, 2, 200), (1, 2, 100), (5, 10, 1000), (25, 50, 5000), (10, 20, 2000),
           (50, 100, 5000), (100, 200, 20000), (5, 10, 500), (2, 5, 500), (1, 1, 100), (500, 1000, 100000))
PRESET_MODEL = Model([2] + [60] + [2] * (len(PRESETS) - 1))  # 0: field by field
VARIANT_LIST = ("NT", "FT")
VARIANT_MODEL = Model([15, 1])
SEATS_MODEL = Model([6, 2, 2, 2, 6, 1, 1, 1, 1])  # 2..10 seats: heads-up and six-handed most
END_LIST = (None,) + tuple(END_REASONS)
END_MODEL = Model([2, 28, 1, 1])
FLAG = Model([31, 1])  # a yes/no that is almost always no


MAX_PLACES = 8
PLACES_MODEL = Model([200, 1, 12, 1, 1, 1, 1, 1, 1])  # chips mostly, else dollars and cents


class Scale:
    """Amounts as whole units: chips (``places`` 0), or cents (2) and finer, so that a cash game
    in dollars is coded as exactly as chips are."""

    __slots__ = ("places", "factor")

    def __init__(self, places: int) -> None:
        self.places, self.factor = places, 10 ** places

    def units(self, value: Any) -> int:
        if type(value) is int:
            return value * self.factor
        if not isinstance(value, Decimal):
            raise NotCompact(f"{value!r} is not an amount")
        units = value * self.factor
        if units != units.to_integral_value():
            raise NotCompact(f"{value} has more than {self.places} decimal places")
        return int(units)

    def value(self, units: int) -> Any:
        return units if not self.places else Decimal(units).scaleb(-self.places)

    def text(self, units: int) -> str:
        return str(units) if not self.places else amount_text(amount_value(Decimal(units).scaleb(-self.places)))


def _places(value: Any) -> int:
    return max(0, -value.as_tuple().exponent) if isinstance(value, Decimal) else 0


def scale_of(log: Any, actions: Sequence[Action]) -> Scale:
    """The finest decimal place any amount of the hand has."""
    amounts = [*log.starting_stacks, *(log.antes or ()), *(log.blinds_or_straddles or ()),
               log.min_bet, log.small_bet, log.big_bet, *(a.amount for a in actions)]
    if log.end is not None:
        amounts += [*(log.end.finishing_stacks or ()), *(log.end.winnings or ())]
    places = max(_places(a) for a in amounts if a is not None)
    if places > MAX_PLACES:
        raise NotCompact(f"amounts with {places} decimal places")
    return Scale(places)


def _preset_of(log: Any, n: int) -> int | None:
    """The index of the log's table in ``PRESETS`` plus one, or None."""
    if log.antes != [0] * n or log.blinds_or_straddles is None:
        return None
    stacks, blinds = log.starting_stacks, log.blinds_or_straddles
    if any(type(s) is not int for s in stacks) or len(set(stacks)) != 1:
        return None
    for i, (sb, bb, stack) in enumerate(PRESETS):
        if blinds != [sb, bb] + [0] * (n - 2) or stacks[0] != stack:
            continue
        if log.variant == "NT" and (log.min_bet, log.small_bet, log.big_bet) == (bb, None, None):
            return i + 1
        if log.variant == "FT" and (log.min_bet, log.small_bet, log.big_bet) == (None, bb, 2 * bb):
            return i + 1
    return None


def _put_list(w: Writer, values: list[Any] | None, n: int, scale: Scale) -> None:
    """A per-seat list: absent, all zero, all equal, or the leading entries up to the last non-zero."""
    if values is None:
        w.put(0, 4)
        return
    if len(values) != n:
        raise NotCompact("a per-seat list of another length")
    values = [scale.units(v) for v in values]
    if not any(values):
        w.put(1, 4)
    elif len(set(values)) == 1:
        w.put(2, 4)
        put_uint(w, values[0])
    else:
        w.put(3, 4)
        last = max(i for i, v in enumerate(values) if v)
        w.put(last, n)
        for v in values[:last + 1]:
            put_uint(w, v)


def _get_list(r: Reader, n: int, scale: Scale) -> list[Any] | None:
    kind = r.get(4)
    if kind == 0:
        return None
    if kind == 1:
        return [0] * n
    if kind == 2:
        return [scale.value(get_uint(r))] * n
    last = r.get(n)
    values = [scale.value(get_uint(r)) for _ in range(last + 1)]
    return values + [0] * (n - last - 1)


def _put_size(w: Writer, value: Any, default: Any, scale: Scale) -> None:
    """A bet size: absent, the usual one, or given."""
    if value is None:
        w.put(0, 3)
    elif default is not None and value == default:
        w.put(1, 3)
    else:
        w.put(2, 3)
        put_uint(w, scale.units(value))


def _get_size(r: Reader, default: Any, scale: Scale) -> Any:
    kind = r.get(3)
    return None if kind == 0 else default if kind == 1 else scale.value(get_uint(r))


def write_table(w: Writer, log: Any, scale: Scale) -> None:
    n = len(log.starting_stacks)
    if not 2 <= n <= 10:
        raise NotCompact("a table of 2 to 10 seats")
    w.choose(n - 2, SEATS_MODEL)
    w.choose(VARIANT_LIST.index(log.variant), VARIANT_MODEL)
    preset = _preset_of(log, n)
    w.choose(preset or 0, PRESET_MODEL)
    if preset:
        return
    _put_list(w, log.antes, n, scale)
    _put_list(w, log.blinds_or_straddles, n, scale)
    stacks = [scale.units(s) for s in log.starting_stacks]
    if len(set(stacks)) == 1:
        w.put(0, 2)
        put_uint(w, stacks[0])
    else:
        w.put(1, 2)
        for s in stacks:
            put_uint(w, s)
    big = max(log.blinds_or_straddles or [0]) or None
    if log.variant == "NT":
        if log.small_bet is not None or log.big_bet is not None:
            raise NotCompact("fixed-limit sizes in a no-limit hand")
        _put_size(w, log.min_bet, big, scale)
    else:
        if log.min_bet is not None:
            raise NotCompact("a no-limit size in a fixed-limit hand")
        _put_size(w, log.small_bet, big, scale)
        _put_size(w, log.big_bet, None if log.small_bet is None else 2 * log.small_bet, scale)


def read_table(r: Reader, scale: Scale) -> dict[str, Any]:
    n = r.choose(SEATS_MODEL) + 2
    variant = VARIANT_LIST[r.choose(VARIANT_MODEL)]
    preset = r.choose(PRESET_MODEL)
    data: dict[str, Any] = {"variant": variant}
    if preset:
        sb, bb, stack = PRESETS[preset - 1]
        data.update(antes=[0] * n, blinds_or_straddles=[sb, bb] + [0] * (n - 2))
        if variant == "NT":
            data["min_bet"] = bb
        else:
            data.update(small_bet=bb, big_bet=2 * bb)
        data["starting_stacks"] = [stack] * n
        return data
    antes, blinds = _get_list(r, n, scale), _get_list(r, n, scale)
    if antes is not None:
        data["antes"] = antes
    if blinds is not None:
        data["blinds_or_straddles"] = blinds
    if r.get(2) == 0:
        data["starting_stacks"] = [scale.value(get_uint(r))] * n
    else:
        data["starting_stacks"] = [scale.value(get_uint(r)) for _ in range(n)]
    big = max(blinds or [0]) or None
    if variant == "NT":
        sizes = {"min_bet": _get_size(r, big, scale)}
    else:
        small = _get_size(r, big, scale)
        sizes = {"small_bet": small, "big_bet": _get_size(r, None if small is None else 2 * small, scale)}
    data.update((k, v) for k, v in sizes.items() if v is not None)
    return data


# --- cards -----------------------------------------------------------------------------------

def _perm_rank(order: Sequence[int]) -> int:
    """The rank of a permutation of ``range(k)`` (Lehmer code)."""
    rank, left = 0, list(range(len(order)))
    for i, v in enumerate(order):
        pos = left.index(v)
        rank += pos * factorial(len(order) - 1 - i)
        left.pop(pos)
    return rank


def _perm_unrank(rank: int, k: int) -> list[int]:
    left, out = list(range(k)), []
    for i in range(k):
        pos, rank = divmod(rank, factorial(k - 1 - i))
        out.append(left.pop(pos))
    return out


class Cards:
    """Codes a group of cards dealt or shown: which are unknown (when the hand has unknown cards),
    which known cards among the unseen ones, and their order (when the hand keeps an order)."""

    def __init__(self, unknown: bool, ordered: bool, big_blind: int = 0, scale: Scale = Scale(0)) -> None:
        self.unknown, self.ordered, self.big_blind, self.scale = unknown, ordered, big_blind, scale

    def write(self, w: Writer, cards: Sequence[int | None], unseen: Sequence[int]) -> None:
        k = len(cards)
        if self.unknown:
            w.put(sum(1 << i for i, c in enumerate(cards) if c is None), 1 << k)
        elif None in cards:
            raise NotCompact("unknown cards")
        known = [c for c in cards if c is not None]
        pool = sorted(unseen)
        try:
            places = sorted(pool.index(c) for c in known)
        except ValueError:
            raise NotCompact("a card that is not unseen") from None
        w.put(rank_subset(places, len(pool)), comb(len(pool), len(known)))
        canonical = sorted(known, reverse=True)
        if self.ordered:
            w.put(_perm_rank([canonical.index(c) for c in known]), factorial(len(known)))
        elif known != canonical:
            raise NotCompact("cards out of the canonical order")

    def read(self, r: Reader, k: int, unseen: Sequence[int]) -> list[int | None]:
        mask = r.get(1 << k) if self.unknown else 0
        pool = sorted(unseen)
        count = k - bin(mask).count("1")
        if count > len(pool):
            raise CodeError(f"{DAMAGED}: more cards than the deck has left")
        places = unrank_subset(r.get(comb(len(pool), count)), count, len(pool))
        canonical = sorted((pool[p] for p in places), reverse=True)
        known = [canonical[i] for i in _perm_unrank(r.get(factorial(count)), count)] if self.ordered else canonical
        it = iter(known)
        return [None if mask >> i & 1 else next(it) for i in range(k)]


# --- decisions -------------------------------------------------------------------------------

#: a decision's categories, in this order (those that are not legal, or whose size another
#: takes already, are left out); the frequencies are what self-play and real hands show
SIZE_NAMES = ("min", "half", "two_thirds", "pot", "all_in", "three_x", "half_bare", "pot_bare", "open")
#: frequencies by whether the seat faces a bet (fold is legal) or may check: measured on
#: six-seat self-play and rounded, with room left for the sizes people play (the pot-sized
#: raise "call, then the pot" beside the bots' "the pot over the bet")
FACING = {"f": 30, "cc": 60, "min": 4, "half": 2, "two_thirds": 2, "pot": 2, "all_in": 3, "three_x": 2,
          "half_bare": 1, "pot_bare": 3, "open": 2, "other": 2}
FREE = {"f": 1, "cc": 60, "min": 4, "half": 4, "two_thirds": 3, "pot": 3, "all_in": 4, "three_x": 1,
        "half_bare": 1, "pot_bare": 1, "open": 1, "other": 3}


def sizes(state: Any, legal: Any, bb: int, scale: Scale) -> list[tuple[str, int]]:
    """The common sizes (``cbr`` totals in ``scale``'s units) at a decision, distinct, in
    ``SIZE_NAMES`` order, with their names; ``bb`` is the table's big blind in units."""
    if legal.min_to is None:
        return []
    if scale.places:
        units = scale.units
        low, high = units(legal.min_to), units(legal.max_to)
        bets = [units(b) for b in state.bets]
        pot = units(state.pot_total())
    else:  # chips: the engine's amounts are whole numbers already
        low, high, bets, pot = legal.min_to, legal.max_to, state.bets, state.pot_total()
        if type(low) is not int or type(high) is not int:
            raise NotCompact("amounts that are not whole chips")
    if low == high:
        return [("min", low)]
    top = max(bets)
    call = top - bets[state.seats.index(state.to_act)]
    grown = pot + call
    candidates = {"min": low, "half": top + grown // 2, "two_thirds": top + grown * 2 // 3,
                  "pot": top + grown, "all_in": high, "three_x": top * 3, "half_bare": top + pot // 2,
                  "pot_bare": top + pot,
                  "open": bb * 5 // 2 + bb * sum(1 for i, b in enumerate(bets) if i != 1 and b == bb)
                  if top <= bb else None}
    out: list[tuple[str, int]] = []
    seen = set()
    for name in SIZE_NAMES:
        to = candidates[name]
        if to is None or not low <= to <= high or to in seen:
            continue
        seen.add(to)
        out.append((name, to))
    return out


def decision_options(state: Any, legal: Any, bb: int, scale: Scale) -> tuple[list[tuple[str, Any]], Model, int]:
    """(the categories ``[(kind, amount in units)]``, their model, how many sizes "other" holds)."""
    options: list[tuple[str, Any]] = []
    freq = FACING if legal.call else FREE
    names = []
    if legal.fold:
        options.append(("f", None))
        names.append("f")
    options.append(("cc", None))
    names.append("cc")
    common = sizes(state, legal, bb, scale)
    for name, to in common:
        options.append(("cbr", to))
        names.append(name)
    other = 0
    if legal.min_to is not None:
        other = scale.units(legal.max_to) - scale.units(legal.min_to) + 1 - len(common)
        if other > 0:
            options.append(("other", None))
            names.append("other")
    return options, _model(bool(legal.call), tuple(names)), other


@lru_cache(maxsize=4096)
def _model(facing: bool, names: tuple[str, ...]) -> Model:
    freq = FACING if facing else FREE
    return Model([freq[n] for n in names])


def _other_rank(to: int, low: int, common: list[int]) -> int:
    return to - low - sum(1 for c in common if c < to)


def _other_unrank(rank: int, low: int, common: list[int]) -> int:
    to = low + rank
    for c in sorted(common):
        if c <= to:
            to += 1
    return to


SHOW_LIST = ("cards", "muck", "dash")
SHOW_MODEL = Model([28, 3, 1])


# --- the payload -----------------------------------------------------------------------------

def _raw_object(log: Any) -> dict[str, Any]:
    """The log's canonical JSON object without names, times, chat and meta (what a code keeps)."""
    data = log.to_json_dict()
    for key in ("players", "game_id", "started_at", "meta"):
        data.pop(key, None)
    data["events"] = [{k: v for k, v in e.items() if k != "t"} for e in data["events"] if e.get("type") != "chat"]
    if isinstance(data.get("end"), dict):
        data["end"].pop("t", None)
    return data


def _hole(state: Any, seat: str) -> list[int | None] | None:
    return state.hole[state.seats.index(seat)]


def _compact(log: Any) -> int:
    """The compact form's integer (``NotCompact`` when it cannot say the hand)."""
    end = log.end
    w = Writer()
    w.put(0, 2)
    w.choose(END_LIST.index(None if end is None else end.reason), END_MODEL)
    actions = [e.parsed for e in log.events if e.type == "action"]
    scale = scale_of(log, actions)
    w.choose(scale.places, PLACES_MODEL)
    write_table(w, log, scale)
    extra = {k: v for k, v in _raw_object(log).items() if k not in OWN_FIELDS}
    w.choose(bool(extra), FLAG)
    if extra:
        text = json.dumps(extra, ensure_ascii=False, separators=(",", ":")).encode()
        put_uint(w, len(text))
        w.put(int.from_bytes(text, "big"), 256 ** len(text))
    unknown = any(a.cards and None in a.cards for a in actions)
    ordered = any(a.cards and
                  [c for c in a.cards if c is not None] != sorted((c for c in a.cards if c is not None), reverse=True)
                  for a in actions)
    comments = any(a.comment is not None or not a.verb for a in actions)
    w.choose(unknown, FLAG)
    w.put(ordered, 2)
    w.choose(comments, FLAG)
    cards = Cards(unknown, ordered, scale.units(max(log.blinds_or_straddles or [0])), scale)
    completed = end is not None and end.reason == "completed"
    counted = comments or not completed
    if counted:
        put_uint(w, len(actions))
    state, findings = HoldemState.from_log(log)
    if findings:
        raise NotCompact("the setup has findings")
    for index, action in enumerate(actions):
        if comments:
            kind = 2 if not action.verb else 1 if action.comment is not None else 0
            w.choose(kind, COMMENT_MODEL)
            if kind:
                _put_text(w, action.comment or "")
            if kind == 2:
                continue
        _write_action(w, state, action, cards)
        if state.push_action(action.text(), index):
            raise NotCompact("findings")
    if end is not None and end.reason != "completed" and state.over:
        raise NotCompact("a stopped hand that is over (end_mismatch)")
    if completed:
        if not state.over:
            raise NotCompact("a completed hand that is not over (end_mismatch)")
        showable = _showable(state) if not counted else []
        if showable:
            options = [None] + showable
            w.choose(0, _point_model(options, state))
    if end is not None:
        _write_end(w, state, end, scale)
    return w.value()


#: ``winnings`` and ``finishing_stacks``: absent, what the engine works out, given
WINNINGS_MODEL, STACKS_MODEL = Model([20, 4, 2]), Model([12, 12, 1])
COMMENT_MODEL = Model([20, 2, 1])  # an action, an action with a commentary, a commentary alone
MAX_COMMENT = 4000


def _put_text(w: Writer, text: str) -> None:
    data = text.encode()
    put_uint(w, len(data))
    w.put(int.from_bytes(data, "big"), 256 ** len(data))


def _get_text(r: Reader) -> str:
    size = get_uint(r)
    if size > MAX_COMMENT:
        raise CodeError(f"{DAMAGED}: it says a commentary of {size} bytes")
    try:
        return r.get(256 ** size).to_bytes(size, "big").decode()
    except UnicodeDecodeError as exc:
        raise CodeError(f"{DAMAGED}: a commentary does not read ({exc})") from None


def _write_end(w: Writer, state: Any, end: Any, scale: Scale) -> None:
    """``winnings`` and ``finishing_stacks``: absent, the engine's, or given (rake, a pot the
    known cards cannot settle)."""
    given_winnings, given_stacks = end.winnings, end.finishing_stacks
    if given_winnings is None and given_stacks is None:
        w.choose(0, WINNINGS_MODEL)
        w.choose(0, STACKS_MODEL)
        return
    if given_winnings is not None and len(given_winnings) != state.n or \
            given_stacks is not None and len(given_stacks) != state.n:
        raise NotCompact("end lists of another length")
    if state.settle(given_winnings, given_stacks).findings:
        raise NotCompact("the end's figures have findings")
    state.end = None  # from here on the engine's own settlement, not the log's
    base = state.settle()
    if given_winnings is None:
        w.choose(0, WINNINGS_MODEL)
    elif base.settled and list(given_winnings) == list(base.winnings):
        w.choose(1, WINNINGS_MODEL)
    else:
        w.choose(2, WINNINGS_MODEL)
        for v in given_winnings:
            put_uint(w, scale.units(v))
        base = state.settle(given_winnings)
    if given_stacks is None:
        w.choose(0, STACKS_MODEL)
    elif None not in base.stacks and list(given_stacks) == list(base.stacks):
        w.choose(1, STACKS_MODEL)
    else:
        w.choose(2, STACKS_MODEL)
        for v in given_stacks:
            put_uint(w, scale.units(v))


def _read_end(r: Reader, state: Any, scale: Scale) -> dict[str, Any]:
    out: dict[str, Any] = {}
    base = None
    kind = r.choose(WINNINGS_MODEL)
    if kind == 1:
        base = state.settle()
        if not base.settled or None in base.winnings:
            raise CodeError(f"{DAMAGED}: it gives the winnings of a hand the cards do not settle")
        out["winnings"] = list(base.winnings)
    elif kind == 2:
        out["winnings"] = [scale.value(get_uint(r)) for _ in state.seats]
        base = state.settle(out["winnings"])
    kind = r.choose(STACKS_MODEL)
    if kind == 1:
        base = base or state.settle()
        if None in base.stacks:
            raise CodeError(f"{DAMAGED}: it gives the stacks of a hand the cards do not settle")
        out["finishing_stacks"] = list(base.stacks)
    elif kind == 2:
        out["finishing_stacks"] = [scale.value(get_uint(r)) for _ in state.seats]
    return out


def _showable(state: Any) -> list[str]:
    """The seats that may show or muck now when no seat must act (at the showdown, or while an
    all-in hand's board is dealt): the engine's ``may_show``."""
    if state.to_act is not None:
        return []
    return state.may_show()


#: where no seat must act: (the deal or the end, the first seat that may show, each other one),
#: at a showdown (seats show in turn), after the others folded (the winner seldom shows), and
#: while an all-in hand's board is dealt
POINT_SHOWDOWN = (6, 24, 2)
POINT_FOLDED = (20, 2, 1)
POINT_RUN_OUT = (60, 2, 1)


def _point_model(options: list[Any], state: Any) -> Model:
    """Where no seat must act: the deal that is due (or the end of the hand), or a seat's show."""
    if not state.over:
        base, first, rest = POINT_RUN_OUT
    elif state.folded.count(False) > 1:
        base, first, rest = POINT_SHOWDOWN
    else:
        base, first, rest = POINT_FOLDED
    return _point_weights(base, first, rest, len(options) - 1)


@lru_cache(maxsize=256)
def _point_weights(base: int, first: int, rest: int, seats: int) -> Model:
    return Model([base] + [first if i == 0 else rest for i in range(seats)])


def _write_show(w: Writer, state: Any, seat: str, action: Action, cards: Cards) -> None:
    if action.verb != "sm" or action.actor != seat:
        raise NotCompact("not a show")
    if action.dash:
        w.choose(2, SHOW_MODEL)
    elif action.cards is None:
        w.choose(1, SHOW_MODEL)
    else:
        w.choose(0, SHOW_MODEL)
        hole = _hole(state, seat)
        if hole is None or len(action.cards) != len(hole):
            raise NotCompact("shown cards of another count")
        if any(h is not None and c != h for c, h in zip(action.cards, hole)):
            raise NotCompact("shown cards that differ from the ones dealt")
        cards.write(w, [c for c, h in zip(action.cards, hole) if h is None], state.unseen())


def _read_show(r: Reader, state: Any, seat: str, cards: Cards) -> str:
    how = SHOW_LIST[r.choose(SHOW_MODEL)]
    if how == "muck":
        return f"{seat} sm"
    if how == "dash":
        return f"{seat} sm -"
    hole = _hole(state, seat)
    if hole is None:
        raise CodeError(f"{DAMAGED}: a seat without cards shows")
    if None in hole:
        shown = cards.read(r, sum(1 for c in hole if c is None), state.unseen())
        it = iter(shown)
        hole = [next(it) if h is None else h for h in hole]
    return f"{seat} sm {cards_text(hole)}"


def _write_action(w: Writer, state: Any, action: Action, cards: Cards) -> None:
    seat = state.to_act
    if seat is None:
        showable = _showable(state)
        if showable:
            options: list[Any] = [None] + showable
            target = action.actor if action.verb == "sm" else None
            if target not in options:
                raise NotCompact("a show out of turn")
            w.choose(options.index(target), _point_model(options, state))
            if target is not None:
                _write_show(w, state, target, action, cards)
                return
        due = state.dealer_due
        if due is None:
            raise NotCompact("nothing is due")
        kind, what = due
        if action.verb != kind or (kind == "dh" and action.target != what) or \
                len(action.cards) != (2 if kind == "dh" else what):
            raise NotCompact("not the deal that is due")
        cards.write(w, action.cards, state.unseen())
        return
    if action.actor != seat:
        raise NotCompact("out of turn")
    if state.street == "showdown":
        _write_show(w, state, seat, action, cards)
        return
    legal = state.legal()
    options, model, other = decision_options(state, legal, cards.big_blind, cards.scale)
    if action.verb in ("f", "cc"):
        try:
            w.choose(options.index((action.verb, None)), model)
        except ValueError:
            raise NotCompact("an action that is not legal") from None
        return
    if action.verb != "cbr":
        raise NotCompact("not a betting action")
    if legal.min_to is None:
        raise NotCompact("a bet where none is legal")
    scale = cards.scale
    to, low = scale.units(action.amount), scale.units(legal.min_to)
    if not low <= to <= scale.units(legal.max_to):
        raise NotCompact("a size out of the legal range")
    if ("cbr", to) in options:
        w.choose(options.index(("cbr", to)), model)
        return
    w.choose(len(options) - 1, model)
    common = [a for k, a in options if k == "cbr"]
    w.put(_other_rank(to, low, common), other)


def _decode_compact(r: Reader) -> dict[str, Any]:
    reason = END_LIST[r.choose(END_MODEL)]
    scale = Scale(r.choose(PLACES_MODEL))
    data: dict[str, Any] = {"format": FORMAT, **read_table(r, scale), "events": []}
    if r.choose(FLAG):
        size = get_uint(r)
        if size > MAX_EXTRA:
            raise CodeError(f"{DAMAGED}: it says {size} bytes of PHH fields")
        try:
            extra = json.loads(r.get(256 ** size).to_bytes(size, "big"))
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
            raise CodeError(f"{DAMAGED}: its PHH fields do not read ({exc})") from None
        if not isinstance(extra, dict) or not extra or set(extra) & OWN_FIELDS:
            raise CodeError(f"{DAMAGED}: its PHH fields are not fields")
        data.update(extra)
    unknown, ordered, comments = r.choose(FLAG), r.get(2), r.choose(FLAG)
    cards = Cards(bool(unknown), bool(ordered), scale.units(max(data.get("blinds_or_straddles") or [0])), scale)
    completed = reason == "completed"
    counted = comments or not completed
    count = get_uint(r) if counted else MAX_STEPS
    if count > MAX_STEPS:
        raise CodeError(f"{DAMAGED}: it says {count} actions")
    try:
        log = parse(data, "code")
    except LogFormatError as exc:
        raise CodeError(f"{DAMAGED}: its table does not read ({exc})") from None
    state, findings = HoldemState.from_log(log)
    if findings:
        raise CodeError(f"{DAMAGED}: its table breaks the rules")
    events = []
    for index in range(count):
        kind = r.choose(COMMENT_MODEL) if comments else 0
        comment = _get_text(r) if kind else None
        if kind == 2:
            events.append({"action": f"# {comment}"})
            continue
        text = _read_action(r, state, cards)
        if text is None:
            if not counted:
                break
            raise CodeError(f"{DAMAGED}: it says more actions than the hand has")
        if state.push_action(text, index):
            raise CodeError(f"{DAMAGED}: an action breaks the rules")
        events.append({"action": text if kind == 0 else f"{text} # {comment}"})
    else:
        if not counted:
            raise CodeError(f"{DAMAGED}: the hand does not end")
    if completed and not state.over:
        raise CodeError(f"{DAMAGED}: a completed hand that is not over")
    data["events"] = events
    if reason is not None:
        data["end"] = {"reason": reason, **_read_end(r, state, scale)}
    return data


def _read_action(r: Reader, state: Any, cards: Cards) -> str | None:
    """The next action's text, or None where the hand ends."""
    seat = state.to_act
    if seat is None:
        showable = _showable(state)
        if showable:
            options: list[Any] = [None] + showable
            target = options[r.choose(_point_model(options, state))]
            if target is not None:
                return _read_show(r, state, target, cards)
        due = state.dealer_due
        if due is None:
            if state.over:
                return None
            raise CodeError(f"{DAMAGED}: it goes on after the hand")
        kind, what = due
        dealt = cards.read(r, 2 if kind == "dh" else what, state.unseen())
        return f"d dh {what} {cards_text(dealt)}" if kind == "dh" else f"d db {cards_text(dealt)}"
    if state.street == "showdown":
        return _read_show(r, state, seat, cards)
    legal = state.legal()
    try:
        options, model, other = decision_options(state, legal, cards.big_blind, cards.scale)
    except NotCompact:
        raise CodeError(f"{DAMAGED}: it holds sizes a compact code cannot") from None
    kind, to = options[r.choose(model)]
    if kind == "other":
        common = [a for k, a in options if k == "cbr"]
        to = _other_unrank(r.get(other), cards.scale.units(legal.min_to), common)
        kind = "cbr"
    return f"{seat} {kind}" if to is None else f"{seat} cbr {cards.scale.text(to)}"


def _raw_payload(log: Any) -> int:
    text = json.dumps(_raw_object(log), ensure_ascii=False, separators=(",", ":")).encode()
    packed = zstandard.ZstdCompressor(level=19).compress(text)
    return (int.from_bytes(RAW_PREFIX + packed, "big") << 1) | 1


def _decode_raw(value: int) -> dict[str, Any]:
    raw = value.to_bytes((value.bit_length() + 7) // 8, "big")
    if raw[:1] != RAW_PREFIX:
        raise CodeError(f"{DAMAGED}: its raw hand is not there")
    try:
        text = zstandard.ZstdDecompressor().decompress(raw[1:], max_output_size=MAX_RAW_BYTES)
        data = json.loads(text)
    except (zstandard.ZstdError, UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise CodeError(f"{DAMAGED}: its raw hand does not read ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CodeError(f"{DAMAGED}: its raw hand is not a Texas hold'em log")
    return data


class PayloadCodec:
    """``payload(log) -> int`` and ``from_payload(int) -> dict`` (the log's data), for
    ``GameModule.payload_codec``."""

    def payload(self, log: Any) -> int:
        log = getattr(log, "log", log)
        try:
            value = _compact(log)
            again = self._read(value)[1]
        except (NotCompact, CodeError):
            return _raw_payload(log)
        if _raw_object(again) != _raw_object(log):
            return _raw_payload(log)
        return value

    def from_payload(self, value: int) -> dict[str, Any]:
        return self._read(value)[0]

    @staticmethod
    def _read(value: int) -> tuple[dict[str, Any], Any]:
        """(the log's data, the log) of a payload; ``CodeError`` for anything that is not one."""
        if not isinstance(value, int) or value < 0:
            raise CodeError(f"{DAMAGED}: its payload is not a number")
        form, rest = value & 1, value >> 1
        if form:
            data = _decode_raw(rest)
        else:
            r = Reader(rest)
            data = _decode_compact(r)
            if r.value:
                raise CodeError(f"{DAMAGED}: it holds more than one hand")
        try:
            return data, parse(data, "code")
        except LogFormatError as exc:
            raise CodeError(f"{DAMAGED}: the hand in it does not read ({exc})") from None

    def is_compact(self, log: Any) -> bool:
        """Whether the hand takes the compact form."""
        return self.payload(log) & 1 == 0


CODEC = PayloadCodec()


# --- figures ---------------------------------------------------------------------------------

def information_bits(log: Any) -> float:
    """The information bound of a hand in bits (``information_parts`` summed)."""
    cards, choices = information_parts(log)
    return cards + choices


def information_parts(log: Any) -> tuple[float, float]:
    """log2 of the deal's possibilities (each group of known cards a set among the unseen cards)
    plus log2 of each decision's legal count (fold when legal, check or call, and every legal
    ``cbr`` total; where no seat must act, the deal or each seat that may show; a show's show or
    muck): what a code that took every option as equally likely would spend on the hand. The
    table, the end and the cards' order are not counted. Returns (the cards' bits, the
    choices' bits)."""
    log = getattr(log, "log", log)
    state, _ = HoldemState.from_log(log)
    bits = dealt = 0.0
    unit = _unit(log)
    actions = [e.parsed for e in log.events if e.type == "action"]
    for index, action in enumerate(actions):
        if state.stopped:
            break
        seat = state.to_act
        if seat is None:
            showable = _showable(state)
            bits += log2(len(showable) + 1)
            if action.verb == "dh" or action.verb == "db":
                dealt += log2(comb(len(state.unseen()), sum(1 for c in action.cards if c is not None)))
        elif state.street != "showdown" and action.verb != "sm":
            legal = state.legal()
            count = int(bool(legal.fold)) + 1
            if legal.min_to is not None:
                count += int((legal.max_to - legal.min_to) / unit) + 1
            bits += log2(count)
        if action.verb == "sm":
            bits += 1.0
            hole = _hole(state, action.actor) if action.actor in state.seats else None
            if action.cards and hole and None in hole:
                dealt += log2(comb(len(state.unseen()), sum(1 for c, h in zip(action.cards, hole)
                                                           if c is not None and h is None)))
        state.push_action(action.text(), index)
    if state.over and log.end is not None and log.end.reason == "completed":
        bits += log2(len(_showable(state)) + 1)
    return dealt, bits


def _unit(log: Any) -> Any:
    """The smallest amount step of a hand: 1 for whole numbers, else the finest decimal place."""
    amounts = list(log.starting_stacks) + list(log.blinds_or_straddles or []) + list(log.antes or [])
    places = [-a.as_tuple().exponent for a in amounts if isinstance(a, Decimal)]
    return Decimal(1).scaleb(-max(places)) if places and max(places) > 0 else 1


__all__ = ["CODEC", "NotCompact", "PayloadCodec", "Reader", "Writer", "information_bits", "information_parts"]
