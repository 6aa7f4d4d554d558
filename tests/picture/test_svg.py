"""The SVG of a scene: a well-formed SVG 1.1 document, hostile text escaped, cut as the PNG."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from hypothesis import given, settings, strategies as st

from replay.picture.fonts import font
from replay.picture.scene import Circle, Line, Rect, Scene, Text
from replay.picture.svg import svg
from replay.picture.text import fit

NS = "{http://www.w3.org/2000/svg}"
TAGS = {NS + t for t in ("svg", "title", "rect", "g", "text", "circle", "line")}


@settings(max_examples=300, deadline=None)
@given(name=st.text(max_size=300), alt=st.text(max_size=100), max_width=st.none() | st.floats(0, 600))
def test_any_text_gives_a_document_that_parses_and_says_the_cut_text(name: str, alt: str, max_width) -> None:
    scene = Scene(items=(Text(600, 300, name, 20, anchor="mm", max_width=max_width),
                         Rect(0, 0, 10, 10, fill="#ffffff")), alt=alt)
    root = ET.fromstring(svg(scene).encode("utf-8"))
    assert root.tag == NS + "svg" and {e.tag for e in root.iter()} <= TAGS
    texts = [e for e in root.iter(NS + "text")]
    cut = fit(name, 20, False, max_width)
    if cut:
        assert [e.text for e in texts] == [cut]
    else:
        assert texts == []


def test_hostile_markup_stays_text() -> None:
    name = '</text><script>alert(1)</script><text x="0">&amp;\u202e"\''
    doc = svg(Scene(items=(Text(10, 10, name, 20),), alt=name))
    assert "<script" not in doc and "\u202e" not in doc
    root = ET.fromstring(doc)
    assert root.find(NS + "title").text == name.replace("\u202e", "")
    assert [e.text for e in root.iter(NS + "text")] == [name.replace("\u202e", "")]
    assert not list(root.iter(NS + "script"))


def test_the_document_and_its_shapes() -> None:
    doc = svg(Scene(items=(Rect(10, 20, 100, 50, fill="#ffffff", stroke="#000000", stroke_width=4, radius=8),
                           Circle(300, 300, 40, fill="#ff0000"), Line(0, 0, 100, 100, stroke="#ffd23f"),
                           Text(600, 28, "Trick 3", 22, anchor="rm", bold=True),
                           Text(600, 100, "x" * 1000, 22, anchor="mt", max_width=200))))
    root = ET.fromstring(doc)
    assert (root.get("width"), root.get("height"), root.get("viewBox"), root.get("version")) == (
        "1200", "630", "0 0 1200 630", "1.1")
    rect = root.findall(f".//{NS}rect")[1]  # after the background
    # the stroke inside the outline, as Pillow draws it
    assert (rect.get("x"), rect.get("y"), rect.get("width"), rect.get("height"), rect.get("rx")) == (
        "12", "22", "96", "46", "6")
    assert root.find(f".//{NS}circle").get("r") == "40"
    assert root.find(f".//{NS}line").get("stroke") == "#ffd23f"
    first, second = root.findall(f".//{NS}text")
    ascent, descent = font(22, True).getmetrics()
    assert first.get("text-anchor") == "end" and float(first.get("y")) == 28 + (ascent - descent) / 2
    assert first.get("font-weight") == "bold"
    assert second.get("text-anchor") == "middle" and second.text == fit("x" * 1000, 22, False, 200)
    assert second.text.endswith("…")
    family = root.find(f"{NS}g").get("font-family")
    assert family.startswith("'DejaVu Sans'") and "Noto Sans CJK" in family and family.endswith("sans-serif")
