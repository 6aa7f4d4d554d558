"""The board of a game that brings none: its steps as text, the record of steps and each seat's
view (``Replay.steps_json(seat)``). Any registered game gets working pages with it (a replay
page, a seat view, an embed, the JSON twin); a game draws its own table by declaring a board
package (``GameModule.board``).

>>> from replay.games import get
>>> board = generic_board("uno-lite")
>>> board.game, board.chapter == get("uno-lite").chapter, board.charts(None)
('uno-lite', True, [])
"""

from __future__ import annotations

from typing import Any

from replay.games import get

from ..games import Board, log_names, seat_label


def _seats(replay: Any) -> list[str]:
    return [str(s) for s in replay.game.seat_order(replay.log)]


def _steps(replay: Any, seat: str | None = None) -> list[dict[str, Any]]:
    """Each step as the page's script reads it: the replay's own JSON, its text as ``x``."""
    return [{**step, "x": step.get("text", "")} for step in replay.steps_json(seat)]


def _perspectives(replay: Any) -> list[tuple[str, str]]:
    names = log_names(replay)
    return [("all", "Whole table"), *((seat, seat_label(names, seat)) for seat in _seats(replay))]


def _title(game: Any) -> str:
    return f"{game.replay.game.title}: {game.replay.game.describe(game.replay)}"


def _view(game: Any, index: int, perspective: str, options: dict[str, Any]) -> dict[str, Any]:
    replay = game.replay
    steps = _steps(replay, None if perspective == "all" else perspective)
    chapter = replay.game.chapter
    names = {**log_names(replay), **{k: v for k, v in game.names.items() if v}}
    ends = [n for n, s in enumerate(steps) if s.get("kind") == chapter]
    return {
        "step": {"text": steps[index]["x"] if steps else ""},
        "record": [{"i": n, "text": s["x"], "seat": seat_label(names, s.get("seat"))} for n, s in enumerate(steps)],
        "players": [{"seat": seat, "name": names.get(seat) or ""} for seat in _seats(replay)],
        "data": {"steps": steps, "chapters": {"ends": ends, "before": 0 if ends else None}},
    }


def generic_board(name: str) -> Board:
    """The generic board for the registered game ``name``."""
    game = get(name)
    return Board(game=name, title=_title, view=_view, charts=lambda replay: [], perspectives=_perspectives,
                 chapter=game.chapter, description="step through the game", steps_json=_steps)
