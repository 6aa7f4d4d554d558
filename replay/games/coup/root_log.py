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
>>> read("Sent to player 1: DECK|D|Q")
Traceback (most recent call last):
...
replay.log.LogFormatError: line 1: 'Q' is not a Coup card (D, A, B, C, E or a character's name)
"""

from __future__ import annotations

import re
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
#: how far ``looks_like`` reads before it gives up (a real Root log opens with debugging output)
LOOK_LINES = 5000


def _match(line: str):
    match = _FORM.search(line)
    if match is None:
        return None
    msg = match["msg"].strip()
    if not msg:
        return None
    return match, msg


def looks_like(text: str) -> bool:
    """Whether ``text`` is a Root's log: a line among its first ones carries a protocol message."""
    for number, line in enumerate(text.splitlines()):
        if number >= LOOK_LINES:
            break
        found = _match(line)
        if found and _SPLIT.split(found[1], 1)[0] in COMMANDS:
            return True
    return False


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
    def received(self, number: int, player: str, msg: str) -> None:
        self.check_unread(player)
        fields = [f for f in _SPLIT.split(msg) if f]
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
                                f"not {count - 1}: {' '.join(fields)!r}")

        def own(field: str) -> str:
            if field != player:
                raise self.fail(number, f"player {player} sent a {command} for player {field}")
            return field

        if command not in COMMANDS:
            raise self.fail(number, f"{fields[0]!r} is not a message of the CoupBots protocol")
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

    def sent(self, number: int, to: str | None, msg: str, broadcast: bool) -> bool:
        """A message the Root sent; returns False once the log is closed (``EXIT``)."""
        fields = [f for f in _SPLIT.split(msg) if f]
        command = fields[0]
        if command not in COMMANDS:
            raise self.fail(number, f"{fields[0]!r} is not a message of the CoupBots protocol")
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
            if len(fields) != 3 or not fields[2].isdigit():
                raise self.fail(number, f"COINS needs a player id and a count: {msg!r}")
            seat, coins = fields[1], int(fields[2])
            if self.last_coins.get(seat) != coins:
                self.add({"type": "coins", "seat": seat, "coins": coins})
                self.last_coins[seat] = coins
            return True
        if command == "TURN":
            if len(fields) != 2:
                raise self.fail(number, f"TURN needs a player id: {msg!r}")
            if not self.first_round_done:
                if fields[1] in self.turn_order:
                    self.first_round_done = True
                else:
                    self.turn_order.append(fields[1])
            return True
        if command == "END":
            if len(fields) != 2:
                raise self.fail(number, f"END needs a player id: {msg!r}")
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
        events = [e for e in self.slots if e is not None]
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
        return parse(data, self.source)


def read(text: str, name: str | None = None) -> CoupLog:
    """One game from a Root's log text; raises ``LogFormatError`` naming the line it cannot read."""
    reader = _Reader(name)
    lines = text.splitlines()
    for number, line in enumerate(lines, start=1):
        found = _match(line)
        if found is None:
            continue
        match, msg = found
        stamp = _stamp(line)
        if stamp is not None:
            reader.now = stamp
            if reader.started is None:
                reader.started = stamp
        if match["src"] is not None:
            reader.received(number, match["src"], msg)
        elif not reader.sent(number, match["dst"], msg, match["dst"] is None):
            break
    return reader.log(name, len(lines))
