"""Duplicate deals: the same cards played at several tables, compared seat by seat.

A game tells a deal's identity through ``GameModule.deal_key(log)`` (a fingerprint made with
:func:`fingerprint`) and each seat's result on its standard scale through
``GameModule.deal_scores(replay)`` (tricks, chips, points...: ``GameModule.deal_unit``). This
module is the game-neutral arithmetic the championship runner, the archive's statistics, the
``/deal/<key>`` page and ``bench/duplicate.py`` share.

**Duplicate score.** At a deal played at several tables, a seat's duplicate score is its result
minus the mean result of that seat over the deal's tables: the cards' luck (the same at every
table) cancels and what is left is how much better than the field the seat did with them.

**Rotation.** ``rotation(seats, bots)`` seats every bot in every seat of a deal: with ``k``
bots and ``n`` seats, ``max(n, k)`` tables.

**Intervals.** Every mean comes with its 95% interval, ``mean ± 1.96 sd / sqrt(n)``. Results
at the tables of one deal are not independent (they share the cards), so a bot's duplicate
score is first averaged per deal and the interval is taken over deals; the plain score's over
tables, as a leaderboard of independent games would.

>>> rotation(4, ["a", "b"])
[('a', 'b', 'a', 'b'), ('b', 'a', 'b', 'a'), ('a', 'b', 'a', 'b'), ('b', 'a', 'b', 'a')]
>>> rotation(2, ["a", "b", "c"])
[('a', 'b'), ('b', 'c'), ('c', 'a')]
>>> tables = [Table("d1", {"N": "a", "S": "b"}, {"N": 9, "S": 4}), Table("d1", {"N": "b", "S": "a"}, {"N": 7, "S": 6})]
>>> duplicate_scores(tables)
[{'N': 1.0, 'S': -1.0}, {'N': -1.0, 'S': 1.0}]
>>> board = leaderboard(tables, unit="tricks")
>>> [(s.bot, s.plain.mean, s.duplicate.mean) for s in board.standings]
[('a', 7.5, 1.0), ('b', 5.5, -1.0)]
>>> board.deals, board.duplicated_deals, board.tables
(1, 1, 2)
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

#: the normal quantile of a two-sided 95% interval
Z95 = 1.96
#: what a deal key looks like (``fingerprint``'s output): 24 lowercase hex digits (96 bits)
KEY_LENGTH = 24
KEY_PATTERN = re.compile(r"[0-9a-f]{%d}" % KEY_LENGTH)


def fingerprint(game: str, *parts: Any) -> str:
    """A deal key: the first 96 bits of the SHA-256 of the game's name and ``parts`` (plain JSON
    data: seat names, card texts, numbers) as compact, key-sorted JSON. Equal parts give equal
    keys; any difference gives a different key (up to a 2**-96 chance), and two games never
    share keys.

    >>> fingerprint("toy", {"N": ["AS", "KH"]}, "N")
    'befe07251cbb733af48f2b8c'
    >>> fingerprint("toy", {"N": ["AS", "KH"]}, "N") == fingerprint("other", {"N": ["AS", "KH"]}, "N")
    False
    """
    text = json.dumps([game, *parts], sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:KEY_LENGTH]


def is_key(text: str) -> bool:
    """Whether ``text`` is shaped like a deal key.

    >>> is_key("8a1d0d8a01bfc6d5d2d1f3b3"), is_key("../etc"), is_key("8A1D0D8A01BFC6D5D2D1F3B3")
    (True, False, False)
    """
    return bool(KEY_PATTERN.fullmatch(text))


def rotation(seats: int, bots: Sequence[str]) -> list[tuple[str, ...]]:
    """The tables of one deal, each the bot of every seat in table order, so that every bot
    plays every seat: ``max(seats, len(bots))`` tables. With no more bots than seats, table
    ``r`` seats ``bots[((i + r) % seats) % k]`` in seat ``i``; with more bots than seats,
    ``bots[(i + r) % k]``."""
    k = len(bots)
    if seats < 1 or k < 1:
        raise ValueError("a rotation needs at least one seat and one bot")
    if k <= seats:
        return [tuple(bots[((i + r) % seats) % k] for i in range(seats)) for r in range(seats)]
    return [tuple(bots[(i + r) % k] for i in range(seats)) for r in range(k)]


@dataclass(frozen=True)
class Table:
    """One game of a deal: the deal's key, each seat's bot (or player) and its result.
    ``ref`` says where the game is (an archive id, a file), for listings."""

    deal: str
    bots: Mapping[str, str]
    scores: Mapping[str, float]
    ref: Any = None


@dataclass(frozen=True)
class Interval:
    """A mean with its 95% half-width (``half`` is None with fewer than two samples)."""

    mean: float
    half: float | None
    n: int

    @property
    def width(self) -> float | None:
        return None if self.half is None else 2 * self.half

    def text(self, digits: int = 2, signed: bool = False) -> str:
        """``+1.25 ± 0.40`` (``-`` for no samples).

        >>> Interval(1.25, 0.4, 9).text(signed=True), Interval(3.0, None, 1).text(1), Interval(0.0, None, 0).text()
        ('+1.25 ± 0.40', '3.0', '-')
        """
        if not self.n:
            return "-"
        mean = f"{self.mean:+.{digits}f}" if signed else f"{self.mean:.{digits}f}"
        return mean if self.half is None else f"{mean} ± {self.half:.{digits}f}"

    def to_json(self) -> dict[str, Any]:
        low = None if self.half is None else self.mean - self.half
        high = None if self.half is None else self.mean + self.half
        return {"mean": self.mean, "half_width": self.half, "low": low, "high": high, "n": self.n}


def interval(values: Sequence[float]) -> Interval:
    """The mean of ``values`` with its 95% interval (normal approximation).

    >>> i = interval([1, 2, 3, 4]); i.mean, round(i.half, 4), i.n
    (2.5, 1.2652, 4)
    >>> interval([5.0]).half is None, interval([]).n
    (True, 0)
    """
    n = len(values)
    if n == 0:
        return Interval(0.0, None, 0)
    mean = math.fsum(values) / n
    if n < 2:
        return Interval(mean, None, n)
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    return Interval(mean, Z95 * math.sqrt(var / n), n)


def by_deal(tables: Iterable[Table]) -> dict[str, list[Table]]:
    """The tables grouped by deal key, in the order first met."""
    groups: dict[str, list[Table]] = {}
    for table in tables:
        groups.setdefault(table.deal, []).append(table)
    return groups


def seat_means(tables: Sequence[Table]) -> dict[str, float]:
    """Each seat's mean result over ``tables`` (the tables of one deal)."""
    sums: dict[str, list[float]] = {}
    for table in tables:
        for seat, score in table.scores.items():
            sums.setdefault(seat, []).append(float(score))
    return {seat: math.fsum(v) / len(v) for seat, v in sums.items()}


