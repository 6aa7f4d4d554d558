"""Texas hold'em's board: an oval table with each seat's name, stack, bet, hole cards (card backs
for cards the view cannot see), the button and the blinds, folded and all-in seats and the seat
to act; the board cards, the pot and the side pots in the middle; the record of the hand street
by street, and each live seat's chance to win. The ↑/↓ keys move by street.

A seat's view is built on the server from that seat's steps (``HoldemReplay.steps_json(seat)``):
the page and the data it embeds hold no other seat's hole card until that seat shows it.

>>> BOARD.game, BOARD.chapter
('holdem', 'street')
"""

from __future__ import annotations

from typing import Any

from .. import Board
from .charts import build_charts
from .view import board_view, event_text, perspectives, title


def _steps_json(replay: Any) -> list[dict[str, Any]]:
    return replay.steps_json()


BOARD = Board(
    game="holdem",
    title=title,
    view=board_view,
    charts=build_charts,
    perspectives=perspectives,
    chapter="street",
    description="step through the hand street by street: bets, pots, cards and each seat's chance to win",
    steps_json=_steps_json,
    event_text=event_text,
)
