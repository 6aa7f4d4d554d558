"""Self-play bots: a random-legal bot and a sensible greedy bot.

They play through the same logger a chat bot uses (``BridgeLogger``, what ``GameLogger`` hands out), so self-play logs are exactly what a
real bot would save.

>>> log = play_game(seed=1, bot="greedy")
>>> log.replay().findings
[]
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone
from typing import Callable

from .cards import CARDS, PASS, PASS_VALUE, SEATS, SUIT_MASKS, Call, Card, Seat, cards_of, hand_points
from .engine import AUCTION, OVER, PARTNER, PLAY, Game
from .log import GameLog
from .logger import BridgeLogger
from .rules import Rules, trick_winner_index


class Bot:
    """A player: one choice per kind of decision."""

    name = "bot"
    version = "1"

    def __init__(self, rng: random.Random):
        self.rng = rng

    def call(self, game: Game, seat: Seat) -> Call:
        raise NotImplementedError

    def partner_card(self, game: Game, seat: Seat) -> Card:
        raise NotImplementedError

    def card(self, game: Game, seat: Seat) -> Card:
        raise NotImplementedError


class RandomBot(Bot):
    """Every choice uniformly among the legal ones (passing half the time once someone bid)."""

    name = "random"

    def call(self, game: Game, seat: Seat) -> Call:
        legal = game.legal_calls()
        if game.highest_bid is not None and self.rng.random() < 0.5:
            return legal[0]  # pass
        return self.rng.choice(legal)

    def partner_card(self, game: Game, seat: Seat) -> Card:
        return self.rng.choice(game.legal_partner_cards())

    def card(self, game: Game, seat: Seat) -> Card:
        return self.rng.choice(game.legal_cards())


class GreedyBot(Bot):
    """Bids from hand points, calls the highest trump it lacks, wins cheaply, discards low."""

    name = "greedy"

    def call(self, game: Game, seat: Seat) -> Call:
        hand = game.hands[seat]
        cards = cards_of(hand)
        points = hand_points(cards)
        lengths = [bin(hand & SUIT_MASKS[s]).count("1") for s in range(4)]
        best_suit = max(range(4), key=lambda s: (lengths[s], s))
        balanced = min(lengths) >= 2 and max(lengths) <= 5
        strain = 4 if balanced and points >= 15 else best_suit
        # how high this hand is willing to go
        level = 0
        if points >= 11:
            level = 1 + max(0, (points - 12) // 3) + max(0, lengths[best_suit] - 5)
        if game.highest_bid is None and points >= 10 and self.rng.random() < 0.5:
            level = max(level, 1)
        level = min(level, 7)
        if level == 0:
            return PASS
        start = 0 if game.highest_bid is None else game.highest_bid + 1
        for value in range(start, 35):
            if value % 5 == strain:
                if value // 5 + 1 <= level:
                    return Call(value)
                break
        return PASS

    def partner_card(self, game: Game, seat: Seat) -> Card:
        legal = game.legal_partner_cards()
        legal_set = set(legal)
        trump = game.trump
        own = game.hands[seat]
        if trump is None:
            # NT: the highest missing card of the longest suit
            suits = sorted(range(4), key=lambda s: -bin(own & SUIT_MASKS[s]).count("1"))
        else:
            suits = [trump] + [s for s in (3, 2, 1, 0) if s != trump]
        for suit in suits:
            for rank_index in range(12, -1, -1):
                card = CARDS[suit * 13 + rank_index]
                if card in legal_set and not own >> card & 1:
                    return card
        return legal[-1]

    def card(self, game: Game, seat: Seat) -> Card:
        legal = game.legal_cards()
        trump = game.trump
        if not game.trick:
            return self._lead(game, seat, legal)
        plays = [c for _, c in game.trick]
        current = trick_winner_index(plays, trump)
        current_seat = game.trick[current][0]
        if self._teammate(game, seat, current_seat):
            return self._discard(legal, trump)
        winners = [c for c in legal if trick_winner_index(plays + [c], trump) == len(plays)]
        if winners:
            # the cheapest winner: lowest non-trump, else lowest trump
            return min(winners, key=lambda c: (c // 13 == trump, c % 13))
        return self._discard(legal, trump)

    @staticmethod
    def _teammate(game: Game, seat: int, other: int) -> bool:
        declarer, partner = game.declarer, game.partner_seat
        if seat == declarer:
            return game.partner_revealed and other == partner
        if seat == partner:
            return other == declarer
        # a defender knows its teammates once the partner is revealed
        return game.partner_revealed and other not in (declarer, partner)

    @staticmethod
    def _discard(legal: list[Card], trump: int | None) -> Card:
        return min(legal, key=lambda c: (c // 13 == trump, c % 13))

    def _lead(self, game: Game, seat: int, legal: list[Card]) -> Card:
        trump = game.trump
        unplayed = ~game.played
        best = None
        for card in legal:
            suit = card // 13
            higher = unplayed & SUIT_MASKS[suit] & ~((1 << (card + 1)) - 1)
            if not higher and suit != trump:
                return card  # a sure winner outside trumps
            if suit == trump and not higher:
                best = best or card
        if best is not None:
            return best
        return min(legal, key=lambda c: (c // 13 == trump, c % 13))


class CautiousBot(GreedyBot):
    """Greedy's play and partner call, but a cautious bidder: it never bids past the two level
    (where greedy would go higher, it passes). A bot close to greedy in strength, for the
    championships and the duplicate bench to tell apart (``bench/duplicate.py``)."""

    name = "cautious"

    def call(self, game: Game, seat: Seat) -> Call:
        call = super().call(game, seat)
        if call != PASS and call // 5 + 1 > 2:
            return PASS
        return call


BOTS: dict[str, Callable[[random.Random], Bot]] = {"random": RandomBot, "greedy": GreedyBot, "cautious": CautiousBot}


BOT_NAMES = ("Ana", "Ben", "Chi", "Dev", "Eli", "Fay", "Gus", "Hui", "Ivo", "Jun")


def _seat_names(rng: random.Random) -> list[str]:
    """Four different names for the bots at a table: one draw per seat (a name already taken moves
    on to the next free one), so a seed gives the same game as it always did."""
    taken: list[str] = []
    for _ in SEATS:
        i = rng.randrange(len(BOT_NAMES))
        while BOT_NAMES[i] in taken:
            i = (i + 1) % len(BOT_NAMES)
        taken.append(BOT_NAMES[i])
    return taken


def play_game(
    seed: int,
    bot: str = "greedy",
    rules: "Rules | str" = "bridgebot",
    game_id: str | None = None,
    out_dir: str | None = None,
    interrupt_rate: float = 0.0,
    announce_tricks: bool = True,
    chat: bool = False,
) -> GameLog:
    """Play one seeded game with four bots of one kind and return its log.

    Each seat names its bot in ``players.<seat>.bot`` (``greedy-1``: the bot's name and version,
    as the log format asks), under a name of its own (``greedy-Ana``).

    ``interrupt_rate`` is the chance that the game is cut short (cancelled or timed out) at a
    random point, as happens in chat groups. Times are simulated think times, so a seed always
    gives the same log.
    """
    rng = random.Random(seed)
    rules = Rules.from_spec(rules)
    game = Game.new_random(rules=rules, rng=rng)  # one generator deals and plays: as it always did
    return _play(game, [bot] * 4, rng, rules, game_id or f"selfplay-{bot}-{rules.preset}-{seed}",
                 {"selfplay": {"bot": bot, "seed": seed}}, out_dir, interrupt_rate, announce_tricks, chat)


def deal_rng(deal: int) -> random.Random:
    """The generator a championship deal's cards and first bidder come from: seeded by the deal
    number alone, so every table of the deal is dealt the same."""
    return random.Random(f"floating-bridge-deal-{deal}")


def table_rng(deal: int, table: int) -> random.Random:
    """The generator of the bots' choices (and names, times, chat) at one table of a deal."""
    return random.Random(f"floating-bridge-table-{deal}-{table}")


