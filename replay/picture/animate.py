"""Scenes to an animation: a GIF, or an H.264 MP4 without sound (what Telegram's
``sendAnimation`` takes and the chat plays as a GIF).

Both draw the scenes one after another on one :class:`~.render.Raster`, which redraws only the
shapes that changed and says which box of pixels changed; a scene that changes nothing adds its
time to the frame before it. Durations are in milliseconds, one a scene.

**GIF.** One global palette, made once for the whole animation, so no frame carries a palette of
its own: every colour the scenes name, exactly, then the colours their edges blend into
(anti-aliasing), chosen once (Pillow's fast octree) from the pixels of the first frame and the first changed boxes.
Pixels take their nearest palette colour, without dithering (dithering makes flat felt noisy and
costs bytes). The first frame is written whole; each later one only as its changed box, at its
own position, over the frame before (disposal 1, "do not dispose"). Durations are written in
centiseconds as GIF stores them; the animation loops forever. The LZW coding is Pillow's (its
``gif`` encoder, ``Image.tobytes("gif", "P")``); the file around it is written here, so no frame
is compared or re-quantized twice.

**MP4.** H.264 (libx264 through PyAV) in an MP4 container, yuv420p, even dimensions (an odd
last column or row is cut), no audio stream, the index at the front (``movflags=faststart``) so
a chat can start playing before the whole file is in. One coded frame a distinct scene, each
held for its duration by its presentation time (a millisecond time base: a variable frame rate),
rather than a constant rate repeating frames: the same pictures with 10x fewer frames to code,
smaller and quicker, and MP4 states each sample's duration (its ``stts`` table), which every
player honours (Telegram's included: its GIFs are MP4s). ``tune=stillimage``, ``crf`` ``CRF``,
preset ``PRESET``, a keyframe at the start and then only every ``KEYFRAME_FRAMES`` frames (see
the constants for the measured trade-offs, ``bench/images.py`` for the figures).

>>> from .scene import Scene, Rect
>>> frames = [Scene(), Scene(items=(Rect(0, 0, 100, 100, fill="#ff0000"),)), Scene()]
>>> data = gif(frames, [500, 1000, 2000], scale=0.5)
>>> data[:6]
b'GIF89a'
>>> from PIL import Image, ImageChops
>>> import io
>>> image = Image.open(io.BytesIO(data))
>>> image.size, image.n_frames, image.info["loop"]
((600, 315), 3, 0)
>>> gif([Scene(), Scene()], [500, 700], scale=0.5) == gif([Scene()], [1200], scale=0.5)
True
>>> gif([], [], scale=0.5)
Traceback (most recent call last):
...
replay.picture.animate.PictureError: an animation needs at least one scene
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

from ..errors import ReplayError
from .render import Raster
from .scene import Circle, Line, Rect, Scene, Text

#: the most colours a GIF's palette holds; the last index is transparent (what did not change)
PALETTE_SIZE = 256
TRANSPARENT = PALETTE_SIZE - 1
#: a palette index as itself, but the transparent one (a copy of the first colour) as the first
_OPAQUE = [*range(TRANSPARENT), 0]
#: a difference of indexes: nothing, or changed
_CHANGED = [0] + [255] * 255
#: at most this many pixels (the first frame, then changed boxes) are read to choose the blended
#: colours: about 4 frames at 720x378. A whole bridge game's frames: 400k pixels, 17 ms, a pixel's
#: channel off by 71 at worst; 1M, 27 ms, 35; 3M, 235 ms, 32 (0.27, 0.25, 0.25 on average)
PALETTE_SAMPLE = 1_000_000
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


class PictureError(ReplayError, ValueError):
    """A picture that cannot be drawn as asked: no such step or view, a game with no drawing,
    no scenes to animate. (Defined here because ``replay.picture`` imports this module, which
    can therefore not import it back; ``replay.picture`` re-exports it.)"""


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
    replay.picture.animate.PictureError: 1 scene but 2 durations: one duration a scene
    """
    if not scenes:
        raise PictureError("an animation needs at least one scene")
    if len(durations_ms) != len(scenes):
        raise PictureError(f"{len(scenes)} scene{'s' * (len(scenes) != 1)} but {len(durations_ms)} "
                           f"duration{'s' * (len(durations_ms) != 1)}: one duration a scene")
    for ms in durations_ms:
        if isinstance(ms, bool) or not isinstance(ms, int) or ms < 0:
            raise PictureError(f"a duration is a whole number of milliseconds, 0 or more, not {str(ms)[:20]!r}")
    if not isinstance(scale, (int, float)) or not 0 < scale <= 4:
        raise PictureError(f"a scale is above 0 and at most 4, not {str(scale)[:20]!r}")
    sizes = {(scene.width, scene.height) for scene in scenes}
    if len(sizes) > 1:
        raise PictureError(f"the scenes of an animation have one size, not {len(sizes)}")
    width, height = sizes.pop()
    if round(width * scale) < 2 or round(height * scale) < 2:
        raise PictureError(f"a {width}x{height} scene at scale {scale} is too small to animate")


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
    """Every colour the scenes name (background, fills, strokes, text), most used first."""
    counts: dict[tuple[int, int, int], int] = {}
    seen: set[object] = set()
    for scene in scenes:
        names = [scene.background]
        for item in scene.items:
            if item in seen:
                continue
            seen.add(item)
            if isinstance(item, (Rect, Circle)):
                names += [item.fill, item.stroke]
            elif isinstance(item, Line):
                names.append(item.stroke)
            elif isinstance(item, Text):
                names.append(item.fill)
        for name in names:
            rgb = _rgb(name)
            if rgb is not None:
                counts[rgb] = counts.get(rgb, 0) + 1
    return sorted(counts, key=lambda rgb: -counts[rgb])


