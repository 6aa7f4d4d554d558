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
from enum import Enum
import re
from typing import Any, Callable, ClassVar, Mapping, Protocol, Sequence, runtime_checkable

from replay.text import clean_name


def seat_text(seat: object) -> str:
    """A seat as the log writes it: the one normaliser of seat names. Seats that are enums give
    their name, seats that are text (or numbers) their text.

    >>> import enum
    >>> seat_text(enum.Enum("Side", "LEFT RIGHT").LEFT), seat_text("P2"), seat_text(3)
    ('LEFT', 'P2', '3')
    """
    if isinstance(seat, str):
        return seat
    if isinstance(seat, Enum):
        return seat.name
    return str(seat)


@dataclass(frozen=True, slots=True)
class Finding:
    """A breach of the rules, tied to where it happened.

    ``step`` is the index of the replay step the breach produced (for a fatal breach, the last
    step before it); ``event`` is the index in the log's ``events`` (``None`` for the setup
    or the ``end`` object); ``seat`` is the seat as the game's engine keeps it (its name as
    the log writes it, or a member of the game's own seat enum: ``seat_text`` gives its name).
    """

    step: int
    kind: str
    seat: Any
    message: str
    event: int | None = None
    fatal: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "event": self.event,
            "kind": self.kind,
            "seat": None if self.seat is None else seat_text(self.seat),
            "message": self.message,
            "fatal": self.fatal,
        }


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended, in game-neutral terms: what the archive indexes.

    ``winners`` lists the seats that won (empty when nobody did: cancelled, passed out...);
    ``roles`` gives each seat's role where the game has roles; ``facts`` are the game's own
    values worth filtering on (turns, a score...), each a short string or an int; ``counts``
    gives each seat's counters (whole numbers) that the game's ``seat_figures`` are made of.
    """

    end: str
    winners: tuple[str, ...] = ()
    roles: Mapping[str, str] = field(default_factory=dict)
    facts: Mapping[str, "str | int"] = field(default_factory=dict)
    counts: Mapping[str, Mapping[str, int]] = field(default_factory=dict)


@dataclass(frozen=True)
class SeatFigure:
    """A figure per player (or bot) that a game's stats show, made from per-seat counts its
    games' outcomes give (``Outcome.counts``), summed over every seat the player took:
    ``sum(count) / sum(of) * per / scale``. With ``spread`` (the counter of each seat's
    squared count) it comes with a 95% interval, ``1.96 * sd / sqrt(n)`` over the seats.

    >>> vpip = SeatFigure("vpip", "VPIP", count="vpip", of="dealt")
    >>> vpip.value({"vpip": 3, "dealt": 12})
    25.0
    >>> won = SeatFigure("bb100", "bb/100", count="won_mbb", of="dealt", scale=1000, unit=" bb/100", spread="won_mbb_sq")
    >>> won.value({"won_mbb": 2000, "won_mbb_sq": 4000000, "dealt": 4}), won.interval({"won_mbb": 2000, "won_mbb_sq": 4000000, "dealt": 4})
    (50.0, 98.0)
    """

    name: str
    label: str
    count: str
    of: str
    per: int = 100
    scale: int = 1
    unit: str = "%"
    spread: str | None = None
    help: str = ""

    def counters(self) -> tuple[str, ...]:
        """The counters the figure reads."""
        return tuple(c for c in (self.count, self.of, self.spread) if c)

    def value(self, sums: Mapping[str, int]) -> float | None:
        """The figure from the counters' sums, or None when ``of`` is 0."""
        n = sums.get(self.of, 0)
        return None if not n else round(sums.get(self.count, 0) / n * self.per / self.scale, 2)

    def interval(self, sums: Mapping[str, int]) -> float | None:
        """The half width of the 95% interval (None without ``spread`` or with fewer than 2)."""
        n = sums.get(self.of, 0)
        if self.spread is None or n < 2:
            return None
        mean = sums.get(self.count, 0) / n
        variance = max(0.0, (sums.get(self.spread, 0) - n * mean * mean) / (n - 1))
        return round(1.96 * (variance / n) ** 0.5 * self.per / self.scale, 2)


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


