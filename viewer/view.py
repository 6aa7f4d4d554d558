"""What a replay page shows: a judged game turned into plain data for templates and JSON.

This module is game-neutral: it finds the game's board (``viewer.games``) from the replay's
registered game and lets the board build its part. :func:`build_view` gives the template
context (the server-rendered position, the no-JavaScript page, and the compact per-step JSON
that the board's script reads from the page); :func:`page_json` gives a page's JSON twin.

>>> from replay.games.floating_bridge.bots import play_game
>>> view = build_view(ViewedGame(play_game(seed=3).replay(), names={}))
>>> view["banner"]["contract"], view["step"]["index"] == len(view["data"]["steps"]) - 1
('1♠', True)
>>> view["board"].game, [p for p, _ in view["perspectives"]]
('floating-bridge', ['all', 'N', 'E', 'S', 'W'])
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .games import Board, board_of

MAX_PERSPECTIVE = 20


@dataclass
class ViewedGame:
    """A game as a page shows it: the replay plus where it came from and who played."""

    replay: Any  # a judged game (``replay.games.base.Replay``): bridge's GameReplay, UNO's UnoReplay...
    names: dict[str, str] = field(default_factory=dict)  # seat -> player name
    code: str | None = None  # the canonical replay code, for /r/ pages
    public_id: str | None = None  # the archive's id, for /g/ pages
    path: str = ""  # the page's own path (/r/<code> or /g/<id>), without query
    query: str = ""  # names etc. carried in the link's query (without '?')
    started_at: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def board(self) -> Board:
        return board_of(self.replay)

    @property
    def title(self) -> str:
        """The page's title: which game and who played, never who won (it is also the social
        preview and the oEmbed title, seen before anyone opens the replay)."""
        return spoiler_free_title(self)

    @property
    def result_title(self) -> str:
        """The board's own title, which may name the result (``Floating bridge: 1♠ by South``)."""
        return self.board.title(self)

    @property
    def seats(self) -> tuple[str, ...]:
        """The seats of this game: the log's own where a game's seats vary (Coup, party cards)."""
        log = self.replay.log
        for attr in ("seat_order", "seats"):
            value = getattr(log, attr, None)
            if value and not callable(value):
                return tuple(getattr(s, "name", s) for s in value)
        return tuple(self.replay.game.seats)


def spoiler_free_title(game: ViewedGame) -> str:
    """``Floating bridge: Priya, Marcus, Łucja, Arjun`` (seats stand in for missing names; a game
    with no names at all is ``Floating bridge game``).

    >>> from replay.games.floating_bridge.bots import play_game
    >>> spoiler_free_title(ViewedGame(play_game(seed=3).replay(), names={"N": "Ann", "S": "Bo"}))
    'Floating bridge: Ann, E, Bo, W'
    >>> spoiler_free_title(ViewedGame(play_game(seed=3).replay()))
    'Floating bridge game'
    """
    what = str(getattr(game.replay.game, "title", "") or game.board.game)
    names = [game.names.get(seat) for seat in game.seats]
    if not any(names):
        return f"{what} game"
    return f"{what}: " + ", ".join(name or seat for name, seat in zip(names, game.seats))


#: plotly.js bundles the app serves, smallest first, with the trace types each one draws
PLOTLY_BUNDLES: tuple[tuple[str, frozenset[str]], ...] = (
    ("plotly-basic.min.js", frozenset({"scatter", "bar", "pie"})),
    ("plotly.min.js", frozenset()),  # every trace type
)


def plotly_bundle(charts: list[dict[str, Any]]) -> str | None:
    """The smallest plotly.js bundle that draws every chart drawn by plotly (``None``: no chart
    needs plotly, they are all drawn as SVG by the server).

    >>> plotly_bundle([{"svg": "<svg/>"}]) is None
    True
    >>> plotly_bundle([{"figure": {"data": [{"type": "bar"}, {}]}}])
    'plotly-basic.min.js'
    >>> plotly_bundle([{"figure": {"data": [{"type": "heatmap"}]}}])
    'plotly.min.js'
    """
    types = {str(trace.get("type") or "scatter") for c in charts if not c.get("svg")
             for trace in (c.get("figure") or {}).get("data", [])}
    if not types and all(c.get("svg") for c in charts):
        return None
    for name, draws in PLOTLY_BUNDLES:
        if not draws or types <= draws:
            return name
    return PLOTLY_BUNDLES[-1][0]  # pragma: no cover (the last bundle draws everything)


def step_count(replay: Any) -> int:
    count = getattr(replay, "step_count", None)
    return count if isinstance(count, int) else len(replay.steps)


def build_view(game: ViewedGame, step: int | None = None, perspective: str = "all",
               reveal: bool = False) -> dict[str, Any]:
    """Everything the replay template and the page's JSON need.

    ``step`` is clamped to the game's steps (``None``: the last); a ``perspective`` the game
    does not offer shows all hands; ``reveal`` is an option for boards that read it.
    """
    board = game.board
    replay = game.replay
    last = step_count(replay) - 1
    index = last if step is None else max(0, min(last, step))
    offered = board.perspectives(replay)
    if perspective not in {value for value, _ in offered}:
        perspective = "all"
    options = {"reveal": bool(reveal)}
    view = board.view(game, index, perspective, options)

    findings = view.pop("findings", None)  # a board may word findings for its perspective
    if findings is None:
        findings = [f.to_json() for f in replay.findings]
    findings = [{**f, "message": board.readable(f["message"])} for f in findings]
    view["step"] = {**view["step"], "index": index, "last": last,
                    "findings": [f for f in findings if f["step"] == index]}
    view["data"]["board"] = board.game
    view["data"].setdefault("chapters", {"ends": [], "before": None})
    view["data"]["initial"] = {"step": step, "perspective": perspective, "reveal": bool(reveal)}
    view.update({
        "game": game,
        "board": board,
        "title": game.title,
        "findings": findings,
        "perspective": perspective,
        "perspectives": offered,
        "reveal": bool(reveal),
    })
    return view


def build_charts(game: ViewedGame) -> list[dict[str, Any]]:
    """The game's charts (plotly figures), in page order."""
    return game.board.charts(game.replay)


def page_json(game: ViewedGame) -> dict[str, Any]:
    """The JSON twin of a replay page: the judged game, its steps and its players."""
    replay = game.replay
    board = game.board
    return {
        "code": game.code,
        "id": game.public_id,
        "path": game.path,
        "names": {s: game.names.get(s) for s in game.seats},
        "started_at": game.started_at,
        **game.extra,
        "replay": replay.to_json(),
        "steps": board.steps_json(replay) if board.steps_json else replay.steps_json(),
    }
