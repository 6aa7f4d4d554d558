"""``/stats``: per bot or per player, over public games: games, wins, findings per 100 games,
think time; with a game whose ``counted_role`` is set, that role's games and wins (labelled from
the role: "as declarer"); with analysis (a game with ``has_analysis``, the games analysed by
``archive analyse`` or viewed with the analysis on), what the analysis counts as lost per
analysed game; with plotly charts; ``/stats.json`` too.

``by`` is ``bot`` (default) or ``player``; ``name`` narrows to one; ``game`` (a registered
game's name) to one game's games, ranked by their rating in that game (``archive/ratings.py``:
Plackett-Luce rating, wins, win rate with its 95% Wilson interval, the zero-sum championship
score). With ``name``, the rating after each rated game is charted too, one line per game. Think time is the time from the previous logged event to a
seat's own move, over that name's latest :data:`THINK_SAMPLE` games (logs without times add
nothing).

For each game with deals (``GameModule.has_deals``) whose public games hold duplicated deals
(deals played at two tables or more), ``duplicate`` gives per bot (or player) the plain score
(mean result per table) and the duplicate score, each with its 95% interval, and how many deals
and tables they rest on (``services/deals.py``, ``replay.duplicate.leaderboard``)."""

from __future__ import annotations

import statistics
import threading
from collections import OrderedDict
from typing import Any

from flask import current_app

from replay.games import get as get_game
from replay.log import read_logs

from archive import ratings
from archive.summaries import think_times

from ..app import PageError
from ..games import game_titles
from .deals import duplicate_stats
from .upload import uploads
THINK_SAMPLE = 300
MAX_NAMES = 200
CHART_NAMES = 20


class ThinkCache:
    """Think times per seat of a game (by row id), worked out once from its raw log."""

    def __init__(self, size: int = 20_000):
        self.size = size
        self.items: OrderedDict[int, dict[str, list[int]]] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, row_id: int) -> dict[str, list[int]]:
        with self.lock:
            found = self.items.get(row_id)
        if found is not None:
            return found
        found = {}
        raw = uploads().raw_by_row(row_id)
        if raw is not None:
            entries = read_logs(raw, "game")
            if len(entries) == 1 and entries[0].ok:
                found = think_times(entries[0].log)
        with self.lock:
            self.items[row_id] = found
            while len(self.items) > self.size:
                self.items.popitem(last=False)
        return found


def _cache() -> ThinkCache:
    found = current_app.extensions.get("think_cache")
    if found is None:
        found = current_app.extensions.setdefault("think_cache", ThinkCache())
    return found


def name_think_times(by: str, name: str, game: str | None = None) -> list[int]:
    cache = _cache()
    times: list[int] = []
    for row_id, seat, kept in uploads().seat_think_times(by, name, THINK_SAMPLE, game=game):
        # kept at ingest; a row stored before that (revision 0006) is worked out from its log
        times.extend(kept if kept is not None else cache.get(row_id).get(seat, []))
    return times


def counted_role(game: str | None) -> str | None:
    """The role a chosen game's counters keep (``GameModule.counted_role``), or None."""
    return get_game(game).counted_role if game else None


def shows_analysis(game: str | None, rows: list[dict[str, Any]]) -> bool:
    """Whether the page has analysis columns: a chosen game with analysis, or (every game) some
    name with analysed games."""
    if game:
        return get_game(game).has_analysis
    return any(r.get("analysed_games") for r in rows)


def stats_rows(by: str, name: str | None, game: str | None = None) -> list[dict[str, Any]]:
    role = counted_role(game)
    out = []
    for i, found in enumerate(uploads().listed_stats(by, name=name, limit=MAX_NAMES, game=game)):
        row = found
        games = row["games"]
        entry = {
            "name": row["name"], "games": games, "wins": row["wins"], "findings": row["findings"],
            "findings_per_100_games": round(100 * row["findings"] / games, 2) if games else 0.0,
            "think_ms_median": None, "think_ms_mean": row["think_ms"], "moves_timed": 0,
        }
        if row.get("figures") is not None:
            entry["figures"] = row["figures"]
        if role is not None:
            entry["role_games"], entry["role_won"] = row.get("role_games") or 0, row.get("role_won") or 0
            entry["role_win_rate"] = round(entry["role_won"] / entry["role_games"], 4) if entry["role_games"] else None
        if i < CHART_NAMES or name:
            times = name_think_times(by, row["name"], game)
            if times:
                entry["think_ms_median"] = int(statistics.median(times))
                entry["think_ms_mean"] = int(statistics.fmean(times))
                entry["moves_timed"] = len(times)
            if name:
                entry["think_ms"] = times
        out.append(entry)
    if game is None or get_game(game).has_analysis:
        add_analysis(out, by, game)
    return out


