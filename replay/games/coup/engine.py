"""The Coup engine: one position, pushed forward one event at a time.

``CoupState`` knows where all 15 cards are, as counts per character: each seat's face-down cards
(``hidden``), the face-up cards of lost influence (``faceup``), the deck (``deck``) and the
cards of seats that left (``gone``, out of play). It never raises on a breach of the rules:
``push`` returns the findings of the spec's table (first row that applies), and a fatal one
stops rule checking (``stopped``) and leaves the position as it was.

>>> state = CoupState(("1", "2"), [[0, 3], [4, 4]], "1")
>>> state.check_setup(), state.to_act, state.deck_size
([], '1', 11)
>>> state.apply_event("action", "1", action="T", index=0), state.phase_name
([], 'window')
>>> state.apply_event("challenge", "2", index=1), state.to_act
([], '1')
>>> state.apply_event("reveal", "1", card=0, index=2)
[]
>>> state.legal()
[('lose', '2', 4), ('replace', '1')]
>>> state.apply_event("replace", "1", card=1, index=3), state.apply_event("lose", "2", card=4, index=4)
([], [])
>>> state.apply_event("action", "2", action="I", index=5), state.coins
([], [5, 3])
>>> state.apply_event("action", "2", action="I", index=6)
[Finding(step=6, kind='out_of_turn', seat='2', message='2 declares income out of turn (1 is to move); rule checking stops here', event=6, fatal=True)]

Decisions (``legal``) are tuples in one canonical order that codecs index into; each names the
seat that takes it, since in Coup a response may come from any seat. See ``legal``.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Sequence

from replay.games.base import Finding

from .cards import (ACTION_CLAIM, ACTION_NAMES, ACTIONS, ASSASSIN, BLOCKS, CARD_NAMES, CARD_TEXT, COPIES,
                    COST, DECK_SIZE, HAND_SIZE, KINDS, MUST_COUP, START_COINS, TARGETED)

#: kind -> fatal, in the order of the spec's table (the first row that applies names a breach)
FINDING_KINDS: dict[str, bool] = {
    "invalid_setup": True,
    "event_after_end": True,
    "out_of_turn": True,
    "not_enough_coins": True,
    "must_coup": False,
    "invalid_target": True,
    "invalid_block": True,
    "invalid_challenge": True,
    "card_not_held": True,
    "card_not_in_deck": True,
    "wrong_card": True,
    "missing_step": True,
    "coins_mismatch": False,
    "refused_message": False,
    "wrong_winner": False,
    "end_mismatch": False,
}

#: the phases of a turn
IDLE, WINDOW, CHALLENGED, REVEALED, NEED_LOSE = range(5)
PHASE_NAMES = ("idle", "window", "challenged", "revealed", "need_lose")
_CARD_EVENTS = frozenset(("block", "reveal", "replace", "lose"))
GAME_EVENTS = frozenset(("action", "challenge", "block", "reveal", "replace", "lose", "exchange", "leave"))


class Ev(NamedTuple):
    """A light event (what bots and codecs push): the fields of a ``coup/1`` event."""

    type: str
    seat: str | None = None
    action: str | None = None
    target: str | None = None
    card: int | None = None
    drawn: tuple[int, ...] | None = None
    kept: tuple[int, ...] | None = None
    coins: int | None = None


def _cards_text(counts: Sequence[int]) -> str:
    return " ".join(CARD_TEXT[k] for k in range(KINDS) for _ in range(counts[k])) or "nothing"


class CoupState:
    """A position of Coup. ``push`` (or ``apply_event``) is the mutator.

    Public fields (plain ints and lists, by seat index): ``hidden[i][k]`` face-down cards of
    character ``k``, ``influence[i]`` face-down cards the seat is entitled to (one less than
    ``hidden`` holds between a reveal and its replacement), ``faceup[i]`` lost cards in order,
    ``coins``, ``alive``, ``deck[k]`` and ``deck_size``, ``gone`` (cards of seats that left),
    ``eliminated`` (seat indexes in the order they went out), ``winner`` (index), ``turns``
    (actions declared), ``steps`` (game events applied). The turn: ``phase``, ``actor``,
    ``action``, ``target``, ``blocker``, ``block_card``, ``claimant``/``claim_card`` (the claim
    under challenge), ``challenger``, ``owe_lose``, ``owe_replace``, ``loser``.
    """

    __slots__ = ("seats", "index", "n", "hidden", "influence", "faceup", "coins", "alive", "deck",
                 "deck_size", "gone", "eliminated", "winner", "over", "stopped", "steps", "turns",
                 "first", "last_actor", "phase", "actor", "action", "target", "blocker", "block_card",
                 "blocked", "action_challenged", "block_challenged", "claimant", "claim_card",
                 "claim_is_block", "challenger", "owe_lose", "owe_replace", "loser", "checks", "_deal")

    def __init__(self, seats: Sequence[str], hands: Sequence[Sequence[int]], first_player: "str | int",
                 coins: int = START_COINS):
        self.seats = tuple(seats)
        self.n = n = len(self.seats)
        self.index = {s: i for i, s in enumerate(self.seats)}
        self._deal = [list(h) for h in hands]
        self.hidden = [[0] * KINDS for _ in range(n)]
        self.deck = [COPIES] * KINDS
        for i, hand in enumerate(hands):
            for card in hand:
                self.hidden[i][card] += 1
                self.deck[card] -= 1
        self.deck_size = DECK_SIZE - sum(len(h) for h in hands)
        self.influence = [len(h) for h in hands]
        self.faceup: list[list[int]] = [[] for _ in range(n)]
        self.coins = [coins] * n
        self.alive = [True] * n
        self.gone = [0] * KINDS
        self.eliminated: list[int] = []
        self.winner: int | None = None
        self.over = False
        self.stopped = False
        self.steps = 0
        self.turns = 0
        self.first = first_player if isinstance(first_player, int) else self.index[first_player]
        self.last_actor = -1
        self.checks: list[tuple[int, int, int]] = []  # deferred host coin counts: (seat, coins, event)
        self._new_turn()
        self.phase = IDLE

    def _new_turn(self) -> None:
        self.phase = IDLE
        self.actor = -1
        self.action: str | None = None
        self.target = -1
        self.blocker = -1
        self.block_card = -1
        self.blocked = False
        self.action_challenged = False
        self.block_challenged = False
        self.claimant = -1
        self.claim_card = -1
        self.claim_is_block = False
        self.challenger = -1
        self.owe_lose = -1
        self.owe_replace = -1
        self.loser = -1

    def copy(self) -> "CoupState":
        """An independent copy (for trying an action without changing this position)."""
        other = CoupState.__new__(CoupState)
        for name in CoupState.__slots__:
            value = getattr(self, name)
            if name in ("hidden", "faceup", "_deal"):
                value = [list(x) for x in value]
            elif isinstance(value, list):
                value = list(value)
            setattr(other, name, value)
        return other

    # -- the State protocol -------------------------------------------------------------------
    @property
    def mover(self) -> int:
        """Index of the seat whose turn is next (the seat to declare the next action)."""
        start = self.first if self.last_actor < 0 else self.last_actor + 1
        if self.last_actor < 0 and self.alive[self.first]:
            return self.first
        for k in range(self.n):
            j = (start + k) % self.n
            if self.alive[j]:
                return j
        return self.first

    @property
    def to_act(self) -> str | None:
        """The seat that must act next when only one can (``None`` once the game is over).

        In a response window any seat may respond; ``to_act`` then names the seat whose move
        ends the window (the target that must lose to an assassination, the exchanging seat,
        or the next seat to move).
        """
        if self.over or self.stopped:
            return None
        phase = self.phase
        if phase == CHALLENGED:
            return self.seats[self.claimant]
        if phase == REVEALED:
            return self.seats[self.owe_lose if self.owe_lose >= 0 else self.owe_replace]
        if phase == NEED_LOSE:
            return self.seats[self.loser]
        if phase == WINDOW and not self.blocked:
            if self.action == "A" and self.alive[self.target]:
                return self.seats[self.target]
            if self.action == "X" and self.alive[self.actor]:
                return self.seats[self.actor]
        return self.seats[self.mover]

    @property
    def phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    def push(self, event: Any, index: int) -> list[Finding]:
        """Apply one logged event (a ``coup/1`` event model or an ``Ev``); chat changes nothing."""
        kind = event.type
        if kind == "chat":
            return []
        # each event type's own fields only (a missing attribute is slow on an open pydantic model)
        if kind == "action":
            return self.apply_event(kind, event.seat, action=event.action, target=event.target, index=index)
        if kind in _CARD_EVENTS:
            return self.apply_event(kind, event.seat, card=event.card, index=index)
        if kind == "exchange":
            return self.apply_event(kind, event.seat, drawn=event.drawn, kept=event.kept, index=index)
        if kind == "coins":
            return self.apply_event(kind, event.seat, coins=event.coins, index=index)
        return self.apply_event(kind, event.seat, index=index)

    # -- setup ----------------------------------------------------------------------------------
    def check_setup(self) -> list[Finding]:
        """``invalid_setup`` (fatal) for a hand without 2 cards or more than three of a character."""
        problems = []
        seen = [0] * KINDS
        for i, hand in enumerate(self._deal):
            if len(hand) != HAND_SIZE:
                problems.append(f"{self.seats[i]} was dealt {len(hand)} cards, not {HAND_SIZE}")
            for card in hand:
                seen[card] += 1
        too_many = [CARD_NAMES[k] for k in range(KINDS) if seen[k] > COPIES]
        if too_many:
            problems.append(f"more than {COPIES} cards dealt of " + ", ".join(too_many))
        if not problems:
            return []
        self.stopped = True
        return [Finding(0, "invalid_setup", None, "; ".join(problems), None, True)]

    # -- the mutator ----------------------------------------------------------------------------
    def apply_event(self, kind: str, seat: str, *, action: str | None = None, target: str | None = None,
                    card: int | None = None, drawn: Sequence[int] | None = None,
                    kept: Sequence[int] | None = None, coins: int | None = None, index: int | None = None
                    ) -> list[Finding]:
        """Apply one event of ``kind`` by ``seat`` (a seat name). Returns its findings."""
        if self.stopped or kind == "chat":
            return []
        s = self.index[seat]
        if kind == "illegal":
            return [Finding(self.steps, "refused_message", seat, f"the host refused a message from {seat}", index)]
        if kind == "coins":
            return self._coins(s, coins, index)
        if self.over:
            if kind == "replace" and s == self.owe_replace:
                return self._replace(s, card, index)
            if kind == "leave" and not self.alive[s]:
                return []
            return self._fatal("event_after_end", s, index,
                               f"{seat} {_VERB[kind]} after the game ended ({self.seats[self.winner]} won)")
        if kind == "action":
            return self._action(s, action, target, index)
        if kind == "leave":
            return self._leave(s)
        if not self.alive[s]:
            return self._fatal("out_of_turn", s, index, f"{seat} {_VERB[kind]}, but {seat} is out of the game")
        if kind == "challenge":
            return self._challenge(s, index)
        if kind == "block":
            return self._block(s, card, index)
        if kind == "reveal":
            return self._reveal(s, card, index)
        if kind == "replace":
            return self._replace(s, card, index)
        if kind == "lose":
            return self._lose(s, card, index)
        if kind == "exchange":
            return self._exchange(s, list(drawn or ()), list(kept or ()), index)
        raise ValueError(f"unknown event type {kind!r}")

    def _fatal(self, kind: str, s: int, index: int | None, message: str) -> list[Finding]:
        self.stopped = True
        self.checks = []
        return [Finding(self.steps, kind, self.seats[s], message + "; rule checking stops here", index, True)]

    def _missing(self) -> str | None:
        """What the rules require before the turn can end, or None."""
        phase, seats = self.phase, self.seats
        if phase == IDLE:
            return None
        if phase == CHALLENGED:
            return f"{seats[self.claimant]} must first reveal {CARD_NAMES[self.claim_card]} or lose an influence"
        if phase == REVEALED:
            if self.owe_lose >= 0:
                return f"{seats[self.owe_lose]} must first lose an influence for the failed challenge"
            return f"{seats[self.owe_replace]} must first draw a replacement for the revealed card"
        if phase == NEED_LOSE:
            return f"{seats[self.loser]} must first lose an influence to the {ACTION_NAMES[self.action]}"
        if not self.blocked:
            if self.action == "A" and self.alive[self.target]:
                return f"{seats[self.target]} must first lose an influence to the assassination"
            if self.action == "X" and self.alive[self.actor]:
                return f"{seats[self.actor]} must first exchange cards with the deck"
        return None

    def _close_turn(self) -> None:
        """The turn is over: the host's coin counts logged during it are checked now."""
        self.phase = IDLE

    def _resolve_window(self) -> None:
        """The open action resolves unopposed (or stays blocked): its coins move now."""
        if not self.blocked:
            action, actor = self.action, self.actor
            if action == "F":
                self.coins[actor] += 2
            elif action == "T":
                self.coins[actor] += 3
            elif action == "S" and self.alive[self.target]:
                taken = min(2, self.coins[self.target])
                self.coins[self.target] -= taken
                self.coins[actor] += taken
        self.phase = IDLE

    def _settled_coins(self) -> list[int]:
        """Every seat's coins once the open action resolves (the position is not changed)."""
        if self.phase != WINDOW or self.blocked or self.action not in ("F", "T", "S"):
            return self.coins
        coins = list(self.coins)
        if self.action == "F":
            coins[self.actor] += 2
        elif self.action == "T":
            coins[self.actor] += 3
        elif self.alive[self.target]:
            taken = min(2, coins[self.target])
            coins[self.target] -= taken
            coins[self.actor] += taken
        return coins

    def settle(self) -> list[Finding]:
        """Resolve an open action that nothing opposes now (as the next action would): its coins move.

        Bots call it before choosing an action, so that they see the coins they will have."""
        if self.stopped or self.over or self.phase != WINDOW or self._missing() is not None:
            return []
        self._resolve_window()
        return self._flush_checks()

    def _flush_checks(self) -> list[Finding]:
        if not self.checks:
            return []
        out = []
        for s, host, index in self.checks:
            if host != self.coins[s]:
                out.append(Finding(self.steps, "coins_mismatch", self.seats[s],
                                   f"the host counts {host} coins for {self.seats[s]}, the rules give "
                                   f"{self.coins[s]}", index))
        self.checks = []
        return out

    def _coins(self, s: int, host: int, index: int | None) -> list[Finding]:
        self.checks.append((s, host, index))
        if self.phase == IDLE or self.over:
            return self._flush_checks()
        return []

    def _out(self, s: int) -> None:
        self.alive[s] = False
        self.eliminated.append(s)
        left = [i for i in range(self.n) if self.alive[i]]
        if len(left) == 1:
            self.over = True
            self.winner = left[0]

    def _lose_card(self, s: int, card: int) -> None:
        self.hidden[s][card] -= 1
        self.influence[s] -= 1
        self.faceup[s].append(card)
        if self.influence[s] == 0:
            self._out(s)

    # -- events ---------------------------------------------------------------------------------
    def _action(self, s: int, action: str, target: str | None, index: int | None) -> list[Finding]:
        seats, name = self.seats, self.seats[s]
        mover = self.mover
        verb = _DECLARES[action]
        if s != mover:
            why = f"{name} is out of the game" if not self.alive[s] else f"{seats[mover]} is to move"
            return self._fatal("out_of_turn", s, index, f"{name} {verb} out of turn ({why})")
        cost = COST.get(action, 0)
        # the open action (if any) resolves first: its coins count for this turn
        coins = self._settled_coins()[s]
        if coins < cost:
            return self._fatal("not_enough_coins", s, index, f"{name} {verb} with {coins} coins; it needs {cost}")
        findings: list[Finding] = []
        if action != "C" and coins >= MUST_COUP:
            findings.append(Finding(self.steps + 1, "must_coup", name,
                                    f"{name} {verb} holding {coins} coins: with {MUST_COUP} or more "
                                    "a seat must coup", index))
        t = -1
        if action in TARGETED:
            t = self.index.get(target, -1) if target is not None else -1
            problem = None
            if target is None:
                problem = "names no target"
            elif t == s:
                problem = "targets itself"
            elif not self.alive[t]:
                problem = f"targets {target}, who is out of the game"
            if problem:
                return _demote(findings) + self._fatal("invalid_target", s, index, f"{name} {verb} but {problem}")
        missing = self._missing()
        if missing:
            return _demote(findings) + self._fatal("missing_step", s, index,
                                                   f"{name} {verb}, but {missing}")
        findings += self._end_previous_turn()
        self.steps += 1
        self.turns += 1
        self._new_turn()
        self.last_actor = self.actor = s
        self.action = action
        self.target = t
        self.coins[s] -= cost
        if action == "I":
            self.coins[s] += 1
            self._close_turn()
            findings += self._flush_checks()
        elif action == "C":
            self.phase = NEED_LOSE
            self.loser = t
        else:
            self.phase = WINDOW
        return findings

    def _end_previous_turn(self) -> list[Finding]:
        if self.phase == WINDOW:
            self._resolve_window()
        self.phase = IDLE
        return self._flush_checks()

    def _latest_claim(self) -> tuple[int, int, bool, bool] | None:
        """(claimant, card, is_block, already challenged) of the turn's latest claim, if any."""
        if self.blocker >= 0:
            return self.blocker, self.block_card, True, self.block_challenged
        if self.action in ACTION_CLAIM:
            return self.actor, ACTION_CLAIM[self.action], False, self.action_challenged
        return None

    def _challenge(self, s: int, index: int | None) -> list[Finding]:
        name = self.seats[s]
        claim = self._latest_claim() if self.actor >= 0 else None
        if claim is None:
            what = (f"{ACTION_NAMES[self.action]} claims no character" if self.action is not None
                    else "no claim has been made")
            return self._fatal("invalid_challenge", s, index, f"{name} challenges, but {what}")
        claimant, card, is_block, challenged = claim
        if claimant == s:
            return self._fatal("invalid_challenge", s, index, f"{name} challenges its own claim of {CARD_NAMES[card]}")
        if challenged:
            return []  # a later challenge of the same claim changes nothing
        if self.phase != WINDOW:
            return self._fatal("invalid_challenge", s, index,
                               f"{name} challenges, but the claim of {CARD_NAMES[card]} is no longer open")
        self.steps += 1
        if is_block:
            self.block_challenged = True
        else:
            self.action_challenged = True
        self.phase = CHALLENGED
        self.claimant, self.claim_card, self.claim_is_block, self.challenger = claimant, card, is_block, s
        return []

    def _block(self, s: int, card: int, index: int | None) -> list[Finding]:
        name, seats = self.seats[s], self.seats
        action = self.action
        problem = None
        if self.actor < 0 or self.phase in (IDLE, NEED_LOSE):
            problem = "there is no action to block"
        elif action not in BLOCKS:
            problem = f"{ACTION_NAMES[action]} cannot be blocked"
        elif self.blocker >= 0:
            problem = f"{seats[self.blocker]} has already blocked it"
        elif s == self.actor:
            problem = "a seat cannot block its own action"
        elif action in ("A", "S") and s != self.target:
            problem = f"only the target, {seats[self.target]}, may block a {ACTION_NAMES[action]}"
        elif card not in BLOCKS[action]:
            allowed = " or ".join(CARD_NAMES[c] for c in BLOCKS[action])
            problem = f"{CARD_NAMES[card]} does not block {ACTION_NAMES[action]} ({allowed} does)"
        if problem:
            return self._fatal("invalid_block", s, index, f"{name} blocks claiming {CARD_NAMES[card]}, but {problem}")
        if self.phase != WINDOW:
            return self._fatal("missing_step", s, index, f"{name} blocks, but {self._missing()}")
        self.steps += 1
        self.blocker, self.block_card, self.blocked = s, card, True
        return []

    def _reveal(self, s: int, card: int, index: int | None) -> list[Finding]:
        name = self.seats[s]
        if not self.hidden[s][card]:
            return self._fatal("card_not_held", s, index,
                               f"{name} reveals {CARD_NAMES[card]}, but holds {_cards_text(self.hidden[s])} face down")
        if self.phase != CHALLENGED or s != self.claimant:
            return self._fatal("missing_step", s, index, f"{name} reveals {CARD_NAMES[card]}, but nobody "
                               f"challenged a claim of {name}'s" + (f" ({self._missing()})" if self._missing() else ""))
        if card != self.claim_card:
            return self._fatal("wrong_card", s, index, f"{name} reveals {CARD_NAMES[card]}, but claimed "
                               f"{CARD_NAMES[self.claim_card]}")
        self.steps += 1
        self.hidden[s][card] -= 1
        self.deck[card] += 1
        self.deck_size += 1
        self.phase = REVEALED
        self.owe_lose, self.owe_replace = self.challenger, s
        return []

    def _replace(self, s: int, card: int, index: int | None) -> list[Finding]:
        name = self.seats[s]
        if not self.deck[card]:
            return self._fatal("card_not_in_deck", s, index, f"{name} draws {CARD_NAMES[card]}, but no "
                               f"{CARD_NAMES[card]} can be in the deck")
        if self.phase != REVEALED or s != self.owe_replace:
            return self._fatal("missing_step", s, index, f"{name} draws a replacement, but revealed no card")
        self.steps += 1
        self.deck[card] -= 1
        self.deck_size -= 1
        self.hidden[s][card] += 1
        self.owe_replace = -1
        if self.owe_lose < 0 and not self.over:
            return self._after_reveal()
        return []

    def _after_reveal(self) -> list[Finding]:
        """A challenged claim proved true: an action stands, a block stops the action."""
        if self.claim_is_block:
            self._close_turn()
            return self._flush_checks()
        self.phase = WINDOW
        return []

    def _lose(self, s: int, card: int, index: int | None) -> list[Finding]:
        name = self.seats[s]
        if not self.hidden[s][card]:
            return self._fatal("card_not_held", s, index,
                               f"{name} loses {CARD_NAMES[card]}, but holds {_cards_text(self.hidden[s])} face down")
        phase = self.phase
        if phase == CHALLENGED and s == self.claimant:
            self.steps += 1
            self._lose_card(s, card)
            return self._claim_failed()
        if phase == REVEALED and s == self.owe_lose:
            self.steps += 1
            self._lose_card(s, card)
            self.owe_lose = -1
            if self.owe_replace < 0 and not self.over:
                return self._after_reveal()
            return self._flush_checks() if self.over else []
        if (phase == NEED_LOSE and s == self.loser) or (
                phase == WINDOW and self.action == "A" and not self.blocked and s == self.target):
            self.steps += 1
            self._lose_card(s, card)
            self._close_turn()
            return self._flush_checks()
        missing = self._missing()
        return self._fatal("missing_step", s, index, f"{name} loses {CARD_NAMES[card]}, but nothing makes "
                           f"{name} lose an influence now" + (f" ({missing})" if missing else ""))

    def _claim_failed(self) -> list[Finding]:
        """The challenged seat lost instead of revealing: its action or block fails."""
        if not self.claim_is_block:
            if self.action == "A":
                self.coins[self.actor] += COST["A"]  # an action that fails a challenge costs nothing
            self._close_turn()
            return self._flush_checks()
        self.blocked = False
        return self._block_failed()

    def _block_failed(self) -> list[Finding]:
        if self.action == "A" and self.alive[self.target] and not self.over:
            self.phase = NEED_LOSE
            self.loser = self.target
            return []
        self._resolve_window()
        self._close_turn()
        return self._flush_checks()

    def _exchange(self, s: int, drawn: list[int], kept: list[int], index: int | None) -> list[Finding]:
        name = self.seats[s]
        pool = list(self.hidden[s])
        for c in drawn:
            pool[c] += 1
        need = [0] * KINDS
        for c in kept:
            need[c] += 1
        if any(need[k] > pool[k] for k in range(KINDS)):
            return self._fatal("card_not_held", s, index, f"{name} keeps {_cards_text(need)}, but holds "
                               f"{_cards_text(self.hidden[s])} and drew {_cards_text(_counts(drawn))}")
        want = _counts(drawn)
        if any(want[k] > self.deck[k] for k in range(KINDS)):
            return self._fatal("card_not_in_deck", s, index,
                               f"{name} draws {_cards_text(want)}, but the deck cannot hold them")
        if len(kept) != self.influence[s]:
            return self._fatal("wrong_card", s, index, f"{name} keeps {len(kept)} cards, but has "
                               f"{self.influence[s]} influence")
        if self.phase != WINDOW or self.action != "X" or s != self.actor or self.blocked:
            missing = self._missing()
            return self._fatal("missing_step", s, index, f"{name} exchanges cards, but has no unopposed exchange "
                               "to carry out" + (f" ({missing})" if missing else ""))
        self.steps += 1
        for k in range(KINDS):
            self.deck[k] += pool[k] - need[k] - want[k]
        self.hidden[s] = need
        self._close_turn()
        return self._flush_checks()

    def _leave(self, s: int) -> list[Finding]:
        if not self.alive[s]:
            return []
        self.steps += 1
        for k in range(KINDS):
            self.gone[k] += self.hidden[s][k]
        self.hidden[s] = [0] * KINDS
        self.influence[s] = 0
        self._out(s)
        phase = self.phase
        if phase == IDLE or self.over:
            if self.over:
                self.phase = IDLE
                return self._flush_checks()
            return []
        if s == self.actor:
            self._close_turn()
            return self._flush_checks()
        if phase == CHALLENGED and s == self.claimant:
            return self._claim_failed()  # a block that is never shown fails
        if phase == REVEALED:
            if s == self.owe_lose:
                self.owe_lose = -1
            if s == self.owe_replace:
                self.owe_replace = -1
            if self.owe_lose < 0 and self.owe_replace < 0:
                return self._after_reveal()
        if phase == NEED_LOSE and s == self.loser:
            self._close_turn()
            return self._flush_checks()
        return []

    def finish(self) -> list[Finding]:
        """The log has ended: an open action that nothing opposes resolves (its coins move), and the
        host's coin counts still waiting are checked against the position."""
        if self.stopped:
            return []
        if self.over and self.phase == REVEALED and not self.claim_is_block:
            self.phase = WINDOW  # the game ended on a failed challenge: the action stood
        if self.phase == WINDOW and self._missing() is None:
            self._resolve_window()
        return self._flush_checks()

    # -- queries (codecs, bots) -----------------------------------------------------------------
    def actions_for(self, s: int) -> list[tuple]:
        """The actions seat ``s`` may declare now, in the canonical order (I F C T A S X, targets in
        table order); with 10 or more coins, only coups."""
        name = self.seats[s]
        targets = [self.seats[j] for j in range(self.n) if j != s and self.alive[j]]
        coins = self.coins[s]
        out: list[tuple] = []
        for letter in ACTIONS:
            if coins >= MUST_COUP and letter != "C":
                continue
            if coins < COST.get(letter, 0):
                continue
            if letter in TARGETED:
                out.extend(("action", name, letter, t) for t in targets)
            else:
                out.append(("action", name, letter, None))
        return out

    def legal(self) -> list[tuple]:
        """Every legal next game event, in the canonical order codecs index into.

        Entries: ``("action", seat, letter, target)``, ``("challenge", seat)``, ``("block", seat,
        card)``, ``("reveal", seat, card)``, ``("lose", seat, card)``, ``("replace", seat)`` and
        ``("exchange", seat)``. The cards a ``replace`` or an ``exchange`` draws are chance
        outcomes (``draw_choices``); the cards an exchange keeps are the seat's decision
        (``keep_choices``). Order: challenges (seats in table order from the seat after the
        claimant), then blocks (seat, then card in ``BLOCKS`` order), then what ends the window
        (the target's losses, the exchange, or the next seat's actions after the action resolves).
        Loses list each distinct face-down card once, by card value.
        """
        if self.over or self.stopped:
            return []
        phase = self.phase
        if phase == IDLE:
            return self.actions_for(self.mover)
        if phase == CHALLENGED:
            c = self.claimant
            out: list[tuple] = []
            if self.hidden[c][self.claim_card]:
                out.append(("reveal", self.seats[c], self.claim_card))
            return out + self._loses(c)
        if phase == REVEALED:
            out = self._loses(self.owe_lose) if self.owe_lose >= 0 else []
            if self.owe_replace >= 0:
                out.append(("replace", self.seats[self.owe_replace]))
            return out
        if phase == NEED_LOSE:
            return self._loses(self.loser)
        # WINDOW
        out = []
        claim = self._latest_claim()
        if claim is not None and not claim[3]:
            claimant = claim[0]
            for k in range(1, self.n):
                j = (claimant + k) % self.n
                if self.alive[j]:
                    out.append(("challenge", self.seats[j]))
        if self.blocker < 0 and self.action in BLOCKS:
            if self.action == "F":
                blockers = [(self.actor + k) % self.n for k in range(1, self.n)]
            else:
                blockers = [self.target]
            for j in blockers:
                if self.alive[j] and j != self.actor:
                    out.extend(("block", self.seats[j], c) for c in BLOCKS[self.action])
        if not self.blocked and self.action == "A" and self.alive[self.target]:
            return out + self._loses(self.target)
        if not self.blocked and self.action == "X" and self.alive[self.actor]:
            return out + [("exchange", self.seats[self.actor])]
        after = self.copy()
        after._resolve_window()
        return out + after.actions_for(after.mover)

    def _loses(self, s: int) -> list[tuple]:
        hidden = self.hidden[s]
        return [("lose", self.seats[s], k) for k in range(KINDS) if hidden[k]]

    def draw_choices(self) -> list[int]:
        """The distinct characters a draw from the deck can give now, sorted: the chance outcomes."""
        deck = self.deck
        return [k for k in range(KINDS) if deck[k]]

    def keep_choices(self, drawn: Sequence[int]) -> list[tuple[int, ...]]:
        """The sets of cards the exchanging seat may keep after drawing ``drawn``, sorted."""
        s = self.actor
        pool = [k for k in range(KINDS) for _ in range(self.hidden[s][k])] + list(drawn)
        pool.sort()
        size = self.influence[s]
        out: set[tuple[int, ...]] = set()

        def pick(start: int, chosen: tuple[int, ...]) -> None:
            if len(chosen) == size:
                out.add(chosen)
                return
            for i in range(start, len(pool)):
                pick(i + 1, chosen + (pool[i],))

        pick(0, ())
        return sorted(out)

    def event_for(self, entry: tuple, card: int | None = None, drawn: Sequence[int] | None = None,
                  kept: Sequence[int] | None = None) -> Ev:
        """The event for a ``legal()`` entry (``card`` for a replace, ``drawn`` and ``kept`` for an exchange)."""
        kind, seat = entry[0], entry[1]
        if kind == "action":
            return Ev("action", seat, action=entry[2], target=entry[3])
        if kind == "challenge":
            return Ev("challenge", seat)
        if kind in ("block", "reveal", "lose"):
            return Ev(kind, seat, card=entry[2])
        if kind == "replace":
            return Ev("replace", seat, card=card)
        return Ev("exchange", seat, drawn=tuple(drawn or ()), kept=tuple(kept or ()))

    def claim_is_true(self, s: int, card: int) -> bool:
        """Whether seat ``s`` holds ``card`` face down now (a claim of it would be true)."""
        return self.hidden[s][card] > 0

    def card_total(self) -> list[int]:
        """Each character's count over hands, face-up cards, the deck and cards out of play (3 each)."""
        total = list(self.deck)
        for k in range(KINDS):
            total[k] += self.gone[k] + sum(h[k] for h in self.hidden) + sum(f.count(k) for f in self.faceup)
        return total


def _counts(cards: Sequence[int]) -> list[int]:
    out = [0] * KINDS
    for c in cards:
        out[c] += 1
    return out


def _demote(findings: list[Finding]) -> list[Finding]:
    """A must_coup finding of an event that also breaks a fatal rule: the event made no step."""
    return [Finding(f.step - 1, f.kind, f.seat, f.message, f.event, f.fatal) for f in findings]


_DECLARES = {a: f"declares {ACTION_NAMES[a]}" for a in ACTIONS}
_VERB = {"action": "declares an action", "challenge": "challenges", "block": "blocks", "reveal": "reveals a card",
         "replace": "draws a replacement", "lose": "loses an influence", "exchange": "exchanges cards",
         "leave": "leaves"}

__all__ = ["CoupState", "Ev", "FINDING_KINDS", "GAME_EVENTS", "ASSASSIN"]
