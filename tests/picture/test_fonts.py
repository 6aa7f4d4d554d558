"""The bundled fonts: every script the issue names is drawn with real glyphs, from files in
``replay/picture/fonts`` only, and the coverage table tells the truth about the files."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont

from replay.picture import fonts
from replay.picture.render import Raster
from replay.picture.scene import Scene, Text

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = {
    "Latin": "Zoë Ångström", "Cyrillic": "Андрей Ёжиков", "Greek": "Ωμέγα Αλφα", "suits": "♠♥♦♣",
    "Chinese (simplified)": "王小明", "Chinese (traditional)": "陳國華", "Japanese": "さくら 山田", "katakana": "サクラ",
    "Korean": "김민준", "full-width": "ＡＢＣ１２３",
}


def picture(text: str, bold: bool = False) -> bytes:
    scene = Scene(items=(Text(10, 10, text, 40, bold=bold),), background="#000000")
    return Raster(1.0).draw(scene)[0].crop((0, 0, 600, 80)).tobytes()


def glyph(typeface: ImageFont.FreeTypeFont, ch: str) -> bytes:
    image = Image.new("L", (64, 64))
    ImageDraw.Draw(image).text((12, 12), ch, font=typeface, fill=255)
    return image.tobytes()


@pytest.mark.parametrize("script", sorted(SCRIPTS))
@pytest.mark.parametrize("bold", [False, True])
def test_every_script_named_in_the_issue_draws_real_glyphs(script: str, bold: bool) -> None:
    name = SCRIPTS[script]
    assert all(chunk.find(fonts.REPLACEMENT) < 0 for _, chunk in fonts.runs(name, bold))
    drawn = picture(name, bold)
    assert drawn != picture("", bold)                                  # it drew something
    assert drawn != picture(fonts.REPLACEMENT * len(name), bold)       # and not replacement marks


def test_cjk_characters_are_distinct_glyphs_not_boxes() -> None:
    glyphs = {picture(ch) for ch in "王小明さ김陳"}
    assert len(glyphs) == 6
    assert picture("王") != picture("\U00020000")  # a rare hanzi outside the subset: replaced


def test_what_no_font_has_becomes_one_replacement_each() -> None:
    assert fonts.runs("ก\U0001F600x", False) == [(fonts.REGULAR, "\ufffd\ufffdx")]
    assert picture("ก") == picture("\ufffd") == picture("\U0001F600")


def test_a_mark_stays_with_its_letter() -> None:
    assert fonts.runs("か\u3099", False) == [(fonts.CJK, "か\u3099")]  # the kana voicing mark
    assert fonts.runs("王\u0301", False) == [(fonts.CJK, "王"), (fonts.REGULAR, "\u0301")]  # not in the subset
    assert fonts.runs("a\u0301", True) == [(fonts.BOLD, "a\u0301")]


def test_the_coverage_table_matches_the_files() -> None:
    """A sample of what the table says each file has is drawn by that file, not as .notdef."""
    table = json.loads((fonts.FOLDER / "coverage.json").read_text())["fonts"]
    assert set(table) == {fonts.REGULAR, fonts.BOLD, fonts.CJK}
    rng = random.Random(27)
    for name, spans in table.items():
        typeface = fonts.face(name, 32)
        notdef = glyph(typeface, "\ue000")  # a private-use character: no font has it
        points = [cp for a, b in spans for cp in range(a, b + 1)
                  if unicodedata.category(chr(cp))[0] in "LNPS"]
        for cp in rng.sample(points, 300):
            assert glyph(typeface, chr(cp)) != notdef, f"{name} has no glyph for U+{cp:04X}"
    assert fonts.pick("\u4e00", False) == fonts.CJK and fonts.pick("\U0002A700", False) is None


def test_sizes_of_the_bundled_files() -> None:
    sizes = {p.name: p.stat().st_size for p in fonts.FOLDER.iterdir() if p.suffix in (".ttf", ".otf")}
    assert set(sizes) == {fonts.REGULAR, fonts.BOLD, fonts.CJK}
    assert sum(sizes.values()) < 4_000_000, sizes
    for licence in ("LICENSE-DejaVu.txt", "LICENSE-NotoSansCJK.txt"):
        assert "Copyright" in (fonts.FOLDER / licence).read_text()


OPENS = r"""
import sys, json
opened = []
sys.addaudithook(lambda event, args: opened.append(str(args[0])) if event == "open" and isinstance(args[0], (str, bytes)) else None)
from replay.picture import fonts
from replay.picture.render import png
from replay.picture.scene import Scene, Text
png(Scene(items=tuple(Text(10, 40 * n, name, 30, bold=n % 2 == 1) for n, name in enumerate(sys.argv[1:]))))
faces = [fonts.face(name, 20).path for name in (fonts.REGULAR, fonts.BOLD, fonts.CJK)]
print(json.dumps({"opened": opened, "faces": faces}))
"""


def test_fonts_are_read_only_from_the_bundled_folder() -> None:
    done = subprocess.run([sys.executable, "-c", OPENS, *SCRIPTS.values()], capture_output=True, text=True,
                          cwd=ROOT, check=True, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    report = json.loads(done.stdout)
    folder = str(fonts.FOLDER)
    font_files = [p for p in report["opened"] if p.endswith((".ttf", ".otf", ".ttc", ".json", ".pcf", ".pil"))]
    assert any(p.endswith("coverage.json") for p in font_files)
    assert all(p.startswith(folder) for p in font_files), font_files
    assert all(Path(p).parent == fonts.FOLDER for p in report["faces"])
    source = (fonts.FOLDER / "__init__.py").read_text()
    assert "/usr/share" not in source and "fontTools" not in source
    with pytest.raises(ValueError, match="not a bundled font"):
        fonts.face("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 20)
