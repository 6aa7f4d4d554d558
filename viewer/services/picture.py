"""Pictures and animations of games on the web: ``/r/<code>/picture.png`` (and ``/g/<id>/``,
``/u/<token>/``), ``animation.gif`` and ``animation.mp4``, and the link previews that name them.

Every image is drawn by :mod:`replay.picture` from the game's one drawing; this module decides
what is asked (strictly: digits for steps, a known view, a bounded speed), what it may cost,
and how it is cached:

- **Validators first.** An image's strong ``ETag`` is a hash of what it is made of: the game's
  content (a code and the names its link gives; an archived game's or an upload's stored
  bytes), what is asked (kind, step, view, range, speed) and the renderer's version (a hash of
  ``replay/picture``'s sources and fonts and of every registered game's sources). A request
  whose ``If-None-Match`` matches gets its 304 before the game is even decoded.
- **Memory next.** Rendered bytes are kept in a per-process LRU bounded in bytes
  (``IMAGE_CACHE_BYTES``), keyed the same way.
- **Then the budget.** A render costs a token from the client's bucket (separate ones for
  pictures and animations, :mod:`viewer.ratelimit`: 429 with ``Retry-After`` past it) and one
  of the process's render slots (``RENDER_MAX_CONCURRENT``, waited for at most
  ``RENDER_WAIT_SECONDS``: 503 with ``Retry-After`` past it). Answers from the cache and 304s
  cost neither. An animation is at most ``ANIMATION_MAX_FRAMES`` frames (413 past it), and a
  game whose states would not fit a page's budget (:func:`viewer.view.check_budget`) is
  refused unbuilt, as its page is.

>>> ask = parse_ask("picture", {"step": ["12"], "view": ["P1"]})
>>> ask.step, ask.view, ask.key()
(12, 'P1', 'picture|12|P1|||')
>>> parse_ask("picture", {"step": ["1e3"]})
Traceback (most recent call last):
...
viewer.errors.PageError: step must be a step number (digits only, at most 6 of them), not '1e3'
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import re
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence
from urllib.parse import quote

from flask import Response, current_app, request

from replay import picture as pictures
from replay.games import get as get_game
from replay.games.base import GameModule
from replay.games import names as game_names

from .. import ratelimit
from ..app import error_response
from ..errors import PageError
from ..view import JSON_STEP_BYTES, ViewedGame, check_budget, step_count

#: the media type of each kind of image, and its file name's suffix
KINDS: dict[str, tuple[str, str]] = {"picture": ("image/png", "png"), "gif": ("image/gif", "gif"),
                                     "mp4": ("video/mp4", "mp4")}
#: the rate limit (``viewer.ratelimit.LIMITS``) each kind draws on
BUCKETS = {"picture": "pictures", "gif": "animations", "mp4": "animations"}
MAX_STEP_DIGITS = 6
MAX_VIEW = 20
SPEED = re.compile(r"\d{1,2}(?:\.\d{1,3})?")
BAD_TITLE = "Not a picture of this game"
#: the parameters an image reads, each at most once
PARAMETERS = {"picture": ("step", "view"), "gif": ("from", "to", "view", "speed"), "mp4": ("from", "to", "view", "speed")}
PREVIEW_WIDTH, PREVIEW_HEIGHT = pictures.OG_SIZE


# --- what is asked ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Ask:
    """An image as asked for, checked for form (not yet against a game)."""

    kind: str  # picture, gif or mp4
    step: int | None = None
    view: str | None = None
    start: int | None = None
    end: int | None = None
    speed: float | None = None

    def key(self) -> str:
        """What the image depends on beyond the game, as text (for validators and the cache)."""
        parts = (self.step, self.view, self.start, self.end, self.speed)
        return "|".join([self.kind, *("" if p is None else str(p) for p in parts)])


def _one(args: Mapping[str, Sequence[str]], name: str) -> str | None:
    values = list(args.get(name, ()))
    if not values:
        return None
    if len(values) > 1:
        raise PageError(f"give {name} once, not {len(values)} times", 400, BAD_TITLE)
    return values[0]


def _number(raw: str | None, name: str) -> int | None:
    if raw is None:
        return None
    if not (raw.isascii() and raw.isdigit()) or len(raw) > MAX_STEP_DIGITS:
        raise PageError(f"{name} must be a step number (digits only, at most {MAX_STEP_DIGITS} of them), "
                        f"not {raw[:20]!r}", 400, BAD_TITLE)
    return int(raw)


def _view(raw: str | None) -> str | None:
    if raw is None:
        return None
    if not raw or len(raw) > MAX_VIEW or not raw.isprintable():
        raise PageError(f"view must be all, public or one of the game's seats, not {raw[:20]!r}", 400, BAD_TITLE)
    return raw


def _speed(raw: str | None) -> float | None:
    if raw is None:
        return None
    low, high = pictures.SPEEDS
    if not SPEED.fullmatch(raw) or not low <= float(raw) <= high:
        raise PageError(f"speed must be a number from {low:g} to {high:g} (1 is normal), not {raw[:20]!r}",
                        400, BAD_TITLE)
    return float(raw)


def parse_ask(kind: str, args: Mapping[str, Sequence[str]]) -> Ask:
    """The image asked for by a query (``args``: each parameter's list of values), checked for
    form only: ``PageError(400)`` saying which parameter is wrong and what it may be.

    >>> parse_ask("gif", {"from": ["3"], "to": ["9"], "speed": ["2"]}).key()
    'gif||all|3|9|2.0'
    >>> parse_ask("gif", {"speed": ["9"]})
    Traceback (most recent call last):
    ...
    viewer.errors.PageError: speed must be a number from 0.25 to 4 (1 is normal), not '9'
    """
    if kind not in KINDS:
        raise ValueError(f"no image kind {kind!r}")
    raw = {name: _one(args, name) for name in PARAMETERS[kind]}
    if kind == "picture":
        return Ask(kind, step=_number(raw["step"], "step"), view=_view(raw["view"]))
    start, end = _number(raw["from"], "from"), _number(raw["to"], "to")
    if start is not None and end is not None and end < start:
        raise PageError(f"an animation runs forwards: from ({start}) must not be after to ({end})", 400, BAD_TITLE)
    return Ask(kind, view=_view(raw["view"]) or "all", start=start, end=end, speed=_speed(raw["speed"]))


def check_ask(ask: Ask, game: ViewedGame) -> tuple[int, int]:
    """``ask`` against ``game``: a game with no drawing or a step it does not have is 404, a
    view it does not offer 400, an animation of more frames than ``ANIMATION_MAX_FRAMES`` 413.
    Returns the steps drawn (first, last)."""
    replay = game.replay
    if not replay.game.has_drawing:
        raise PageError(f"{replay.game.title} games have no picture yet", 404, "No picture")
    views = pictures.views(replay)
    if ask.view is not None and ask.view not in views:
        raise PageError(f"no view {ask.view!r} in this {replay.game.title} game: its views are "
                        f"{', '.join(views)}", 400, BAD_TITLE)
    last = step_count(replay) - 1
    for name, value in (("step", ask.step), ("from", ask.start), ("to", ask.end)):
        if value is not None and value > last:
            raise PageError(f"no step {value} in this game ({name}): its steps are 0-{last}", 404, "No such step")
    if ask.kind == "picture":
        step = ask.step or 0
        return step, step
    first = ask.start or 0
    end = last if ask.end is None else ask.end
    frames = end - first + 1
    most = int(current_app.config["ANIMATION_MAX_FRAMES"])
    if frames > most:
        raise PageError(f"an animation is at most {most} frames, and steps {first}-{end} are {frames}: ask for "
                        f"fewer with from= and to= (the game's steps are 0-{last})", 413, "Too long to animate")
    return first, end


# --- the renderer's version ------------------------------------------------------------------

def _files_of(folder: Path, patterns: tuple[str, ...]) -> list[Path]:
    return sorted(p for pattern in patterns for p in folder.rglob(pattern) if p.is_file())


@functools.cache
def renderer_version() -> str:
    """A hash of what draws the images: ``replay/picture`` (its sources and bundled fonts),
    every registered game's package (its sources: the drawing, and the rules that make the
    steps it draws) and the game interface (``replay/games/base.py``: the default views). A release that changes any of them changes every image's validator.

    >>> len(renderer_version()), renderer_version() == renderer_version()
    (16, True)
    """
    digest = hashlib.sha256()
    root = Path(pictures.__file__).resolve().parent
    folders = [(root, ("*.py", "*.ttf", "*.otf", "*.woff", "*.woff2", "*.json"))]
    for name in game_names():
        folders.append((Path(inspect.getfile(type(get_game(name)))).resolve().parent, ("*.py",)))
    # and the interface: its default views (the onlooker's) make the steps some games draw
    folders.append((Path(inspect.getfile(GameModule)).resolve().parent, ("base.py",)))
    for folder, patterns in folders:
        for path in _files_of(folder, patterns):
            digest.update(path.name.encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:16]


def validator(content: str, ask: Ask) -> str:
    """The strong ETag (without quotes) of the image ``ask`` of the game whose content key is
    ``content``."""
    text = "\0".join((renderer_version(), content, ask.key()))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def content_key(data: bytes | str) -> str:
    """The key of a game's content: a hash of its stored bytes (or of its code and names)."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    return hashlib.sha256(raw).hexdigest()[:32]


