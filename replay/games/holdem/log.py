"""Log format ``holdem/1``: the pydantic models of a Texas hold'em hand, and its reader.

The contract is ``shared/spec/holdem.md`` (see ``docs/games/holdem.md``); the JSON Schema
``docs/holdem.schema.json`` is generated from these models. The envelope (``format``,
``game_id``, ``started_at``, ``players``, ``events``, ``end``, ``meta``, ``t`` times, unknown
fields kept) works as in every format. The game's fields carry PHH's names and meanings, and each
action event holds one PHH action notation, so a ``holdem/1`` log and a ``.phh`` file say the
same thing. Seats are ``p1``..``pN``, one per starting stack. Amounts are ``int`` or exact
``decimal.Decimal`` (a cash game in dollars), written back as JSON numbers. Cards are read
liberally and written canonically:

>>> log = parse({"format": "holdem/1", "variant": "NT", "antes": [0, 0], "blinds_or_straddles": [0.25, 0.5],
...              "min_bet": 0.5, "starting_stacks": [50, 48.75],
...              "events": [{"action": "d dh p1 10h K♠"}, {"action": "d dh p2 ????"},
...                         {"type": "chat", "seat": "p2", "text": "gl"}, {"action": "p2  CBR 1.50"}]})
>>> log.seats, log.starting_stacks, log.events[0].action, log.events[0].type, log.events[3].action
(('p1', 'p2'), [50, Decimal('48.75')], 'd dh p1 ThKs', 'action', 'p2 cbr 1.5')
>>> data = log.to_json_dict()
>>> data["starting_stacks"], data["blinds_or_straddles"], data["events"][2:]
([50, 48.75], [0.25, 0.5], [{'type': 'chat', 'seat': 'p2', 'text': 'gl'}, {'action': 'p2 cbr 1.5'}])
>>> parse(log.canonical_json() and data) == log
True
>>> parse({"format": "holdem/1", "variant": "PO", "starting_stacks": [100, 100], "events": []})
Traceback (most recent call last):
...
replay.log.LogFormatError: variant: 'PO' is not a variant of this game: the supported codes are NT (no-limit Texas hold'em) and FT (fixed-limit Texas hold'em)
>>> parse({"format": "holdem/1", "variant": "NT", "starting_stacks": [100, 100], "events": [{"action": "p1 cbr x"}]})
Traceback (most recent call last):
...
replay.log.LogFormatError: events[0].action: 'x' is not an amount (digits, with a decimal point for cents: 300, 0.25)
"""

from __future__ import annotations

import functools
import re
import sys
from datetime import datetime
from decimal import Decimal, InvalidOperation
from typing import Annotated, Any, Literal, NamedTuple, Union

from pydantic import (
    Discriminator,
    Field,
    PlainSerializer,
    PlainValidator,
    Tag,
    WithJsonSchema,
    model_validator,
)
from pydantic_core import PydanticCustomError, core_schema

from replay.envelope import Envelope, no_nul
from replay.kit.log import LogFormat, Millis, Open, chat_event, end_model, short_repr
from replay.log import Player
from replay.reading import TextReader, reading_validator

from .cards import cards_text, parse_cards

FORMAT = "holdem/1"
#: the PHH variant codes this game plays, and what they stand for
VARIANTS = {"NT": "no-limit Texas hold'em", "FT": "fixed-limit Texas hold'em"}
END_REASONS = ("completed", "cancelled", "timeout")
EVENT_TYPES = ("action", "chat")
#: the seats a valid table has (fewer or more is the engine's ``invalid_setup`` finding)
MIN_SEATS, MAX_SEATS = 2, 10
#: how many entries a per-seat list may have at all (a practical cap: beyond it the log is not read)
MAX_LISTED = 64
#: practical caps that keep hostile input cheap (a 10-seat hand has well under 200 actions)
MAX_GAME_EVENTS = 2_000
MAX_CHAT = 2_000
MAX_EVENTS = MAX_GAME_EVENTS + MAX_CHAT
MAX_TEXT = 4000
MAX_ACTION = 500
#: amounts are below this in size and have at most ``MAX_DIGITS`` significant digits, so that
#: every amount survives JSON's binary floating point exactly
AMOUNT_LIMIT = 10 ** 15
MAX_DIGITS = 15
#: and at most this many decimal places (cents need 2; a chip is never split finer)
MAX_PLACES = 8
_SEAT = re.compile(r"p([1-9][0-9]?)")
_AMOUNT_TEXT = re.compile(r"[0-9]+(?:\.[0-9]+)?|[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]+)?")

