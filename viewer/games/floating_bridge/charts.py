"""Per-trick charts as plotly figures (plain JSON: ``{"data": [...], "layout": {...}}``).

Figures are built here from a ``GameReplay`` and drawn in the page by plotly.js (served by
the app). Each point carries the step index it stands for in ``customdata``, so a click jumps
there; ``mark`` says how the page marks the current step (``"tricks"``: x is tricks finished,
``"trick"``: x is the trick under way, both placed by ``board.js``; ``"step"``: x is the step
index), ``band`` marks a column rather than a line, and ``clickable: False`` charts do not jump.

>>> from replay.bots import play_game
>>> charts = build_charts(play_game(seed=3).replay())
>>> [c["id"] for c in charts]
['race', 'tricks', 'hands', 'time']
"""

from __future__ import annotations

from typing import Any

from replay.cards import SEATS, SUIT_SYMBOLS, Card, hand_points
from replay.game import GameReplay

SEAT_COLOURS = {"N": "#3b6fd8", "E": "#d9822b", "S": "#2f9e6e", "W": "#9a4fd0"}
DECLARER_COLOUR = "#2563eb"
DEFENDER_COLOUR = "#dc2626"
FONT = {"family": "system-ui, -apple-system, Segoe UI, Roboto, sans-serif", "size": 12}


def _layout(title: str, **extra: Any) -> dict[str, Any]:
    layout = {
        "title": {"text": title, "font": {"size": 14}, "x": 0.02},
        "margin": {"l": 44, "r": 12, "t": 36, "b": 44},
        "height": 300,
        "font": FONT,
        "paper_bgcolor": "rgba(0,0,0,0)",
        "plot_bgcolor": "rgba(0,0,0,0)",
        "showlegend": True,
        "legend": {"orientation": "h", "y": -0.34, "yanchor": "top"},
        "hovermode": "closest",
        "dragmode": False,
    }
    layout.update(extra)
    return layout


def trick_ends(replay: GameReplay) -> list[int]:
    """The step index that finished each trick."""
    return [s.index for s in replay.steps if s.trick_winner is not None]


