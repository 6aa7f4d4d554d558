"""UnoReplay: an UNO Lite game judged by the engine, and (on first use) its steps.

>>> from replay.games.uno_lite.bots import play_game
>>> replay = UnoReplay.from_log(play_game(seed=7))
>>> replay.findings, replay.end_reason, replay.winners
([], 'completed', ['P2'])
>>> replay.steps[0].kind, replay.steps[0].text
('deal', 'The cards are dealt; the starter is 🟢8 (G8)')
>>> replay.outcome().facts
{'turns': 23, 'winner': 'P2'}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from replay.games.base import Finding
from replay.kit.replay import BaseReplay, SeatError, counted

from .cards import CARD_EMOJI, CARD_TEXT, KINDS
from .engine import SEAT_INDEX, SEATS, UnoState
from .log import UnoLog


class Step(NamedTuple):
    """The position after one action (step 0 is the deal).

    ``hands`` holds each seat's cards as sorted card values; ``drawn`` is the card drawn on a
    draw step; ``turn`` is the number of the turn the action belongs to (1-based).
    """

    index: int
    kind: str  # "deal", "play", "draw", "pass"
    seat: str | None
    card: int | None  # the card played or drawn
    event: int | None  # index of the log event
    hands: tuple[tuple[int, ...], tuple[int, ...]]
    top: int
    pile_size: int
    discard_size: int
    to_act: str | None
    turn: int
    reshuffled: bool  # this draw began by turning the discard pile into a new draw pile
    winner: str | None  # set once a hand emptied
    t: int | None

    @property
    def drawn(self) -> int | None:
        return self.card if self.kind == "draw" else None

    def text_for(self, seat: str | None = None) -> str:
        """What happened, in words, as ``seat`` saw it (``None``: everything open)."""
        if self.kind == "deal":
            return f"The cards are dealt; the starter is {_show(self.top)}"
        who = self.seat
        if self.kind == "play":
            text = f"{who} plays {_show(self.card)}"
            if self.winner is not None:
                text += " and wins"
            return text
        if self.kind == "draw":
            if seat is not None and seat != who:
                text = f"{who} draws a card"
            else:
                text = f"{who} draws {_show(self.card)}"
            if self.reshuffled:
                text = "The discard pile is shuffled into a new draw pile; " + text
            return text
        return f"{who} passes"

    @property
    def text(self) -> str:
        return self.text_for(None)


def _show(card: int) -> str:
    return f"{CARD_EMOJI[card]} ({CARD_TEXT[card]})"


@dataclass(slots=True)
class UnoReplay(BaseReplay):
    """A game judged under the UNO Lite rules: findings, winner and, on first use, its steps.

    Judging is one engine pass; the per-step snapshots are built by a second pass the first
    time ``steps`` is read.
    """

    log: UnoLog
    findings: list[Finding]
    winner: str | None  # the seat whose hand emptied (while rules were checked)
    end_reason: str  # as logged, or "completed"/"abandoned" when the log gives none
    checked: bool  # False when a fatal finding stopped rule checking
    turns: int
    hand_sizes: dict[str, int]
    pile_size: int
    reshuffles: int
    step_count: int
    event_steps: list[int] = field(default_factory=list)  # step index visible at each event
    _steps: list[Step] | None = None
    _run = staticmethod(lambda log, record_steps: _run(log, record_steps))  # the engine pass below

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def from_log(cls, log: UnoLog) -> "UnoReplay":
        state, findings, event_steps, _ = _run(log, record_steps=False)
        winner = None if state.winner is None else SEATS[state.winner]
        end_reason = _end_reason(state, log, findings, winner)
        return cls(
            log=log, findings=findings, winner=winner, end_reason=end_reason,
            checked=not state.stopped, turns=state.turns,
            hand_sizes={"P1": state.hand_sizes[0], "P2": state.hand_sizes[1]},
            pile_size=state.pile_size, reshuffles=state.reshuffles, step_count=state.steps + 1,
            event_steps=event_steps,
        )

    # -- views --------------------------------------------------------------------------------
    def __repr__(self) -> str:
        return f"<UnoReplay {self.summary_line()}>"

    def facts(self) -> dict[str, str | int]:
        return {"turns": self.turns}

    def summary_line(self) -> str:
        """``room-7Q2/3  uno-lite  P1 won in 23 turns  0 findings``"""
        return self.summary(counted(self.turns, "turn"))

    def to_json(self) -> dict[str, Any]:
        """The summary the CLI prints and the web API serves."""
        log = self.log
        return {
            "game": "uno-lite",
            "game_id": log.game_id,
            "first_player": log.first_player,
            "hands": {"P1": [CARD_TEXT[c] for c in log.hands.P1], "P2": [CARD_TEXT[c] for c in log.hands.P2]},
            "starter": CARD_TEXT[log.starter],
            "winners": self.winners,
            "end": self.end_reason,
            "checked": self.checked,
            "turns": self.turns,
            "hand_sizes": dict(self.hand_sizes),
            "findings": [f.to_json() for f in self.findings],
        }

    def steps_json(self, seat: str | None = None) -> list[dict[str, Any]]:
        """Every step as plain JSON, as ``seat`` could see it (``None``: all cards open).

        From one seat's perspective the other hand is ``null`` (its size is in
        ``hand_sizes``), and the other seat's drawn cards are ``null``.
        """
        if seat is not None and seat not in SEAT_INDEX:
            raise SeatError(f"{seat!r} is not a seat of UNO Lite (P1 or P2)")
        out = []
        for s in self.steps:
            hidden_card = s.kind == "draw" and seat is not None and s.seat != seat
            card = None if s.card is None or hidden_card else CARD_TEXT[s.card]
            hands: dict[str, Any] = {}
            for name, cards in zip(SEATS, s.hands):
                hands[name] = None if seat is not None and name != seat else [CARD_TEXT[c] for c in cards]
            out.append({
                "i": s.index,
                "kind": s.kind,
                "seat": s.seat,
                "card": card,
                "drawn": card if s.kind == "draw" else None,
                "event": s.event,
                "text": s.text_for(seat),
                "hands": hands,
                "hand_sizes": {"P1": len(s.hands[0]), "P2": len(s.hands[1])},
                "top": CARD_TEXT[s.top],
                "pile_size": s.pile_size,
                "discard_size": s.discard_size,
                "to_act": s.to_act,
                "turn": s.turn,
                "reshuffled": s.reshuffled,
                "winner": s.winner,
                "t": s.t,
            })
        return out


def _run(log: UnoLog, record_steps: bool):
    """One engine pass over the log: (state, findings, event_steps, steps)."""
    state = UnoState(log.hands.by_seat(), log.starter, log.first_player)
    findings = state.check_deal()
    steps: list[Step] = [_snapshot(state, 0, "deal", None, None, None, None)] if record_steps else []
    event_steps: list[int] = []
    append = event_steps.append
    apply = state.apply
    for number, event in enumerate(log.events):
        kind = event.type
        if kind == "chat" or state.stopped:
            append(state.steps)
            continue
        before = state.steps
        new = apply(kind, SEAT_INDEX[event.seat], event.card if kind != "pass" else None, number)
        if new:
            findings.extend(new)
        if record_steps and state.steps != before:
            steps.append(_snapshot(state, state.steps, kind, event.seat,
                                   event.card if kind != "pass" else None, number, event.t))
        append(state.steps)
    return state, findings, event_steps, steps


def _snapshot(state: UnoState, index: int, kind: str, seat, card, event, t) -> Step:
    hands = tuple(tuple(k for k in range(KINDS) for _ in range(h[k])) for h in state.hands)
    # the turn an action belongs to: a play or pass ended turn number ``turns``
    turn = state.turns if kind in ("play", "pass") else state.turns + 1
    winner = None if state.winner is None else SEATS[state.winner]
    return Step(index, kind, seat, card, event, hands, state.top, state.pile_size, len(state.discard),
                state.to_act, turn, state.reshuffled if kind == "draw" else False, winner, t)


def _end_reason(state: UnoState, log: UnoLog, findings: list[Finding], winner: str | None) -> str:
    end = log.end
    logged = end.reason if end is not None else None
    if state.stopped:
        # the position is undefined: the logged end is kept as it is, unchecked
        return logged or ("completed" if winner is not None else "abandoned")
    if logged is None:
        return "completed" if winner is not None else "abandoned"
    last = state.steps
    if end.winner is not None and end.winner != winner:
        message = (f"the log names {end.winner} as the winner, but "
                   + (f"{winner}'s hand emptied" if winner is not None else "no hand emptied"))
        findings.append(Finding(last, "wrong_winner", end.winner, message, None))
    if logged == "completed" and winner is None:
        findings.append(Finding(last, "end_mismatch", None,
                                f"the log says the game was completed, but no hand is empty "
                                f"(P1 holds {state.hand_sizes[0]}, P2 holds {state.hand_sizes[1]})", None))
    elif logged != "completed" and winner is not None:
        findings.append(Finding(last, "end_mismatch", None,
                                f"the log says the game ended as {logged}, but {winner}'s hand had "
                                "already emptied", None))
    return logged
