"""PBN (Portable Bridge Notation 2.1) export of floating bridge games.

``to_pbn(log)`` writes one game: the fifteen mandatory tags (Event, Site, Date, Board, West,
North, East, South, Dealer, Vulnerable, Deal, Scoring, Declarer, Contract, Result), the
Auction and Play sections, and custom tags for what PBN has no words for: ``PartnerCard``,
``PartnerSeat``, ``Rules`` and ``EndReason``. ``docs/exports.md`` says what PBN cannot express
(the floating partnership above all: ``Result`` counts the declarer's side, declarer plus the
partner card's holder, not North-South or East-West).

Every logged call and card is written as logged, also after a fatal finding has stopped rule
checking (a comment says where it stopped). The text keeps to PBN 2.1's export format: CRLF
line ends, at most 255 characters a line with the CRLF, and only ISO-8859-1 (Latin-1)
printing characters; ``export_pbn_bytes`` gives the file's bytes.

>>> from replay.games.floating_bridge.bots import play_game
>>> text = to_pbn(play_game(seed=7))
>>> '[Deal "' in text and '[PartnerCard "' in text and '[Play "' in text
True
>>> pbn_text("Zoë Łukasz 花子")
'Zoë Lukasz ??'
"""

from __future__ import annotations

import textwrap
import unicodedata
from typing import Iterable

from ..cards import PASS_VALUE, RANK_CHARS, SEATS, Call, Card, Seat
from ..log import GameLog

_SUIT_ORDER = (3, 2, 1, 0)  # spades, hearts, diamonds, clubs

#: PBN 2.1 export format: lines end in CR LF; a line has at most 255 characters with the CR LF.
EOL = "\r\n"
ENCODING = "latin-1"
LINE_MAX = 255 - len(EOL)
#: Lines of 80 or more printing characters are "strongly discouraged": comments wrap below that.
COMMENT_WIDTH = 79
#: How many findings the comment lists.
MAX_FINDINGS = 20

#: Letters of other Latin alphabets that Unicode does not decompose into a base letter and a mark,
#: and common typographic marks, as their nearest Latin-1 spelling.
_NEAREST = str.maketrans({
    "Ł": "L", "ł": "l", "Đ": "D", "đ": "d", "Ħ": "H", "ħ": "h", "ı": "i", "Ŧ": "T", "ŧ": "t",
    "Œ": "OE", "œ": "oe", "ſ": "s", "ƒ": "f",
    "‘": "'", "’": "'", "‚": "'", "‛": "'", "“": '"', "”": '"', "„": '"', "‟": '"',
    "‐": "-", "‑": "-", "‒": "-", "–": "-", "—": "-", "―": "-", "−": "-", "•": "*",
})


def _printable_latin1(char: str) -> bool:
    """PBN 2.1 (2.2): the printing characters 32-126 and 160-255 of ISO 8859/1."""
    code = ord(char)
    return 32 <= code <= 126 or 160 <= code <= 255


def pbn_text(value: object) -> str:
    """``value`` in the characters PBN allows: ISO-8859-1's printing characters.

    Latin-1 letters stay as they are; a letter of another Latin alphabet loses its mark (``Ż``
    becomes ``Z``, ``ł`` becomes ``l``); control characters and line or paragraph separators become
    a space; invisible format characters (zero-width space, direction marks) are dropped; every
    other character (other scripts, emoji) becomes ``?``, as PBN 2.1 suggests showing characters
    a system cannot show.
    """
    out: list[str] = []
    for char in ("" if value is None else str(value)):
        if _printable_latin1(char):
            out.append(char)
            continue
        category = unicodedata.category(char)
        if category in ("Cc", "Zs", "Zl", "Zp"):
            out.append(" ")
            continue
        if category == "Cf":
            continue
        nearest = char.translate(_NEAREST)
        if nearest == char:
            nearest = "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))
        out.append(nearest if nearest and all(_printable_latin1(c) for c in nearest) else "?")
    return "".join(out)


