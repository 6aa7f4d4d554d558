"""A compact binary form of a ``party-cards/1`` log, for self-contained replay codes.

Card texts are free text, so a code must carry them. ``encode_payload`` writes a log as two
streams, numbers (unsigned LEB128 varints) and texts (length-prefixed UTF-8), then compresses
them with zstd and a dictionary trained on the bundled card pool (``data/codec-dict-v1.bin``);
``decode_payload`` reverses it. The first byte is the codec version, which names the
dictionary: a shipped dictionary never changes, a new one gets a new version.

>>> from replay.games.party_cards.bots import play_game
>>> log = play_game(seed=5, rounds=5)
>>> payload = encode_payload(log)
>>> payload[0], decode_payload(payload).canonical_json() == log.canonical_json()
(1, True)
>>> len(payload) < len(log.canonical_json()) // 8
True

What the numbers hold: seats as indices into ``players`` (table order), each card id once
(later mentions are indices into the ids seen so far; an id of the form prefix + number is
written as a prefix index and the number), each text once (repeats are indices), event
types, times as differences from the previous time, choices, counts. Whatever the format
allows beyond that (``meta``, unknown extra fields anywhere) travels as a canonical JSON text
in the texts stream, so every log round-trips exactly (``canonical_json`` is unchanged).
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources
from typing import Any

import zstandard

from replay.errors import ReplayError

from .bots import play_game
from .cards import card_pool

from .log import END_REASONS, EVENT_TYPES, PartyLog, parse

VERSION = 1
DICTIONARY_FILE = "codec-dict-v1.bin"
DICTIONARY_SIZE = 16 * 1024
LEVEL = 19
MAX_DECODED = 8 * 1024 * 1024  # a body larger than this is not a game (the format's caps allow less)
_NUMBERED = re.compile(r"(.*?)(0|[1-9][0-9]{0,17})")
_TYPE_CODE = {name: i for i, name in enumerate(EVENT_TYPES)}
_REASON_CODE = {name: i for i, name in enumerate(END_REASONS)}
_PLAYER_FIELDS = ("name", "id", "bot")


class PayloadError(ReplayError, ValueError):
    """Bytes that are not a party-cards payload of a version this release reads."""


# --- the two streams --------------------------------------------------------------------------

INTS, REFS, TIMES, STRS = 0, 1, 2, 3  # the body's streams: structure, text references, times, texts


def _put(out: bytearray, value: int) -> None:
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)


def _zigzag(value: int) -> int:
    return value * 2 if value >= 0 else -value * 2 - 1


class _Writer:
    __slots__ = ("streams", "ids", "prefixes", "texts", "pool", "hands")

    def __init__(self, seats: int) -> None:
        self.streams = [bytearray(), bytearray(), bytearray(), bytearray()]
        self.ids: dict[str, int] = {}
        self.prefixes: dict[str, list[int]] = {}  # prefix -> [index, last number]
        self.texts: dict[str, int] = {}
        self.pool = _pool_index()
        self.hands: list[list[str]] = [[] for _ in range(seats)]

    def int(self, value: int) -> None:
        if value < 0:
            raise ValueError("varints are unsigned")
        _put(self.streams[INTS], value)

    def signed(self, value: int) -> None:
        _put(self.streams[INTS], _zigzag(value))

    def time(self, delta: int) -> None:
        _put(self.streams[TIMES], _zigzag(delta))

    def str(self, text: str) -> None:
        data = text.encode("utf-8", "surrogatepass")
        out = self.streams[STRS]
        _put(out, len(data))
        out += data

    def card_id(self, card_id: str) -> None:
        """0: a new id as text; 1: a new id, prefix + number (delta from that prefix's last
        number); 2 + k: the k-th id seen."""
        known = self.ids.get(card_id)
        if known is not None:
            self.int(2 + known)
            return
        self.ids[card_id] = len(self.ids)
        match = _NUMBERED.fullmatch(card_id)
        if match is None:
            self.int(0)
            self.str(card_id)
            return
        self.int(1)
        prefix, number = match.group(1), int(match.group(2))
        entry = self.prefixes.get(prefix)
        if entry is None:
            self.int(len(self.prefixes))
            self.str(prefix)
            entry = self.prefixes[prefix] = [len(self.prefixes), 0]
        else:
            self.int(entry[0])
        self.signed(number - entry[1] - 1)
        entry[1] = number

    def held(self, seat: int, card_id: str) -> None:
        """A card a seat plays or throws away: 1 + its place in the seat's hand, else 0 and the id."""
        hand = self.hands[seat]
        try:
            place = hand.index(card_id)
        except ValueError:
            self.int(0)
            self.card_id(card_id)
            return
        del hand[place]
        self.int(place + 1)

    def text(self, text: str) -> None:
        """0: a new text; 1 + k: the k-th card of the bundled pool; then repeats after the pool."""
        refs = self.streams[REFS]
        pooled = self.pool.get(text)
        if pooled is not None:
            _put(refs, 1 + pooled)
            return
        known = self.texts.get(text)
        if known is not None:
            _put(refs, 1 + len(self.pool) + known)
            return
        _put(refs, 0)
        self.texts[text] = len(self.texts)
        self.str(text)

    def card(self, card: dict[str, Any], seat: int | None = None) -> None:
        self.card_id(card["id"])
        self.text(card["text"])
        if seat is not None:
            self.hands[seat].append(card["id"])

    def body(self) -> bytes:
        head = bytearray()
        for stream in self.streams[:STRS]:
            _put(head, len(stream))
        return bytes(head) + b"".join(bytes(stream) for stream in self.streams)


