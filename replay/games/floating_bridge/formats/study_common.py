"""What the PBN and LIN study formats share: escaping comment text without losing any of it,
rebuilding a game log from a record's calls and cards, and assembling the lines read back into
a ``study/1`` document.

A study's comments are user text: any Unicode, braces, bars, newlines. The bridge formats
allow less (PBN: printing Latin-1 characters, and a ``}`` ends a comment; LIN: a ``|`` ends a
field, a newline ends the record), so both writers escape what their format cannot hold with a
backslash (``\\\\``, ``\\n``, ``\\uXXXX``, ``\\UXXXXXXXX``) and the readers undo it:

>>> escape("a}b\\nc\\\\d ✓", keep=lambda c: c.isascii() and c not in "{}")
'a\\\\u007Db\\\\nc\\\\\\\\d \\\\u2713'
>>> unescape(escape("a}b\\nc\\\\d ✓ ", keep=lambda c: c not in "{}"))
'a}b\\nc\\\\d ✓ '
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

from ....study import GLYPHS, MAX_STUDY_BYTES, NAGS, StudyError, StudyGame
from ..cards import Call, CallParseError, Card, CardParseError, Seat
from ..engine import Game
from ..rules import PRESETS, Rules, RulesError

#: the longest PBN or LIN text read as a study: a study's JSON may have 4 MiB, and escapes
#: (``\\uXXXX`` for one character) make the same text longer in these formats
MAX_TEXT = 8 * MAX_STUDY_BYTES
GLYPH_OF_NAG = {n: g for g, n in NAGS.items()}
#: glyphs, longest first (a suffix ``!!`` is not ``!`` twice)
GLYPHS_LONGEST_FIRST = sorted(GLYPHS, key=len, reverse=True)
_ESCAPE = re.compile(r"\\(?:u([0-9A-Fa-f]{4})|U([0-9A-Fa-f]{8})|(n)|(\\)|(.))", re.S)
_CARD = re.compile(r"[SHDC][2-9TJQKA]")


def escape(text: str, keep: Callable[[str], bool]) -> str:
    """``text`` with every character ``keep`` refuses, every control character, the backslash
    and the text's leading and trailing spaces written as backslash escapes."""
    out: list[str] = []
    last = len(text) - 1
    for n, char in enumerate(text):
        code = ord(char)
        if char == "\\":
            out.append("\\\\")
        elif char == "\n":
            out.append("\\n")
        elif char.isspace() and (n == 0 or n == last):
            out.append(f"\\u{code:04X}")  # readers strip a line's ends
        elif code < 32 or 127 <= code < 160 or not keep(char) or 0xD800 <= code <= 0xDFFF:
            out.append(f"\\u{code:04X}" if code <= 0xFFFF else f"\\U{code:08X}")
        else:
            out.append(char)
    return "".join(out)


def unescape(text: str) -> str:
    """Undo ``escape`` (an unknown escape keeps its character: ``\\x`` reads ``x``)."""
    def one(found: re.Match[str]) -> str:
        if found.group(1) or found.group(2):
            code = int(found.group(1) or found.group(2), 16)
            if code > 0x10FFFF:
                raise StudyError(f"\\U{found.group(2)} is not a character")
            return chr(code)
        if found.group(3):
            return "\n"
        if found.group(4):
            return "\\"
        return found.group(5)
    return _ESCAPE.sub(one, text)


def escape_units(text: str) -> list[str]:
    """An escaped text cut into units that a line break may not split (an escape is one)."""
    return re.findall(r"\\(?:u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|.)|.", text, re.S)


def wrap_escaped(text: str, width: int) -> list[str]:
    """An escaped text in lines of at most ``width`` characters: a line break replaces a single
    space between two other characters (the reader puts the space back), or, where there is no
    such space, the line ends with a ``\\`` (the reader joins it to the next with nothing).

    >>> wrap_escaped("aaaa bbbb cccc", 9)
    ['aaaa', 'bbbb cccc']
    >>> wrap_escaped("abcdefghij", 5)
    ['abcd\\\\', 'efgh\\\\', 'ij']
    >>> join_wrapped(wrap_escaped("aaaa  bbbb cccccccccccc", 7)) == "aaaa  bbbb cccccccccccc"
    True
    >>> wrap_escaped("abcdefgh  ij", 9)
    ['abcdefgh\\\\', '\\\\u0020 ij']
    """
    units = escape_units(text)
    lines: list[str] = []
    start, count = 0, len(units)
    while start < count:
        used, stop, space = 0, start, None
        while stop < count and (used + len(units[stop]) <= width or stop == start):
            used += len(units[stop])
            if (units[stop] == " " and start < stop < count - 1
                    and not units[stop - 1].isspace() and not units[stop + 1].isspace()):
                space = stop
            stop += 1
        if stop == count:
            lines.append("".join(units[start:]))
            break
        if space is not None:
            lines.append("".join(units[start:space]))
            start = space + 1
            continue
        while stop > start + 1 and sum(map(len, units[start:stop])) + 1 > width:
            stop -= 1  # room for the line's closing backslash
        lines.append("".join(units[start:stop]) + "\\")
        start = stop
        if units[start].isspace():
            units[start] = f"\\u{ord(units[start]):04X}"  # a line's first space would be lost to readers that strip lines
    return lines or [""]