# --- the cache of rendered bytes -------------------------------------------------------------

class ImageCache:
    """A thread-safe LRU of rendered images, ``key -> bytes``, bounded by the bytes it holds: an
    image larger than a quarter of it is not kept.

    >>> cache = ImageCache(100)
    >>> cache.put("a", b"x" * 20); cache.put("b", b"y" * 20); cache.get("a")
    b'xxxxxxxxxxxxxxxxxxxx'
    >>> for key in "cde": cache.put(key, b"z" * 25)
    >>> list(cache.items), cache.bytes  # b, the least recently used, made room
    (['a', 'c', 'd', 'e'], 95)
    >>> cache.put("f", b"!" * 26); "f" in cache.items
    False
    """

    def __init__(self, max_bytes: int):
        self.max_bytes = max_bytes
        self.bytes = 0
        self.items: OrderedDict[str, bytes] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: str) -> bytes | None:
        with self.lock:
            found = self.items.get(key)
            if found is not None:
                self.items.move_to_end(key)
            return found

    def put(self, key: str, data: bytes) -> None:
        if not 0 < len(data) <= self.max_bytes // 4:
            return
        with self.lock:
            old = self.items.pop(key, None)
            if old is not None:
                self.bytes -= len(old)
            self.items[key] = data
            self.bytes += len(data)
            while self.bytes > self.max_bytes:
                _, dropped = self.items.popitem(last=False)
                self.bytes -= len(dropped)


