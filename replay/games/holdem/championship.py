"""Championship leaderboards for Texas hold'em: big blinds won per 100 hands with a 95% interval,
raw and all-in adjusted.

Each seat of each hand belongs to a bot (``players[seat].bot``, else its ``name``, else the seat).
A bot's result in a hand is the mean payoff of its seats there, in big blinds; its rate is the mean
over the hands it played, times 100 (bb/100), with the 95% interval ``mean ± 1.96 sd / sqrt(n)``
(``sd`` the sample standard deviation over those hands). Averaging a bot's seats within a hand
first keeps the interval honest when a bot holds several seats of one table.

**All-in adjusted winnings.** When all the money that can still be bet is in before the river
(at most one seat in the hand still has chips behind, the betting is closed and board cards are
still to come), the luck of the run-out is taken out: each seat in a pot is credited its equity
share of that pot at that moment (``equity.equities`` from the hole cards and the board then,
with folded seats' known cards dead) instead of what the run-out gave it; what it had put in is
unchanged. The adjustment is unbiased (the shares are the run-out's expected value) and cuts
the variance of the results, so the same hands give a narrower interval. It is the standard
first step; AIVAT (Burch et al. 2018, used to evaluate DeepStack and Pluribus) is the next one:
with a value function as control variate it takes out the luck of every chance event (the deal
and every board card, not only an all-in's run-out) and of the evaluated bot's own randomised
actions, still without bias. A hand whose all-in
seats' cards are not all known, or that was not settled, or had rake, keeps its raw result.

>>> hands = [HandResult({"p1": "a", "p2": "b"}, {"p1": 1.0, "p2": -1.0}, {"p1": 0.5, "p2": -0.5}, True),
...          HandResult({"p1": "b", "p2": "a"}, {"p1": -3.0, "p2": 3.0}, {"p1": -3.0, "p2": 3.0}, False)]
>>> board = leaderboard(hands)
>>> [(s.bot, s.hands, s.raw.mean, s.adjusted.mean) for s in board.standings]
[('a', 2, 200.0, 175.0), ('b', 2, -200.0, -175.0)]
>>> round(board.standings[0].raw.half, 1)
196.0
"""

from __future__ import annotations

import json
import math
import sys
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

import click

from replay.clitools import EXIT_BAD_INPUT, UserError, read_entries

from .engine import HoldemState
from .equity import equities

#: the normal quantile of a two-sided 95% interval
Z95 = 1.96


@dataclass(frozen=True)
class Interval:
    """A mean with its 95% half-width (``half`` is None with fewer than two samples)."""

    mean: float
    half: float | None
    n: int

    @property
    def low(self) -> float | None:
        return None if self.half is None else self.mean - self.half

    @property
    def high(self) -> float | None:
        return None if self.half is None else self.mean + self.half

    @property
    def width(self) -> float | None:
        return None if self.half is None else 2 * self.half

    def text(self, digits: int = 1) -> str:
        """``12.3 ± 4.5``."""
        if self.half is None:
            return f"{self.mean:.{digits}f}"
        return f"{self.mean:.{digits}f} ± {self.half:.{digits}f}"

    def to_json(self) -> dict[str, Any]:
        return {"mean": self.mean, "half_width": self.half, "low": self.low, "high": self.high, "n": self.n}


def interval(values: Sequence[float], scale: float = 1.0) -> Interval:
    """The mean of ``values`` times ``scale`` with its 95% interval (normal approximation).

    >>> interval([1, 2, 3, 4]).mean, round(interval([1, 2, 3, 4]).half, 4)
    (2.5, 1.2652)
    >>> interval([5.0]).half is None
    True
    """
    n = len(values)
    if n == 0:
        return Interval(0.0, None, 0)
    mean = math.fsum(values) / n
    if n < 2:
        return Interval(mean * scale, None, n)
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    return Interval(mean * scale, Z95 * math.sqrt(var) / math.sqrt(n) * scale, n)


@dataclass(frozen=True)
class HandResult:
    """One hand: each seat's bot and its payoff in big blinds, raw and all-in adjusted."""

    bots: Mapping[str, str]
    raw: Mapping[str, float]
    adjusted: Mapping[str, float]
    all_in: bool = False  # the adjustment applied


@dataclass(frozen=True)
class Standing:
    """One bot's row of the leaderboard (rates in bb/100)."""

    bot: str
    hands: int
    seats: int
    all_in_hands: int
    raw: Interval
    adjusted: Interval

    @property
    def width_ratio(self) -> float | None:
        """The adjusted interval's width over the raw one's (below 1: the adjustment narrowed it)."""
        if self.raw.width is None or self.adjusted.width is None or self.raw.width == 0:
            return None
        return self.adjusted.width / self.raw.width

    def to_json(self) -> dict[str, Any]:
        return {"bot": self.bot, "hands": self.hands, "seats": self.seats, "all_in_hands": self.all_in_hands,
                "bb_per_100": self.raw.to_json(), "bb_per_100_adjusted": self.adjusted.to_json(),
                "width_ratio": self.width_ratio}


