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

from markupsafe import Markup

from replay.codec.links import one_line


def meta_text(text: object, most: int | None = None) -> str:
    """``text`` as one line for a title or a meta tag: control and invisible format characters
    dropped, line breaks made spaces, runs of spaces one, and past ``most``
    characters cut with an ellipsis. The template escapes the result; given already escaped
    markup (a ``{% filter %}`` block), it stays markup, uncut (a cut could split an entity)."""
    line = one_line(str(text))  # the characters names in links drop, dropped the same way
    if isinstance(text, Markup):
        return Markup(line)
    if most is not None and len(line) > most:
        line = line[: most - 1].rstrip() + "\u2026"
    return line
