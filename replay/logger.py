"""GameLogger: what a bot calls while a game is played, for every registered game.

``GameLogger(game=..., ...)`` hands out the game's own logger (``GAME.Logger``), the first
registered game's by default. Each has the game's own verbs, and every one saves its log
atomically with :func:`save_log`.

>>> from replay.games import get, names
>>> type(GameLogger(game_id="room-7/1")) is get(names()[0]).Logger
True
"""

from __future__ import annotations

import json
import os
import re
import secrets
import tempfile
from pathlib import Path
from typing import Any, Callable, Mapping

from .codec import replay_url
from .errors import ReplayError
from .games import get, names
from .log import parse_log
from .picture import animation, picture


class LoggerStateError(ReplayError):
    """The logger was used out of order (an event before the deal, anything after end)."""


class LoggerInputError(ReplayError, ValueError):
    """An argument that names no seat, card or end reason of the game (or text too long)."""


class BaseLogger:
    """What every game's logger shares: closing the log, stamping times, refusing events
    before the deal and after the end, ``chat``, ``end``, the log as a dict (``to_dict``) and
    as its model (``to_log``), saving atomically, and the link of the ended game.

    A game's logger declares ``format``, ``end_reasons`` and ``seat_name(value)`` (a seat as
    the log writes it, or ``LoggerInputError``), keeps its own verbs and ``deal``, gives its
    setup's fields with ``_fields()`` (``players`` among them), and sets, in ``__init__`` and
    ``deal``: ``game_id``, ``started_at``, ``meta``, ``out_dir``, ``clock``, ``_start`` (the
    clock at the deal), ``_hands`` (None before the deal), ``_events``, ``_end``, ``path``
    and ``replay``.
    """

    #: the log's ``format`` (``"<game>/<major>"``)
    format: str
    #: the end reasons ``end`` takes
    end_reasons: tuple[str, ...] = ()
    #: the longest chat text ``chat`` takes (None: the log format's own cap decides)
    max_chat: int | None = None
    #: what ``_event`` says to a bot that logs an event before the deal
    before_deal: str = "call deal() before logging events"
    #: the call that sets the game up, as ``end`` and ``to_dict`` name it before it was made
    setup_call: str = "deal()"

    def seat_name(self, value: Any) -> str:
        """A seat as the log writes it; ``LoggerInputError`` for what names no seat."""
        raise NotImplementedError

    def _fields(self) -> dict[str, Any]:
        """The log's own fields between the envelope's and ``events`` (setup, ``players``)."""
        raise NotImplementedError

    def _open(self, game_id: "str | None", out_dir: "str | os.PathLike[str] | None", started_at: Any,
              meta: "Mapping[str, Any] | None", clock: "Callable[[], float] | None") -> None:
        """Set what every logger keeps (``__init__`` calls it first): the envelope's values, the
        clock, and an empty game before its deal."""
        self.game_id = game_id
        self.out_dir = Path(out_dir) if out_dir is not None else None
        self.started_at = started_at
        self.meta = dict(meta or {})
        self.clock = clock
        self._start: float | None = None
        self._hands: Any = None
        self._events: list[dict[str, Any]] = []
        self._end: dict[str, Any] | None = None
        self.path: Path | None = None
        self.replay: Any = None

    def _players(self, players: "Mapping[Any, Any] | None") -> dict[str, dict[str, Any]]:
        """The ``players`` a bot gave (a name, or a mapping of ``name``, ``id``, ``bot``), by
        seat as the log writes it."""
        return {self.seat_name(seat): {"name": player} if isinstance(player, str) else dict(player)
                for seat, player in (players or {}).items()}

    # -- what every game logs alike ------------------------------------------------------------
    def chat(self, text: str, seat: Any = None, t: "int | None" = None) -> None:
        """A chat message (by ``seat``, or by the host when None): kept, never judged."""
        event: dict[str, Any] = {"type": "chat"}
        if seat is not None:
            event["seat"] = self.seat_name(seat)
        text = str(text)
        if self.max_chat is not None and len(text) > self.max_chat:
            raise LoggerInputError(f"a chat text has at most {self.max_chat} characters, not {len(text)}")
        event["text"] = text
        self._event(event, t)

    def end(self, reason: str = "completed", winner: Any = None, t: "int | None" = None) -> Any:
        """Close the log, save it (when the logger has a directory) and return the judged game.
        ``winner`` is the seat the bot announced (checked by the rules)."""
        self._check_open()
        if self._hands is None:
            raise LoggerStateError(f"nothing to end: call {self.setup_call} first")
        if reason not in self.end_reasons:
            raise LoggerInputError(f"unknown end reason {reason!r} (one of {', '.join(self.end_reasons)})")
        end: dict[str, Any] = {"reason": reason}
        if winner is not None:
            end["winner"] = self.seat_name(winner)
        return self._close(end, t)

    def to_dict(self) -> dict[str, Any]:
        """The log as a JSON object, as the bot would save it."""
        if self._hands is None:
            raise LoggerStateError(f"nothing to log yet: call {self.setup_call} first")
        data: dict[str, Any] = {"format": self.format}
        if self.game_id is not None:
            data["game_id"] = self.game_id
        if self.started_at is not None:
            data["started_at"] = self.started_at.isoformat().replace("+00:00", "Z")
        data.update(self._fields())
        data["events"] = self._events
        if self._end is not None:
            data["end"] = self._end
        if self.meta:
            data["meta"] = self.meta
        return data

    def to_log(self) -> Any:
        """The log as its game's model (``LogFormatError`` if the bot logged something malformed)."""
        return parse_log(self.to_dict(), self.game_id)

    def _check_open(self) -> None:
        if self._end is not None:
            raise LoggerStateError(f"the game has ended: start a new {type(self).__name__} for the next game")

    def _event(self, event: dict[str, Any], t: "int | None") -> None:
        self._check_open()
        if self._hands is None:
            raise LoggerStateError(self.before_deal)
        self._stamp(event, t)
        self._events.append(event)

    def _stamp(self, event: dict[str, Any], t: "int | None") -> None:
        if t is None and self.clock is not None and self._start is not None:
            t = int((self.clock() - self._start) * 1000)
        if t is not None:
            event["t"] = int(t)

    def _close(self, end: dict[str, Any], t: "int | None") -> Any:
        """Stamp and keep the ``end`` object, save the log (when the logger has a directory)
        atomically, and return the judged game."""
        self._stamp(end, t)
        self._end = end
        log = self.to_log()
        if self.out_dir is not None:
            self.path = save_log(log, self.out_dir)
        self.replay = log.replay()
        return self.replay

    def link(self, base: str, names: bool = True) -> str:
        """The "View the replay" link of the ended game: ``{base}/r/{code}`` (names in
        ``?players=`` unless ``names=False``)."""
        if self.replay is None:
            raise LoggerStateError("link() needs an ended game: call end() first")
        return replay_url(self.replay, base, names=names)

    def picture(self, step: "int | None" = None, view: "str | None" = None) -> bytes:
        """A PNG (1200x630) of the ended game: with no step the deal as an onlooker sees it (no
        result: a link preview), else that step (every card open, or ``view``'s: ``"public"``
        or a seat). ``replay.picture.PictureError`` for a step or view the game has not."""
        return picture(self._ended("picture()"), step=step, view=view)

    def animation(self, start: "int | None" = None, end: "int | None" = None, view: str = "all",
                  speed: float = 1.0, format: str = "gif") -> bytes:
        """A GIF (or an H.264 MP4 with ``format="mp4"``) of the ended game's steps ``start`` to
        ``end`` (the whole game by default), 720 pixels wide: what a Telegram bot sends with
        ``sendAnimation``, the replay's link as its caption."""
        return animation(self._ended("animation()"), start=start, end=end, view=view, speed=speed, format=format)

    def _ended(self, what: str) -> Any:
        if self.replay is None:
            raise LoggerStateError(f"{what} needs an ended game: call end() first")
        return self.replay


