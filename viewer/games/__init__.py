"""Boards: each game's part of the viewer, found by convention from the registry's game name.

A game registered as ``floating-bridge`` (``replay.games``) has its board in the package
``viewer.games.floating_bridge`` (dashes become underscores). That package defines ``BOARD``,
a :class:`Board`, and holds:

- ``templates/board.html``: Jinja macros the shell calls (see :class:`Board`), served as
  ``games/<game>/board.html``;
- ``static/board.js``: the drawing script, served content-hashed as ``games/<game>/board.js``;
  it registers a renderer with the stepper (``GameViewer.register({...})``);
- any other static files its template or script needs (``games/<game>/<file>``);
- optionally its own GET routes: ``Board.routes``, ``(rule, view)`` pairs that ``init_app``
  adds to the app under the endpoint ``<game>.<view name>`` (party cards: a round's picture
  at ``/g/<id>/round/<n>.svg``).

The neutral viewer (``viewer.view``, the replay and embed pages, ``stepper.js``,
``charts.js``) never names a game: adding one is a new folder here and nothing else.

>>> board = board_for("floating-bridge")
>>> board.template_name, board.script_name, board.chapter
('games/floating-bridge/board.html', 'games/floating-bridge/board.js', 'trick')
>>> package_of("uno-lite")
'viewer.games.uno_lite'
"""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from jinja2 import BaseLoader, ChoiceLoader, PrefixLoader, TemplateNotFound

from replay.games import get, names

if TYPE_CHECKING:  # pragma: no cover
    from flask import Flask

GAMES_DIR = Path(__file__).resolve().parent


class NoBoardError(LookupError):
    """A game that has no board in this viewer."""


@dataclass(frozen=True)
class Board:
    """What a game brings to the viewer.

    ``view(game, index, perspective, options)`` gives the template context of the page at step
    ``index`` (already clamped) from ``perspective`` (already checked against
    ``perspectives``): at least ``step`` (``{"text": ...}``) and ``data`` (what the page embeds
    for the board's script: ``steps``, ``game``, ``chapters``: ``{"ends": [...], "before": n}``,
    the steps that end each chapter and the step before the first one, for the ↑/↓ keys).
    ``charts(replay)`` gives plotly figures (``id``, ``title``, ``mark``, ``figure``).

    The template defines the macros ``main(v)`` (the board above the controls), ``options(v)``
    (extra view options beside the perspective select; may be empty), ``record(v)`` (the side
    column: the game's record with ``data-step`` links) and ``embed_record(v)``.
    """

    game: str  # the registry's name
    title: Callable[[Any], str]  # a ViewedGame -> the board's own title
    view: Callable[..., dict[str, Any]]
    charts: Callable[[Any], list[dict[str, Any]]]
    perspectives: Callable[[Any], list[tuple[str, str]]]  # (value, label); "all" first
    chapter: str = "step"  # what ↑/↓ move by: "trick", "turn"
    description: str = "step through the game"
    steps_json: Callable[[Any], list[dict[str, Any]]] | None = None  # the JSON twin's steps
    options: tuple[str, ...] = ()  # extra boolean view options the board reads (``reveal``)
    parameters: tuple[str, ...] = ()  # other query parameters its page reads (part of the page cache's key)
    routes: tuple[tuple[str, Callable[..., Any]], ...] = ()  # the game's own GET routes: (rule, view)
    extra: dict[str, Any] = field(default_factory=dict)
    #: optional: a finding's message as readers see it (bridge writes ``H2`` as ``♥2``)
    finding_text: Callable[[str], str] | None = None
    #: optional: a logged event in words for the triage timeline (``None``: triage's neutral
    #: rendering of its fields)
    event_text: Callable[[Any], str | None] | None = None
    #: optional: for an event that announces what the engine also works out (bridge: a trick's
    #: winner), ``(announcement in words, whether the engine disagrees)``; None for other events.
    #: Such an event is not a move (no think time)
    timeline_note: Callable[[Any, Any, int | None], tuple[str, bool] | None] | None = None

    def readable(self, message: str) -> str:
        """A finding's message through ``finding_text`` (unchanged without one)."""
        return self.finding_text(message) if self.finding_text else message

    @property
    def folder(self) -> str:
        return self.game

    @property
    def template_name(self) -> str:
        return f"games/{self.game}/board.html"

    @property
    def script_name(self) -> str:
        return f"games/{self.game}/board.js"


#: the package of the board a game without one of its own gets (``viewer.generic``)
GENERIC_PACKAGE = "viewer.generic"


def package_of(name: str) -> str:
    """The board package of a registered game: its ``GameModule.board``, else the convention
    ``viewer.games.<name with underscores>`` (``NoBoardError`` for a name not registered)."""
    try:
        game = get(name)
    except (LookupError, ImportError):
        raise NoBoardError(f"{name!r} is not a registered game") from None
    return game.board or "viewer.games." + name.replace("-", "_")


def _package_dir(package: str) -> Path | None:
    """Where an importable package lives (its templates/ and static/ are beside it), or None."""
    try:
        spec = importlib.util.find_spec(package)
    except ModuleNotFoundError:  # a parent package that is not installed
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0])


def has_own_board(name: str) -> bool:
    return _package_dir(package_of(name)) is not None


def directory_of(name: str) -> Path:
    """The folder of the game's board package (the generic board's for a game without one)."""
    found = _package_dir(package_of(name))
    if found is None:
        found = _package_dir(GENERIC_PACKAGE)
        assert found is not None
    return found


_boards: dict[str, Board] = {}


