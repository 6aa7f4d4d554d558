"""What a replay page shows: a judged game turned into plain data for templates and JSON.

This module is game-neutral: it finds the game's board (``viewer.games``) from the replay's
registered game and lets the board build its part. :func:`build_view` gives the template
context (the server-rendered position, the no-JavaScript page, and the compact per-step JSON
that the board's script reads from the page); :func:`page_json` gives a page's JSON twin.

Both send the steps as changes (:func:`step_changes`): the first step whole, then for each
step only what differs from the one before, so a long game costs what happens in it, not its
whole table once per step (``stepper.js`` rebuilds the full steps for the board's script). Both
keep to an output budget (:func:`output_budget`: 50 times the game's own size, plus an
allowance for the page around it), checked before the steps are built and again while they are
written: past it the answer is :class:`TooLargeToShow`, never a page of gigabytes.

>>> from replay.games.floating_bridge.bots import play_game
>>> view = build_view(ViewedGame(play_game(seed=3).replay(), names={}))
>>> view["banner"]["contract"], view["step"]["index"] == len(view["data"]["steps"]) - 1
('1♠', True)
>>> view["board"].game, [p for p, _ in view["perspectives"]]
('floating-bridge', ['all', 'N', 'E', 'S', 'W'])
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Iterable

from .errors import PageError
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
    #: the size of what the reader gave (an upload's or an archived game's stored bytes); the
    #: output budget is a multiple of it (or of the code's length, whichever is larger)
    source_bytes: int = 0

    @property
    def input_bytes(self) -> int:
        """The game's own size: its code's length or its stored bytes, whichever is larger."""
        return max(self.source_bytes, len(self.code or ""))

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
    what = game.replay.game.title
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


# --- the output budget ---------------------------------------------------------------------------

#: A page, an embed or a JSON twin may be this many times the game's own size (its code's
#: length, or the bytes it was uploaded or archived as)...
OUTPUT_RATIO = 50
#: ...plus this many bytes for the page around the game: the shell (header, controls, options,
#: share box: a 4-step party lobby's page is 14 KB) and an ordinary game's record and charts.
#: The largest page of the bot-played games in sample_logs/ is 188 KB (a 189-step UNO Lite
#: game whose code is 67 characters: its record and hand-size chart cost a kilobyte a step), so
#: 512 KiB shows games of a few hundred steps from any code, while a hostile code gets half a
#: megabyte at most where it got a gigabyte.
OUTPUT_ALLOWANCE = 512 * 1024
#: ...and never more than this, whatever the game's size (an 8 MB page is already slow to open).
OUTPUT_CAP = 8 * 1024 * 1024
#: Before building anything: the boards build every step's whole state (steps times the game's
#: set-up, such as the hands dealt) and only then write the changes. A game whose states would
#: be more than this many times its output budget is refused unbuilt. The bot-played samples
#: build less than their budget (the largest, a party game: 0.37 MB against 0.55 MB); a party
#: code of 500 steps over a table of long cards would build 103 MB for a budget of 0.53 MB.
STATE_RATIO = 32
#: Before building anything: what a step costs at the least. A page spends more on every step
#: (its changes, its line in the record, its point in the charts: 500 to 1,100 bytes a step in
#: the bot-played samples), its JSON twin more than 64 (200 to 1,000). A game whose steps alone
#: would be over budget at these prices is refused unbuilt, so a code of 20,000 steps costs its
#: decoding and judging, not the building of 20,000 steps.
PAGE_STEP_BYTES = 256
JSON_STEP_BYTES = 64
#: ``page_json``'s ``steps_format``: how its ``steps`` are written (see :func:`step_changes`)
STEPS_FORMAT = "changes/1"


class OverBudget(Exception):
    """Output that passed its byte limit while it was being written (:func:`step_changes`)."""

    def __init__(self, size: int):
        super().__init__(f"more than {size:,} bytes")
        self.size = size


class TooLargeToShow(PageError):
    """A game whose page or JSON would be over its output budget: a 413 that says why and links
    the log's download (``download``), instead of the page."""

    def __init__(self, game: ViewedGame, reason: str, budget: int):
        super().__init__(f"This game is too large to show here: {reason}. A page may be {OUTPUT_RATIO} times the "
                         f"game's own size ({game.input_bytes:,} bytes) plus {OUTPUT_ALLOWANCE // 1024} KiB, "
                         f"at most {budget:,} bytes; download its log instead.", 413, "Too large to show here")
        self.game = game
        self.budget = budget
        # every page has its log at <path>/log.json
        self.download = game.path + "/log.json" + (f"?{game.query}" if game.query else "")


