"""The reader of a CoupBots Root's log file: one game, as a ``coup/1`` log.

A Root logs every message it receives and sends among many lines of debugging output. A line is
read when one of the spec's forms stands at its start or right after a logger's prefix ending in
`` | `` (CoupBots' own format) or `` - `` (loguru's default), and its message is not empty;
every other line is ignored. Messages have their fields separated by ``|`` or spaces.

>>> text = '''2026:11:24 at 00:39:57:823 | INFO     | client.root:_send_single:270 | Sent to player 1: DECK|D|C
... 2026:11:24 at 00:39:57:824 | INFO     | client.root:_send_single:270 | Sent to player 2: DECK E E
... 2026:11:24 at 00:39:57:830 | INFO     | client.root:_send_all:274 | Sent to ALL players: TURN|1
... New Turn: Player 1
... 2026:11:24 at 00:39:58:000 | SUCCESS  | client.root:receive_single:76 | Player 1: ACT 1 T
... 2026:11:24 at 00:39:58:100 | SUCCESS  | client.root:receive_single:76 | Player 2: OK
... 2026:11:24 at 00:39:58:200 | INFO     | client.root:_send_all:274 | Sent to ALL players: COINS|1|5'''
>>> looks_like(text)
True
>>> log = read(text, "root-g1.log")
>>> log.game_id, log.seat_order, log.first_player, [e.type for e in log.events], log.events[0].t
(None, ('1', '2'), '1', ['action', 'coins'], 177)
>>> log.replay().findings
[]
>>> log.meta  # the deal is known: every DECK came before play, and a TURN names the first player
{'source': 'CoupBots Root log', 'lines': 7}
>>> read("Sent to player 1: DECK|D|C\\nSent to player 2: DECK|E|E").meta["deal_unknown"]  # no TURN
{'first_player': True}
>>> read("Sent to player 1: DECK|D|Q")
Traceback (most recent call last):
...
replay.log.LogFormatError: line 1: 'Q' is not a Coup card (D, A, B, C, E or a character's name)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from replay.log import LogFormatError

from .cards import CARD_TEXT, CardParseError, parse_action, parse_card
from .log import CoupLog, parse

NAME = "CoupBots Root log"
_ID = r"[A-Za-z0-9_.:-]+"
_FORM = re.compile(
    r"(?:^|(?<= \| )|(?<= - ))(?:Player (?P<src>" + _ID + r"): |Sent to player (?P<dst>" + _ID
    + r"): |Sent to all except player (?P<exc>" + _ID + r"): |(?P<all>Sent to ALL players: ))(?P<msg>.*)$")
_SPLIT = re.compile(r"\s*\|\s*|\s+")
_STAMPS = (
    (re.compile(r"(\d{4}):(\d\d):(\d\d) at (\d\d):(\d\d):(\d\d):(\d{1,3})\b"), True),  # CoupBots
    (re.compile(r"(\d{4})-(\d\d)-(\d\d)[ T](\d\d):(\d\d):(\d\d)[.,](\d{1,3})\b"), True),  # loguru
)
COMMANDS = frozenset(("ACT", "BLOCK", "CHAL", "SHOW", "LOSE", "COINS", "DECK", "CHOOSE", "KEEP", "PLAYER",
                      "START", "READY", "TURN", "EXIT", "OK", "ILLEGAL", "DEAD", "END", "HELLO"))
_RELAYED = frozenset(("ACT", "BLOCK", "CHAL", "SHOW", "LOSE", "KEEP"))
#: messages a player sends only while a game is being set up (before the deal)
_JOINING = frozenset(("HELLO", "READY"))
#: the longest coin count read (the log model takes at most 10,000 coins)
MAX_COUNT_DIGITS = 6
_COUNT = re.compile(r"[0-9]{1,%d}" % MAX_COUNT_DIGITS)


def _lines(text: str) -> list[str]:
    """The text's lines, split where its bytes split at ``\\n`` (a CR before it dropped), so that
    line ``n`` is line ``n`` of the file's bytes, as in a JSON lines file."""
    lines = text.split("\n")
    return [line[:-1] if line.endswith("\r") else line for line in lines]


