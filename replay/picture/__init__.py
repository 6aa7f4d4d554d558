"""Pictures and animations of a judged game: a PNG of any step from any view, a GIF or an MP4
of a range of steps. Every game draws itself once (``GameModule.draw``: the steps it may see ->
a ``Scene``); this package turns the scene into pixels (``render``, Pillow with bundled fonts),
frames (``animate``: GIF and H.264 MP4) or SVG (``svg``).

Views: ``"all"`` (every card open, as the replay page shows by default), ``"public"`` (what an
onlooker sees: every hidden card face down) or one of the game's seats (what that seat saw).
The drawing is handed only the steps as that view saw them (``GameModule.view_steps``), up to
the step drawn: a hidden card never reaches it, and neither does anything after the step.

With no step, a picture shows the deal from the public view: no result, no hidden card (the
link preview of a replay that nobody has opened yet). With a step, that step, every card open
unless a view is given.

>>> from replay.games.uno_lite.bots import play_game
>>> replay = play_game(seed=3).replay()
>>> png = picture(replay, names={"P1": "Ann"})
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
>>> picture(replay, view="P3")
Traceback (most recent call last):
...
replay.picture.errors.PictureError: no view 'P3' in this UNO Lite game: all, public, P1, P2
"""

from __future__ import annotations

from typing import Any, Iterator, Mapping

from .errors import PictureError
from . import animate
from .render import png
from .scene import PUBLIC, Scene, Table

__all__ = ["PictureError", "picture", "animation", "scene_at", "scenes", "views", "resolve_view",
           "PUBLIC", "Scene", "Table", "OG_SIZE", "ANIMATION_WIDTH", "FORMATS"]

#: a link preview's size (Open Graph, Twitter's summary_large_image)
OG_SIZE = (1200, 630)
#: an animation's width in pixels (sized for a chat: 720x378)
ANIMATION_WIDTH = 720
#: how long a step stays on screen at speed 1, in milliseconds; the last one holds longer
STEP_MS = 900
LAST_MS = 3000
SPEEDS = (0.25, 4.0)
#: animation formats -> media type
FORMATS = {"gif": "image/gif", "mp4": "video/mp4"}




#: the views that are no seat (a seat of that name is not a view of its own: a log may name
#: its seats freely, and ``public`` must never mean one seat's hand)
RESERVED_VIEWS = ("all", "public")


def views(replay: Any) -> list[str]:
    """The views a picture of ``replay`` may take: ``all``, ``public`` and each seat (but a
    seat called ``all`` or ``public``)."""
    return [*RESERVED_VIEWS, *(s for s in replay.game.seat_order(replay.log) if s not in RESERVED_VIEWS)]


def resolve_view(replay: Any, view: str | None, step: int | None = None) -> str | None:
    """``view`` as ``GameModule.view_steps`` takes it (``None`` every card open, ``PUBLIC``, or a
    seat), or ``PictureError``. No view: the public one for a picture with no step, else all."""
    if view is None:
        return PUBLIC if step is None else None
    if view == "all":
        return None
    if view == "public":  # before the seats: a seat may be called "public"
        return PUBLIC
    if view in replay.game.seat_order(replay.log):
        return view
    raise PictureError(f"no view {str(view)[:40]!r} in this {replay.game.title} game: {', '.join(views(replay))}")


def _table(replay: Any, view: str | None, names: Mapping[str, str | None] | None) -> Table:
    game = replay.game
    seats = tuple(game.seat_order(replay.log))
    shown: dict[str, str] = {}
    players = getattr(replay.log, "players", None) or {}
    for seat, player in players.items():
        name = getattr(player, "name", None)
        if name:
            shown[getattr(seat, "name", str(seat))] = name
    for seat, name in (names or {}).items():
        if name:
            shown[seat] = name
    return Table(title=game.title, seats=seats, names=shown, view=view)


def _drawable(replay: Any) -> Any:
    game = replay.game
    if not game.has_drawing:
        raise PictureError(f"{game.title} games have no drawing")
    return game


def _step(steps: list[Any], step: int | None) -> int:
    if step is None:
        return 0
    if not isinstance(step, int) or isinstance(step, bool) or not 0 <= step < len(steps):
        raise PictureError(f"no step {step!r} in this game: its steps are 0-{len(steps) - 1}")
    return step


def scene_at(replay: Any, step: int | None = None, view: str | None = None,
             names: Mapping[str, str | None] | None = None) -> Scene:
    """The scene of one step (see the module's documentation for the defaults)."""
    game = _drawable(replay)
    seen = resolve_view(replay, view, step)
    steps = game.view_steps(replay, seen)
    index = _step(steps, step)
    return game.draw(_table(replay, seen, names), steps[:index + 1])


def scenes(replay: Any, start: int | None = None, end: int | None = None, view: str | None = "all",
           names: Mapping[str, str | None] | None = None) -> Iterator[Scene]:
    """The scenes of steps ``start`` to ``end`` (both included; the whole game by default)."""
    game = _drawable(replay)
    seen = resolve_view(replay, view, 0)
    steps = game.view_steps(replay, seen)
    first = _step(steps, 0 if start is None else start)
    last = _step(steps, len(steps) - 1 if end is None else end)
    if last < first:
        raise PictureError(f"an animation runs forwards: step {first} is after step {last}")
    table = _table(replay, seen, names)
    for index in range(first, last + 1):
        yield game.draw(table, steps[:index + 1])


def picture(replay: Any, step: int | None = None, view: str | None = None,
            names: Mapping[str, str | None] | None = None, scale: float = 1.0) -> bytes:
    """The PNG of one step (1200x630 at scale 1)."""
    return png(scene_at(replay, step, view, names), scale=scale)


def durations(count: int, speed: float = 1.0) -> list[int]:
    """Each frame's time on screen in milliseconds: ``STEP_MS`` at speed 1, the last ``LAST_MS``.

    >>> durations(3), durations(2, speed=2)
    ([900, 900, 3000], [450, 3000])
    """
    if not SPEEDS[0] <= speed <= SPEEDS[1]:
        raise PictureError(f"a speed is from {SPEEDS[0]} to {SPEEDS[1]}, not {speed}")
    step = max(20, round(STEP_MS / speed))
    return [step] * (count - 1) + [LAST_MS] if count else []


def animation(replay: Any, start: int | None = None, end: int | None = None, view: str | None = "all",
              speed: float = 1.0, format: str = "gif", names: Mapping[str, str | None] | None = None,
              width: int = ANIMATION_WIDTH) -> bytes:
    """A GIF or an MP4 (H.264, no sound) of steps ``start`` to ``end``, ``width`` pixels wide."""
    if format not in FORMATS:
        raise PictureError(f"an animation is {' or '.join(FORMATS)}, not {str(format)[:20]!r}")
    frames = list(scenes(replay, start, end, view, names))
    write = animate.gif if format == "gif" else animate.mp4
    return write(frames, durations(len(frames), speed), scale=width / OG_SIZE[0])