def _palette(scenes: Sequence[Scene], frames: Sequence[_Frame]) -> Image.Image:
    """One palette for the whole animation: the scenes' own colours exactly (at most half the
    palette), the rest chosen from the pixels of the changed boxes (the first frame's first)."""
    named = _named_colours(scenes)[:TRANSPARENT // 2]
    width = frames[0].pixels.width
    boxes, pixels = [], 0
    for frame in frames:
        if pixels + frame.pixels.width * frame.pixels.height > PALETTE_SAMPLE and boxes:
            continue
        boxes.append(frame.pixels)
        pixels += frame.pixels.width * frame.pixels.height
    # the boxes stacked, each at the left, into one image to count the colours of
    rows = [0]
    for box in boxes:
        rows.append(rows[-1] + box.height)
    sample = Image.new("RGB", (width, rows[-1]), frames[0].pixels.getpixel((0, 0)))
    for box, top in zip(boxes, rows):
        sample.paste(box, (0, top))
    # Pillow's fast octree: 5x quicker than median cut here, and nearer on the rarest colours
    # (the blends of text edges), which median cut merges
    spare = TRANSPARENT - len(named)
    cut = sample.quantize(colors=spare, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    flat = cut.getpalette() or []
    chosen = [tuple(flat[i:i + 3]) for i in range(0, min(len(flat), 3 * spare), 3)]
    entries: list[tuple[int, int, int]] = []
    for rgb in [*named, *chosen]:
        if rgb not in entries and len(entries) < TRANSPARENT:
            entries.append(rgb)  # type: ignore[arg-type]
    palette = Image.new("P", (1, 1))
    flat_entries = [value for rgb in entries for value in rgb]
    # padded with the first colour (a pixel may map to a copy: the same colour; the last copy,
    # the transparent index, is read as the first)
    palette.putpalette(flat_entries + flat_entries[:3] * (PALETTE_SIZE - len(entries)))
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
    out.write(bytes(palette.getpalette()[:3 * PALETTE_SIZE]))  # type: ignore[index]
    # loop forever (the NETSCAPE2.0 application extension, 0 repetitions)
    out.write(b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00")
    canvas: Image.Image | None = None  # the palette indexes on screen so far
    written: list[tuple[tuple[int, int, int, int], Image.Image, int]] = []
    for frame in frames:
        # palette indexes as a greyscale image (so Pillow's channel operations apply), the
        # transparent index taken by nothing drawn
        indexed = frame.pixels.quantize(palette=palette, dither=Image.Dither.NONE)
        new = Image.frombytes("L", indexed.size, indexed.tobytes()).point(_OPAQUE)
        if canvas is None:
            canvas = new.copy()
            written.append(((0, 0, width, height), new, frame.ms))
            continue
        left, top = frame.box[:2]
        changed = ImageChops.difference(canvas.crop(frame.box), new).point(_CHANGED)
        inside = changed.getbbox()
        if inside is None:  # the same pixels once in the palette: a longer frame before
            box, image, ms = written[-1]
            written[-1] = box, image, ms + frame.ms
            continue
        canvas.paste(new, (left, top))
        # what did not change is transparent: the frame before shows through, and long runs of
        # one index cost LZW almost nothing
        sub = Image.new("L", new.size, TRANSPARENT)
        sub.paste(new, mask=changed)
        box = (left + inside[0], top + inside[1], left + inside[2], top + inside[3])
        written.append((box, sub.crop(inside), frame.ms))
    elapsed = 0  # centiseconds are rounded from the running total, so rounding never adds up
    for (left, top, right, bottom), image, ms in written:
        shown = (elapsed + ms + 5) // 10 - (elapsed + 5) // 10
        elapsed += ms
        # graphic control: disposal 1 (the frame stays under the next), the delay, the
        # transparent index
        out.write(struct.pack("<BBBBHBB", 0x21, 0xF9, 4, 1 << 2 | 1, min(0xFFFF, shown), TRANSPARENT, 0))
        # the image: its box, no local palette, LZW with 8-bit codes
        out.write(struct.pack("<BHHHHB", 0x2C, left, top, right - left, bottom - top, 0) + b"\x08")
        out.write(image.tobytes("gif", "L"))
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
    stream = container.add_stream("libx264", rate=Fraction(1000, 1))
    stream.time_base = Fraction(1, 1000)
    stream.codec_context.time_base = Fraction(1, 1000)
    stream.pix_fmt = "yuv420p"
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
        frame = av.VideoFrame.from_image(image if image.size == size else image.crop((0, 0, *size)))
        pending = frame, start, ms
    assert pending is not None
    _code(container, stream, *pending, shown)
    _mux(container, stream.encode(None), shown)
    container.close()


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
