"""HoldemReplay: a hold'em hand judged by the engine, and (on first use) its steps, per seat.

>>> from decimal import Decimal
>>> from types import SimpleNamespace as NS
>>> actions = ["d dh p1 Ac2d", "d dh p2 ????", "d dh p3 7h7s", "p3 cbr 300", "p1 cc", "p2 f",
...            "d db 7c8d2s", "p1 cc", "p3 cbr 400", "p1 f"]
>>> log = NS(format="holdem/1", game_id="t/1", variant="NT", antes=[0, 0, 0], blinds_or_straddles=[50, 100, 0],
...          min_bet=100, small_bet=None, big_bet=None, starting_stacks=[10000, 10000, 10000],
...          seats=("p1", "p2", "p3"), events=[NS(type="action", action=a) for a in actions],
...          end=NS(reason="completed", finishing_stacks=[9700, 9900, 10400], winnings=None))
>>> replay = HoldemReplay.from_log(log)
>>> replay.findings, replay.end_reason, replay.winners, replay.summary_line()
([], 'completed', ['p3'], 't/1  holdem  p3 won in 10 actions (3 seats, pot 700)  0 findings')
>>> replay.outcome().facts
{'variant': 'NT', 'seats': 3, 'stakes': '50/100', 'street': 'flop', 'showdown': 'no', 'biggest_pot': 700, 'winner': 'p3'}
>>> steps = replay.steps_json("p1")
>>> [s["text"] for s in steps[:3]], steps[2]["hole"]["p2"], steps[-1]["hole"]["p3"]
(['3 seats; p1 posts 50, p2 posts 100', 'p1 is dealt Ac2d', 'p2 is dealt two cards'], ['??', '??'], ['??', '??'])
>>> steps[4]["text"], steps[4]["kind"], steps[4]["pot"], steps[-1]["payoffs"]
('p3 raises to 300', 'raise', 450, {'p1': -300, 'p2': -100, 'p3': 400})
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from replay.games.base import Finding
from replay.kit.replay import BaseReplay, SeatError, counted

from .cards import card_text, cards_text
from .engine import HoldemState, Settlement, _parsed, _NOOP
from .evaluator import describe, rank
from .log import ActionEvent, End as _End, HoldemLog
from .stats import seat_counts

_BOARD_NAMES = {3: "Flop", 4: "Turn", 5: "River"}


def _num(value: Any) -> Any:
    """An amount for JSON: ints stay ints, decimals become floats."""
    if value is None or type(value) is int:
        return value
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() and value.as_tuple().exponent >= 0 else float(value)
    return value


@dataclass(slots=True)
class HoldemReplay(BaseReplay):
    """A hand judged under the hold'em rules: findings, settlement and, on first use, its steps."""

    log: Any
    findings: list[Finding]
    winner: str | None  # the seat that collected the most (the first of them on a tie)
    end_reason: str
    checked: bool
    step_count: int
    state: HoldemState
    settlement: Settlement | None
    actions: int = 0
    event_steps: list[int] = field(default_factory=list)  # each event's step (once the steps are read)
    _steps: list[dict[str, Any]] | None = None
    _run = staticmethod(lambda log, record_steps: _run(log, record_steps))

    @classmethod
    def from_log(cls, log: Any) -> "HoldemReplay":
        state, findings, event_steps, _, settlement = _run(log, record_steps=False)
        winner = None
        if settlement is not None and settlement.winners:
            best = None  # the seat that collected the most, the first of them on a tie
            for i, w in enumerate(settlement.winnings):
                w = w or 0
                if best is None or w > best:
                    best, winner = w, state.seats[i]
        end = log.__dict__["end"] if type(log) is HoldemLog else getattr(log, "end", None)
        logged = end.reason if type(end) is _End else getattr(end, "reason", None) if end is not None else None
        # without a logged end: completed when the hand is over and checked to the end
        end_reason = logged or ("completed" if state.over and not state.stopped else "abandoned")
        return cls(log=log, findings=findings, winner=winner, end_reason=end_reason, checked=not state.stopped,
                   step_count=state.steps + 1, state=state, settlement=settlement, actions=state.steps,
                   event_steps=event_steps)

    # -- views ---------------------------------------------------------------------------
    @property
    def steps(self) -> list[dict[str, Any]]:
        """Every position, step 0 the setup: recorded by a second engine pass on first use (which
        also fills ``event_steps``, each event's step)."""
        if self._steps is None:
            _, _, self.event_steps, self._steps, _ = _run(self.log, record_steps=True)
        return self._steps

    @property
    def seats(self) -> tuple[str, ...]:
        return self.state.seats

    @property
    def winners(self) -> list[str]:
        return list(self.settlement.winners) if self.settlement is not None else []

    def __repr__(self) -> str:
        return f"<HoldemReplay {self.summary_line()}>"

    def stakes(self) -> str:
        log = self.log
        if getattr(log, "variant", None) == "FT":
            return f"{log.small_bet}/{log.big_bet}"
        blinds = [b for b in (getattr(log, "blinds_or_straddles", None) or []) if b]
        if len(blinds) >= 2:
            low, high = (blinds[0], blinds[1]) if blinds[0] <= blinds[1] else (blinds[1], blinds[0])
            return f"{low}/{high}"
        return f"{getattr(log, 'min_bet', '')}"

    def pot_total(self) -> Any:
        return self.state.pot_total()

    def facts(self) -> dict[str, str | int]:
        state = self.state
        total = state.pot_total()
        biggest = int(total * 100) if state.exponent < 0 else int(total)  # cents at a table in dollars, else chips
        return {"variant": str(getattr(self.log, "variant", "")), "seats": state.n, "stakes": self.stakes(),
                "street": state.street, "showdown": "yes" if state.street_index == 4 else "no",
                "biggest_pot": biggest}

    def counts(self) -> dict[str, dict[str, int]]:
        """Each seat's counters for the stats pages' figures (``stats.seat_counts``): none for a
        hand stopped by a fatal finding or whose pots are not settled."""
        s = self.settlement
        if not self.checked or s is None or not s.settled:
            return {}
        return seat_counts(self.log, dict(zip(self.state.seats, s.payoffs)), self.state.street, self.winners)

    def summary_line(self) -> str:
        """``t/1  holdem  p3 won in 10 actions (3 seats, pot 700)  0 findings``"""
        return self.summary(counted(self.actions, "action"),
                            extra=f" ({self.state.n} seats, pot {self.state.pot_total()})")

    def to_json(self) -> dict[str, Any]:
        """The summary the CLI prints and the web API serves (all cards open)."""
        state, s = self.state, self.settlement
        seats = state.seats
        if s is not None:
            stacks, payoffs = s.stacks, s.payoffs
            pots = [{"amount": _num(p.amount), "seats": list(p.seats), "winners": list(p.winners),
                     "shares": [_num(x) for x in p.shares]} for p in s.pots]
        else:
            stacks = [state.stacks[i] + state.bets[i] for i in range(state.n)]
            payoffs = [None] * state.n
            pots = [{"amount": _num(p.amount), "seats": list(p.seats), "winners": [], "shares": []}
                    for p in state.pots()]
        return {
            "game": "holdem",
            "game_id": getattr(self.log, "game_id", None),
            "seats": list(seats),
            "variant": getattr(self.log, "variant", None),
            "winners": self.winners,
            "end": self.end_reason,
            "checked": self.checked,
            "findings": [f.to_json() for f in self.findings],
            "stacks": {seat: _num(v) for seat, v in zip(seats, stacks)},
            "payoffs": {seat: _num(v) for seat, v in zip(seats, payoffs)},
            "pots": pots,
            "board": [card_text(c) for c in state.board],
            "street": state.street,
            "settled": bool(s is not None and s.settled),
            "rake": _num(s.rake) if s is not None else 0,
            "winnings": ({seat: _num(v) for seat, v in zip(seats, s.winnings)} if s is not None else None),
        }

    def steps_json(self, seat: str | None = None, onlooker: bool = False) -> list[dict[str, Any]]:
        """Every step as plain JSON, as ``seat`` could see it (``None``: every card open). From a
        seat's view the other seats' hole cards are ``??`` until shown (``sm``), and the text of
        their deal says no cards. An ``onlooker`` (no seat) sees every hole card as ``??``
        until it is shown, and no deal's text names a card:

        >>> from replay.games.holdem.bots import play_game
        >>> steps = HoldemReplay.from_log(play_game(seed=3, players=3)).steps_json(onlooker=True)
        >>> steps[1]["text"], steps[1]["hole"]["p1"]
        ('p1 is dealt two cards', ['??', '??'])
        """
        seats = self.seats
        if seat is not None and seat not in seats:
            raise SeatError(f"{seat!r} is not a seat of this hold'em hand ({', '.join(seats)})")
        if onlooker and seat is not None:
            raise SeatError(f"an onlooker has no seat (not {seat!r})")
        hides = seat is not None or onlooker
        out = []
        for step in self.steps:
            item = dict(step)
            shown = item.pop("_shown")
            hidden_text = item.pop("_hidden_text")
            if hides:
                hole = {}
                for s, cards in step["hole"].items():
                    hole[s] = cards if (s == seat or s in shown or not cards) else ["??", "??"]
                item["hole"] = hole
                if hidden_text is not None and (onlooker or step["seat"] != seat):
                    item["text"] = hidden_text
            out.append(item)
        return out


