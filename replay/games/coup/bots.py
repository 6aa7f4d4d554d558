"""Self-play bots for Coup: an honest bot, a bluffer and a random bot.

They play through the same ``CoupLogger`` a host uses, so self-play logs are exactly what a real
host would save. Seats are ``"1"`` to ``"N"``; bots are seated round-robin from the list given.

>>> log = play_game(seed=1, bots=("honest", "bluffer", "random"), players=4)
>>> [log.players[s].bot for s in log.seat_order]
['honest-1', 'bluffer-1', 'random-1', 'honest-1']
>>> log.replay().findings
[]
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone
from typing import Callable, Sequence

from .cards import (ACTION_CLAIM, AMBASSADOR, ASSASSIN, BLOCKS, CAPTAIN, CARD_TEXT, CONTESSA, COPIES, DUKE,
                    KINDS, full_deck)
from .engine import CoupState, Ev
from .log import MAX_SEATS, MIN_SEATS, CoupLog
from .logger import CoupLogger

#: a self-play game that reaches this many turns ends as a timeout (random bots can stall)
MAX_TURNS = 400
#: the order in which the bots give up cards (first lost first) and keep them (last kept first)
LOSE_ORDER = (AMBASSADOR, CONTESSA, CAPTAIN, ASSASSIN, DUKE)


class Bot:
    """A player: its decisions, given the position (bots read only their own face-down cards)."""

    name = "bot"
    version = "1"

    def __init__(self, rng: random.Random):
        self.rng = rng

    # helpers that use only what the seat can see
    @staticmethod
    def seen(state: CoupState, s: int, card: int) -> int:
        """How many of ``card`` seat ``s`` can see: its own face-down ones and every face-up one."""
        return state.hidden[s][card] + sum(f.count(card) for f in state.faceup)

    @staticmethod
    def strongest(state: CoupState, s: int, targets: list[str]) -> str:
        """The target with the most influence, then the most coins, then the earliest seat."""
        return max(targets, key=lambda t: (state.influence[state.index[t]], state.coins[state.index[t]],
                                           -state.index[t]))

    def choose_action(self, state: CoupState, s: int, legal: list[tuple]) -> tuple:
        raise NotImplementedError

    def challenge(self, state: CoupState, s: int, claimant: int, card: int) -> bool:
        return self.seen(state, s, card) >= COPIES  # a claim it knows to be false

    def block(self, state: CoupState, s: int, action: str) -> int | None:
        for card in BLOCKS[action]:
            if state.hidden[s][card]:
                return card
        return None

    def reveal(self, state: CoupState, s: int, card: int) -> bool:
        return state.hidden[s][card] > 0

    def lose(self, state: CoupState, s: int) -> int:
        for card in LOSE_ORDER:
            if state.hidden[s][card]:
                return card
        raise AssertionError("a seat with no face-down card cannot lose one")

    def keep(self, state: CoupState, s: int, pool: list[int], n: int) -> list[int]:
        return sorted(pool, key=LOSE_ORDER.index, reverse=True)[:n]


class RandomBot(Bot):
    """Uniformly among the legal actions; challenges one claim in ten, blocks one time in three."""

    name = "random"

    def choose_action(self, state, s, legal):
        return self.rng.choice(legal)

    def challenge(self, state, s, claimant, card):
        return self.rng.random() < 0.1

    def block(self, state, s, action):
        return self.rng.choice(BLOCKS[action]) if self.rng.random() < 0.33 else None

    def lose(self, state, s):
        return self.rng.choice([k for k in range(KINDS) if state.hidden[s][k]])

    def keep(self, state, s, pool, n):
        return self.rng.sample(pool, n)


class HonestBot(Bot):
    """Never claims a character it does not hold. Coups at 7 coins, assassinates with an Assassin,
    taxes with a Duke, steals with a Captain, exchanges with an Ambassador, else takes foreign aid
    or income. Challenges only claims it can see are false (all three cards in view), or an
    assassination that would put it out and that it cannot block."""

    name = "honest"

    def choose_action(self, state, s, legal):
        hidden, coins = state.hidden[s], state.coins[s]
        by = {}
        for entry in legal:
            by.setdefault(entry[2], []).append(entry)
        if "C" in by and coins >= 7:
            return ("action", state.seats[s], "C", self.strongest(state, s, [e[3] for e in by["C"]]))
        if "A" in by and hidden[ASSASSIN]:
            return ("action", state.seats[s], "A", self.strongest(state, s, [e[3] for e in by["A"]]))
        if hidden[DUKE]:
            return by["T"][0]
        if hidden[CAPTAIN] and "S" in by and self.rng.random() < 0.5:  # a steal may be blocked again and again
            rich = [e for e in by["S"] if state.coins[state.index[e[3]]] >= 2]
            if rich:
                return max(rich, key=lambda e: state.coins[state.index[e[3]]])
        if hidden[AMBASSADOR] and self.rng.random() < 0.5:
            return by["X"][0]
        return by["F"][0] if self.rng.random() < 0.5 else by["I"][0]

    def challenge(self, state, s, claimant, card):
        if super().challenge(state, s, claimant, card):
            return True
        return (card == ASSASSIN and state.target == s and state.influence[s] == 1
                and not state.hidden[s][CONTESSA])


class BlufferBot(Bot):
    """Claims what suits it whatever it holds: taxes as a Duke, steals as a Captain, assassinates
    when it can pay, blocks with a bluffed Contessa when an assassination would put it out, and
    challenges one claim in four."""

    name = "bluffer"

    def choose_action(self, state, s, legal):
        coins = state.coins[s]
        by = {}
        for entry in legal:
            by.setdefault(entry[2], []).append(entry)
        if "C" in by and coins >= 7:
            return ("action", state.seats[s], "C", self.strongest(state, s, [e[3] for e in by["C"]]))
        roll = self.rng.random()
        if "A" in by and roll < 0.4:
            return ("action", state.seats[s], "A", self.strongest(state, s, [e[3] for e in by["A"]]))
        if roll < 0.75:
            return by["T"][0]
        rich = [e for e in by.get("S", ()) if state.coins[state.index[e[3]]] >= 2]
        if rich and roll < 0.9:
            return max(rich, key=lambda e: state.coins[state.index[e[3]]])
        return self.rng.choice(legal)

    def challenge(self, state, s, claimant, card):
        return super().challenge(state, s, claimant, card) or self.rng.random() < 0.25

    def block(self, state, s, action):
        held = super().block(state, s, action)
        if held is not None:
            return held
        if action == "A" and state.influence[s] == 1:
            return CONTESSA
        return self.rng.choice(BLOCKS[action]) if self.rng.random() < 0.3 else None


BOTS: dict[str, Callable[[random.Random], Bot]] = {"honest": HonestBot, "bluffer": BlufferBot, "random": RandomBot}


class _Table:
    """One self-play game: the real deck, the logger and the engine's position, kept in step."""

    def __init__(self, rng, bots, logger, state, deck, chat, deck_rng=None):
        self.rng, self.bots, self.logger, self.state, self.deck, self.chat = rng, bots, logger, state, deck, chat
        self.deck_rng = rng if deck_rng is None else deck_rng  # shuffles the deck
        self.t = 0
        self.index = 0

    def emit(self, ev: Ev) -> None:
        self.t += self.rng.randrange(300, 6000)
        log, t = self.logger, self.t
        kind = ev.type
        if kind == "action":
            log.action(ev.seat, ev.action, target=ev.target, t=t)
        elif kind == "challenge":
            log.challenge(ev.seat, t=t)
        elif kind == "exchange":
            log.exchange(ev.seat, [CARD_TEXT[c] for c in ev.drawn], [CARD_TEXT[c] for c in ev.kept], t=t)
        else:
            getattr(log, kind)(ev.seat, CARD_TEXT[ev.card], t=t)
        self.state.push(ev, self.index)
        self.index += 1
        if self.chat and self.rng.random() < 0.02:
            seat = self.state.seats[self.rng.randrange(self.state.n)]
            log.chat(self.rng.choice(["gg", "sure you have a Duke", "hmm", "bluff!", "nice"]), seat=seat, t=t + 100)
            self.index += 1

    def lose(self, s: int) -> None:
        self.emit(Ev("lose", self.state.seats[s], card=self.bots[s].lose(self.state, s)))

    def challenge_round(self, claimant: int, card: int) -> bool | None:
        """Other seats may challenge a claim; True if it stood, False if it failed, None if unchallenged."""
        state = self.state
        for k in range(1, state.n):
            c = (claimant + k) % state.n
            if state.alive[c] and self.bots[c].challenge(state, c, claimant, card):
                break
        else:
            return None
        seats = state.seats
        self.emit(Ev("challenge", seats[c]))
        if not self.bots[claimant].reveal(state, claimant, card):
            self.lose(claimant)
            return False
        self.emit(Ev("reveal", seats[claimant], card=card))
        self.deck.append(card)
        self.deck_rng.shuffle(self.deck)
        if self.rng.random() < 0.5:
            self.emit(Ev("replace", seats[claimant], card=self.deck.pop()))
            self.lose(c)
        else:
            self.lose(c)
            if not state.over:  # when the challenger's loss ends the game, the draw is left out
                self.emit(Ev("replace", seats[claimant], card=self.deck.pop()))
        return True

    def turn(self) -> None:
        state, seats, bots = self.state, self.state.seats, self.bots
        state.settle()
        a = state.mover
        entry = bots[a].choose_action(state, a, state.actions_for(a))
        letter, target = entry[2], entry[3]
        self.emit(Ev("action", seats[a], action=letter, target=target))
        t = state.index[target] if target is not None else -1
        if letter == "I":
            return
        if letter == "C":
            self.lose(t)
            return
        claim = ACTION_CLAIM.get(letter)
        if claim is not None:
            stood = self.challenge_round(a, claim)
            if stood is False or state.over:
                return
        if letter in BLOCKS:
            blockers = [t] if letter in "AS" else [(a + k) % state.n for k in range(1, state.n)]
            for b in blockers:
                if not state.alive[b]:
                    continue
                card = bots[b].block(state, b, letter)
                if card is None:
                    continue
                self.emit(Ev("block", seats[b], card=card))
                stood = self.challenge_round(b, card)
                if stood is False and letter == "A" and state.alive[t] and not state.over:
                    self.lose(t)
                return
        if letter == "A" and state.alive[t]:
            self.lose(t)
        elif letter == "X":
            drawn = [self.deck.pop(), self.deck.pop()]
            pool = [k for k in range(KINDS) for _ in range(state.hidden[a][k])] + drawn
            kept = sorted(bots[a].keep(state, a, list(pool), state.influence[a]))
            for card in kept:
                pool.remove(card)
            self.deck.extend(pool)
            self.deck_rng.shuffle(self.deck)
            self.emit(Ev("exchange", seats[a], drawn=tuple(drawn), kept=tuple(kept)))


