"""Scenes to pixels with Pillow, redrawing only what changed from one scene to the next.

A :class:`Raster` keeps the last scene it drew and its image. Given the next scene, it
compares the two as multisets of shapes (shapes are frozen and hashable): a shape that came or
went damages its pixel box (a text's box is measured from its glyphs), and so do shapes whose
order among the unchanged ones changed. Each damaged box (nearby boxes merged) is filled with
the background and every shape of the new scene that meets it is drawn again onto that piece,
in scene order, then the piece is pasted back. Every coordinate is rounded to whole pixels on
the whole canvas before it is moved onto a piece, so the result is the very image the whole
scene drawn from scratch gives (``tests/picture/test_render.py`` checks it on random scene
sequences).

Text is drawn run by run (``replay.picture.fonts.runs``: the bundled font that has each
character), all runs on the main font's baseline; each run's glyph mask is rendered once and
kept, so a name drawn again costs a paste.

>>> from .scene import Scene, Rect
>>> raster = Raster(scale=0.5)
>>> image, box = raster.draw(Scene(items=(Rect(0, 0, 10, 10, fill="#ff0000"),)))
>>> image.size, box
((600, 315), (0, 0, 600, 315))
>>> raster.draw(Scene(items=(Rect(0, 0, 10, 10, fill="#ff0000"),)))[1] is None
True
>>> raster.draw(Scene(items=(Rect(20, 0, 10, 10, fill="#ff0000"),)))[1]
(0, 0, 15, 5)
"""

from __future__ import annotations

import io
from collections import Counter
from functools import lru_cache
from typing import Callable, Optional

from PIL import Image, ImageChops, ImageColor, ImageDraw

from .fonts import DIRECTION, face, font, widths
from .scene import Circle, Item, Line, Rect, Scene, Text
from .text import fit

Box = tuple[int, int, int, int]  # left, top, right, bottom (right and bottom excluded)
#: how a shape draws itself onto a piece whose top left corner is at (x, y) of the canvas
Painter = Callable[[ImageDraw.ImageDraw, int, int], None]


class Raster:
    """Draws scenes one after another at ``scale`` (1.0: 1200x630 pixels), each time saying
    which box of pixels changed."""

    #: shapes whose plan is kept (a plan: the shape's pixel box and how to draw it)
    PLANS = 8192

    def __init__(self, scale: float = 1.0):
        if not 0 < scale <= 8:
            raise ValueError(f"scale must be above 0 and at most 8, not {scale!r}")
        self.scale = float(scale)
        self.image: Image.Image | None = None
        self.scene: Scene | None = None
        self._plans: dict[Item, tuple[Optional[Box], Optional[Painter]]] = {}

    def draw(self, scene: Scene) -> tuple[Image.Image, Box | None]:
        """The picture of ``scene`` (an RGB image of its own) and the box of pixels that
        differ from the previous picture (all of it the first time, ``None`` if none)."""
        size = (max(1, round(scene.width * self.scale)), max(1, round(scene.height * self.scale)))
        previous, image = self.scene, self.image
        if (previous is None or image is None or image.size != size
                or previous.background != scene.background):
            self.image = self._whole(scene, size)
            self.scene = scene
            return self.image.copy(), (0, 0, *size)
        self.scene = scene
        if previous.items == scene.items:
            return image.copy(), None
        changed: Box | None = None
        for box in _merge(self._damage(previous.items, scene.items), size):
            x0, y0, x1, y1 = box
            piece = Image.new("RGB", (x1 - x0, y1 - y0), scene.background)
            pen = ImageDraw.Draw(piece)
            for item in scene.items:
                bounds, paint = self._plan(item)
                if bounds is not None and paint is not None and (
                        bounds[0] < x1 and bounds[2] > x0 and bounds[1] < y1 and bounds[3] > y0):
                    paint(pen, x0, y0)
            diff = ImageChops.difference(image.crop(box), piece).getbbox()
            if diff is not None:
                image.paste(piece, (x0, y0))
                moved = (diff[0] + x0, diff[1] + y0, diff[2] + x0, diff[3] + y0)
                changed = moved if changed is None else _union(changed, moved)
        return image.copy(), changed

    def _whole(self, scene: Scene, size: tuple[int, int]) -> Image.Image:
        image = Image.new("RGB", size, scene.background)
        pen = ImageDraw.Draw(image)
        for item in scene.items:
            bounds, paint = self._plan(item)
            if bounds is not None and paint is not None:
                paint(pen, 0, 0)
        return image

    def _damage(self, old: tuple[Item, ...], new: tuple[Item, ...]) -> list[Box]:
        """The pixel boxes of the shapes that came, went, or moved in the drawing order."""
        before, after = Counter(old), Counter(new)
        changed = {item for item in before.keys() | after.keys() if before[item] != after[item]}
        boxes = [b for b in (self._plan(item)[0] for item in changed) if b is not None]
        kept_old = [item for item in old if item not in changed]
        kept_new = [item for item in new if item not in changed]
        if kept_old != kept_new:  # same shapes, another order: the span that differs is damaged
            first = 0
            while kept_old[first] == kept_new[first]:
                first += 1
            last = 0
            while kept_old[-1 - last] == kept_new[-1 - last]:
                last += 1
            for item in kept_old[first:len(kept_old) - last] + kept_new[first:len(kept_new) - last]:
                bounds = self._plan(item)[0]
                if bounds is not None:
                    boxes.append(bounds)
        return boxes

    def _plan(self, item: Item) -> tuple[Optional[Box], Optional[Painter]]:
        plan = self._plans.get(item)
        if plan is None:
            if len(self._plans) >= self.PLANS:
                self._plans.clear()
            plan = self._plans[item] = _plan(item, self.scale)
        return plan


