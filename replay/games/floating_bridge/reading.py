"""Floating bridge logs read from JSON text in one pass (``replay.reading``).

The reading validator is ``GameLog``'s own schema with the liberal readers of cards, calls,
seats and rules behind lookups of their canonical spellings, for logs in standard notation
(a ``singbridge`` log, and anything else unusual, is left to full validation). The limits the
``events`` field's before-validator checks are checked on the built models instead:

>>> from replay.games.floating_bridge.bots import play_game
>>> text = play_game(seed=1).canonical_json()
>>> from replay.games.floating_bridge.log import GameLog
>>> read_json(text) == GameLog.model_validate_json(text)
True
>>> read_json(text.replace('"N"', '"Q"', 1)) is None
True
"""

from __future__ import annotations

from typing import Any

from pydantic_core import core_schema

from .cards import Call, Card, Seat
from .log import (
    EVENT_LIMITS,
    MAX_CHAT_TEXT,
    MAX_TEXT,
    PRESETS,
    BidEvent,
    ChatEvent,
    GameLog,
    PartnerEvent,
    PlayEvent,
    TrickEvent,
    _call,
    _card,
    _rules,
    _seat,
)
from ...reading import Lookup, TextReader, reading_validator

_CARDS = Lookup({str(card): card for card in (Card.parse(f"{suit}{rank}") for suit in "CDHS"
                                              for rank in "23456789TJQKA")}, _card)
_CALLS = Lookup({str(call): call for call in (Call.parse("pass"), *(Call.parse(f"{level}{strain}")
                                                                    for level in range(1, 8)
                                                                    for strain in ("C", "D", "H", "S", "NT")))}, _call)
_SEATS = Lookup({seat.name: seat for seat in Seat}, _seat)
_RULES = Lookup({name: _rules(name) for name in PRESETS}, _rules)


def _rules_read(value: Any) -> Any:
    """A preset's name through the lookup; a rules object as full validation reads it."""
    return _RULES[value] if type(value) is str else _rules(value)


def _validator():
    return reading_validator(
        GameLog,
        plain={_card: _CARDS.__getitem__, _call: _CALLS.__getitem__, _seat: _SEATS.__getitem__,
               _rules: _rules_read},
        # the notation only matters to numbers, which the lookups refuse; the limits: _within_limits
        dropped=(GameLog._in_its_notation, GameLog._within_what_a_game_holds),
        fields={(GameLog, "notation"): core_schema.model_field(
            core_schema.with_default_schema(core_schema.literal_schema(["standard"]), default="standard"))},
    )


#: each event model with the most events of its kind a log may hold
_LIMITS = tuple((model, EVENT_LIMITS[kind]) for kind, model in (
    ("bid", BidEvent), ("partner", PartnerEvent), ("play", PlayEvent), ("trick", TrickEvent), ("chat", ChatEvent)))
#: no log of this many events or fewer passes a limit (a chat text is at most MAX_TEXT characters)
_FEWEST = min(min(EVENT_LIMITS.values()), MAX_CHAT_TEXT // MAX_TEXT)


def _within_limits(log: GameLog) -> bool:
    """What ``GameLog._within_what_a_game_holds`` checks, on the validated events."""
    events = log.events
    n = len(events)
    if n <= _FEWEST:
        return True
    kinds = list(map(type, events))  # C work: each kind of event is one class
    for model, limit in _LIMITS:
        if n > limit and kinds.count(model) > limit:
            return False
    if n * MAX_TEXT > MAX_CHAT_TEXT and ChatEvent in kinds \
            and sum(len(e.text) for e in events if type(e) is ChatEvent) > MAX_CHAT_TEXT:
        return False
    return True


read_json = TextReader(_validator, _within_limits)
