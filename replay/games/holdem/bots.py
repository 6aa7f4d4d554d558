"""Self-play bots for Texas hold'em: one that calls anything, a tight-aggressive one and a random one.

They play through the same ``HoldemLogger`` a host uses, so self-play logs are exactly what a
real host would save: the dealer's hole cards seat by seat (``d dh``), each seat's action, the
board (``d db``) and, at a showdown, the cards shown (``sm``), in PHH notation. Seats are
``p1``..``pN`` (``p1`` the small blind, ``pN`` the button); the bots named sit round-robin,
rotated by the seed so that every bot plays every position over a run of seeds.

>>> log = play_game(seed=1, bots=("tag", "call", "random"), players=6)
>>> [log.players[s].bot for s in log.seats]
['call-1', 'random-1', 'tag-1', 'call-1', 'random-1', 'tag-1']
>>> log.replay().findings, log.end.reason
([], 'completed')
>>> play_game(seed=1).to_json_dict() == log.to_json_dict()
True

A bot decides with ``decide(state, seat, legal)`` from what its seat can see (its own hole
cards, the board, the bets and stacks) and answers ``("f",)``, ``("cc",)`` or ``("cbr", to)``.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone
from typing import Callable, Sequence

from .cards import DECK, cards_text, rank_of, suit_of
from .engine import HoldemState
from .evaluator import rank as hand_rank
from .logger import HoldemLogger

#: how many random opponent hands the tight-aggressive bot's postflop hand strength samples
STRENGTH_SAMPLES = 40
#: the seats a self-play table may have
MIN_SEATS, MAX_SEATS = 2, 10
#: a self-play hand that reaches this many actions ends as a timeout (never reached by these bots)
MAX_ACTIONS = 1000
#: what self-play chat says now and then
CHAT_LINES = ("gl", "nh", "nice hand", "wow", "ship it", "fold pre next time", "gg", "lol")


Decision = tuple


def _max_bet(state: HoldemState) -> object:
    return max(state.bets)


def _opponents(state: HoldemState, seat: str) -> int:
    """Seats other than ``seat`` still in the hand."""
    return state.folded.count(False) - (not state.folded[state.index[seat]])


def chen_score(hole: Sequence[int]) -> int:
    """Bill Chen's preflop score of two hole cards (higher is better: aces 20, 7-2 offsuit -1).

    >>> from .cards import parse_cards
    >>> [chen_score(parse_cards(h)) for h in ("AsAh", "AhKh", "AhKd", "Td9d", "7h2c", "2c2d")]
    [20, 12, 10, 8, -1, 5]
    """
    a, b = sorted((rank_of(hole[0]), rank_of(hole[1])), reverse=True)
    points = {12: 10.0, 11: 8.0, 10: 7.0, 9: 6.0}
    score = points.get(a, (a + 2) / 2)
    if a == b:
        score = max(score * 2, 5.0)
    else:
        if suit_of(hole[0]) == suit_of(hole[1]):
            score += 2
        gap = a - b - 1
        score -= (0, 1, 2, 4)[gap] if gap < 4 else 5
        if gap <= 1 and a < 10:  # both below a queen and close enough to make straights
            score += 1
    return int(-(-score // 1))  # rounded up


def hand_strength(hole: Sequence[int], board: Sequence[int], rng: random.Random,
                  samples: int = STRENGTH_SAMPLES) -> float:
    """The share of random opponent holdings (sampled from the cards this seat cannot see) that
    ``hole`` beats on ``board`` as it stands (ties count half): the made hand's strength."""
    seen = set(hole) | set(board)
    rest = [c for c in DECK if c not in seen]
    mine = hand_rank(list(hole) + list(board))
    won = 0.0
    for _ in range(samples):
        theirs = hand_rank(rng.sample(rest, 2) + list(board))
        won += 1.0 if mine > theirs else 0.5 if mine == theirs else 0.0
    return won / samples


def _clamp(to, legal):
    """A total bet within the legal range (an amount close to all-in becomes all-in)."""
    to = min(max(to, legal.min_to), legal.max_to)
    if legal.max_to - to < (legal.max_to - legal.min_to) / 5 and to * 4 > legal.max_to * 3:
        return legal.max_to
    return to


class Bot:
    """A player: ``decide(state, seat, legal)`` from what the seat can see."""

    name = "bot"
    version = "1"

    def __init__(self, rng: random.Random):
        self.rng = rng

    def decide(self, state: HoldemState, seat: str, legal) -> Decision:
        raise NotImplementedError


