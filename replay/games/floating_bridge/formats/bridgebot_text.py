"""Read the original BridgeBot's text logs into log format v1.

The Java bot (github.com/chan-j-d/BridgeBot) appends one text file per game. Its layout is in
``shared/spec/bridgebot-legacy.md``::

    Player hands:
    P1: ♣2, ♣5, ♦A, ...
    ...
    Bidding:
    Player 2 passes.
    Player 3 bids 1♠
    Player 3 wins the bid with a bid of 1♠
    Player 3 chooses ♠K as the partner card

    Trick-taking Play:
    Player 4 goes first
    Player 4 plays ♥3
    ...
    Player 1 wins trick 1
    ...
    Partners P1 and P3 are your winners!

    Unplayed cards:
    P1: ...

    Updates:
    [0: P2 passes Type: SEND_UPDATE, ...]

How it maps to the log format:

- P1..P4 (and "Player 1".."Player 4") are N, E, S, W; the first bidder is the player of the
  first bidding line; the rules are ``bridgebot``.
- The three closing passes are not written: they are added back (after the last written call,
  the next seats pass until three passes follow the last bid; none after 7NT) once the log
  shows the auction was over (a "wins the bid" line, a partner card, or play).
- "Player X wins trick k" lines are the bot's claims and become ``trick`` events, which the
  engine checks.
- Lines of the play section that are not moves (the final group message, "Partners P1 and P3
  are your winners!") become ``chat`` events; the ``Updates:`` section is kept, line by line,
  in ``meta["bridgebot"]["updates"]`` and is never parsed, so it never makes reading fail.
- The hands are the ``Player hands:`` section. A log without one (the bot's older layout
  starts at ``Bidding:``) gets each hand as its played cards plus its unplayed cards.
- ``end`` is ``completed`` when play reached its end by the rules (``passed_out`` after four
  passes); otherwise it is left out, so a log that stops early replays as ``abandoned``.

Readers are liberal: a byte order mark, CRLF or CR line ends, trailing spaces, suit emoji with
or without U+FE0F, ``10`` or ``T`` for ten. Anything else that cannot be read raises
``LogFormatError`` naming the line:

>>> parse_text_log("Player hands:\\nP1: ♠1O, ♠2")
Traceback (most recent call last):
...
replay.log.LogFormatError: line 2: '♠1O' is not a card
"""

from __future__ import annotations

import re
from typing import Any

from ..cards import SEATS, Call, CallParseError, Card, CardParseError, Seat
from ..engine import OVER, Game
from replay.log import LogFormatError, parse_log

from ..log import MAX_EVENTS, MAX_TEXT, GameLog, looks_like_legacy_text
from ..rules import PRESETS

__all__ = ["parse_text_log", "SOURCE_FORMAT"]

SOURCE_FORMAT = "bridgebot-text"

_SECTIONS = {
    "player hands": "hands",
    "bidding": "bidding",
    "trick-taking play": "play",
    "unplayed cards": "unplayed",
    "updates": "updates",
}
_ORDER = ("hands", "bidding", "play", "unplayed", "updates")
_HEADER_TEXT = {"hands": "Player hands:", "bidding": "Bidding:", "play": "Trick-taking Play:",
                "unplayed": "Unplayed cards:", "updates": "Updates:"}

_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_HAND_LINE = re.compile(r"^(?:P|Player\s*)(\S+?)\s*:\s*(.*)$", re.IGNORECASE)
_PLAYER = r"^Player\s+(\S+)\s+"
_PASSES = re.compile(_PLAYER + r"pass(?:es)?\s*[.!]?$", re.IGNORECASE)
_BIDS = re.compile(_PLAYER + r"bids\s+(.+?)\s*[.!]?$", re.IGNORECASE)
_WINS_BID = re.compile(_PLAYER + r"wins the bid(?:ding)? with a bid of\s+(.+?)\s*[.!]?$", re.IGNORECASE)
_CHOOSES = re.compile(_PLAYER + r"chooses\s+(.+?)\s+as (?:the |their |his |her )?partner card\s*[.!]?$",
                      re.IGNORECASE)
_GOES_FIRST = re.compile(_PLAYER + r"goes first\s*[.!]?$", re.IGNORECASE)
_PLAYS = re.compile(_PLAYER + r"plays\s+(.+?)\s*[.!]?$", re.IGNORECASE)
_WINS_TRICK = re.compile(_PLAYER + r"wins trick\s+(\S+?)\s*[.!]?$", re.IGNORECASE)
_SEVEN_NT = Call.parse("7NT")