Amount = Union[int, Decimal]


# --- amounts ---------------------------------------------------------------------------------

def _exact(value: Decimal) -> "int | Decimal":
    """A finite decimal within the limits -> ``int`` when whole, else the decimal without
    trailing zeros; ``ValueError`` with the reason otherwise."""
    if not value.is_finite():
        raise ValueError(f"{value} is not a finite amount")
    if abs(value) >= AMOUNT_LIMIT:
        raise ValueError(f"{value} is too large for an amount (the limit is 10**15)")
    if value == value.to_integral_value():
        return int(value)
    value = value.normalize()
    digits, exponent = value.as_tuple()[1:]
    if -exponent > MAX_PLACES:  # type: ignore[operator]
        raise ValueError(f"{str(value)[:40]} has more than {MAX_PLACES} decimal places")
    if len(digits) > MAX_DIGITS:
        raise ValueError(f"{value} has more than {MAX_DIGITS} significant digits")
    return value


def amount_value(value: Any) -> "int | Decimal":
    """A JSON number (``int``, ``float``) or a ``Decimal`` -> the exact amount: an ``int`` when
    whole, else a ``Decimal`` read from the number's shortest decimal text (``0.25`` is
    ``Decimal('0.25')``, never the float's binary expansion).

    >>> amount_value(0.25), amount_value(100.0), amount_value(Decimal("1.50")), amount_value(7)
    (Decimal('0.25'), 100, Decimal('1.5'), 7)
    >>> amount_value(True)
    Traceback (most recent call last):
    ...
    ValueError: True is not an amount (a number)
    """
    kind = type(value)
    if kind is int:
        if -AMOUNT_LIMIT < value < AMOUNT_LIMIT:
            return value
        raise ValueError(f"{short_repr(value)} is too large for an amount (the limit is 10**15)")
    if kind is float:
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError(f"{value} is not a finite amount")
        return _exact(Decimal(repr(value)))
    if kind is Decimal:
        return _exact(value)
    raise ValueError(f"{short_repr(value)} is not an amount (a number)")


def amount_text(value: "int | Decimal") -> str:
    """An amount as PHH and the action notation write it: ``300``, ``0.25`` (never an exponent)."""
    return str(value) if type(value) is int else format(value, "f")


def _amount(value: Any) -> "int | Decimal":
    try:
        return amount_value(value)
    except ValueError as exc:
        raise PydanticCustomError("amount", "{text}", {"text": str(exc)}) from None


def _amount_json(value: "int | Decimal") -> "int | float":
    return value if type(value) is int else float(value)


AmountField = Annotated[
    Amount,
    PlainValidator(_amount),
    PlainSerializer(_amount_json, when_used="json"),
    WithJsonSchema({"type": "number", "description": "chips, or money with cents (read exactly: 0.25 is a "
                                                     "quarter, never a float's approximation)"}),
]
AmountList = Annotated[list[AmountField], Field(max_length=MAX_LISTED)]


# --- seats -----------------------------------------------------------------------------------

def _seat(value: Any) -> str:
    if type(value) is str and _SEAT.fullmatch(value):
        return value
    raise PydanticCustomError("seat", "{text} is not a seat (p1, p2, ... in PHH order)", {"text": short_repr(value)})


SeatField = Annotated[
    str,
    PlainValidator(_seat),
    WithJsonSchema({"type": "string", "pattern": "^p[1-9][0-9]?$",
                    "description": "a seat: p1 is the first left of the button (the small blind), pN the button"}),
]