def play_game(seed: int, bots: Sequence[str] = ("honest", "bluffer"), players: int | None = None,
              game_id: str | None = None, out_dir: str | None = None, interrupt_rate: float = 0.0,
              chat: bool = False, announce_winner: bool = True, rng: random.Random | None = None,
              deal_rng: random.Random | None = None, meta: dict | None = None) -> CoupLog:
    """Play one seeded game of ``players`` seats (default: one per bot named) and return its log.

    Seat ``"i"`` plays ``bots[(i - 1) % len(bots)]``. The deck is shuffled with
    ``random.Random(seed)`` and dealt two cards a seat; the first player is drawn at random.
    ``interrupt_rate`` is the chance that the game is cut short (cancelled or timed out) at the
    start of a random turn. Times are simulated think times, so a seed always gives the same log.

    A championship table (``deals.play_table``) passes its own generators: ``deal_rng`` shuffles
    the deck (the deal and every shuffle back into the deck) and draws the first player, ``rng``
    makes everything else (the bots' choices, times); ``meta`` replaces the ``selfplay`` meta.
    Left out, both are ``random.Random(seed)``, one generator, as always.
    """
    n = len(bots) if players is None else players
    if not MIN_SEATS <= n <= MAX_SEATS:
        raise ValueError(f"Coup has {MIN_SEATS} to {MAX_SEATS} seats, not {n}")
    if not bots:
        raise ValueError("name at least one bot")
    for name in bots:
        if name not in BOTS:
            raise ValueError(f"{name!r} is not a Coup bot (one of {', '.join(BOTS)})")
    if rng is None:
        rng = random.Random(seed)
    if deal_rng is None:
        deal_rng = rng
    names = [bots[i % len(bots)] for i in range(n)]
    table_bots = [BOTS[name](rng) for name in names]
    seats = tuple(str(i + 1) for i in range(n))
    deck = full_deck()
    deal_rng.shuffle(deck)
    hands = [[deck.pop(), deck.pop()] for _ in range(n)]
    first = deal_rng.randrange(n)
    players_info = {seats[i]: {"name": f"{names[i]}-{seats[i]}", "bot": f"{names[i]}-{table_bots[i].version}"}
                    for i in range(n)}
    started = datetime(2026, 1, 1, tzinfo=timezone.utc) + timedelta(seconds=rng.randrange(300 * 86400))
    logger = CoupLogger(game_id=game_id or f"selfplay-coup-{n}p-{'-'.join(bots)}-{seed}", players=players_info,
                        out_dir=out_dir, started_at=started, clock=None,
                        meta={"selfplay": {"bots": list(bots), "players": n, "seed": seed}} if meta is None else meta)
    logger.deal({seats[i]: [CARD_TEXT[c] for c in hands[i]] for i in range(n)}, first_player=seats[first])
    state = CoupState(seats, hands, first)
    table = _Table(rng, table_bots, logger, state, deck, chat, deal_rng)
    stop_after = rng.randrange(1, 40) if interrupt_rate and rng.random() < interrupt_rate else None
    while not state.over:
        if stop_after is not None and state.turns >= stop_after:
            return logger.end(rng.choice(["cancelled", "timeout"]), t=table.t + rng.randrange(1000, 60000)).log
        if state.turns >= MAX_TURNS:
            return logger.end("timeout", t=table.t + 60000).log
        table.turn()
    winner = seats[state.winner] if announce_winner else None
    return logger.end("completed", winner=winner, t=table.t + 500).log
