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


def _trick_note(replay: Any, event: Any, step: int | None) -> tuple[str, bool] | None:
    """A trick announcement in the triage timeline: the winner the bot announced beside the
    one the engine worked out."""
    if getattr(event, "type", None) != "trick":
        return None
    announced = getattr(event.winner, "name", str(event.winner))
    winner = getattr(replay.steps[step], "trick_winner", None) if step is not None else None
    computed = None if winner is None else getattr(winner, "name", str(winner))
    text = f"announces {announced} won the trick; engine: {computed or 'no trick finished'}"
    return text, computed != announced


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
    timeline_note=_trick_note,
    # the analysis toggle's JSON (``/g/<id>/analysis.json``): see view.analysis_view
    extra={"analysis": analysis_view},
)
