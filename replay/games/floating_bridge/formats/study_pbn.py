"""A floating bridge study as PBN 2.1 with commentary, and PBN files with commentary read as studies.

``write(study)`` writes the game as played exactly as the PBN export does (``pbn.to_pbn``),
with the study's notes where PBN 2.1 puts commentary on a call or a card:

- a glyph is the call's or card's suffix annotation (``1S!``, ``HQ??``);
- a comment is a note: ``=n=`` after the call or card, and ``[Note "n:text"]`` after its
  section. The tag holds the comment as written (its Markdown markers kept) in PBN's characters
  (``pbn.pbn_text``: printing Latin-1) on one line; when that loses anything (a character
  outside Latin-1, a line break, a text too long for one line), a ``{=n= ...}`` comment after
  the tag holds it exactly, escaped (``study_common.escape``: ``\\uXXXX``, ``\\n``, ``\\\\``;
  no ``}`` or ``{`` is left in it, so it cannot end early);
- the deal's note (step 0) is a ``{...}`` comment just before the ``[Deal]`` tag, the partner
  call's note one just after the ``[PartnerCard]`` tag (neither is a call or a card), each
  starting with the glyph's NAG (``$1`` ... ``$6``) when it has one;
- the study's title is a ``[StudyTitle]`` tag, and ``[StudyLine "main"]`` marks the game.

Each what-if branch follows as a game of its own (the same deal, the next ``[Board]``): its
whole line from the deal, with ``[StudyLine "b1"]``, ``[StudyParent "main"]``, ``[StudyAt
"12"]`` (the step of the parent it leaves after) and ``[StudyLineTitle]``, and its own notes.
Every reader of PBN reads each line as a game; ``read`` rebuilds the study.

``read(text)`` reads that, and PBN files of floating bridge games with ``{comments}``: a
comment after a call or a card is a note on its step, a comment before the auction a note on
the deal; ``=n=`` with ``[Note]``, suffix annotations and NAGs ``$1``-``$6`` too. Anything that
is not a floating bridge game as game-replay writes one (doubles, no partner card before the
play, several unrelated boards) is refused with a ``StudyError`` that says what and where.

>>> from replay.games import get
>>> from replay.study import StudyGame
>>> study = StudyGame.new(get("floating-bridge").selfplay(seed=7), title="Ducking")
>>> study = study.with_note("main", 3, comment="Too *high* {really}", glyph="?")
>>> text = write(study)
>>> "=1=" in text and '[Note "1:Too *high* {really}"]' in text
True
>>> back = StudyGame.load(read(text))
>>> back.note("main", 3).comment, back.note("main", 3).glyph, back.study.title
('Too *high* {really}', '?', 'Ducking')
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ....errors import ReplayError
from ....study import MAIN, StudyError, StudyGame
from ..cards import Seat
from ..log import GameLog
from ..log import parse as parse_log
from . import pbn
from .pbn import EOL, ENCODING, pbn_call, pbn_text, to_pbn
from .study_common import (MAX_TEXT, GameRecord, assemble, deal_hands, escape, event_steps, glyph_of_nag,
                           glyph_prefix, join_wrapped, owned_notes, parse_call, parse_card,
                           rules_from_name, split_glyph_suffix, unescape, wrap_escaped)

NAME = "pbn"
SUFFIX = ".pbn"
MEDIA_TYPE = "application/x-bridge-pbn"
COMMENT_WIDTH = pbn.COMMENT_WIDTH - 2  # inside the braces
_STUDY_TAGS = ("StudyLine", "StudyParent", "StudyAt", "StudyTitle", "StudyLineTitle")


def _keep(char: str) -> bool:
    """What a study comment keeps as it is in PBN: printing Latin-1 but the braces and ``%``
    (a line starting with ``%`` is an escape line; a ``}`` would end the comment)."""
    code = ord(char)
    return (32 <= code <= 126 or 160 <= code <= 255) and char not in "{}%"


def _braced(text: str) -> list[str]:
    """An escaped text as a ``{...}`` comment in lines shorter than 80 characters."""
    lines = wrap_escaped(text, COMMENT_WIDTH)
    lines[0] = "{" + lines[0]
    lines[-1] += "}"
    return lines


def _exact(prefix: str, text: str) -> list[str]:
    """The comment that holds ``text`` exactly after a tag that could not (``prefix``: ``=n= ``)."""
    return _braced(prefix + escape(text, _keep))


def _tag_value(line: str) -> str | None:
    found = _TAG.fullmatch(line.strip())
    return None if found is None else _unescape_tag(found.group(2))


def _text_tag(name: str, text: str, prefix: str = "") -> list[str]:
    """A tag holding user text, followed by the exact text when the tag could not hold it."""
    shown = text if len(text) <= 2 * pbn.LINE_MAX else text[:2 * pbn.LINE_MAX] + "..."  # a tag holds one line
    tag = pbn._tag(name, prefix + shown)
    if shown == text and _tag_value(tag) == prefix + text and "\n" not in text:
        return [tag]
    return [tag] + _exact(f"={prefix[:-1]}= " if prefix else "", text)


def _step_comment(note: Any) -> list[str]:
    """The ``{$n text}`` of a step that is not a call or a card (the deal, the partner call)."""
    text = escape(note.comment, _keep)
    if text.startswith("$"):
        text = "\\u0024" + text[1:]
    glyph = glyph_prefix(note.glyph)
    return _braced(f"{glyph} {text}" if glyph and text else glyph or text)


def _sections(log: GameLog, steps: dict[int, int], notes: dict[int, Any]) -> tuple[list[str], list[str], list[str], list[str]]:
    """The Auction and Play sections' lines with the notes' glyphs and ``=n=``, and the Note
    tags (with their exact comments) that follow each."""
    number = 0
    auction_notes: list[str] = []
    play_notes: list[str] = []

    def annotate(token: str, index: int, tags: list[str]) -> str:
        nonlocal number
        note = notes.get(steps.get(index, -1))
        if note is None:
            return token
        token += note.glyph or ""
        text = note.comment
        if text.strip():
            number += 1
            tags += _text_tag("Note", text, f"{number}:")
            token += f" ={number}="
        return token

    # the auction: as pbn._auction_lines writes it, four calls to a line
    columns: list[str] = []
    expected = log.first_bidder
    highest = None
    for index, event in enumerate(log.events):
        if event.type != "bid":
            continue
        columns += ["^S"] * ((event.seat - expected) & 3)
        token = pbn_call(event.bid)
        if event.bid.is_bid:
            if highest is not None and event.bid <= highest:
                token = "^I " + token
            else:
                highest = event.bid
        columns.append(annotate(token, index, auction_notes))
        expected = event.seat.next
    auction = [" ".join(columns[i:i + 4]) for i in range(0, len(columns), 4)]
    # the play: as pbn._play_lines writes it, a trick to a line in the first leader's columns
    plays = [(index, event) for index, event in enumerate(log.events) if event.type == "play"]
    rows: list[dict[int, str]] = []
    row: dict[int, str] = {}
    if plays:
        leader = plays[0][1].seat
        for index, event in plays:
            column = (event.seat - leader) & 3
            if column in row:
                rows.append(row)
                row = {}
            row[column] = annotate(str(event.card), index, play_notes)
            if len(row) == 4:
                rows.append(row)
                row = {}
        if row:
            rows.append(row)
    play = [" ".join(r.get(c, "-") for c in range(4)) for r in rows]
    if plays and (len(rows) != 13 or any(len(r) != 4 for r in rows)):
        play.append("*")
    return auction, auction_notes, play, play_notes


def _game(study: StudyGame, line_id: str, board: int) -> str:
    """One line of the study as one PBN game."""
    line = study.line(line_id)
    notes = owned_notes(study, line_id)
    steps = event_steps(study, line_id)
    lines = to_pbn(line.log, board).split(EOL)[:-1]
    auction, auction_notes, play, play_notes = _sections(line.log, steps, notes)
    partner_step = next((steps[i] for i, e in enumerate(line.log.events) if e.type == "partner" and i in steps), None)
    out: list[str] = []
    n = 0
    while n < len(lines):
        text = lines[n]
        if text.startswith("[Deal ") and 0 in notes:
            out += _step_comment(notes[0])
        if text.startswith("[Auction ") or text.startswith("[Play "):
            is_auction = text.startswith("[Auction ")
            out.append(text)
            n += 1
            while n < len(lines) and not lines[n].startswith(("[", "{")):
                n += 1  # to_pbn's own lines of the section, written again with the notes
            out += auction + auction_notes if is_auction else play + play_notes
            continue
        out.append(text)
        if text.startswith("[PartnerCard ") and partner_step in notes:
            out += _step_comment(notes[partner_step])
        if text.startswith("[EndReason "):
            out.append(pbn._tag("StudyLine", line_id))
            if line_id == MAIN:
                if study.study.title:
                    out += _text_tag("StudyTitle", study.study.title)
            else:
                out += [pbn._tag("StudyParent", line.parent), pbn._tag("StudyAt", line.at)]
                if line.title:
                    out += _text_tag("StudyLineTitle", line.title)
        n += 1
    return EOL.join(out) + EOL


def write(study: StudyGame) -> str:
    """The study as a PBN file: the game as played, then each branch as a game of its own."""
    games = [_game(study, line_id, board) for board, line_id in enumerate(study.line_ids, start=1)]
    return "% PBN 2.1" + EOL + "% EXPORT" + EOL + EOL.join(games)


def write_bytes(study: StudyGame) -> bytes:
    """``write`` as the file's bytes (ISO-8859-1, as PBN 2.1 requires; nothing is lost: what
    Latin-1 cannot hold is escaped)."""
    return write(study).encode(ENCODING)


def looks_like(text: str) -> bool:
    """Whether ``text`` is a PBN file (a tag at the start of a line, a Deal tag).

    >>> looks_like('% PBN 2.1\\n[Event "x"]\\n[Deal "N:... "]'), looks_like("pn|a,b,c,d|md|1...")
    (True, False)
    """
    return bool(re.search(r'^\s*\[Deal\s+"', text, re.M)) and not text.lstrip().startswith("{\"")


# --- reading -------------------------------------------------------------------------------------

_TAG = re.compile(r'\[([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]')


def _unescape_tag(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


@dataclass
class _Item:
    kind: str  # tag, token, comment, blank
    text: str
    value: str = ""
    line: int = 0


def _items(text: str) -> list[_Item]:
    """PBN text -> tags, tokens, comments and empty lines, each with its line number."""
    items: list[_Item] = []
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    n = 0
    while n < len(lines):
        line = lines[n]
        number = n + 1
        if line.startswith("%"):
            n += 1
            continue
        if not line.strip():
            items.append(_Item("blank", "", line=number))
            n += 1
            continue
        pos = 0
        while pos < len(line):
            char = line[pos]
            if char.isspace():
                pos += 1
            elif char == ";":
                items.append(_Item("comment", line[pos + 1:].strip(), value="line", line=number))
                break
            elif char == "{":
                parts = []
                rest = line[pos + 1:]
                while "}" not in rest:
                    parts.append(rest)
                    n += 1
                    if n >= len(lines):
                        raise StudyError(f"line {number}: a comment opened here is never closed with '}}'")
                    rest = lines[n]
                end = rest.index("}")
                parts.append(rest[:end])
                items.append(_Item("comment", "", value="\n".join(parts), line=number))
                line = rest
                pos = end + 1
            elif char == "[":
                found = _TAG.match(line, pos)
                if found is None:
                    raise StudyError(f"line {number}: {line[pos:pos + 60]!r} is not a tag ([Name \"value\"])")
                items.append(_Item("tag", found.group(1), _unescape_tag(found.group(2)), number))
                pos = found.end()
            else:
                found = re.compile(r"[^\s{;\[]+").match(line, pos)
                items.append(_Item("token", found.group(), line=number))
                pos = found.end()
        n += 1
    return items


def _games(items: list[_Item]) -> list[list[_Item]]:
    """Items -> games: a game ends at an empty line after its tags."""
    games: list[list[_Item]] = []
    current: list[_Item] = []
    for item in items:
        if item.kind == "blank":
            if any(i.kind == "tag" for i in current):
                games.append(current)
                current = []
            continue
        current.append(item)
    if any(i.kind == "tag" for i in current):
        games.append(current)
    return games


def _comment_text(raw: str, ours: bool) -> str:
    lines = [line.strip() for line in raw.split("\n")]
    if ours:
        return unescape(join_wrapped(lines))
    return " ".join(line for line in lines if line)


def _glyph_and_text(raw: str, ours: bool, where: str) -> tuple[str | None, str]:
    text = _comment_text(raw, ours)
    found = re.match(r"\$(\d+)(?: |$)", text)
    if found:
        return glyph_of_nag("$" + found.group(1), where), text[found.end():]
    return None, text


def _read_game(game: list[_Item], number: int) -> tuple[GameRecord, str]:
    """One PBN game -> its record (calls, cards and notes by step) and the study title."""
    where = f"game {number}"
    tags: dict[str, str] = {}
    for item in game:
        if item.kind == "tag" and item.text != "Note":
            tags.setdefault(item.text, item.value)
    ours = "StudyLine" in tags
    if "Deal" not in tags:
        raise StudyError(f"{where}: there is no [Deal] tag")
    hands, _ = deal_hands(tags["Deal"], where)
    first = tags.get("Auction") or tags.get("Dealer") or ""
    try:
        first_bidder = Seat.parse(first)
    except ReplayError:
        raise StudyError(f"{where}: the first bidder (the [Auction] or [Dealer] tag) is {first[:10]!r}, not a seat") from None
    record = GameRecord(where=where, hands=hands, first_bidder=first_bidder,
                        rules=rules_from_name(tags.get("Rules", ""), f"{where}, [Rules]"))
    event = tags.get("Event", "")
    record.game_id = event if event and event not in ("?", "Floating bridge") else None
    date = re.fullmatch(r"(\d{4})\.(\d\d)\.(\d\d)", tags.get("Date", ""))
    if date:
        record.started_at = f"{date.group(1)}-{date.group(2)}-{date.group(3)}T00:00:00Z"
    for seat in Seat:
        name = tags.get(seat.full_name, "")
        if name and name != "?":
            record.names[seat.name] = name
    end = tags.get("EndReason", "")
    if end:
        if end not in ("completed", "passed_out", "cancelled", "timeout", "abandoned"):
            raise StudyError(f"{where}: [EndReason] {end[:30]!r} is not an end of a floating bridge game")
        record.end_reason = end
    if ours:
        record.line = tags["StudyLine"]
        if record.line != MAIN:
            record.parent = tags.get("StudyParent", MAIN)
            try:
                record.at = int(tags.get("StudyAt", ""))
            except ValueError:
                raise StudyError(f"{where}: line {record.line!r} has no step it leaves from ([StudyAt])") from None
    elif number > 1:
        raise StudyError(f"{where}: a study is one game and its what-if lines, and this game is not one of "
                         "its lines (no [StudyLine] tag): open each game of the file on its own")
    title = tags.get("StudyTitle", "")
    record.title = tags.get("StudyLineTitle", "")

    # walk the items: calls and cards with the notes that follow them
    calls: list[dict[str, Any]] = []  # {call, seat, glyph, comments, refs}
    rows: list[list[dict[str, Any]]] = []
    deal_comments: list[tuple[str | None, str]] = []
    partner_comments: list[tuple[str | None, str]] = []
    notes_text: dict[str, str] = {}
    section = None
    previous_tag = None
    last: dict[str, Any] | None = None
    expected = first_bidder
    row_line = None
    ended = False
    for item in game:
        if item.kind == "tag":
            previous_tag = item
            last = None
            if item.text == "Note":
                found = re.match(r"(\d+):(.*)", item.value, re.S)
                if found is None:
                    raise StudyError(f"{where}, line {item.line}: a Note tag's value is 'number:text', not {item.value[:40]!r}")
                notes_text.setdefault(found.group(1), found.group(2))
                section = None
                continue
            section = item.text if item.text in ("Auction", "Play") else None
            ended = False
            continue
        if item.kind == "comment":
            if section is None and previous_tag is not None and ours:
                name = previous_tag.text
                if name == "Note":
                    joined = join_wrapped([line.strip() for line in item.value.split("\n")])
                    found = re.match(r"=(\d+)= ", joined)
                    if found:
                        notes_text[found.group(1)] = unescape(joined[found.end():])
                        continue
                if name in ("StudyTitle", "StudyLineTitle"):
                    text = _comment_text(item.value, True)
                    if name == "StudyTitle":
                        title = text
                    else:
                        record.title = text
                    continue
                if name == "PartnerCard":
                    partner_comments.append(_glyph_and_text(item.value, True, where))
                    continue
            if last is not None:
                text = _comment_text(item.value, ours)
                last["comments"].append(text)
            elif section is None or not calls:
                deal_comments.append(_glyph_and_text(item.value, ours, where) if ours else (None, _comment_text(item.value, False)))
            continue
        previous_tag = None
        token = item.text
        if section is None:
            continue  # the data of a section this reader has no use for (a table of results)
        if token.startswith("=") and token.endswith("=") and len(token) > 2:
            if last is None:
                raise StudyError(f"{where}, line {item.line}: note {token} follows no call or card")
            last["refs"].append(token[1:-1])
            continue
        if re.fullmatch(r"\$\d+", token):
            if last is None:
                raise StudyError(f"{where}, line {item.line}: {token} follows no call or card")
            last["glyph"] = glyph_of_nag(token, f"{where}, line {item.line}")
            continue
        if token in ("!", "?", "!!", "??", "!?", "?!"):
            if last is None:
                raise StudyError(f"{where}, line {item.line}: {token} follows no call or card")
            last["glyph"] = token
            continue
        if section == "Auction":
            if ended:
                raise StudyError(f"{where}, line {item.line}: {token[:20]!r} after the end of the auction")
            if token == "^S":
                expected = expected.next
                continue
            if token == "^I":
                continue
            if token.upper() == "AP":
                for _ in range(3):
                    calls.append({"call": parse_call("Pass", where), "seat": expected, "glyph": None,
                                  "comments": [], "refs": []})
                    expected = expected.next
                last = None
                continue
            if token in ("*", "+", "-"):
                ended = True
                last = None
                continue
            bare, glyph = split_glyph_suffix(token)
            call = parse_call(bare, f"{where}, line {item.line}")
            last = {"call": call, "seat": expected, "glyph": glyph, "comments": [], "refs": []}
            calls.append(last)
            expected = expected.next
        else:  # Play
            if token == "*":
                ended = True
                last = None
                continue
            if ended:
                raise StudyError(f"{where}, line {item.line}: {token[:20]!r} after the end of the play")
            if row_line != item.line:
                rows.append([])
                row_line = item.line
            if token in ("-", "+"):
                rows[-1].append({"card": None})
                continue
            bare, glyph = split_glyph_suffix(token)
            last = {"card": parse_card(bare, f"{where}, line {item.line}"), "glyph": glyph, "comments": [], "refs": []}
            rows[-1].append(last)

    # the events, in the order they were made (the play section is in columns, not in order)
    state = record.engine()

    def step_notes(entry: dict[str, Any], step: int) -> None:
        texts = list(entry["comments"]) + [notes_text[ref] for ref in entry["refs"] if ref in notes_text]
        missing = [ref for ref in entry["refs"] if ref not in notes_text]
        if missing:
            raise StudyError(f"{where}: note ={missing[0]}= has no [Note \"{missing[0]}:...\"] tag")
        for text in texts:
            record.add_note(step, text)
        if entry["glyph"]:
            record.add_note(step, glyph=entry["glyph"])

    for glyph, text in deal_comments:
        record.add_note(0, text, glyph)
    for entry in calls:
        record.events.append({"type": "bid", "seat": entry["seat"].name, "bid": str(entry["call"])})
        if state.push_call(entry["seat"], entry["call"], len(record.events)) and state.stopped:
            raise StudyError(f"{where}: call {len(record.events)} ({entry['seat'].name} {pbn_call(entry['call'])}) "
                             "breaks the rules: a study reads games that keep them")
        step_notes(entry, len(record.events))
    partner = tags.get("PartnerCard", "")
    if partner or partner_comments:
        if state.declarer is None:
            raise StudyError(f"{where}: there is a partner card but no contract")
        card = parse_card(partner, f"{where}, [PartnerCard]")
        record.events.append({"type": "partner", "seat": state.declarer.name, "card": str(card)})
        if state.push_partner(state.declarer, card, len(record.events)) and state.stopped:
            raise StudyError(f"{where}: the partner card {card} breaks the rules")
        for glyph, text in partner_comments:
            record.add_note(len(record.events), text, glyph)
    if rows:
        if not partner:
            raise StudyError(f"{where}: cards are played but there is no [PartnerCard] tag: a floating bridge game "
                             "names its partner card before the play (this is not a floating bridge game as "
                             "game-replay writes one)")
        try:
            leader = Seat.parse(tags.get("Play", ""))
        except ReplayError:
            raise StudyError(f"{where}: the [Play] tag names the first leader (N, E, S or W), "
                             f"not {tags.get('Play', '')[:10]!r}") from None
        for row in rows:
            if len(row) != 4:
                raise StudyError(f"{where}: a line of the play has {len(row)} cards; each trick has four "
                                 "columns (- for a card not played)")
            if state.to_act is None:
                raise StudyError(f"{where}: cards after the end of the game")
            start = state.to_act
            for k in range(4):
                seat = Seat((start + k) & 3)
                entry = row[(seat - leader) & 3]
                if entry.get("card") is None:
                    continue
                record.events.append({"type": "play", "seat": seat.name, "card": str(entry["card"])})
                if state.push_play(seat, entry["card"], len(record.events)) and state.stopped:
                    raise StudyError(f"{where}: {seat.full_name} playing {entry['card']} (card "
                                     f"{sum(e['type'] == 'play' for e in record.events)}) breaks the rules: "
                                     "a study reads games that keep them")
                step_notes(entry, len(record.events))
    if ours:
        _drop_export_notes(record)
    return record, title


def _drop_export_notes(record: GameRecord) -> None:
    """Take out the comment ``to_pbn`` writes itself (where rule checking stopped, the
    findings): it is the export's, not the study's."""
    log = parse_log(record.log_json(), record.where)
    said = " ".join(pbn._notes(log.replay(), any(e["type"] == "play" for e in record.events)).split())
    if not said:
        return
    for step, note in list(record.notes.items()):
        parts = [p for p in note["comment"].split("\n\n") if " ".join(pbn_text(p).split()) != " ".join(pbn_text(said).split())]
        note["comment"] = "\n\n".join(parts)
        if not note["comment"] and not note["glyph"]:
            del record.notes[step]


def read(text: str) -> dict[str, Any]:
    """A PBN file with commentary -> a study (``study/1`` JSON); ``StudyError`` says what is wrong."""
    if len(text) > MAX_TEXT:
        raise StudyError(f"the file is {len(text):,} characters; a study's PBN file may have at most {MAX_TEXT:,}")
    if "\x00" in text:
        raise StudyError("this is not a PBN file (it holds NUL characters)")
    games = _games(_items(text))
    if not games:
        raise StudyError("there is no PBN game in this file (no [Tag \"value\"] lines)")
    records = []
    title = ""
    for number, game in enumerate(games, start=1):
        record, found_title = _read_game(game, number)
        if number == 1:
            title = found_title
        records.append(record)
    return assemble(records, title)
