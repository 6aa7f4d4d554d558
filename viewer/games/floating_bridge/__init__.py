"""Floating bridge's board: the table of four hands, the trick, the auction and play tables,
and the per-trick charts. The ↑/↓ keys move by trick.

>>> BOARD.game, BOARD.chapter
('floating-bridge', 'trick')
"""

from __future__ import annotations

from typing import Any

from .. import Board
from .charts import build_charts
from .view import analysis_view, board_view, perspectives, readable_message, title


def _steps_json(replay: Any) -> list[dict[str, Any]]:
    return replay.steps_json()


BOARD = Board(
    game="floating-bridge",
    title=title,
    view=board_view,
    charts=build_charts,
    perspectives=perspectives,
    chapter="trick",
    description="step through the auction and every trick",
    steps_json=_steps_json,
    options=("reveal",),
    finding_text=readable_message,
    # the analysis toggle's JSON (``/g/<id>/analysis.json``): see view.analysis_view
    extra={"analysis": analysis_view},
)
