"""UNO Lite's charts, drawn as SVG by the server (``viewer.svgcharts``): hand sizes over the
turns, and cards played by colour (one block per card, shown from the step it was played, so
the counts grow as the game is stepped). ``mark: "turn"`` has ``board.js`` mark the turns
finished at the current step. Reads only the replay's ``steps_json()``; each chart keeps the
numbers it drew in ``series``.
"""

from __future__ import annotations

from typing import Any

from ...svgcharts import Plot, ticks
from .. import log_names, seat_label as label
from .view import COLOURS, TURN_ENDS, seats_of

SEAT_COLOURS = ("#2563eb", "#d9822b", "#2f9e6e", "#9a4fd0")
CARD_COLOURS = {"R": "#dc2626", "G": "#16a34a", "B": "#2563eb", "Y": "#ca8a04"}


def hand_sizes_chart(replay: Any, steps: list[dict[str, Any]]) -> dict[str, Any]:
    """Each seat's cards after the deal and after every turn (the legend names the players)."""
    seats = seats_of(replay)
    names = log_names(replay)
    points = [steps[0]] + [s for s in steps if s["kind"] in TURN_ENDS]
    xs = list(range(len(points)))
    sizes = {seat: [p["hand_sizes"][seat] for p in points] for seat in seats}
    top = max(max(v) for v in sizes.values()) + 1
    plot = Plot(x=(-0.3, max(len(points) - 1, 1) + 0.3), y=(0, top), xlabel="turn", ylabel="cards")
    plot.axes(ticks(0, len(points) - 1, max(1, round(len(points) / 10))), ticks(0, top, 2 if top > 10 else 1))
    for n, seat in enumerate(seats):
        colour = SEAT_COLOURS[n % len(SEAT_COLOURS)]
        plot.steps_line([(x, y, p["i"]) for x, y, p in zip(xs, sizes[seat], points)], colour,
                        dash="" if n % 2 == 0 else "2 4", marker="circle" if n % 2 == 0 else "square",
                        titles=[f"after turn {x}: {label(names, seat)} holds {y}" for x, y in zip(xs, sizes[seat])])
        plot.key(label(names, seat), colour, "" if n % 2 == 0 else "2 4")
    return {"id": "hands", "title": "Hand sizes", "mark": "turn",
            "series": {"turns": xs, "sizes": sizes, "steps": [p["i"] for p in points]},
            "svg": plot.render("Hand sizes")}


def colours_chart(replay: Any, steps: list[dict[str, Any]]) -> dict[str, Any] | None:
    """How many cards of each colour each seat played: one block per card."""
    plays = [s for s in steps if s["kind"] == "play" and s["card"]]
    if not plays:
        return None
    seats = seats_of(replay)
    names = log_names(replay)
    letters = list(COLOURS)
    counts = {seat: [sum(1 for s in plays if s["seat"] == seat and s["card"][0] == c) for c in letters] for seat in seats}
    top = max(max(v) for v in counts.values()) + 1
    width = 0.8 / max(1, len(seats))
    plot = Plot(x=(-0.5, len(letters) - 0.5), y=(0, top), ylabel="cards")
    plot.axes([(n, COLOURS[c]) for n, c in enumerate(letters)], ticks(0, top, 1 if top <= 10 else 2))
    for k, seat in enumerate(seats):
        colour = SEAT_COLOURS[k % len(SEAT_COLOURS)]
        height = {c: 0 for c in letters}
        for s in plays:
            if s["seat"] != seat:
                continue
            c = s["card"][0]
            n = letters.index(c)
            x = n - 0.4 + width * (k + 0.5)
            plot.bar(x, height[c] + 0.06, height[c] + 1, colour, s["i"], f"{label(names, seat)} plays {COLOURS[c]} {s['card'][1:]}",
                     width=width * 0.9)
            height[c] += 1
        plot.key(label(names, seat), colour)
    return {"id": "colours", "title": "Cards played by colour", "mark": None,
            "series": {"colours": [COLOURS[c] for c in letters], "counts": counts},
            "svg": plot.render("Cards played by colour")}


def build_charts(replay: Any) -> list[dict[str, Any]]:
    steps = replay.steps_json()
    charts = [hand_sizes_chart(replay, steps), colours_chart(replay, steps)]
    return [c for c in charts if c is not None]
