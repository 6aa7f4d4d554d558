"""A floating bridge study as LIN (BBO's records) with ``nt`` commentary, and LIN read back as a study.

``write(study)`` writes each line of the study as one LIN record (one line of the file): the
game as played first, exactly as the LIN export writes it (``lin.to_lin``), then each what-if
branch as a board of its own (``ah|Board 2|``...). A note is an ``nt|...|`` right after the
``mb|`` (call) or ``pc|`` (card) of its step, as BBO's Handviewer shows commentary; the deal's
note (step 0) is an ``nt`` before the first call, the partner call's one after the export's own
note (the one naming the partner card, the rules and the end). A glyph starts the note's text
(``nt|?! Better to duck|``). The study's title is the first record's ``vg|``; a branch's record
starts with ``nt|What-if line b1 (from line main after step 20): title|``.

The text keeps BBO's conventions: ``♠♥♦♣`` are written ``!S !H !D !C``; what a LIN field cannot
hold is escaped (``study_common.escape``: a ``|`` as ``\\u007C``, a line break as ``\\n``, a
``!`` before a suit letter as ``\\u0021``), so nothing is lost.

``read(text)`` reads that back, and LIN records of floating bridge games with ``nt``/``an``
commentary (``an`` explains a call: it is read as that call's note). LIN has no field for the
partner card: a record without the export's note naming it cannot hold a game that was played
past the auction, and is refused with a ``StudyError``, as are doubles and several unrelated boards.

>>> from replay.games import get
>>> from replay.study import StudyGame
>>> study = StudyGame.new(get("floating-bridge").selfplay(seed=7), title="Ducking")
>>> study = study.with_note("main", 3, comment="Too high | ♠ here", glyph="?")
>>> text = write(study)
>>> "|nt|? Too high \\\\u007C !S here|" in text
True
>>> back = StudyGame.load(read(text))
>>> back.note("main", 3).comment, back.note("main", 3).glyph, back.study.title
('Too high | ♠ here', '?', 'Ducking')
"""

from __future__ import annotations

import re
from typing import Any

from ....study import MAIN, StudyError, StudyGame
from ..cards import Seat
from .lin import LIN_ORDER, to_lin
from .study_common import (GLYPHS_LONGEST_FIRST, MAX_TEXT, GameRecord, assemble, check_hands, escape, event_steps,
                           owned_notes, parse_call, parse_card, rules_from_name, unescape)

NAME = "lin"
SUFFIX = ".lin"
MEDIA_TYPE = "application/x-bridge-lin"
_SUITS = {"♠": "!S", "♥": "!H", "♦": "!D", "♣": "!C"}
_SUIT_OF = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_INFO = re.compile(r"Floating bridge\W+rules (\S+)")
_HEADER = re.compile(r"What-if line ([a-z][a-z0-9]{0,15}) \(from line ([a-z][a-z0-9]{0,15}) after step (\d+)\)(?:: (.*))?", re.S)
_GLYPH = re.compile(r"(" + "|".join(re.escape(g) for g in GLYPHS_LONGEST_FIRST) + r")(?: |$)")
_KEY = re.compile(r"[a-zA-Z]{2}")


def lin_text(text: str) -> str:
    """User text as a LIN field: escaped, suit symbols as BBO writes them.

    >>> lin_text("a|b ♥ !S\\nc")
    'a\\\\u007Cb !H \\\\u0021S\\\\nc'
    """
    text = escape(text, lambda c: c != "|")
    text = re.sub(r"!(?=[SHDCshdc])", r"\\u0021", text)
    return "".join(_SUITS.get(c, c) for c in text)


def from_lin_text(text: str) -> str:
    """Undo ``lin_text``: ``!S`` is ``♠`` (BBO's convention), then the escapes."""
    return unescape(re.sub(r"!([SHDCshdc])", lambda m: _SUIT_OF[m.group(1).upper()], text))


def _note_text(note: Any) -> str:
    text = lin_text(note.comment)
    if text[:1] in ("!", "?") or _INFO.match(text) or _HEADER.match(text):
        text = f"\\u{ord(text[0]):04X}" + text[1:]
    if note.glyph:
        return f"{note.glyph} {text}" if text else note.glyph
    return text


def _pairs(record: str) -> list[tuple[str, str]]:
    parts = record.strip().split("|")
    if parts and parts[-1] == "":
        parts = parts[:-1]
    if len(parts) % 2:
        parts.append("")
    return list(zip(parts[::2], parts[1::2]))


