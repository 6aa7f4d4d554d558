"""Party Cards' board: round by round, the question with each submission's answers in its
blanks (in the order the czar saw them), the czar's pick and the scoreboard; one seat's view
(its hand, submissions without authors until the pick); the score race and the wins per seat
as charts. The ↑/↓ keys move by round. Every round has its own link (``?round=N#round-N``:
Open Graph tags for chat previews of that round only) and its picture (``routes``: the
round's SVG). Nothing here imports ``replay.games.party_cards`` at import time: the board reads
the judged game's API (``steps_json``, ``round_record``, ``findings``, ``winners``, ``rounds``).

>>> BOARD.game, BOARD.chapter, [rule for rule, _ in BOARD.routes]
('party-cards', 'round', ['/r/<code>/round/<n>.svg', '/g/<public_id>/round/<n>.svg', '/u/<token>/round/<n>.svg'])
"""

from __future__ import annotations

from typing import Any

from .. import Board
from .charts import build_charts
from .routes import ROUTES
from .view import board_view, perspectives, title


def _steps_json(replay: Any) -> list[dict[str, Any]]:
    return replay.steps_json()


BOARD = Board(
    game="party-cards",
    title=title,
    view=board_view,
    charts=build_charts,
    perspectives=perspectives,
    chapter="round",
    description="step through every round: the question, the answers as the czar saw them, the pick and the scores",
    steps_json=_steps_json,
    routes=ROUTES,
    parameters=("round",),
)
