"""Self-play for party cards: a random bot and a greedy one, playing the bundled card pool.

They play through the same ``PartyLogger`` a chat bot uses, so self-play logs are exactly what
a real bot would save.

>>> log = play_game(seed=1)
>>> len(log.players), log.players["p1"].bot, log.score_limit
(4, 'random-1', 2)
>>> log.replay().findings
[]
>>> play_game(seed=1, rounds=1, score_limit=2).replay().end_reason
'cancelled'
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone
from typing import Callable, Sequence

from .cards import card_pool
from .engine import PartyState
from .log import MAX_SEATS, MIN_SEATS, PartyLog
from .logger import PartyLogger

#: a self-play game that reaches this many rounds is ended as a timeout
MAX_ROUNDS = 500
NAMES = ["Ana", "Bo", "Chi", "Dev", "Eli", "Fay", "Gus", "Hui", "Ivo", "Jun", "Kim", "Lea", "Max", "Noor"]
CHAT = ["lol", "😂", "who wrote that", "czar has no taste", "gg", "brb", "this one's mine", "why", "🐐"]


class Bot:
    """A player: its swap, its answers and its pick, given the position."""

    name = "bot"
    version = "1"

    def __init__(self, rng: random.Random):
        self.rng = rng

    def swap(self, state: PartyState, seat: int) -> list[str]:
        """The ids to throw away before round 1 (empty: no swap)."""
        return []

    def answer(self, state: PartyState, seat: int, pick: int) -> list[str]:
        raise NotImplementedError

    def pick(self, state: PartyState, seat: int, order: Sequence[int]) -> int:
        raise NotImplementedError


class RandomBot(Bot):
    """Uniformly among the legal choices; swaps now and then."""

    name = "random"

    def swap(self, state: PartyState, seat: int) -> list[str]:
        if self.rng.random() < 0.25:
            hand = list(state.hands[seat])
            return self.rng.sample(hand, self.rng.randint(1, min(3, len(hand))))
        return []

    def answer(self, state: PartyState, seat: int, pick: int) -> list[str]:
        return self.rng.sample(list(state.hands[seat]), pick)

    def pick(self, state: PartyState, seat: int, order: Sequence[int]) -> int:
        return self.rng.randint(1, len(order))


class GreedyBot(Bot):
    """Greedy for laughs, believing longer is funnier: plays its wordiest cards, throws away its
    shortest in the swap and, as czar, picks the wordiest answer."""

    name = "greedy"

    def _words(self, state: PartyState, card_id: str) -> int:
        return len(state.texts.get(card_id, "").split())

    def swap(self, state: PartyState, seat: int) -> list[str]:
        short = [c for c in state.hands[seat] if self._words(state, c) <= 2]
        return short[:3]

    def answer(self, state: PartyState, seat: int, pick: int) -> list[str]:
        hand = sorted(state.hands[seat], key=lambda c: -self._words(state, c))
        return hand[:pick]

    def pick(self, state: PartyState, seat: int, order: Sequence[int]) -> int:
        words = [sum(self._words(state, c) for c in state.submissions.get(s, ())) for s in order]
        return words.index(max(words)) + 1


BOTS: dict[str, Callable[[random.Random], Bot]] = {"random": RandomBot, "greedy": GreedyBot}


class _Deck:
    """The pool's cards in a shuffled order; when it runs out, the pool again under new ids."""

    def __init__(self, rng: random.Random, items: Sequence, prefix: str):
        self.rng, self.items, self.prefix = rng, list(items), prefix
        self.cards: list = []
        self.count = 0

    def take(self, n: int) -> list:
        out = []
        for _ in range(n):
            if not self.cards:
                self.cards = list(self.items)
                self.rng.shuffle(self.cards)
            self.count += 1
            item = self.cards.pop()
            out.append((f"{self.prefix}{self.count}", *item) if isinstance(item, tuple)
                       else (f"{self.prefix}{self.count}", item))
        return out