class GameLogger:
    """The logger of a game: ``GameLogger(game=name, ...)`` is ``get(name).Logger(...)``.

    The default game is the first registered one (``replay.games.names()[0]``, the first this
    library logged), so its bots' ``GameLogger(game_id=..., players=...)`` needs no ``game``.
    The keyword arguments are the game's logger's own (``docs/games/<game>.md``). A game with no
    logger raises ``LoggerStateError``.
    """

    def __new__(cls, *args: Any, game: str | None = None, **kwargs: Any) -> Any:
        module = get(names()[0] if game is None else game)
        if module.Logger is None:
            raise LoggerStateError(f"{module.title} has no logger for bots")
        return module.Logger(*args, **kwargs)


_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def log_file_name(log: Any) -> str:
    """A safe file name for a game: its game_id made safe, else its start time."""
    if log.game_id:
        stem = _UNSAFE.sub("_", log.game_id).strip("._-")[:120]
    else:
        stem = ""
    if not stem:
        when = log.started_at.strftime("%Y%m%dT%H%M%S") if log.started_at else "game"
        stem = f"{when}-{secrets.token_hex(3)}"
    return stem + ".json"


def save_log(log: Any, directory: "str | os.PathLike[str]") -> Path:
    """Write a log into a directory atomically and return its path.

    The content goes to a hidden temporary file (``.name.tmp``) that is then linked to its
    final name, so a reader watching the directory never sees a half-written file, and an
    existing file is never overwritten (a clash gets a ``-2``, ``-3``... suffix).
    """
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    name = log_file_name(log)
    text = json.dumps(log.to_json_dict(), ensure_ascii=False, indent=1) + "\n"
    fd, tmp = tempfile.mkstemp(prefix="." + name, suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        stem, ext = name[: -len(".json")], ".json"
        for attempt in range(1, 1000):
            final = directory / (stem + ext if attempt == 1 else f"{stem}-{attempt}{ext}")
            try:
                os.link(tmp, final)
            except FileExistsError:
                continue
            return final
        raise OSError(f"no free file name for {name} in {directory}")
    finally:
        os.unlink(tmp)