@dataclass(frozen=True)
class Leaderboard:
    """Every bot's standing, best raw rate first, and the hands counted or left out."""

    standings: list[Standing]
    hands: int
    all_in_hands: int
    skipped: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"unit": "bb/100", "interval": "95% (mean ± 1.96 sd / sqrt(n) over hands)", "hands": self.hands,
                "all_in_hands": self.all_in_hands, "skipped": self.skipped,
                "standings": [s.to_json() for s in self.standings]}

    def json_text(self) -> str:
        return json.dumps(self.to_json(), indent=2, ensure_ascii=False)

    def table(self) -> Any:
        """The leaderboard as a ``rich`` table."""
        from rich.table import Table

        table = Table(title=f"Texas hold'em: {self.hands} hands, {self.all_in_hands} all-in before the river "
                            f"(bb/100, 95% interval)")
        for name, justify in (("Bot", "left"), ("Hands", "right"), ("Raw", "right"), ("All-in adjusted", "right"),
                              ("Width raw", "right"), ("Width adjusted", "right"), ("Ratio", "right")):
            table.add_column(name, justify=justify)  # type: ignore[arg-type]
        for s in self.standings:
            table.add_row(s.bot, str(s.hands), s.raw.text(), s.adjusted.text(), _num(s.raw.width),
                          _num(s.adjusted.width), "-" if s.width_ratio is None else f"{s.width_ratio:.2f}")
        return table


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def leaderboard(results: Iterable[HandResult], skipped: int = 0) -> Leaderboard:
    """Per bot: bb/100 raw and adjusted with their 95% intervals, over the hands it played."""
    raw: dict[str, list[float]] = {}
    adjusted: dict[str, list[float]] = {}
    seats: dict[str, int] = {}
    all_in: dict[str, int] = {}
    hands = all_in_hands = 0
    for result in results:
        hands += 1
        all_in_hands += result.all_in
        mine: dict[str, list[str]] = {}
        for seat, bot in result.bots.items():
            mine.setdefault(bot, []).append(seat)
        for bot, own in mine.items():
            raw.setdefault(bot, []).append(math.fsum(result.raw[s] for s in own) / len(own))
            adjusted.setdefault(bot, []).append(math.fsum(result.adjusted[s] for s in own) / len(own))
            seats[bot] = seats.get(bot, 0) + len(own)
            all_in[bot] = all_in.get(bot, 0) + result.all_in
    standings = [Standing(bot, len(raw[bot]), seats[bot], all_in[bot], interval(raw[bot], 100.0),
                          interval(adjusted[bot], 100.0)) for bot in raw]
    standings.sort(key=lambda s: (-s.raw.mean, s.bot))
    return Leaderboard(standings, hands, all_in_hands, skipped)


def seat_bot(log: Any, seat: str) -> str:
    """The bot (or player) a seat's results count for: ``players[seat].bot``, else its name, else the seat."""
    player = (getattr(log, "players", None) or {}).get(seat)
    if player is None:
        return seat
    return getattr(player, "bot", None) or getattr(player, "name", None) or seat


def big_blind(log: Any) -> Any:
    """The table's big blind: the larger of the first two blinds, else the minimum bet or small bet."""
    blinds = list(getattr(log, "blinds_or_straddles", None) or [])[:2]
    if blinds and max(blinds) > 0:
        return max(blinds)
    for name in ("min_bet", "small_bet"):
        value = getattr(log, name, None)
        if value:
            return value
    raise ValueError("a hand with no blinds and no minimum bet has no big blind to count in")


def _float(value: Any) -> float:
    return float(value)


def hand_result(hand: Any) -> HandResult | None:
    """One judged hand (a ``HoldemReplay`` or a log) -> its seats' bots and payoffs in big blinds,
    raw and all-in adjusted; None when the hand cannot be counted (a fatal finding, not over,
    not settled)."""
    log = getattr(hand, "log", hand)
    state, findings = HoldemState.from_log(log)
    if state.stopped:
        return None
    start = list(state.starting)
    moment: dict[str, Any] | None = None
    for index, event in enumerate(log.events):
        if event.type != "action":
            continue
        state.push_action(event.action, index)
        if state.stopped:
            return None
        if moment is None:
            moment = all_in_moment(state)
    if not state.over:
        return None
    settlement = state.settle()
    if not settlement.settled or any(p is None for p in settlement.payoffs):
        return None
    bb = big_blind(log)
    seats = state.seats
    bots = {s: seat_bot(log, s) for s in seats}
    raw = {s: _float(settlement.payoffs[i] / bb) for i, s in enumerate(seats)}
    if moment is None or settlement.rake:
        return HandResult(bots, raw, raw, False)
    adjusted = {s: _float(moment["stacks"][s] - start[i]) / _float(bb) + moment["credit"].get(s, 0.0) / _float(bb)
                for i, s in enumerate(seats)}
    return HandResult(bots, raw, adjusted, True)