def duplicate_scores(tables: Sequence[Table]) -> list[dict[str, float]]:
    """Each table's seats' duplicate scores (the tables of one deal, in their order): the seat's
    result minus that seat's mean over the tables."""
    means = seat_means(tables)
    return [{seat: float(score) - means[seat] for seat, score in t.scores.items()} for t in tables]


def _per_bot(table: Table, scores: Mapping[str, float]) -> dict[str, float]:
    """Each bot's mean over its seats of one table."""
    seats: dict[str, list[float]] = {}
    for seat, bot in table.bots.items():
        if seat in scores:
            seats.setdefault(bot, []).append(float(scores[seat]))
    return {bot: math.fsum(v) / len(v) for bot, v in seats.items()}


@dataclass(frozen=True)
class Standing:
    """One bot's row: its plain score (mean result per table, interval over tables) and its
    duplicate score (over the deals played at two tables or more, interval over deals)."""

    bot: str
    tables: int
    deals: int
    plain: Interval
    duplicate: Interval

    def to_json(self) -> dict[str, Any]:
        return {"bot": self.bot, "tables": self.tables, "deals": self.deals, "plain": self.plain.to_json(),
                "duplicate": self.duplicate.to_json()}


@dataclass(frozen=True)
class Leaderboard:
    """Every bot's standing (best duplicate score first, then best plain score), and what it rests on:
    ``deals`` and ``tables`` counted, ``duplicated_deals`` of them played at two tables or more."""

    unit: str
    standings: list[Standing]
    deals: int
    tables: int
    duplicated_deals: int
    duplicated_tables: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"unit": self.unit, "deals": self.deals, "tables": self.tables,
                "duplicated_deals": self.duplicated_deals, "duplicated_tables": self.duplicated_tables,
                "interval": "95%: mean ± 1.96 sd / sqrt(n); plain over tables, duplicate over deals",
                "standings": [s.to_json() for s in self.standings], **self.extra}


