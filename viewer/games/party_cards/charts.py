"""Party Cards' charts as plotly figures: the score race over the rounds, and each seat's wins
as the answers the czars picked.

Each point of the score race carries the step its round's link opens at (the pick) in
``customdata`` (a click jumps there); ``mark: "round"`` has ``board.js`` mark the rounds
finished at the current step. Reads only the replay's ``steps_json()``.

Plotly draws trace names and hover texts as its own small markup language (``<b>``, ``<a
href>``, ``<br>``), so every name and card text is HTML-escaped before it goes into a figure
(plotly turns the entities back into the characters, as text), and no log text is ever put
into a ``hovertemplate`` (whose ``%{...}`` would be read as a placeholder):

>>> plotly_text('<a href="javascript:alert(1)">x</a> %{y}')
'&lt;a href=&quot;javascript:alert(1)&quot;&gt;x&lt;/a&gt; %{y}'
"""

from __future__ import annotations

from html import escape
from typing import Any

from .view import round_marks, seats_of

SEAT_COLOURS = ("#2563eb", "#d9822b", "#2f9e6e", "#9a4fd0", "#dc2626", "#0891b2", "#ca8a04", "#db2777",
                "#4b5563", "#65a30d")
FONT = {"family": "system-ui, -apple-system, Segoe UI, Roboto, sans-serif", "size": 12}
MAX_HOVER_TEXT = 120


def plotly_text(text: str, most: int = MAX_HOVER_TEXT) -> str:
    """A log text safe for a plotly label: cut to ``most`` characters, then HTML-escaped."""
    text = " ".join(str(text).split())
    if len(text) > most:
        text = text[: most - 1] + "\u2026"
    return escape(text, quote=True)


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


def _name(replay: Any, seat: str) -> str:
    return replay.name(seat)


def score_race_chart(replay: Any, steps: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Each seat's score before round 1 and after every round."""
    marks = round_marks(steps)
    if not marks:
        return None
    seats = seats_of(replay)
    points = [(0, steps[marks[0]["start"]], marks[0]["start"])] + [(m["round"], steps[m["last"]], m["open"]) for m in marks]
    xs = [n for n, _, _ in points]
    data = []
    for k, seat in enumerate(seats):
        name = plotly_text(_name(replay, seat), 40)
        data.append({
            "type": "scatter", "mode": "lines+markers", "name": name, "x": xs,
            "y": [s["scores"][seat] for _, s, _ in points], "customdata": [i for _, _, i in points],
            "text": [f"{name}: {s['scores'][seat]} after round {n}" if n else f"{name}: 0 before round 1"
                     for n, s, _ in points],
            "hoverinfo": "text",
            "line": {"color": SEAT_COLOURS[k % len(SEAT_COLOURS)], "width": 3, "shape": "hv"},
        })
    layout = _layout("Score race", xaxis={"title": {"text": "round"}, "fixedrange": True, "dtick": 1, "rangemode": "tozero"},
                     yaxis={"title": {"text": "points"}, "fixedrange": True, "rangemode": "tozero", "dtick": 1})
    return {"id": "scores", "title": "Score race", "mark": "round", "figure": {"data": data, "layout": layout}}


def wins_chart(replay: Any, steps: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Rounds won per seat; each bar's hover lists the answers the czars picked. Each bar also
    lists the pick steps of its wins (``stepcounts``) and, beside each, its answer
    (``steptext``): ``charts.js`` counts and lists only the picks up to the step shown, so the
    chart never tells who wins later rounds."""
    marks = [m for m in round_marks(steps) if m["pick"] is not None]
    if not marks:
        return None
    seats = seats_of(replay)
    won: dict[str, list[tuple[int, int, str]]] = {seat: [] for seat in seats}
    for m in marks:
        s = steps[m["pick"]]
        winning = next((sub for sub in s["submissions"] if sub["won"]), None)
        if s["round_winner"] in won and winning is not None:
            filled = "".join(g["text"] for g in winning["segments"])
            won[s["round_winner"]].append((m["pick"], m["round"], filled))
    names = [plotly_text(_name(replay, seat), 40) for seat in seats]
    lines = [[f"round {n}: {plotly_text(text)}" for _, n, text in won[seat]] for seat in seats]
    data = [{"type": "bar", "name": "rounds won", "x": names, "y": [len(won[seat]) for seat in seats],
             "stepcounts": [[step for step, _, _ in won[seat]] for seat in seats], "steptext": lines,
             "text": ["<br>".join(rows) for rows in lines], "textposition": "none",
             "hovertemplate": "%{x}: %{y} won<br>%{text}<extra></extra>",
             "marker": {"color": [SEAT_COLOURS[k % len(SEAT_COLOURS)] for k in range(len(seats))]}}]
    layout = _layout("Wins: answers the czars picked", showlegend=False,
                     xaxis={"fixedrange": True}, yaxis={"title": {"text": "rounds won"}, "fixedrange": True, "dtick": 1})
    return {"id": "wins", "title": "Wins: answers the czars picked", "mark": None, "clickable": False,
            "figure": {"data": data, "layout": layout}}


def build_charts(replay: Any) -> list[dict[str, Any]]:
    steps = replay.steps_json()
    charts = [score_race_chart(replay, steps), wins_chart(replay, steps)]
    return [c for c in charts if c is not None]
