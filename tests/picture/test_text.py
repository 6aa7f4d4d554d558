"""Text as drawn: cleaned, capped, and cut to fit by the same runs the raster draws."""

from __future__ import annotations

import unicodedata

from hypothesis import given, settings, strategies as st

from replay.picture.fonts import measure
from replay.picture.render import Raster
from replay.picture.scene import Scene, Text
from replay.picture.text import ELLIPSIS, MAX_CHARS, MAX_MARKS, clean, fit

BIDI = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"


@settings(max_examples=400, deadline=None)
@given(text=st.text(max_size=300), size=st.floats(min_value=4, max_value=80), bold=st.booleans(),
       max_width=st.floats(min_value=0, max_value=1200))
def test_fit_never_exceeds_max_width(text: str, size: float, bold: bool, max_width: float) -> None:
    cut = fit(text, size, bold, max_width)
    assert measure(cut, size, bold) <= max_width
    whole = clean(text)
    assert cut in (whole, "") or (cut.endswith(ELLIPSIS) and whole.startswith(cut[:-1].rstrip()))
    assert len(cut) <= MAX_CHARS + 1


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=400))
def test_clean_leaves_nothing_that_reorders_or_hides(text: str) -> None:
    out = clean(text)
    assert len(out) <= MAX_CHARS
    assert not any(unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") for ch in out)
    assert not any(ch in BIDI for ch in out)
    run = 0
    for ch in out:
        run = run + 1 if unicodedata.category(ch)[0] == "M" else 0
        assert run <= MAX_MARKS
    assert clean(out) == out  # cleaning twice changes nothing


def draw(text: str, max_width: float | None = 300) -> bytes:
    scene = Scene(items=(Text(20, 20, text, 24, max_width=max_width),), background="#000000")
    return Raster(1.0).draw(scene)[0].tobytes()


def test_a_ten_thousand_character_name_is_cut_to_fit() -> None:
    for name in ("x" * 10_000, "王" * 10_000, "Ж\u0301" * 5_000, "<b>" * 3_000):
        cut = fit(name, 24, False, 300)
        assert cut.endswith(ELLIPSIS) and measure(cut, 24, False) <= 300
        assert len(clean(name)) <= MAX_CHARS
    assert fit("Ж" + "\u0301" * 10_000, 24, False, None) == "Ж" + "\u0301" * MAX_MARKS


def test_direction_overrides_are_stripped_not_obeyed() -> None:
    assert clean("\u202eevil\u202c") == "evil" and clean("\u2067abc\u2069") == "abc"
    assert draw("\u202eevil\u202c") == draw("evil")
    assert draw("\u202eevil") != draw("live")


def test_markup_is_just_text() -> None:
    assert clean("<script>alert(1)</script>") == "<script>alert(1)</script>"
    assert fit("<b>&amp;</b>", 20, False, None) == "<b>&amp;</b>"


def test_line_breaks_become_spaces_and_fillers_go() -> None:
    assert clean("a\nb\r\nc\td\u2028e") == "a b  c d e"
    assert clean("\u3164\u3164") == "" and clean("♥\ufe0f") == "♥"


def test_nothing_fits_in_no_room() -> None:
    assert fit("Ann", 20, False, 0) == "" and fit("", 20, False, 0) == ""
    assert draw("Ann", max_width=0) == draw("")