def _quote(text: str, most: int = 60) -> str:
    """``text`` quoted for an error message, cut to ``most`` characters (a line may be huge)."""
    shown = repr(text)
    return shown if len(shown) <= most else shown[:most - 4] + "...'"


def _match(line: str) -> "tuple[re.Match[str], list[str], str] | None":
    """The line's form, the fields of its message and the message; None for any other line
    (also for a message of only separators, such as ``Player 1: |``: an empty message)."""
    if "layer" not in line:  # every form names a player or players: most noise goes at C speed
        return None
    match = _FORM.search(line)
    if match is None:
        return None
    msg = match["msg"].strip()
    fields = [f for f in _SPLIT.split(msg) if f]
    if not fields:
        return None
    return match, fields, msg


def looks_like(text: str) -> bool:
    """Whether ``text`` is a Root's log: a line of it carries a protocol message, after any
    amount of debugging output."""
    return any(found is not None and found[1][0] in COMMANDS for found in map(_match, _lines(text)))


def _stamp(line: str) -> datetime | None:
    for pattern, _ in _STAMPS:
        m = pattern.match(line)
        if m:
            y, mo, d, h, mi, s, ms = (int(x) for x in m.groups())
            try:
                return datetime(y, mo, d, h, mi, s, int(str(ms).ljust(3, "0")[:3]) * 1000, tzinfo=timezone.utc)
            except ValueError:
                return None
    return None


