"""Text as the pictures draw it: cleaned of what could hide or reorder it, cut to fit.

A name comes from a log: it may hold markup (drawn as the characters it is), 10,000
characters (only the first ``MAX_CHARS * 4`` are ever looked at, and at most ``MAX_CHARS``
drawn), direction overrides (removed: text is never reordered by a control character) or a
flood of combining marks (at most ``MAX_MARKS`` after a letter).

>>> clean("Ann\\u202eevil\\x07\\nBo")
'Annevil Bo'
>>> clean("<b>Z\\u0301\\u0302\\u0303\\u0304\\u0305</b>") == "<b>\\u0179\\u0302\\u0303\\u0304</b>"
True
>>> fit("Ann", 20, False, 1000)
'Ann'
>>> fit("x" * 10_000, 20, False, 100)
'xxxxxx…'
>>> fit("Ann", 20, False, 3)
''
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from .fonts import measure

#: the longest text drawn, whatever the room: a 10,000-character name costs nothing more
MAX_CHARS = 200
#: the most combining marks kept after one letter (Vietnamese stacks two, pointed Hebrew three)
MAX_MARKS = 3
ELLIPSIS = "…"
#: letters that draw nothing (hangul fillers, the blank braille pattern) and variation
#: selectors: a name made of them would look empty
_INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e" + "".join(map(chr, range(0xFE00, 0xFE10))))
_DROP = frozenset(("Cc", "Cf", "Cs", "Co", "Cn"))
_SPACE = frozenset("\n\r\t\v\f\x85\u2028\u2029")


@lru_cache(maxsize=4096)
def clean(text: str) -> str:
    """``text`` without control and format characters (direction overrides, embeddings,
    isolates and marks, zero-width joiners, bells, private-use and unassigned code points),
    invisible fillers and variation selectors; line breaks and tabs become spaces; composed
    (NFC); at most ``MAX_MARKS`` combining marks after a letter; at most ``MAX_CHARS`` long.

    >>> clean("a\\u2066b\\u2069\\u200fc\\ufe0f")
    'abc'
    """
    out: list[str] = []
    for ch in str(text)[:MAX_CHARS * 4]:
        if ch in _SPACE:
            out.append(" ")
        elif ch not in _INVISIBLE and unicodedata.category(ch) not in _DROP and not 0xE0100 <= ord(ch) <= 0xE01EF:
            out.append(ch)
    kept: list[str] = []
    marks = 0
    for ch in unicodedata.normalize("NFC", "".join(out)):
        if unicodedata.category(ch)[0] == "M":
            marks += 1
            if marks > MAX_MARKS:
                continue
        else:
            marks = 0
        kept.append(ch)
        if len(kept) == MAX_CHARS:
            break
    return "".join(kept)


@lru_cache(maxsize=4096)
def fit(text: str, size: float, bold: bool, max_width: float | None) -> str:
    """``clean(text)``, cut with an ellipsis to at most ``max_width`` canvas units wide (by
    the bundled fonts' metrics at ``size``, as drawn); ``""`` when not even ``…`` fits."""
    text = clean(text)
    if max_width is None or measure(text, size, bold) <= max_width:
        return text
    if measure(ELLIPSIS, size, bold) > max_width:
        return ""
    lo, hi = 0, len(text) - 1
    while lo < hi:  # the longest prefix that fits with the ellipsis (lo always fits)
        mid = (lo + hi + 1) // 2
        if measure(text[:mid].rstrip() + ELLIPSIS, size, bold) <= max_width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + ELLIPSIS
