"""Games for the codec tests: seeded corpora, passed-out and adversarial games, comparisons."""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Iterable

from replay.games.floating_bridge.bots import play_game
from replay.games.floating_bridge.cards import PASS, SEATS, SUIT_MASKS, Call, cards_of
from replay.games.floating_bridge.engine import AUCTION, OVER, PARTNER, PLAY, Game
from replay.games.floating_bridge.log import GameLog
from replay.logger import GameLogger
from replay.games.floating_bridge.rules import PRESETS, Rules

OVERRIDE_RULES = (
    Rules.from_spec({"preset": "bridgebot", "self_partner": True}),
    Rules.from_spec({"preset": "bridgebot", "trump_in_first_trick": False, "wash_threshold": 2}),
    Rules.from_spec({"preset": "all-tricks", "play_all_tricks": False, "self_partner": True}),
    Rules.from_spec({"preset": "bridgebot", "play_all_tricks": True}),
)


def actions(log: GameLog) -> list[tuple]:
    """The calls, partner card and plays of a log as plain tuples."""
    out = []
    for e in log.events:
        if e.type == "bid":
            out.append(("bid", int(e.seat), int(e.bid)))
        elif e.type in ("partner", "play"):
            out.append((e.type, int(e.seat), int(e.card)))
    return out


def events(log: GameLog) -> list[tuple]:
    """Every event but chat, as plain tuples (times left out)."""
    out = []
    for e in log.events:
        if e.type == "bid":
            out.append(("bid", int(e.seat), int(e.bid)))
        elif e.type in ("partner", "play"):
            out.append((e.type, int(e.seat), int(e.card)))
        elif e.type == "trick":
            out.append(("trick", int(e.winner)))
    return out


def deal(log: GameLog) -> list[list[int]]:
    return [sorted(int(c) for c in h) for h in log.hands.by_seat()]


def assert_same_game(original: GameLog, decoded: GameLog, judge: bool = True) -> None:
    """Same deal, first bidder, calls, partner card, plays, rules and end (and, with ``judge``,
    the same judgement by the engine: contract, partner, trick winners, result)."""
    assert deal(decoded) == deal(original)
    assert decoded.first_bidder == original.first_bidder
    assert actions(decoded) == actions(original)
    assert decoded.rules == original.rules
    assert decoded.rules.to_spec() == original.rules.to_spec()
    end = lambda log: None if log.end is None else log.end.reason  # noqa: E731
    assert end(decoded) == end(original)
    if not judge:
        return
    a, b = original.replay(), decoded.replay()
    assert b.end_reason == a.end_reason
    assert (b.contract, b.declarer, b.partner_card, b.partner_seat) == (a.contract, a.declarer, a.partner_card, a.partner_seat)
    assert b.trick_winners == a.trick_winners
    assert b.result == a.result


def findings_of(log: GameLog) -> list[tuple]:
    return [(f.step, f.kind, f.seat, f.message) for f in log.replay().findings]


def passed_out_log(seed: int, rules: "str | Rules" = "bridgebot", end: str | None = "passed_out") -> GameLog:
    """Four passes, logged through GameLogger as a bot would."""
    game = Game.new_random(seed=seed, rules=Rules.from_spec(rules))
    logger = GameLogger(rules=rules, clock=None, players={"N": "Ann", "E": "Bo"})
    logger.deal(game.deal, first_bidder=game.first_bidder)
    seat = game.first_bidder
    for _ in range(4):
        logger.bid(seat, "pass")
        seat = seat.next
    if end is None:
        return logger.to_log()
    return logger.end(end).log