_SEATS: dict[int, tuple[str, ...]] = {}


def _start(log: Any) -> "tuple[HoldemState, list[Finding], Any, Any]":
    """``HoldemState.from_log(log)`` and the log's events and end; a ``HoldemLog``'s fields read
    straight from the model (its seats are p1..pN, one per starting stack)."""
    if type(log) is HoldemLog:
        d = log.__dict__
        extra = log.__pydantic_extra__
        stacks = d["starting_stacks"]
        n = len(stacks)
        seats = _SEATS.get(n)
        if seats is None:
            seats = _SEATS[n] = tuple(f"p{i}" for i in range(1, n + 1))
        end = d["end"]
        state, findings = HoldemState.from_setup(
            d["variant"], d["antes"], d["blinds_or_straddles"], stacks, d["min_bet"], d["small_bet"], d["big_bet"],
            ante_trimming=bool(extra.get("ante_trimming_status", False)) if extra else False, seats=seats, end=end)
        return state, findings, d["events"], end
    state, findings = HoldemState.from_log(log)
    return state, findings, getattr(log, "events", ()), getattr(log, "end", None)


def _run(log: Any, record_steps: bool):
    """One engine pass: (state, findings, event_steps, steps, settlement)."""
    state, findings, events, end = _start(log)
    steps: list[dict[str, Any]] = []
    event_steps: list[int] = []
    if record_steps:
        blinds = dict(zip(state.seats, state.bets)) if not state.stopped else {}
        steps.append(_snapshot(state, {"kind": "setup", "seat": None, "event": None, "amount": None,
                                       "text": _setup_text(state)}, None, blinds))
    push = state.push_action
    if not record_steps:  # the judging loop, lean (event_steps are recorded with the steps)
        number = 0
        for event in events:
            if type(event) is ActionEvent or event.type == "action":
                new = push(event.action, number)
                if new:
                    findings.extend(new)
            number += 1
        events = ()
    for number, event in enumerate(events):
        if state.stopped or event.type != "action":
            event_steps.append(state.steps)
            continue
        if record_steps:
            action = _parsed(event.action)
            before = state.copy() if action is not _NOOP else None
        new = push(event.action, number)
        if new:
            findings.extend(new)
        if record_steps and state.steps != (before.steps if before is not None else state.steps):
            info = _describe(before, state, action, number)
            steps.append(_snapshot(state, info, info.pop("hidden_text", None), blinds))
        event_steps.append(state.steps)
    settlement = None
    if state.over:
        settlement = state.settle()
        findings.extend(settlement.findings)
    elif not state.stopped:
        settlement = state.settle()  # not over: the pots stay unsettled, the stacks are as they stand
        settlement = Settlement([state.stacks[i] + state.bets[i] for i in range(state.n)], [None] * state.n,
                                settlement.pots, False, 0, [], [None] * state.n, [])
    if not state.stopped:
        findings.extend(state.end_findings(getattr(end, "reason", None) if end is not None else None))
    if record_steps and steps:
        last = steps[-1]
        last["last"] = True
        if settlement is not None:
            seats = state.seats
            last["payoffs"] = {s: _num(v) for s, v in zip(seats, settlement.payoffs)}
            last["winners"] = list(settlement.winners)
            if settlement.settled:
                last["pots"] = [{"amount": _num(p.amount), "seats": list(p.seats), "winners": list(p.winners)}
                                for p in settlement.pots]
                last["stacks"] = {s: _num(v) for s, v in zip(seats, settlement.stacks)}
        else:
            last["payoffs"] = None
            last["winners"] = []
    return state, findings, event_steps, steps, settlement


