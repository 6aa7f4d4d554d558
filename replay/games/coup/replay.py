"""CoupReplay: a Coup game judged by the engine, and (on first use) its steps, per perspective.

>>> from replay.games.coup.bots import play_game
>>> replay = CoupReplay.from_log(play_game(seed=7, bots=("honest", "bluffer", "random")))
>>> replay.findings, replay.end_reason, replay.winners, replay.eliminated
([], 'completed', ['1'], ['3', '2'])
>>> replay.steps[0].text_for(None)
'The cards are dealt: 3 seats, 2 cards and 2 coins each; 2 moves first'
>>> replay.outcome().facts
{'turns': 14, 'players': 3, 'winner': '1'}

One step per game event (action, challenge, block, reveal, replace, lose, exchange, leave);
``turn_text`` gives the whole turn so far in one sentence, e.g. "2 steals from 3, claiming
Captain; 1 challenges; 2 shows Captain; 1 loses Contessa".
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from replay.games.base import Finding
from replay.kit.replay import BaseReplay, SeatError, counted

from .cards import ACTION_CLAIM, CARD_NAMES, CARD_TEXT, KINDS
from .engine import GAME_EVENTS, CoupState
from .log import CoupLog


class Step(NamedTuple):
    """The position after one game event (step 0 is the deal).

    ``hands`` holds each seat's face-down cards (sorted card values); ``claim`` is the character
    an action or block claims, and ``bluff`` whether the claimant did not hold it then.
    """

    index: int
    kind: str  # "deal", "action", "challenge", "block", "reveal", "replace", "lose", "exchange", "leave"
    seat: str | None
    event: int | None
    action: str | None
    target: str | None
    card: int | None
    claim: int | None
    bluff: bool | None
    drawn: tuple[int, ...] | None
    kept: tuple[int, ...] | None
    out: bool  # this step put its seat out of the game
    hands: tuple[tuple[int, ...], ...]
    influence: tuple[int, ...]
    faceup: tuple[tuple[int, ...], ...]
    coins: tuple[int, ...]
    alive: tuple[bool, ...]
    deck: tuple[int, ...]
    to_act: str | None
    phase: str
    turn: int
    winner: str | None
    t: int | None
    seats: tuple[str, ...]
    turn_start: int  # index of the step that opened this turn

    def text_for(self, seat: str | None = None) -> str:
        """What happened, in words, as ``seat`` saw it (``None``: everything open)."""
        who, kind = self.seat, self.kind
        if kind == "deal":
            n = len(self.seats)
            return f"The cards are dealt: {n} seats, 2 cards and 2 coins each; {self.to_act} moves first"
        knows = seat is None or seat == who
        if kind == "action":
            text = _ACTION_TEXT[self.action].format(who=who, target=self.target)
            if self.claim is not None:
                text += f", claiming {CARD_NAMES[self.claim]}" + _mark(self.bluff, knows)
        elif kind == "challenge":
            text = f"{who} challenges"
        elif kind == "block":
            text = f"{who} blocks, claiming {CARD_NAMES[self.card]}" + _mark(self.bluff, knows)
        elif kind == "reveal":
            text = f"{who} shows {CARD_NAMES[self.card]}"
        elif kind == "replace":
            text = (f"{who} draws {CARD_NAMES[self.card]} as a replacement" if knows
                    else f"{who} draws a replacement card")
        elif kind == "lose":
            text = f"{who} loses {CARD_NAMES[self.card]}"
        elif kind == "exchange":
            if knows:
                kept = " and ".join(CARD_NAMES[c] for c in self.kept) or "nothing"
                text = (f"{who} draws {CARD_NAMES[self.drawn[0]]} and {CARD_NAMES[self.drawn[1]]}, "
                        f"keeps {kept}")
            else:
                text = f"{who} exchanges cards with the deck"
        else:
            text = f"{who} leaves the game"
        if self.out and kind != "leave":
            text += f" and is out"
        if self.winner is not None and self.out:
            text += f"; {self.winner} wins"
        return text

    @property
    def text(self) -> str:
        return self.text_for(None)


_ACTION_TEXT = {
    "I": "{who} takes income", "F": "{who} takes foreign aid", "C": "{who} launches a coup against {target}",
    "T": "{who} collects tax", "A": "{who} assassinates {target}", "S": "{who} steals from {target}",
    "X": "{who} exchanges with the deck",
}


def _mark(bluff: bool | None, knows: bool) -> str:
    if not knows or bluff is None:
        return ""
    return " (a bluff)" if bluff else " (true)"


@dataclass(slots=True)
class CoupReplay(BaseReplay):
    """A game judged under the Coup rules: findings, winner, coins and, on first use, its steps."""

    log: CoupLog
    findings: list[Finding]
    winner: str | None
    end_reason: str  # as logged; "completed" or "abandoned" when the log gives none
    checked: bool
    turns: int
    coins: dict[str, int]
    influence: dict[str, int]
    eliminated: list[str]
    step_count: int
    event_steps: list[int] = field(default_factory=list)
    _steps: list[Step] | None = None
    _run = staticmethod(lambda log, record_steps: _run(log, record_steps))  # the engine pass below

    @classmethod
    def from_log(cls, log: CoupLog) -> "CoupReplay":
        state, findings, event_steps, _ = _run(log, record_steps=False)
        seats = state.seats
        winner = None if state.winner is None else seats[state.winner]
        end_reason = _end_reason(state, log, findings, winner)
        return cls(
            log=log, findings=findings, winner=winner, end_reason=end_reason, checked=not state.stopped,
            turns=state.turns, coins=dict(zip(seats, state.coins)), influence=dict(zip(seats, state.influence)),
            eliminated=[seats[i] for i in state.eliminated], step_count=state.steps + 1, event_steps=event_steps)

    # -- views --------------------------------------------------------------------------------
    @property
    def seats(self) -> tuple[str, ...]:
        return self.log.seat_order

    def __repr__(self) -> str:
        return f"<CoupReplay {self.summary_line()}>"

    def facts(self) -> dict[str, str | int]:
        return {"turns": self.turns, "players": len(self.seats)}

    def summary_line(self) -> str:
        """``champ/r1/g17  coup  2 won in 31 turns (3 seats)  0 findings``"""
        return self.summary(counted(self.turns, "turn"), extra=f" ({len(self.seats)} seats)")

    def to_json(self) -> dict[str, Any]:
        """The summary the CLI prints and the web API serves (all cards open)."""
        log = self.log
        return {
            "game": "coup",
            "game_id": log.game_id,
            "seats": list(self.seats),
            "first_player": log.first_player,
            "hands": {s: [CARD_TEXT[c] for c in log.hands[s]] for s in self.seats},
            "winners": self.winners,
            "end": self.end_reason,
            "checked": self.checked,
            "turns": self.turns,
            "eliminated": list(self.eliminated),
            "coins": dict(self.coins),
            "influence": dict(self.influence),
            "findings": [f.to_json() for f in self.findings],
        }

    def steps_json(self, seat: str | None = None) -> list[dict[str, Any]]:
        """Every step as plain JSON, as ``seat`` could see it (``None``: all cards open).

        From one seat's perspective the other seats' face-down cards are ``null`` (their count is
        in ``influence``), the deck's contents are ``null`` (its size is in ``deck_size``), another
        seat's replacement card and exchanged cards are ``null``, and ``bluff`` is present only on
        the seat's own claims.
        """
        seats = self.seats
        if seat is not None and seat not in seats:
            raise SeatError(f"{seat!r} is not a seat of this Coup game ({', '.join(seats)})")
        out = []
        for s in self.steps:
            knows = seat is None or seat == s.seat
            private = s.kind in ("replace", "exchange")
            item: dict[str, Any] = {
                "i": s.index, "kind": s.kind, "seat": s.seat, "event": s.event,
                "text": s.text_for(seat),
                "turn_text": "; ".join(x.text_for(seat) for x in self.steps[s.turn_start:s.index + 1]
                                       if x.kind != "deal"),
                "turn": s.turn, "action": s.action, "target": s.target,
                "card": None if s.card is None or (private and not knows) else CARD_TEXT[s.card],
                "claim": None if s.claim is None else CARD_TEXT[s.claim],
            }
            if s.bluff is not None and knows:
                item["bluff"] = s.bluff
            item["drawn"] = None if s.drawn is None or not knows else [CARD_TEXT[c] for c in s.drawn]
            item["kept"] = None if s.kept is None or not knows else [CARD_TEXT[c] for c in s.kept]
            item["hands"] = {name: ([CARD_TEXT[c] for c in cards] if seat is None or name == seat else None)
                             for name, cards in zip(seats, s.hands)}
            item["influence"] = dict(zip(seats, s.influence))
            item["faceup"] = {name: [CARD_TEXT[c] for c in cards] for name, cards in zip(seats, s.faceup)}
            item["coins"] = dict(zip(seats, s.coins))
            item["out"] = [name for name, alive in zip(seats, s.alive) if not alive]
            item["deck_size"] = sum(s.deck)
            item["deck"] = ([CARD_TEXT[k] for k in range(KINDS) for _ in range(s.deck[k])]
                            if seat is None else None)
            item["to_act"] = s.to_act
            item["phase"] = s.phase
            item["winner"] = s.winner
            item["t"] = s.t
            out.append(item)
        return out


def _run(log: CoupLog, record_steps: bool):
    """One engine pass over the log: (state, findings, event_steps, steps)."""
    seats = log.seat_order
    state = CoupState(seats, [log.hands[s] for s in seats], log.first_player)
    findings = state.check_setup()
    steps: list[Step] = [_snapshot(state, "deal", None, None, 0)] if record_steps else []
    event_steps: list[int] = []
    append = event_steps.append
    push = state.push
    turn_start = 0
    for number, event in enumerate(log.events):
        kind = event.type
        if kind == "chat" or state.stopped:
            append(state.steps)
            continue
        before = state.steps
        if record_steps and kind in ("action", "block"):
            s = state.index[event.seat]
            claim = ACTION_CLAIM.get(event.action) if kind == "action" else event.card
            bluff = None if claim is None else not state.claim_is_true(s, claim)
            alive_before = list(state.alive)
        else:
            claim = bluff = None
            alive_before = list(state.alive) if record_steps else None
        new = push(event, number)
        if new:
            findings.extend(new)
        if record_steps and state.steps != before:
            if kind == "action":
                turn_start = state.steps
            steps.append(_snapshot(state, kind, event, number, turn_start, claim, bluff, alive_before))
        append(state.steps)
    findings.extend(state.finish())
    return state, findings, event_steps, steps


def _snapshot(state: CoupState, kind: str, event, number, turn_start: int, claim=None, bluff=None,
              alive_before=None) -> Step:
    seat = event.seat if event is not None else None
    s = state.index.get(seat, -1) if seat is not None else -1
    out = bool(alive_before is not None and s >= 0 and alive_before[s] and not state.alive[s])
    hands = tuple(tuple(k for k in range(KINDS) for _ in range(h[k])) for h in state.hidden)
    return Step(
        index=state.steps, kind=kind, seat=seat, event=number,
        action=event.action if kind == "action" else None, target=event.target if kind == "action" else None,
        card=event.card if kind in ("block", "reveal", "replace", "lose") else None, claim=claim, bluff=bluff,
        drawn=tuple(event.drawn) if kind == "exchange" else None,
        kept=tuple(event.kept) if kind == "exchange" else None, out=out,
        hands=hands, influence=tuple(state.influence), faceup=tuple(tuple(f) for f in state.faceup),
        coins=tuple(state.coins), alive=tuple(state.alive), deck=tuple(state.deck), to_act=state.to_act,
        phase=state.phase_name, turn=state.turns,
        winner=None if state.winner is None else state.seats[state.winner],
        t=event.t if event is not None else None, seats=state.seats, turn_start=turn_start)


def _end_reason(state: CoupState, log: CoupLog, findings: list[Finding], winner: str | None) -> str:
    end = log.end
    logged = end.reason if end is not None else None
    if state.stopped:
        return logged or ("completed" if winner is not None else "abandoned")
    if logged is None:
        return "completed" if winner is not None else "abandoned"
    last = state.steps
    if end.winner is not None and end.winner != winner:
        message = (f"the log names {end.winner} as the winner, but "
                   + (f"{winner} is the last seat in the game" if winner is not None
                      else f"{sum(state.alive)} seats are still in the game"))
        findings.append(Finding(last, "wrong_winner", end.winner, message, None))
    if logged == "completed" and winner is None:
        left = ", ".join(state.seats[i] for i in range(state.n) if state.alive[i])
        findings.append(Finding(last, "end_mismatch", None,
                                f"the log says the game was completed, but {left} are still in the game", None))
    return logged


__all__ = ["CoupReplay", "SeatError", "Step", "GAME_EVENTS"]
