"""PartyReplay: a party-cards game judged by the engine, and (on first use) its steps.

>>> from replay.games.party_cards.bots import play_game
>>> replay = PartyReplay.from_log(play_game(seed=7))
>>> replay.findings, replay.end_reason, replay.winners, replay.rounds
([], 'completed', ['p3'], 3)
>>> replay.steps[0].kind, replay.text_of(replay.steps[0])
('setup', 'The cards are dealt: 5 seats invited, 10 answer cards each')
>>> [replay.text_of(s) for s in replay.steps if s.kind == "round"][:2]
['Round 1: Bo is the czar', 'Round 2: Chi is the czar']
>>> replay.outcome().facts
{'rounds': 3, 'players': 4, 'winner': 'p3'}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from replay.errors import ReplayError
from replay.games.base import Finding
from replay.kit.replay import BaseReplay, SeatError, counted

from .cards import fill_blanks
from .engine import IN, LEFT, STATUS_NAMES, PartyState
from .log import PartyLog


class RoundError(ReplayError, ValueError):
    """A round number that the game does not have."""


class Step(NamedTuple):
    """The position after one action (step 0 is the setup: the hands are dealt).

    Seats are indices into ``seats`` (table order); ``submissions`` holds ``(seat, ids)`` in
    the order they came, ``order`` the seats as shown to the czar (once revealed), ``detail``
    the event's own cards: the ids drawn (``draw``, ``swap``: ``(discarded, drawn)``).
    """

    index: int
    kind: str  # "setup", "join", "decline", "swap", "round", "answer", "reveal", "pick", "draw", "leave"
    seat: int | None
    event: int | None
    t: int | None
    round: int  # rounds started so far
    czar: int | None
    question: tuple[str, str, int] | None
    submissions: tuple[tuple[int, tuple[str, ...]], ...]
    order: tuple[int, ...] | None
    choice: int | None
    round_winner: int | None
    scores: tuple[int, ...]
    status: tuple[int, ...]
    hands: tuple[tuple[str, ...], ...]
    winner: int | None
    to_act: str | None
    detail: Any


@dataclass(slots=True)
class PartyReplay(BaseReplay):
    """A game judged under the party-cards rules: findings, winner, scores and, on first use, steps."""

    log: PartyLog
    findings: list[Finding]
    winner: str | None  # the first seat to reach score_limit (while rules were checked)
    end_reason: str  # as logged, or "completed"/"abandoned" when the log gives none
    checked: bool
    rounds: int  # rounds started
    scores: dict[str, int]
    in_game: list[str]  # seats in the game at the end
    joined: int  # seats that joined
    step_count: int
    event_steps: list[int] = field(default_factory=list)
    texts: dict[str, str] = field(default_factory=dict)  # answer card id -> text
    _steps: list[Step] | None = None
    _run = staticmethod(lambda log, record_steps: _run(log, record_steps))  # the engine pass below

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def from_log(cls, log: PartyLog) -> "PartyReplay":
        state, findings, event_steps, _ = _run(log, record_steps=False)
        seats = state.seats
        winner = None if state.winner is None else seats[state.winner]
        end_reason = _end_reason(state, log, findings, winner)
        return cls(
            log=log, findings=findings, winner=winner, end_reason=end_reason, checked=not state.stopped,
            rounds=state.rounds, scores=dict(zip(seats, state.scores)),
            in_game=[seats[i] for i in state.in_game()],
            joined=sum(1 for s in state.status if s in (IN, LEFT)),
            step_count=state.steps + 1, event_steps=event_steps, texts=state.texts,
        )

    # -- views --------------------------------------------------------------------------------
    @property
    def seats(self) -> tuple[str, ...]:
        return self.log.seats

    def name(self, seat: "str | int | None") -> str:
        """A seat's player name (the seat itself when the log names nobody)."""
        if seat is None:
            return "nobody"
        if isinstance(seat, int):
            seat = self.seats[seat]
        return self.log.player_name(seat) or seat

    def __repr__(self) -> str:
        return f"<PartyReplay {self.summary_line()}>"

    def facts(self) -> dict[str, str | int]:
        return {"rounds": self.rounds, "players": self.joined}

    def summary_line(self) -> str:
        """``grp-9/cah/4  party-cards  p2 won after 5 rounds  0 findings``"""
        return self.summary(counted(self.rounds, "round"), won="after")

    def to_json(self) -> dict[str, Any]:
        """The summary the CLI prints and the web API serves."""
        log = self.log
        return {
            "game": "party-cards",
            "game_id": log.game_id,
            "seats": list(self.seats),
            "players": {seat: self.name(seat) for seat in self.seats},
            "score_limit": log.score_limit,
            "hand_size": log.hand_size,
            "winners": self.winners,
            "end": self.end_reason,
            "checked": self.checked,
            "rounds": self.rounds,
            "scores": dict(self.scores),
            "in_game": list(self.in_game),
            "findings": [f.to_json() for f in self.findings],
        }

    # -- steps ----------------------------------------------------------------------------------
    def text_of(self, step: Step, seat: str | None = None) -> str:
        """What happened at a step, in words, as ``seat`` saw it (``None``: all open)."""
        kind = step.kind
        who = self.name(step.seat) if step.seat is not None else ""
        if kind == "setup":
            return (f"The cards are dealt: {len(self.seats)} seat{'s' if len(self.seats) != 1 else ''} invited, "
                    f"{self.log.hand_size} answer card{'s' if self.log.hand_size != 1 else ''} each")
        if kind == "round":
            return f"Round {step.round}: {who} is the czar"
        if kind == "join":
            return f"{who} joins"
        if kind == "decline":
            return f"{who} declines"
        if kind == "leave":
            return f"{who} leaves"
        if kind == "answer":
            return f"{who} answers"
        if kind == "reveal":
            n = len(step.order or ())
            return f"The czar sees {n} answer{'s' if n != 1 else ''}"
        if kind == "pick":
            text = f"{who} picks answer {step.choice}: {self.name(step.round_winner)} scores"
            if (step.winner is not None and step.winner == step.round_winner
                    and step.scores[step.winner] == self.log.score_limit):
                text += f" and wins with {step.scores[step.winner]} point{'s' if step.scores[step.winner] != 1 else ''}"
            return text
        if kind == "draw":
            n = len(step.detail)
            return f"{who} draws {n} card{'s' if n != 1 else ''}"
        if kind == "swap":
            n = len(step.detail[0])
            return f"{who} swaps {n} card{'s' if n != 1 else ''}"
        return kind

    def steps_json(self, seat: str | None = None) -> list[dict[str, Any]]:
        """Every step as plain JSON, as ``seat`` could see it (``None``: everything open).

        Each step says its ``round`` (0 in the lobby), the round's ``czar`` and ``question``,
        the ``submissions`` (each with its cards and the question filled in, ``segments``),
        the ``scores`` and every seat's ``status``. From one seat's perspective the other
        hands are ``null`` (their sizes are in ``hand_sizes``), other seats' drawn cards are
        not shown, and the submissions are what that seat saw: before the reveal only its own,
        after the reveal all of them in the czar's order without their authors (``mine`` marks
        its own), and after the pick with their authors.
        """
        seats = self.seats
        viewer = None
        if seat is not None:
            if seat not in self.log.players:
                raise SeatError(f"{seat!r} is not a seat of this game ({', '.join(seats)})")
            viewer = seats.index(seat)
        texts = self.texts
        out = []
        for s in self.steps:
            question = None if s.question is None else {"id": s.question[0], "text": s.question[1],
                                                        "pick": s.question[2]}
            hands: dict[str, Any] = {}
            for i, name in enumerate(seats):
                hands[name] = (None if viewer is not None and i != viewer
                               else [{"id": c, "text": texts.get(c, "")} for c in s.hands[i]])
            cards = None
            if s.kind in ("draw", "swap") and (viewer is None or viewer == s.seat):
                drawn = s.detail if s.kind == "draw" else s.detail[1]
                cards = [{"id": c, "text": texts.get(c, "")} for c in drawn]
            round_winner = None if s.round_winner is None else seats[s.round_winner]
            out.append({
                "i": s.index,
                "kind": s.kind,
                "seat": None if s.seat is None else seats[s.seat],
                "event": s.event,
                "t": s.t,
                "text": self.text_of(s, seat),
                "round": s.round,
                "czar": None if s.czar is None else seats[s.czar],
                "question": question,
                "answered": [seats[i] for i, _ in s.submissions],
                "revealed": s.order is not None,
                "submissions": self._submissions(s, viewer),
                "choice": s.choice,
                "round_winner": round_winner,
                "cards": cards,
                "scores": dict(zip(seats, s.scores)),
                "status": {name: STATUS_NAMES[st] for name, st in zip(seats, s.status)},
                "hands": hands,
                "hand_sizes": {name: len(h) for name, h in zip(seats, s.hands)},
                "to_act": s.to_act,
                "winner": None if s.winner is None else seats[s.winner],
            })
        return out

    def _submissions(self, step: Step, viewer: int | None) -> list[dict[str, Any]]:
        if step.question is None:
            return []
        seats, texts = self.seats, self.texts
        by_seat = dict(step.submissions)
        picked = step.choice is not None
        if step.order is not None:
            shown = list(enumerate(step.order, start=1))
        elif viewer is None:
            shown = [(None, i) for i in by_seat]
        else:
            shown = [(None, viewer)] if viewer in by_seat else []
        out = []
        for number, author in shown:
            ids = by_seat.get(author, ())
            answers = [texts.get(c, "") for c in ids]
            anonymous = viewer is not None and step.order is not None and not picked
            out.append({
                "number": number,
                "seat": None if anonymous else seats[author],
                "mine": viewer is not None and author == viewer,
                "cards": [{"id": c, "text": t} for c, t in zip(ids, answers)],
                "segments": fill_blanks(step.question[1], answers),
                "won": picked and number == step.choice,
            })
        return out

    # -- rounds ---------------------------------------------------------------------------------
    def round_record(self, number: int) -> dict[str, Any]:
        """Round ``number`` (1-based) as it stood at its last step, all open: czar, question,
        submissions in the czar's order, pick and winner."""
        last = None
        for s in self.steps:
            if s.round == number:
                last = s
            elif s.round > number:
                break
        if last is None or number < 1:
            raise RoundError(f"round {number!r} is not a round of this game (it has {self.rounds})")
        submissions = self._submissions(last, None)
        winner = None if last.round_winner is None else self.seats[last.round_winner]
        return {
            "round": number,
            "czar": None if last.czar is None else self.seats[last.czar],
            "question": {"id": last.question[0], "text": last.question[1], "pick": last.question[2]},
            "submissions": submissions,
            "choice": last.choice,
            "winner": winner,
            "scores": dict(zip(self.seats, last.scores)),
        }


