"""Text as players' names and page titles carry it: one line, no invisible characters.

>>> clean_name("  Ann\\u200b\\n Lee ")
'Ann Lee'
"""

from __future__ import annotations

import re

MAX_NAME_LENGTH = 200
#: what a name (and a page title: ``viewer.meta``) never keeps: control characters that are not
#: spaces (C0, DEL, C1) and invisible format characters (zero-width spaces and joiners, direction
#: marks, bidi embeddings, overrides and isolates, word joiners, the byte order mark); tabs,
#: line breaks and line and paragraph separators are spaces (``str.split`` takes them)
_DROPPED = re.compile("[\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f\u200b-\u200f\u202a-\u202e"
                      "\u2060-\u2064\u2066-\u2069\ufeff]")


def one_line(text: str) -> str:
    """``text`` as one line of plain text: control and invisible format characters dropped,
    line breaks made spaces, runs of spaces one, none at either end.

    >>> one_line("\\u202eAnn\\u202c\\x00 Lee\\nX ")
    'Ann Lee X'
    """
    return " ".join(_DROPPED.sub("", text).split())


def clean_name(text: str) -> str:
    """A name as links carry it: ``one_line``, at most ``MAX_NAME_LENGTH`` characters ("" when
    nothing is left: an unnamed seat). Cleaning a clean name changes nothing."""
    return one_line(text)[:MAX_NAME_LENGTH].rstrip()