def _setup_text(state: HoldemState) -> str:
    if state.stopped:
        return f"{state.n} seats; the setup is not valid"
    posts = [f"{seat} posts {b}" for seat, b in zip(state.seats, state.bets) if b]
    text = f"{state.n} seats"
    if any(state.antes):
        text += f"; antes {'/'.join(str(a) for a in sorted(set(state.antes)) if a)}"
    if posts:
        text += "; " + ", ".join(posts)
    return text


def _describe(before: HoldemState, after: HoldemState, action: tuple, number: int) -> dict[str, Any]:
    first = action[0]
    if first == "dh":
        seat, cards = action[1], action[2]
        return {"kind": "hole", "seat": seat, "event": number, "amount": None,
                "text": f"{seat} is dealt {cards_text(cards)}", "hidden_text": f"{seat} is dealt two cards"}
    if first == "db":
        cards = action[1]
        name = _BOARD_NAMES.get(len(after.board), "Board")
        return {"kind": "board", "seat": None, "event": number, "amount": None,
                "text": f"{name}: {' '.join(card_text(c) for c in cards)}"}
    seat, verb = first, action[1]
    p = before.index[seat]
    all_in = " (all-in)" if not after.stacks[p] and not after.folded[p] and before.stacks[p] else ""
    if verb == "f":
        return {"kind": "fold", "seat": seat, "event": number, "amount": None, "text": f"{seat} folds"}
    if verb == "cc":
        paid = before.stacks[p] - after.stacks[p]
        top = max(before.bets)
        call = min(before.stacks[p], top - before.bets[p])
        if call == 0:
            return {"kind": "check", "seat": seat, "event": number, "amount": None, "text": f"{seat} checks"}
        return {"kind": "call", "seat": seat, "event": number, "amount": _num(call),
                "text": f"{seat} calls {call}{all_in}"}
    if verb == "cbr":
        to = action[2]
        if max(before.bets) == 0:
            return {"kind": "bet", "seat": seat, "event": number, "amount": _num(to),
                    "text": f"{seat} bets {to}{all_in}"}
        return {"kind": "raise", "seat": seat, "event": number, "amount": _num(to),
                "text": f"{seat} raises to {to}{all_in}"}
    # sm
    cards = action[2]
    if cards is None and (after.folded[p] or before.active_count() > 1):
        return {"kind": "muck", "seat": seat, "event": number, "amount": None, "text": f"{seat} mucks"}
    hole = after.hole[p]
    text = f"{seat} shows {cards_text(hole)}"
    if hole is not None and None not in hole and len(after.board) == 5 and None not in after.board:
        text += f" ({describe(rank(list(hole) + after.board))})"
    return {"kind": "show", "seat": seat, "event": number, "amount": None, "text": text}