def _short(text: str, limit: int = 60) -> str:
    text = repr(text)
    return text if len(text) <= limit else text[: limit - 4] + "...'"


class _Reader:
    """One pass over the lines; collects what each section says."""

    def __init__(self, text: str):
        if text.startswith("\ufeff"):
            text = text[1:]
        self.lines = _LINE_BREAK.split(text)
        self.hands: dict[Seat, list[Card]] = {}
        self.unplayed: dict[Seat, list[Card]] = {}
        self.calls: list[tuple[int, Seat, Call]] = []  # (line, seat, call)
        self.winning_bid: tuple[int, Seat, Call] | None = None
        self.partner: tuple[int, Seat, Card] | None = None
        self.play: list[tuple[str, int, Any]] = []  # ("play", line, (seat, card)) / "trick" / "chat" / "first"
        self.updates: list[str] = []
        self.sections: dict[str, int] = {}  # section -> line of its header
        self.warnings: list[str] = []

    # -- helpers -----------------------------------------------------------------------------
    @staticmethod
    def error(number: int, message: str) -> LogFormatError:
        return LogFormatError([(f"line {number}", message)])

    def seat(self, number: int, token: str) -> Seat:
        if token in ("1", "2", "3", "4"):
            return SEATS[int(token) - 1]
        raise self.error(number, f"{_short('Player ' + token)} is not a player (players are numbered 1-4)")

    def card(self, number: int, token: str) -> Card:
        try:
            return Card.parse(token)
        except CardParseError:
            raise self.error(number, f"{_short(token.strip())} is not a card") from None

    def call(self, number: int, token: str) -> Call:
        try:
            call = Call.parse(token)
        except CallParseError:
            call = None
        if call is None or call.is_pass:
            raise self.error(number, f"{_short(token.strip())} is not a bid (a bid is a level 1-7 and "
                                     "a suit or NT, like 3♠ or 2NT)")
        return call

    def cards(self, number: int, body: str) -> list[Card]:
        body = body.strip().strip("[]")
        return [self.card(number, token) for token in re.split(r"[,\s]+", body) if token]

    # -- the pass ----------------------------------------------------------------------------
    def read(self) -> None:
        section: str | None = None
        for number, raw in enumerate(self.lines, start=1):
            if section == "updates":
                self.updates.append(raw.rstrip())
                continue
            line = raw.strip()
            if not line:
                continue
            key = line.rstrip(":").strip().lower()
            if key in _SECTIONS:
                new = _SECTIONS[key]
                if new in self.sections:
                    raise self.error(number, f"a second {_HEADER_TEXT[new]!r} section "
                                             f"(the first is on line {self.sections[new]})")
                later = [s for s in self.sections if _ORDER.index(s) > _ORDER.index(new)]
                if later:
                    raise self.error(number, f"{_HEADER_TEXT[new]!r} must come before "
                                             f"{_HEADER_TEXT[later[0]]!r} (line {self.sections[later[0]]})")
                self.close(section, number)
                section = new
                self.sections[new] = number
                continue
            if section is None:
                raise self.error(number, f"not a BridgeBot text log: it starts with {_short(line)}, "
                                         "not 'Player hands:'")
            getattr(self, "read_" + section)(number, line)
        self.close(section, len(self.lines))

    def close(self, section: str | None, number: int) -> None:
        """Checks when a section ends (at the next header, or at the end of the text)."""
        if section == "hands":
            missing = [f"P{s + 1}" for s in SEATS if s not in self.hands]
            if missing:
                truncated = " (the file looks truncated)" if number >= len(self.lines) else ""
                raise self.error(number, f"the hands section has no line for {', '.join(missing)}{truncated}")

    def read_hand_line(self, number: int, line: str, into: dict[Seat, list[Card]], what: str) -> None:
        match = _HAND_LINE.match(line)
        if not match:
            raise self.error(number, f"cannot read {_short(line)} in the {what} section "
                                     "(expected a line like 'P1: ♣2, ♦A, ♠10')")
        token = match.group(1)
        if token not in ("1", "2", "3", "4"):
            raise self.error(number, f"{_short('P' + token)} is not a player (players are P1-P4)")
        seat = SEATS[int(token) - 1]
        if seat in into:
            raise self.error(number, f"a second line for P{token} in the {what} section")
        into[seat] = self.cards(number, match.group(2))

    def read_hands(self, number: int, line: str) -> None:
        self.read_hand_line(number, line, self.hands, "hands")

    def read_unplayed(self, number: int, line: str) -> None:
        self.read_hand_line(number, line, self.unplayed, "unplayed cards")

    def read_bidding(self, number: int, line: str) -> None:
        if self.partner is not None:
            raise self.error(number, f"cannot read {_short(line)} after the partner card was chosen")
        if match := _PASSES.match(line):
            self.after_calls(number, line)
            self.calls.append((number, self.seat(number, match.group(1)), Call.parse("pass")))
        elif match := _WINS_BID.match(line):
            if self.winning_bid is not None:
                raise self.error(number, "a second 'wins the bid' line")
            self.winning_bid = (number, self.seat(number, match.group(1)), self.call(number, match.group(2)))
        elif match := _BIDS.match(line):
            self.after_calls(number, line)
            self.calls.append((number, self.seat(number, match.group(1)), self.call(number, match.group(2))))
        elif match := _CHOOSES.match(line):
            self.partner = (number, self.seat(number, match.group(1)), self.card(number, match.group(2)))
        else:
            raise self.error(number, f"cannot read {_short(line)} in the bidding section (expected "
                                     "'Player N passes.', 'Player N bids 3♠', 'Player N wins the bid with "
                                     "a bid of 3♠' or 'Player N chooses ♠K as the partner card')")

    def after_calls(self, number: int, line: str) -> None:
        if self.winning_bid is not None:
            raise self.error(number, f"cannot read {_short(line)}: a call after the 'wins the bid' line "
                                     f"(line {self.winning_bid[0]})")

    def read_play(self, number: int, line: str) -> None:
        if match := _PLAYS.match(line):
            self.play.append(("play", number, (self.seat(number, match.group(1)), self.card(number, match.group(2)))))
        elif match := _WINS_TRICK.match(line):
            seat = self.seat(number, match.group(1))
            token = match.group(2)
            if not (token.isascii() and token.isdigit()) or len(token) > 2 or not 1 <= int(token) <= 13:
                raise self.error(number, f"{_short(token)} is not a trick number (1-13)")
            self.play.append(("trick", number, (seat, int(token))))
        elif match := _GOES_FIRST.match(line):
            self.play.append(("first", number, self.seat(number, match.group(1))))
        else:
            # the final group message ("Partners P1 and P3 are your winners!") or other bot text
            self.play.append(("chat", number, line[:MAX_TEXT]))


