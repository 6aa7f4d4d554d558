"""Scenes to an animation: a GIF, or an H.264 MP4 without sound (what Telegram's
``sendAnimation`` takes and the chat plays as a GIF).

Both draw the scenes one after another on one :class:`~.render.Raster`, which redraws only the
shapes that changed and says which box of pixels changed; a scene that changes nothing adds its
time to the frame before it. Durations are in milliseconds, one a scene.

**GIF.** One global palette, made once for the whole animation, so no frame carries a palette
of its own: every colour the scenes name, exactly, then the colours their edges blend into
(anti-aliasing), chosen once by Pillow's fast octree from the pixels of the first frame and the
first changed boxes. Pixels take their nearest palette colour, without dithering (dithering makes
flat felt noisy and costs bytes). The first frame is written whole; each later one only as its
changed box, at its own position, over the frame before (disposal 1, "do not dispose"), with the
pixels inside the box that did not change transparent (long runs of one index that LZW codes in
almost nothing: half the bytes of the box written opaque). Durations are written in centiseconds
as GIF stores them, rounded from the running total; the animation loops forever. The LZW coding
is Pillow's (its ``gif`` encoder, ``Image.tobytes("gif", ...)``); the file around it is written
here. Pillow's own writer, given the same frames, compares whole frames again and writes each
changed box opaque: a whole bridge game's GIF came to 609 KB that way, 175 KB this way.

**MP4.** H.264 (libx264 through PyAV) in an MP4 container, yuv420p, even dimensions (an odd
last column or row is cut), no audio stream, the index at the front (``movflags=faststart``) so
a chat can start playing before the whole file is in. One coded frame a distinct scene, each
held for its duration by its presentation time (a millisecond time base: a variable frame rate;
the last frame's duration is written too, so the loop waits for it), rather than a constant rate
repeating frames. Measured on a UNO Lite game (27 steps, 26.4 s): 33.6 KB and 0.3 s of CPU, where
10 frames a second took 64 KB and 1.6 s, and 5 a second 41 KB and 0.7 s (and cannot show 900 ms).
MP4 states each sample's duration (its ``stts`` table), which players follow (not tried in a
Telegram client here: no network). ``tune=stillimage``, ``crf`` ``CRF``, preset ``PRESET``, a
keyframe at the start and then only every ``KEYFRAME_FRAMES`` frames (see the constants for the
measured trade-offs, ``bench/images.py`` for the figures).

>>> from .scene import Scene, Rect
>>> frames = [Scene(), Scene(items=(Rect(0, 0, 100, 100, fill="#ff0000"),)), Scene()]
>>> data = gif(frames, [500, 1000, 2000], scale=0.5)
>>> data[:6]
b'GIF89a'
>>> from PIL import Image
>>> import io
>>> image = Image.open(io.BytesIO(data))
>>> image.size, image.n_frames, image.info["loop"]
((600, 315), 3, 0)
>>> gif([Scene(), Scene()], [500, 700], scale=0.5) == gif([Scene()], [1200], scale=0.5)
True
>>> gif([], [], scale=0.5)
Traceback (most recent call last):
...
replay.picture.errors.PictureError: an animation needs at least one scene
"""

from __future__ import annotations

import io
import os
import struct
import tempfile
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Sequence

import av
from PIL import Image, ImageChops

from .errors import PictureError
from .render import Raster
from .scene import Scene

#: the most colours a GIF's palette holds; the last index is transparent (what did not change)
PALETTE_SIZE = 256
TRANSPARENT = PALETTE_SIZE - 1
#: a difference of indexes: nothing, or changed
_CHANGED = [0] + [255] * 255
#: about this many pixels, rows of every frame's box, are read to choose the palette: about 4
#: frames at 720x378. A whole bridge game (49 frames): 200k pixels left 1,842 pixels more than 24
#: levels off; 400k, 217; 1M, none (the worst 9 off), in 0.4 ms a frame
PALETTE_SAMPLE = 1_000_000
#: the most distinct colours counted (more: a picture of many colours, chosen from as pixels)
DISTINCT = 65_536
#: H.264's constant rate factor (lower: better and bigger): 30 keeps small text legible at
#: 720x378; 34 is still readable and 20% smaller, 26 is 25% bigger (UNO Lite, 27 frames)
CRF = 30
#: libx264's preset: ``medium`` is 15% smaller than ``veryfast`` and within 2% of ``slow``
PRESET = "medium"
#: the most frames between keyframes (x264's default): an animation plays from its start and
#: loops, nobody seeks, and a keyframe every 10 frames made UNO Lite's MP4 34% bigger
KEYFRAME_FRAMES = 250
#: the shortest time a frame is on screen (a browser shows a GIF frame of 0 or 1 centisecond for 10)
MIN_MS = 20
#: H.264's colour tags (ISO/IEC 23091-2): BT.709 matrix, primaries and transfer, and video range
BT709, MPEG_RANGE = 1, 1
#: the most pixels an animation has a side (a chat shows 720; H.264's level 5.1 ends at 4096)
MAX_SIDE = 4096