def _snapshot(state: HoldemState, info: dict[str, Any], hidden_text: str | None,
              blinds: dict[str, Any]) -> dict[str, Any]:
    seats = state.seats
    hole = {}
    for s, cards in zip(seats, state.hole):
        hole[s] = [] if cards is None else [card_text(c) for c in cards]
    step = {
        "i": state.steps,
        "kind": info["kind"],
        "seat": info["seat"],
        "text": info["text"],
        "event": info["event"],
        "street": state.street,
        "amount": info["amount"],
        "stacks": {s: _num(v) for s, v in zip(seats, state.stacks)},
        "bets": {s: _num(v) for s, v in zip(seats, state.bets)},
        "pot": _num(state.pot_total()),
        "pots": [{"amount": _num(p.amount), "seats": list(p.seats), "winners": []} for p in state.pots()],
        "board": [card_text(c) for c in state.board],
        "hole": hole,
        "folded": [s for s, f in zip(seats, state.folded) if f],
        "all_in": [s for s, a in zip(seats, state.all_in) if a],
        "to_act": state.to_act,
        "button": state.button if seats else None,
        "blinds": {s: _num(v) for s, v in blinds.items() if v},
        "last": False,
        "_shown": {s for s, shown in zip(seats, state.revealed) if shown},  # shown, not mucked
        "_hidden_text": hidden_text,
    }
    return step


__all__ = ["HoldemReplay", "SeatError"]