#: what the analysis adds to a stats row (``/stats.json`` keys)
ANALYSIS_FIELDS = ("analysed_games", "mistakes", "lost", "lost_per_game")


def add_analysis(rows: list[dict[str, Any]], by: str, game: str | None) -> None:
    """Each row's mistakes from the archive's analyses (``archive/analyses.py``: floating
    bridge's double-dummy analysis): analysed public games, mistakes, tricks lost, and tricks
    lost per analysed game (over all of that name's seats). Read from the kept per-seat
    figures, never from the stored analyses."""
    if not rows:
        return
    found = uploads().archive.analysis_stats(by, listed_only=True, names=[r["name"] for r in rows], game=game)
    for row in rows:
        figures = found.get(row["name"]) or {}
        for key in ANALYSIS_FIELDS:
            row[key] = figures.get(key, 0 if key != "lost_per_game" else None)


#: what a leaderboard row adds to a stats row (``/stats.json`` keys)
RATING_FIELDS = ("rank", "rating", "mu", "sigma", "rated_games", "wins", "win_rate", "win_rate_95", "score")


def add_ratings(rows: list[dict[str, Any]], by: str, game: str) -> list[dict[str, Any]]:
    """The game's leaderboard fields on each row (None for a name with no decided game), rows in
    rank order (unrated ones last, as they were). ``decided_games`` are the games the rating,
    wins and score are over: the public games somebody won."""
    archive = uploads().archive
    archive.refresh_ratings()
    board = {r["name"]: r for r in ratings.leaderboard(archive.engine, game, by, [r["name"] for r in rows])}
    for row in rows:
        found = board.get(row["name"])
        for key in RATING_FIELDS:
            row[key] = None if found is None else found[key]
        row["decided_games"] = 0 if found is None else found["games"]
    return sorted(rows, key=lambda r: (r["rank"] is None, r["rank"] or 0))


def rating_history(by: str, name: str, game: str | None) -> dict[str, list[dict[str, Any]]]:
    """Per game, the rating of ``name`` after each of its rated games (``n`` counts them)."""
    archive = uploads().archive
    archive.refresh_ratings()
    out = {}
    for g, points in ratings.history(archive.engine, by, name, game).items():
        out[g] = [{"n": n, "rating": round(p["rating"], 4), "mu": round(p["mu"], 4), "sigma": round(p["sigma"], 4)}
                  for n, p in enumerate(points, start=1)]
    return out


def history_chart(history: dict[str, list[dict[str, Any]]], titles: dict[str, str]) -> dict[str, Any]:
    return {
        "id": "rating_history",
        "data": [{"type": "scatter", "mode": "lines", "name": titles.get(g, g),
                  "x": [p["n"] for p in points], "y": [p["rating"] for p in points],
                  "customdata": [[p["mu"], p["sigma"]] for p in points],
                  "hovertemplate": "game %{x}: rating %{y:.2f} (mu %{customdata[0]:.2f}, sigma "
                                   "%{customdata[1]:.2f})<extra>" + titles.get(g, g) + "</extra>"}
                 for g, points in history.items()],
        "layout": {"title": {"text": "Rating after each rated game (mu - 3 sigma)", "font": {"size": 14}},
                   "height": 300, "margin": {"l": 50, "r": 10, "t": 40, "b": 40},
                   "paper_bgcolor": "rgba(0,0,0,0)", "plot_bgcolor": "rgba(0,0,0,0)",
                   "xaxis": {"title": {"text": "rated games"}}, "showlegend": len(history) > 1},
    }


def _bar(rows: list[dict[str, Any]], key: str, title: str, scale: float = 1.0, suffix: str = "") -> dict[str, Any]:
    shown = [r for r in rows[:CHART_NAMES] if r.get(key) is not None]
    return {
        "id": key,
        "data": [{"type": "bar", "x": [str(r["name"]) for r in shown], "y": [r[key] * scale for r in shown],
                  "hovertemplate": "%{x}: %{y}" + suffix + "<extra></extra>"}],
        "layout": {"title": {"text": title, "font": {"size": 14}}, "height": 300,
                   "margin": {"l": 50, "r": 10, "t": 40, "b": 90},
                   "paper_bgcolor": "rgba(0,0,0,0)", "plot_bgcolor": "rgba(0,0,0,0)",
                   "xaxis": {"type": "category", "automargin": True}},
    }