def all_in_moment(state: HoldemState) -> dict[str, Any] | None:
    """At a position where the betting is closed, board cards are still to come and at most one
    seat in the hand has chips behind (one or more of them all-in): each seat's stack then and its
    equity credit from the pots (``{"stacks", "credit", "equities"}``, by seat); None at any other
    position, or when a seat in the hand has unknown hole cards."""
    due = state.dealer_due
    if state.to_act is not None or due is None or due[0] != "db" or len(state.board) >= 5:
        return None
    seats, folded = state.seats, state.folded
    live = [i for i in range(state.n) if not folded[i]]
    behind = [i for i in live if state.stacks[i] > 0]
    if len(live) < 2 or len(behind) > 1:
        return None
    holes = {seats[i]: state.hole[i] for i in live}
    if any(h is None or len(h) != 2 or None in h for h in holes.values()):
        return None
    dead = [c for i in range(state.n) if folded[i] for c in (state.hole[i] or ()) if c is not None]
    board = list(state.board)
    credit: dict[str, float] = {}
    shares: dict[tuple[str, ...], list[float]] = {}
    for pot in state.pots():
        contenders = tuple(s for s in pot.seats if s in holes)
        if not contenders:
            continue
        if len(contenders) == 1:
            share = [1.0]
        else:
            if contenders not in shares:
                shares[contenders] = list(equities([holes[s] for s in contenders], board, dead).shares)
            share = shares[contenders]
        for s, e in zip(contenders, share):
            credit[s] = credit.get(s, 0.0) + _float(pot.amount) * e
    return {"stacks": state.by_seat(state.stacks), "credit": credit,
            "equities": {k: dict(zip(k, v)) for k, v in shares.items()}}


def championship(hands: Iterable[Any]) -> Leaderboard:
    """The leaderboard of judged hands (``HoldemReplay`` objects or ``holdem/1`` logs); hands that
    cannot be counted (a fatal finding, an unsettled pot) are left out and counted as skipped."""
    results: list[HandResult] = []
    skipped = 0
    for hand in hands:
        result = hand_result(hand)
        if result is None:
            skipped += 1
        else:
            results.append(result)
    return leaderboard(results, skipped)


@click.command("holdem-championship")
@click.argument("paths", nargs=-1, required=True, metavar="FILE|FOLDER...")
@click.option("--json", "as_json", is_flag=True, help="The leaderboard as JSON.")
def championship_command(paths: tuple[str, ...], as_json: bool) -> None:
    """The Texas hold'em leaderboard of the hands in FILE|FOLDER...: each bot's (or player's) big
    blinds per 100 hands with a 95% interval, raw and all-in adjusted, and the intervals' widths.

    Hands of other games are left out; unreadable or uncountable hands are counted and left out
    (exit 2 when a file could not be read)."""
    counts = {"unreadable": 0, "other games": 0}

    def hands() -> Iterable[Any]:
        for entry in read_entries(paths):
            if entry.error is not None:
                counts["unreadable"] += 1
                click.echo(f"{entry.source}: not a valid log: {entry.error}", err=True)
            elif entry.log.format != "holdem/1":
                counts["other games"] += 1
            else:
                yield entry.log

    board = championship(hands())
    if not board.hands and not board.skipped:
        raise UserError(f"no Texas hold'em hands in {', '.join(paths)}")
    if as_json:
        click.echo(json.dumps({**board.to_json(), "unreadable": counts["unreadable"],
                               "other_games": counts["other games"]}, ensure_ascii=False, indent=2))
    else:
        from rich.console import Console

        Console().print(board.table())
        left = [f"{n} {what}" for what, n in (("not countable (fatal finding, unfinished or unsettled)",
                                                board.skipped), *((k, v) for k, v in counts.items())) if n]
        if left:
            click.echo("left out: " + ", ".join(left))
        click.echo("All-in adjusted: a seat all-in before the river is credited its equity share of each pot "
                   "instead of the run-out's result (the next step of variance reduction: AIVAT).")
    if counts["unreadable"]:
        sys.exit(EXIT_BAD_INPUT)


__all__ = ["HandResult", "Interval", "Leaderboard", "Standing", "all_in_moment", "championship",
           "championship_command", "hand_result", "interval", "leaderboard", "seat_bot"]