def _tag(name: str, value: object) -> str:
    """``[Name "value"]`` on one line of at most ``LINE_MAX`` characters.

    The value is escaped (``\\`` and ``\"``) and, when too long, cut between escapes and ended
    with ``...``.
    """
    room = LINE_MAX - len(name) - 5  # [, space, two quotes, ]
    units = ["\\" + c if c in '\\"' else c for c in pbn_text(value)]
    if sum(map(len, units)) > room:
        kept: list[str] = []
        used = 0
        for unit in units:
            if used + len(unit) > room - 3:
                break
            kept.append(unit)
            used += len(unit)
        units = kept + ["..."]
    return f'[{name} "{"".join(units)}"]'


def _comment(text: str) -> list[str]:
    """A ``{...}`` comment wrapped into lines shorter than 80 characters."""
    text = pbn_text(text).replace("{", "(").replace("}", ")")
    lines = textwrap.wrap(text, width=COMMENT_WIDTH - 2, break_long_words=True, break_on_hyphens=False) or [""]
    lines[0] = "{" + lines[0]
    lines[-1] += "}"
    return lines


def pbn_hand(cards: Iterable[int]) -> str:
    """``AK93.QT2.8.J7654``: spades, hearts, diamonds, clubs, high to low."""
    by_suit: list[list[int]] = [[], [], [], []]
    for card in cards:
        by_suit[card // 13].append(card % 13)
    return ".".join("".join(RANK_CHARS[r] for r in sorted(by_suit[s], reverse=True)) for s in _SUIT_ORDER)


def pbn_call(call: int) -> str:
    return "Pass" if call == PASS_VALUE else str(Call(call))


def _auction_lines(log: GameLog) -> list[str]:
    """Every logged call, four to a line in the columns of the seats from the first bidder.

    A call by a seat whose turn it was not is written after ``^S`` for each seat it skipped, and a
    bid not higher than the highest bid before it gets ``^I`` (PBN 2.1's notation for a call out
    of rotation and an insufficient bid). Neither happens in a game that was checked throughout.
    """
    columns: list[str] = []
    expected = log.first_bidder
    highest: Call | None = None
    for event in log.events:
        if event.type != "bid":
            continue
        columns += ["^S"] * ((event.seat - expected) & 3)
        token = pbn_call(event.bid)
        if event.bid.is_bid:
            if highest is not None and event.bid <= highest:
                token = "^I " + token
            else:
                highest = event.bid
        columns.append(token)
        expected = event.seat.next
    return [" ".join(columns[i:i + 4]) for i in range(0, len(columns), 4)]


def _play_lines(log: GameLog) -> tuple[Seat | None, list[str]]:
    """Every logged card, in the column of its seat in the first card's rotation.

    A line is a trick: it ends after four cards, or early when the next card's seat already has
    one in it (which only a game with a fatal finding can log); ``-`` fills an empty column.
    """
    plays = [event for event in log.events if event.type == "play"]
    if not plays:
        return None, []
    leader = plays[0].seat
    rows: list[dict[int, str]] = []
    row: dict[int, str] = {}
    for event in plays:
        column = (event.seat - leader) & 3
        if column in row:
            rows.append(row)
            row = {}
        row[column] = str(event.card)
        if len(row) == 4:
            rows.append(row)
            row = {}
    if row:
        rows.append(row)
    lines = [" ".join(r.get(c, "-") for c in range(4)) for r in rows]
    if len(rows) != 13 or any(len(r) != 4 for r in rows):
        lines.append("*")
    return leader, lines


def _holder(log: GameLog, card: Card) -> str:
    hands = log.hands.by_seat()
    return next((seat.name for seat in SEATS if card in hands[seat]), "")


def stop_note(replay) -> str | None:
    """Where a fatal finding stopped rule checking, in words (None for a game checked throughout)."""
    if replay.checked:
        return None
    stop = next((f for f in replay.findings if f.fatal), None)
    where = "the deal" if stop is None or stop.event is None else f"event {stop.event + 1} of the log"
    kind = f" ({stop.kind})" if stop is not None else ""
    return f"Rule checking stopped at {where}{kind}: the calls and cards from there on are exported as logged, unchecked"


def _notes(replay, played: bool) -> str:
    """The comment's text: where rule checking stopped, and the findings."""
    parts = []
    stop = stop_note(replay)
    if stop:
        parts.append(stop + ("; Result is unknown." if played else "."))
    findings = replay.findings[:MAX_FINDINGS]
    if findings:
        more = len(replay.findings) - len(findings)
        parts.append("Findings: " + "; ".join(f"{f.kind}: {f.message}" for f in findings)
                     + (f"; and {more} more" if more > 0 else ""))
    return " ".join(parts)


def to_pbn(log: GameLog, board: int = 1) -> str:
    """One game as PBN 2.1 export-format text (CRLF line ends, ending with one)."""
    replay = log.replay()
    date = log.started_at.strftime("%Y.%m.%d") if log.started_at else "????.??.??"
    names = {seat: (log.player_name(seat) or "") for seat in SEATS}
    first = log.first_bidder
    deal = f"{first.name}:" + " ".join(
        pbn_hand(log.hands.by_seat()[(first + i) & 3]) for i in range(4))
    lines = [
        _tag("Event", log.game_id or "Floating bridge"),
        _tag("Site", ""),
        _tag("Date", date),
        _tag("Board", board),
        _tag("West", names[Seat.W]),
        _tag("North", names[Seat.N]),
        _tag("East", names[Seat.E]),
        _tag("South", names[Seat.S]),
        _tag("Dealer", first.name),
        _tag("Vulnerable", "None"),
        _tag("Deal", deal),
        _tag("Scoring", ""),
    ]
    leader, play_lines = _play_lines(log)
    contract = replay.contract
    if contract is None and not replay.checked:
        # checking stopped before the auction ended: PBN's "?" for a value not known
        lines += [_tag("Declarer", "?"), _tag("Contract", "?"), _tag("Result", "?" if play_lines else "")]
    elif contract is None:
        passed_out = replay.end_reason == "passed_out"
        lines += [_tag("Declarer", ""), _tag("Contract", "Pass" if passed_out else ""), _tag("Result", "")]
    else:
        result = "" if not play_lines else (replay.result.declarer_tricks if replay.checked else "?")
        lines += [_tag("Declarer", replay.declarer.name), _tag("Contract", str(contract)), _tag("Result", result)]
    if replay.checked:
        partner_card = "" if replay.partner_card is None else str(replay.partner_card)
        partner_seat = "" if replay.partner_seat is None else replay.partner_seat.name
    else:
        # as logged: each partner call (";" between several) and who was dealt the card
        called = [event.card for event in log.events if event.type == "partner"]
        partner_card = ";".join(str(card) for card in called)
        partner_seat = ";".join(_holder(log, card) for card in called)
    lines += [
        _tag("PartnerCard", partner_card),
        _tag("PartnerSeat", partner_seat),
        _tag("Rules", replay.rules.name),
        _tag("EndReason", replay.end_reason),
    ]
    auction = _auction_lines(log)
    if auction:
        lines.append(_tag("Auction", first.name))
        lines += auction
    if play_lines:
        lines.append(_tag("Play", leader.name))
        lines += play_lines
    notes = _notes(replay, bool(play_lines))
    if notes:
        lines += _comment(notes)
    return EOL.join(lines) + EOL


def export_pbn(logs: Iterable[GameLog]) -> str:
    """Several games, numbered boards, an empty line before each but the first, behind the header."""
    games = [to_pbn(log, board) for board, log in enumerate(logs, start=1)]
    return "% PBN 2.1" + EOL + "% EXPORT" + EOL + EOL.join(games)


def export_pbn_bytes(logs: Iterable[GameLog]) -> bytes:
    """``export_pbn`` as the file's bytes: ISO-8859-1, as PBN 2.1 requires."""
    return export_pbn(logs).encode(ENCODING)
