"""The fonts pictures are drawn with (a first version: the machine's DejaVu Sans; the bundled,
subset fonts replace it).

>>> measure("Ann", 20, False) > 0
True
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

_DIR = Path("/usr/share/fonts/truetype/dejavu")
_FILES = {False: _DIR / "DejaVuSans.ttf", True: _DIR / "DejaVuSans-Bold.ttf"}


@lru_cache(maxsize=256)
def font(size: float, bold: bool) -> ImageFont.FreeTypeFont:
    """The font for ``size`` pixels (rounded), regular or bold."""
    return ImageFont.truetype(str(_FILES[bool(bold)]), max(1, round(size)))


def measure(text: str, size: float, bold: bool) -> float:
    """How wide ``text`` is at ``size``, in the same units."""
    return font(size, bold).getlength(text)