def play_table(
    deal: int,
    bots: "tuple[str, ...] | list[str]",
    table: int = 0,
    rules: "Rules | str" = "bridgebot",
    game_id: str | None = None,
    out_dir: str | None = None,
    interrupt_rate: float = 0.0,
    announce_tricks: bool = True,
    chat: bool = False,
) -> GameLog:
    """One table of championship deal ``deal``: ``bots[i]`` in seat i (N, E, S, W). The cards
    and the first bidder come from ``deal_rng(deal)`` alone (the same at every table of the
    deal, whoever sits there); the bots' choices from ``table_rng(deal, table)``.

    >>> one, two = play_table(3, ("greedy", "random", "greedy", "random"), 0), play_table(3, ("random", "greedy", "random", "greedy"), 1)
    >>> one.hands == two.hands and one.first_bidder == two.first_bidder, one.game_id
    (True, 'championship-floating-bridge-bridgebot-d3-t0')
    >>> [one.players[s].bot for s in SEATS], one.meta["championship"]
    (['greedy-1', 'random-1', 'greedy-1', 'random-1'], {'deal': 3, 'table': 0})
    """
    bots = list(bots)
    if len(bots) != 4:
        raise ValueError(f"floating bridge seats four bots (N, E, S, W), not {len(bots)}")
    for name in bots:
        if name not in BOTS:
            raise ValueError(f"{name!r} is not a floating bridge bot (one of {', '.join(BOTS)})")
    rules = Rules.from_spec(rules)
    game = Game.new_random(rules=rules, rng=deal_rng(deal))
    return _play(game, bots, table_rng(deal, table), rules,
                 game_id or f"championship-floating-bridge-{rules.preset}-d{deal}-t{table}",
                 {"championship": {"deal": deal, "table": table}}, out_dir, interrupt_rate, announce_tricks, chat)


