"""GIF and MP4 animations (``replay.picture.animate``), decoded with Pillow and PyAV.

A GIF holds one frame a distinct consecutive scene, each for its duration (centiseconds as GIF
stores them), and shows every frame as the renderer drew it (within the palette's rounding); an
MP4 is H.264 without sound, of even dimensions, lasting the sum of the durations. A whole game's
animation stays within the issue's limits (GIF 500 KB, MP4 300 KB)."""

from __future__ import annotations

import io
from fractions import Fraction

import av
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops, ImageStat

from replay.games import get
from replay.picture import durations, scenes
from replay.picture.animate import PictureError, gif, mp4
from replay.picture.render import Raster
from replay.picture.scene import Circle, Rect, Scene, Text

SCALE = 0.6  # 1200x630 -> 720x378
GIF_LIMIT, MP4_LIMIT = 500_000, 300_000


def game_scenes(name: str, seed: int) -> list[Scene]:
    """Every step of a bot-played game, every card open."""
    game = get(name)
    replay = game.judge(game.selfplay(seed=seed))
    frames = list(scenes(replay))
    assert len(frames) == len(game.view_steps(replay, None))  # the whole game
    return frames


@pytest.fixture(scope="module")
def uno() -> list[Scene]:
    return game_scenes("uno-lite", 1)


def gif_frames(data: bytes) -> list[tuple[Image.Image, int]]:
    """Every frame of a GIF as Pillow shows it (RGB) with its duration in milliseconds."""
    image = Image.open(io.BytesIO(data))
    frames = []
    for index in range(image.n_frames):
        image.seek(index)
        frames.append((image.convert("RGB"), image.info["duration"]))
    return frames


def distinct(items: list[Scene]) -> list[int]:
    """The indexes of the scenes that differ from the one before."""
    return [i for i, scene in enumerate(items) if i == 0 or scene != items[i - 1]]


# -- GIF ----------------------------------------------------------------------------------------

def test_gif_of_a_game_decodes_to_its_scenes(uno: list[Scene]) -> None:
    times = durations(len(uno))
    frames = gif_frames(gif(uno, times, SCALE))
    assert len(frames) == len(distinct(uno)) == len(uno)
    raster = Raster(SCALE)
    for (shown, ms), scene, asked in zip(frames, uno, times):
        assert shown.size == (720, 378)
        assert ms == asked
        drawn = raster.draw(scene)[0]
        difference = ImageChops.difference(drawn, shown)
        # the palette rounds the anti-aliased edges a little, nothing more
        assert sum(ImageStat.Stat(difference).mean) / 3 < 0.1
        assert max(high for _, high in difference.getextrema()) < 40


def test_gif_loops_forever_and_writes_later_frames_as_boxes(uno: list[Scene]) -> None:
    data = gif(uno, durations(len(uno)), SCALE)
    image = Image.open(io.BytesIO(data))
    assert image.info["loop"] == 0
    # every frame after the first is smaller than the picture: only what changed is written
    boxes = []
    for index in range(1, image.n_frames):
        image.seek(index)
        boxes.append(image.dispose_extent)
    assert all((right - left) * (bottom - top) < 720 * 378 for left, top, right, bottom in boxes)


def test_identical_scenes_merge_into_one_frame_holding_both_times() -> None:
    red = Scene(items=(Rect(100, 100, 200, 200, fill="#ff0000"),))
    blue = Scene(items=(Circle(600, 300, 80, fill="#0000ff"),))
    frames = gif_frames(gif([red, red, blue, blue, blue, red], [300, 400, 500, 100, 100, 2000], SCALE))
    assert [ms for _, ms in frames] == [700, 700, 2000]
    assert frames[0][0].getpixel((round(150 * SCALE), round(150 * SCALE))) == (255, 0, 0)
    assert frames[1][0].getpixel((round(600 * SCALE), round(300 * SCALE))) == (0, 0, 255)
    assert frames[1][0].getpixel((round(150 * SCALE), round(150 * SCALE))) != (255, 0, 0)
    assert frames[2][0].getpixel((round(150 * SCALE), round(150 * SCALE))) == (255, 0, 0)