def parse_text_log(text: str, game_id: str | None = None) -> GameLog:
    """A BridgeBot text log as a ``GameLog``; raises ``LogFormatError`` naming the line.

    ``game_id`` is optional: the text log carries no id of its own.
    """
    reader = _Reader(text)
    reader.read()
    if not reader.sections:
        raise LogFormatError([("line 1", "empty input: no 'Player hands:' section, so no game in it")])
    events: list[dict[str, Any]] = []
    info: dict[str, Any] = {}
    warnings = reader.warnings

    # -- the auction
    if not reader.calls:
        where = reader.sections.get("bidding", max(reader.sections.values()))
        raise LogFormatError([(f"line {where}", "no bidding lines, so the first bidder is unknown"
                               + ("" if "bidding" in reader.sections else " (the file looks truncated)"))])
    first_bidder = reader.calls[0][1]
    for _, seat, call in reader.calls:
        events.append({"type": "bid", "seat": seat.name, "bid": str(call)})
    auction_over = (reader.winning_bid is not None or reader.partner is not None or bool(reader.play)
                    or "play" in reader.sections or "unplayed" in reader.sections)
    bid_indexes = [i for i, (_, _, call) in enumerate(reader.calls) if call.is_bid]
    if bid_indexes:
        last_line, last_bidder, last_bid = reader.calls[bid_indexes[-1]]
        if auction_over and last_bid != _SEVEN_NT:
            written = len(reader.calls) - 1 - bid_indexes[-1]
            seat = reader.calls[-1][1]
            added = 0
            for _ in range(3 - written):
                seat = seat.next
                events.append({"type": "bid", "seat": seat.name, "bid": "pass"})
                added += 1
            if added:
                info["closing_passes_added"] = added
        if reader.winning_bid is not None:
            line, seat, call = reader.winning_bid
            if (seat, call) != (last_bidder, last_bid):
                warnings.append(f"line {line}: the log says Player {seat + 1} won the bid with {call}, "
                                f"but the last bid was {last_bid} by Player {last_bidder + 1} (line {last_line})")
    if reader.partner is not None:
        _, seat, card = reader.partner
        events.append({"type": "partner", "seat": seat.name, "card": str(card)})

    # -- the play
    played: dict[Seat, list[Card]] = {seat: [] for seat in SEATS}
    plays = 0
    final_message: list[str] = []
    for kind, line, value in reader.play:
        if kind == "play":
            seat, card = value
            events.append({"type": "play", "seat": seat.name, "card": str(card)})
            played[seat].append(card)
            plays += 1
            final_message = []
        elif kind == "trick":
            seat, number = value
            if number != plays // 4 or plays % 4:
                warnings.append(f"line {line}: 'Player {seat + 1} wins trick {number}' comes after "
                                f"{plays} cards ({plays // 4} complete tricks)")
            events.append({"type": "trick", "winner": seat.name})
        elif kind == "first":
            info["first_leader"] = value.name
        else:
            events.append({"type": "chat", "text": value})
            final_message.append(value)
    if final_message:
        info["final_message"] = "\n".join(final_message)
    if len(events) > MAX_EVENTS:
        raise LogFormatError([(f"line {reader.play[-1][1]}", f"more than {MAX_EVENTS} calls and cards: "
                               "not a game log")])

    # -- the hands
    if reader.hands:
        hands = reader.hands
        for seat, rest in reader.unplayed.items():
            expected = set(hands[seat]) - set(played[seat])
            if set(rest) != expected:
                warnings.append(f"P{seat + 1}'s unplayed cards ({' '.join(map(str, rest)) or 'none'}) are not "
                                "its hand less the cards it played "
                                f"({' '.join(str(c) for c in hands[seat] if c in expected) or 'none'})")
    else:
        info["hands_from"] = "played and unplayed cards"
        hands = {seat: played[seat] + reader.unplayed.get(seat, []) for seat in SEATS}
    if reader.updates:
        updates = list(reader.updates)
        while updates and not updates[-1]:
            updates.pop()
        while updates and not updates[0]:
            updates.pop(0)
        if updates:
            info["updates"] = updates
    if warnings:
        info["warnings"] = warnings

    data: dict[str, Any] = {
        "format": "floating-bridge/1",
        "rules": "bridgebot",
        "first_bidder": first_bidder.name,
        "hands": {seat.name: [str(c) for c in hands[seat]] for seat in SEATS},
        "events": events,
        "meta": {"source_format": SOURCE_FORMAT, "bridgebot": info},
    }
    if game_id is not None:
        data["game_id"] = game_id
    end = _end_by_rules(data)
    if end is not None:
        data["end"] = {"reason": end}
    return parse_log(data)


