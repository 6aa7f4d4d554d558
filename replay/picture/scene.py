"""What a game draws: a scene of plain shapes on a 1200x630 canvas, drawn by ``replay.picture``.

A game's drawing (``GameModule.draw``) turns the steps it may see into a :class:`Scene`; the
same scene becomes the PNG of a link preview, a frame of a GIF or MP4 (at a smaller scale) and
the SVG the pages show, so the three never disagree. Shapes are frozen and hashable: two
frames are compared shape by shape, and only the shapes that changed are drawn again.

Coordinates are in the canvas's units (1200 wide, 630 high: the size chat apps preview), the
origin at the top left. Colours are ``#rrggbb``. Text is whatever the log says (players' names,
card texts): the renderers clean it (no control or direction-override characters) and cut it
to ``max_width`` with an ellipsis, with the real fonts' metrics, the same cut in PNG and SVG.

>>> scene = Scene(items=(Rect(0, 0, 100, 50, fill="#ffffff"), Text(50, 25, "Ann", 20, anchor="mm")))
>>> scene.width, scene.height, len(scene.items)
(1200, 630, 2)
>>> Rect(0, 0, 1, 1) == Rect(0, 0, 1, 1), len({Rect(0, 0, 1, 1), Rect(0, 0, 1, 1)})
(True, 1)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Union

WIDTH, HEIGHT = 1200, 630
#: the colours every game's drawing shares (a game may use its own as well)
BACKGROUND = "#14532d"   # the table's felt
INK = "#ffffff"          # text on the felt
MUTED = "#a7c4b5"        # secondary text on the felt
PANEL = "#0b3b20"        # name plates, the header bar
HIGHLIGHT = "#ffd23f"    # the seat to act, the winner, the card just played
CARD = "#ffffff"         # a card's face
CARD_EDGE = "#1f2937"
CARD_BACK = "#1d4ed8"    # a card's back
RED = "#c81e1e"          # hearts and diamonds
BLACK = "#111827"        # spades and clubs


@dataclass(frozen=True, slots=True)
class Rect:
    """A rectangle, its corners rounded by ``radius``; no fill or no stroke when ``None``."""
    x: float
    y: float
    w: float
    h: float
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 1
    radius: float = 0


@dataclass(frozen=True, slots=True)
class Circle:
    """A circle around (``x``, ``y``)."""
    x: float
    y: float
    r: float
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 1


@dataclass(frozen=True, slots=True)
class Line:
    x1: float
    y1: float
    x2: float
    y2: float
    stroke: str = INK
    stroke_width: float = 2


@dataclass(frozen=True, slots=True)
class Text:
    """One line of text at (``x``, ``y``). ``anchor`` is two letters, as Pillow's: where the
    point is across (``l`` left, ``m`` middle, ``r`` right) and down (``t`` top, ``m`` middle,
    ``b`` bottom of the line box); ``size`` is the font's size in canvas units. A text wider
    than ``max_width`` is cut and ends with ``…``."""
    x: float
    y: float
    text: str
    size: float
    fill: str = INK
    anchor: str = "lt"
    bold: bool = False
    max_width: float | None = None


Item = Union[Rect, Circle, Line, Text]


@dataclass(frozen=True, slots=True)
class Scene:
    """A picture: a background and shapes drawn in order (later ones over earlier ones)."""
    items: tuple[Item, ...] = ()
    background: str = BACKGROUND
    width: int = WIDTH
    height: int = HEIGHT
    #: a one-line description of the picture (the image's ``alt`` text and ``og:image:alt``)
    alt: str = ""


@dataclass(frozen=True, slots=True)
class Table:
    """What a drawing knows beside the steps: the game's title, the seats in table order,
    each seat's name as the page shows it (a seat with no name is shown by its seat), and the
    view the steps are seen from (``None``: every card open, ``PUBLIC``: an onlooker's, else
    a seat)."""
    title: str
    seats: tuple[str, ...]
    names: Mapping[str, str] = field(default_factory=dict)
    view: str | None = None

    def name(self, seat: str) -> str:
        """``seat``'s player's name, or the seat itself.

        >>> Table("UNO Lite", ("P1", "P2"), {"P1": "Ann"}).name("P2")
        'P2'
        """
        return self.names.get(seat) or seat


#: the view of an onlooker: what every seat sees (a hidden card is hidden from everybody)
PUBLIC = "\x00public"