def test_gif_durations_round_to_centiseconds_without_drifting() -> None:
    one = Scene(items=(Rect(0, 0, 100, 100, fill="#ff0000"),))
    two = Scene(items=(Rect(0, 0, 100, 100, fill="#00ff00"),))
    frames = gif_frames(gif([one, two, one, two], [333, 333, 334, 1000], SCALE))
    # each rounded from the running total: 33 + 34 + 33 = 100 centiseconds for one second
    assert [ms for _, ms in frames] == [330, 340, 330, 1000]


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(20, 3000)), min_size=1, max_size=8))
def test_gif_frames_follow_any_sequence(steps: list[tuple[int, int]]) -> None:
    looks = [Scene(items=(Rect(50 + 200 * k, 100, 150, 150, fill="#ffd23f"),
                          Text(600, 500, f"step {k}", 30, anchor="mm"))) for k in range(4)]
    chosen = [looks[k] for k, _ in steps]
    frames = gif_frames(gif(chosen, [ms for _, ms in steps], SCALE))
    starts = distinct(chosen)
    assert len(frames) == len(starts)
    ends = [*starts[1:], len(chosen)]
    # a frame's time is what its scenes add up to, in centiseconds from the running total
    clock = [sum(ms for _, ms in steps[:i]) for i in range(len(steps) + 1)]
    assert [ms for _, ms in frames] == [10 * ((clock[b] + 5) // 10 - (clock[a] + 5) // 10) for a, b in zip(starts, ends)]
    raster = Raster(SCALE)
    for (shown, _), index in zip(frames, starts):
        drawn = raster.draw(chosen[index])[0]
        assert sum(ImageStat.Stat(ImageChops.difference(drawn, shown)).mean) / 3 < 0.5


# -- MP4 ----------------------------------------------------------------------------------------

def test_mp4_of_a_game_is_h264_without_sound_lasting_its_durations(uno: list[Scene]) -> None:
    times = durations(len(uno))
    data = mp4(uno, times, SCALE)
    container = av.open(io.BytesIO(data))
    assert container.format.name.split(",")[0] in ("mov", "mp4")
    assert len(container.streams.audio) == 0 and len(container.streams.video) == 1
    stream = container.streams.video[0]
    assert stream.codec_context.name == "h264"
    assert (stream.width, stream.height) == (720, 378)
    assert stream.codec_context.pix_fmt == "yuv420p"
    frames = list(container.decode(video=0))
    assert len(frames) == len(distinct(uno))
    # each frame starts when the ones before it have been shown
    starts = [float(frame.pts * frame.time_base) for frame in frames]
    assert starts == pytest.approx([sum(times[:i]) / 1000 for i in range(len(times))], abs=0.002)
    total = float(stream.duration * stream.time_base)
    assert total == pytest.approx(sum(times) / 1000, abs=min(times) / 1000)
    assert frames[5].to_image().size == (720, 378)
    # the colours are stated (BT.709, video range), so every player converts them back alike
    assert (stream.codec_context.colorspace, stream.codec_context.color_range) == (1, 1)
    drawn = Raster(SCALE).draw(uno[0])[0]
    shown = frames[0].to_image()
    for point in ((100, 300), (360, 200), (10, 10)):  # the felt, the middle, the header bar
        assert all(abs(a - b) <= 6 for a, b in zip(drawn.getpixel(point), shown.getpixel(point)))


def test_mp4_has_its_index_first_and_even_dimensions() -> None:
    # 1200x630 at 0.55 is 660x346.5: cut to even numbers
    data = mp4([Scene(), Scene(items=(Rect(0, 0, 600, 300, fill="#ff0000"),))], [500, 500], 0.5525)
    assert data[4:8] == b"ftyp"
    assert data.find(b"moov") < data.find(b"mdat")  # faststart: a chat can play it while loading
    stream = av.open(io.BytesIO(data)).streams.video[0]
    assert stream.width % 2 == 0 and stream.height % 2 == 0
    assert (stream.width, stream.height) == (662, 348)


def test_mp4_merges_identical_scenes() -> None:
    red = Scene(items=(Rect(0, 0, 600, 630, fill="#ff0000"),))
    data = mp4([red, red, Scene(), Scene()], [1000, 1000, 500, 500], SCALE)
    container = av.open(io.BytesIO(data))
    frames = list(container.decode(video=0))
    assert [frame.pts * frame.time_base for frame in frames] == [0, Fraction(2)]
    stream = container.streams.video[0]
    assert float(stream.duration * stream.time_base) == pytest.approx(3.0, abs=0.01)
    red_pixel = frames[0].to_image().getpixel((10, 10))
    assert red_pixel[0] > 200 and red_pixel[1] < 60


# -- whole games within the limits -------------------------------------------------------

def test_a_whole_uno_lite_game_fits_the_limits() -> None:
    frames = game_scenes("uno-lite", 3)
    times = durations(len(frames))
    assert len(gif(frames, times, SCALE)) <= GIF_LIMIT
    assert len(mp4(frames, times, SCALE)) <= MP4_LIMIT


@pytest.mark.parametrize("seed", [1, 2])
def test_a_whole_bridge_game_fits_the_limits(seed: int) -> None:
    frames = game_scenes("floating-bridge", seed)
    times = durations(len(frames))
    data = gif(frames, times, SCALE)
    assert len(data) <= GIF_LIMIT
    assert Image.open(io.BytesIO(data)).n_frames == len(distinct(frames))
    assert len(mp4(frames, times, SCALE)) <= MP4_LIMIT


# -- bad input -----------------------------------------------------------------------------------

@pytest.mark.parametrize("write", [gif, mp4])
@pytest.mark.parametrize("frames, times, scale, message", [
    ([], [], SCALE, "at least one scene"),
    ([Scene()], [], SCALE, "1 scene but 0 durations"),
    ([Scene(), Scene()], [100], SCALE, "2 scenes but 1 duration"),
    ([Scene()], [-5], SCALE, "whole number of milliseconds"),
    ([Scene()], [1.5], SCALE, "whole number of milliseconds"),
    ([Scene()], [100], 0, "a scale is above 0"),
    ([Scene()], [100], 0.001, "too small"),
    ([Scene()], [100], float("nan"), "a scale is above 0"),
    ([Scene(width=5000)], [100], 1.0, "at most 4096 pixels a side"),
    ([Scene(), Scene(width=600)], [100, 100], SCALE, "one size"),
])
def test_bad_input_is_a_clear_error(write, frames, times, scale, message) -> None:
    with pytest.raises(PictureError, match=message):
        write(frames, times, scale)
