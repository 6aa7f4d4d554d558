"""Scenes to pixels with Pillow (a first version: every frame drawn whole).

>>> from .scene import Scene, Rect
>>> raster = Raster(scale=0.5)
>>> image, box = raster.draw(Scene(items=(Rect(0, 0, 10, 10, fill="#ff0000"),)))
>>> image.size, box
((600, 315), (0, 0, 600, 315))
>>> raster.draw(Scene(items=(Rect(0, 0, 10, 10, fill="#ff0000"),)))[1] is None
True
"""

from __future__ import annotations

import io

from PIL import Image, ImageChops, ImageDraw

from .fonts import font
from .scene import Circle, Line, Rect, Scene, Text
from .text import fit


class Raster:
    """Draws scenes one after another at ``scale``, and says which box changed."""

    def __init__(self, scale: float = 1.0):
        self.scale = scale
        self.image: Image.Image | None = None

    def draw(self, scene: Scene) -> tuple[Image.Image, tuple[int, int, int, int] | None]:
        s = self.scale
        image = Image.new("RGB", (round(scene.width * s), round(scene.height * s)), scene.background)
        pen = ImageDraw.Draw(image)
        for item in scene.items:
            if isinstance(item, Rect):
                box = (item.x * s, item.y * s, (item.x + item.w) * s, (item.y + item.h) * s)
                pen.rounded_rectangle(box, radius=item.radius * s, fill=item.fill, outline=item.stroke,
                                      width=max(1, round(item.stroke_width * s)) if item.stroke else 0)
            elif isinstance(item, Circle):
                box = ((item.x - item.r) * s, (item.y - item.r) * s, (item.x + item.r) * s, (item.y + item.r) * s)
                pen.ellipse(box, fill=item.fill, outline=item.stroke,
                            width=max(1, round(item.stroke_width * s)) if item.stroke else 0)
            elif isinstance(item, Line):
                pen.line((item.x1 * s, item.y1 * s, item.x2 * s, item.y2 * s), fill=item.stroke,
                         width=max(1, round(item.stroke_width * s)))
            elif isinstance(item, Text):
                text = fit(item.text, item.size, item.bold, item.max_width)
                if text:
                    pen.text((item.x * s, item.y * s), text, fill=item.fill, font=font(item.size * s, item.bold),
                             anchor=_anchor(item.anchor))
        previous, self.image = self.image, image
        if previous is None or previous.size != image.size:
            return image, (0, 0, *image.size)
        return image, ImageChops.difference(previous, image).getbbox()


def _anchor(anchor: str) -> str:
    """Our anchor (``l``/``m``/``r`` then ``t``/``m``/``b``) as Pillow's."""
    across = anchor[:1] if anchor[:1] in ("l", "m", "r") else "l"
    down = {"t": "t", "m": "m", "b": "b"}.get(anchor[1:2], "t")
    return across + ("a" if down == "t" else "d" if down == "b" else "m")


def png(scene: Scene, scale: float = 1.0) -> bytes:
    """The scene as a PNG."""
    image, _ = Raster(scale).draw(scene)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False, compress_level=6)
    return out.getvalue()