def race_chart(replay: GameReplay) -> dict[str, Any] | None:
    """Cumulative tricks of the declarer's side and the defenders, with both targets."""
    ends = trick_ends(replay)
    if replay.contract is None or not ends:
        return None
    needed, defenders_needed = replay.result.needed, replay.result.defenders_needed
    first_play = next(s.index for s in replay.steps if s.kind == "play")
    xs = list(range(len(ends) + 1))
    steps = [first_play - 1, *ends]
    declarer = [0] + [replay.steps[i].declarer_side_tricks for i in ends]
    defenders = [0] + [replay.steps[i].defender_tricks for i in ends]
    decided = next((n for n in xs[1:] if declarer[n] >= needed or defenders[n] >= defenders_needed), None)
    data: list[dict[str, Any]] = [
        {"type": "scatter", "mode": "lines+markers", "name": "Declarer's side", "x": xs, "y": declarer,
         "customdata": steps, "line": {"color": DECLARER_COLOUR, "width": 3, "shape": "hv"},
         "marker": {"symbol": "circle", "size": 7},
         "hovertemplate": "after trick %{x}: declarer's side %{y}<extra></extra>"},
        {"type": "scatter", "mode": "lines+markers", "name": "Defenders", "x": xs, "y": defenders,
         "customdata": steps, "line": {"color": DEFENDER_COLOUR, "width": 3, "dash": "dot", "shape": "hv"},
         "marker": {"symbol": "square", "size": 7},
         "hovertemplate": "after trick %{x}: defenders %{y}<extra></extra>"},
    ]
    shapes = [
        {"type": "line", "xref": "paper", "x0": 0, "x1": 1, "y0": needed, "y1": needed,
         "line": {"color": DECLARER_COLOUR, "width": 1, "dash": "dash"}},
        {"type": "line", "xref": "paper", "x0": 0, "x1": 1, "y0": defenders_needed, "y1": defenders_needed,
         "line": {"color": DEFENDER_COLOUR, "width": 1, "dash": "dash"}},
    ]
    annotations = [
        {"xref": "paper", "x": 0.01, "y": needed, "text": f"declarer needs {needed}", "showarrow": False,
         "yshift": 9, "xanchor": "left", "font": {"color": DECLARER_COLOUR, "size": 11}},
        {"xref": "paper", "x": 0.99, "y": defenders_needed, "text": f"defenders need {defenders_needed}",
         "showarrow": False, "yshift": -9 if defenders_needed == needed else 9, "xanchor": "right",
         "font": {"color": DEFENDER_COLOUR, "size": 11}},
    ]
    if decided is not None:
        side = "declarer's side" if declarer[decided] >= needed else "defenders"
        y = declarer[decided] if side == "declarer's side" else defenders[decided]
        data.append({"type": "scatter", "mode": "markers", "name": f"decided (trick {decided})",
                     "x": [decided], "y": [y], "customdata": [steps[decided]],
                     "marker": {"symbol": "star", "size": 16, "color": "#f59e0b",
                                "line": {"width": 1, "color": "#92400e"}},
                     "hovertemplate": f"trick {decided} decided the game for the {side}<extra></extra>"})
        annotations.append({"x": decided, "y": y, "text": f"decided: trick {decided}", "showarrow": True,
                            "arrowhead": 0, "ax": -50, "ay": -22, "font": {"size": 11}})
    top = max(needed, defenders_needed, max(declarer), max(defenders)) + 1
    layout = _layout("Tricks race", shapes=shapes, annotations=annotations,
                     xaxis={"title": {"text": "trick"}, "dtick": 1, "range": [-0.3, max(xs) + 0.3], "fixedrange": True},
                     yaxis={"title": {"text": "tricks won"}, "dtick": 2, "range": [0, top], "fixedrange": True})
    return {"id": "race", "title": "Tricks race", "mark": "tricks", "decided": decided,
            "figure": {"data": data, "layout": layout}}


def trick_map(replay: GameReplay) -> dict[str, Any] | None:
    """The card each seat played to each trick; the winner's cell is filled."""
    plays = [s for s in replay.steps if s.kind == "play"]
    if not plays:
        return None
    tricks: list[dict[int, Any]] = []
    current: dict[int, Any] = {}
    for s in plays:
        current[int(s.seat)] = s
        if s.trick_winner is not None:
            current["winner"] = int(s.trick_winner)
            tricks.append(current)
            current = {}
    if current:
        tricks.append(current)
    seats = list(reversed(SEATS))  # N at the top
    z, text, custom, hover = [], [], [], []
    for seat in seats:
        row_z, row_t, row_c, row_h = [], [], [], []
        for n, trick in enumerate(tricks, start=1):
            step = trick.get(int(seat))
            won = trick.get("winner") == int(seat)
            if step is None:
                row_z.append(None)
                row_t.append("")
                row_c.append(None)
                row_h.append("")
                continue
            card: Card = step.action
            row_z.append(1 if won else 0)
            row_t.append(card.symbol + (" ★" if won else ""))
            row_c.append(step.index)
            row_h.append(f"trick {n}: {seat.full_name} {card.symbol}" + (" (won)" if won else ""))
        z.append(row_z)
        text.append(row_t)
        custom.append(row_c)
        hover.append(row_h)
    xs = list(range(1, len(tricks) + 1))
    data = [{
        "type": "heatmap", "x": xs, "y": [s.name for s in seats], "z": z, "text": text,
        "customdata": custom, "hovertext": hover, "hoverinfo": "text",
        "texttemplate": "%{text}", "textfont": {"size": 11},
        "colorscale": [[0, "#e5e7eb"], [1, "#fbbf24"]], "zmin": 0, "zmax": 1, "showscale": False,
        "xgap": 2, "ygap": 2,
    }]
    layout = _layout("Trick map (★ won the trick)", showlegend=False,
                     xaxis={"title": {"text": "trick"}, "dtick": 1, "fixedrange": True},
                     yaxis={"fixedrange": True}, height=230)
    return {"id": "tricks", "title": "Trick map", "mark": "trick", "band": True,
            "figure": {"data": data, "layout": layout}}


