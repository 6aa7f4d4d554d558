"""NimReplay: a Nim game judged by the engine, with its steps.

>>> from replay_nim.bots import play_game
>>> replay = NimReplay.from_log(play_game(seed=1, bots=("greedy", "random")))
>>> replay.findings, replay.end_reason, replay.winners, replay.moves
([], 'completed', ['P1'], 7)
>>> replay.outcome().facts
{'heaps': '5-7', 'moves': 7, 'winner': 'P1'}
>>> replay.steps_json()[1]["text"]
'P1 takes 2 from heap 2'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from replay.errors import ReplayError
from replay.games import get
from replay.games.base import Finding, Outcome

from .engine import NimState
from .log import NAME, SEATS, NimLog


class SeatError(ReplayError, ValueError):
    """A perspective seat that the game does not have."""


class Step(NamedTuple):
    """The position after one move (step 0 is the setup)."""

    index: int
    kind: str  # "setup" or "take"
    seat: str | None
    heap: int | None
    count: int | None
    event: int | None
    heaps: tuple[int, ...]
    to_act: str | None
    winner: str | None
    t: int | None

    @property
    def text(self) -> str:
        if self.kind == "setup":
            return "The heaps are set out: " + ", ".join(map(str, self.heaps))
        text = f"{self.seat} takes {self.count} from heap {self.heap + 1}"
        return text + " and wins" if self.winner else text


def heaps_fact(heaps: list[int]) -> str:
    """The heaps a game began with, as the ``heaps`` fact writes them: ``3-4-5``."""
    return "-".join(map(str, heaps))


@dataclass
class NimReplay:
    """A game judged under the rules of Nim."""

    log: NimLog
    findings: list[Finding]
    winner: str | None
    end_reason: str
    checked: bool
    moves: int
    steps: list[Step]

    @property
    def game(self):
        return get(NAME)

    @property
    def step_count(self) -> int:
        return len(self.steps)

    @property
    def winners(self) -> list[str]:
        return [] if self.winner is None else [self.winner]

    @classmethod
    def from_log(cls, log: NimLog) -> "NimReplay":
        state = NimState(log.heaps, log.first_player)
        steps = [Step(0, "setup", None, None, None, None, tuple(log.heaps), state.to_act, None, None)]
        findings: list[Finding] = []
        for index, event in enumerate(log.events):
            before = state.moves
            findings.extend(state.push(event, index))
            if state.moves != before:
                steps.append(Step(state.moves, "take", event.seat, event.heap, event.count, index,
                                  tuple(state.heaps), state.to_act, state.winner, event.t))
        end_reason = cls._end(state, log, findings)
        return cls(log, findings, state.winner, end_reason, not state.stopped, state.moves, steps)

    @staticmethod
    def _end(state: NimState, log: NimLog, findings: list[Finding]) -> str:
        logged = log.end.reason if log.end is not None else None
        if state.stopped or logged is None:
            return logged or ("completed" if state.winner else "abandoned")
        if log.end.winner is not None and log.end.winner != state.winner:
            findings.append(Finding(state.moves, "wrong_winner", log.end.winner,
                                    f"the log names {log.end.winner} as the winner, but {state.winner or 'nobody'} "
                                    "took the last object"))
        if (logged == "completed") != state.over:
            findings.append(Finding(state.moves, "end_mismatch", None,
                                    f"the log says the game ended as {logged}, but "
                                    + ("the heaps are empty" if state.over else "objects are left")))
        return logged

    def outcome(self) -> Outcome:
        facts: dict[str, str | int] = {"heaps": heaps_fact(self.log.heaps), "moves": self.moves}
        if self.winner is not None:
            facts["winner"] = self.winner
        return Outcome(end=self.end_reason, winners=tuple(self.winners), roles={}, facts=facts)

    def summary_line(self) -> str:
        """``room-1  nim  P1 won in 7 moves  0 findings``"""
        result = (f"{self.winner} won in {self.moves} moves" if self.winner and self.checked
                  else f"{self.end_reason} after {self.moves} moves")
        n = len(self.findings)
        return f"{self.log.game_id or '(no id)'}  nim  {result}  {n} finding{'s' if n != 1 else ''}"

    def to_json(self) -> dict[str, Any]:
        return {
            "game": NAME,
            "game_id": self.log.game_id,
            "first_player": self.log.first_player,
            "heaps": list(self.log.heaps),
            "winners": self.winners,
            "end": self.end_reason,
            "checked": self.checked,
            "moves": self.moves,
            "findings": [f.to_json() for f in self.findings],
        }

    def steps_json(self, seat: str | None = None) -> list[dict[str, Any]]:
        """Every step as plain JSON; Nim hides nothing, so every seat sees the same."""
        if seat is not None and seat not in SEATS:
            raise SeatError(f"{seat!r} is not a seat of Nim (P1 or P2)")
        return [{"i": s.index, "kind": s.kind, "seat": s.seat, "text": s.text, "heap": s.heap,
                 "count": s.count, "event": s.event, "heaps": list(s.heaps), "to_act": s.to_act,
                 "winner": s.winner, "t": s.t} for s in self.steps]
