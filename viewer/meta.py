"""What a page says about itself outside its body: the ``<title>``, the description and the
Open Graph and Twitter tags link previews read.

Those are one line of plain text, made of untrusted names and card texts, that a tab or a chat
app shows with no markup and often no bidi isolation. ``meta_text`` is the one function every
one of them goes through (``base.html``'s title, ``_shell.html``'s ``social`` macro, the boards'
own preview texts): a right-to-left override in a player's name must not turn the title about.

>>> meta_text("Game: \\u202eAnn\\u202c, Bo\\nJr\\x00,  Cy")
'Game: Ann, Bo Jr, Cy'
>>> meta_text("a" * 10, 6)
'aaaaa\\u2026'
"""

from __future__ import annotations

import re

from markupsafe import Markup

#: dropped: control characters that are not spaces (C0, DEL, C1) and invisible format
#: characters (zero-width spaces and joiners, direction marks, bidi embeddings, overrides and
#: isolates, word joiners, the byte order mark); tabs, line breaks and line and paragraph
#: separators are spaces (``str.split`` takes them)
_DROPPED = re.compile("[\x00-\x08\x0e-\x1b\x7f-\x84\x86-\x9f\u200b-\u200f\u202a-\u202e"
                      "\u2060-\u2064\u2066-\u2069\ufeff]")


def meta_text(text: object, most: int | None = None) -> str:
    """``text`` as one line for a title or a meta tag: control and invisible format characters
    dropped, line breaks made spaces, runs of spaces one, and past ``most``
    characters cut with an ellipsis. The template escapes the result; given already escaped
    markup (a ``{% filter %}`` block), it stays markup, uncut (a cut could split an entity)."""
    line = " ".join(_DROPPED.sub("", str(text)).split())
    if isinstance(text, Markup):
        return Markup(line)
    if most is not None and len(line) > most:
        line = line[: most - 1].rstrip() + "\u2026"
    return line