def _record(study: StudyGame, line_id: str, board: int) -> str:
    line = study.line(line_id)
    notes = owned_notes(study, line_id)
    steps = event_steps(study, line_id)
    pairs = _pairs(to_lin(line.log, board))
    actions = [(i, e) for i, e in enumerate(line.log.events) if e.type in ("bid", "play")]
    partner_step = next((steps[i] for i, e in enumerate(line.log.events) if e.type == "partner" and i in steps), None)
    out: list[tuple[str, str]] = []
    done = 0  # calls and cards written so far
    head_done = False
    for key, value in pairs:
        if key in ("mb", "pc") and not head_done:
            head_done = True
            if line_id == MAIN:
                if 0 in notes:
                    out.append(("nt", _note_text(notes[0])))
            else:
                header = f"What-if line {line_id} (from line {line.parent} after step {line.at})"
                out.append(("nt", header + (f": {lin_text(line.title)}" if line.title else "")))
        if key == "ah" and line_id == MAIN and study.study.title:
            out.append(("vg", lin_text(study.study.title).replace(",", "\\u002C")))
        out.append((key, value))
        if key in ("mb", "pc"):
            index, _ = actions[done]
            done += 1
            note = notes.get(steps.get(index, -1))
            if note is not None:
                out.append(("nt", _note_text(note)))
        if key == "nt" and value.startswith("Floating bridge") and partner_step in notes:
            out.append(("nt", _note_text(notes[partner_step])))
    return "|".join(f"{k}|{v}" for k, v in out) + "|\n"


def write(study: StudyGame) -> str:
    """The study as LIN: one record (line) per line of the study, the game as played first."""
    return "".join(_record(study, line_id, board) for board, line_id in enumerate(study.line_ids, start=1))


def looks_like(text: str) -> bool:
    """Whether ``text`` is LIN (records of ``key|value|`` pairs with a deal, ``md``).

    >>> looks_like("pn|a,b,c,d|st||md|3SAK..."), looks_like('[Deal "N:..."]')
    (True, False)
    """
    start = text.lstrip()[:4096]
    return bool(re.match(r"[a-zA-Z]{2}\|", start)) and bool(re.search(r"(?:^|\|)md\|\d", start))


# --- reading -------------------------------------------------------------------------------------

def _hands(value: str, where: str) -> tuple[dict[str, list[str]], Seat]:
    """``md|3SAK..HQ..,S...,S...,`` (dealer digit, hands from South) -> hands by seat, first bidder."""
    if not value[:1] in "1234" or not value[:1]:
        raise StudyError(f"{where}: md|{value[:20]}| does not start with the dealer (1-4: South, West, North, East)")
    first = LIN_ORDER[int(value[0]) - 1]
    hands_text = value[1:].split(",")
    hands: dict[str, list[str]] = {}
    for seat, text in zip(LIN_ORDER, hands_text):
        cards: list[str] = []
        suit = None
        for char in text.strip().upper():
            if char in "SHDC":
                suit = char
            elif suit is None:
                raise StudyError(f"{where}: {seat.full_name}'s hand {text[:30]!r} is not a LIN hand (SAKH...)")
            else:
                cards.append(str(parse_card(suit + ("T" if char == "1" else char), f"{where}, {seat.full_name}'s hand")))
        if cards:
            hands[seat.name] = cards
    given = [s for s in LIN_ORDER if s.name in hands]
    if len(given) == 3:
        missing = next(s for s in LIN_ORDER if s.name not in hands)
        held = {c for cards in hands.values() for c in cards}
        hands[missing.name] = [str(parse_card(s + r, where)) for s in "SHDC" for r in "AKQJT98765432" if s + r not in held]
    if len(hands) != 4:
        raise StudyError(f"{where}: the deal (md) must give the four hands of 13 cards (or three of them)")
    hands = {s.name: hands[s.name] for s in Seat}
    check_hands(hands, where)
    return hands, first