class _Reader:
    def __init__(self, source: str | None):
        self.source = source
        self.deals: dict[str, list[str]] = {}
        #: players whose first DECK came after the game began (not the deal: the log starts late)
        self.late_deals: list[str] = []
        self.turn_order: list[str] = []
        self.first_round_done = False
        self.slots: list[dict[str, Any] | None] = []
        self.last: dict[str, tuple[int, str, int, str | None]] = {}  # player -> (slot, raw, line, error)
        self.hands: dict[str, list[str]] = {}
        self.pending_show: dict[str, tuple[str, list[str]]] = {}
        self.choose: dict[str, list[str]] = {}
        self.left: set[str] = set()
        self.last_coins: dict[str, int] = {}
        self.started: datetime | None = None
        self.now: datetime | None = None

    def fail(self, number: int, message: str) -> LogFormatError:
        return LogFormatError([(f"line {number}", message)], self.source)

    def card(self, number: int, text: str) -> str:
        try:
            return CARD_TEXT[parse_card(text)]
        except CardParseError as exc:
            raise self.fail(number, str(exc)) from None

    def add(self, event: dict[str, Any]) -> int:
        if self.now is not None and self.started is not None:
            event["t"] = max(0, int((self.now - self.started).total_seconds() * 1000))
        self.slots.append(event)
        if event["type"] != "coins":
            self.last_coins.clear()
        return len(self.slots) - 1

    def check_unread(self, player: str) -> None:
        previous = self.last.get(player)
        if previous is not None and previous[3] is not None:
            raise self.fail(previous[2], previous[3])

    # -- messages ---------------------------------------------------------------------------
    def received(self, number: int, player: str, fields: list[str], msg: str) -> None:
        self.check_unread(player)
        command = fields[0]
        try:
            slot = self.receive_command(number, player, command, fields)
        except LogFormatError as exc:
            # unreadable unless the Root refuses it next (then it is an ``illegal`` event)
            self.last[player] = (len(self.slots), msg, number, exc.errors[0][1])
            self.slots.append(None)
            return
        if slot is None:
            slot = len(self.slots)
            self.slots.append(None)
        self.last[player] = (slot, msg, number, None)

    def receive_command(self, number: int, player: str, command: str, fields: list[str]) -> int | None:
        def need(count: int) -> None:
            if len(fields) != count:
                raise self.fail(number, f"{command} from player {player} has {len(fields) - 1} fields, "
                                f"not {count - 1}: {_quote(' '.join(fields))}")

        def own(field: str) -> str:
            if field != player:
                raise self.fail(number, f"player {player} sent a {command} for player {field}")
            return field

        if command not in COMMANDS:
            raise self.fail(number, f"{_quote(fields[0])} is not a message of the CoupBots protocol")
        if command == "ACT":
            if len(fields) not in (3, 4):
                need(4)
            try:
                letter = parse_action(fields[2])
            except CardParseError as exc:
                raise self.fail(number, str(exc)) from None
            event = {"type": "action", "seat": own(fields[1]), "action": letter}
            if len(fields) == 4:
                event["target"] = fields[3]
            return self.add(event)
        if command == "BLOCK":
            need(3)
            return self.add({"type": "block", "seat": own(fields[1]), "card": self.card(number, fields[2])})
        if command == "CHAL":
            need(2)
            return self.add({"type": "challenge", "seat": own(fields[1])})
        if command == "SHOW":
            need(3)
            card = self.card(number, fields[2])
            self.pending_show[player] = (card, list(self.hands.get(player, [])))
            return self.add({"type": "reveal", "seat": own(fields[1]), "card": card})
        if command == "LOSE":
            need(3)
            card = self.card(number, fields[2])
            hand = self.hands.get(player)
            if hand is not None and card in hand:
                hand.remove(card)
            return self.add({"type": "lose", "seat": own(fields[1]), "card": card})
        if command == "KEEP":
            kept = [self.card(number, f) for f in fields[1:]]
            drawn = self.choose.pop(player, None)
            if drawn is None:
                raise self.fail(number, f"player {player} keeps cards, but was offered none (no CHOOSE before)")
            self.hands[player] = list(kept)
            return self.add({"type": "exchange", "seat": player, "drawn": drawn, "kept": kept})
        return None  # OK, READY, HELLO and the like: no game information

    def sent(self, number: int, to: str | None, fields: list[str], msg: str, broadcast: bool) -> bool:
        """A message the Root sent; returns False once the log is closed (``EXIT``)."""
        command = fields[0]
        if command not in COMMANDS:
            raise self.fail(number, f"{_quote(fields[0])} is not a message of the CoupBots protocol")
        if command == "EXIT":
            return False
        if broadcast and command in _RELAYED:
            return True  # a relay of a message already read from its sender
        if command == "ILLEGAL":
            if to is None:
                return True
            previous = self.last.get(to)
            if previous is None:
                event = {"type": "illegal", "seat": to, "message": "", "reason": "refused by the Root "
                         "(no message from this player was logged before)"}
                self.add(event)
                return True
            slot, raw, _line, _error = previous
            if slot < len(self.slots) and (self.slots[slot] is None or self.slots[slot]["type"] != "illegal"):
                undone = self.slots[slot]
                if undone is not None and undone["type"] == "exchange":
                    self.choose[to] = undone["drawn"]
                event = {"type": "illegal", "seat": to, "message": raw, "reason": "refused by the Root"}
                if undone is not None and "t" in undone:
                    event["t"] = undone["t"]
                elif self.now is not None and self.started is not None:
                    event["t"] = max(0, int((self.now - self.started).total_seconds() * 1000))
                self.slots[slot] = event
            self.last[to] = (slot, raw, _line, None)
            return True
        if command == "COINS":
            # ASCII digits only ("²" is a digit to str.isdigit, not to int) and few of them (int()
            # of thousands of digits is refused, and no game holds that many coins)
            if len(fields) != 3 or not _COUNT.fullmatch(fields[2]):
                raise self.fail(number, f"COINS needs a player id and a count: {_quote(msg)}")
            seat, coins = fields[1], int(fields[2])
            if self.last_coins.get(seat) != coins:
                self.add({"type": "coins", "seat": seat, "coins": coins})
                self.last_coins[seat] = coins
            return True
        if command == "TURN":
            if len(fields) != 2:
                raise self.fail(number, f"TURN needs a player id: {_quote(msg)}")
            if not self.first_round_done:
                if fields[1] in self.turn_order:
                    self.first_round_done = True
                else:
                    self.turn_order.append(fields[1])
            return True
        if command == "END":
            if len(fields) != 2:
                raise self.fail(number, f"END needs a player id: {_quote(msg)}")
            if fields[1] not in self.left:
                self.left.add(fields[1])
                self.add({"type": "leave", "seat": fields[1]})
            return True
        if command == "CHOOSE" and to is not None:
            drawn = [self.card(number, f) for f in fields[1:]]
            if len(drawn) != 2:
                raise self.fail(number, f"CHOOSE offers {len(drawn)} cards: an exchange draws 2")
            self.choose[to] = drawn
            return True
        if command == "DECK" and to is not None:
            hand = [self.card(number, f) for f in fields[1:]]
            if to not in self.deals:
                self.deals[to] = list(hand)
                if self.turn_order or any(e is not None and e["type"] != "coins" for e in self.slots):
                    self.late_deals.append(to)
            elif to in self.pending_show:
                shown, before = self.pending_show.pop(to)
                rest = list(before)
                if shown in rest:
                    rest.remove(shown)
                new = list(hand)
                for card in rest:
                    if card in new:
                        new.remove(card)
                if len(new) != 1:
                    raise self.fail(number, f"the DECK after player {to}'s SHOW of {shown} holds "
                                    f"{' '.join(hand) or 'nothing'}: not the hand before ({' '.join(before)}) "
                                    "less the shown card plus one replacement")
                self.add({"type": "replace", "seat": to, "card": new[0]})
            self.hands[to] = list(hand)
            return True
        return True  # START, READY, PLAYER, DEAD, OK, a LOSE request: no game event

    # -- the game -------------------------------------------------------------------------------
    def log(self, name: str | None, lines: int) -> CoupLog:
        for player in list(self.last):
            self.check_unread(player)
        if not self.deals:
            raise LogFormatError("a CoupBots Root log with no DECK dealt to any player: no game in it", self.source)
        seats = [s for s in self.turn_order if s in self.deals] + [s for s in self.deals if s not in self.turn_order]
        # a message the Root refused from a player who was dealt no cards (one trying to join a
        # game under way) is no event of this game
        events = [e for e in self.slots if e is not None and (e["type"] != "illegal" or e["seat"] in self.deals)]
        lost = {s: 0 for s in seats}
        for e in events:
            if e["type"] == "lose" and e["seat"] in lost:
                lost[e["seat"]] += 1
        alive = [s for s in seats if s not in self.left and lost[s] < len(self.deals[s])]
        data: dict[str, Any] = {"format": "coup/1"}
        # no game_id: a Root's log names no game, and a game's identity (the archive's dedupe)
        # must not depend on the name of the file it arrived in
        if self.started is not None:
            data["started_at"] = self.started.isoformat().replace("+00:00", "Z")
        data["players"] = {s: {"name": f"Player {s}"} for s in seats}
        data["first_player"] = self.turn_order[0] if self.turn_order else seats[0]
        data["hands"] = {s: self.deals[s] for s in seats}
        data["events"] = events
        if len(alive) == 1:
            data["end"] = {"reason": "completed"}
        data["meta"] = {"source": NAME, "lines": lines}
        # what the log does not tell of the deal (``deals.deal_key`` gives no key then): hands
        # first sent after play began, or no TURN to tell who moved first
        unknown: dict[str, Any] = {}
        if self.late_deals:
            unknown["hands"] = list(self.late_deals)
        if not self.turn_order:
            unknown["first_player"] = True
        if unknown:
            data["meta"]["deal_unknown"] = unknown
        return parse(data, self.source)


