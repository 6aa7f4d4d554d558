"""GameReplay: a whole game judged by the engine, as a list of steps.

>>> from replay.games.floating_bridge.bots import play_game
>>> replay = play_game(seed=7).replay()
>>> replay.steps[0].kind, replay.findings
('deal', [])
>>> replay.result.winner in ("declarer", "defenders")
True
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from replay.codec import encode, replay_url
from replay.games import game_for_format
from replay.games.base import GameModule, Outcome

from .cards import SEATS, Call, Card, Seat, cards_of, hand_points
from .engine import AUCTION, OVER, PARTNER, PLAY, Finding, Game, finding
from .log import GameLog
from .rules import Rules, targets


class Step(NamedTuple):
    """The position after one action (step 0 is the deal).

    ``hands`` are 52-bit masks (``hand_cards(seat)`` gives the cards); ``trick`` is the trick
    under way as ``(seat, card)`` pairs (after its fourth card, the finished trick).
    """

    index: int
    kind: str  # "deal", "call", "partner", "play"
    seat: Seat | None
    action: Call | Card | None
    event: int | None  # index of the log event
    hands: tuple[int, int, int, int]
    trick: tuple[tuple[Seat, Card], ...]
    trick_number: int  # tricks finished so far (plus one while a trick is under way)
    tricks_won: tuple[int, int, int, int]
    declarer_side_tricks: int
    defender_tricks: int
    partner_revealed: bool
    to_act: Seat | None
    phase: str
    trick_winner: Seat | None  # set on the step that finishes a trick
    t: int | None

    def hand_cards(self, seat: int) -> list[Card]:
        return cards_of(self.hands[seat])

    @property
    def text(self) -> str:
        """What happened, in words: "East plays ♥7"."""
        if self.kind == "deal":
            return "The cards are dealt"
        name = self.seat.full_name if self.seat is not None else "?"
        if self.kind == "call":
            return f"{name} passes" if self.action.is_pass else f"{name} bids {self.action.symbol}"
        if self.kind == "partner":
            return f"{name} calls {self.action.symbol} as the partner card"
        text = f"{name} plays {self.action.symbol}"
        if self.trick_winner is not None:
            text += f"; {self.trick_winner.full_name} wins trick {self.trick_number}"
        return text


@dataclass(frozen=True, slots=True)
class Result:
    winner: str | None  # "declarer", "defenders", or None (not completed)
    declarer_tricks: int
    defender_tricks: int
    needed: int | None
    defenders_needed: int | None
    over_under: int | None  # declarer's side over (+) or under (-) its number, all-tricks games

    def to_json(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "declarer_tricks": self.declarer_tricks,
            "defender_tricks": self.defender_tricks,
            "needed": self.needed,
            "defenders_needed": self.defenders_needed,
            "over_under": self.over_under,
        }


@dataclass(slots=True)
class GameReplay:
    """A game replayed under its own rules: findings, result and (on first use) its steps.

    Judging a game (findings, result) is one engine pass; the per-step snapshots that the
    viewer and the exports need are built by a second pass the first time ``steps`` is read,
    so ingest, ``validate`` and encoding never pay for them.
    """

    log: GameLog
    rules: Rules
    findings: list[Finding]
    calls: list[tuple[Seat, Call]]
    contract: Call | None
    declarer: Seat | None
    partner_card: Card | None
    partner_seat: Seat | None
    trick_winners: list[Seat]
    tricks: tuple[int, int, int, int]
    result: Result
    end_reason: str  # as logged, or "completed"/"abandoned" when the log gives none
    checked: bool  # False when a fatal finding stopped rule checking
    final_phase: str  # the engine's phase after the last event: auction, partner, play or over
    step_count: int  # len(steps), known without building them
    event_steps: list[int] = field(default_factory=list)  # step index visible at each event
    _steps: list[Step] | None = None

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def from_log(cls, log: GameLog) -> "GameReplay":
        game, findings, event_steps, count, _ = cls._run(log, record_steps=False)
        end_reason = cls._end_reason(game, log, findings, count - 1)
        result = cls._result(game, end_reason)
        return cls(
            log=log, rules=log.rules, findings=findings, calls=list(game.calls),
            contract=game.contract, declarer=game.declarer, partner_card=game.partner_card,
            partner_seat=game.partner_seat, trick_winners=list(game.trick_winners),
            tricks=tuple(game.tricks_won), result=result, end_reason=end_reason,
            checked=not game.stopped, final_phase=game.phase, step_count=count,
            event_steps=event_steps,
        )

    @property
    def steps(self) -> list[Step]:
        """Every position: step 0 is the deal, then one per call, partner call and card."""
        if self._steps is None:
            self._steps = self._run(self.log, record_steps=True)[4]
        return self._steps

    @classmethod
    def _run(cls, log: GameLog, record_steps: bool):
        """One engine pass over the log: (game, findings, event_steps, step count, steps)."""
        game = Game(log.hands.by_seat(), log.first_bidder, log.rules)
        findings: list[Finding] = game.check_deal()
        steps: list[Step] = [cls._snapshot(game, 0, "deal", None, None, None, None, None)] if record_steps else []
        event_steps: list[int] = []
        count = 1  # steps so far
        for number, event in enumerate(log.events):
            if game.stopped:
                event_steps.append(count - 1)
                continue
            kind = event.type
            if kind in Game.ACTION_EVENTS:
                new = game.push(event, count)
                action = event.bid if kind == "bid" else event.card
                if kind == "bid":
                    kind = "call"
            else:
                new = game.push(event, count - 1)
                kind = None
            if game.stopped:
                # the breach did not change the position: tie it to the last step
                findings.extend(replace(f, step=count - 1, event=number) for f in new)
                event_steps.append(count - 1)
                continue
            if new:
                findings.extend(replace(f, event=number) for f in new)
            if kind is None:
                event_steps.append(count - 1)
                continue
            if record_steps:
                winner = None
                if kind == "play" and not game.trick and game.trick_winners:
                    winner = game.trick_winners[-1]
                steps.append(cls._snapshot(game, count, kind, event.seat, action, number, winner, event.t))
            event_steps.append(count)
            count += 1
        return game, findings, event_steps, count, steps

    @staticmethod
    def _snapshot(game: Game, index: int, kind: str, seat, action, event, winner, t) -> Step:
        if winner is not None:
            # show the finished trick on the step that finished it
            trick = game.last_trick
            number = len(game.trick_winners)
        elif game.trick:
            trick = tuple(game.trick)
            number = len(game.trick_winners) + 1
        else:
            trick = ()
            number = len(game.trick_winners)
        # positional: a NamedTuple built this way is several times cheaper than keywords
        return Step(index, kind, seat, action, event, tuple(game.hands), trick, number,
                    tuple(game.tricks_won), game.declarer_side_tricks, game.defender_tricks,
                    game.partner_revealed, game.to_act, game.phase, winner, t)

    @staticmethod
    def _end_reason(game: Game, log: GameLog, findings: list[Finding], last_step: int) -> str:
        logged = log.end.reason if log.end is not None else None
        if game.stopped:
            return logged or "abandoned"
        actual_complete = game.phase == OVER and not game.passed_out
        if logged is None:
            if game.passed_out:
                return "passed_out"
            return "completed" if actual_complete else "abandoned"
        problem = None
        if logged == "completed" and not actual_complete:
            problem = ("the log says the game was completed, but "
                       + ("it was passed out" if game.passed_out else _where(game)))
        elif logged == "passed_out" and not game.passed_out:
            problem = "the log says the game was passed out, but " + (
                "a bid was made" if game.highest_bid is not None else "fewer than four passes were made")
        elif logged in ("cancelled", "timeout", "abandoned") and game.phase == OVER:
            problem = (f"the log says the game ended as {logged}, but "
                       + ("it was passed out" if game.passed_out else "play had already reached its end"))
        if problem:
            findings.append(finding(last_step, "end_mismatch", None, problem, None))
        return logged

    @staticmethod
    def _result(game: Game, end_reason: str) -> Result:
        needed = defenders_needed = None
        if game.contract is not None:
            needed, defenders_needed = targets(game.contract)
        winner = over_under = None
        complete = end_reason == "completed" and game.phase == OVER and not game.passed_out and not game.stopped
        if complete:
            winner = "declarer" if game.declarer_side_tricks >= needed else "defenders"
            if game.rules.play_all_tricks and len(game.trick_winners) == 13:
                over_under = game.declarer_side_tricks - needed
        return Result(winner, game.declarer_side_tricks, game.defender_tricks, needed,
                      defenders_needed, over_under)

    # -- the game-neutral interface (replay.games.base.Replay) -------------------------------
    @property
    def game(self) -> GameModule:
        return game_for_format(self.log.format)

    @property
    def winners(self) -> list[str]:
        """The seats of the side that won, in seat order; empty when nobody won."""
        if self.result.winner is None or self.declarer is None:
            return []
        side = {self.declarer}
        if self.partner_seat is not None:
            side.add(self.partner_seat)
        if self.result.winner == "declarer":
            return [s.name for s in SEATS if s in side]
        return [s.name for s in SEATS if s not in side]

    def roles(self) -> dict[str, str]:
        """``declarer``, ``partner`` and ``defender`` per seat once the auction is won."""
        if self.declarer is None:
            return {}
        out = {}
        for s in SEATS:
            if s == self.declarer:
                out[s.name] = "declarer"
            elif s == self.partner_seat:
                out[s.name] = "partner"
            else:
                out[s.name] = "defender"
        return out

    def outcome(self) -> Outcome:
        facts: dict[str, str | int] = {"rules": self.rules.name}
        if self.contract is not None:
            facts["contract"] = str(self.contract)
            facts["declarer"] = self.declarer.name
        if self.partner_seat is not None:
            facts["partner_seat"] = self.partner_seat.name
        if self.result.winner is not None:
            facts["result"] = self.result.winner
        return Outcome(self.end_reason, tuple(self.winners), self.roles(), facts)

    # -- views --------------------------------------------------------------------------------
    @property
    def final(self) -> Step:
        return self.steps[-1]

    def __repr__(self) -> str:
        return f"<GameReplay {self.summary_line()}>"

    @property
    def contract_text(self) -> str | None:
        return None if self.contract is None else str(self.contract)

    def hand_points(self) -> list[int]:
        return [hand_points(h) for h in self.log.hands.by_seat()]

    def finding_kinds(self) -> list[str]:
        return sorted({f.kind for f in self.findings})

    def summary_line(self) -> str:
        """``chat-42/7  bridgebot  3S by N  declarer 9/9  0 findings``"""
        game_id = self.log.game_id or "(no id)"
        if self.contract is None:
            contract = "passed out" if self.end_reason == "passed_out" else "no contract"
        else:
            contract = f"{self.contract} by {self.declarer.name}"
        r = self.result
        if r.winner is not None:
            result = f"{r.winner} won ({r.declarer_tricks}/{r.needed} vs {r.defender_tricks}/{r.defenders_needed})"
        elif not self.checked:
            result = f"unchecked after step {self.step_count - 1} (logged end: {self.end_reason})"
        else:
            result = self.end_reason
        n = len(self.findings)
        return f"{game_id}  {self.rules.name}  {contract}  {result}  {n} finding{'s' if n != 1 else ''}"

    def to_json(self) -> dict[str, Any]:
        """The summary the CLI's ``replay --json`` prints and the web API serves."""
        return {
            "game": "floating-bridge",
            "game_id": self.log.game_id,
            "winners": self.winners,
            "rules": self.rules.name,
            "rules_flags": self.rules.as_dict(),
            "first_bidder": self.log.first_bidder.name,
            "contract": self.contract_text,
            "declarer": None if self.declarer is None else self.declarer.name,
            "partner_card": None if self.partner_card is None else str(self.partner_card),
            "partner_seat": None if self.partner_seat is None else self.partner_seat.name,
            "calls": [{"seat": s.name, "call": str(c)} for s, c in self.calls],
            "trick_winners": [s.name for s in self.trick_winners],
            "tricks": {s.name: self.tricks[s] for s in SEATS},
            "result": self.result.to_json(),
            "end": self.end_reason,
            "checked": self.checked,
            "findings": [f.to_json() for f in self.findings],
        }

    def steps_json(self, seat: str | None = None, public: bool = False) -> list[dict[str, Any]]:
        """Every step as plain JSON: what the viewer embeds in its page (every card open).

        With ``seat`` (``N``, ``E``, ``S`` or ``W``), the steps as that seat saw them; with
        ``public``, as an onlooker saw them. A hand the view does not see is ``null`` (its
        size is in ``hand_sizes``, which these views add). Until the partner card is played,
        who the partner is stays secret from everybody but the partner, so the two sides'
        trick counts (which would tell) are ``null`` too for any other view, and so is
        ``partner`` (the partner's seat once the view knows it: at once for the partner, when
        the card is played for the others; the end of the game tells everybody). The called
        card itself is public, and so is every card played.

        >>> from replay.games.floating_bridge.bots import play_game
        >>> replay = play_game(seed=7).replay()
        >>> step = replay.steps_json("N")[0]
        >>> len(step["hands"]["N"]), step["hands"]["E"], step["hand_sizes"]["E"]
        (13, None, 13)
        >>> all(h is None for h in replay.steps_json(public=True)[0]["hands"].values())
        True
        """
        if seat is not None and (public or seat not in Seat.__members__):
            raise ValueError(f"a bridge view is a seat (N, E, S or W) or the public one, not {str(seat)[:20]!r}")
        filtered = public or seat is not None
        holder = None  # the seat that holds the partner card: it alone knows the partner early
        if self.partner_card is not None:
            mask = 1 << int(self.partner_card)
            holder = next((s.name for s, hand in zip(SEATS, self.steps[0].hands) if hand & mask), None)
        called = False
        out = []
        for s in self.steps:
            called = called or s.kind == "partner"
            knows_partner = (not filtered or s.partner_revealed or s.phase == OVER
                             or (seat is not None and seat == holder))
            hands: dict[str, list[str] | None] = {}
            for name in SEATS:
                shown = not filtered or name.name == seat
                hands[name.name] = [str(c) for c in s.hand_cards(name)] if shown else None
            step: dict[str, Any] = {
                "i": s.index,
                "kind": s.kind,
                "seat": None if s.seat is None else s.seat.name,
                "action": None if s.action is None else str(s.action),
                "text": s.text,
                "hands": hands,
                "trick": [[seat_.name, str(card)] for seat_, card in s.trick],
                "trick_number": s.trick_number,
                "tricks_won": {name.name: s.tricks_won[name] for name in SEATS},
                "declarer_side_tricks": s.declarer_side_tricks if knows_partner else None,
                "defender_tricks": s.defender_tricks if knows_partner else None,
                "partner_revealed": s.partner_revealed,
                "partner": holder if called and knows_partner else None,
                "to_act": None if s.to_act is None else s.to_act.name,
                "phase": s.phase,
                "trick_winner": None if s.trick_winner is None else s.trick_winner.name,
                "t": s.t,
            }
            if filtered:
                step["hand_sizes"] = {name.name: s.hands[name].bit_count() for name in SEATS}
            out.append(step)
        return out

    # codes are attached by replay.codec (see replay/codec/__init__.py)
    def code(self) -> str:
        return encode(self)

    def url(self, base: str, names: bool = False) -> str:
        return replay_url(self, base, names=names)


def _where(game: Game) -> str:
    if game.phase == AUCTION:
        return "it stopped during the auction"
    if game.phase == PARTNER:
        return "it stopped before the partner card was called"
    if game.phase == PLAY:
        need, need_def = targets(game.contract)
        played = len(game.trick_winners)
        return (f"play stopped after {played} trick{'s' if played != 1 else ''} with the declarer's side on "
                f"{game.declarer_side_tricks} of {need} and the defenders on {game.defender_tricks} of {need_def}")
    return "it was not finished"