_SHARED_LOCK = threading.Lock()


def _shared(name: str, make: Callable[[], Any]) -> Any:
    found = current_app.extensions.get(name)
    if found is None:
        with _SHARED_LOCK:
            found = current_app.extensions.get(name)
            if found is None:
                found = current_app.extensions[name] = make()
    return found


def image_cache() -> ImageCache:
    """The process's cache of rendered images (``IMAGE_CACHE_BYTES``)."""
    return _shared("image-cache", lambda: ImageCache(int(current_app.config["IMAGE_CACHE_BYTES"])))


def render_slots() -> threading.BoundedSemaphore:
    """The process's render budget: how many images are drawn at once (``RENDER_MAX_CONCURRENT``)."""
    def make() -> threading.BoundedSemaphore:
        cap = int(current_app.config["RENDER_MAX_CONCURRENT"])
        if cap < 1:
            raise ValueError(f"RENDER_MAX_CONCURRENT must be at least 1, not {cap}")
        return threading.BoundedSemaphore(cap)
    return _shared("render-slots", make)


class RenderTime:
    """The process's drawing time, all clients together: a bucket of seconds that fills at
    ``share`` seconds a second up to ``burst``; a drawing may start while the bucket is not
    empty and is charged what it took after. ``wait()`` says how long until it may.

    >>> now = [0.0]
    >>> budget = RenderTime(share=0.5, burst=1.0, clock=lambda: now[0])
    >>> budget.wait(), budget.spend(3.0), budget.wait()
    (0.0, None, 4.0)
    >>> now[0] = 4.5; budget.wait()
    0.0
    """

    def __init__(self, share: float, burst: float, clock: Callable[[], float] = time.monotonic):
        if not 0 < share <= 1 or burst <= 0:
            raise ValueError(f"RENDER_SHARE is above 0 and at most 1 ({share}), RENDER_BURST_SECONDS above 0 ({burst})")
        self.share, self.burst, self.clock = share, burst, clock
        self.tokens, self.last = burst, clock()
        self.lock = threading.Lock()

    def _refill(self) -> None:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.share)
        self.last = now

    def wait(self) -> float:
        with self.lock:
            self._refill()
            return 0.0 if self.tokens > 0 else -self.tokens / self.share

    def spend(self, seconds: float) -> None:
        with self.lock:
            self._refill()
            self.tokens -= seconds


