"""UNO Lite's board: both hands (or one seat's), the top discard, the draw pile's size, whose
turn it is and what was drawn; the record of turns; hand sizes and colours played as charts.
The ↑/↓ keys move by turn. Nothing here imports ``replay.games.uno_lite``: the board reads the
judged game's API (``steps_json``, ``findings``, ``winners``, ``turns``).

>>> BOARD.game, BOARD.chapter
('uno-lite', 'turn')
"""

from __future__ import annotations

from typing import Any

from .. import Board
from .charts import build_charts
from .view import board_view, perspectives, title


def _steps_json(replay: Any) -> list[dict[str, Any]]:
    return replay.steps_json()


BOARD = Board(
    game="uno-lite",
    title=title,
    view=board_view,
    charts=build_charts,
    perspectives=perspectives,
    chapter="turn",
    description="step through every turn",
    steps_json=_steps_json,
)
