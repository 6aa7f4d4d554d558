"""Finding the code (and the optional player names) in whatever text a user pastes.

Names are positional: ``players=`` lists them in the game's own seat order (its seats, or
those its log lists for a game whose tables vary), an empty entry for an unnamed seat; a link
may leave trailing unnamed seats off. More names than the game has seats is refused
(``NamesError``): those names belong to another game.

>>> parse_link("https://replays.example/r/Babc?players=Ann,Bo%2C%20Jr,,Dee")
('Babc', ('Ann', 'Bo, Jr', '', 'Dee'))
>>> parse_link("https://old.example/#0DzH-y-m")[0]
'0DzH-y-m'
>>> format_names({"N": "Ann", "E": "Bo, Jr", "W": "Dee"}, ("N", "E", "S", "W"))
'Ann,Bo%2C%20Jr,,Dee'
>>> names_by_seat(("1", "2", "3"), ("Ann", "", "Cy"))
{'1': 'Ann', '3': 'Cy'}
>>> names_by_seat(("A", "B"), ("Ann", "Bo", "Cy"))
Traceback (most recent call last):
...
replay.codec.links.NamesError: the link names 3 players but this game has 2 seats (A, B): the names do not fit this game
"""

from __future__ import annotations

__all__ = ["MAX_NAME_LENGTH", "NAMES_PARAMETER", "NamesError", "clean_name", "format_names", "names_by_seat",
           "one_line", "parse_link", "parse_names"]

from typing import Mapping, Sequence
from urllib.parse import quote, unquote, urlsplit

from ..text import MAX_NAME_LENGTH, clean_name, one_line
from .errors import CodeError

#: The query parameter that carries player names: ``players=A,B,...`` in the game's seat
#: order, each name percent-encoded (so a comma inside a name is ``%2C``), empty for an
#: unnamed seat.
NAMES_PARAMETER = "players"
MAX_LINK_LENGTH = 20000



class NamesError(CodeError):
    """A link's ``players`` that cannot belong to its game (more names than seats)."""


def format_names(names: Mapping[str, str | None], seats: Sequence[str]) -> str:
    """The ``players`` value for names by seat, in the game's seat order ``seats`` (empty for an
    unnamed seat, trailing unnamed seats left off)."""
    parts = [quote(clean_name(names.get(seat) or ""), safe="") for seat in seats]
    while parts and not parts[-1]:
        parts.pop()
    value = ",".join(parts)
    # a link's last character, were it a full stop, would be read as the end of a sentence
    # (``parse_link`` trims it): the only one ``quote`` leaves bare is escaped
    return value[:-1] + "%2E" if value.endswith(".") else value


def parse_names(value: str) -> tuple[str, ...]:
    """Names in seat order from a raw (still percent-encoded) ``players`` value: ``""`` for an
    unnamed seat, trailing unnamed seats left off."""
    names = [clean_name(unquote(part.replace("+", " "), errors="replace")) for part in value.split(",")]
    while names and not names[-1]:
        names.pop()
    return tuple(names)


def names_from_query(query: str) -> tuple[str, ...]:
    """Names from a link's raw query string (its ``players=...`` parameter), in seat order."""
    for item in query.split("&"):
        key, _, value = item.partition("=")
        if key == NAMES_PARAMETER:
            return parse_names(value)
    return ()


def names_by_seat(seats: Sequence[str], names: Sequence[str]) -> dict[str, str]:
    """Positional names (a link's) by the game's seats, unnamed seats left out; ``NamesError``
    when there are more names than seats (trailing empty entries do not count)."""
    names = list(names)
    while names and not clean_name(names[-1]):
        names.pop()
    if len(names) > len(seats):
        raise NamesError(f"the link names {len(names)} players but this game has {len(seats)} seat"
                         f"{'' if len(seats) == 1 else 's'} ({', '.join(seats)}): the names do not fit this game")
    by_seat = {}
    for seat, name in zip(seats, names):
        name = clean_name(name)
        if name:
            by_seat[seat] = name
    return by_seat


def parse_link(text: object) -> tuple[str, tuple[str, ...]]:
    """``(code, names)`` from a bare code, ``#code``, ``code?players=...`` or a full link; the
    names are positional (the game's seat order), ``()`` when the link gives none.

    Links may be new (``https://host/r/<code>``) or the legacy viewer's (``https://host/#<code>``).
    Raises ``CodeError`` when there is no code to be found.
    """
    if not isinstance(text, str):
        raise CodeError(f"a code must be text, not {type(text).__name__}")
    if text.isascii() and text.isalnum():  # the common case: a bare code
        return text, ()
    text = text.strip().strip("<>\"'").rstrip(".,;:!?)]}")
    if not text:
        raise CodeError("empty input: no code in it")
    if len(text) > MAX_LINK_LENGTH:
        raise CodeError(f"too long for a replay code or link ({len(text)} characters)")
    if text.endswith("#"):
        text = text.rstrip("#")  # an empty fragment: the code is in the path
    if "#" in text:
        before, _, fragment = text.partition("#")
        names = names_from_query(before.partition("?")[2]) if "?" in before else ()
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