class _Reader:
    __slots__ = ("data", "pos", "ends", "ids", "prefixes", "texts", "pool", "hands")

    def __init__(self, body: bytes):
        self.data = body
        self.pos = [0, 0, 0, 0]
        self.ends = [len(body)] * 4
        lengths = [self._varint(INTS) for _ in range(STRS)]
        start = self.pos[INTS]
        for stream, n in enumerate(lengths):
            self.pos[stream] = start
            start += n
            self.ends[stream] = start
        if start > len(body):
            raise PayloadError("the payload is cut short")
        self.pos[STRS] = start
        self.ends[STRS] = len(body)
        self.ids: list[str] = []
        self.prefixes: list[list[Any]] = []  # [prefix, last number]
        self.texts: list[str] = []
        self.pool = _pool_texts()
        self.hands: list[list[str]] = []

    def _varint(self, stream: int) -> int:
        data = self.data
        i = self.pos[stream]
        end = self.ends[stream]
        value = shift = 0
        while True:
            if i >= end:
                raise PayloadError("the payload is cut short")
            byte = data[i]
            i += 1
            value |= (byte & 0x7F) << shift
            if byte < 0x80:
                break
            shift += 7
            if shift > 70:
                raise PayloadError("a number in the payload is too long")
        self.pos[stream] = i
        return value

    def int(self) -> int:
        return self._varint(INTS)

    def signed(self) -> int:
        value = self.int()
        return value // 2 if value % 2 == 0 else -(value + 1) // 2

    def time(self) -> int:
        value = self._varint(TIMES)
        return value // 2 if value % 2 == 0 else -(value + 1) // 2

    def str(self) -> str:
        n = self._varint(STRS)
        start = self.pos[STRS]
        if start + n > len(self.data):
            raise PayloadError("the payload is cut short")
        self.pos[STRS] = start + n
        try:
            return self.data[start:start + n].decode("utf-8", "surrogatepass")
        except UnicodeDecodeError:
            raise PayloadError("a text in the payload is not UTF-8") from None

    def card_id(self) -> str:
        value = self.int()
        if value >= 2:
            if value - 2 >= len(self.ids):
                raise PayloadError("a card id reference out of range")
            return self.ids[value - 2]
        if value == 0:
            card_id = self.str()
        else:
            p = self.int()
            if p == len(self.prefixes):
                self.prefixes.append([self.str(), 0])
            elif p > len(self.prefixes):
                raise PayloadError("an id prefix out of range")
            entry = self.prefixes[p]
            number = entry[1] + 1 + self.signed()
            if number < 0:
                raise PayloadError("a card number out of range")
            entry[1] = number
            card_id = entry[0] + str(number)
        self.ids.append(card_id)
        return card_id

    def held(self, seat: int) -> str:
        place = self.int()
        if place == 0:
            return self.card_id()
        hand = self.hands[seat]
        if place > len(hand):
            raise PayloadError("a card's place in a hand out of range")
        return hand.pop(place - 1)

    def text(self) -> str:
        value = self._varint(REFS)
        if value == 0:
            text = self.str()
            self.texts.append(text)
            return text
        value -= 1
        if value < len(self.pool):
            return self.pool[value]
        value -= len(self.pool)
        if value >= len(self.texts):
            raise PayloadError("a text reference out of range")
        return self.texts[value]

    def card(self, seat: int | None = None) -> dict[str, Any]:
        card_id = self.card_id()
        card = {"id": card_id, "text": self.text()}
        if seat is not None:
            self.hands[seat].append(card_id)
        return card

    def seat_index(self, seats: list[str]) -> int:
        value = self.int()
        if value >= len(seats):
            raise PayloadError("a seat index out of range")
        return value

    def seat(self, seats: list[str]) -> str:
        return seats[self.seat_index(seats)]