def _union(a: Box, b: Box) -> Box:
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def _area(b: Box) -> int:
    return (b[2] - b[0]) * (b[3] - b[1])


def _merge(boxes: list[Box], size: tuple[int, int]) -> list[Box]:
    """``boxes`` clipped to the canvas, empty ones dropped, and merged while a merge costs
    fewer pixels than it saves in passes (each box is one more pass over the scene)."""
    width, height = size
    out: list[Box] = []
    for b in boxes:
        b = (max(0, b[0]), max(0, b[1]), min(width, b[2]), min(height, b[3]))
        if b[0] < b[2] and b[1] < b[3]:
            out.append(b)
    merged = True
    while merged and len(out) > 1:
        merged = False
        for i in range(len(out)):
            for j in range(i + 1, len(out)):
                joined = _union(out[i], out[j])
                if _area(joined) <= _area(out[i]) + _area(out[j]) + 4096:
                    out[i] = joined
                    del out[j]
                    merged = True
                    break
            if merged:
                break
    return out


@lru_cache(maxsize=64)
def _colour(colour: str) -> tuple[int, int, int]:
    try:
        return ImageColor.getrgb(colour)[:3]  # type: ignore[return-value]
    except ValueError:
        raise ValueError(f"not a colour: {colour!r} (a scene's colours are #rrggbb)") from None


def _span(a: float, b: float, s: float) -> tuple[int, int]:
    """The first and last pixel (both drawn) of the span ``a``..``b`` at scale ``s``: at least
    one pixel when the span is not empty."""
    lo, hi = sorted((a, b))
    first = round(lo * s)
    return first, max(first, round(hi * s) - 1)


def _plan(item: Item, s: float) -> tuple[Optional[Box], Optional[Painter]]:
    """``item``'s pixel box and painter at scale ``s`` (``(None, None)``: it draws nothing)."""
    if isinstance(item, Rect):
        return _rect(item, s)
    if isinstance(item, Circle):
        return _circle(item, s)
    if isinstance(item, Line):
        return _line(item, s)
    if isinstance(item, Text):
        return _text(item, s)
    raise TypeError(f"a scene holds Rect, Circle, Line and Text shapes, not {type(item).__name__}")


def _stroke_width(width: float, s: float) -> int:
    return max(1, round(width * s))


