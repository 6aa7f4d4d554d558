"""Self-play bots for UNO Lite: a random bot and a sensible greedy bot.

They play through the same ``UnoLogger`` a chat bot uses, so self-play logs are exactly what a
real bot would save.

>>> log = play_game(seed=1)
>>> log.players["P1"].bot, log.players["P2"].bot
('greedy-1', 'random-1')
>>> log.replay().findings
[]
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone
from typing import Callable, Sequence

from .cards import COLOUR_OF, HAND_SIZE, KINDS, NUMBER_OF, full_deck
from .engine import SEATS, UnoState
from .log import UnoLog
from .logger import UnoLogger

#: a self-play game that reaches this many turns is ended as a timeout (none has, so far)
MAX_TURNS = 2000


class Bot:
    """A player: one decision, given the position and the legal actions."""

    name = "bot"
    version = "1"

    def __init__(self, rng: random.Random):
        self.rng = rng

    def choose(self, state: UnoState, legal: list[tuple]) -> tuple:
        raise NotImplementedError

    def observe(self, state: UnoState, seat: int, kind: str, card: "int | None") -> None:
        """Told of every action before it is applied (``card`` is None for another seat's draw)."""


class RandomBot(Bot):
    """Uniformly among the legal actions (so it plays a playable drawn card half the time)."""

    name = "random"

    def choose(self, state: UnoState, legal: list[tuple]) -> tuple:
        return legal[0] if len(legal) == 1 else self.rng.choice(legal)


class GreedyBot(Bot):
    """Plays what the opponent cannot follow, else the colour it holds most of.

    It watches only what a player at the table sees: when the opponent draws, the opponent
    held nothing of the top card's colour or number, so those are remembered as *missing*
    (a colour is forgotten again once the opponent plays it). Among playable cards it prefers
    (1) a colour the opponent is missing, (2) a number the opponent is missing, (3) the colour
    it holds most of, so the next turns find a match, (4) a card whose number it holds in no
    other colour (a number shared with another colour is kept: it lets the bot change colour
    later), (5) the higher number. A drawn card that is playable is always played.
    """

    name = "greedy"

    def __init__(self, rng: random.Random):
        super().__init__(rng)
        self.seat: int | None = None
        self.missing_colours: set[int] = set()
        self.missing_numbers: set[int] = set()

    def observe(self, state: UnoState, seat: int, kind: str, card: "int | None") -> None:
        if seat == self.seat:
            return
        if kind == "draw":
            self.missing_colours.add(COLOUR_OF[state.top])
            self.missing_numbers.add(NUMBER_OF[state.top])
        elif kind == "play" and card is not None:
            self.missing_colours.discard(COLOUR_OF[card])
            self.missing_numbers.discard(NUMBER_OF[card])

    def choose(self, state: UnoState, legal: list[tuple]) -> tuple:
        self.seat = state.seat
        if legal[0][0] != "play":
            return legal[0]
        if len(legal) == 1 or legal[-1] == ("pass",):
            return legal[0]  # a single choice, or the playable drawn card
        hand = state.hands[state.seat]
        colour_count = [0, 0, 0, 0]
        number_colours = [0] * 10
        for k in range(KINDS):
            if hand[k]:
                colour_count[COLOUR_OF[k]] += hand[k]
                number_colours[NUMBER_OF[k]] += 1
        missing_colours, missing_numbers = self.missing_colours, self.missing_numbers
        best = None
        best_key = None
        for action in legal:
            card = action[1]
            colour, number = COLOUR_OF[card], NUMBER_OF[card]
            key = (colour in missing_colours, number in missing_numbers, colour_count[colour],
                   number_colours[number] == 1, number)
            if best_key is None or key > best_key:
                best, best_key = action, key
        return best


BOTS: dict[str, Callable[[random.Random], Bot]] = {"random": RandomBot, "greedy": GreedyBot}


def play_game(
    seed: int,
    bots: Sequence[str] = ("greedy", "random"),
    game_id: str | None = None,
    out_dir: str | None = None,
    interrupt_rate: float = 0.0,
    chat: bool = False,
    announce_winner: bool = True,
    rng: random.Random | None = None,
    deal_rng: random.Random | None = None,
    meta: dict | None = None,
) -> UnoLog:
    """Play one seeded game, ``bots[0]`` as P1 and ``bots[1]`` as P2, and return its log.

    The deck is shuffled with ``random.Random(seed)``: 7 cards each, then the starter; the rest
    is the draw pile, in order (a reshuffle shuffles the discard pile under the top card with the
    same generator). ``interrupt_rate`` is the chance that the game is cut short (cancelled or
    timed out) at a random point. Times are simulated think times, so a seed always gives the
    same log.

    A championship table (``deals.play_table``) passes its own generators: ``deal_rng`` shuffles
    the deck (and every reshuffle) and draws the first player, ``rng`` makes everything else (the
    bots' choices, names, times); ``meta`` replaces the ``selfplay`` meta. Left out, both are
    ``random.Random(seed)``, one generator, as always.
    """
    if len(bots) != 2:
        raise ValueError(f"UNO Lite has two seats: give two bot names, not {len(bots)}")
    for name in bots:
        if name not in BOTS:
            raise ValueError(f"{name!r} is not a bot (one of {', '.join(BOTS)})")
    if rng is None:
        rng = random.Random(seed)
    if deal_rng is None:
        deal_rng = rng
    players_bots = [BOTS[name](rng) for name in bots]
    deck = full_deck()
    deal_rng.shuffle(deck)
    hands = [deck[:HAND_SIZE], deck[HAND_SIZE:2 * HAND_SIZE]]
    starter = deck[2 * HAND_SIZE]
    pile = deck[2 * HAND_SIZE + 1:]
    pile.reverse()  # draw from the end: pile.pop() takes the next card of the shuffled deck
    first = deal_rng.randrange(2)
    names = ["Ana", "Ben", "Chi", "Dev", "Eli", "Fay", "Gus", "Hui", "Ivo", "Jun"]
    players = {
        SEATS[i]: {"name": f"{bots[i]}-{names[rng.randrange(len(names))]}",
                   "bot": f"{bots[i]}-{players_bots[i].version}"}
        for i in (0, 1)
    }
    started = datetime(2026, 1, 1, tzinfo=timezone.utc) + timedelta(seconds=rng.randrange(300 * 86400))
    logger = UnoLogger(
        game_id=game_id or f"selfplay-uno-{bots[0]}-{bots[1]}-{seed}", players=players,
        out_dir=out_dir, started_at=started, clock=None,
        meta={"selfplay": {"bots": list(bots), "seed": seed}} if meta is None else meta,
    )
    logger.deal(hands, starter=starter, first_player=SEATS[first])
    state = UnoState(hands, starter, first)
    discard = [starter]
    t = 0
    stop_after = None
    if interrupt_rate and rng.random() < interrupt_rate:
        stop_after = rng.randrange(1, 80)
    actions = 0
    index = 0
    while not state.over:
        if stop_after is not None and actions >= stop_after:
            t += rng.randrange(1000, 60000)
            return logger.end(rng.choice(["cancelled", "timeout"]), t=t).log
        if state.turns >= MAX_TURNS:
            return logger.end("timeout", t=t + 60000).log
        seat = state.seat
        legal = state.legal()
        action = players_bots[seat].choose(state, legal)
        t += rng.randrange(400, 9000)
        kind = action[0]
        if kind == "play":
            for i in (0, 1):
                players_bots[i].observe(state, seat, kind, action[1])
        if kind == "play":
            card = action[1]
            logger.play(SEATS[seat], card, t=t)
            discard.append(card)
        elif kind == "draw":
            if not pile:
                top = discard.pop()
                pile = discard
                deal_rng.shuffle(pile)
                discard = [top]
            card = pile.pop()
            players_bots[seat].observe(state, seat, kind, card)
            players_bots[1 - seat].observe(state, seat, kind, None)
            logger.draw(SEATS[seat], card, t=t)
        else:
            card = None
            for i in (0, 1):
                players_bots[i].observe(state, seat, kind, None)
            logger.pass_(SEATS[seat], t=t)
        state.apply(kind, seat, card, index)
        index += 1
        actions += 1
        if chat and rng.random() < 0.03:
            logger.chat(rng.choice(["uno!", "gg", "oops", "nice", "hmm"]), seat=SEATS[rng.randrange(2)], t=t + 200)
            index += 1
    winner = SEATS[state.winner] if announce_winner else None
    return logger.end("completed", winner=winner, t=t + 500).log