# --- log <-> body -----------------------------------------------------------------------------

_KNOWN_EVENT_FIELDS = {
    "join": ("type", "seat", "t"), "decline": ("type", "seat", "t"), "leave": ("type", "seat", "t"),
    "swap": ("type", "seat", "discard", "draw", "t"), "round": ("type", "czar", "question", "t"),
    "answer": ("type", "seat", "cards", "t"), "reveal": ("type", "order", "t"), "pick": ("type", "seat", "choice", "t"),
    "draw": ("type", "seat", "cards", "t"), "chat": ("type", "seat", "text", "t"),
}
_LOG_FIELDS = ("format", "game_id", "started_at", "players", "score_limit", "hand_size", "hands", "events", "end")


def _extras(obj: dict[str, Any], known) -> dict[str, Any]:
    return {k: v for k, v in obj.items() if k not in known}


def log_body(log: PartyLog) -> bytes:
    """The uncompressed binary form of a log (what the dictionary is trained on)."""
    data = log.to_json_dict()
    w = _Writer(len(data["players"]))
    residue: list[list[Any]] = []
    top = _extras(data, _LOG_FIELDS)
    if top:
        residue.append([[], top])
    flags = (("game_id" in data) | ("started_at" in data) << 1 | ("end" in data) << 2)
    w.int(flags)
    if "game_id" in data:
        w.str(data["game_id"])
    if "started_at" in data:
        w.str(data["started_at"])
    players = data["players"]
    seats = list(players)
    index = {seat: i for i, seat in enumerate(seats)}
    w.int(len(seats))
    for seat, player in players.items():
        w.str(seat)
        w.int(sum(1 << n for n, key in enumerate(_PLAYER_FIELDS) if key in player))
        for key in _PLAYER_FIELDS:
            if key in player:
                w.str(player[key])
        extra = _extras(player, _PLAYER_FIELDS)
        if extra:
            residue.append([["players", seat], extra])
    w.int(data["score_limit"])
    w.int(data["hand_size"])
    w.int(len(data["hands"]))
    for seat, cards in data["hands"].items():
        w.int(index[seat])
        w.int(len(cards))
        for n, card in enumerate(cards):
            w.card(card, index[seat])
            _card_extras(card, ["hands", seat, n], residue)
    events = data["events"]
    w.int(len(events))
    last_t = 0
    for n, event in enumerate(events):
        kind = event["type"]
        t = event.get("t")
        w.int(_TYPE_CODE[kind] * 2 + (t is not None))
        if t is not None:
            w.time(t - last_t)
            last_t = t
        if kind in ("join", "decline", "leave"):
            w.int(index[event["seat"]])
        elif kind == "answer":
            seat = index[event["seat"]]
            w.int(seat)
            w.int(len(event["cards"]))
            for card_id in event["cards"]:
                w.held(seat, card_id)
        elif kind == "draw":
            seat = index[event["seat"]]
            w.int(seat)
            w.int(len(event["cards"]))
            for i, card in enumerate(event["cards"]):
                w.card(card, seat)
                _card_extras(card, ["events", n, "cards", i], residue)
        elif kind == "round":
            w.int(index[event["czar"]])
            question = event["question"]
            w.card(question)
            w.int(question["pick"])
            extra = _extras(question, ("id", "text", "pick"))
            if extra:
                residue.append([["events", n, "question"], extra])
        elif kind == "reveal":
            w.int(len(event["order"]))
            for seat in event["order"]:
                w.int(index[seat])
        elif kind == "pick":
            w.int(index[event["seat"]])
            w.signed(event["choice"])
        elif kind == "swap":
            seat = index[event["seat"]]
            w.int(seat)
            w.int(len(event["discard"]))
            for card_id in event["discard"]:
                w.held(seat, card_id)
            w.int(len(event["draw"]))
            for i, card in enumerate(event["draw"]):
                w.card(card, seat)
                _card_extras(card, ["events", n, "draw", i], residue)
        else:  # chat
            w.int(index[event["seat"]] + 1 if "seat" in event else 0)
            w.str(event["text"])
        extra = _extras(event, _KNOWN_EVENT_FIELDS[kind])
        if extra:
            residue.append([["events", n], extra])
    if "end" in data:
        end = data["end"]
        w.int(_REASON_CODE[end["reason"]])
        w.int(index[end["winner"]] + 1 if "winner" in end else 0)
        w.int("t" in end)
        if "t" in end:
            w.time(end["t"] - last_t)
        extra = _extras(end, ("reason", "winner", "t"))
        if extra:
            residue.append([["end"], extra])
    w.str(json.dumps(residue, ensure_ascii=False, separators=(",", ":")) if residue else "")
    return w.body()