def corpus(n: int, start: int = 0) -> Iterable[GameLog]:
    """A mixed, seeded corpus: both presets, both bots, rule overrides, cancelled/timed-out,
    passed-out and unended games."""
    for i in range(start, start + n):
        bucket = i % 20
        bot = "greedy" if i % 2 else "random"
        if bucket == 0:
            yield passed_out_log(i, PRESETS["all-tricks"] if i % 40 else "bridgebot")
        elif bucket == 1:
            log = play_game(i, bot, OVERRIDE_RULES[(i // 20) % len(OVERRIDE_RULES)], interrupt_rate=0.3)
            yield log
        elif bucket == 2:
            log = play_game(i, bot, "bridgebot", interrupt_rate=0.5)
            yield log.model_copy(update={"end": None})  # a log that simply stops
        else:
            preset = "all-tricks" if (i // 2) % 2 else "bridgebot"
            yield play_game(i, bot, preset, interrupt_rate=0.2 if bucket % 3 == 0 else 0.0)


@lru_cache(maxsize=4)
def seeded_corpus(n: int) -> tuple[GameLog, ...]:
    return tuple(corpus(n))


# --- adversarial games ------------------------------------------------------------------------

def whole_suit_hands(order: tuple[int, int, int, int]) -> list[list[int]]:
    """Each seat holds one whole suit: seat i holds suit order[i]."""
    return [cards_of(SUIT_MASKS[s]) for s in order]


def long_auction(first: int, bids: list[int], passes_between: int = 2, leading_passes: int = 3) -> list[int]:
    calls = [int(PASS)] * leading_passes
    for i, bid in enumerate(bids):
        if i:
            calls.extend([int(PASS)] * passes_between)
        calls.append(bid)
    if bids[-1] != 34:
        calls.extend([int(PASS)] * 3)
    return calls


def adversarial_log(hands, first_bidder: int, calls: list[int], rules: Rules, rng: random.Random,
                    stop_after: int | None = None, partner_self: bool = False, end: str | None = None) -> GameLog:
    """Play out a scripted auction, then the partner card and random legal cards."""
    game = Game(hands, first_bidder, rules)
    logger = GameLogger(rules=rules, clock=None)
    logger.deal(hands, first_bidder=SEATS[first_bidder])
    done = 0

    def stop() -> bool:
        return stop_after is not None and done >= stop_after

    for call in calls:
        if stop():
            break
        seat = game.to_act
        logger.bid(seat, Call(call))
        game.push_call(seat, call)
        done += 1
    if game.phase == PARTNER and not stop():
        options = game.legal_partner_cards()
        own = [c for c in options if game.hands[game.declarer] >> c & 1]
        card = rng.choice(own if partner_self and own else options)
        logger.partner(game.declarer, card)
        game.push_partner(game.declarer, card)
        done += 1
    while game.phase == PLAY and not stop():
        seat = game.to_act
        card = rng.choice(game.legal_cards())
        logger.play(seat, card)
        game.push_play(seat, card)
        done += 1
        if not game.trick:
            logger.trick(game.trick_winners[-1])
    if game.phase == OVER:
        end = "passed_out" if game.passed_out else "completed"
    elif end is None:
        end = "cancelled"
    return logger.end(end).log


def adversarial_games(count: int = 200, seed: int = 0) -> list[GameLog]:
    """Long auctions, hands that each hold a whole suit, NT (every card legal), all tricks."""
    rng = random.Random(seed)
    out = []
    orders = [(3, 2, 1, 0), (0, 1, 2, 3), (2, 3, 0, 1), (1, 3, 0, 2)]
    rule_sets = [
        PRESETS["all-tricks"], PRESETS["bridgebot"],
        Rules.from_spec({"preset": "all-tricks", "self_partner": True, "wash_threshold": 19}),
        Rules.from_spec({"preset": "bridgebot", "play_all_tricks": True, "self_partner": True,
                         "trump_in_first_trick": False, "wash_threshold": 17}),
    ]
    for i in range(count):
        hands = whole_suit_hands(orders[i % 4])
        rules = rule_sets[(i // 4) % len(rule_sets)]
        k = rng.choice([27, 27, 26, 28, 35, 20, 30])
        # k bids ending in an NT bid (every card stays legal in a whole-suit deal)
        top = rng.choice([34, 29, 24]) if k <= 25 else 34
        below = sorted(rng.sample(range(top), k - 1))
        calls = long_auction(i % 4, below + [top])
        stop_after = None
        end = None
        if i % 3 == 2:  # cancelled in the last trick: the most a stopped game can hold
            stop_after = len(calls) + 1 + 48 + rng.randrange(0, 4)
            end = rng.choice(["cancelled", "timeout", "abandoned"])
        out.append(adversarial_log(hands, i % 4, calls, rules, rng, stop_after=stop_after,
                                   partner_self=rules.self_partner, end=end))
    return out


__all__ = [
    "AUCTION", "SEATS", "actions", "adversarial_games", "assert_same_game", "corpus", "deal",
    "events", "findings_of", "passed_out_log", "seeded_corpus",
]
