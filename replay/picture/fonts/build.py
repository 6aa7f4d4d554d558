"""Builds the bundled fonts: subsets of Debian's DejaVu Sans and Noto Sans CJK, their licences
and the coverage table the pictures read at run time.

Run it from the project's root (fontTools is needed here only, never at run time)::

    python -m replay.picture.fonts.build   # reads /usr/share/fonts (Debian's
                                           # fonts-dejavu-core and fonts-noto-cjk)

What goes in:

- ``DejaVuSans.ttf`` and ``DejaVuSans-Bold.ttf``: the Latin, Greek, Cyrillic, Armenian,
  Georgian, Hebrew and Arabic letters DejaVu Sans has, the combining marks, punctuation,
  currency, letter-like signs, arrows, mathematical operators, box drawing, geometric shapes,
  the miscellaneous symbols (the card suits ``♠♥♦♣♤♡♢♧``) and dingbats; the hinting
  instructions are dropped (FreeType's auto-hinter draws them as well at these sizes).
- ``NotoSansCJKsc-Regular.otf``: the Simplified Chinese face of Noto Sans CJK (``SC``, number
  2 of the collection), cut to the hanzi of GB 2312 level 1, Big5 level 1 (the common
  traditional ones), the level-1 kanji of JIS X 0208, the 2,350 hangul syllables of KS X 1001,
  hiragana, katakana, bopomofo, CJK punctuation and the full- and half-width forms. One face
  serves Chinese, Japanese and Korean (a kanji or hanja is drawn in its Chinese form: the
  regional variants, the ``locl`` feature, are left out, as are the vertical metrics and the
  hinting); bold CJK text is drawn with it too.

``coverage.json`` lists, for each file, the code point ranges its character map covers, so
``replay.picture.fonts`` picks a font character by character without fontTools.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
NOTO = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
NOTO_FACE = 2  # Noto Sans CJK SC in Debian's collection (0 JP, 1 KR, 2 SC, 3 TC, 4 HK)
LICENCES = {"LICENSE-DejaVu.txt": Path("/usr/share/doc/fonts-dejavu-core/copyright"),
            "LICENSE-NotoSansCJK.txt": Path("/usr/share/doc/fonts-noto-cjk/copyright")}

#: the blocks kept from DejaVu Sans (whatever of them it has)
DEJAVU_BLOCKS = [
    (0x0020, 0x007E), (0x00A0, 0x024F),  # Latin, Latin-1, Latin Extended-A and -B
    (0x0250, 0x036F),                    # IPA, spacing modifiers, combining diacritical marks
    (0x0370, 0x03FF), (0x1F00, 0x1FFF),  # Greek and Coptic, Greek Extended
    (0x0400, 0x052F), (0x2DE0, 0x2DFF), (0xA640, 0xA69F),  # Cyrillic and its supplements
    (0x0530, 0x058F), (0x10A0, 0x10FF), (0x2D00, 0x2D2F),  # Armenian, Georgian
    (0x0590, 0x05FF), (0x0600, 0x06FF),  # Hebrew, Arabic
    (0x1D00, 0x1DFF), (0x1E00, 0x1EFF), (0x2C60, 0x2C7F), (0xA720, 0xA7FF),  # more Latin
    (0x2000, 0x2BFF),  # punctuation, currency, letter-like, arrows, maths, box drawing,
                       # geometric shapes, miscellaneous symbols (the suits), dingbats
    (0xFB00, 0xFB4F), (0xFB50, 0xFDFF), (0xFE70, 0xFEFF),  # presentation forms
    (0xFE20, 0xFE2F), (0xFFF9, 0xFFFD),  # half marks, the replacement character
]


def cjk_characters() -> set[int]:
    """The CJK code points kept: the national standards' common sets, kana, hangul, forms."""
    keep: set[int] = set()

    def decode(codec: str, first: range, second: range) -> None:
        for a in first:
            for b in second:
                try:
                    ch = bytes((a, b)).decode(codec)
                except UnicodeDecodeError:
                    continue
                if len(ch) == 1:
                    keep.add(ord(ch))

    decode("gb2312", range(0xB0, 0xD8), range(0xA1, 0xFF))   # GB 2312 level 1 (rows 16-55)
    decode("big5", range(0xA4, 0xC6), range(0x40, 0xFF))     # Big5 level 1 (A440-C67E)
    decode("big5", range(0xC6, 0xC7), range(0x40, 0x7F))
    decode("euc_jp", range(0xB0, 0xD0), range(0xA1, 0xFF))   # JIS X 0208 level 1 (rows 16-47)
    decode("euc_kr", range(0xB0, 0xC9), range(0xA1, 0xFF))   # KS X 1001 hangul (rows 16-40)
    keep = {cp for cp in keep if 0x3400 <= cp <= 0x9FFF or 0xAC00 <= cp <= 0xD7A3}
    for lo, hi in [(0x3000, 0x303F), (0x3040, 0x309F), (0x30A0, 0x30FF), (0x3100, 0x312F),
                   (0x3130, 0x318F), (0x31F0, 0x31FF), (0xFF00, 0xFFEF)]:
        keep.update(range(lo, hi + 1))
    return keep


