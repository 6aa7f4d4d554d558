"""The raster: a scene redrawn only where it changed is the very image drawn whole.

The key property: over random sequences of scenes (shapes added, removed, moved, recoloured,
reordered, duplicated; texts in every script, cut or not), a ``Raster`` that redraws only the
damaged boxes gives, pixel for pixel, what a fresh ``Raster`` draws from scratch, and the box
it reports is exactly the box of the pixels that changed.
"""

from __future__ import annotations

import io

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from PIL import Image, ImageChops

from replay.picture.render import Raster, png
from replay.picture.scene import Circle, Line, Rect, Scene, Text

COLOURS = ["#ffffff", "#000000", "#c81e1e", "#1d4ed8", "#ffd23f", "#14532d"]
NAMES = ["Ann", "Андрей", "Ωμέγα", "王小明", "さくら", "김민준", "A♠", "10♥", "K♦ Q♣", "<b>&amp;</b>",
         "\u202eevil", "Z\u0301\u0302\u0303\u0304\u0305", "x" * 300, "W" * 40, "שלום", "\U0001F0A1", ""]

coord = st.floats(min_value=-60, max_value=1260, allow_nan=False, allow_infinity=False)
length = st.floats(min_value=-80, max_value=500, allow_nan=False, allow_infinity=False)
colour = st.sampled_from(COLOURS)
maybe_colour = st.none() | colour
width = st.floats(min_value=0, max_value=9, allow_nan=False, allow_infinity=False)

rects = st.builds(Rect, coord, coord, length, length, maybe_colour, maybe_colour, width,
                  st.floats(min_value=0, max_value=40, allow_nan=False, allow_infinity=False))
circles = st.builds(Circle, coord, coord, st.floats(min_value=0, max_value=200, allow_nan=False), maybe_colour,
                    maybe_colour, width)
lines = st.builds(Line, coord, coord, coord, coord, colour, width)
texts = st.builds(Text, coord, coord, st.sampled_from(NAMES), st.floats(min_value=4, max_value=60, allow_nan=False),
                  colour, st.sampled_from(["lt", "mm", "rb", "lm", "rt", "mb", "xx"]), st.booleans(),
                  st.none() | st.floats(min_value=0, max_value=400, allow_nan=False))
shapes = st.one_of(rects, circles, lines, texts)


def edit(data: st.DataObject, items: list) -> list:
    """One random change of a scene's shapes (or none)."""
    items = list(items)
    kind = data.draw(st.sampled_from(["add", "remove", "move", "swap", "duplicate", "replace", "same"]))
    if kind == "add" or not items:
        items.insert(data.draw(st.integers(0, len(items))), data.draw(shapes))
    elif kind == "remove":
        del items[data.draw(st.integers(0, len(items) - 1))]
    elif kind == "move":
        n = data.draw(st.integers(0, len(items) - 1))
        item = items[n]
        dx, dy = data.draw(st.floats(-200, 200)), data.draw(st.floats(-100, 100))
        if isinstance(item, Line):
            items[n] = Line(item.x1 + dx, item.y1 + dy, item.x2 + dx, item.y2 + dy, item.stroke, item.stroke_width)
        else:
            fields = {f: getattr(item, f) for f in item.__slots__}
            fields["x"] += dx
            fields["y"] += dy
            items[n] = type(item)(**fields)
    elif kind == "swap" and len(items) > 1:
        i, j = data.draw(st.integers(0, len(items) - 1)), data.draw(st.integers(0, len(items) - 1))
        items[i], items[j] = items[j], items[i]
    elif kind == "duplicate":
        items.append(items[data.draw(st.integers(0, len(items) - 1))])
    elif kind == "replace":
        items[data.draw(st.integers(0, len(items) - 1))] = data.draw(shapes)
    return items


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), scale=st.sampled_from([1.0, 0.6, 0.37]), first=st.lists(shapes, max_size=12))
def test_incremental_is_whole(data: st.DataObject, scale: float, first: list) -> None:
    raster = Raster(scale)
    items = first
    background = "#14532d"
    previous: Image.Image | None = None
    for _ in range(data.draw(st.integers(1, 8))):
        if data.draw(st.integers(0, 9)) == 0:
            background = data.draw(colour)
        scene = Scene(items=tuple(items), background=background)
        image, box = raster.draw(scene)
        whole, _ = Raster(scale).draw(scene)
        assert image.tobytes() == whole.tobytes(), (scene, box)
        if previous is None:
            assert box == (0, 0, *image.size)
        else:
            assert box == ImageChops.difference(previous, image).getbbox()
        previous = image
        for _ in range(data.draw(st.integers(1, 3))):
            items = edit(data, items)


def test_a_returned_image_is_not_changed_by_the_next_draw() -> None:
    raster = Raster(0.5)
    first, _ = raster.draw(Scene(items=(Rect(0, 0, 100, 100, fill="#ff0000"),)))
    kept = first.tobytes()
    raster.draw(Scene(items=(Rect(50, 50, 100, 100, fill="#0000ff"),)))
    assert first.tobytes() == kept


def test_only_the_moved_card_and_the_caption_are_damaged() -> None:
    base = (Rect(0, 0, 1200, 56, fill="#0b3b20"), Text(24, 28, "Bridge", 26, anchor="lm", bold=True))
    raster = Raster(1.0)
    raster.draw(Scene(items=base + (Text(1176, 28, "Trick 1", 22, anchor="rm"),
                                    Rect(500, 300, 56, 80, fill="#ffffff"))))
    _, box = raster.draw(Scene(items=base + (Text(1176, 28, "Trick 1", 22, anchor="rm"),
                                             Rect(520, 300, 56, 80, fill="#ffffff"))))
    assert box == (500, 300, 576, 380)


def test_drawing_order_matters() -> None:
    red, blue = Rect(0, 0, 50, 50, fill="#ff0000"), Rect(25, 25, 50, 50, fill="#0000ff")
    raster = Raster(1.0)
    raster.draw(Scene(items=(red, blue)))
    image, box = raster.draw(Scene(items=(blue, red)))
    assert image.getpixel((30, 30)) == (255, 0, 0)
    assert box == (25, 25, 50, 50)


def test_png_is_a_png_of_the_scaled_size() -> None:
    data = png(Scene(items=(Text(600, 315, "Ann ♠ 王", 40, anchor="mm"),)), scale=0.5)
    image = Image.open(io.BytesIO(data))
    assert image.format == "PNG" and image.size == (600, 315) and image.mode == "RGB"


def test_bad_scale_colour_and_shape_are_refused() -> None:
    with pytest.raises(ValueError, match="scale"):
        Raster(0)
    with pytest.raises(ValueError, match="not a colour: 'teal-ish'"):
        Raster().draw(Scene(items=(Rect(0, 0, 1, 1, fill="teal-ish"),)))
    with pytest.raises(TypeError, match="not str"):
        Raster().draw(Scene(items=("a rectangle",)))  # type: ignore[arg-type]