class CallBot(Bot):
    """Checks or calls whatever is bet; never folds, never bets or raises."""

    name = "call"

    def decide(self, state, seat, legal):
        return ("cc",)


class RandomBot(Bot):
    """Uniformly among fold (only when checking is not free), check or call, and bet or raise
    (when legal) to a random legal size: the minimum, half the pot, the pot, all-in or anything
    between the minimum and all-in, each as likely."""

    name = "random"

    def decide(self, state, seat, legal):
        options = ["cc"]
        if legal.fold and legal.call:
            options.append("f")
        if legal.min_to is not None:
            options.append("cbr")
        choice = self.rng.choice(options)
        if choice != "cbr":
            return (choice,)
        low, high = legal.min_to, legal.max_to
        if low == high:
            return ("cbr", low)
        pot = state.pot_total()
        top = _max_bet(state)
        sizes = [low, top + pot // 2, top + pot, high]
        if isinstance(low, int) and isinstance(high, int):
            sizes.append(self.rng.randint(low, high))
        return ("cbr", min(max(self.rng.choice(sizes), low), high))


class TagBot(Bot):
    """Tight-aggressive by hand strength.

    Preflop it plays hands by their Chen score (tighter in early position): opens to 2.5 big
    blinds (plus one a limper), re-raises to three times the bet with the best hands (jacks or
    better, ace-king suited) and moves all-in over a re-raise with them, calls a raise with good
    hands when the call is at most a tenth of its stack, and folds the rest. After the flop it
    measures its made hand's strength with the evaluator against random holdings, discounted
    for each opponent: it bets two thirds of the pot with a strong hand, raises with a very
    strong one, calls when its chance beats the pot odds, and otherwise checks or folds.
    """

    name = "tag"

    def big_blind(self, state):
        return max(state.blinds[:2]) if any(state.blinds[:2]) else state.min_bet

    def decide(self, state, seat, legal):
        if state.street == "preflop":
            return self.preflop(state, seat, legal)
        return self.postflop(state, seat, legal)

    def _give_up(self, legal):
        return ("cc",) if not legal.call else ("f",)

    def preflop(self, state, seat, legal):
        i, n = state.index[seat], state.n
        score = chen_score(state.hole[i])
        bb = self.big_blind(state)
        top = _max_bet(state)
        late = n - i <= 2  # the button and the seat before it
        can_raise = legal.min_to is not None
        if top <= bb:  # nobody raised yet
            need = 6 if late else 7 if i < 2 or n - i <= 3 else 8
            if score >= need and can_raise:
                limpers = sum(1 for k, b in enumerate(state.bets) if b == bb and k != 1)
                return ("cbr", _clamp(bb * 5 // 2 + bb * limpers, legal))
            return self._give_up(legal)
        if score >= 12 and can_raise:
            if top >= bb * 6:  # a re-raise already: all in
                return ("cbr", legal.max_to)
            return ("cbr", _clamp(top * 3, legal))
        if score >= 9 and legal.call * 10 <= state.stacks[i]:
            return ("cc",)
        if score >= 12:
            return ("cc",)
        return self._give_up(legal)

    def postflop(self, state, seat, legal):
        strength = hand_strength(state.hole[state.index[seat]], state.board, self.rng)
        chance = strength ** max(1, _opponents(state, seat))
        pot = state.pot_total()
        top = _max_bet(state)
        can_raise = legal.min_to is not None
        if not legal.call:  # checked to: bet or check
            if chance >= 0.55 and can_raise:
                return ("cbr", _clamp(top + pot * 2 // 3, legal))
            return ("cc",)
        if chance >= 0.8 and can_raise:
            return ("cbr", _clamp(top + (pot + legal.call) * 2 // 3, legal))
        if chance >= float(legal.call) / float(pot + legal.call) + 0.05:  # beats the pot odds
            return ("cc",)
        return ("f",)


BOTS: dict[str, Callable[[random.Random], Bot]] = {"call": CallBot, "tag": TagBot, "random": RandomBot}


def seat_bots(seed: int, bots: Sequence[str], players: int) -> list[str]:
    """The bot of each seat: round-robin from the list, rotated by the seed.

    >>> seat_bots(1, ("tag", "call", "random"), 4)
    ['call', 'random', 'tag', 'call']
    """
    return [bots[(i + seed) % len(bots)] for i in range(players)]


def play_game(seed: int, bots: Sequence[str] = ("tag", "call", "random"), players: int = 6,
              stacks: int = 10000, blinds: tuple[int, int] = (50, 100), game_id: str | None = None,
              out_dir: str | None = None, chat: bool = False, interrupt_rate: float = 0.0, variant: str = "NT"):
    """Play one seeded hand (no-limit, or fixed-limit with ``variant="FT"``: bets of one big
    blind on the first two streets and two on the last two) and return its ``HoldemLog``.

    The deck is shuffled with ``random.Random(seed)``; hole cards are dealt seat by seat, the
    board street by street, and the bots act in turn until the hand is over. Every seat starts
    with ``stacks``; ``blinds`` are the small and big blind (``p1`` and ``p2``). Times are
    simulated think times, so a seed always gives the same log. ``interrupt_rate`` is the chance
    that the hand is cut short (cancelled or timed out) before a random action.
    """
    _check(players, bots, variant)
    rng = random.Random(seed)  # one generator shuffles the deck and plays: as it always did
    return _play(seat_bots(seed, bots, players), rng, rng, random.Random(f"chat-{seed}"), stacks, blinds,
                 game_id or f"selfplay-holdem-{variant}-{players}p-{'-'.join(bots)}-{seed}",
                 {"selfplay": {"bots": list(bots), "players": players, "seed": seed}},
                 out_dir, chat, interrupt_rate, variant)


def _check(players: int, bots: Sequence[str], variant: str) -> None:
    if not MIN_SEATS <= players <= MAX_SEATS:
        raise ValueError(f"Texas hold'em has {MIN_SEATS} to {MAX_SEATS} seats, not {players}")
    if not bots:
        raise ValueError("name at least one bot")
    if variant not in ("NT", "FT"):
        raise ValueError(f"variant {variant!r} is not one the bots play (NT or FT)")
    for name in bots:
        if name not in BOTS:
            raise ValueError(f"{name!r} is not a Texas hold'em bot (one of {', '.join(BOTS)})")


def deal_rng(deal: int) -> random.Random:
    """The generator that shuffles a championship deal's deck: seeded by the deal number alone,
    so every table of the deal gets the same hole cards and the same board."""
    return random.Random(f"holdem-deal-{deal}")


def table_rng(deal: int, table: int) -> random.Random:
    """The generator of the bots' choices (and times, interruptions) at one table of a deal."""
    return random.Random(f"holdem-table-{deal}-{table}")


def table_seats(bots: Sequence[str], players: int | None = None) -> int:
    """The seats of a championship table: ``players`` if given, else one per bot (at least two,
    at most ten: more bots than that take turns, ``replay.duplicate.rotation``).

    >>> table_seats(("tag", "call", "random")), table_seats(("tag",)), table_seats(("tag", "call"), players=6)
    (3, 2, 6)
    >>> table_seats(["tag"] * 12)
    10
    """
    return players if players is not None else min(MAX_SEATS, max(MIN_SEATS, len(bots)))


def play_table(deal: int, bots: Sequence[str], table: int = 0, players: int | None = None, stacks: int = 10000,
               blinds: tuple[int, int] = (50, 100), game_id: str | None = None, out_dir: str | None = None,
               chat: bool = False, interrupt_rate: float = 0.0, variant: str = "NT"):
    """One table of championship deal ``deal``: ``bots[i]`` in seat ``p{i+1}`` (one bot a seat;
    a single bot named for a table of ``players`` seats sits in all of them). The deck is shuffled
    by ``deal_rng(deal)`` alone, so every table of the deal is dealt the same hole cards seat by
    seat and the same board; the bots' choices come from ``table_rng(deal, table)``, chat from a
    generator of its own.

    >>> one = play_table(4, ("tag", "call", "random"))
    >>> two = play_table(4, ("random", "tag", "call"), table=1)
    >>> [e.action for e in one.events[:3]] == [e.action for e in two.events[:3]], one.game_id
    (True, 'championship-holdem-NT-3p-d4-t0')
    >>> [one.players[s].bot for s in one.seats], one.meta["championship"]
    (['tag-1', 'call-1', 'random-1'], {'deal': 4, 'table': 0})
    """
    seats = table_seats(bots, players)
    names = list(bots) * seats if len(bots) == 1 else list(bots)
    if len(names) != seats:
        raise ValueError(f"a table of {seats} seats needs {seats} bots, one a seat, not {len(bots)}")
    _check(seats, names, variant)
    return _play(names, table_rng(deal, table), deal_rng(deal), random.Random(f"holdem-chat-{deal}-{table}"),
                 stacks, blinds, game_id or f"championship-holdem-{variant}-{seats}p-d{deal}-t{table}",
                 {"championship": {"deal": deal, "table": table}}, out_dir, chat, interrupt_rate, variant)


def _play(names: Sequence[str], rng: random.Random, shuffler: random.Random, talk: random.Random, stacks: int,
          blinds: tuple[int, int], game_id: str, meta: dict, out_dir: str | None, chat: bool,
          interrupt_rate: float, variant: str):
    """Play one hand with ``names[i]``'s bot in seat i: the deck shuffled by ``shuffler``, every
    choice, time and interruption drawn from ``rng``, chat from ``talk``."""
    players = len(names)
    table = [BOTS[name](rng) for name in names]
    seats = tuple(f"p{i + 1}" for i in range(players))
    small, big = blinds
    forced = [small, big] + [0] * (players - 2)
    starting = [stacks] * players
    deck = list(DECK)
    shuffler.shuffle(deck)
    info = {seats[i]: {"name": f"{names[i]}-{seats[i]}", "bot": f"{names[i]}-{table[i].version}"}
            for i in range(players)}
    sizes = {"min_bet": big} if variant == "NT" else {"small_bet": big, "big_bet": 2 * big}
    started = datetime(2026, 1, 1, tzinfo=timezone.utc) + timedelta(seconds=rng.randrange(300 * 86400))
    logger = HoldemLogger(
        game_id=game_id, players=info, variant=variant, blinds=forced, stacks=starting, **sizes, out_dir=out_dir,
        started_at=started, clock=None, meta=meta)
    state, _ = HoldemState.from_setup(variant, [0] * players, forced, starting, **sizes)
    stop_after = rng.randrange(1, 20) if interrupt_rate and rng.random() < interrupt_rate else None
    t = index = actions = 0
    # chat has its own generator: it changes nothing in the play
    aggressor = None  # the last seat to bet or raise on this street: it shows first at the showdown

    def did(text: str) -> None:
        nonlocal index
        state.push_action(text, index)
        index += 1
        if chat and talk.random() < 0.03:
            logger.chat(talk.choice(CHAT_LINES), seat=seats[talk.randrange(players)], t=t + 100)
            index += 1

    while not state.over:
        t += rng.randrange(300, 6000)
        if state.to_act is None:
            kind, what = state.dealer_due
            if kind == "dh":
                cards = [deck.pop(), deck.pop()]
                logger.deal_hole(what, cards, t=t)
                did(f"d dh {what} {cards_text(cards)}")
            else:
                cards = [deck.pop() for _ in range(what)]
                logger.deal_board(cards, t=t)
                did(f"d db {cards_text(cards)}")
                aggressor = None
            continue
        actions += 1
        if (stop_after is not None and actions >= stop_after) or actions > MAX_ACTIONS:
            reason = "timeout" if actions > MAX_ACTIONS else rng.choice(["cancelled", "timeout"])
            return logger.end(reason, t=t).log
        seat = state.to_act
        decision = table[state.index[seat]].decide(state, seat, state.legal())
        if decision[0] == "f":
            logger.fold(seat, t=t)
            did(f"{seat} f")
        elif decision[0] == "cc":
            logger.check_call(seat, t=t)
            did(f"{seat} cc")
        else:
            logger.bet(seat, decision[1], t=t)
            did(f"{seat} cbr {decision[1]}")
            aggressor = state.index[seat]
    if state.folded.count(False) > 1:  # the showdown: every seat left shows, the last aggressor first
        first = aggressor if aggressor is not None else 0
        for k in range(players):
            i = (first + k) % players
            if not state.folded[i]:
                t += rng.randrange(300, 2000)
                logger.show(seats[i], state.hole[i], t=t)
                did(f"{seats[i]} sm {cards_text(state.hole[i])}")
    return logger.end("completed", t=t + 500).log

__all__ = ["BOTS", "Bot", "CallBot", "RandomBot", "TagBot", "chen_score", "deal_rng", "hand_strength", "play_game",
           "play_table", "seat_bots", "table_rng", "table_seats"]
