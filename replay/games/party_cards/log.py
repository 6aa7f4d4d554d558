"""Log format ``party-cards/1``: the pydantic models, the reader and the canonical writer.

The contract is ``shared/spec/party-cards.md`` (see ``docs/games/party-cards.md``); the JSON
Schema ``docs/party-cards.schema.json`` is generated from these models. The envelope
(``format``, ``game_id``, ``started_at``, ``players``, ``events``, ``end``, ``meta``, ``t``
times, unknown fields kept) works as in the other formats. Seats are the bot's own names
(``p1``, a chat handle): any short text without spaces, listed in ``players`` in table order.
Every seat an event names must be one of them; card ids and texts are free text.

>>> log = parse({"format": "party-cards/1", "players": {"p1": {"name": "Ann"}, "p2": {}, "p3": {}},
...              "hand_size": 1, "score_limit": 1,
...              "hands": {"p1": [{"id": "a1", "text": "Bees?"}], "p2": [{"id": "a2", "text": "Jazz hands."}],
...                        "p3": [{"id": "a3", "text": "<b>A goose</b>"}]},
...              "events": [{"type": "join", "seat": "p1", "t": 100}]})
>>> log.seats, log.hands["p3"][0].text
(('p1', 'p2', 'p3'), '<b>A goose</b>')
>>> log.canonical_json()[:80]
'{"format":"party-cards/1","players":{"p1":{"name":"Ann"},"p2":{},"p3":{}},"score'
>>> parse({"format": "party-cards/1", "players": {"p1": {}}, "hands": {}, "score_limit": 3,
...        "events": [{"type": "join", "seat": "p9"}]})
Traceback (most recent call last):
...
replay.log.LogFormatError: events[0].seat: 'p9' is not a seat of this game (p1)
>>> parse({"format": "party-cards/1", "players": {"p1": {}}})
Traceback (most recent call last):
...
replay.log.LogFormatError: score_limit: required field is missing; hands: required field is missing; events: required field is missing
"""

from __future__ import annotations

import sys
from datetime import datetime
from typing import Annotated, Any, Literal, Union

