"""Coup's board: the seats around a table with their coins and influence (face down, or face up
once lost), the current turn's stack (action, block, challenges) and how it resolved, the court
deck's size, the record of turns with every claim marked true or bluff where the view may know
it, and the charts. The ↑/↓ keys move by turn (a turn starts with an action).

A seat's view is built on the server from that seat's steps (``CoupReplay.steps_json(seat)``):
the page and the data it embeds hold no other seat's face-down card.

>>> BOARD.game, BOARD.chapter
('coup', 'turn')
"""

from __future__ import annotations

from typing import Any

from .. import Board
from .charts import build_charts
from .view import board_view, event_text, perspectives, title


def _steps_json(replay: Any) -> list[dict[str, Any]]:
    return replay.steps_json()


BOARD = Board(
    game="coup",
    title=title,
    view=board_view,
    charts=build_charts,
    perspectives=perspectives,
    chapter="turn",
    description="step through every turn, its claims, blocks and challenges",
    steps_json=_steps_json,
    event_text=event_text,
)
