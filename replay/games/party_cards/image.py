"""A round's picture: the game's drawing (``drawing.draw``) of the round's pick, as an
onlooker saw it: the question with the winning answer filled in, the answers with their
authors, the czar and the scores. The same scene is the round's SVG (``round_svg``, which the
viewer's round links serve), the PNG preview of that step and a frame of its animations.

>>> from replay.games.party_cards.bots import play_game
>>> from replay.picture.scene import Text
>>> replay = play_game(seed=7).replay()
>>> scene = round_scene(replay, 2, names={"p3": "Kim"})
>>> [i.text for i in scene.items if isinstance(i, Text) and "scores" in i.text]
['Chi picks answer 3: Kim scores']
>>> round_svg(replay, 1).splitlines()[1][:60]
'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width='


Untrusted texts (card texts, names) are the drawing's: ``replay.picture.svg`` cleans, cuts
and XML-escapes them exactly as the PNG draws them.
"""

from __future__ import annotations

from typing import Any, Mapping

from replay.picture import scene_at
from replay.picture.scene import HEIGHT, WIDTH, Scene
from replay.picture.svg import svg

from .drawing import round_step
from .replay import RoundError

__all__ = ["HEIGHT", "WIDTH", "RoundError", "round_scene", "round_svg"]


def round_scene(replay: Any, round_number: int, names: Mapping[str, str | None] | None = None) -> Scene:
    """The picture of round ``round_number``: the drawing of its pick (its last step when
    the czar never picked) as an onlooker saw it; ``names`` as ``replay.picture.scene_at``
    takes them. Raises ``RoundError`` for a round the game does not have."""
    if not isinstance(round_number, int) or not 1 <= round_number <= replay.rounds:
        raise RoundError(f"round {round_number!r} is not a round of this game (it has {replay.rounds})")
    steps = replay.game.view_steps(replay, None)
    return scene_at(replay, step=round_step(steps, round_number), view="public", names=names)


def round_svg(replay: Any, round_number: int, names: Mapping[str, str | None] | None = None) -> str:
    """The SVG (1200x630) of ``round_scene``."""
    return svg(round_scene(replay, round_number, names))