def _rect(item: Rect, s: float) -> tuple[Optional[Box], Optional[Painter]]:
    if (item.fill is None and item.stroke is None) or item.w == 0 or item.h == 0:
        return None, None
    x0, x1 = _span(item.x, item.x + item.w, s)
    y0, y1 = _span(item.y, item.y + item.h, s)
    fill = _colour(item.fill) if item.fill else None
    outline = _colour(item.stroke) if item.stroke else None
    width = _stroke_width(item.stroke_width, s) if outline else 0
    radius = min(max(0, round(item.radius * s)), (x1 - x0 + 1) // 2, (y1 - y0 + 1) // 2)
    if outline and 2 * width >= min(x1 - x0 + 1, y1 - y0 + 1):
        fill, outline, width = outline, None, 0  # a stroke as wide as the shape covers it all

    def paint(pen: ImageDraw.ImageDraw, ox: int, oy: int) -> None:
        box = (x0 - ox, y0 - oy, x1 - ox, y1 - oy)
        if radius:
            pen.rounded_rectangle(box, radius=radius, fill=fill, outline=outline, width=width)
        else:
            pen.rectangle(box, fill=fill, outline=outline, width=width)

    return (x0 - 1, y0 - 1, x1 + 2, y1 + 2), paint


def _circle(item: Circle, s: float) -> tuple[Optional[Box], Optional[Painter]]:
    if (item.fill is None and item.stroke is None) or item.r <= 0:
        return None, None
    x0, x1 = _span(item.x - item.r, item.x + item.r, s)
    y0, y1 = _span(item.y - item.r, item.y + item.r, s)
    fill = _colour(item.fill) if item.fill else None
    outline = _colour(item.stroke) if item.stroke else None
    width = _stroke_width(item.stroke_width, s) if outline else 0
    if outline and 2 * width >= min(x1 - x0 + 1, y1 - y0 + 1):
        fill, outline, width = outline, None, 0

    def paint(pen: ImageDraw.ImageDraw, ox: int, oy: int) -> None:
        pen.ellipse((x0 - ox, y0 - oy, x1 - ox, y1 - oy), fill=fill, outline=outline, width=width)

    return (x0 - 1, y0 - 1, x1 + 2, y1 + 2), paint


def _line(item: Line, s: float) -> tuple[Optional[Box], Optional[Painter]]:
    if not item.stroke:
        return None, None
    x1, y1, x2, y2 = (round(v * s) for v in (item.x1, item.y1, item.x2, item.y2))
    colour = _colour(item.stroke)
    width = _stroke_width(item.stroke_width, s)
    reach = width // 2 + 2

    def paint(pen: ImageDraw.ImageDraw, ox: int, oy: int) -> None:
        pen.line((x1 - ox, y1 - oy, x2 - ox, y2 - oy), fill=colour, width=width)

    return (min(x1, x2) - reach, min(y1, y2) - reach, max(x1, x2) + reach + 1, max(y1, y2) + reach + 1), paint


def _text(item: Text, s: float) -> tuple[Optional[Box], Optional[Painter]]:
    text = fit(item.text, item.size, item.bold, item.max_width)
    if not text:
        return None, None
    colour = _colour(item.fill)
    size = item.size * s
    parts = widths(text, size, item.bold)
    total = sum(w for _, _, w in parts)
    across, down = _anchor(item.anchor)
    ascent, descent = font(size, item.bold).getmetrics()
    left = round(item.x * s - total * {"l": 0.0, "m": 0.5, "r": 1.0}[across])
    baseline = round(item.y * s + {"t": ascent, "m": (ascent - descent) / 2, "b": -descent}[down])
    masks: list[tuple[int, int, Image.Image]] = []
    advance = 0.0
    for name, chunk, width in parts:
        mask = _mask(name, _sized(size), chunk)
        if mask is not None:
            dx, dy, image = mask
            masks.append((left + round(advance) + dx, baseline + dy, image))
        advance += width
    if not masks:
        return None, None
    bounds = (min(x for x, _, _ in masks), min(y for _, y, _ in masks),
              max(x + m.width for x, _, m in masks), max(y + m.height for _, y, m in masks))

    def paint(pen: ImageDraw.ImageDraw, ox: int, oy: int) -> None:
        for x, y, image in masks:
            pen.bitmap((x - ox, y - oy), image, fill=colour)

    return bounds, paint


def _sized(size: float) -> float:
    return round(max(1.0, float(size)) * 64) / 64


@lru_cache(maxsize=4096)
def _mask(name: str, size: float, chunk: str) -> tuple[int, int, Image.Image] | None:
    """The glyphs of ``chunk`` in the bundled font ``name`` as a mask, and where its top left
    corner is from the start of the run's baseline (``None``: it draws nothing)."""
    typeface = face(name, size)
    left, top, right, bottom = typeface.getbbox(chunk, anchor="ls", direction=DIRECTION)
    if right <= left or bottom <= top:
        return None
    image = Image.new("L", (right - left, bottom - top), 0)
    ImageDraw.Draw(image).text((-left, -top), chunk, fill=255, font=typeface, anchor="ls", direction=DIRECTION)
    return left, top, image


def _anchor(anchor: str) -> tuple[str, str]:
    """A scene's anchor as (across: ``l``/``m``/``r``, down: ``t``/``m``/``b``); anything
    else reads as left, top."""
    across = anchor[:1] if anchor[:1] in ("l", "m", "r") else "l"
    down = anchor[1:2] if anchor[1:2] in ("t", "m", "b") else "t"
    return across, down


def png(scene: Scene, scale: float = 1.0) -> bytes:
    """The scene as a PNG (RGB, zlib level 6)."""
    image, _ = Raster(scale).draw(scene)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=6)
    return out.getvalue()
