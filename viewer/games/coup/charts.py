"""Coup's charts as plotly figures: coins and influence over the turns, and per seat the claims
made, the bluffs caught, and the challenges won and lost.

The charts are the same in every view (the shell builds them once per game), so they show only
what every seat saw: coins, influence, claims and how challenges settled. A bluff nobody
challenged is never counted here (the board's own table counts the bluffs its view may know).
Each point over the turns carries the step that ended its turn in ``customdata`` (a click jumps
there); ``mark: "turn"`` has ``board.js`` mark the turns finished at the current step.
"""

from __future__ import annotations

from html import escape
from typing import Any

from .. import log_names, seat_label as label
from .view import count_changes, seats_of, tally, turn_ends

SEAT_COLOURS = ("#2563eb", "#d9822b", "#2f9e6e", "#9a4fd0", "#c0152f", "#0e7490")
FONT = {"family": "system-ui, -apple-system, Segoe UI, Roboto, sans-serif", "size": 12}
#: the public fields of a step (what every seat saw); ``bluff`` and the cards are left out
PUBLIC = ("i", "kind", "seat", "turn", "action", "target", "claim", "coins",
          "influence", "out", "to_act", "winner")


def seat_labels(replay: Any) -> list[str]:
    """Each seat's name as a plotly label (escaped: plotly reads its labels as markup); a name
    two players share keeps its seat beside it, so no two seats merge."""
    names = log_names(replay)
    seats = seats_of(replay)
    shown = [label(names, s) for s in seats]
    return [escape(n if shown.count(n) == 1 else f"{n} ({s})", quote=True) for n, s in zip(shown, seats)]


def _layout(title: str, **extra: Any) -> dict[str, Any]:
    layout = {
        "title": {"text": title, "font": {"size": 14}, "x": 0.02},
        "margin": {"l": 44, "r": 12, "t": 36, "b": 8}, "height": 300, "font": FONT,
        "paper_bgcolor": "rgba(0,0,0,0)", "plot_bgcolor": "rgba(0,0,0,0)", "showlegend": True,
        # the legend sits at the foot of the chart's box (yref "container"), and the plot makes
        # room for it and for the axis titles (automargin): at any width, however many lines the
        # legend wraps to, it never overlaps the x axis's title
        "legend": {"orientation": "h", "yref": "container", "y": 0, "yanchor": "bottom", "x": 0, "xanchor": "left"},
        "hovermode": "closest",
        "dragmode": False,
    }
    layout.update(extra)
    for axis in ("xaxis", "yaxis"):
        if axis in layout:
            layout[axis] = {**layout[axis], "automargin": True}
    return layout


def public_steps(replay: Any) -> list[dict[str, Any]]:
    """The steps with only what every seat saw (the card of a reveal or a loss is public; the
    card of a replacement or an exchange is not, and is dropped)."""
    out = []
    for s in replay.steps_json():
        item = {k: s[k] for k in PUBLIC}
        item["text"] = item["turn_text"] = ""  # an open text may name a drawn card or a bluff
        item["card"] = s["card"] if s["kind"] in ("reveal", "lose", "block") else None
        out.append(item)
    return out


def _over_turns(replay: Any, steps: list[dict[str, Any]], key: str, chart_id: str, title: str,
                unit: str) -> dict[str, Any]:
    seats = seats_of(replay)
    points = [steps[0]] + [steps[i] for i in turn_ends(steps)]
    xs = list(range(len(points)))
    data = []
    for n, (seat, name) in enumerate(zip(seats, seat_labels(replay))):
        data.append({
            "type": "scatter", "mode": "lines+markers", "name": name, "x": xs,
            "y": [p[key][seat] for p in points], "customdata": [p["i"] for p in points],
            "line": {"color": SEAT_COLOURS[n % len(SEAT_COLOURS)], "width": 3, "shape": "hv"},
            "hovertemplate": f"after turn %{{x}}: %{{fullData.name}} has %{{y}} {unit}<extra></extra>",
        })
    layout = _layout(title, xaxis={"title": {"text": "turn"}, "fixedrange": True, "rangemode": "tozero"},
                     yaxis={"title": {"text": unit}, "fixedrange": True, "rangemode": "tozero"})
    return {"id": chart_id, "title": title, "mark": "turn", "figure": {"data": data, "layout": layout}}


def coins_chart(replay: Any, steps: list[dict[str, Any]]) -> dict[str, Any]:
    return _over_turns(replay, steps, "coins", "coins", "Coins", "coins")


def influence_chart(replay: Any, steps: list[dict[str, Any]]) -> dict[str, Any]:
    chart = _over_turns(replay, steps, "influence", "influence", "Influence (face-down cards)", "influence")
    chart["figure"]["layout"]["yaxis"]["dtick"] = 1
    return chart


def claims_chart(replay: Any, steps: list[dict[str, Any]]) -> dict[str, Any]:
    """Per seat: claims made, bluffs caught, challenges won and lost. Each bar also lists the
    steps its count goes up at (``stepcounts``): ``charts.js`` counts only those up to the
    step shown, so the bars grow as the game is stepped and never show later turns."""
    seats = seats_of(replay)
    changes = count_changes(steps, seats)
    counts = tally(changes, seats)
    names = seat_labels(replay)
    bars = (("claims", "claims made"), ("caught", "bluffs caught"), ("won", "challenges won"),
            ("lost", "challenges lost"))
    colours = ("#2563eb", "#c0152f", "#2f9e6e", "#d9822b")
    data = []
    for (key, words), colour in zip(bars, colours):
        data.append({"type": "bar", "name": words, "x": names, "y": [counts[s][key] for s in seats],
                     "stepcounts": [[i for i, who, k in changes if who == s and k == key] for s in seats],
                     "marker": {"color": colour}, "hovertemplate": f"%{{x}}: %{{y}} {words}<extra></extra>"})
    layout = _layout("Claims and challenges", barmode="group",
                     xaxis={"title": {"text": "player"}, "fixedrange": True, "type": "category"},
                     yaxis={"title": {"text": "count"}, "fixedrange": True, "rangemode": "tozero"})
    return {"id": "claims", "title": "Claims and challenges", "mark": None, "clickable": False,
            "figure": {"data": data, "layout": layout}}


def build_charts(replay: Any) -> list[dict[str, Any]]:
    steps = public_steps(replay)
    return [coins_chart(replay, steps), influence_chart(replay, steps), claims_chart(replay, steps)]
