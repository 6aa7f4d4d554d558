"""The fonts pictures are drawn with: bundled, subset files in this folder, nothing else.

Three files (made by ``python -m replay.picture.fonts.build`` from Debian's fonts-dejavu-core
and fonts-noto-cjk; their licences beside them):

- ``DejaVuSans.ttf``, ``DejaVuSans-Bold.ttf``: Latin, Greek, Cyrillic, Armenian, Georgian,
  Hebrew and Arabic letters, combining marks, punctuation, currency, arrows, maths, box
  drawing, geometric shapes and the miscellaneous symbols (the card suits ``♠♥♦♣``);
- ``NotoSansCJKsc-Regular.otf``: the common hanzi, kanji and hanja (GB 2312 level 1, Big5
  level 1, JIS X 0208 level 1), the 2,350 hangul syllables of KS X 1001, kana, bopomofo, CJK
  punctuation and full-width forms; regular only (bold CJK text is drawn regular).

Each character is drawn with the first font of the chain (bold: DejaVu Sans Bold, DejaVu
Sans, Noto; regular: DejaVu Sans, Noto) whose coverage table (``coverage.json``) has it. A
combining mark stays with the font of the letter before it when that font has it. A character
no bundled font has is drawn as ``�`` (U+FFFD REPLACEMENT CHARACTER, from DejaVu Sans): not
covered are, among others, the Indic scripts, Thai, Lao, Khmer, Ethiopic, emoji beyond
DejaVu's few symbols, the rarer hanzi/kanji/hanja (outside the three national level-1 sets)
and the 8,822 modern hangul syllables KS X 1001 leaves out.

>>> [(font_name, chunk) for font_name, chunk in runs("Ann 王♠ Ёж", bold=True)]
[('DejaVuSans-Bold.ttf', 'Ann '), ('NotoSansCJKsc-Regular.otf', '王'), ('DejaVuSans-Bold.ttf', '♠ Ёж')]
>>> runs("\\U0001F0A1x", bold=False)  # a playing-card emoji: no bundled font has it
[('DejaVuSans.ttf', '�x')]
>>> measure("Ann", 20, False) > 0, measure("", 20, False)
(True, 0.0)
"""

from __future__ import annotations

import json
import unicodedata
from bisect import bisect_right
from functools import lru_cache
from pathlib import Path

from PIL import ImageFont, features

#: where the bundled fonts are: the only place fonts are read from
FOLDER = Path(__file__).resolve().parent
REGULAR, BOLD, CJK = "DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "NotoSansCJKsc-Regular.otf"
#: the fonts tried, in order, for regular and for bold text
CHAINS: dict[bool, tuple[str, ...]] = {False: (REGULAR, CJK), True: (BOLD, REGULAR, CJK)}
#: what a character no bundled font has is drawn as
REPLACEMENT = "\ufffd"
#: the font families the SVG names, in the same order, then the generic family
FAMILIES = ("DejaVu Sans", "Noto Sans CJK SC", "sans-serif")

#: libraqm shapes text when Pillow has it (it does in the wheels and in Debian's build): marks
#: are placed on their letters by the fonts' own positioning, Arabic letters join, hangul jamo
#: compose, and right-to-left letters are shown right to left; text is always laid out from a
#: left-to-right paragraph direction, so a name never flips the line (and clean() already
#: removed every character that could reorder it). Without libraqm, the basic layout draws
#: the same text letter after letter.
LAYOUT = ImageFont.Layout.RAQM if features.check("raqm") else ImageFont.Layout.BASIC
DIRECTION = "ltr" if LAYOUT == ImageFont.Layout.RAQM else None


class _Coverage:
    """Which code points each bundled file has, from ``coverage.json`` (built with the fonts)."""

    def __init__(self, table: dict[str, list[list[int]]]):
        self.starts = {name: [a for a, _ in spans] for name, spans in table.items()}
        self.ends = {name: [b for _, b in spans] for name, spans in table.items()}

    def has(self, name: str, cp: int) -> bool:
        n = bisect_right(self.starts[name], cp) - 1
        return n >= 0 and cp <= self.ends[name][n]


_coverage = _Coverage(json.loads((FOLDER / "coverage.json").read_text("utf-8"))["fonts"])


@lru_cache(maxsize=8192)
def pick(ch: str, bold: bool) -> str | None:
    """The bundled file that draws ``ch`` (``None``: none does).

    >>> pick("ж", False), pick("ж", True), pick("한", True), pick("\\u0e01", False)
    ('DejaVuSans.ttf', 'DejaVuSans-Bold.ttf', 'NotoSansCJKsc-Regular.otf', None)
    """
    cp = ord(ch)
    for name in CHAINS[bool(bold)]:
        if _coverage.has(name, cp):
            return name
    return None


@lru_cache(maxsize=4096)
def runs(text: str, bold: bool) -> list[tuple[str, str]]:
    """``text`` split into runs of characters drawn with the same file: ``(file, chunk)``,
    characters no file has replaced by ``REPLACEMENT``. Measuring and drawing both use these."""
    out: list[tuple[str, str]] = []
    name: str | None = None
    chunk: list[str] = []
    primary = CHAINS[bool(bold)][0]
    for ch in text:
        if name is not None and unicodedata.combining(ch) and _coverage.has(name, ord(ch)):
            chunk.append(ch)  # a mark stays with its letter's font
            continue
        have = pick(ch, bold)
        if have is None:
            have, ch = primary, REPLACEMENT
        if have != name and chunk:
            out.append((name, "".join(chunk)))  # type: ignore[arg-type]
            chunk = []
        name = have
        chunk.append(ch)
    if chunk:
        out.append((name, "".join(chunk)))  # type: ignore[arg-type]
    return out


@lru_cache(maxsize=512)
def face(name: str, size: float) -> ImageFont.FreeTypeFont:
    """The bundled file ``name`` at ``size`` pixels (sizes are kept to a 1/64 pixel)."""
    if name not in (REGULAR, BOLD, CJK):
        raise ValueError(f"not a bundled font: {name!r}")
    return ImageFont.truetype(str(FOLDER / name), max(1.0, size), layout_engine=LAYOUT)


def font(size: float, bold: bool) -> ImageFont.FreeTypeFont:
    """The main font (DejaVu Sans, regular or bold) at ``size`` pixels: the one whose ascender
    and descender place every run of a line."""
    return face(CHAINS[bool(bold)][0], _size(size))


def _size(size: float) -> float:
    return round(max(1.0, float(size)) * 64) / 64


@lru_cache(maxsize=16384)
def _length(name: str, size: float, chunk: str) -> float:
    return face(name, size).getlength(chunk, direction=DIRECTION)


def measure(text: str, size: float, bold: bool) -> float:
    """How wide ``text`` is drawn at ``size`` (in the same units): the sum of its runs."""
    size = _size(size)
    return float(sum(_length(name, size, chunk) for name, chunk in runs(text, bool(bold))))


def widths(text: str, size: float, bold: bool) -> list[tuple[str, str, float]]:
    """``runs(text, bold)`` with each run's width at ``size``: ``(file, chunk, width)``."""
    size = _size(size)
    return [(name, chunk, _length(name, size, chunk)) for name, chunk in runs(text, bool(bold))]