@dataclass(frozen=True, slots=True)
class Part:
    """One game of a Root's log: the file's lines ``first`` to ``last`` (from 1, both included)
    and the game's log, or why it cannot be read."""

    first: int
    last: int
    log: CoupLog | None = None
    error: LogFormatError | None = None


#: a protocol line: (its number, from 1; its form; its message's fields; the message)
_Line = tuple[int, "re.Match[str]", list[str], str]


def _refused_joins(protocol: list[_Line]) -> set[int]:
    """The HELLO and READY messages (their indexes) that the Root answered with ``ILLEGAL``: a
    player trying to join a game under way, which begins no new game."""
    refused: set[int] = set()
    answer: dict[str, str] = {}  # player -> the next message sent to that player alone
    for index in range(len(protocol) - 1, -1, -1):
        _number, match, fields, _msg = protocol[index]
        if match["dst"] is not None:
            answer[match["dst"]] = fields[0]
        elif match["src"] is not None and fields[0] in _JOINING and answer.get(match["src"]) == "ILLEGAL":
            refused.add(index)
    return refused


def _holds_game(protocol: list[_Line]) -> bool:
    """Whether protocol lines hold a game: a deal, or a move a player made."""
    return any((match["dst"] is not None and fields[0] == "DECK") or (match["src"] is not None and fields[0] in _RELAYED)
               for _number, match, fields, _msg in protocol)