def seat_labels(count: int) -> tuple[str, ...]:
    """The seats of a table of ``count``: ``('p1', ..., 'pN')``."""
    return tuple(f"p{i}" for i in range(1, count + 1))


# --- the variant -----------------------------------------------------------------------------

def variant_error(value: Any) -> str:
    """Why ``value`` is not a variant this game plays, naming the codes it does play."""
    codes = " and ".join(f"{code} ({name})" for code, name in VARIANTS.items())
    return f"{short_repr(value)} is not a variant of this game: the supported codes are {codes}"


def _variant(value: Any) -> str:
    if type(value) is str:
        code = value.strip().upper()
        if code in VARIANTS:
            return code
    raise PydanticCustomError("variant", "{text}", {"text": variant_error(value)})


VariantField = Annotated[
    str,
    PlainValidator(_variant),
    WithJsonSchema({"type": "string", "enum": list(VARIANTS),
                    "description": "PHH variant code: NT no-limit, FT fixed-limit Texas hold'em"}),
]


# --- the action notation ---------------------------------------------------------------------

class Action(NamedTuple):
    """One PHH action notation, read: ``parse_action("p3 cbr 300")``.

    - ``actor``: ``"p3"``, or ``"d"`` for the dealer, or ``None`` for a no-op (a commentary only);
    - ``verb``: ``dh`` (hole cards to ``target``), ``db`` (board cards), ``f``, ``cc``, ``cbr``
      (completes, bets or raises to ``amount``), ``sm`` (shows ``cards``; mucks when ``cards`` is
      None and ``dash`` is False; shows the cards dealt when ``dash``), or ``""`` for a no-op;
    - ``cards``: card numbers (``None`` for ``??``) of ``dh``, ``db`` and a shown ``sm``;
    - ``comment``: the commentary after ``#`` (None without one).
    """

    actor: str | None
    verb: str
    target: str | None = None
    cards: tuple[int | None, ...] | None = None
    amount: "int | Decimal | None" = None
    dash: bool = False
    comment: str | None = None

    @property
    def seat(self) -> str | None:
        """The seat that acts (``None`` for the dealer and for a no-op)."""
        return self.actor if self.actor not in (None, "d") else None

    def text(self) -> str:
        """The canonical notation: single spaces, canonical cards, ``" # "`` before a commentary."""
        verb = self.verb
        if verb == "dh":
            words = ["d", "dh", self.target, cards_text(self.cards)]
        elif verb == "db":
            words = ["d", "db", cards_text(self.cards)]
        elif verb == "cbr":
            words = [self.actor, "cbr", amount_text(self.amount)]
        elif verb == "sm":
            words = [self.actor, "sm"] + (["-"] if self.dash else [cards_text(self.cards)] if self.cards else [])
        elif verb:
            words = [self.actor, verb]
        else:
            words = []
        if self.comment:
            words += ["#", self.comment]
        return " ".join(words)


class ActionError(ValueError):
    """A text that is not a hold'em action in PHH notation."""


_CARDS_HINT = "rank 23456789TJQKA then suit cdhs, e.g. Ah; ?? for an unknown card"


def _cards(words: list[str], what: str) -> tuple[int | None, ...]:
    text = " ".join(words)
    cards = parse_cards(text) if text else None
    if not cards:
        raise ActionError(f"{short_repr(text)} is not cards for {what} ({_CARDS_HINT})" if text
                          else f"{what} needs cards ({_CARDS_HINT})")
    return tuple(cards)


def _actor(word: str) -> str:
    label = word.lower()
    if not _SEAT.fullmatch(label):
        raise ActionError(f"{short_repr(word)} is not an actor (d for the dealer, p1, p2, ... for the seats)")
    return label