def _run(log: PartyLog, record_steps: bool):
    """One engine pass over the log: (state, findings, event_steps, steps)."""
    seats = log.seats
    hands = [None if seat not in log.hands else [(c.id, c.text) for c in log.hands[seat]] for seat in seats]
    end_t = log.end.t if log.end is not None else None
    state = PartyState(seats, hands, log.hand_size, log.score_limit, end_t)
    findings = state.check_setup()
    steps: list[Step] = [_snapshot(state, "setup", None, None, None, None)] if record_steps else []
    event_steps: list[int] = []
    append = event_steps.append
    push = state.push
    index_of = state.index
    for number, event in enumerate(log.events):
        kind = event.type
        if kind == "chat" or state.stopped:
            append(state.steps)
            continue
        before = state.steps
        new = push(event, number)
        if new:
            findings.extend(new)
        if record_steps and state.steps != before:
            if kind == "round":
                seat = index_of[event.czar]
            elif kind == "reveal":
                seat = state.czar
            else:
                seat = index_of[event.seat]
            if kind == "draw":
                detail = tuple(c.id for c in event.cards)
            elif kind == "swap":
                detail = (tuple(event.discard), tuple(c.id for c in event.draw))
            else:
                detail = None
            steps.append(_snapshot(state, kind, seat, number, event.t, detail))
        append(state.steps)
    return state, findings, event_steps, steps