def output_budget(game: ViewedGame) -> int:
    """The most bytes a page or JSON of this game may be.

    >>> from replay.games.floating_bridge.bots import play_game
    >>> output_budget(ViewedGame(play_game(seed=3).replay(), code="x" * 40)) == 512 * 1024 + 50 * 40
    True
    """
    return min(OUTPUT_CAP, OUTPUT_ALLOWANCE + OUTPUT_RATIO * game.input_bytes)


def setup_bytes(log: Any) -> int:
    """The size of a game's set-up: its canonical log without its events (players, hands dealt,
    card texts), the table that a step's whole state repeats."""
    data = log.to_json_dict()
    data.pop("events", None)
    return len(json_bytes(data))


def json_bytes(value: Any) -> bytes:
    """``value`` as the site writes JSON (UTF-8, no spaces): what its size on the wire is."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def check_budget(game: ViewedGame, step_bytes: int) -> int:
    """The game's output budget, after checking, before anything is built, that its steps at
    ``step_bytes`` each fit in it, and that the states its board builds for them (steps times
    the game's set-up) stay within ``STATE_RATIO`` times it (``TooLargeToShow`` if not)."""
    budget = output_budget(game)
    steps = step_count(game.replay)
    if steps * step_bytes > budget:
        raise TooLargeToShow(game, f"its {steps:,} steps would take about {steps * step_bytes:,} bytes", budget)
    table = max(1, setup_bytes(game.replay.log))
    if steps * table > STATE_RATIO * budget:
        raise TooLargeToShow(game, f"it has {steps:,} steps over a table of {table:,} bytes", budget)
    return budget


def check_output(game: ViewedGame, size: int, what: str = "page") -> None:
    """``TooLargeToShow`` when a finished page of ``size`` bytes is over the game's budget."""
    budget = output_budget(game)
    if size > budget:
        raise TooLargeToShow(game, f"its {what} would be {size:,} bytes", budget)


# --- steps as changes ----------------------------------------------------------------------------

def _same(a: Any, b: Any) -> bool:
    """Equal as JSON values: unlike ``==``, ``1``, ``1.0`` and ``True`` differ (their JSON texts
    do; both tests run in C, which matters: a long game compares every step with the last).

    >>> _same([1, {"a": 2}], [1, {"a": 2}]), _same([1], [True]), _same(1, 1.0)
    (True, False, False)
    """
    return a is b or (a == b and json.dumps(a) == json.dumps(b))


def _changes(old: Any, new: Any, path: list[Any], out: list[list[Any]]) -> None:
    if isinstance(old, dict) and isinstance(new, dict):
        for key, value in new.items():
            if key not in old:
                out.append([[*path, key], value])
            elif not _same(old[key], value):
                _changes(old[key], value, [*path, key], out)
        out.extend([[*path, key]] for key in old if key not in new)
        return
    if isinstance(old, list) and isinstance(new, list) and len(old) == len(new):
        differ = [i for i, (a, b) in enumerate(zip(old, new)) if not _same(a, b)]
        if 2 * len(differ) <= len(new):  # a few places changed: name them; else the whole list
            for i in differ:
                _changes(old[i], new[i], [*path, i], out)
            return
    out.append([list(path), new])


def changes(old: Any, new: Any) -> list[list[Any]]:
    """What turns ``old`` into ``new``: a list of ``[path, value]`` (set the value at ``path``, a
    list of object keys and array indices) and ``[path]`` (remove that key). An object is
    compared key by key, an array of the same length place by place; anything else that
    differs is given whole.

    >>> changes({"x": "P1 plays", "h": [["R5", "G7"], ["B1"]], "t": 5},
    ...         {"x": "P2 draws", "h": [["R5", "G7"], ["B1", "Y2"]]})
    [[['x'], 'P2 draws'], [['h', 1], ['B1', 'Y2']], [['t']]]
    """
    out: list[list[Any]] = []
    if not _same(old, new):
        _changes(old, new, [], out)
    return out


def step_changes(steps: Iterable[dict[str, Any]], limit: int | None = None) -> list[Any]:
    """Steps as sent: the first whole, each later one as :func:`changes` from the one before.
    With ``limit``, ``OverBudget`` as soon as the JSON written passes that many bytes.

    >>> step_changes([{"i": 0, "x": "dealt", "h": [3, 3]}, {"i": 1, "x": "P1 plays", "h": [2, 3]}])
    [{'i': 0, 'x': 'dealt', 'h': [3, 3]}, [[['i'], 1], [['x'], 'P1 plays'], [['h', 0], 2]]]
    """
    out: list[Any] = []
    size = 0
    previous: dict[str, Any] | None = None
    for step in steps:
        item = step if previous is None else changes(previous, step)
        out.append(item)
        previous = step
        if limit is not None:
            size += len(json_bytes(item)) + 1
            if size > limit:
                raise OverBudget(size)
    return out


def full_steps(sent: list[Any]) -> list[Any]:
    """The steps back from :func:`step_changes` (what ``stepper.js`` does for the boards).

    >>> steps = [{"i": 0, "h": [[1], [2]], "t": 4}, {"i": 1, "h": [[1], [2, 5]]}, {"i": 2, "h": [[], [2, 5]]}]
    >>> full_steps(step_changes(steps)) == steps
    True
    """
    out: list[Any] = []
    for n, item in enumerate(sent):
        if n == 0:
            out.append(item)
            continue
        root = {"step": out[-1]}
        for change in item:
            keys = ["step", *change[0]]
            node: Any = root
            for key in keys[:-1]:  # copy what the change goes through: earlier steps stay as they were
                child = node[key]
                node[key] = node = list(child) if isinstance(child, list) else dict(child)
            if len(change) > 1:
                node[keys[-1]] = change[1]
            else:
                del node[keys[-1]]
        out.append(root["step"])
    return out


def build_view(game: ViewedGame, step: int | None = None, perspective: str = "all",
               reveal: bool = False) -> dict[str, Any]:
    """Everything the replay template and the page's JSON need.

    ``step`` is clamped to the game's steps (``None``: the last); a ``perspective`` the game
    does not offer shows all hands; ``reveal`` is an option for boards that read it. The
    embedded steps are sent as changes (:func:`step_changes`); a game over its output budget
    raises ``TooLargeToShow`` (checked before the board builds anything, and as the steps are
    written; the caller checks the finished page with :func:`check_output`).
    """
    budget = check_budget(game, PAGE_STEP_BYTES)
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
    try:
        view["data"]["steps"] = step_changes(view["data"]["steps"], budget)
    except OverBudget as exc:
        raise TooLargeToShow(game, f"its steps would be {exc}", budget) from None
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
    """The JSON twin of a replay page: the judged game, its steps and its players.

    ``steps`` are sent as changes (``steps_format``: ``changes/1``, :func:`step_changes`;
    :func:`full_steps` turns them back into whole steps). A game over its output budget raises
    ``TooLargeToShow``, before its steps are built or as soon as they pass it.
    """
    budget = check_budget(game, JSON_STEP_BYTES)
    replay = game.replay
    board = game.board
    body: dict[str, Any] = {
        "code": game.code,
        "id": game.public_id,
        "path": game.path,
        "names": {s: game.names.get(s) for s in game.seats},
        "started_at": game.started_at,
        **game.extra,
        "replay": replay.to_json(),
        "steps_format": STEPS_FORMAT,
    }
    used = len(json_bytes(body))
    if used > budget:
        raise TooLargeToShow(game, f"its JSON would be {used:,} bytes before its steps", budget)
    try:
        body["steps"] = step_changes(board.steps_json(replay) if board.steps_json else replay.steps_json(),
                                     budget - used)
    except OverBudget as exc:
        raise TooLargeToShow(game, f"its JSON would be {used + exc.size:,} bytes", budget) from None
    return body