def parse_action(text: str) -> Action:
    """A PHH action notation (read liberally: any spaces, any case of the words, liberal cards)
    -> ``Action``; ``ActionError`` says what is wrong.

    >>> parse_action("d dh p1 Ac 10d")
    Action(actor='d', verb='dh', target='p1', cards=(48, 33), amount=None, dash=False, comment=None)
    >>> parse_action("p2 cbr 1,250 # shove").text(), parse_action("p1 sm -").text(), parse_action("# hi").verb
    ('p2 cbr 1250 # shove', 'p1 sm -', '')
    >>> parse_action("p1 sd")
    Traceback (most recent call last):
    ...
    replay.games.holdem.log.ActionError: 'sd' is not a hold'em action (f, cc, cbr amount, sm [cards]; the dealer: d dh pN cards, d db cards)
    """
    body, hash_, comment = text.partition("#")
    comment = comment.strip() or None if hash_ else None
    words = body.split()
    if not words:
        return Action(None, "", comment=comment)
    if words[0].lower() == "d":
        verb = words[1].lower() if len(words) > 1 else ""
        if verb == "db":
            return Action("d", "db", cards=_cards(words[2:], "d db"), comment=comment)
        if verb == "dh":
            if len(words) < 3:
                raise ActionError("d dh needs a seat and cards (d dh p1 Ac2d)")
            return Action("d", "dh", target=_actor(words[2]), cards=_cards(words[3:], "d dh"), comment=comment)
        raise ActionError(f"{short_repr(' '.join(words[1:2]) or text)} is not a dealer's action (d dh pN cards, "
                          "d db cards)")
    actor = _actor(words[0])
    verb = words[1].lower() if len(words) > 1 else ""
    rest = words[2:]
    if verb in ("f", "cc") and not rest:
        return Action(actor, verb, comment=comment)
    if verb == "cbr":
        if len(rest) != 1:
            raise ActionError("cbr needs one amount (p1 cbr 300)")
        return Action(actor, "cbr", amount=_action_amount(rest[0]), comment=comment)
    if verb == "sm":
        if not rest:
            return Action(actor, "sm", comment=comment)
        if rest == ["-"]:
            return Action(actor, "sm", dash=True, comment=comment)
        return Action(actor, "sm", cards=_cards(rest, "sm"), comment=comment)
    if verb in ("f", "cc"):
        raise ActionError(f"{verb} takes nothing after it: {short_repr(' '.join(rest))}")
    raise ActionError(f"{short_repr(verb or text)} is not a hold'em action (f, cc, cbr amount, sm [cards]; "
                      "the dealer: d dh pN cards, d db cards)")


def _action_amount(word: str) -> "int | Decimal":
    if not _AMOUNT_TEXT.fullmatch(word):
        raise ActionError(f"{short_repr(word)} is not an amount (digits, with a decimal point for cents: 300, 0.25)")
    try:
        return _exact(Decimal(word.replace(",", "")))
    except (ValueError, InvalidOperation) as exc:
        raise ActionError(str(exc)) from None


@functools.lru_cache(maxsize=4096)
def canonical_action(text: str) -> str:
    """The canonical notation of an action text (``ActionError`` if it is not one)."""
    return parse_action(text).text()


def _action(value: Any) -> str:
    if type(value) is not str:
        raise PydanticCustomError("action", "{text} is not an action (a PHH notation text such as 'p1 cc')",
                                  {"text": short_repr(value)})
    if len(value) > MAX_ACTION:
        raise PydanticCustomError("action", "an action of {n} characters: at most {cap}",
                                  {"n": len(value), "cap": MAX_ACTION})
    try:
        return canonical_action(value)
    except ActionError as exc:
        raise PydanticCustomError("action", "{text}", {"text": str(exc)}) from None


ActionField = Annotated[
    str,
    PlainValidator(_action),
    WithJsonSchema({"type": "string", "maxLength": MAX_ACTION,
                    "description": "one PHH action notation: 'd dh p1 Ac2d', 'd db 7c8d2s', 'p3 cbr 300', 'p1 cc', "
                                   "'p2 f', 'p1 sm AcAd', optionally followed by ' # commentary'"}),
]


# --- events ----------------------------------------------------------------------------------