def _snapshot(state: PartyState, kind: str, seat, event, t, detail) -> Step:
    return Step(
        state.steps, kind, seat, event, t, state.rounds, state.czar, state.question,
        tuple(state.submissions.items()), state.order, state.choice, state.round_winner, tuple(state.scores),
        tuple(state.status), tuple(tuple(h) for h in state.hands), state.winner, state.to_act, detail,
    )


def _end_reason(state: PartyState, log: PartyLog, findings: list[Finding], winner: str | None) -> str:
    end = log.end
    logged = end.reason if end is not None else None
    if state.stopped:
        return logged or ("completed" if winner is not None else "abandoned")
    if logged is None:
        return "completed" if winner is not None else "abandoned"
    last = state.steps
    scores = ", ".join(f"{seat} {score}" for seat, score in zip(state.seats, state.scores))
    if end.winner is not None and end.winner != winner:
        message = (f"the log names {end.winner} as the winner, but "
                   + (f"{winner} reached the score limit ({state.score_limit}) first" if winner is not None
                      else f"nobody reached the score limit ({state.score_limit}; scores: {scores})"))
        findings.append(Finding(last, "wrong_winner", end.winner, message, None))
    if logged == "completed" and winner is None:
        findings.append(Finding(last, "end_mismatch", None,
                                f"the log says the game was completed, but nobody reached the score limit "
                                f"({state.score_limit}; scores: {scores})", None))
    return logged
