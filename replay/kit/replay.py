"""The base of a judged game: what every game's replay shares.

A game's replay is a ``@dataclass(slots=True)`` built on ``BaseReplay`` with at least the
fields ``log``, ``findings``, ``winner`` (the winning seat or None), ``_steps`` (``None`` until
the steps are first read) and a static ``_run(log, record_steps)`` that makes one engine pass
and returns ``(state, findings, event_steps, steps)``. The base gives the game module
(``game``, through the registry), the steps on first use, ``winners`` and ``is_clean``.

>>> from dataclasses import dataclass
>>> @dataclass(slots=True)
... class Toy(BaseReplay):
...     log: object
...     findings: list
...     winner: str | None
...     _steps: list | None = None
...     _run = staticmethod(lambda log, record_steps: (None, [], [], ["deal", "move"]))
>>> toy = Toy(log=None, findings=[], winner="P2")
>>> toy.steps, toy.winners, toy.is_clean
(['deal', 'move'], ['P2'], True)
"""

from __future__ import annotations

from typing import Any

from ..errors import ReplayError
from ..games import game_for_format
from ..games.base import GameModule, Outcome


class SeatError(ReplayError, ValueError):
    """A perspective seat that the game does not have."""


class BaseReplay:
    """What every judged game shares (see the module's documentation)."""

    __slots__ = ()

    @property
    def game(self) -> GameModule:
        """The game module that judged this game (found by the log's ``format``)."""
        return game_for_format(self.log.format)  # type: ignore[attr-defined]

    @property
    def steps(self) -> list[Any]:
        """Every position, step 0 the setup: recorded by a second engine pass on first use."""
        if self._steps is None:  # type: ignore[attr-defined]
            self._steps = self._run(self.log, record_steps=True)[3]  # type: ignore[attr-defined]
        return self._steps  # type: ignore[attr-defined]

    @property
    def winners(self) -> list[str]:
        return [] if self.winner is None else [self.winner]  # type: ignore[attr-defined]

    @property
    def is_clean(self) -> bool:
        return not self.findings  # type: ignore[attr-defined]

    def facts(self) -> dict[str, "str | int"]:
        """The game's own facts for ``outcome`` (the winner is added there); none by default."""
        return {}

    def counts(self) -> dict[str, dict[str, int]]:
        """Each seat's counters for ``outcome`` (what the game's ``seat_figures`` sum); none by default."""
        return {}

    def outcome(self) -> Outcome:
        """The game-neutral outcome: end, winners, no roles, ``facts()`` with the winner, and
        ``counts()``."""
        facts = self.facts()
        if self.winner is not None:  # type: ignore[attr-defined]
            facts["winner"] = self.winner  # type: ignore[attr-defined]
        return Outcome(end=self.end_reason, winners=tuple(self.winners), roles={}, facts=facts,  # type: ignore[attr-defined]
                       counts=self.counts())

    def summary(self, length: str, won: str = "in", extra: str = "") -> str:
        """The one-line summary every game prints alike: ``<game_id>  <game>  <result><extra>
        <n> findings``, the result ``<winner> won <won> <length>``, ``<end> after <length>`` or
        unchecked after a fatal finding. ``length`` says how long the game was (``23 turns``)."""
        log = self.log  # type: ignore[attr-defined]
        if not self.checked:  # type: ignore[attr-defined]
            result = f"unchecked after step {self.step_count - 1} (logged end: {self.end_reason})"  # type: ignore[attr-defined]
        elif self.winner is not None:  # type: ignore[attr-defined]
            result = f"{self.winner} won {won} {length}"  # type: ignore[attr-defined]
        else:
            result = f"{self.end_reason} after {length}"  # type: ignore[attr-defined]
        n = len(self.findings)  # type: ignore[attr-defined]
        return (f"{log.game_id or '(no id)'}  {log.format.partition('/')[0]}  {result}{extra}  "
                f"{n} finding{'s' if n != 1 else ''}")


def counted(n: int, word: str) -> str:
    """``1 turn``, ``23 turns``.

    >>> counted(1, "turn"), counted(23, "round")
    ('1 turn', '23 rounds')
    """
    return f"{n} {word}{'s' if n != 1 else ''}"