@dataclass
class _Frame:
    """One frame to write: the box that changed (``left, top, right, bottom``), its pixels (RGB,
    later palette indexes) and how long it stays on screen."""
    box: tuple[int, int, int, int]
    pixels: Image.Image
    ms: int


def _check(scenes: Sequence[Scene], durations_ms: Sequence[int], scale: float) -> None:
    """A clear error for what cannot be animated.

    >>> _check([Scene()], [100, 200], 1.0)
    Traceback (most recent call last):
    ...
    replay.picture.errors.PictureError: 1 scene but 2 durations: one duration a scene
    """
    if not scenes:
        raise PictureError("an animation needs at least one scene")
    if len(durations_ms) != len(scenes):
        raise PictureError(f"{len(scenes)} scene{'s' * (len(scenes) != 1)} but {len(durations_ms)} "
                           f"duration{'s' * (len(durations_ms) != 1)}: one duration a scene")
    for ms in durations_ms:
        if isinstance(ms, bool) or not isinstance(ms, int) or ms < 0:
            raise PictureError(f"a duration is a whole number of milliseconds, 0 or more, not {str(ms)[:20]!r}")
    if isinstance(scale, bool) or not isinstance(scale, (int, float)) or not 0 < scale <= 4:
        raise PictureError(f"a scale is above 0 and at most 4, not {str(scale)[:20]!r}")
    sizes = {(scene.width, scene.height) for scene in scenes}
    if len(sizes) > 1:
        raise PictureError(f"the scenes of an animation have one size, not {len(sizes)}")
    width, height = sizes.pop()
    if round(width * scale) < 2 or round(height * scale) < 2:
        raise PictureError(f"a {width}x{height} scene at scale {scale} is too small to animate")
    if round(width * scale) > MAX_SIDE or round(height * scale) > MAX_SIDE:
        raise PictureError(f"an animation is at most {MAX_SIDE} pixels a side, not {round(width * scale)}x"
                           f"{round(height * scale)}")


def _frames(scenes: Sequence[Scene], durations_ms: Sequence[int], scale: float) -> list[_Frame]:
    """The frames: the first whole, then each changed box; a scene that changes nothing adds
    its time to the frame before."""
    raster = Raster(scale)
    frames: list[_Frame] = []
    for scene, ms in zip(scenes, durations_ms):
        ms = max(MIN_MS, ms)
        image, box = raster.draw(scene)
        if not frames:
            box = (0, 0, *image.size)
        elif box is None or box[0] >= box[2] or box[1] >= box[3]:
            frames[-1].ms += ms
            continue
        # crop copies: the raster may draw the next scene over the same image
        frames.append(_Frame(box, image.crop(box), ms))
    return frames


# -- GIF ----------------------------------------------------------------------------------------

def _rgb(colour: str | None) -> tuple[int, int, int] | None:
    """``#rrggbb`` (or ``#rgb``) as a triple; ``None`` for anything else.

    >>> _rgb("#ff8000"), _rgb("#f80"), _rgb("red")
    ((255, 128, 0), (255, 136, 0), None)
    """
    if not isinstance(colour, str) or not colour.startswith("#"):
        return None
    digits = colour[1:]
    if len(digits) == 3:
        digits = "".join(c * 2 for c in digits)
    if len(digits) != 6:
        return None
    try:
        value = int(digits, 16)
    except ValueError:
        return None
    return value >> 16, value >> 8 & 255, value & 255


def _named_colours(scenes: Iterable[Scene]) -> list[tuple[int, int, int]]:
    """Every colour the scenes name (background, fills, strokes, text), most used first.

    >>> from .scene import Rect, Text
    >>> _named_colours([Scene(items=(Rect(0, 0, 1, 1, fill="#ff0000", stroke="#ffffff"),
    ...                              Text(0, 0, "a", 10, fill="#ff0000")), background="#000000")])
    [(255, 0, 0), (0, 0, 0), (255, 255, 255)]
    """
    counts: dict[str | None, int] = {}
    for scene in scenes:  # counted by name (a string's hash is kept; a shape's is worked out anew)
        counts[scene.background] = counts.get(scene.background, 0) + 1
        for item in scene.items:
            for name in (getattr(item, "fill", None), getattr(item, "stroke", None)):
                counts[name] = counts.get(name, 0) + 1
    colours: dict[tuple[int, int, int], int] = {}
    for name, count in counts.items():
        rgb = _rgb(name)
        if rgb is not None:
            colours[rgb] = colours.get(rgb, 0) + count
    return sorted(colours, key=lambda rgb: -colours[rgb])