def join_wrapped(lines: list[str]) -> str:
    """Undo ``wrap_escaped`` (the text stays escaped)."""
    out = ""
    for n, line in enumerate(lines):
        trailing = len(line) - len(line.rstrip("\\"))
        if trailing % 2 == 1 and n < len(lines) - 1:
            out += line[:-1]
        else:
            out += line + (" " if n < len(lines) - 1 else "")
    return out


def glyph_prefix(glyph: str | None) -> str:
    return f"${NAGS[glyph]}" if glyph else ""


def split_glyph_suffix(token: str) -> tuple[str, str | None]:
    """``1S!?`` -> (``1S``, ``!?``): a call or card with PBN's suffix annotation."""
    for glyph in GLYPHS_LONGEST_FIRST:
        if token.endswith(glyph) and len(token) > len(glyph):
            return token[:-len(glyph)], glyph
    return token, None


def glyph_of_nag(text: str, where: str) -> str:
    number = int(text[1:])
    if number not in GLYPH_OF_NAG:
        raise StudyError(f"{where}: NAG {text} has no glyph here (only $1-$6: "
                         + ", ".join(f"${n} {g}" for g, n in NAGS.items()) + ")")
    return GLYPH_OF_NAG[number]


def rules_from_name(name: str, where: str) -> Any:
    """``Rules.name`` back to the log's ``rules`` field (``bridgebot+play_all_tricks``)."""
    name = name.strip()
    if not name:
        return "bridgebot"
    preset = next((p for p in sorted(PRESETS, key=len, reverse=True) if name.startswith(p)), None)
    if preset is None:
        raise StudyError(f"{where}: {name[:60]!r} is not a rule set of floating bridge "
                         f"(known presets: {', '.join(sorted(PRESETS))})")
    spec: dict[str, Any] = {"preset": preset}
    rest = name[len(preset):]
    for found in re.finditer(r"([+-])([a-z_]+)(?:=(\d+))?|(.)", rest):
        if found.group(4) is not None:
            raise StudyError(f"{where}: cannot read the rules {name[:60]!r}")
        spec[found.group(2)] = int(found.group(3)) if found.group(3) else found.group(1) == "+"
    try:
        rules = Rules.from_spec(spec)
    except RulesError as exc:
        raise StudyError(f"{where}: {exc}") from None
    return rules.to_spec()


def parse_card(text: str, where: str) -> Card:
    if not _CARD.fullmatch(text.upper()):
        raise StudyError(f"{where}: {text[:20]!r} is not a card (suit S, H, D or C, then a rank 2-9, T, J, Q, K or A)")
    try:
        return Card.parse(text)
    except CardParseError:
        raise StudyError(f"{where}: {text[:20]!r} is not a card") from None


def parse_call(text: str, where: str) -> Call:
    if text.upper() in ("X", "XX", "D", "R", "DBL", "RDBL"):
        raise StudyError(f"{where}: {text!r} is a double or redouble: floating bridge has none, "
                         "so this is not a floating bridge game")
    try:
        return Call.parse(text)
    except CallParseError:
        raise StudyError(f"{where}: {text[:20]!r} is not a call (Pass or a bid such as 1S, 3NT)") from None


@dataclass
class GameRecord:
    """One game as a record holds it, on its way to a log: the deal, the calls, the partner
    card, the cards, and the notes by step."""

    where: str
    hands: dict[str, list[str]]
    first_bidder: Seat
    rules: Any = "bridgebot"
    game_id: str | None = None
    started_at: str | None = None
    names: dict[str, str] = field(default_factory=dict)
    end_reason: str | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    notes: dict[int, dict[str, Any]] = field(default_factory=dict)  # step -> {comment, glyph}
    line: str = "main"
    parent: str | None = None
    at: int | None = None
    title: str = ""
    pending: tuple[str, str | None] | None = None  # a note read before the step it belongs to

    def engine(self) -> Game:
        rules = Rules.from_spec(self.rules)
        hands = [[Card.parse(c) for c in self.hands[s.name]] for s in Seat]
        game = Game(hands, self.first_bidder, rules)
        game.check_deal()
        return game

    def add_note(self, step: int, comment: str | None = None, glyph: str | None = None) -> None:
        note = self.notes.setdefault(step, {"comment": "", "glyph": None})
        if comment:
            note["comment"] = f"{note['comment']}\n\n{comment}" if note["comment"] else comment
        if glyph:
            note["glyph"] = glyph

    def log_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"format": "floating-bridge/1", "first_bidder": self.first_bidder.name,
                                "hands": self.hands, "rules": self.rules, "events": self.events}
        if self.game_id:
            data["game_id"] = self.game_id
        if self.started_at:
            data["started_at"] = self.started_at
        players = {seat: {"name": name} for seat, name in self.names.items() if name}
        if players:
            data["players"] = players
        if self.end_reason:
            data["end"] = {"reason": self.end_reason}
        return data