def leaderboard(tables: Iterable[Table], unit: str = "points") -> Leaderboard:
    """Each bot's plain and duplicate score with their 95% intervals (see the module's text)."""
    groups = by_deal(tables)
    plain: dict[str, list[float]] = {}
    dup: dict[str, list[float]] = {}
    deals_of: dict[str, set[str]] = {}
    duplicated = duplicated_tables = count = 0
    for deal, group in groups.items():
        count += len(group)
        for table in group:
            for bot, value in _per_bot(table, table.scores).items():
                plain.setdefault(bot, []).append(value)
                deals_of.setdefault(bot, set()).add(deal)
        if len(group) < 2:
            continue
        duplicated += 1
        duplicated_tables += len(group)
        per_deal: dict[str, list[float]] = {}
        for table, scores in zip(group, duplicate_scores(group)):
            for bot, value in _per_bot(table, scores).items():
                per_deal.setdefault(bot, []).append(value)
        for bot, values in per_deal.items():
            dup.setdefault(bot, []).append(math.fsum(values) / len(values))
    standings = [Standing(bot, len(values), len(deals_of[bot]), interval(values), interval(dup.get(bot, [])))
                 for bot, values in plain.items()]
    standings.sort(key=lambda s: (-(s.duplicate.mean if s.duplicate.n else -math.inf), -s.plain.mean, s.bot))
    return Leaderboard(unit, standings, len(groups), count, duplicated, duplicated_tables)


def difference(tables: Iterable[Table], a: str, b: str) -> Interval:
    """The score of bot ``a`` minus bot ``b`` at the tables where both sat (each table: the mean
    of ``a``'s seats minus the mean of ``b``'s), averaged per deal, with its 95% interval over
    deals: what ``bench/duplicate.py`` compares on duplicated and on independent deals (where
    each deal is one table, the same formula is the plain one).

    >>> t = [Table("d1", {"N": "a", "S": "b"}, {"N": 9, "S": 4}), Table("d1", {"N": "b", "S": "a"}, {"N": 7, "S": 6}),
    ...      Table("d2", {"N": "a", "S": "b"}, {"N": 2, "S": 11}), Table("d2", {"N": "b", "S": "a"}, {"N": 1, "S": 12})]
    >>> d = difference(t, "a", "b"); d.mean, d.n, round(d.half, 3)
    (1.5, 2, 0.98)
    """
    per_deal: dict[str, list[float]] = {}
    for table in tables:
        bots = _per_bot(table, table.scores)
        if a in bots and b in bots:
            per_deal.setdefault(table.deal, []).append(bots[a] - bots[b])
    return interval([math.fsum(v) / len(v) for v in per_deal.values()])


__all__ = ["Interval", "KEY_PATTERN", "Leaderboard", "Standing", "Table", "Z95", "by_deal", "difference",
           "duplicate_scores", "fingerprint", "interval", "is_key", "leaderboard", "rotation", "seat_means"]
