"""What every game module provides, and the game-neutral pieces they share.

A game lives in one package under ``replay/games/<name>/`` and is known to the rest of the
project only through the object it registers (``replay.games.register``): a ``GameModule``.
The neutral core (readers, the CLI, the archive, the viewer's shell) talks to games through
this interface and never imports a game's own modules.

The shape follows OpenSpiel's state API: a state that says who acts, lists the legal actions
in a canonical order (codecs write each decision as its index in that list), takes one event
at a time with ``push`` and never raises on a breach of the rules: each push returns the
findings it caused. A *fatal* finding leaves the position undefined and rule checking stops.

>>> f = Finding(step=3, kind="out_of_turn", seat="P2", message="P2 played out of turn", event=4, fatal=True)
>>> f.to_json()["seat"], f.fatal
('P2', True)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Mapping, Protocol, Sequence, runtime_checkable


@dataclass(frozen=True, slots=True)
class Finding:
    """A breach of the rules, tied to where it happened.

    ``step`` is the index of the replay step the breach produced (for a fatal breach, the last
    step before it); ``event`` is the index in the log's ``events`` (``None`` for the setup
    or the ``end`` object); ``seat`` is the seat's name as the log writes it.
    """

    step: int
    kind: str
    seat: str | None
    message: str
    event: int | None = None
    fatal: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "event": self.event,
            "kind": self.kind,
            "seat": self.seat,
            "message": self.message,
            "fatal": self.fatal,
        }


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended, in game-neutral terms: what the archive indexes.

    ``winners`` lists the seats that won (empty when nobody did: cancelled, passed out...);
    ``roles`` gives each seat's role where the game has roles (bridge: declarer, partner,
    defender); ``facts`` are the game's own values worth filtering on (contract, turns...),
    each a short string or an int.
    """

    end: str
    winners: tuple[str, ...] = ()
    roles: Mapping[str, str] = field(default_factory=dict)
    facts: Mapping[str, "str | int"] = field(default_factory=dict)


@runtime_checkable
class State(Protocol):
    """One position of a game, pushed forward one event at a time."""

    to_act: str | None
    over: bool
    stopped: bool  # a fatal finding was met: rule checking has stopped

    def push(self, event: Any, index: int) -> list[Finding]:
        """Apply one logged event (``index`` in the log's events); the only mutator.

        Steps count the game's actions only (step 0 is the setup; chat and announcements make
        no step), so each engine knows the step its findings belong to."""
        ...

    def legal(self) -> Sequence[Any]:
        """The legal actions of ``to_act``, in the canonical order codecs index into."""
        ...


@runtime_checkable
class Replay(Protocol):
    """A judged game: what the CLI prints, the archive stores and the viewer draws."""

    game: "GameModule"  # an attribute or a property
    log: Any
    findings: list[Finding]
    end_reason: str
    checked: bool
    step_count: int

    @property
    def winners(self) -> list[str]: ...

    def outcome(self) -> Outcome: ...

    def to_json(self) -> dict[str, Any]:
        """``game``, ``winners``, ``end``, ``findings`` and the game's own fields."""
        ...

    def summary_line(self) -> str: ...

    def steps_json(self, seat: str | None = None) -> list[dict[str, Any]]:
        """Every step as plain JSON, each with at least ``i``, ``kind``, ``seat``, ``text``;
        with ``seat``, only what that seat could see (its perspective)."""
        ...


class GameModule(Protocol):
    """The object a game registers. Attributes marked optional may be ``None``/empty."""

    name: ClassVar[str]          # "uno-lite"; the log's format is f"{name}/{major}"
    title: ClassVar[str]         # "UNO Lite"
    major: ClassVar[int]         # 1
    seats: ClassVar[tuple[str, ...]]  # every seat name the game can have, in table order
    finding_kinds: ClassVar[Mapping[str, bool]]  # kind -> fatal
    end_reasons: ClassVar[tuple[str, ...]]
    Log: ClassVar[type]          # pydantic model of the whole log

    def parse(self, data: dict[str, Any], source: str | None = None) -> Any:
        """A decoded JSON object -> ``Log``; raises ``replay.log.LogFormatError``.

        ``replay.log.parse_log`` calls it for a log of this format (and the first registered
        game's for a log with no ``format``, so that its errors name what is missing)."""
        ...

    def judge(self, log: Any) -> Replay: ...

    def json_schema(self) -> dict[str, Any]: ...

    def start(self, log: Any) -> tuple[State, list[Finding]]:
        """The position after the setup, and the setup's findings."""
        ...

    def legal_events(self, state: State) -> list[Any]:
        """Every event the seat to act may log at ``state``: one per legal action, and for an
        action with a chance outcome (a draw) one per outcome that can happen."""
        ...

    # optional extras
    bots: Mapping[str, Callable[..., Any]]
    def selfplay(self, seed: int, bots: Sequence[str], **options: Any) -> Any: ...
    # readers: modules with ``looks_like(text)`` and ``read(text, name)`` (foreign text logs);
    # code_marker and setup_codec (generic codes) or text_codec (codes of the game's own shape,
    # with ``claims``, ``encode``, ``decode``, ``is_fallback``, ``is_legacy``: floating bridge);
    # commands (click commands ``replay.cli`` adds); describe_code(replay) (lines ``decode``
    # prints); seat_key(name) (how the log model keys its players, when not by the name itself)
    # a log whose tables vary lists its seats in table order as ``seat_order`` or ``seats``
    # (``replay.codec.seat_order``: the order of a link's ``players=`` names)
    #: a plain log's JSON text -> ``Log`` in one pass, or None when full reading must decide
    #: (``replay.reading``); it accepts no more than ``parse`` and builds the same models
    read_json: Callable[[str], Any]


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What a registry lookup needs before the game's package is imported."""

    name: str
    module: str  # dotted path of the package that defines ``GAME``