from pydantic import (
    Field,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

from replay.envelope import Envelope, error_place
from replay.kit.log import LogFormat, Millis, Open, chat_event, end_model, short_repr
from replay.log import Player
from replay.reading import TextReader, reading_validator

FORMAT = "party-cards/1"
END_REASONS = ("completed", "cancelled", "timeout", "not_enough_players")
EVENT_TYPES = ("join", "decline", "swap", "round", "answer", "reveal", "pick", "draw", "leave", "chat")
MIN_SEATS = 3
MAX_SEATS = 10
DEFAULT_HAND_SIZE = 10
#: practical bounds that keep hostile input cheap (the rules set none): a game of 50 rounds of
#: 10 seats is about 1,500 events, so 20,000 game events and 2,000 chat events are generous.
MAX_GAME_EVENTS = 20_000
MAX_CHAT = 2_000
MAX_EVENTS = MAX_GAME_EVENTS + MAX_CHAT
MAX_SEAT = 64        # characters in a seat name
MAX_ID = 64          # characters in a card id
MAX_CARD_TEXT = 1000  # characters in a card's text
MAX_TEXT = 4000      # characters in a chat text
MAX_HAND_SIZE = 100
MAX_CARDS = 200      # cards in one hand list, one draw or one swap
MAX_SCORE_LIMIT = 1000


SeatName = Annotated[str, Field(min_length=1, max_length=MAX_SEAT, pattern=r"^\S+$")]
CardId = Annotated[str, Field(min_length=1, max_length=MAX_ID)]


class AnswerCard(Open):
    id: CardId
    text: str = Field(max_length=MAX_CARD_TEXT)


class QuestionCard(Open):
    id: CardId
    text: str = Field(max_length=MAX_CARD_TEXT, description="the question; each run of 3 or more underscores is a blank")
    pick: int = Field(ge=1, le=3, description="how many answer cards each seat plays")


class JoinEvent(Open):
    type: Literal["join"]
    seat: SeatName
    t: Millis | None = None


class DeclineEvent(Open):
    type: Literal["decline"]
    seat: SeatName
    t: Millis | None = None


class SwapEvent(Open):
    type: Literal["swap"]
    seat: SeatName
    discard: list[CardId] = Field(max_length=MAX_CARDS)
    draw: list[AnswerCard] = Field(max_length=MAX_CARDS)
    t: Millis | None = None


class RoundEvent(Open):
    type: Literal["round"]
    czar: SeatName
    question: QuestionCard
    t: Millis | None = None


class AnswerEvent(Open):
    type: Literal["answer"]
    seat: SeatName
    cards: list[CardId] = Field(max_length=MAX_CARDS)
    t: Millis | None = None


class RevealEvent(Open):
    type: Literal["reveal"]
    order: list[SeatName] = Field(max_length=MAX_SEATS * 2)
    t: Millis | None = None


class PickEvent(Open):
    type: Literal["pick"]
    seat: SeatName
    choice: int = Field(ge=-(2**31), le=2**31, description="1-based number in the reveal's order")
    t: Millis | None = None


class DrawEvent(Open):
    type: Literal["draw"]
    seat: SeatName
    cards: list[AnswerCard] = Field(max_length=MAX_CARDS)
    t: Millis | None = None


class LeaveEvent(Open):
    type: Literal["leave"]
    seat: SeatName
    t: Millis | None = None


ChatEvent = chat_event(SeatName, MAX_TEXT, __name__)


Event = Annotated[
    Union[JoinEvent, DeclineEvent, SwapEvent, RoundEvent, AnswerEvent, RevealEvent, PickEvent, DrawEvent,
          LeaveEvent, ChatEvent],
    Field(discriminator="type"),
]


End = end_model(END_REASONS, __name__, winner=SeatName)


class PartyLog(Open, Envelope):
    """One party-cards game, as a bot logged it (``party-cards/1``)."""

    format: Literal["party-cards/1"] = Field(description="game and major version of this format")
    game_id: str | None = Field(None, max_length=200, description="the bot's own id for the game")
    started_at: datetime | None = Field(None, description="ISO 8601 time the game was set up")
    players: dict[SeatName, Player] = Field(
        min_length=1, max_length=MAX_SEATS, description="the invited seats, in table order")
    score_limit: int = Field(ge=1, le=MAX_SCORE_LIMIT, description="points that win the game")
    hand_size: int = Field(DEFAULT_HAND_SIZE, ge=1, le=MAX_HAND_SIZE, description="answer cards each seat holds")
    hands: dict[SeatName, list[AnswerCard]] = Field(
        max_length=MAX_SEATS, description="the answer cards dealt to each invited seat")
    events: list[Event] = Field(max_length=MAX_EVENTS)
    end: End | None = None
    meta: dict[str, Any] = Field(default_factory=dict)

    @field_validator("hands")
    @classmethod
    def _hand_lengths(cls, value: dict[str, list[AnswerCard]]) -> dict[str, list[AnswerCard]]:
        for seat, cards in value.items():
            if len(cards) > MAX_CARDS:
                raise PydanticCustomError("too_many_cards", "hands.{seat}: {n} cards, at most {cap} are allowed",
                                          {"seat": seat, "n": len(cards), "cap": MAX_CARDS})
        return value

    @model_validator(mode="after")
    def _known_seats_and_caps(self) -> "PartyLog":
        seats = self.players
        chats = 0
        for position, event in enumerate(self.events):
            kind = event.type
            if kind == "chat":
                chats += 1
                seat = event.seat
                if seat is not None and seat not in seats:
                    raise _SeatError(("events", position, "seat"), seat, seats)
            elif kind == "round":
                if event.czar not in seats:
                    raise _SeatError(("events", position, "czar"), event.czar, seats)
            elif kind == "reveal":
                for i, seat in enumerate(event.order):
                    if seat not in seats:
                        raise _SeatError(("events", position, "order", i), seat, seats)
            elif event.seat not in seats:
                raise _SeatError(("events", position, "seat"), event.seat, seats)
        for seat in self.hands:
            if seat not in seats:
                raise _SeatError(("hands", seat), seat, seats)
        if self.end is not None and self.end.winner is not None and self.end.winner not in seats:
            raise _SeatError(("end", "winner"), self.end.winner, seats)
        if chats > MAX_CHAT:
            raise PydanticCustomError("too_many_chats", "{n} chat events: at most {cap} are allowed",
                                      {"n": chats, "cap": MAX_CHAT})
        if len(self.events) - chats > MAX_GAME_EVENTS:
            raise PydanticCustomError("too_many_events", "{n} game events: at most {cap} are allowed",
                                      {"n": len(self.events) - chats, "cap": MAX_GAME_EVENTS})
        return self

    # -- views
    @property
    def seats(self) -> tuple[str, ...]:
        """The invited seats in table order."""
        return tuple(self.players)



class _SeatError(ValueError):
    """Raised inside the model validator; turned into a placed error by ``parse``."""

    def __init__(self, place: tuple[Any, ...], seat: str, seats: dict[str, Any]):
        known = ", ".join(list(seats)[:10])
        self.place = place
        super().__init__(f"{short_repr(seat)} is not a seat of this game ({known})")


# --- errors (the kit's ``LogFormat`` words the rest) ------------------------------------------

def _message(error: dict[str, Any]) -> str | None:
    if error["type"] == "string_pattern_mismatch":
        return f"{short_repr(error['input'])} is not a seat name (no spaces)"
    return None


def _error(error: dict[str, Any]) -> tuple[str, str] | None:
    """A seat the log does not invite names its own place."""
    cause = (error.get("ctx") or {}).get("error")
    if isinstance(cause, _SeatError):
        return error_place(cause.place, EVENT_TYPES), str(cause)
    return None


# --- reading JSON text in one pass (``replay.reading``): the models have no Python reader of
# their own, so the reading validator is their schema validated from the text; anything it does
# not take is left to full validation (``parse``), which gives the errors.

#: a plain log's JSON text -> its ``PartyLog``, or None: full reading decides
read_json = TextReader(lambda: reading_validator(PartyLog))


#: the format: ``parse`` (a decoded JSON object -> ``PartyLog``, or ``LogFormatError``), the
#: errors' places and messages, and the JSON Schema (``docs/party-cards.schema.json``)
LOG_FORMAT = LogFormat(PartyLog, FORMAT, EVENT_TYPES, "Party cards game log, format party-cards/1",
                       schema_file="party-cards", message=_message, error=_error)
parse = LOG_FORMAT.parse
errors_from_validation = LOG_FORMAT.errors_from_validation
json_schema = LOG_FORMAT.json_schema
json_schema_text = LOG_FORMAT.json_schema_text

if __name__ == "__main__":  # pragma: no cover - tooling
    sys.exit(LOG_FORMAT.main(sys.argv[1:], "replay.games.party_cards.log"))