def render_time() -> RenderTime:
    """The process's drawing-time budget (``RENDER_SHARE``, ``RENDER_BURST_SECONDS``)."""
    cfg = current_app.config
    return _shared("render-time", lambda: RenderTime(float(cfg["RENDER_SHARE"]), float(cfg["RENDER_BURST_SECONDS"])))


def busy_response(wait: float | None = None) -> Response:
    """The 503 for a render past the process's budget, with ``Retry-After``."""
    seconds = int(current_app.config["RENDER_BUSY_RETRY_SECONDS"]) if wait is None else max(1, int(wait + 0.999))
    response = error_response(f"the server is drawing as many pictures as it can right now: try again in "
                              f"{seconds} s", 503, "Busy")
    response.headers["Retry-After"] = str(seconds)
    return response


# --- answers ---------------------------------------------------------------------------------

def render(ask: Ask, game: ViewedGame, first: int, last: int) -> bytes:
    """The image's bytes (no cache, no budget: the caller holds a render slot)."""
    replay = game.replay
    names = game.names
    try:
        if ask.kind == "picture":
            return pictures.picture(replay, ask.step, ask.view, names=names)
        return pictures.animation(replay, first, last, ask.view, ask.speed or 1.0, format=ask.kind, names=names)
    except pictures.PictureError as exc:
        raise PageError(str(exc), 400, BAD_TITLE) from None


def drawn(etag: str, bucket: str, prepare: Callable[[], Callable[[], bytes]]) -> bytes | Response:
    """The bytes of the image ``etag`` names: from memory, or drawn. ``prepare()`` loads and
    checks what is asked (its errors are the client's, and cost nothing) and gives the drawing;
    the drawing then takes a token from the client's ``bucket`` (else its 429), the process's
    drawing time (``RENDER_SHARE``, else a 503) and a render slot (else a 503)."""
    cache = image_cache()
    data = cache.get(etag)
    if data is not None:
        return data
    make = prepare()
    limited = ratelimit.check(bucket)
    if limited is not None:
        return limited
    budget = render_time()
    wait = budget.wait()
    if wait > 0:
        return busy_response(wait)
    slots = render_slots()
    if not slots.acquire(timeout=float(current_app.config["RENDER_WAIT_SECONDS"])):
        return busy_response()
    started = time.perf_counter()
    try:
        data = make()
    finally:
        slots.release()
        budget.spend(time.perf_counter() - started)
    cache.put(etag, data)
    return data