def _read_record(record_text: str, number: int) -> tuple[GameRecord, str]:
    where = f"board {number}"
    pairs = _pairs(record_text)
    keys = dict(pairs)
    for key, _ in pairs:
        if not _KEY.fullmatch(key):
            raise StudyError(f"{where}: {key[:20]!r} is not a LIN key (two letters before a '|')")
    if "md" not in keys:
        raise StudyError(f"{where}: there is no deal (md|...|)")
    hands, first = _hands(keys["md"], where)
    info = next((v for k, v in pairs if k == "nt" and _INFO.match(v)), None)
    rules: Any = "bridgebot"
    partner_card = None
    end = None
    if info is not None:
        rules = rules_from_name(_INFO.match(info).group(1).rstrip(";"), f"{where}, the note naming the rules")
        found = re.search(r"partner card ([SHDC][2-9TJQKA]) held by", info)
        partner_card = parse_card(found.group(1), where) if found else None
        found = re.search(r"end: (completed|passed_out|cancelled|timeout|abandoned)", info)
        end = found.group(1) if found else None
    record = GameRecord(where=where, hands=hands, first_bidder=first, rules=rules, end_reason=end)
    names = keys.get("pn", "").split(",")
    for seat, name in zip(LIN_ORDER, names):
        if name.strip():
            record.names[seat.name] = name.strip()
    title = ""
    vg = keys.get("vg")
    if vg is not None:
        title = from_lin_text(vg.split(",")[0]).strip() if info is None else from_lin_text(vg)
    state = record.engine()
    seen_action = False
    after_info = False
    for key, value in pairs:
        if key == "nt" and value == info:
            after_info = True
            continue
        if key == "nt" and not seen_action and number > 1:
            header = _HEADER.fullmatch(value)
            if header is None:
                raise StudyError(f"{where}: a study is one game and its what-if lines, and this board is not one "
                                 "of its lines (no 'What-if line ...' note before its first call)")
            record.line, record.parent, record.at = header.group(1), header.group(2), int(header.group(3))
            record.title = from_lin_text(header.group(4) or "")
            seen_action = True  # the header is this record's step 0
            continue
        if key in ("nt", "an"):
            glyph = None
            found = _GLYPH.match(value)
            if found:
                glyph = found.group(1)
                value = value[found.end():]
            if after_info and state.phase == "partner" and partner_card is not None:
                record.pending = (from_lin_text(value), glyph)  # the partner call's note: added with it
                continue
            step = len(record.events)
            record.add_note(step, from_lin_text(value), glyph)
            continue
        if key == "mb":
            call = parse_call(value.rstrip("!"), f"{where}, mb|{value[:10]}|")
            seat = state.to_act
            if seat is None or state.phase != "auction":
                raise StudyError(f"{where}: mb|{value}| after the end of the auction")
            record.events.append({"type": "bid", "seat": seat.name, "bid": str(call)})
            if state.push_call(seat, call, len(record.events)) and state.stopped:
                raise StudyError(f"{where}: call {len(record.events)} breaks the rules: a study reads games that keep them")
            seen_action = True
            continue
        if key == "pc":
            card = parse_card(value, f"{where}, pc|{value[:10]}|")
            if state.phase == "partner":
                if partner_card is None:
                    raise StudyError(f"{where}: cards are played but no note names the partner card (LIN has no "
                                     "field for it: game-replay's LIN export writes 'partner card SK held by ...' "
                                     "in an nt note); this is not a floating bridge game as game-replay writes one")
                _partner(record, state, partner_card, where)
            seat = state.to_act
            if seat is None or state.phase != "play":
                raise StudyError(f"{where}: pc|{value}| after the end of the play")
            record.events.append({"type": "play", "seat": seat.name, "card": str(card)})
            if state.push_play(seat, card, len(record.events)) and state.stopped:
                raise StudyError(f"{where}: {seat.full_name} playing {card} breaks the rules: a study reads games that keep them")
            seen_action = True
            continue
    if state.phase == "partner" and partner_card is not None:
        _partner(record, state, partner_card, where)
    if number == 1 and record.line != MAIN:
        raise StudyError(f"{where}: the first board must be the game as played")
    if number > 1 and record.line == MAIN:
        raise StudyError(f"{where}: a study is one game and its what-if lines, and this board is not one "
                         "of its lines (no 'What-if line ...' note before its first call)")
    return record, title


def _partner(record: GameRecord, state: Any, card: Any, where: str) -> None:
    record.events.append({"type": "partner", "seat": state.declarer.name, "card": str(card)})
    if state.push_partner(state.declarer, card, len(record.events)) and state.stopped:
        raise StudyError(f"{where}: the partner card {card} breaks the rules")
    if record.pending is not None:
        record.add_note(len(record.events), *record.pending)
        record.pending = None


def read(text: str) -> dict[str, Any]:
    """LIN with commentary -> a study (``study/1`` JSON); ``StudyError`` says what is wrong."""
    if len(text) > MAX_TEXT:
        raise StudyError(f"the file is {len(text):,} characters; a study's LIN file may have at most {MAX_TEXT:,}")
    if "\x00" in text:
        raise StudyError("this is not a LIN file (it holds NUL characters)")
    records_text = [line for line in text.replace("\r\n", "\n").split("\n") if line.strip()]
    if not records_text:
        raise StudyError("there is no LIN record in this file")
    records = []
    title = ""
    for number, record_text in enumerate(records_text, start=1):
        record, found = _read_record(record_text, number)
        if number == 1:
            title = found
        records.append(record)
    return assemble(records, title)
