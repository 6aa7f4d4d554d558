"""Small charts drawn as SVG by the server: no chart library in the browser.

A board's ``charts(replay)`` may give a chart as ``svg`` (markup built here) instead of a plotly
``figure``. The page carries the SVG as it is; ``charts.js`` then only hides what comes after the
current step (every element drawn for a step carries ``data-step``: it shows from that step on)
and moves the current-step mark (``data-x0``/``data-x1``, the x range, and ``data-px0``/
``data-px1``, where it lies in the picture). Clicking an element with ``data-step`` jumps there.

Every text goes through :func:`html.escape`. Colours are CSS classes where the theme matters
(``.c-fg``, ``.c-grid``, ``.suit-S``...), plain fills where it does not.

>>> plot = Plot(x=(0, 4), y=(0, 10), xlabel="trick", ylabel="tricks")
>>> plot.bar(1, 0, 3, fill="#2563eb", step=7, title="3 <won>")
>>> svg = plot.render("A <chart>")
>>> 'data-step="7"' in svg and "3 &lt;won&gt;" in svg and "A &lt;chart&gt;" in svg
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from typing import Iterable

WIDTH, HEIGHT = 400, 230


def _num(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".") if value != int(value) else str(int(value))


@dataclass
class Plot:
    """One chart's drawing area: data coordinates ``x`` and ``y`` mapped into an SVG picture."""

    x: tuple[float, float]
    y: tuple[float, float]
    xlabel: str = ""
    ylabel: str = ""
    width: int = WIDTH
    height: int = HEIGHT
    left: int = 38
    right: int = 10
    top: int = 10
    bottom: int = 34
    parts: list[str] = field(default_factory=list)
    legend: list[tuple[str, str, str]] = field(default_factory=list)  # (label, colour, dash)

    def sx(self, x: float) -> float:
        x0, x1 = self.x
        return self.left + (x - x0) / ((x1 - x0) or 1) * (self.width - self.left - self.right)

    def sy(self, y: float) -> float:
        y0, y1 = self.y
        return self.height - self.bottom - (y - y0) / ((y1 - y0) or 1) * (self.height - self.top - self.bottom)

    @staticmethod
    def _step(step: int | None) -> str:
        return "" if step is None else f' data-step="{int(step)}"'

    @staticmethod
    def _title(title: str | None) -> str:
        return f"<title>{escape(title)}</title>" if title else ""

    def axes(self, xticks: Iterable[tuple[float, str]], yticks: Iterable[tuple[float, str]]) -> None:
        """Grid lines at the y ticks, labels under the x ticks, and the axis titles."""
        x_left, x_right = self.sx(self.x[0]), self.sx(self.x[1])
        for value, label in yticks:
            y = self.sy(value)
            self.parts.append(f'<line class="c-grid" x1="{_num(x_left)}" x2="{_num(x_right)}" y1="{_num(y)}" y2="{_num(y)}"/>'
                              f'<text class="c-tick" x="{_num(x_left - 4)}" y="{_num(y + 4)}" text-anchor="end">{escape(label)}</text>')
        base = self.sy(self.y[0])
        self.parts.append(f'<line class="c-axis" x1="{_num(x_left)}" x2="{_num(x_right)}" y1="{_num(base)}" y2="{_num(base)}"/>')
        for value, label in xticks:
            self.parts.append(f'<text class="c-tick" x="{_num(self.sx(value))}" y="{_num(base + 13)}" text-anchor="middle">{escape(label)}</text>')
        if self.xlabel:
            self.parts.append(f'<text class="c-label" x="{_num((x_left + x_right) / 2)}" y="{self.height - 4}" text-anchor="middle">{escape(self.xlabel)}</text>')
        if self.ylabel:
            mid = (self.sy(self.y[0]) + self.sy(self.y[1])) / 2
            self.parts.append(f'<text class="c-label" transform="translate(11 {_num(mid)}) rotate(-90)" text-anchor="middle">{escape(self.ylabel)}</text>')

    def line(self, x0: float, y0: float, x1: float, y1: float, colour: str, step: int | None = None,
             dash: str = "", width: float = 3, title: str | None = None) -> None:
        dashed = f' stroke-dasharray="{dash}"' if dash else ""
        self.parts.append(f'<line class="pt" x1="{_num(self.sx(x0))}" y1="{_num(self.sy(y0))}" x2="{_num(self.sx(x1))}" '
                          f'y2="{_num(self.sy(y1))}" stroke="{colour}" stroke-width="{width}"{dashed} stroke-linecap="round"'
                          f'{self._step(step)}>{self._title(title)}</line>')

    def steps_line(self, points: list[tuple[float, float, int | None]], colour: str, dash: str = "",
                   marker: str = "circle", titles: list[str] | None = None) -> None:
        """A line that moves across then up (plotly's ``hv``), one piece per point, each shown from
        its point's step, with a marker at every point."""
        for n, (x, y, step) in enumerate(points):
            title = titles[n] if titles else None
            if n:
                px, py, _ = points[n - 1]
                self.line(px, py, x, py, colour, step, dash, title=title)
                if y != py:
                    self.line(x, py, x, y, colour, step, dash, title=title)
            self.marker(x, y, colour, step, marker, title)

    def marker(self, x: float, y: float, colour: str, step: int | None, shape: str = "circle",
               title: str | None = None, size: float = 4.5) -> None:
        cx, cy = _num(self.sx(x)), _num(self.sy(y))
        if shape == "square":
            shape_svg = f'<rect x="{_num(self.sx(x) - size)}" y="{_num(self.sy(y) - size)}" width="{_num(2 * size)}" height="{_num(2 * size)}"'
        elif shape == "star":
            shape_svg = f'<text x="{cx}" y="{_num(self.sy(y) + size)}" text-anchor="middle" font-size="{_num(size * 4)}"'
            self.parts.append(f'{shape_svg} class="pt c-star"{self._step(step)}>★{self._title(title)}</text>')
            return
        else:
            shape_svg = f'<circle cx="{cx}" cy="{cy}" r="{_num(size)}"'
        self.parts.append(f'{shape_svg} class="pt" fill="{colour}"{self._step(step)}>{self._title(title)}</{"rect" if shape == "square" else "circle"}>')

    def bar(self, x0: float, y0: float, y1: float, fill: str = "", step: int | None = None, title: str | None = None,
            width: float = 0.7, cls: str = "", x1: float | None = None) -> None:
        """A bar (or one block of a stacked bar) from ``y0`` to ``y1`` over ``x0 ± width/2``
        (or ``x0``..``x1``)."""
        left, right = (x0 - width / 2, x0 + width / 2) if x1 is None else (x0, x1)
        px, py = self.sx(left), self.sy(max(y0, y1))
        w, h = self.sx(right) - px, abs(self.sy(y0) - self.sy(y1))
        fill_attr = f' fill="{fill}"' if fill else ""
        self.parts.append(f'<rect class="pt {cls}" x="{_num(px)}" y="{_num(py)}" width="{_num(w)}" height="{_num(h)}"'
                          f'{fill_attr}{self._step(step)}>{self._title(title)}</rect>')

    def text(self, x: float, y: float, text: str, step: int | None = None, cls: str = "c-fg", anchor: str = "middle",
             dy: float = 4, title: str | None = None) -> None:
        self.parts.append(f'<text class="pt {cls}" x="{_num(self.sx(x))}" y="{_num(self.sy(y) + dy)}" text-anchor="{anchor}"'
                          f'{self._step(step)}>{escape(text)}{self._title(title)}</text>')

    def label(self, x: float, y: float, text: str, anchor: str = "middle", dx: float = 0, dy: float = 4) -> None:
        """A fixed label (an axis's category), shown at every step."""
        self.parts.append(f'<text class="c-tick" x="{_num(self.sx(x) + dx)}" y="{_num(self.sy(y) + dy)}" '
                          f'text-anchor="{anchor}">{escape(text)}</text>')

    def hline(self, y: float, colour: str, label: str = "", anchor: str = "start", dy: float = -4) -> None:
        x_left, x_right = self.sx(self.x[0]), self.sx(self.x[1])
        self.parts.append(f'<line x1="{_num(x_left)}" x2="{_num(x_right)}" y1="{_num(self.sy(y))}" y2="{_num(self.sy(y))}" '
                          f'stroke="{colour}" stroke-width="1" stroke-dasharray="5 4"/>')
        if label:
            x = x_left + 4 if anchor == "start" else x_right - 4
            self.parts.append(f'<text x="{_num(x)}" y="{_num(self.sy(y) + dy)}" fill="{colour}" class="c-note" text-anchor="{anchor}">{escape(label)}</text>')

    def key(self, label: str, colour: str, dash: str = "") -> None:
        self.legend.append((label, colour, dash))

    def render(self, title: str) -> str:
        """The chart's markup: the SVG (with the current-step mark, hidden until placed) and its
        legend."""
        plot_left, plot_right = self.sx(self.x[0]), self.sx(self.x[1])
        mark = (f'<rect class="chart-mark" x="0" y="{self.top}" width="0" height="{self.height - self.top - self.bottom}" '
                f'visibility="hidden"/>')
        svg = (f'<svg class="svg-chart" viewBox="0 0 {self.width} {self.height}" role="img" aria-label="{escape(title)}" '
               f'data-x0="{_num(self.x[0])}" data-x1="{_num(self.x[1])}" data-px0="{_num(plot_left)}" data-px1="{_num(plot_right)}" '
               f'data-width="{self.width}">{mark}{"".join(self.parts)}</svg>')
        if not self.legend:
            return svg
        items = "".join(
            f'<li><svg width="22" height="8" aria-hidden="true"><line x1="1" x2="21" y1="4" y2="4" stroke="{colour}" stroke-width="3"'
            f'{f" stroke-dasharray={chr(34)}{dash}{chr(34)}" if dash else ""}/></svg>{escape(label)}</li>'
            for label, colour, dash in self.legend)
        return f'{svg}<ul class="chart-legend">{items}</ul>'


def ticks(start: int, stop: int, every: int = 1) -> list[tuple[float, str]]:
    """Whole-number ticks from ``start`` to ``stop`` (inclusive), ``every`` apart."""
    return [(n, str(n)) for n in range(start, stop + 1, max(1, every))]
