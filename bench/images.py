"""Animation figures of every game with a drawing, beside a baseline measured in the same run.

    python bench/images.py                  # 3 rounds, the median of each figure
    python bench/images.py --rounds 5 --seed 7

For every registered game with a drawing, one bot-played game (``selfplay(seed=...)``, judged),
every step from the open view at 720x378 (``replay.picture.ANIMATION_WIDTH``), as
``replay.picture.animation`` makes it: the frames (distinct consecutive scenes), the time per
frame to render (scenes to pixels, ``render.Raster``), to make the whole GIF and the whole MP4
(rendering included), their bytes, and the bytes of the 1200x630 PNG of the first step. Games
without a drawing are listed as such.

Ratios, first on each line:

- **time**: our GIF's time per frame (rendering, palette, coding) divided by the baseline's;
  ``r/base`` the same for rendering alone. The baseline is lila-gif's
  method (lichess's GIF service, in Rust) re-done here in Python with Pillow: a 720x720 chess
  board of 8x8 squares, each square pasted from a pre-drawn sprite (pieces as simple shapes on
  light and dark squares, all in one fixed palette), a fixed sequence of 93 frames of square
  changes (a move empties one square and fills another), each frame after the first written as
  only the box of the squares that changed, LZW-coded by Pillow. The issue's target is 5 or
  less. lila-gif's own published figure, 93 frames in about 60 ms (336 KiB), is quoted for
  reference only: it is another language on another machine.
- **size**: the GIF's and the MP4's bytes against the issue's limits for a whole game (GIF
  500 KB, MP4 300 KB), and the log's compact JSON (``canonical_json``) as a second reference.

Each figure is the median of ``--rounds`` rounds (a round makes every animation once). Times are
this process's CPU time (``--wall``: the wall clock), so that other work on a shared machine does
not count; x264 codes on several threads, whose CPU time adds up.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import statistics
import struct
import sys
import time
from typing import Any, Callable

import av
import PIL
from PIL import Image, ImageDraw

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from replay.games import get, names  # noqa: E402
from replay.picture import ANIMATION_WIDTH, OG_SIZE, animate, durations, picture, scenes  # noqa: E402
from replay.picture.render import Raster  # noqa: E402

#: the issue's limits for a whole game's animation
GIF_LIMIT, MP4_LIMIT = 500_000, 300_000
#: the issue's target: our time per frame within this many times the baseline's
TIME_TARGET = 5
#: lila-gif's published figure (reference only): frames, milliseconds, bytes
LILA = (93, 60, 336 * 1024)


# -- the baseline: lila-gif's method in Python ----------------------------------------------------

BOARD, SQUARE = 720, 90
#: the baseline's palette: light square, dark square, white piece, black piece, outline
BASE_COLOURS = [(240, 217, 181), (181, 136, 99), (250, 250, 250), (30, 30, 30), (90, 90, 90)]
KINDS = "pnbrqk"


def sprites() -> dict[tuple[int, str], Image.Image]:
    """Pre-drawn squares: (square colour, piece or ``""``) -> a 90x90 palette image. Pieces are
    simple shapes (a disc, a diamond, a square...) in white or black with an outline."""
    palette = [value for rgb in BASE_COLOURS for value in rgb]
    drawn: dict[tuple[int, str], Image.Image] = {}
    for shade in (0, 1):
        for piece in ["", *KINDS, *KINDS.upper()]:
            tile = Image.new("P", (SQUARE, SQUARE), shade)
            tile.putpalette(palette)
            pen = ImageDraw.Draw(tile)
            colour = 2 if piece.isupper() else 3
            shape = piece.lower()
            box = (20, 20, 70, 70)
            if shape == "p":
                pen.ellipse((30, 30, 60, 60), fill=colour, outline=4, width=2)
            elif shape == "n":
                pen.polygon([(25, 70), (45, 20), (70, 70)], fill=colour, outline=4)
            elif shape == "b":
                pen.polygon([(45, 15), (70, 45), (45, 75), (20, 45)], fill=colour, outline=4)
            elif shape == "r":
                pen.rectangle(box, fill=colour, outline=4, width=2)
            elif shape == "q":
                pen.ellipse(box, fill=colour, outline=4, width=2)
                pen.ellipse((38, 38, 52, 52), fill=4)
            elif shape == "k":
                pen.rectangle(box, fill=colour, outline=4, width=2)
                pen.line((45, 25, 45, 65), fill=4, width=4)
                pen.line((30, 40, 60, 40), fill=4, width=4)
            drawn[shade, piece] = tile
    return drawn


def start_board() -> list[str]:
    """The 64 squares from a8 to h1: a piece letter (white upper case) or ``""``."""
    back = "rnbqkbnr"
    return [*back, *"p" * 8, *[""] * 32, *"P" * 8, *back.upper()]


def moves(count: int = 92, seed: int = 93) -> list[list[int]]:
    """A fixed sequence of ``count`` moves as the squares each changes (from and to): a piece
    moves to an empty square or takes one of the other side. The same every run."""
    board = start_board()
    rng = random.Random(seed)
    sequence: list[list[int]] = []
    white = True
    while len(sequence) < count:
        mine = [i for i, piece in enumerate(board) if piece and piece.isupper() == white]
        frm = rng.choice(mine)
        targets = [i for i, piece in enumerate(board) if not piece or (piece.isupper() != white and piece.lower() != "k")]
        to = rng.choice(targets)
        board[to], board[frm] = board[frm], ""
        sequence.append([frm, to])
        white = not white
    return sequence


def baseline_gif(tiles: dict[tuple[int, str], Image.Image], sequence: list[list[int]]) -> bytes:
    """lila-gif's method: the board pasted from sprites, then per move only the changed squares
    pasted and only their box written. One frame a position (the start and each move)."""
    board = start_board()
    canvas = Image.new("P", (BOARD, BOARD), 0)
    for i, piece in enumerate(board):
        canvas.paste(tiles[(i // 8 + i % 8) % 2, piece], (i % 8 * SQUARE, i // 8 * SQUARE))
    out = io.BytesIO()
    palette = bytes(value for rgb in BASE_COLOURS for value in rgb)
    out.write(b"GIF89a" + struct.pack("<HHBBB", BOARD, BOARD, 0xF7, 0, 0) + palette.ljust(768, b"\0"))
    out.write(b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00")

    def frame(box: tuple[int, int, int, int], delay: int) -> None:
        left, top, right, bottom = box
        out.write(struct.pack("<BBBBHBB", 0x21, 0xF9, 4, 1 << 2, delay, 0, 0))
        out.write(struct.pack("<BHHHHB", 0x2C, left, top, right - left, bottom - top, 0) + b"\x08")
        out.write(canvas.crop(box).tobytes("gif", "P") + b"\x00")

    frame((0, 0, BOARD, BOARD), 100)
    for changed in sequence:
        board[changed[1]], board[changed[0]] = board[changed[0]], ""
        for i in changed:
            canvas.paste(tiles[(i // 8 + i % 8) % 2, board[i]], (i % 8 * SQUARE, i // 8 * SQUARE))
        columns = [i % 8 for i in changed]
        rows = [i // 8 for i in changed]
        frame((min(columns) * SQUARE, min(rows) * SQUARE, (max(columns) + 1) * SQUARE, (max(rows) + 1) * SQUARE), 100)
    out.write(b"\x3b")
    return out.getvalue()


# -- the games ----------------------------------------------------------------------------------

#: the clock: this process's CPU time by default (on a shared machine wall time counts the others'
#: work too; every step measured here runs on one thread but x264's, whose threads add up)
CLOCK: Callable[[], float] = time.process_time


def timed(work: Callable[[], Any]) -> tuple[float, Any]:
    start = CLOCK()
    result = work()
    return CLOCK() - start, result


def render_all(frames: list[Any], scale: float) -> int:
    """Every scene to pixels on one raster; the number of distinct frames."""
    raster = Raster(scale)
    distinct = 0
    for scene in frames:
        _, box = raster.draw(scene)
        distinct += box is not None
    return distinct


def kb(count: float) -> str:
    return f"{count / 1000:,.1f} KB"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3, help="rounds; each figure is their median (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="the self-play seed of each game (default 1)")
    parser.add_argument("--wall", action="store_true", help="time by the wall clock rather than CPU time")
    args = parser.parse_args()
    rounds = max(1, args.rounds)
    global CLOCK
    CLOCK = time.perf_counter if args.wall else time.process_time
    print(f"machine: load average {os.getloadavg()[0]:.2f}, {os.cpu_count()} cores; Python {sys.version.split()[0]}, "
          f"Pillow {PIL.__version__}, PyAV {av.__version__}; median of {rounds} rounds; "
          f"{'wall-clock' if args.wall else 'CPU'} time")

    tiles = sprites()
    sequence = moves()
    base_times, base_sizes = [], []
    for _ in range(3 * rounds):  # a run takes ~0.1 s: more of them, for a steadier median
        seconds, data = timed(lambda: baseline_gif(tiles, sequence))
        base_times.append(seconds)
        base_sizes.append(len(data))
    base_frames = len(sequence) + 1
    base_ms = statistics.median(base_times) * 1000 / base_frames
    print(f"\nbaseline: lila-gif's method re-done in Python with Pillow (sprites pasted for the squares that "
          f"changed, only their box written): {base_frames} frames of a 720x720 board, {base_ms:.2f} ms a frame, "
          f"{kb(statistics.median(base_sizes))}")
    print(f"  (lila-gif's own published figure, for reference only: {LILA[0]} frames in ~{LILA[1]} ms, "
          f"{LILA[1] / LILA[0]:.2f} ms a frame, {LILA[2] // 1024} KiB)")

    scale = ANIMATION_WIDTH / OG_SIZE[0]
    games, without = [], []
    for name in names():
        game = get(name)
        if not game.has_drawing:
            without.append(game.title)
            continue
        replay = game.judge(game.selfplay(seed=args.seed))
        frames = list(scenes(replay))
        games.append((game, replay, frames, durations(len(frames))))

    print(f"\nwhole games, every step from the open view at {ANIMATION_WIDTH}x{round(OG_SIZE[1] * scale)} "
          f"(self-play seed {args.seed}); ms are per frame; time = our GIF's ms a frame / the baseline's "
          f"(target <= {TIME_TARGET})")
    header = (f"{'game':<16} {'time':>6} {'r/base':>6} {'render':>7} {'steps':>5} {'frames':>6} {'gif ms':>7} {'mp4 ms':>7} "
              f"{'gif':>9} {'mp4':>9} {'png':>9} {'json':>9} {'gif/lim':>7} {'mp4/lim':>7} {'gif/json':>8} {'mp4/json':>8}")
    print(header)
    for game, replay, frames, times in games:
        render_s, gif_s, mp4_s, gif_b, mp4_b, png_b = [], [], [], [], [], []
        distinct = 0
        for _ in range(rounds):
            seconds, distinct = timed(lambda: render_all(frames, scale))
            render_s.append(seconds)
            seconds, data = timed(lambda: animate.gif(frames, times, scale))
            gif_s.append(seconds)
            gif_b.append(len(data))
            seconds, data = timed(lambda: animate.mp4(frames, times, scale))
            mp4_s.append(seconds)
            mp4_b.append(len(data))
            png_b.append(len(picture(replay, step=0)))
        json_b = len(replay.log.canonical_json().encode())
        per = [statistics.median(values) * 1000 / distinct for values in (render_s, gif_s, mp4_s)]
        gif_size, mp4_size = statistics.median(gif_b), statistics.median(mp4_b)
        print(f"{game.title:<16} {per[1] / base_ms:>6.1f} {per[0] / base_ms:>6.1f} {per[0]:>7.2f} {len(frames):>5} {distinct:>6} {per[1]:>7.2f} "
              f"{per[2]:>7.2f} {kb(gif_size):>9} {kb(mp4_size):>9} {kb(statistics.median(png_b)):>9} {kb(json_b):>9} "
              f"{gif_size / GIF_LIMIT:>7.2f} {mp4_size / MP4_LIMIT:>7.2f} {gif_size / json_b:>8.1f} {mp4_size / json_b:>8.1f}")
    print("\ncolumns: time = GIF ms a frame / the baseline's; r/base = the same for rendering alone; render = "
          "ms a frame, scenes to pixels; frames = "
          "distinct consecutive scenes (what the GIF and MP4 hold); gif/lim and mp4/lim = bytes / the issue's "
          f"limits ({kb(GIF_LIMIT)}, {kb(MP4_LIMIT)}); json = the log's compact JSON")
    print("games without a drawing (no animation): " + (", ".join(without) or "none"))


if __name__ == "__main__":
    main()
