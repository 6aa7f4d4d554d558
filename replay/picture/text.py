"""Text as the pictures draw it: cleaned of what could hide or reorder it, cut to fit.

>>> clean("Ann\\u202eevil\\x07\\nBo")
'Annevil Bo'
>>> fit("Ann", 20, False, 1000)
'Ann'
>>> fit("x" * 10_000, 20, False, 100).endswith("…")
True
"""

from __future__ import annotations

import unicodedata

from .fonts import measure

#: the longest text drawn, whatever the room: a 10,000-character name costs nothing more
MAX_CHARS = 200
ELLIPSIS = "…"


def clean(text: str) -> str:
    """``text`` without control and format characters (direction overrides and isolates,
    zero-width joiners, bells); line breaks and tabs become spaces."""
    out = []
    for ch in str(text)[:MAX_CHARS * 4]:
        if ch in "\n\r\t":
            out.append(" ")
            continue
        if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn"):
            continue
        out.append(ch)
    return "".join(out)[:MAX_CHARS]


def fit(text: str, size: float, bold: bool, max_width: float | None) -> str:
    """``clean(text)``, cut with an ellipsis to at most ``max_width`` canvas units wide."""
    text = clean(text)
    if max_width is None or measure(text, size, bold) <= max_width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # the longest prefix that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if measure(text[:mid].rstrip() + ELLIPSIS, size, bold) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + ELLIPSIS
