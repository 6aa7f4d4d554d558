"""UNO Lite's charts as plotly figures: hand sizes over the turns, and cards played by colour.

Each point of the hand sizes carries the step that ended its turn in ``customdata`` (a click
jumps there); ``mark: "turn"`` has ``board.js`` mark the turns finished at the current step.
Reads only the replay's ``steps_json()``.
"""

from __future__ import annotations

from typing import Any

from .view import COLOURS, TURN_ENDS, seats_of

SEAT_COLOURS = ("#2563eb", "#d9822b", "#2f9e6e", "#9a4fd0")
CARD_COLOURS = {"R": "#dc2626", "G": "#16a34a", "B": "#2563eb", "Y": "#ca8a04"}
FONT = {"family": "system-ui, -apple-system, Segoe UI, Roboto, sans-serif", "size": 12}


def _layout(title: str, **extra: Any) -> dict[str, Any]:
    layout = {
        "title": {"text": title, "font": {"size": 14}, "x": 0.02},
        "margin": {"l": 44, "r": 12, "t": 36, "b": 44}, "height": 300, "font": FONT,
        "paper_bgcolor": "rgba(0,0,0,0)", "plot_bgcolor": "rgba(0,0,0,0)", "showlegend": True,
        "legend": {"orientation": "h", "y": -0.25, "yanchor": "top"}, "hovermode": "closest",
        "dragmode": False,
    }
    layout.update(extra)
    return layout


def hand_sizes_chart(replay: Any, steps: list[dict[str, Any]]) -> dict[str, Any]:
    """Each seat's cards after the deal and after every turn."""
    seats = seats_of(replay)
    points = [steps[0]] + [s for s in steps if s["kind"] in TURN_ENDS]
    xs = list(range(len(points)))
    data = []
    for n, seat in enumerate(seats):
        data.append({
            "type": "scatter", "mode": "lines+markers", "name": seat, "x": xs,
            "y": [p["hand_sizes"][seat] for p in points], "customdata": [p["i"] for p in points],
            "line": {"color": SEAT_COLOURS[n % len(SEAT_COLOURS)], "width": 3, "shape": "hv"},
            "hovertemplate": f"after turn %{{x}}: {seat} holds %{{y}}<extra></extra>",
        })
    layout = _layout("Hand sizes", xaxis={"title": {"text": "turn"}, "fixedrange": True, "rangemode": "tozero"},
                     yaxis={"title": {"text": "cards"}, "fixedrange": True, "rangemode": "tozero"})
    return {"id": "hands", "title": "Hand sizes", "mark": "turn", "figure": {"data": data, "layout": layout}}


def colours_chart(replay: Any, steps: list[dict[str, Any]]) -> dict[str, Any] | None:
    """How many cards of each colour each seat played."""
    plays = [s for s in steps if s["kind"] == "play" and s["card"]]
    if not plays:
        return None
    seats = seats_of(replay)
    words = [COLOURS[c] for c in COLOURS]
    data = []
    for n, seat in enumerate(seats):
        counts = [sum(1 for s in plays if s["seat"] == seat and s["card"][0] == c) for c in COLOURS]
        data.append({"type": "bar", "name": seat, "x": words, "y": counts,
                     "marker": {"color": SEAT_COLOURS[n % len(SEAT_COLOURS)]},
                     "hovertemplate": f"{seat}: %{{y}} %{{x}}<extra></extra>"})
    layout = _layout("Cards played by colour", barmode="group",
                     xaxis={"fixedrange": True}, yaxis={"title": {"text": "cards"}, "fixedrange": True, "dtick": 1})
    return {"id": "colours", "title": "Cards played by colour", "mark": None, "clickable": False,
            "figure": {"data": data, "layout": layout}}


def build_charts(replay: Any) -> list[dict[str, Any]]:
    steps = replay.steps_json()
    charts = [hand_sizes_chart(replay, steps), colours_chart(replay, steps)]
    return [c for c in charts if c is not None]