def _play(game: Game, names: list[str], rng: random.Random, rules: Rules, game_id: str, meta: dict,
          out_dir: str | None, interrupt_rate: float, announce_tricks: bool, chat: bool) -> GameLog:
    """Play a dealt ``game`` to its end with ``names[i]``'s bot in seat i, every choice, name,
    time and interruption drawn from ``rng``."""
    bots = [BOTS[name](rng) for name in names]
    players = {seat.name: {"name": f"{names[seat]}-{name}", "bot": f"{names[seat]}-{bots[seat].version}"}
               for seat, name in zip(SEATS, _seat_names(rng))}
    started = datetime(2026, 1, 1, tzinfo=timezone.utc) + timedelta(seconds=rng.randrange(300 * 86400))
    logger = BridgeLogger(
        game_id=game_id, rules=rules, players=players, out_dir=out_dir, started_at=started, clock=None,
        meta=meta,
    )
    logger.deal(game.deal, first_bidder=game.first_bidder)
    t = 0
    stop_after = None
    if interrupt_rate and rng.random() < interrupt_rate:
        stop_after = rng.randrange(1, 60)
    actions = 0
    while game.phase != OVER:
        if stop_after is not None and actions >= stop_after:
            reason = rng.choice(["cancelled", "timeout"])
            t += rng.randrange(1000, 60000)
            return logger.end(reason, t=t).log
        seat = game.to_act
        player = bots[seat]
        t += rng.randrange(400, 9000)
        if game.phase == AUCTION:
            call = player.call(game, seat)
            logger.bid(seat, call, t=t)
            game.push_call(seat, call)
        elif game.phase == PARTNER:
            card = player.partner_card(game, seat)
            logger.partner(seat, card, t=t)
            game.push_partner(seat, card)
        else:
            card = player.card(game, seat)
            logger.play(seat, card, t=t)
            game.push_play(seat, card)
            if announce_tricks and not game.trick:
                logger.trick(game.trick_winners[-1], t=t + 50)
                if chat and rng.random() < 0.1:
                    logger.chat(rng.choice(["nice", "gg", "oops", "well played", "hmm"]),
                                seat=rng.choice(SEATS), t=t + 200)
        actions += 1
    reason = "passed_out" if game.passed_out else "completed"
    return logger.end(reason, t=t + 500).log