def _split(protocol: list[_Line]) -> list[list[_Line]]:
    """The protocol lines of each game, in order. A game ends at ``EXIT``, or where a player
    joins again (``HELLO``, ``READY`` that the Root does not refuse) after cards were dealt:
    several Root logs in one file, with or without their ``EXIT``. Lines holding no game (what a
    Root logs after its ``EXIT``) belong to no game."""
    refused = _refused_joins(protocol)
    games: list[list[_Line]] = [[]]
    dealt = closed = False
    for index, line in enumerate(protocol):
        _number, match, fields, _msg = line
        command = fields[0]
        if closed or (dealt and match["src"] is not None and command in _JOINING and index not in refused):
            games.append([])
            dealt = closed = False
        games[-1].append(line)
        if match["dst"] is not None and command == "DECK":
            dealt = True
        elif match["src"] is None and command == "EXIT":
            closed = True
    found = [game for game in games if _holds_game(game)]
    return found or [games[0]]  # no game at all: the first part says why (no DECK dealt)


def _read_game(protocol: list[_Line], name: str | None, lines: int) -> CoupLog:
    reader = _Reader(name)
    for number, match, fields, msg in protocol:
        stamp = _stamp(match.string)
        if stamp is not None:
            reader.now = stamp
            if reader.started is None:
                reader.started = stamp
        if match["src"] is not None:
            reader.received(number, match["src"], fields, msg)
        elif not reader.sent(number, match["dst"], fields, msg, match["dst"] is None):
            break
    return reader.log(name, lines)


def read_games(text: str, name: str | None = None) -> list[Part]:
    """Every game in a Root's log text, in order, each with its lines: a file may hold several
    Root logs one after another (with or without ``EXIT``), like a JSON lines file.

    Each game's lines run from the line after the previous game's to the line before the next
    game's first protocol line, so that the file is its games' lines end to end and each game's
    lines, read alone, read as that game. Never raises for bad content: a game that cannot be
    read comes back with its ``LogFormatError`` naming the line.
    """
    raw_lines = text.split("\n")
    protocol: list[_Line] = []
    for number, line in enumerate(_lines(text), start=1):
        found = _match(line)
        if found is not None:
            protocol.append((number, *found))
    games = _split(protocol)
    parts = []
    for index, game in enumerate(games):
        first = parts[-1].last + 1 if parts else 1
        last = games[index + 1][0][0] - 1 if index + 1 < len(games) else len(raw_lines)
        count = len("\n".join(raw_lines[first - 1:last]).splitlines())
        try:
            parts.append(Part(first, last, log=_read_game(game, name, count)))
        except LogFormatError as exc:
            exc.source = name
            parts.append(Part(first, last, error=exc))
    return parts


def read(text: str, name: str | None = None) -> CoupLog:
    """The one game of a Root's log text; raises ``LogFormatError`` naming the line it cannot
    read (or saying that the text holds several games: ``read_games`` reads those)."""
    parts = read_games(text, name)
    if len(parts) > 1:
        raise LogFormatError(f"{len(parts)} games in one Root log (from lines "
                             f"{', '.join(str(p.first) for p in parts)}): read them with read_games", name)
    if parts[0].error is not None:
        raise parts[0].error
    return parts[0].log
