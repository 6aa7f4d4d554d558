"""Finding the code (and the optional player names) in whatever text a user pastes.

>>> parse_link("https://replays.example/r/Babc?players=Ann,Bo%2C%20Jr,,Dee")
('Babc', {'N': 'Ann', 'E': 'Bo, Jr', 'W': 'Dee'})
>>> parse_link("https://old.example/#0DzH-y-m")[0]
'0DzH-y-m'
>>> format_names({"N": "Ann", "E": "Bo, Jr", "W": "Dee"})
'Ann,Bo%2C%20Jr,,Dee'
"""

from __future__ import annotations

import re
from typing import Mapping
from urllib.parse import quote, unquote, urlsplit

from .errors import CodeError

#: The query parameter that carries player names: ``players=N,E,S,W``, each name
#: percent-encoded (so a comma inside a name is ``%2C``), empty for an unnamed seat.
NAMES_PARAMETER = "players"
SEAT_LETTERS = ("N", "E", "S", "W")
MAX_LINK_LENGTH = 20000
MAX_NAME_LENGTH = 200
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def format_names(names: Mapping[str, str], seats: "tuple[str, ...]" = SEAT_LETTERS) -> str:
    """The ``players`` value for names by seat, in the game's seat order (trailing empty seats
    left off). Names are positional: another game's seats take the places N, E, S, W hold."""
    parts = [quote(names.get(seat) or "", safe="") for seat in seats]
    while parts and not parts[-1]:
        parts.pop()
    return ",".join(parts)


def parse_names(value: str) -> dict[str, str]:
    """Names by seat letter from a raw (still percent-encoded) ``players`` value."""
    names = {}
    for seat, part in zip(SEAT_LETTERS, value.split(",")):
        name = _CONTROL.sub("", unquote(part.replace("+", " "), errors="replace")).strip()
        if name:
            names[seat] = name[:MAX_NAME_LENGTH]
    return names


def names_from_query(query: str) -> dict[str, str]:
    """Names from a link's raw query string (its ``players=N,E,S,W`` parameter)."""
    for item in query.split("&"):
        key, _, value = item.partition("=")
        if key == NAMES_PARAMETER:
            return parse_names(value)
    return {}


def parse_link(text: object) -> tuple[str, dict[str, str]]:
    """``(code, names)`` from a bare code, ``#code``, ``code?players=...`` or a full link.

    Links may be new (``https://host/r/<code>``) or the legacy viewer's (``https://host/#<code>``).
    Raises ``CodeError`` when there is no code to be found.
    """
    if not isinstance(text, str):
        raise CodeError(f"a code must be text, not {type(text).__name__}")
    if text.isascii() and text.isalnum():  # the common case: a bare code
        return text, {}
    text = text.strip().strip("<>\"'").rstrip(".,;:!?)]}")
    if not text:
        raise CodeError("empty input: no code in it")
    if len(text) > MAX_LINK_LENGTH:
        raise CodeError(f"too long for a replay code or link ({len(text)} characters)")
    if text.endswith("#"):
        text = text.rstrip("#")  # an empty fragment: the code is in the path
    if "#" in text:
        before, _, fragment = text.partition("#")
        names = names_from_query(before.partition("?")[2]) if "?" in before else {}
        code, _, frag_query = fragment.partition("?")
        if frag_query:
            names = names or names_from_query(frag_query)
        return _checked(code.strip(), "after '#'"), names
    if "/" in text or "://" in text:
        try:
            parts = urlsplit(text)
        except ValueError as exc:
            raise CodeError(f"not a link: {exc}") from None
        segments = [s for s in parts.path.split("/") if s]
        if len(segments) >= 2 and segments[-2] == "r":
            return _checked(segments[-1], "after /r/"), names_from_query(parts.query)
        raise CodeError("no code in this link: expected .../r/<code> or a legacy .../#<code>")
    code, _, query = text.partition("?")
    return _checked(code, ""), names_from_query(query)


def _checked(code: str, where: str) -> str:
    if not code:
        raise CodeError(f"no code {where} in this link".replace("  ", " "))
    return code