def hand_strength(replay: GameReplay) -> dict[str, Any]:
    """Points (with the length bonus) and suit lengths of each seat's dealt hand."""
    hands = replay.log.hands.by_seat()
    labels = [s.name for s in SEATS]
    data: list[dict[str, Any]] = [{
        "type": "bar", "name": "points", "x": labels, "y": [hand_points(h) for h in hands],
        "marker": {"color": [SEAT_COLOURS[s] for s in labels]}, "xaxis": "x", "yaxis": "y",
        "hovertemplate": "%{x}: %{y} points<extra></extra>", "showlegend": False, "customdata": [0] * 4,
    }]
    suit_colours = ["#1f2937", "#b91c1c", "#ea580c", "#15803d"]  # spades, hearts, diamonds, clubs
    for order, suit in enumerate((3, 2, 1, 0)):
        lengths = [sum(1 for c in h if c // 13 == suit) for h in hands]
        data.append({
            "type": "bar", "name": f"{SUIT_SYMBOLS[suit]} {('clubs', 'diamonds', 'hearts', 'spades')[suit]}",
            "x": labels, "y": lengths, "xaxis": "x2", "yaxis": "y2", "customdata": [0] * 4,
            "text": [f"{SUIT_SYMBOLS[suit]}{n}" if n else "" for n in lengths], "textposition": "inside",
            "marker": {"color": suit_colours[order]},
            "hovertemplate": f"%{{x}}: %{{y}} {SUIT_SYMBOLS[suit]}<extra></extra>",
        })
    layout = _layout("Hand strength: points and suit lengths", barmode="stack",
                     xaxis={"domain": [0, 0.42], "fixedrange": True},
                     yaxis={"title": {"text": "points"}, "fixedrange": True},
                     xaxis2={"domain": [0.55, 1], "anchor": "y2", "fixedrange": True},
                     yaxis2={"anchor": "x2", "title": {"text": "cards"}, "range": [0, 13], "fixedrange": True})
    return {"id": "hands", "title": "Hand strength", "mark": None, "clickable": False,
            "figure": {"data": data, "layout": layout}}


def think_time(replay: GameReplay) -> dict[str, Any] | None:
    """Seconds each move took (time since the previous logged event), when the log has times."""
    moves = [s for s in replay.steps if s.index > 0 and s.t is not None]
    if len(moves) < 2:
        return None
    times: dict[int, int] = {}
    previous = 0
    for event in replay.log.events:  # every timed event, including trick announcements
        if event.t is not None:
            times.setdefault(id(event), previous)
            previous = event.t
    events = replay.log.events
    data = []
    for seat in SEATS:
        xs, ys, custom, hover = [], [], [], []
        for s in moves:
            if s.seat != seat:
                continue
            before = times.get(id(events[s.event])) if s.event is not None else None
            seconds = max(0, (s.t - (before or 0))) / 1000
            xs.append(s.index)
            ys.append(round(seconds, 2))
            custom.append(s.index)
            hover.append(f"step {s.index}: {s.text} ({seconds:.1f} s)")
        if xs:
            data.append({"type": "bar", "name": seat.full_name, "x": xs, "y": ys, "customdata": custom,
                         "hovertext": hover, "hoverinfo": "text", "marker": {"color": SEAT_COLOURS[seat.name]}})
    layout = _layout("Think time per move", bargap=0.15,
                     xaxis={"title": {"text": "step"}, "fixedrange": True},
                     yaxis={"title": {"text": "seconds"}, "fixedrange": True, "rangemode": "tozero"})
    return {"id": "time", "title": "Think time", "mark": "step", "figure": {"data": data, "layout": layout}}


def build_charts(replay: GameReplay) -> list[dict[str, Any]]:
    """Every chart that applies to this game, in page order."""
    charts = [race_chart(replay), trick_map(replay), hand_strength(replay), think_time(replay)]
    return [c for c in charts if c is not None]