@dataclass(frozen=True)
class Fact:
    """One of a game's facts: a value of a finished game that the archive indexes and every
    filter (the CLI's ``--fact``, the listing page's fields, the API's parameters) is built from.

    ``kind`` is ``"text"``, ``"int"`` or ``"seat"`` (a seat name of the game). ``normalise``
    turns what a user typed into the stored form, or raises ``ValueError`` with a message that
    says what is accepted; ``values`` lists the allowed values where they are few, ``pattern``
    (a regular expression over the stored form) where they are many. ``show`` turns a stored
    value into what a listing shows (``None``: the value itself). ``column`` puts the fact in
    listings as a column of its own.

    >>> Fact("opening", "Opening", normalise=str.upper).clean(" 3a ")
    '3A'
    >>> Fact("turns", "Turns", kind="int").clean("12")
    12
    >>> Fact("result", "Result", values=("attackers", "defenders")).clean("draw")
    Traceback (most recent call last):
    ...
    ValueError: result must be attackers or defenders, not 'draw'
    """

    name: str
    label: str
    kind: str = "text"
    normalise: Callable[[str], "str | int"] | None = None
    values: tuple[str, ...] = ()
    pattern: str | None = None
    show: Callable[["str | int"], str] | None = None
    column: bool = False
    help: str = ""

    def clean(self, typed: "str | int") -> "str | int":
        """What a user typed -> the stored value (``ValueError`` naming the fact otherwise)."""
        text = str(typed).strip()
        if self.normalise is not None:
            value = self.normalise(text)
        elif self.kind == "int":
            try:
                value = int(text)
            except ValueError:
                raise ValueError(f"{self.name} must be a whole number, not {text!r}") from None
        else:
            value = text
        if self.values and value not in self.values:
            raise ValueError(f"{self.name} must be {' or '.join(self.values)}, not {text!r}")
        if self.pattern is not None:
            if not re.fullmatch(self.pattern, str(value)):
                raise ValueError(f"{self.name}: {text!r} does not look like {self.help or self.pattern}")
        return value

    def shown(self, value: "str | int | None") -> str:
        """A stored value as a listing shows it (``""`` for none)."""
        if value is None or value == "":
            return ""
        return self.show(value) if self.show is not None else str(value)


@dataclass(frozen=True)
class ForeignFormat:
    """A text format of another program's logs that a game reads (``GAME.readers``), told by
    its content: ``looks_like(text)``; ``read(text, name)`` gives the game's log model or raises
    ``replay.log.LogFormatError``. ``read_games(text, name)``, where a file may hold several
    games one after another, gives parts with ``first`` and ``last`` line, ``log`` and ``error``.
    ``suffixes`` are the endings of the format's file names beyond the common ones
    (``replay.log.LOG_SUFFIXES``): folders are walked for them too (``.phh``).
    ``starts_game(line)``, where a file may hold several games, tells a line that begins a new
    one (a PHH ``.phhs`` file's ``[12]``): ingest then reads a large file piece by piece, cut
    before such lines, instead of all at once."""

    name: str
    looks_like: Callable[[str], bool]
    read: Callable[[str, "str | None"], Any]
    read_games: Callable[[str, "str | None"], Sequence[Any]] | None = None
    suffixes: tuple[str, ...] = ()
    starts_game: Callable[[str], bool] | None = None


@dataclass(frozen=True)
class Export:
    """A file format a game's logs can be written in (another program's format).

    ``write(log)`` gives the file's text (or bytes); ``suffix`` (``".txt"``), ``media_type`` and
    ``encoding`` are what the one export route and the CLI serve it with."""

    name: str
    label: str
    suffix: str
    media_type: str
    write: Callable[[Any], "str | bytes"]
    encoding: str = "utf-8"