class ActionEvent(Open):
    """One action in PHH notation (``{"action": "p3 cbr 300", "t": 4100}``): its ``type``
    (``"action"``) is told by its content and not written."""

    action: ActionField
    t: Millis | None = None

    @model_validator(mode="before")
    @classmethod
    def _without_type(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("type") == "action":
            data = {k: v for k, v in data.items() if k != "type"}
        return data

    @property
    def type(self) -> str:
        return "action"

    @property
    def parsed(self) -> Action:
        """The action read (``Action``)."""
        return parse_action(self.action)

    @property
    def seat(self) -> str | None:
        """The seat that acts, or None for the dealer and a no-op."""
        actor = self.action.partition(" ")[0]
        return actor if actor[:1] == "p" else None


ChatEvent = chat_event(SeatField, MAX_TEXT, __name__)


def _event_kind(value: Any) -> str | None:
    """Which model an event is: ``chat`` by its ``type``, ``action`` by its ``action`` (or its
    ``type``); None (an error) for anything else, an unknown ``type`` its own error."""
    if isinstance(value, dict):
        kind = value.get("type")
        if kind is None:
            return "action" if "action" in value else None
        return kind if isinstance(kind, str) else None
    return getattr(value, "type", None)


Event = Annotated[
    Union[Annotated[ActionEvent, Tag("action")], Annotated[ChatEvent, Tag("chat")]],
    Discriminator(_event_kind),
]
#: each event type's model, by its ``type``
EVENT_MODELS = {"action": ActionEvent, "chat": ChatEvent}


class End(end_model(END_REASONS, __name__)):
    """How the hand ended, with PHH's ``finishing_stacks`` and ``winnings`` when known (checked)."""

    finishing_stacks: AmountList | None = Field(None, description="each seat's stack after the hand (checked)")
    winnings: AmountList | None = Field(None, description="the chips each seat collected from the pots (checked)")


# --- the log ---------------------------------------------------------------------------------

class HoldemLog(Open, Envelope):
    """One hand of Texas hold'em (``holdem/1``)."""

    format: Literal["holdem/1"] = Field(description="game and major version of this format")
    game_id: str | None = Field(None, max_length=200, description="the host's own id for the hand")
    started_at: datetime | None = Field(None, description="ISO 8601 time the cards were dealt")
    players: dict[SeatField, Player] = Field(default_factory=dict, description="who sits in each seat")
    variant: VariantField
    antes: AmountList | None = Field(None, description="each seat's ante (reversed heads-up, as in PHH)")
    blinds_or_straddles: AmountList | None = Field(None, description="each seat's blind or straddle")
    min_bet: AmountField | None = Field(None, description="the smallest bet (NT)")
    small_bet: AmountField | None = Field(None, description="the fixed bet of the first two streets (FT)")
    big_bet: AmountField | None = Field(None, description="the fixed bet of the last two streets (FT)")
    starting_stacks: AmountList = Field(description="each seat's stack; the seats are p1..pN, one per stack")
    events: list[Event] = Field(max_length=MAX_EVENTS)
    end: End | None = None
    meta: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _seats_agree(self) -> "HoldemLog":
        count = len(self.starting_stacks)
        valid = MIN_SEATS <= count <= MAX_SEATS  # else the engine's invalid_setup speaks first
        known = frozenset(seat_labels(count))
        every = f"p1..p{count}"
        if valid:
            for seat in self.players:
                if seat not in known:
                    raise PydanticCustomError("seats", "players.{s}: not a seat of this game ({all})",
                                              {"s": seat, "all": every})
        chats = 0
        for index, event in enumerate(self.events):
            if type(event) is not ActionEvent:
                chats += 1
                if valid and event.seat is not None and event.seat not in known:
                    raise PydanticCustomError("seats", "events[{i}].seat: {s} is not a seat of this game ({all})",
                                              {"i": index, "s": event.seat, "all": every})
                continue
            if not valid:
                continue
            words = event.action.split(" ", 3)
            seat = words[2] if words[0] == "d" and words[1] == "dh" else words[0]
            if seat[:1] == "p" and seat not in known:
                raise PydanticCustomError("seats", "events[{i}].action: {s} is not a seat of this game ({all})",
                                          {"i": index, "s": seat, "all": every})
        if chats > MAX_CHAT:
            raise PydanticCustomError("too_many_chats", "{n} chat events: at most {cap} are allowed",
                                      {"n": chats, "cap": MAX_CHAT})
        if len(self.events) - chats > MAX_GAME_EVENTS:
            raise PydanticCustomError("too_many_events", "{n} actions: at most {cap} are allowed",
                                      {"n": len(self.events) - chats, "cap": MAX_GAME_EVENTS})
        return self

    # -- views
    @property
    def seats(self) -> tuple[str, ...]:
        """The seats, ``p1``..``pN`` (one per starting stack). PHH's own ``seats`` field (the
        seat numbers at the table), when a log keeps it, is ``model_extra["seats"]``."""
        return seat_labels(len(self.starting_stacks))

    @property
    def actions(self) -> list[str]:
        """The action notations in order (chat left out), as PHH's ``actions`` lists them."""
        return [event.action for event in self.events if type(event) is ActionEvent]

    @property
    def phh_fields(self) -> dict[str, Any]:
        """The fields kept beside the format's own (PHH's optional ones: ``hand``, ``table``, ``currency``...)."""
        return dict(self.model_extra or {})


# --- errors (the kit's ``LogFormat`` words the rest) -------------------------------------------

def _error(error: dict[str, Any]) -> tuple[str, str] | None:
    """A seat check of the whole log names its own place (``events[3].action: ...``)."""
    if error["type"] == "seats" and ": " in error["msg"]:
        place, _, text = error["msg"].partition(": ")
        return place, text
    return None


def _message(error: dict[str, Any]) -> str | None:
    if error["type"] == "union_tag_not_found":
        return "an event needs an 'action' (a PHH notation such as 'p1 cc') or a 'type' (chat)"
    return None


# --- reading JSON text in one pass (``replay.reading``): the models' own schema, with the
# common case checked in pydantic-core and no Python call per event. An action text already in
# canonical notation (as the project's writers write it) is checked by a pattern of exactly the
# canonical texts, which ``canonical_action`` gives back unchanged; any other text goes to the
# liberal reader (``_action``) as in full validation. An amount that is a JSON integer within the
# limits is kept as that ``int`` (what ``amount_value`` gives); any other goes to ``_amount``.
# Seats are checked by their pattern, the table's own when the text tells its size (a reading
# validator per size: then ``_seats_agree`` need not run). The event union is told apart without
# the Python discriminator: an action event if it reads as one, else a chat (an action event
# with any ``type`` at all is left to full validation). Anything unusual is left to full reading.

_CARD = r"(?:[2-9TJQKA][cdhs]|\?\?)"


def _decimal_texts() -> str:
    """A pattern of the canonical texts of the amounts that are not whole (``amount_text`` of a
    normalised decimal within the limits): no leading zero, no trailing zero, at most
    ``MAX_PLACES`` places and ``MAX_DIGITS`` significant digits, below ``AMOUNT_LIMIT``."""
    forms = [rf"0\.[0-9]{{0,{MAX_PLACES - 1}}}[1-9]"]
    for whole in range(1, MAX_DIGITS):  # digits before the point (then at least one after it)
        places = min(MAX_PLACES, MAX_DIGITS - whole)
        forms.append(rf"[1-9][0-9]{{{whole - 1}}}\.[0-9]{{0,{places - 1}}}[1-9]")
    return "|".join(forms)


#: an amount's canonical text (``amount_text``): a whole amount, then one with a decimal point
_AMOUNT_CANONICAL = rf"0|[1-9][0-9]{{0,{MAX_DIGITS - 1}}}|{_decimal_texts()}"


def _canonical_actions(seat: str) -> str:
    """A pattern of exactly the action texts that are canonical (``canonical_action(text) ==
    text``), carry no commentary and name only seats ``seat`` matches (a pattern)."""
    return (rf"d dh (?:{seat}) {_CARD}+|d db {_CARD}+"
            rf"|(?:{seat}) (?:f|cc|cbr (?:{_AMOUNT_CANONICAL})|sm(?: -| {_CARD}+)?)")


def _table_seats(count: int) -> str:
    """A pattern of the seats of a table of ``count`` (``p10|p9|...|p1``)."""
    return "|".join(reversed(seat_labels(count)))


#: exactly the action texts that are canonical and carry no commentary (``fullmatch``); the
#: length cap (``MAX_ACTION``) is checked beside it
CANONICAL_ACTION = re.compile(_canonical_actions(_SEAT.pattern))


def _action_reading(count: int | None) -> dict[str, Any]:
    """An action text: canonical (the pattern), else read by ``_action``; at a table of
    ``count``, naming only its seats (as ``_seats_agree`` checks: the actor, or the seat dealt to)."""
    if count is None:
        seat, liberal = _SEAT.pattern, core_schema.no_info_plain_validator_function(_action)
    else:
        seat = _table_seats(count)
        # ``_action`` gives canonical text: a dealing names its seat third, an action its actor first
        liberal = core_schema.chain_schema([
            core_schema.no_info_plain_validator_function(_action),
            core_schema.str_schema(pattern=f"^(?:d dh (?:{seat}) |d db |(?:{seat}) |# |$)")])
    return core_schema.union_schema([
        core_schema.str_schema(pattern=f"^(?:{_canonical_actions(seat)})$", max_length=MAX_ACTION, strict=True),
        liberal,
    ], mode="left_to_right")


_AMOUNT_READING = core_schema.union_schema([
    core_schema.int_schema(gt=-AMOUNT_LIMIT, lt=AMOUNT_LIMIT, strict=True),
    core_schema.no_info_plain_validator_function(_amount),
], mode="left_to_right")
_VARIANT_READING = core_schema.union_schema([
    core_schema.literal_schema(list(VARIANTS)),
    core_schema.no_info_plain_validator_function(_variant),
], mode="left_to_right")


def _find_definition(schema: Any, cls: type) -> dict[str, Any]:
    """The model schema of ``cls`` among the definitions of ``schema``."""
    for definition in schema.get("definitions", ()):
        if definition.get("type") == "model" and definition.get("cls") is cls:
            return definition
    raise LookupError(f"no definition of {cls.__name__}")  # pragma: no cover - pydantic changed


def _log_field(name: str) -> dict[str, Any]:
    """``HoldemLog``'s own schema of the field ``name``."""
    return HoldemLog.__pydantic_core_schema__["schema"]["schema"]["schema"]["fields"][name]


def _events_reading_field(action_reading: dict[str, Any]) -> dict[str, Any]:
    """The ``events`` field: a list of action events (their own schema without the Python
    ``before`` validator, the action read by ``action_reading``) or else chat events. An action
    event that has a ``type`` (whatever it is: full validation might have dropped it, or read a
    chat) is found by ``_HoldemReader`` and left to full reading."""
    own = HoldemLog.__pydantic_core_schema__
    action = _find_definition(own, ActionEvent)
    before = action["schema"]
    if before["type"] != "function-before" or before["function"]["function"] != ActionEvent._without_type:
        raise LookupError("ActionEvent's schema changed")  # pragma: no cover - pydantic changed
    fields = before["schema"]
    action_schema = {key: value for key, value in action.items() if key not in ("ref", "metadata")}
    action_schema["schema"] = {
        **{key: value for key, value in fields.items() if key != "metadata"},
        "fields": {**fields["fields"], "action": {**fields["fields"]["action"], "schema": action_reading}},
    }
    chat = core_schema.definition_reference_schema(_find_definition(own, ChatEvent)["ref"])
    events = _log_field("events")
    return {**events, "schema": {**events["schema"], "items_schema": core_schema.union_schema(
        [action_schema, chat], mode="left_to_right")}}


def _reading_validator(count: int | None = None):
    """The reading validator of logs with ``count`` starting stacks, whose seats it checks as
    ``_seats_agree`` does (but for the caps on chat and actions); of any log when ``count`` is
    None (``_seats_agree`` is then called after). NUL in names and ids (``no_nul``) and
    ``started_at`` are checked by ``_HoldemReader`` instead: no Python call per field."""
    fields = {(HoldemLog, "events"): _events_reading_field(_action_reading(count))}
    if count is None:
        seat = core_schema.str_schema(pattern=f"^{_SEAT.pattern}$", strict=True)
    else:
        seat = core_schema.str_schema(pattern=f"^(?:{_table_seats(count)})$", strict=True)
        stacks = _log_field("starting_stacks")
        fields[(HoldemLog, "starting_stacks")] = {**stacks, "schema": {
            **stacks["schema"], "items_schema": _AMOUNT_READING, "min_length": count, "max_length": count}}
    return reading_validator(HoldemLog, plain={
        _amount: _AMOUNT_READING, _seat: seat, _variant: _VARIANT_READING,
    }, dropped=(no_nul, HoldemLog._seats_agree, HoldemLog._representable_in_utc), fields=fields)


#: where a log's ``starting_stacks`` begin (only a hint of the table's size: its reading
#: validator checks the count itself)
_STACKS = re.compile(r'"starting_stacks"\s*:\s*\[([^\]]*)\]')
#: below this many events neither the actions nor the chat can pass their caps
_FEW_EVENTS = min(MAX_CHAT, MAX_GAME_EVENTS) + 1


class _HoldemReader:
    """``read_json``: the text without NUL (so no name or id holds it), then the reading
    validator of the table's size as the text gives it (which checks the seats), else the one of
    any log and ``_seats_agree``; then ``started_at`` checked. Whatever a check refuses is left
    to full reading, which words the error."""

    __slots__ = ("_readers",)

    def __init__(self) -> None:
        self._readers: dict[int | None, TextReader] = {}

    def reader(self, count: int | None) -> TextReader:
        """The reading of logs of ``count`` seats (None: of any)."""
        reader = self._readers.get(count)
        if reader is None:
            reader = self._readers[count] = TextReader(functools.partial(_reading_validator, count))
        return reader

    def __call__(self, text: str) -> "HoldemLog | None":
        escaped = "\\u" in text  # a \u escape can spell anything (a NUL, a seat, a key "type")
        if (escaped and "\\u0000" in text) or "\x00" in text:
            return None
        count = None
        at = text.find('"starting_stacks"')
        if at >= 0:
            found = _STACKS.match(text, at)
            if found is not None:
                count = found.group(1).count(",") + 1
                if not MIN_SEATS <= count <= MAX_SEATS:
                    count = None
        log = (self._readers.get(count) or self.reader(count))(text)
        if log is None:
            if count is None:
                return None
            count = None  # the hint was wrong (or a seat is past the table: ``_seats_agree`` says)
            log = (self._readers.get(None) or self.reader(None))(text)
            if log is None:
                return None
        events = log.events
        if escaped or '"type"' in text:  # a key "type" can only be spelt so, or escaped
            for event in events:
                if type(event) is ActionEvent and "type" in event.__pydantic_extra__:
                    return None
        started = log.started_at
        try:
            if started is not None and started.tzinfo is not None:
                HoldemLog._representable_in_utc(started)
            if count is None or len(events) >= _FEW_EVENTS:
                log._seats_agree()
        except PydanticCustomError:
            return None
        return log


#: a plain log's JSON text -> its ``HoldemLog`` in one pass (the same models full reading
#: builds), or None: full reading decides
read_json = _HoldemReader()


#: the format: ``parse`` (a decoded JSON object -> ``HoldemLog``, or ``LogFormatError``), the
#: errors' places and messages, and the JSON Schema (``docs/holdem.schema.json``)
LOG_FORMAT = LogFormat(HoldemLog, FORMAT, EVENT_TYPES, "Texas hold'em hand log, format holdem/1",
                       schema_file="holdem", error=_error, message=_message)
parse = LOG_FORMAT.parse
errors_from_validation = LOG_FORMAT.errors_from_validation
json_schema = LOG_FORMAT.json_schema
json_schema_text = LOG_FORMAT.json_schema_text

if __name__ == "__main__":  # pragma: no cover - tooling
    sys.exit(LOG_FORMAT.main(sys.argv[1:], "replay.games.holdem.log"))
