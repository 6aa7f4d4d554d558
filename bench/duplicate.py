"""Duplicate deals against independent deals: how much narrower the 95% interval of the score
difference between two bots gets when every deal is played at every table of the rotation.

    python bench/duplicate.py [--games 2000] [--rounds 5] [--seed 1] [--only GAME] [--first-pair]
                              [--match GAME:A,B] [--json]

For each registered game with deals (``GameModule.has_deals``) and every pair of its bots (its
default bots first; ``--first-pair``: only the first pair; ``--match``: the pairs named), a
table of one seat a bot where the table varies (heads-up hold'em, two-seat Coup), at the same
number of games G:

- **duplicated**: G / T deals, each played at every one of the T tables of
  ``replay.duplicate.rotation(GAME.table_seats(bots), bots)``;
- **independent**: G deals, one table each, the seating still rotating table by table (deal i
  at table ``i % T``), so that each bot sits in each seat as often as on duplicated deals.

Each game is ``GAME.play_table(deal, seat_bots, table=r)`` (the cards from the deal number alone),
judged, grouped by its deal number (what was dealt: a game's ``deal_key`` may give two deals one
key, when the log does not tell them apart) and scored by ``GAME.deal_scores``; the figure is the
width of the 95% interval of ``replay.duplicate.difference(tables, a, b)`` (bot a's result
minus bot b's, averaged per deal, the interval over deals) on each side, and their ratio
independent / duplicated (above 1: the duplicated deals' interval is narrower). Each round plays
new deals (round r: deals from ``seed + 2 G r``); each line gives the ratio first, and the
medians over rounds close the run. The command, the Python version and the load average are
printed first. Beside each ratio, the within-deal correlation says why it is what it is
(``within_deal_correlation``). The bench names no game: it goes through the registry and the
games' hooks, so a plugin game with deals is measured too.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import sys
import time
from dataclasses import dataclass
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from replay.duplicate import Interval, Table, difference, rotation  # noqa: E402
from replay.games import get, names  # noqa: E402


@dataclass(frozen=True)
class Match:
    """A game and its two bots (the registry's names)."""

    game: str
    a: str
    b: str

    @property
    def label(self) -> str:
        return f"{get(self.game).title}, {self.a} vs {self.b}"


def pairs(game: str, every: bool = True) -> list[tuple[str, str]]:
    """The game's pairs of bots: every pair of its bots (default bots first), or only the first two."""
    module = get(game)
    bots = list(dict.fromkeys([*module.default_bots, *module.bots]))
    found = list(itertools.combinations(bots, 2))
    return found if every else found[:1]


def matches(only: list[str] | None = None, every: bool = True, chosen: list[str] | None = None) -> list[Match]:
    """Every registered game with deals and two bots (or those of ``only``), with every pair of its
    bots (or the first pair); ``chosen`` (``GAME:a,b``) names the pairs instead."""
    if chosen:
        found = []
        for text in chosen:
            game, _, bots = text.partition(":")
            a, _, b = bots.partition(",")
            if game not in names() or not get(game).has_deals or a not in get(game).bots or b not in get(game).bots:
                raise SystemExit(f"--match {text!r}: not GAME:a,b of a game with deals and two of its bots")
            found.append(Match(game, a, b))
        return found
    return [Match(game, a, b) for game in names() if (only is None or game in only) and get(game).has_deals
            for a, b in pairs(game, every)]


def play(match: Match, deal: int, table: int, seat_bots: tuple[str, ...]) -> Table | None:
    """One table, judged: its deal key, bots and scores (None: the game gives no scores)."""
    game = get(match.game)
    log = game.play_table(deal, list(seat_bots), table=table, )
    scores = game.deal_scores(game.judge(log))
    if scores is None:
        return None
    seats = [str(s) for s in game.seat_order(log)]
    # grouped by the deal number, what was dealt: a game's key may not tell every deal apart
    # (a key of the dealt hands alone, at a small table, takes few values)
    return Table(f"deal {deal}", dict(zip(seats, seat_bots)), {str(s): float(v) for s, v in scores.items()},
                 game.deal_key(log))


def table_difference(table: Table, a: str, b: str) -> float | None:
    """Bot a's mean result over its seats of one table minus bot b's (None: one of them is absent)."""
    mine = {bot: [table.scores[s] for s, x in table.bots.items() if x == bot and s in table.scores] for bot in (a, b)}
    if not mine[a] or not mine[b]:
        return None
    return statistics.fmean(mine[a]) - statistics.fmean(mine[b])


def within_deal_correlation(tables: list[Table], a: str, b: str, per_deal: int) -> float | None:
    """The mean correlation, over the pairs of tables (i, j) of the rotation, of table i's and table
    j's differences a - b across deals: the design's lever. With T tables per deal and a mean
    pairwise correlation rho, ratio is about 1 / sqrt(1 + (T - 1) rho) (exactly, with equal spreads at
    every table): 1 when the tables of a deal are
    unrelated (the bots' own randomness swamps the cards), 2 for bridge's T = 4 needs rho = -0.25
    (the cards' luck, favouring the seat, flips sign when the bots swap seats)."""
    rows: dict[str, list[float | None]] = {}
    for table in tables:
        rows.setdefault(table.deal, []).append(table_difference(table, a, b))
    full = [r for r in rows.values() if len(r) == per_deal and None not in r]
    if per_deal < 2 or len(full) < 3:
        return None
    found = []
    for i in range(per_deal):
        for j in range(i + 1, per_deal):
            x, y = [r[i] for r in full], [r[j] for r in full]
            if statistics.pstdev(x) and statistics.pstdev(y):
                found.append(statistics.correlation(x, y))  # type: ignore[arg-type]
    return statistics.fmean(found) if found else None


def one_round(match: Match, games: int, first: int) -> dict[str, Any]:
    game = get(match.game)
    bots = [match.a, match.b]
    tables = rotation(game.table_seats(bots, ), bots)
    per_deal = len(tables)
    deals = games // per_deal
    started = time.perf_counter()
    duplicated = [t for d in range(first, first + deals) for r, seating in enumerate(tables)
                  if (t := play(match, d, r, seating)) is not None]
    middle = time.perf_counter()
    independent = [t for i in range(games) if (t := play(match, first + games + i, i % per_deal,
                                                          tables[i % per_deal])) is not None]
    ended = time.perf_counter()
    dup, ind = difference(duplicated, match.a, match.b), difference(independent, match.a, match.b)
    return {"game": match.game, "a": match.a, "b": match.b, "unit": game.deal_unit, "tables_per_deal": per_deal,
            "duplicated": {"deals": deals, "tables": len(duplicated), **_json(dup),
                           "seconds": round(middle - started, 2)},
            "independent": {"deals": games, "tables": len(independent), **_json(ind),
                            "seconds": round(ended - middle, 2)},
            "ratio": _ratio(ind, dup), "within_deal_correlation": within_deal_correlation(duplicated, match.a, match.b,
                                                                                          per_deal)}


def _json(i: Interval) -> dict[str, Any]:
    return {"difference": i.mean, "half_width": i.half, "width": i.width, "n": i.n}


def _ratio(independent: Interval, duplicated: Interval) -> float | None:
    if independent.width is None or not duplicated.width:
        return None
    return independent.width / duplicated.width


def _num(value: float | None, digits: int = 3) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games per game, bots pair and side (G)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1, help="the first deal's number")
    parser.add_argument("--only", action="append", default=None, metavar="GAME", help="only this game (repeatable)")
    parser.add_argument("--first-pair", action="store_true", help="only each game's first pair of bots (default: every pair)")
    parser.add_argument("--match", action="append", default=None, metavar="GAME:A,B", help="only this game and pair (repeatable)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = parser.parse_args(argv)
    print("$ python " + " ".join(["bench/duplicate.py"] + (argv if argv is not None else sys.argv[1:])))
    print(f"Python {sys.version.split()[0]}, load average " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    chosen = matches(args.only, not args.first_pair, args.match)
    print(f"{args.rounds} round(s) of {args.games} games per game and side: duplicated (G / T deals at the T tables "
          f"of the rotation) against independent (G deals, one table each); width of the 95% interval of the "
          f"score difference a - b, and the ratio independent / duplicated\n", flush=True)
    rounds: dict[str, list[dict[str, Any]]] = {m.label: [] for m in chosen}
    for r in range(args.rounds):
        first = args.seed + 2 * args.games * r
        for match in chosen:
            result = one_round(match, args.games, first)
            rounds[match.label].append(result)
            dup, ind = result["duplicated"], result["independent"]
            print(f"round {r + 1} {match.label} ({result['unit']}): ratio {_num(result['ratio'], 2)}; "
                  f"independent {_num(ind['difference'])} ± {_num(ind['half_width'])} (width {_num(ind['width'])}, "
                  f"{ind['deals']} deals, {ind['seconds']:.1f} s); duplicated {_num(dup['difference'])} ± "
                  f"{_num(dup['half_width'])} (width {_num(dup['width'])}, {dup['deals']} deals x "
                  f"{result['tables_per_deal']} tables, {dup['seconds']:.1f} s); within-deal correlation "
                  f"{_num(result['within_deal_correlation'], 2)}", flush=True)
    print(f"\nmedians over {args.rounds} round(s), {args.games} games a side:")
    print(f"  {'game, bots':<40} {'ratio':>6} {'width independent':>18} {'width duplicated':>17} {'rho':>6}  unit")
    summary = []
    for match in chosen:
        results = rounds[match.label]
        ratios = [x["ratio"] for x in results if x["ratio"] is not None]
        ind = [x["independent"]["width"] for x in results if x["independent"]["width"] is not None]
        dup = [x["duplicated"]["width"] for x in results if x["duplicated"]["width"] is not None]
        rho = [x["within_deal_correlation"] for x in results if x["within_deal_correlation"] is not None]
        row = {"game": match.game, "a": match.a, "b": match.b, "unit": results[0]["unit"],
               "tables_per_deal": results[0]["tables_per_deal"], "games": args.games, "rounds": args.rounds,
               "median_ratio": statistics.median(ratios) if ratios else None,
               "median_width_independent": statistics.median(ind) if ind else None,
               "median_width_duplicated": statistics.median(dup) if dup else None,
               "median_within_deal_correlation": statistics.median(rho) if rho else None}
        summary.append(row)
        print(f"  {match.label:<40} {_num(row['median_ratio'], 2):>6} {_num(row['median_width_independent']):>18} "
              f"{_num(row['median_width_duplicated']):>17} {_num(row['median_within_deal_correlation'], 2):>6}  {row['unit']}")
    print("rho: the mean correlation of the difference a - b between two tables of a deal (ratio = "
          "about 1 / sqrt(1 + (T - 1) rho); near 0: the bots' own randomness, not the cards, makes the spread)")
    print("load average after: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    if args.json:
        print(json.dumps({"summary": summary, "rounds": rounds}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