def play_game(
    seed: int,
    bots: Sequence[str] = ("random",),
    game_id: str | None = None,
    out_dir: str | None = None,
    interrupt_rate: float = 0.0,
    rounds: int | None = None,
    score_limit: int | None = None,
    hand_size: int = 10,
    chat: bool = False,
    rng: random.Random | None = None,
    deal_rng: random.Random | None = None,
    meta: dict | None = None,
    full_table: bool = False,
) -> PartyLog:
    """Play one seeded game and return its log.

    ``bots``: one name (every seat plays it; the seed picks 3-8 seats) or one name per seat
    (3-10). ``rounds`` stops the game after that many rounds (ended ``cancelled`` if nobody
    has reached the score limit by then); ``score_limit`` defaults to 2-5 from the seed.
    ``interrupt_rate`` is the chance that the game is cut short (cancelled or timed out) at a
    random point. Times are simulated, so a seed always gives the same log.

    A championship table (``deals.play_table``) passes its own generators: ``deal_rng`` orders
    the answer and question decks and draws the first czar, ``rng`` makes everything else (the
    bots' choices, the lobby, the reveal order, names, times); ``meta`` replaces the
    ``selfplay`` meta, and ``full_table`` keeps every bot at the table (all join, none
    leaves). Left out, both generators are ``random.Random(seed)``, one generator, as always.
    """
    for name in bots:
        if name not in BOTS:
            raise ValueError(f"{name!r} is not a bot (one of {', '.join(BOTS)})")
    if not bots or len(bots) == 2 or len(bots) > MAX_SEATS:
        raise ValueError(f"give one bot name (for every seat) or one per seat ({MIN_SEATS}-{MAX_SEATS}), "
                         f"not {len(bots)}")
    if rng is None:
        rng = random.Random(seed)
    if deal_rng is None:
        deal_rng = rng
    names = list(bots) if len(bots) > 1 else [bots[0]] * rng.randint(3, 8)
    seat_count = len(names)
    players_bots = [BOTS[name](rng) for name in names]
    seats = tuple(f"p{i + 1}" for i in range(seat_count))
    people = rng.sample(NAMES, seat_count)
    players = {seat: {"name": people[i], "bot": f"{names[i]}-{players_bots[i].version}"} for i, seat in enumerate(seats)}
    limit = score_limit if score_limit is not None else rng.randint(2, 5)
    pool = card_pool()
    answers = _Deck(deal_rng, pool.answers, "a")
    questions = _Deck(deal_rng, pool.questions, "q")
    started = datetime(2026, 1, 1, tzinfo=timezone.utc) + timedelta(seconds=rng.randrange(300 * 86400))
    logger = PartyLogger(
        game_id=game_id or f"selfplay-party-{'-'.join(sorted(set(names)))}-{seed}", players=players,
        score_limit=limit, hand_size=hand_size, out_dir=out_dir, started_at=started, clock=None,
        meta={"selfplay": {"bots": list(bots), "seed": seed}} if meta is None else meta,
    )
    hands = {seat: answers.take(hand_size) for seat in seats}
    logger.deal(hands)
    state = PartyState(seats, [hands[s] for s in seats], hand_size, limit)
    clock = [0]
    stop_after = rng.randrange(1, 120) if interrupt_rate and rng.random() < interrupt_rate else None
    index = [0]

    def tick(low: int = 300, high: int = 6000) -> int:
        clock[0] += rng.randrange(low, high)
        return clock[0]

    def log_and_apply(method: str, *args, state_args: tuple | None = None) -> bool:
        """Log one event and apply it; False when the game is interrupted here instead."""
        if stop_after is not None and index[0] >= stop_after:
            return False
        t = tick()
        getattr(logger, method)(*args, t=t)
        findings = getattr(state, method)(*(args if state_args is None else state_args), index[0], t)
        assert not findings, findings  # the bots play by the rules
        index[0] += 1
        if chat and rng.random() < 0.04:
            logger.chat(rng.choice(CHAT), seat=rng.choice(seats), t=clock[0] + 100)
            index[0] += 1
        return True

    def interrupted():
        return logger.end(rng.choice(["cancelled", "timeout"]), t=tick(1000, 60000)).log

    # the lobby: most join, some decline, a few never answer
    for i in (range(seat_count) if full_table else rng.sample(range(seat_count), seat_count)):
        roll = 0.0 if full_table else rng.random()
        if roll < 0.9:
            if not log_and_apply("join", seats[i]):
                return interrupted()
        elif roll < 0.96:
            if not log_and_apply("decline", seats[i]):
                return interrupted()
    if len(state.in_game()) < MIN_SEATS:
        return logger.end("not_enough_players", t=tick(10000, 60000)).log
    # the optional swap
    for i in state.in_game():
        discard = players_bots[i].swap(state, i)
        if discard and not log_and_apply("swap", seats[i], discard, answers.take(len(discard))):
            return interrupted()
    czar = deal_rng.choice(state.in_game())
    while True:
        if rounds is not None and state.rounds >= rounds:
            return logger.end("cancelled", t=tick(1000, 60000)).log
        if state.rounds >= MAX_ROUNDS:
            return logger.end("timeout", t=tick(1000, 60000)).log
        [(qid, qtext, pick)] = questions.take(1)
        while pick > hand_size:  # a hand too small for this question: the bot deals another
            [(qid, qtext, pick)] = questions.take(1)
        if not log_and_apply("round", seats[czar], (qid, qtext, pick),
                             state_args=(seats[czar], qid, qtext, pick)):
            return interrupted()
        answering = [i for i in state.in_game() if i != czar]
        for i in rng.sample(answering, len(answering)):
            if not log_and_apply("answer", seats[i], players_bots[i].answer(state, i, pick)):
                return interrupted()
        order = list(state.submissions)
        rng.shuffle(order)
        if not log_and_apply("reveal", [seats[i] for i in order]):
            return interrupted()
        if not log_and_apply("pick", seats[czar], players_bots[czar].pick(state, czar, order)):
            return interrupted()
        if state.winner is not None:
            return logger.end("completed", winner=seats[state.winner], t=tick()).log
        for i in state.in_game():
            short = hand_size - len(state.hands[i])
            if short > 0 and not log_and_apply("draw", seats[i], answers.take(short)):
                return interrupted()
        for i in state.in_game():
            if not full_table and rng.random() < 0.004 and not log_and_apply("leave", seats[i]):
                return interrupted()
        if len(state.in_game()) < MIN_SEATS:
            return logger.end("not_enough_players", t=tick()).log
        czar = state.next_czar()


__all__ = ["BOTS", "Bot", "RandomBot", "GreedyBot", "play_game"]