def _card_extras(card: dict[str, Any], path: list[Any], residue: list[list[Any]]) -> None:
    extra = _extras(card, ("id", "text"))
    if extra:
        residue.append([path, extra])


def body_log(body: bytes) -> PartyLog:
    """The log a binary body holds (the inverse of ``log_body``); raises ``PayloadError``."""
    r = _Reader(body)
    data: dict[str, Any] = {"format": "party-cards/1"}
    flags = r.int()
    if flags & 1:
        data["game_id"] = r.str()
    if flags & 2:
        data["started_at"] = r.str()
    seats: list[str] = []
    players: dict[str, Any] = {}
    for _ in range(r.int()):
        seat = r.str()
        present = r.int()
        players[seat] = {key: r.str() for n, key in enumerate(_PLAYER_FIELDS) if present >> n & 1}
        seats.append(seat)
    data["players"] = players
    r.hands = [[] for _ in seats]
    data["score_limit"] = r.int()
    data["hand_size"] = r.int()
    hands: dict[str, Any] = {}
    for _ in range(r.int()):
        seat_index = r.seat_index(seats)
        hands[seats[seat_index]] = [r.card(seat_index) for _ in range(r.int())]
    data["hands"] = hands
    events: list[dict[str, Any]] = []
    last_t = 0
    for _ in range(r.int()):
        code = r.int()
        if code // 2 >= len(EVENT_TYPES):
            raise PayloadError("an unknown event type in the payload")
        kind = EVENT_TYPES[code // 2]
        event: dict[str, Any] = {"type": kind}
        t = None
        if code & 1:
            t = last_t + r.time()
            last_t = t
        if kind in ("join", "decline", "leave"):
            event["seat"] = r.seat(seats)
        elif kind == "answer":
            seat_index = r.seat_index(seats)
            event["seat"] = seats[seat_index]
            event["cards"] = [r.held(seat_index) for _ in range(r.int())]
        elif kind == "draw":
            seat_index = r.seat_index(seats)
            event["seat"] = seats[seat_index]
            event["cards"] = [r.card(seat_index) for _ in range(r.int())]
        elif kind == "round":
            event["czar"] = r.seat(seats)
            question = r.card()
            question["pick"] = r.int()
            event["question"] = question
        elif kind == "reveal":
            event["order"] = [r.seat(seats) for _ in range(r.int())]
        elif kind == "pick":
            event["seat"] = r.seat(seats)
            event["choice"] = r.signed()
        elif kind == "swap":
            seat_index = r.seat_index(seats)
            event["seat"] = seats[seat_index]
            event["discard"] = [r.held(seat_index) for _ in range(r.int())]
            event["draw"] = [r.card(seat_index) for _ in range(r.int())]
        else:
            seat = r.int()
            if seat:
                if seat > len(seats):
                    raise PayloadError("a seat index out of range")
                event["seat"] = seats[seat - 1]
            event["text"] = r.str()
        if t is not None:
            event["t"] = t
        events.append(event)
    data["events"] = events
    if flags & 4:
        end: dict[str, Any] = {}
        reason = r.int()
        if reason >= len(END_REASONS):
            raise PayloadError("an unknown end reason in the payload")
        end["reason"] = END_REASONS[reason]
        winner = r.int()
        if winner:
            if winner > len(seats):
                raise PayloadError("a seat index out of range")
            end["winner"] = seats[winner - 1]
        if r.int():
            end["t"] = last_t + r.time()
        data["end"] = end
    residue = r.str()
    if residue:
        try:
            for path, extra in json.loads(residue):
                target: Any = data
                for key in path:
                    target = target[key]
                target.update(extra)
        except (ValueError, TypeError, KeyError, IndexError, AttributeError):
            raise PayloadError("the payload's extra fields are damaged") from None
    return parse(data, "payload")


@lru_cache(maxsize=1)
def _pool_texts() -> tuple[str, ...]:
    """The bundled pool's texts (questions, then answers): version 1 of the codec refers to them."""
    return tuple(card_pool().texts())


@lru_cache(maxsize=1)
def _pool_index() -> dict[str, int]:
    index: dict[str, int] = {}
    for n, text in enumerate(_pool_texts()):
        index.setdefault(text, n)
    return index


# --- compression ------------------------------------------------------------------------------

@lru_cache(maxsize=1)
def dictionary():
    """The shipped zstd dictionary of this codec version."""
    raw = resources.files("replay.games.party_cards").joinpath("data", DICTIONARY_FILE).read_bytes()
    return zstandard.ZstdCompressionDict(raw)


def encode_payload(log: PartyLog) -> bytes:
    """The log as bytes: the version byte, then the zstd-compressed body (with the dictionary)."""
    compressor = zstandard.ZstdCompressor(level=LEVEL, dict_data=dictionary(), write_checksum=False,
                                          write_content_size=True, write_dict_id=False)
    return bytes([VERSION]) + compressor.compress(log_body(log))


def decode_payload(payload: bytes) -> PartyLog:
    """The log that ``encode_payload`` wrote; raises ``PayloadError`` (or ``LogFormatError``)."""
    if not payload:
        raise PayloadError("an empty payload")
    if payload[0] != VERSION:
        raise PayloadError(f"payload version {payload[0]} is not one this release reads (it reads {VERSION})")
    try:
        body = zstandard.ZstdDecompressor(dict_data=dictionary()).decompress(payload[1:], max_output_size=MAX_DECODED)
    except zstandard.ZstdError as exc:
        raise PayloadError(f"the payload does not decompress: {exc}") from None
    return body_log(body)


# --- training (tooling) -----------------------------------------------------------------------

def training_samples(games: int = 600) -> list[bytes]:
    """Bodies of seeded self-play games over the bundled pool: what the dictionary learns from."""
    # the pool's texts themselves (a card of the pool is written as its index, but texts near
    # them, and any other English card, share their words) and the bodies' structure
    samples = [text.encode("utf-8") for text in card_pool().texts()]
    for seed in range(games):
        rounds = (3, 5, 8, 10, None)[seed % 5]
        samples.append(log_body(play_game(10_000 + seed, rounds=rounds, chat=seed % 3 == 0)))
    return samples


def train_dictionary(size: int = DICTIONARY_SIZE) -> bytes:
    """Train a dictionary (deterministic for one zstandard version: one thread, fixed samples)."""
    return zstandard.train_dictionary(size, training_samples(), threads=0, level=LEVEL, k=64, d=8,
                                      dict_id=VERSION).as_bytes()


if __name__ == "__main__":  # pragma: no cover - tooling
    import sys

    if sys.argv[1:] == ["--train"]:
        sys.stdout.buffer.write(train_dictionary())
    else:
        print(f"usage: python -m replay.games.party_cards.codec --train > replay/games/party_cards/data/"
              f"{DICTIONARY_FILE}  (only for a NEW version: a shipped dictionary never changes)")