def image_response(kind: str, content: str, cache_control: str, load: Callable[[], ViewedGame],
                   private: bool = False) -> Response:
    """The image ``kind`` (picture, gif, mp4) asked by the request's query, of the game that
    ``load`` gives, whose content key is ``content``: 304, from memory, or rendered within the
    client's rate limit and the process's render budget."""
    ask = parse_ask(kind, request.args.to_dict(flat=False))
    etag = validator(content, ask)
    media_type, suffix = KINDS[kind]

    def answer(response: Response) -> Response:
        response.set_etag(etag)
        response.headers["Cache-Control"] = cache_control
        response.headers["Cross-Origin-Resource-Policy"] = "cross-origin"  # chat apps, blogs' <img>
        if private:
            response.headers["X-Robots-Tag"] = "noindex"
        return response

    if not request.if_none_match.star_tag and request.if_none_match.contains_weak(etag):
        return answer(Response(status=304))

    def draw() -> Callable[[], bytes]:
        game = load()
        check_budget(game, JSON_STEP_BYTES)  # a game too large for its page is too large to draw
        first, last = check_ask(ask, game)
        return lambda: render(ask, game, first, last)

    data = drawn(etag, BUCKETS[kind], draw)
    if isinstance(data, Response):
        return data
    response = answer(Response(data, mimetype=media_type))
    what = f"step-{ask.step}" if kind == "picture" and ask.step is not None else (
        "deal" if kind == "picture" else f"steps-{ask.start or 0}-{'end' if ask.end is None else ask.end}")
    response.headers["Content-Disposition"] = f'inline; filename="{what}.{suffix}"'
    return response


# --- link previews ---------------------------------------------------------------------------

def picture_path(game: ViewedGame, step: int | None = None, view: str | None = None, kind: str = "picture") -> str:
    """The path (and query) of a picture of ``game`` (``kind`` gif or mp4: its animation).

    >>> from replay.games.uno_lite.bots import play_game
    >>> game = ViewedGame(play_game(seed=3).replay(), path="/r/abc", query="players=Ann,Bo")
    >>> picture_path(game, 4, "P1")
    '/r/abc/picture.png?players=Ann,Bo&step=4&view=P1'
    >>> picture_path(game, kind="gif")
    '/r/abc/animation.gif?players=Ann,Bo'
    """
    name = "picture.png" if kind == "picture" else f"animation.{KINDS[kind][1]}"
    query = [game.query] if game.query else []
    if step is not None:
        query.append(f"step={step}")
    if view is not None:
        query.append(f"view={quote(view, safe='')}")
    return f"{game.path}/{name}" + ("?" + "&".join(query) if query else "")


def has_picture(game: ViewedGame) -> bool:
    return bool(game.replay.game.has_drawing)


def preview_step_view(game: ViewedGame, step: int | str | None, view: str | None) -> tuple[int | None, str | None]:
    """The step and view of a link preview's picture from what a page's link asks (its
    ``?step=`` and ``?view=``, as given): a step past the end is the last, a step that is no
    number is none (the deal), and a view the game does not offer is left out, as the page
    itself shows all hands then.

    >>> from replay.games.uno_lite.bots import play_game
    >>> game = ViewedGame(play_game(seed=3).replay())
    >>> preview_step_view(game, "99999", "P2"), preview_step_view(game, "x", "P9")
    ((65, 'P2'), (None, None))
    """
    replay = game.replay
    if isinstance(step, str):
        step = int(step) if step.isascii() and step.isdigit() and len(step) <= MAX_STEP_DIGITS else None
    if step is not None:
        step = max(0, min(step, step_count(replay) - 1))
    if view is not None and view not in pictures.views(replay):
        view = None
    return step, view


def preview(game: ViewedGame, base: str, step: int | str | None, view: str | None,
            title: str) -> dict[str, Any] | None:
    """The link preview's picture of a page (``og:image``, ``twitter:image``): the absolute URL
    of the PNG of ``step`` (none: the deal) from ``view`` (none: the picture's default; both
    read by :func:`preview_step_view`), its size, type and words (the page's ``title`` and
    which step, from whose view). ``None`` for a game with no drawing."""
    if not has_picture(game):
        return None
    step, view = preview_step_view(game, step, view)
    # the words without drawing (a page is the hot path; the scene's own alt would cost a
    # drawing and, for an onlooker's view, every seat's steps)
    alt = title + (": the deal" if step is None else f": step {step}")
    if view not in (None, "all", "public"):
        alt += f", as {game.names.get(view) or view} saw it"
    return {"image": base + picture_path(game, step, view), "type": "image/png", "width": PREVIEW_WIDTH,
            "height": PREVIEW_HEIGHT, "alt": alt}
