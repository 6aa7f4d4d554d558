"""Random positions and a plain exhaustive minimax: the references the solver is checked by."""

from __future__ import annotations

import functools
import random

from replay.games.floating_bridge.cards import SUIT_MASKS
from replay.games.floating_bridge.solver import Position
from replay.games.floating_bridge.rules import Rules, legal_cards_mask, trick_winner_index

#: every way the declarer's side can sit, as seen from the declarer N: opposite, on the
#: left, on the right, alone
ARRANGEMENTS = ((0, 2), (0, 1), (0, 3), (0,))


def brute_force(position: Position) -> int:
    """Tricks the declarer's side takes from the trick under way on: every legal card tried
    at every turn, the declarer's side taking the most, the others the fewest."""
    rules = Rules(trump_in_first_trick=position.trump_in_first_trick)
    side = set(position.declarer_side)
    trump = position.trump

    @functools.lru_cache(maxsize=None)
    def value(hands, leader, trick, broken, first):
        seat = (leader + len(trick)) & 3
        if not hands[seat]:
            return 0
        led = trick[0] // 13 if trick else None
        legal = legal_cards_mask(hands[seat], led, trump, broken, first, rules)
        results = []
        for card in range(52):
            if not legal >> card & 1:
                continue
            new_hands = list(hands)
            new_hands[seat] &= ~(1 << card)
            new_trick = trick + (card,)
            new_broken = broken or (trump is not None and card // 13 == trump)
            if len(new_trick) == 4:
                winner = (leader + trick_winner_index(new_trick, trump)) & 3
                results.append((winner in side) + value(tuple(new_hands), winner, (), new_broken, False))
            else:
                results.append(value(tuple(new_hands), leader, new_trick, new_broken, first))
        return max(results) if seat in side else min(results)

    return value(tuple(position.hands), position.leader, tuple(position.trick),
                 position.trump_broken, position.first_trick)


def random_position(rng: random.Random, tricks: int, *, side=None, trump="any", mid_trick=True,
                    trump_broken=None, first_trick=None, tifr=None) -> Position:
    """A random ending: `tricks` tricks to play, perhaps part of the first already played."""
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [deck[i * tricks:(i + 1) * tricks] for i in range(4)]
    if trump == "any":
        trump = rng.choice([None, 0, 1, 2, 3])
    leader = rng.randrange(4)
    declarer = rng.randrange(4)
    if side is None:
        side = rng.choice(ARRANGEMENTS)
    seats = tuple(sorted({(declarer + s) & 3 for s in side}))
    if first_trick is None:
        first_trick = rng.random() < 0.25
    if tifr is None:
        tifr = rng.random() < 0.5
    if trump_broken is None:
        # not broken only while no trump has gone: in an ending some trumps may be unseen
        trump_broken = rng.random() < 0.5
    trick: list[int] = []
    broken = trump_broken
    if mid_trick:
        for k in range(rng.randrange(4)):
            seat = (leader + k) & 3
            led = trick[0] // 13 if trick else None
            mask = 0
            for c in hands[seat]:
                mask |= 1 << c
            legal = legal_cards_mask(mask, led, trump, broken, first_trick,
                                     Rules(trump_in_first_trick=tifr))
            choices = [c for c in hands[seat] if legal >> c & 1]
            card = rng.choice(choices)
            hands[seat].remove(card)
            trick.append(card)
            if trump is not None and card // 13 == trump:
                broken = True
    masks = []
    for h in hands:
        m = 0
        for c in h:
            m |= 1 << c
        masks.append(m)
    return Position(hands=tuple(masks), trump=trump, declarer_side=seats, leader=leader,
                    trick=tuple(trick), trump_broken=broken, first_trick=first_trick,
                    trump_in_first_trick=tifr)


def trumps_held(position: Position) -> int:
    if position.trump is None:
        return 0
    mask = SUIT_MASKS[position.trump]
    return sum(bin(h & mask).count("1") for h in position.hands)