def think_bins(seconds: list[float], bins: int = 30) -> tuple[list[float], list[int]]:
    """Bin centres and counts of think times (a histogram, worked out on the server).

    >>> think_bins([0.5, 1.5, 1.6, 3.0], bins=3)
    ([0.92, 1.75, 2.58], [1, 2, 1])
    """
    low, high = min(seconds), max(seconds)
    width = (high - low) / bins or 1.0
    counts = [0] * bins
    for value in seconds:
        counts[min(bins - 1, int((value - low) / width))] += 1
    return [round(low + width * (n + 0.5), 2) for n in range(bins)], counts


def stats_charts(rows: list[dict[str, Any]], name: str | None,
                 history: dict[str, list[dict[str, Any]]] | None = None, role: str | None = None,
                 analysis: bool = False) -> list[dict[str, Any]]:
    charts = []
    if history:
        charts.append(history_chart(history, game_titles()))
    if rows and rows[0].get("rating") is not None:
        charts.append(_bar(rows, "rating", "Rating (mu - 3 sigma)"))
    charts += [
        _bar(rows, "games", "Games"),
    ]
    if role is not None:
        charts.append(_bar(rows, "role_win_rate", f"Won as {role} (%)", 100, "%"))
    charts += [
        _bar(rows, "findings_per_100_games", "Findings per 100 games"),
        _bar(rows, "think_ms_median", "Median think time (s)", 0.001, " s"),
    ]
    if analysis and any(r.get("lost_per_game") is not None for r in rows):
        charts.append(_bar(rows, "lost_per_game", "Lost per analysed game (by the game's analysis)"))
    if name and rows and rows[0].get("think_ms"):
        centres, counts = think_bins([t / 1000 for t in rows[0]["think_ms"]])
        charts.append({
            "id": "think_hist",
            # binned here, drawn as bars: the page needs only plotly.js's basic bundle
            "data": [{"type": "bar", "x": centres, "y": counts, "hovertemplate": "about %{x} s: %{y} moves<extra></extra>"}],
            "layout": {"title": {"text": "Think time per move (s)", "font": {"size": 14}}, "height": 300,
                       "margin": {"l": 50, "r": 10, "t": 40, "b": 40},
                       "paper_bgcolor": "rgba(0,0,0,0)", "plot_bgcolor": "rgba(0,0,0,0)"},
        })
    return charts


def parse_game(args) -> str | None:
    """The ``game`` parameter: a registered game's name, or None for every game."""
    game = (args.get("game") or "").strip() or None
    titles = game_titles()
    if game is not None and game not in titles:
        raise PageError(f"game must be one of {', '.join(titles)}, not {game[:40]!r}", 400, "Bad parameter")
    return game


def parse_stats_query(args) -> tuple[str, str | None]:
    by = args.get("by") or "bot"
    if by not in ("bot", "player"):
        raise PageError(f"by must be 'bot' or 'player', not {by[:20]!r}", 400, "Bad parameter")
    name = (args.get("name") or "").strip() or None
    if name is not None and len(name) > 100:
        raise PageError("name is too long (at most 100 characters)", 400, "Bad parameter")
    if name is not None and any(ord(ch) < 32 or 0xD800 <= ord(ch) < 0xE000 for ch in name):
        raise PageError("name may not contain control characters", 400, "Bad parameter")
    return by, name


def stats_json(args) -> dict[str, Any]:
    by, name = parse_stats_query(args)
    game = parse_game(args)
    rows = stats_rows(by, name, game)
    if not rows and not name and not args.get("by"):
        # the default is per bot; games played by people only are shown per player
        by, rows = "player", stats_rows("player", None, game)
    if name and not rows:
        raise PageError(f"no public games with the {by} {name!r}", 404, "Not found")
    if game is not None:
        rows = add_ratings(rows, by, game)
    out: dict[str, Any] = {"by": by, "name": name, "rows": rows}
    if game is not None:
        out["game"] = game
        if counted_role(game):
            out["counted_role"] = counted_role(game)
        figures = get_game(game).seat_figures
        if figures:
            out["seat_figures"] = [{"name": f.name, "label": f.label, "unit": f.unit, "spread": f.spread is not None,
                                    "help": f.help} for f in figures]
    out["analysis"] = shows_analysis(game, rows)
    if not out["analysis"]:
        for row in rows:
            for key in ANALYSIS_FIELDS:
                row.pop(key, None)
    if name:
        out["rating_history"] = rating_history(by, rows[0]["name"], game)
    duplicated = duplicate_stats(by, game)
    if name:  # that name's rows only
        for board in duplicated:
            board["standings"] = [s for s in board["standings"] if s["bot"].casefold() == name.casefold()]
        duplicated = [board for board in duplicated if board["standings"]]
    if duplicated:
        out["duplicate"] = duplicated
    return out
