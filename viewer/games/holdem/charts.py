"""Hold'em's chart as a plotly figure: each live seat's chance to win, step by step (the
chances change with each street's cards and with each fold).

The shell builds a game's charts once for every view, but a seat's chance to win depends on
the cards the view can see. So the figure sent here holds no numbers: one empty line per seat and
``fill: "equity"``. The board's script fills the lines
from the steps the page embeds (each step's ``eq``, worked out on the server from that view's
own steps by ``equity.step_equities``) before the charts are drawn: a seat's view charts only
what that seat could know, and the open view the true chances.

>>> from types import SimpleNamespace as N
>>> class Game:
...     def seat_order(self, log): return ["p1", "p2"]
>>> steps = [{"i": 0, "kind": "setup", "street": "preflop"}, {"i": 1, "kind": "hole", "street": "preflop"},
...          {"i": 2, "kind": "board", "street": "flop", "board": ["7c", "8d", "2s"]}]
>>> replay = N(game=Game(), log=N(players={"p1": N(name="<b>Ann</b>")}), steps_json=lambda seat=None: steps)
>>> chart = equity_chart(replay)
>>> [t["name"] for t in chart["figure"]["data"]], chart["fill"], chart["mark"]
(['&lt;b&gt;Ann&lt;/b&gt;', 'p2'], 'equity', 'step')
>>> chart["figure"]["layout"]["xaxis"]["range"]
[-0.5, 2.5]
"""

from __future__ import annotations

from html import escape
from typing import Any

from .. import log_names, seat_label as label
from .view import seats_of

SEAT_COLOURS = ("#2563eb", "#d9822b", "#2f9e6e", "#9a4fd0", "#c0152f", "#0e7490", "#a16207", "#db2777",
                "#4d7c0f", "#475569")
FONT = {"family": "system-ui, -apple-system, Segoe UI, Roboto, sans-serif", "size": 12}


def seat_labels(replay: Any) -> list[str]:
    """Each seat's name as a plotly label (escaped: plotly reads its labels as markup); a name
    two players share keeps its seat beside it."""
    names = log_names(replay)
    seats = seats_of(replay)
    shown = [label(names, s) for s in seats]
    return [escape(n if shown.count(n) == 1 else f"{n} ({s})", quote=True) for n, s in zip(shown, seats)]


def equity_chart(replay: Any) -> dict[str, Any]:
    """The chance-to-win chart, its lines left for the board's script to fill (see above)."""
    steps = replay.steps_json()  # only their number is read: the same in every view
    data = []
    for n, (seat, name) in enumerate(zip(seats_of(replay), seat_labels(replay))):
        data.append({
            "type": "scatter", "mode": "lines+markers", "name": name, "seat": seat, "x": [], "y": [],
            "customdata": [], "line": {"color": SEAT_COLOURS[n % len(SEAT_COLOURS)], "width": 3, "shape": "hv"},
            "hovertemplate": "step %{x}: %{fullData.name} wins %{y:.1f}% of the time<extra></extra>",
        })
    layout = {
        "title": {"text": "Chance to win", "font": {"size": 14}, "x": 0.02},
        "margin": {"l": 44, "r": 12, "t": 36, "b": 8}, "height": 300, "font": FONT,
        "paper_bgcolor": "rgba(0,0,0,0)", "plot_bgcolor": "rgba(0,0,0,0)", "showlegend": True,
        "legend": {"orientation": "h", "yref": "container", "y": 0, "yanchor": "bottom", "x": 0, "xanchor": "left"},
        "hovermode": "closest", "dragmode": False,
        # plain step numbers: street names along the axis would tell how far the hand goes
        "xaxis": {"title": {"text": "step"}, "fixedrange": True, "automargin": True, "rangemode": "tozero",
                  "range": [-0.5, max(len(steps) - 0.5, 1)]},
        "yaxis": {"title": {"text": "% to win"}, "fixedrange": True, "automargin": True, "range": [0, 100]},
    }
    return {"id": "equity", "title": "Chance to win", "mark": "step", "fill": "equity",
            "figure": {"data": data, "layout": layout}}


def build_charts(replay: Any) -> list[dict[str, Any]]:
    return [equity_chart(replay)]