@dataclass(frozen=True)
class StudyFormat:
    """A file format a game's studies (``replay.study``: a game with comments and what-if
    branches) export to and import from, as another program writes them (PBN's ``{comments}``,
    LIN's ``nt``).

    ``write(study)`` gives the file's text from a ``replay.study.StudyGame``; ``read(text)``
    gives a study as JSON (``study/1``: ``log``, ``notes``, ``branches``) or raises
    ``replay.study.StudyError`` (or ``replay.log.LogFormatError``) saying what is wrong;
    ``looks_like(text)`` tells the format by content. ``suffix`` and ``media_type`` are what
    the viewer and the CLI serve it with."""

    name: str
    label: str
    suffix: str
    media_type: str
    write: Callable[[Any], str]
    read: Callable[[str], dict[str, Any]]
    looks_like: Callable[[str], bool]
    encoding: str = "utf-8"


class GameModule:
    """The object a game registers: every hook the core uses, with a default where a game
    may leave one out. A game subclasses it; the core reads these attributes and never probes
    a game with ``getattr``.

    >>> class Toy(GameModule):
    ...     name, title, major = "toy", "Toy", 1
    >>> Toy().describe(None), Toy().player_counts, Toy().code_marker
    ('Toy', (None, None), None)
    """

    # -- identity -----------------------------------------------------------------------------
    name: ClassVar[str]          # "high-card"; the log's format is f"{name}/{major}"
    title: ClassVar[str]         # "High card"
    major: ClassVar[int] = 1
    # -- seats ----------------------------------------------------------------------------------
    #: every seat name the game can have, in table order (empty: free names listed per log)
    seats: ClassVar[tuple[str, ...]] = ()
    #: the fewest and most seats a table may have, where tables vary (``selfplay --players``)
    player_counts: ClassVar[tuple[int | None, int | None]] = (None, None)
    # -- rules ----------------------------------------------------------------------------------
    finding_kinds: ClassVar[Mapping[str, bool]] = {}  # kind -> fatal
    end_reasons: ClassVar[tuple[str, ...]] = ()
    #: the log events that are actions (a step each, and a digit in a code)
    action_events: ClassVar[frozenset[str]] = frozenset()
    #: the step kind that ends a chapter (the viewer's up/down keys), e.g. "turn"
    chapter: ClassVar[str] = "step"
    # -- log, logger, replay ------------------------------------------------------------------
    Log: ClassVar[type]          # pydantic model of the whole log
    #: what a bot logs a game with (``GameLogger(game=...)`` hands it out)
    Logger: ClassVar[type | None] = None
    #: text formats of other programs ``replay.log.read_logs`` recognises by content
    readers: ClassVar[tuple[ForeignFormat, ...]] = ()
    #: a plain log's JSON text -> ``Log`` in one pass, or None when full reading must decide
    #: (``replay.reading``); accepts no more than ``parse`` and builds the same models
    read_json: ClassVar[Callable[[str], Any] | None] = None
    # -- codes ----------------------------------------------------------------------------------
    #: the first character of this game's generic replay codes (``replay/codec/generic.py``)
    code_marker: ClassVar[str | None] = None
    #: the setup's coder for generic codes (``replay.codec.generic``), or None
    setup_codec: ClassVar[Any] = None
    #: a whole-game payload coder (``payload(log) -> int``/``from_payload``), or None
    payload_codec: ClassVar[Any] = None
    #: a codec with codes of the game's own shape (``claims``, ``encode``, ``decode``,
    #: ``is_fallback``, ``is_legacy``), asked before the generic one; or None
    text_codec: ClassVar[Any] = None
    #: what ``game-replay decode`` calls a code the text codec reads as legacy (``is_legacy``)
    legacy_code_label: ClassVar[str] = "original code"
    # -- outcome, facts, roles ------------------------------------------------------------------
    #: the facts ``Outcome.facts`` may hold, in the order listings show them
    facts: ClassVar[tuple[Fact, ...]] = ()
    #: the roles ``Outcome.roles`` may give a seat
    roles: ClassVar[tuple[str, ...]] = ()
    #: the role whose games and wins the player and bot counters keep, or None
    counted_role: ClassVar[str | None] = None
    #: figures per player and bot the game's stats show (from ``Outcome.counts``)
    seat_figures: ClassVar[tuple[SeatFigure, ...]] = ()
    # -- extras ---------------------------------------------------------------------------------
    #: file formats the game's logs export to (the one export route, ``game-replay export``)
    exports: ClassVar[tuple[Export, ...]] = ()
    #: self-play bots by name
    bots: ClassVar[Mapping[str, Callable[..., Any]]] = {}
    #: the bots ``selfplay`` seats when none are named (``game-replay selfplay`` without ``--bot``)
    default_bots: ClassVar[tuple[str, ...]] = ()
    #: the self-play corpora ``bench/codes.py`` measures: ``(label, selfplay options)`` pairs
    bench_corpora: ClassVar[tuple[tuple[str, Mapping[str, Any]], ...]] = (("self-play", {}),)
    #: the rule presets a game can be played under (``selfplay --rules``); empty: one set of rules
    rule_presets: ClassVar[tuple[str, ...]] = ()
    #: click commands ``replay.cli`` adds
    commands: ClassVar[tuple[Any, ...]] = ()
    #: the folder of the game's bundled sample logs, or None
    sample_logs: ClassVar[Any] = None
    #: the dotted package of the game's viewer board (``None``: the viewer's convention,
    #: ``viewer.games.<name with underscores>``)
    board: ClassVar[str | None] = None
    #: changes when the analysis of the same game could change (``analyse`` games only)
    analysis_version: ClassVar[str | None] = None
    #: file formats a study of the game (``replay.study``) exports to and imports from
    study_formats: ClassVar[tuple[StudyFormat, ...]] = ()
    #: what ``deal_scores`` counts a seat's result in ("tricks", "big blinds", "points"...);
    #: None for a game without deal scores
    deal_unit: ClassVar[str | None] = None

    # -- required -------------------------------------------------------------------------------
    def parse(self, data: dict[str, Any], source: str | None = None) -> Any:
        """A decoded JSON object -> ``Log``; raises ``replay.log.LogFormatError``."""
        raise NotImplementedError

    def judge(self, log: Any) -> Replay:
        raise NotImplementedError

    def json_schema(self) -> dict[str, Any]:
        raise NotImplementedError

    def start(self, log: Any) -> tuple[State, list[Finding]]:
        """The position after the setup, and the setup's findings."""
        raise NotImplementedError

    def legal_events(self, state: State) -> list[Any]:
        """Every event the seat to act may log at ``state``: one per legal action, and for an
        action with a chance outcome (a draw) one per outcome that can happen."""
        raise NotImplementedError

    # -- with defaults --------------------------------------------------------------------------
    def finish(self, state: State) -> list[Finding]:
        """The findings of a log that ends at ``state`` (checks only the end of the log can make:
        a seat that had to answer and did not...); none by default."""
        return []

    def selfplay(self, seed: int, bots: Sequence[str] = (), **options: Any) -> Any:
        """A seeded bot game's log."""
        raise NotImplementedError(f"{self.title} has no self-play")

    def seat_key(self, name: str) -> Any:
        """How the log model keys its players (a game's seat enum); the name itself by default."""
        return name

    def log_seats(self, log: Any) -> tuple[str, ...]:
        """The seats a log lists itself, in table order, for a game whose tables vary (its
        players' ids); ``()`` for a game whose seats are always ``seats``."""
        return ()

    def seat_order(self, log: Any) -> tuple[str, ...]:
        """A log's seats in table order, as text: the order of a link's ``players=`` names."""
        return self.log_seats(log) or tuple(self.seats)

    def describe(self, replay: Any) -> str:
        """One line about a judged game for listings and the CLI (default: the title)."""
        if replay is None:
            return self.title
        return replay.summary_line()

    def describe_code(self, replay: Any) -> list[str]:
        """Lines ``game-replay decode`` prints about a game after its summary line (before its
        findings). The default: the game's title, end and winners, the players by seat, and the
        number of events."""
        log = replay.log
        winners = ", ".join(replay.winners) or "nobody"
        lines = [f"  game {self.title}, end {replay.end_reason}, won by {winners}"]
        named = {seat_text(seat): player.name for seat, player in log.players.items() if player.name}
        if named:
            lines.append("  players: " + ", ".join(f"{seat} {clean_name(named[seat]) or '-'}" if seat in named else f"{seat} -"
                                                   for seat in self.seat_order(log)))
        lines.append(f"  {len(log.events)} events; `game-replay decode CODE --json` gives the whole log")
        return lines

    def replay_lines(self, replay: Any) -> list[str]:
        """Lines ``game-replay replay`` prints about a judged game after its summary line (the
        game's own facts worth a line); none by default."""
        return []

    def fact(self, name: str) -> Fact | None:
        """The declared fact called ``name``, or None."""
        return next((f for f in self.facts if f.name == name), None)

    @property
    def has_analysis(self) -> bool:
        return type(self).analyse is not GameModule.analyse

    def analyse(self, replay: Any) -> dict[str, Any]:
        """Optional: an analysis of a judged game as JSON ."""
        raise NotImplementedError(f"{self.title} has no analysis")

    # -- studies (``replay.study``) -------------------------------------------------------------
    def step_events(self, replay: Any) -> list[int | None]:
        """For each step of a judged game, the index in ``replay.log.events`` of the event that
        made it (``None`` for step 0, the setup). By default the steps' own ``event`` field where
        every step after the setup has one, else the log's action events in order
        (``action_events``: chat makes no step)."""
        steps = replay.steps_json()
        made = [s.get("event") for s in steps[1:]]
        if all(isinstance(index, int) for index in made):
            return [None, *made]
        actions = [n for n, e in enumerate(replay.log.events) if e.type in self.action_events]
        return [None, *actions[:len(steps) - 1]]

    def chance(self, state: State, event: Any) -> bool:
        """Whether ``event`` (one of ``legal_events(state)``) is an outcome of chance, such as
        the card a draw gives, rather than a seat's choice. A study offers such events with
        every card open only: listed in a seat's view, they would show what that seat cannot
        see (the cards a draw could give tell the cards elsewhere). None by default."""
        return False

    def move_text(self, state: State, event: Any) -> str:
        """Words for an event a seat could log at ``state`` (what "try another move" lists).
        By default the event's seat, type and other fields, as the log writes them."""
        data = event.model_dump(mode="json", exclude_none=True, by_alias=True)
        seat = data.pop("seat", None)
        kind = data.pop("type", "")
        data.pop("t", None)
        rest = " ".join(" ".join(map(str, v)) if isinstance(v, list) else str(v) for v in data.values())
        return " ".join(str(p) for p in (seat, kind, rest) if p not in (None, ""))

    # -- duplicate deals (``replay.duplicate``) ----------------------------------------------------
    def deal_key(self, log: Any) -> str | None:
        """The fingerprint of the game's deal (``replay.duplicate.fingerprint`` of the cards as
        dealt and who starts, in the game's own terms), equal for two logs exactly when they were
        dealt the same: the key that groups the tables of a deal. None when the log does not tell
        the whole deal (hidden cards) or the game has no deals (the default)."""
        return None

    def deal_scores(self, replay: Any) -> Mapping[str, float] | None:
        """Each seat's result in the game on its standard scale (``deal_unit``: tricks, big blinds
        won...), the numbers a seat's duplicate score is made of; None when the game gives none
        (a fatal finding, a game cut short) or has no deals (the default)."""
        return None

    def play_table(self, deal: int, bots: Sequence[str], table: int = 0, **options: Any) -> Any:
        """A self-play log of deal number ``deal`` with ``bots[i]`` in the i-th seat (table
        order): the cards (every card a seat is dealt or draws from the deck) depend on ``deal``
        alone, never on the bots, so every table of a deal gets ``deal_key`` equal. ``table``
        seeds the bots' own choices and names the game. What ``game-replay championship`` plays."""
        raise NotImplementedError(f"{self.title} has no championship tables")

    def table_seats(self, bots: Sequence[str], **options: Any) -> int:
        """How many seats a championship table of ``bots`` has (``play_table`` options such as
        ``players`` may set it): by default the game's seats, else one per bot."""
        return len(self.seats) or len(bots)

    @property
    def has_deals(self) -> bool:
        return type(self).deal_key is not GameModule.deal_key

    # -- pictures (``replay.picture``) ---------------------------------------------------------
    @property
    def has_drawing(self) -> bool:
        return type(self).draw is not GameModule.draw

    def view_steps(self, replay: Any, view: str | None) -> list[dict[str, Any]]:
        """Every step as plain data as ``view`` saw it: ``None`` every card open, a seat what
        that seat saw (``replay.steps_json(seat)``), anything else (``replay.picture.scene.PUBLIC``)
        what an onlooker saw: by default what every seat saw alike (``common_view`` of the
        seats' views), so whatever any seat did not see is hidden. A game may give a faster one."""
        seats = self.seat_order(replay.log)
        if view is None:
            return replay.steps_json()
        if view in seats:
            return replay.steps_json(view)
        return onlooker_steps({seat: replay.steps_json(seat) for seat in seats})

    def draw(self, table: Any, steps: Sequence[dict[str, Any]]) -> Any:
        """Optional: the picture (``replay.picture.scene.Scene``, 1200x630) of the last of
        ``steps``, the steps up to it as ``table.view`` saw them (``view_steps``): the one
        drawing that link previews, step pictures and animation frames all show."""
        raise NotImplementedError(f"{self.title} has no drawing")

    def __repr__(self) -> str:
        return f"<game {self.name}/{self.major}: {self.title}>"