def _end_by_rules(data: dict[str, Any]) -> str | None:
    """``completed``/``passed_out`` when the events reach the end by the rules, else None."""
    game = Game([[Card.parse(c) for c in data["hands"][seat.name]] for seat in SEATS],
                Seat[data["first_bidder"]], PRESETS["bridgebot"])
    game.check_deal()
    for event in data["events"]:
        if game.stopped:
            return None
        kind = event["type"]
        if kind == "bid":
            game.push_call(Seat[event["seat"]], Call.parse(event["bid"]))
        elif kind == "partner":
            game.push_partner(Seat[event["seat"]], Card.parse(event["card"]))
        elif kind == "play":
            game.push_play(Seat[event["seat"]], Card.parse(event["card"]))
    if game.stopped or game.phase != OVER:
        return None
    return "passed_out" if game.passed_out else "completed"


# -- the reader interface (``GAME.readers``: ``replay.log.read_logs`` asks each game's readers)
def looks_like(text: str) -> bool:
    """Whether a text is a BridgeBot text log (it starts with ``Player hands:`` or ``Bidding:``)."""
    return looks_like_legacy_text(text)


def read(text: str, name: str | None = None) -> GameLog:
    """The game in a BridgeBot text log; raises ``LogFormatError`` naming the line."""
    return parse_text_log(text)