def board_for(name: str) -> Board:
    """The board of the game registered as ``name``: its own package's ``BOARD``, or the generic
    board (``NoBoardError`` for a name that is not a registered game)."""
    found = _boards.get(name)
    if found is None:
        if not name or not all(ch.isalnum() or ch == "-" for ch in name):
            raise NoBoardError(f"{name!r} is not a game name")
        if has_own_board(name):
            found = importlib.import_module(package_of(name)).BOARD
        else:
            found = importlib.import_module(GENERIC_PACKAGE).generic_board(name)
        _boards[name] = found
    return found


def game_name(replay: Any) -> str:
    """The registry name of a judged game's game."""
    return replay.game.name


def board_of(replay: Any) -> Board:
    return board_for(game_name(replay))


def installed_games() -> list[Any]:
    """The registered games whose packages are installed, in registry order."""
    out = []
    for name in names():
        try:
            out.append(get(name))
        except ImportError:  # registered, but its package is not in this install
            continue
    return out


def game_titles() -> dict[str, str]:
    """Every registered game's name and title, in registry order (a game whose package is not
    installed keeps its name as its title)."""
    titles = {g.name: g.title for g in installed_games()}
    return {name: titles.get(name, name) for name in names()}


def vocabulary(attribute: str) -> tuple[str, ...]:
    """The union over installed games of a vocabulary (``end_reasons``, ``finding_kinds``), in
    registry order, each word once."""
    if attribute not in ("end_reasons", "finding_kinds"):
        raise ValueError(f"{attribute!r} is not a vocabulary of the games (end_reasons, finding_kinds)")
    words: dict[str, None] = {}
    for g in installed_games():
        words.update(dict.fromkeys(g.end_reasons if attribute == "end_reasons" else g.finding_kinds))
    return tuple(words)


def log_names(replay: Any) -> dict[str, str]:
    """The players' names by seat as a judged game's log gives them (a link's ``?players=`` is
    in the log too): for boards whose charts and view labels see only the replay."""
    players = getattr(replay.log, "players", None) or {}
    return {getattr(seat, "name", str(seat)): p.name for seat, p in players.items() if getattr(p, "name", None)}


def seat_label(names: dict[str, Any], seat: str | None) -> str:
    """A seat as readers see it: its player's name, else the seat's own label (``P1``, ``3``).

    >>> seat_label({"P1": "Ann", "P2": None}, "P1"), seat_label({"P1": "Ann", "P2": None}, "P2")
    ('Ann', 'P2')
    """
    if seat is None:
        return ""
    return names.get(seat) or seat


def finding_label(kind: str) -> str:
    """A finding kind as readers see it (``out_of_turn`` -> ``out of turn``): the one wording the
    games filter, its badges and the triage page share (a Jinja filter, ``finding_label``).

    >>> finding_label("refused_message")
    'refused message'
    """
    return str(kind).replace("_", " ")


def seat_order(name: str | None, seats: Any) -> list[str]:
    """A listed game's seats: its game's seats in table order (only those it had, for a game
    whose tables vary, such as Coup), then any other stored ones."""
    stored = list(seats or ())
    try:
        game = get(name) if name else None
    except (LookupError, ImportError):
        game = None
    order = list(game.seats) if game is not None else []
    fewest, most = game.player_counts if game is not None else (None, None)
    if stored and fewest is not None and fewest != most:  # tables vary: only the seats it had
        order = [s for s in order if s in stored]
    return order + [s for s in stored if s not in order]


# --- templates and static files ----------------------------------------------------------------

class GameTemplateLoader(BaseLoader):
    """``<game>/<file>`` -> ``viewer/games/<package>/templates/<file>``."""

    def get_source(self, environment, template: str):
        name, _, rest = template.partition("/")
        if not rest or not name or not all(ch.isalnum() or ch == "-" for ch in name):
            raise TemplateNotFound(template)
        try:
            base = directory_of(name) / "templates"
        except NoBoardError:
            raise TemplateNotFound(template) from None
        path = (base / rest).resolve()
        if base.resolve() not in path.parents or not path.is_file():
            raise TemplateNotFound(template)
        source = path.read_text("utf-8")
        mtime = path.stat().st_mtime
        return source, str(path), lambda: path.is_file() and path.stat().st_mtime == mtime


def init_app(app: "Flask") -> None:
    """Serve ``games/<game>/<file>`` templates from the game folders; ``has_asset(name)`` for
    templates that include a board's optional files; add the boards' own routes."""
    app.jinja_loader = ChoiceLoader([app.jinja_loader, PrefixLoader({"games": GameTemplateLoader()})])  # type: ignore[method-assign,list-item]
    assets = app.extensions["assets"]
    app.jinja_env.globals["has_asset"] = lambda name: name in assets.by_name
    for name in names():
        try:
            board = board_for(name)
        except NoBoardError:
            continue
        for rule, view in board.routes:
            app.add_url_rule(rule, endpoint=f"{board.game}.{view.__name__}", view_func=view)


def static_files() -> dict[str, Path]:
    """Every registered game's board static files as ``games/<game>/<file>`` -> path (for
    ``viewer.assets``; the generic board's for a game without its own)."""
    files: dict[str, Path] = {}
    for name in names():
        try:
            static = directory_of(name) / "static"
        except NoBoardError:
            continue
        if not static.is_dir():
            continue
        for path in sorted(static.rglob("*")):
            if path.is_file() and not path.name.startswith("."):
                files[f"games/{name}/{path.relative_to(static).as_posix()}"] = path
    return files
