"""Frames to GIF and MP4 (a first version: Pillow's GIF writer, H.264 through PyAV).

>>> from .scene import Scene, Rect
>>> frames = [Scene(), Scene(items=(Rect(0, 0, 100, 100, fill="#ff0000"),))]
>>> gif(frames, [500, 1000], scale=0.5)[:6]
b'GIF89a'
"""

from __future__ import annotations

import io
from typing import Sequence

from .render import Raster
from .scene import Scene


def gif(scenes: Sequence[Scene], durations: Sequence[int], scale: float) -> bytes:
    """An endlessly looping GIF, one frame a scene, each shown its duration in milliseconds."""
    raster = Raster(scale)
    images = [raster.draw(scene)[0].quantize(colors=64, dither=0) for scene in scenes]
    out = io.BytesIO()
    images[0].save(out, format="GIF", save_all=True, append_images=images[1:], duration=list(durations),
                   loop=0, optimize=False)
    return out.getvalue()


def mp4(scenes: Sequence[Scene], durations: Sequence[int], scale: float) -> bytes:
    """An H.264 MP4 without sound (what Telegram's sendAnimation takes), each frame held its
    duration."""
    import av  # an optional dependency until the package requires it

    raster = Raster(scale)
    out = io.BytesIO()
    container = av.open(out, mode="w", format="mp4")
    first, _ = raster.draw(scenes[0])
    width, height = first.size[0] // 2 * 2, first.size[1] // 2 * 2
    stream = container.add_stream("libx264", rate=10)
    stream.width, stream.height, stream.pix_fmt = width, height, "yuv420p"
    stream.options = {"crf": "28", "preset": "veryfast"}
    pts = 0
    for n, scene in enumerate(scenes):
        image = first if n == 0 else raster.draw(scene)[0]
        frame = av.VideoFrame.from_image(image.crop((0, 0, width, height)))
        for _ in range(max(1, round(durations[n] / 100))):
            frame.pts = pts
            pts += 1
            for packet in stream.encode(frame):
                container.mux(packet)
    for packet in stream.encode():
        container.mux(packet)
    container.close()
    return out.getvalue()
