"""Scenes as SVG 1.1 documents: the same shapes, the same cut of every text, for the pages.

The PNG and the SVG of a scene are drawn from the same shapes with the same rules:

- a text goes through the same ``clean()`` and ``fit()`` (so it is cut at the same character,
  by the bundled fonts' metrics) and is XML-escaped; markup in a name is shown as the
  characters it is, never read as markup, and a character XML 1.0 cannot carry becomes
  ``�``;
- its ``font-family`` names the bundled families (DejaVu Sans, then Noto Sans CJK SC) and
  ends with the generic ``sans-serif``; across, ``text-anchor`` (``start``, ``middle``,
  ``end``) places it as Pillow's ``l``, ``m``, ``r``; down, ``y`` is the baseline, worked out
  from DejaVu Sans's ascender and descender exactly as the raster does, rather than left to
  ``dominant-baseline``, whose ``hanging`` and ``central`` each browser reads from its own
  font's tables (the line would move by a pixel or two from one browser to the next);
- a rectangle's or circle's stroke lies inside its outline, as Pillow draws it (SVG centres a
  stroke on the outline, so the outline is moved in by half the stroke's width); corners are
  rounded with ``rx``.

>>> from .scene import Rect, Scene, Text
>>> doc = svg(Scene(items=(Rect(10, 10, 100, 40, fill="#ffffff", radius=6),
...                        Text(60, 30, "<b>Ann</b> & Bo", 16, anchor="mm"))))
>>> doc.splitlines()[1]
'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="1200" height="630" viewBox="0 0 1200 630">'
>>> "&lt;b&gt;Ann&lt;/b&gt; &amp; Bo" in doc, "<b>" in doc
(True, False)
"""

from __future__ import annotations

from .fonts import FAMILIES, font
from .scene import Circle, Item, Line, Rect, Scene, Text
from .text import clean, fit

_FAMILY = ", ".join(f"'{family}'" if " " in family else family for family in FAMILIES)
_ANCHOR = {"l": "start", "m": "middle", "r": "end"}
_ESCAPES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;"}


def _xml(text: str) -> str:
    """``text`` escaped for XML text and attributes; what XML 1.0 cannot carry becomes ``�``.

    >>> _xml('<a href="x">\\x00\\ufffe')
    '&lt;a href=&quot;x&quot;&gt;��'
    """
    out = []
    for ch in text:
        cp = ord(ch)
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif (cp < 0x20 and ch not in "\t\n\r") or 0xD800 <= cp <= 0xDFFF or cp in (0xFFFE, 0xFFFF):
            out.append("\ufffd")
        else:
            out.append(ch)
    return "".join(out)


def _n(value: float) -> str:
    """A number as SVG writes it: at most two decimals.

    >>> _n(3.0), _n(2.5), _n(1 / 3), _n(-0.001)
    ('3', '2.5', '0.33', '0')
    """
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _paint(fill: str | None, stroke: str | None, width: float) -> str:
    out = f' fill="{_xml(fill)}"' if fill else ' fill="none"'
    if stroke:
        out += f' stroke="{_xml(stroke)}" stroke-width="{_n(width)}"'
    return out


def _stroke(item: Rect | Circle) -> float:
    """The width a stroke is drawn (none without a stroke colour; as the raster: never 0)."""
    return max(item.stroke_width, 1.0) if item.stroke else 0.0


def _rect(item: Rect) -> str:
    if (item.fill is None and item.stroke is None) or item.w == 0 or item.h == 0:
        return ""
    x, w = (item.x, item.w) if item.w > 0 else (item.x + item.w, -item.w)
    y, h = (item.y, item.h) if item.h > 0 else (item.y + item.h, -item.h)
    sw = min(_stroke(item), w / 2, h / 2)
    inset = sw / 2
    radius = max(0.0, min(item.radius, w / 2, h / 2) - inset)
    rounded = f' rx="{_n(radius)}"' if radius > 0 else ""
    return (f'<rect x="{_n(x + inset)}" y="{_n(y + inset)}" width="{_n(w - sw)}" height="{_n(h - sw)}"{rounded}'
            f'{_paint(item.fill, item.stroke, sw)}/>')


def _circle(item: Circle) -> str:
    if (item.fill is None and item.stroke is None) or item.r <= 0:
        return ""
    sw = min(_stroke(item), item.r)
    return (f'<circle cx="{_n(item.x)}" cy="{_n(item.y)}" r="{_n(item.r - sw / 2)}"'
            f'{_paint(item.fill, item.stroke, sw)}/>')


def _line(item: Line) -> str:
    if not item.stroke:
        return ""
    return (f'<line x1="{_n(item.x1)}" y1="{_n(item.y1)}" x2="{_n(item.x2)}" y2="{_n(item.y2)}" '
            f'stroke="{_xml(item.stroke)}" stroke-width="{_n(max(item.stroke_width, 1.0))}"/>')


def _text(item: Text) -> str:
    text = fit(item.text, item.size, item.bold, item.max_width)
    if not text:
        return ""
    across = item.anchor[:1] if item.anchor[:1] in _ANCHOR else "l"
    down = item.anchor[1:2] if item.anchor[1:2] in ("t", "m", "b") else "t"
    ascent, descent = font(item.size, item.bold).getmetrics()
    baseline = item.y + {"t": ascent, "m": (ascent - descent) / 2, "b": -descent}[down]
    weight = ' font-weight="bold"' if item.bold else ""
    return (f'<text x="{_n(item.x)}" y="{_n(baseline)}" font-size="{_n(item.size)}"{weight} '
            f'text-anchor="{_ANCHOR[across]}" fill="{_xml(item.fill)}">{_xml(text)}</text>')


def _item(item: Item) -> str:
    if isinstance(item, Rect):
        return _rect(item)
    if isinstance(item, Circle):
        return _circle(item)
    if isinstance(item, Line):
        return _line(item)
    if isinstance(item, Text):
        return _text(item)
    raise TypeError(f"a scene holds Rect, Circle, Line and Text shapes, not {type(item).__name__}")


def svg(scene: Scene) -> str:
    """``scene`` as a standalone SVG 1.1 document (``scene.alt`` as its ``<title>``)."""
    width, height = int(scene.width), int(scene.height)
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}">']
    if scene.alt:
        lines.append(f"<title>{_xml(clean(scene.alt))}</title>")
    lines.append(f'<rect x="0" y="0" width="{width}" height="{height}" fill="{_xml(scene.background)}"/>')
    lines.append(f'<g font-family="{_xml(_FAMILY)}" xml:space="preserve">')
    lines.extend(shape for shape in map(_item, scene.items) if shape)
    lines.append("</g>")
    lines.append("</svg>")
    return "\n".join(lines) + "\n"