def _palette(scenes: Sequence[Scene], frames: Sequence[_Frame]) -> Image.Image:
    """One palette for the whole animation: the scenes' own colours exactly (at most half the
    palette), then the colours of the frames' pixels: all of them when they fit, else a choice by
    Pillow's fast octree among the distinct colours (each counted once, so the rare blends of
    text edges count as much as the felt)."""
    named = _named_colours(scenes)[:TRANSPARENT // 2]
    # every frame's box read, each every ``stride``-th row, so that colours that first show late
    # are seen too (rows taken whole: no pixel is blended into a colour no frame has)
    total = sum(frame.pixels.width * frame.pixels.height for frame in frames)
    stride = max(1, -(-total // PALETTE_SAMPLE))
    parts = [frame.pixels if stride == 1 else
             frame.pixels.resize((frame.pixels.width, max(1, frame.pixels.height // stride)), Image.Resampling.NEAREST)
             for frame in frames]
    # stacked into one image, its colours counted at once
    sample = Image.new("RGB", (max(part.width for part in parts), sum(part.height for part in parts)),
                       frames[0].pixels.getpixel((0, 0)))  # type: ignore[arg-type]
    top = 0
    for part in parts:
        sample.paste(part, (0, top))
        top += part.height
    colours = sample.getcolors(DISTINCT)
    # None: a picture of many colours (a photograph), no exact choice to make
    seen = {rgb for _, rgb in colours} if colours is not None else set()
    spare = TRANSPARENT - len(named)
    chosen: list[tuple[int, int, int]]
    extra = sorted(seen.difference(named))
    if seen and len(extra) <= spare:
        chosen = extra  # every colour drawn, exactly
    else:
        if extra:
            source = Image.new("RGB", (len(extra), 1))
            source.putdata(extra)
        else:
            source = frames[0].pixels
        cut = source.quantize(colors=spare, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        flat = cut.getpalette() or []
        chosen = [(flat[i], flat[i + 1], flat[i + 2]) for i in range(0, min(len(flat), 3 * spare), 3)]
    entries = list(dict.fromkeys([*named, *chosen]))[:TRANSPARENT]
    palette = Image.new("P", (1, 1))
    flat_entries = [value for rgb in entries for value in rgb]
    # at most 255 colours: Pillow maps a pixel to one of the palette's own entries, so no pixel
    # takes the transparent index (the GIF's table is padded when written)
    palette.putpalette(flat_entries)
    return palette


def gif(scenes: Sequence[Scene], durations_ms: Sequence[int], scale: float) -> bytes:
    """An endlessly looping GIF, one frame a distinct scene, each shown its duration in
    milliseconds (rounded to GIF's centiseconds), ``scale`` times the scenes' size."""
    _check(scenes, durations_ms, scale)
    frames = _frames(scenes, durations_ms, scale)
    palette = _palette(scenes, frames)
    width, height = frames[0].pixels.size
    out = io.BytesIO()
    # header, logical screen (a 256-colour global table, background index 0), the table
    out.write(b"GIF89a" + struct.pack("<HHBBB", width, height, 0xF7, 0, 0))
    out.write(bytes(palette.getpalette() or []).ljust(3 * PALETTE_SIZE, b"\0"))
    # loop forever (the NETSCAPE2.0 application extension, 0 repetitions)
    out.write(b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00")
    canvas: Image.Image | None = None  # the palette indexes on screen so far
    written: list[tuple[tuple[int, int, int, int], Image.Image, int]] = []
    for frame in frames:
        # palette indexes (no pixel takes the transparent one: the palette stops below it)
        new = frame.pixels.quantize(palette=palette, dither=Image.Dither.NONE)
        if canvas is None:
            canvas = new.copy()
            written.append(((0, 0, width, height), new, frame.ms))
            continue
        left, top = frame.box[:2]
        # the indexes that changed (compared as numbers: one colour, one index)
        changed = ImageChops.difference(canvas.crop(frame.box), new).point(_CHANGED, "L")
        inside = changed.getbbox()
        if inside is None:  # the same pixels once in the palette: a longer frame before
            box, image, ms = written[-1]
            written[-1] = box, image, ms + frame.ms
            continue
        canvas.paste(new, (left, top))
        # what did not change is transparent: the frame before shows through, and long runs of
        # one index cost LZW almost nothing
        sub = Image.new("P", (inside[2] - inside[0], inside[3] - inside[1]), TRANSPARENT)
        sub.paste(new.crop(inside), mask=changed.crop(inside))
        written.append(((left + inside[0], top + inside[1], left + inside[2], top + inside[3]), sub, frame.ms))
    elapsed = 0  # centiseconds are rounded from the running total, so rounding never adds up
    for (left, top, right, bottom), image, ms in written:
        shown = (elapsed + ms + 5) // 10 - (elapsed + 5) // 10
        elapsed += ms
        # graphic control: disposal 1 (the frame stays under the next), the delay, the
        # transparent index
        out.write(struct.pack("<BBBBHBB", 0x21, 0xF9, 4, 1 << 2 | 1, min(0xFFFF, shown), TRANSPARENT, 0))
        # the image: its box, no local palette, LZW with 8-bit codes
        out.write(struct.pack("<BHHHHB", 0x2C, left, top, right - left, bottom - top, 0) + b"\x08")
        out.write(image.tobytes("gif", "P"))
        out.write(b"\x00")
    out.write(b"\x3b")
    return out.getvalue()


# -- MP4 ----------------------------------------------------------------------------------------

def mp4(scenes: Sequence[Scene], durations_ms: Sequence[int], scale: float) -> bytes:
    """An H.264 MP4 without sound (what Telegram's ``sendAnimation`` takes), one coded frame a
    distinct scene, each held its duration in milliseconds, ``scale`` times the scenes' size
    (cut to even dimensions)."""
    _check(scenes, durations_ms, scale)
    # faststart moves the index to the front once the frames are written: the muxer reopens
    # the file for that, so it is written to a temporary file rather than to memory
    with tempfile.TemporaryDirectory(prefix="replay-mp4-") as folder:
        path = os.path.join(folder, "animation.mp4")
        _write_mp4(path, scenes, durations_ms, scale)
        with open(path, "rb") as written:
            return written.read()


def _write_mp4(path: str, scenes: Sequence[Scene], durations_ms: Sequence[int], scale: float) -> None:
    """Write the MP4 to ``path``."""
    raster = Raster(scale)
    container = av.open(path, mode="w", format="mp4", options={"movflags": "+faststart"})
    try:
        _code_all(container, raster, scenes, durations_ms)
    finally:
        container.close()


def _code_all(container: av.container.OutputContainer, raster: Raster, scenes: Sequence[Scene],
              durations_ms: Sequence[int]) -> None:
    """Code every distinct scene into the container's one video stream."""
    # times in milliseconds (the rate is only the coder's nominal one: each frame has its time)
    stream = container.add_stream("libx264", rate=Fraction(1000, 1))
    stream.time_base = Fraction(1, 1000)
    stream.codec_context.time_base = Fraction(1, 1000)
    stream.pix_fmt = "yuv420p"
    # BT.709 stated, and used for the conversion: untagged, each player guesses (by the size, or
    # a default of its own), and the felt's green shifts where two guess differently
    context = stream.codec_context
    context.colorspace = context.color_primaries = context.color_trc = BT709
    context.color_range = MPEG_RANGE
    stream.options = {"crf": str(CRF), "preset": PRESET, "tune": "stillimage",
                      "x264-params": f"keyint={KEYFRAME_FRAMES}"}
    # a frame is coded once the next distinct scene comes (or the last has been drawn): only
    # then is its time on screen known
    pending: tuple[av.VideoFrame, int, int] | None = None  # frame, start, duration (ms)
    size: tuple[int, int] | None = None
    shown: dict[int, int] = {}  # start -> duration (ms) of each coded frame
    for scene, ms in zip(scenes, durations_ms):
        ms = max(MIN_MS, ms)
        image, box = raster.draw(scene)
        if pending is not None and box is None:
            pending = pending[0], pending[1], pending[2] + ms
            continue
        if pending is not None:
            _code(container, stream, *pending, shown)
        if size is None:
            size = image.width // 2 * 2, image.height // 2 * 2
            stream.width, stream.height = size
        start = 0 if pending is None else pending[1] + pending[2]
        frame = av.VideoFrame.from_image(image if image.size == size else image.crop((0, 0, *size))).reformat(
            format="yuv420p", dst_colorspace="ITU709", dst_color_range="MPEG")
        pending = frame, start, ms
    assert pending is not None
    _code(container, stream, *pending, shown)
    _mux(container, stream.encode(None), shown)


def _code(container: av.container.OutputContainer, stream: av.video.stream.VideoStream,
          frame: av.VideoFrame, start: int, ms: int, shown: dict[int, int]) -> None:
    """Code one frame shown from ``start`` for ``ms`` milliseconds, and mux what comes out."""
    shown[start] = ms
    frame.pts = start
    frame.time_base = Fraction(1, 1000)
    _mux(container, stream.encode(frame), shown)


def _mux(container: av.container.OutputContainer, packets: Iterable[av.Packet], shown: dict[int, int]) -> None:
    """Mux the coder's packets, each lasting as long as its frame is shown (the last one's too:
    without it a player would not know how long the last frame stays before the loop)."""
    for packet in packets:
        if packet.pts is not None and packet.pts in shown:
            packet.duration = shown[packet.pts]
        container.mux(packet)