def ranges(codepoints: set[int]) -> list[list[int]]:
    """Sorted code points as inclusive ``[first, last]`` ranges.

    >>> ranges({1, 2, 3, 7, 9, 10})
    [[1, 3], [7, 7], [9, 10]]
    """
    out: list[list[int]] = []
    for cp in sorted(codepoints):
        if out and out[-1][1] == cp - 1:
            out[-1][1] = cp
        else:
            out.append([cp, cp])
    return out


def subset(source: Path, target: Path, unicodes: set[int], face: int = 0, features: list[str] | None = None,
           drop: tuple[str, ...] = ()) -> list[list[int]]:
    """Writes the subset of ``source`` (face ``face`` of a collection) to ``target``, without
    hinting, keeping the OpenType ``features`` (all when ``None``) and dropping the tables
    ``drop``; returns the ranges of its character map."""
    from fontTools import subset as ftsubset
    from fontTools.ttLib import TTFont

    font = TTFont(str(source), fontNumber=face, lazy=False)
    have = set(font.getBestCmap())
    options = ftsubset.Options()
    options.hinting = False
    options.desubroutinize = False
    options.name_IDs = ["*"]           # keep the names: the copyright and licence notices
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.drop_tables += ["DSIG", "FFTM", *drop]
    options.layout_features = ["*"] if features is None else features
    subsetter = ftsubset.Subsetter(options)
    subsetter.populate(unicodes=sorted(unicodes & have))
    subsetter.subset(font)
    font.recalcTimestamp = False  # the same sources give the same bytes
    font.save(str(target))
    return ranges(set(TTFont(str(target)).getBestCmap()))


def dejavu_characters() -> set[int]:
    keep: set[int] = set()
    for lo, hi in DEJAVU_BLOCKS:
        keep.update(range(lo, hi + 1))
    return keep


def build(out: Path = HERE) -> dict:
    """Writes the fonts, licences and ``coverage.json`` into ``out``; returns the table."""
    table: dict = {"about": "code point ranges (inclusive) each bundled font file covers; "
                            "written by python -m replay.picture.fonts.build", "fonts": {}}
    for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"):
        table["fonts"][name] = subset(DEJAVU / name, out / name, dejavu_characters())
    table["fonts"]["NotoSansCJKsc-Regular.otf"] = subset(NOTO, out / "NotoSansCJKsc-Regular.otf",
                                                         cjk_characters(), face=NOTO_FACE,
                                                         features=["kern", "halt", "palt"],
                                                         drop=("vhea", "vmtx", "VORG", "vert"))
    for name, source in LICENCES.items():
        shutil.copyfile(source, out / name)
    (out / "coverage.json").write_text(json.dumps(table, separators=(",", ":")) + "\n")
    return table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m replay.picture.fonts.build", description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=HERE, help="where to write (default: beside this script)")
    args = parser.parse_args(argv)
    table = build(args.out)
    for name, spans in table["fonts"].items():
        path = args.out / name
        count = sum(b - a + 1 for a, b in spans)
        digest = hashlib.sha256(path.read_bytes()).hexdigest()[:12]
        print(f"{name}: {path.stat().st_size:,} bytes, {count:,} characters, sha256 {digest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