def common_view(views: Sequence[Any]) -> Any:
    """What all ``views`` of one thing agree on: equal values stay, dicts are compared key by
    key (a key that some view lacks is left out), lists of the same length item by item, and
    anything else that differs becomes ``None``.

    >>> common_view([{"a": 1, "h": {"1": [3], "2": None}, "b": True}, {"a": 1, "h": {"1": None, "2": [4]}}])
    {'a': 1, 'h': {'1': None, '2': None}}
    >>> common_view([[{"x": 1, "m": True}], [{"x": 1, "m": False}]]), common_view([[1], []])
    ([{'x': 1, 'm': None}], None)
    """
    first = views[0]
    if all(v == first for v in views[1:]):
        return first
    if all(isinstance(v, dict) for v in views):
        return {k: common_view([v[k] for v in views]) for k in first if all(k in v for v in views)}
    if all(isinstance(v, list) for v in views) and len({len(v) for v in views}) == 1:
        return [common_view(items) for items in zip(*views)]
    return None


def onlooker_steps(by_seat: Mapping[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """The onlooker's steps: each step as every seat saw it alike (``common_view`` of the
    seats' views of it).

    >>> onlooker_steps({"P1": [{"i": 0, "hands": {"P1": [5], "P2": None}}],
    ...                 "P2": [{"i": 0, "hands": {"P1": None, "P2": [7]}}]})
    [{'i': 0, 'hands': {'P1': None, 'P2': None}}]
    """
    views = list(by_seat.values())
    return [common_view([v[n] for v in views]) for n in range(len(views[0]))] if views else []


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What a registry lookup needs before the game's package is imported."""

    name: str
    module: str  # dotted path of the package that defines ``GAME``
