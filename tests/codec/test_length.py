"""Code length: short on real corpora, close to the information bound, never over 57."""

from __future__ import annotations

from math import ceil, comb, factorial, log2
from statistics import mean

import pytest

from replay.games.floating_bridge.bots import play_game
from replay.codec import decode, encode
from replay.games.floating_bridge.codec import compact
from replay.games.floating_bridge.codec.measure import BITS_PER_CHARACTER, information_bits, information_characters, legacy_length

from .games import adversarial_games, assert_same_game

MAX_LENGTH = 57  # 56 in version 1: the version 2 marker holds no payload bits


@pytest.fixture(scope="module")
def corpora():
    return {bot: [play_game(seed, bot) for seed in range(1500)] for bot in ("random", "greedy")}


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_mean_length_and_distance_to_the_information_bound(corpora, bot):
    logs = corpora[bot]
    lengths = [len(encode(log)) for log in logs]
    bounds = [information_characters(log) for log in logs]
    legacy = [(len(encode(log)), legacy_length(log)) for log in logs if legacy_length(log)]
    print(f"{bot}: mean {mean(lengths):.2f}, max {max(lengths)}, bound {mean(bounds):.2f}, "
          f"ratio to legacy {mean(a / b for a, b in legacy):.3f}")
    assert mean(lengths) <= 38
    # +3.5: the version 2 marker (0) holds none of the payload, two thirds of a character more
    # than version 1 (random games: +3.2)
    assert mean(lengths) - mean(bounds) <= 3.5
    assert mean(a / b for a, b in legacy) <= 0.65
    assert max(lengths) <= MAX_LENGTH


def test_adversarial_games_stay_within_57_characters():
    games = adversarial_games(240)
    lengths = []
    for log in games:
        assert log.replay().findings == []
        code = encode(log)
        lengths.append(len(code))
        assert_same_game(log, decode(code))
    print(f"adversarial: max {max(lengths)}, mean {mean(lengths):.1f}")
    assert max(lengths) <= MAX_LENGTH
    # they really are extreme: far longer than ordinary games
    assert max(lengths) >= 50
    assert max(information_bits(log) for log in games) > 290


def test_the_worst_case_is_within_57_characters_by_construction():
    """Every radix at its largest: no clean game can need more."""
    auction = max(log2(36) + log2(comb(35, k)) + log2(4) + (k - 1) * log2(3) for k in range(1, 36))
    # the wash threshold is at most the lowest hand's points, at most 19 (a whole suit each)
    rules = log2(len(compact.PRESET_ORDER)) + log2(1 + 8 * 20)
    payload = (log2(compact.KINDS) + 2 + log2(factorial(52) // factorial(13) ** 4) + rules
               + log2(compact.EXT_END_RADIX) + auction + log2(52) + 4 * log2(factorial(13)))
    total_bits = payload + log2(compact.CHECK_PRIME)
    # the marker 0 holds nothing; the body is the base-62 digits of 127 * payload + 89
    worst = 1 + max(compact.V2_MIN_BODY, ceil(total_bits / BITS_PER_CHARACTER))
    assert worst == MAX_LENGTH


def test_lowest_hand_points_never_exceed_19():
    # the bound above relies on it: four hands share 40 high-card points and at most 36 length points
    from replay.games.floating_bridge.cards import hand_points
    from .games import whole_suit_hands

    assert min(hand_points(h) for h in whole_suit_hands((0, 1, 2, 3))) == 19
    assert (40 + 4 * 9) // 4 == 19