def deal_hands(deal: str, where: str) -> tuple[dict[str, list[str]], Seat]:
    """PBN's ``N:hand hand hand hand`` (spades.hearts.diamonds.clubs, clockwise from the seat
    named) -> hands by seat, and that seat."""
    found = re.fullmatch(r"\s*([NESWnesw]):(.*)", deal)
    if not found:
        raise StudyError(f"{where}: the Deal tag {deal[:80]!r} is not 'N:hand hand hand hand'")
    first = Seat.parse(found.group(1))
    hands = found.group(2).split()
    if len(hands) != 4 or any(h.count(".") != 3 for h in hands):
        raise StudyError(f"{where}: the Deal tag must give all four hands (spades.hearts.diamonds.clubs each), "
                         f"not {deal[:80]!r}")
    out: dict[str, list[str]] = {}
    for n, hand in enumerate(hands):
        seat = Seat((first + n) & 3)
        cards = []
        for suit, ranks in zip("SHDC", hand.split(".")):
            for rank in ranks.upper():
                cards.append(str(parse_card(suit + rank, f"{where}, {seat.name}'s hand")))
        out[seat.name] = cards
    hands = {s.name: out[s.name] for s in Seat}
    check_hands(hands, where)
    return hands, first


def check_hands(hands: dict[str, list[str]], where: str) -> None:
    """Four hands of 13 cards, every card once: a deal a study can be made of."""
    for seat, cards in hands.items():
        if len(cards) != 13:
            raise StudyError(f"{where}: {Seat.parse(seat).full_name} holds {len(cards)} cards, not 13")
    seen: set[str] = set()
    for cards in hands.values():
        for card in cards:
            if card in seen:
                raise StudyError(f"{where}: {card} is dealt twice")
            seen.add(card)


def assemble(records: list[GameRecord], title: str) -> dict[str, Any]:
    """The lines read back (the game as played first, then each branch after its parent) ->
    a checked ``study/1`` document as JSON."""
    if not records:
        raise StudyError("there is no game in this file")
    main = records[0]
    if main.line != "main":
        raise StudyError(f"{main.where}: the first game must be the game as played (line main), not {main.line!r}")
    events = {"main": main.events}
    branches = []
    for record in records[1:]:
        if record.line in events:
            raise StudyError(f"{record.where}: there are two games of line {record.line!r}")
        if record.parent not in events:
            raise StudyError(f"{record.where}: line {record.line!r} leaves line {record.parent!r}, "
                             "which is not a game before it in the file")
        if record.hands != main.hands or record.first_bidder != main.first_bidder:
            raise StudyError(f"{record.where}: line {record.line!r} is not the same deal as the game as played")
        at = record.at or 0
        kept = events[record.parent][:at]
        if record.events[:at] != kept or len(kept) != at:
            raise StudyError(f"{record.where}: line {record.line!r} should repeat the first {at} steps "
                             f"of line {record.parent!r} before it leaves it, and does not")
        moves = record.events[at:]
        if not moves:
            raise StudyError(f"{record.where}: line {record.line!r} has no move of its own after step {at}")
        events[record.line] = record.events
        branches.append({"id": record.line, "parent": record.parent, "at": at, "moves": moves,
                         "title": record.title})
    notes = []
    for record in records:
        for step, note in sorted(record.notes.items()):
            if record.line != "main" and step <= (record.at or 0):
                continue  # a branch's shared steps are its parent's: their notes are there
            notes.append({"line": record.line, "step": step, "comment": note["comment"], "glyph": note["glyph"]})
    data = {"format": "study/1", "title": title, "game": "floating-bridge/1", "log": main.log_json(),
            "source": {"kind": "file", "ref": None}, "branches": branches, "notes": notes}
    return StudyGame.load(data).to_json()


def owned_notes(study: StudyGame, line_id: str) -> dict[int, Any]:
    """The notes that belong to ``line_id`` itself (not those of the steps it shares with its parent)."""
    return {step: note for step, note in study.notes(line_id).items() if study.owner(line_id, step) == line_id}


def event_steps(study: StudyGame, line_id: str) -> dict[int, int]:
    """For a line: the index of each log event that made a step -> that step."""
    line = study.line(line_id)
    made = study.game.step_events(line.replay)
    return {index: step for step, index in enumerate(made) if index is not None}
