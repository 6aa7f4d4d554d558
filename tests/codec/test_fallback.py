"""Games with findings get a flagged fallback code that brings back the same events and findings."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay.games.floating_bridge.bots import play_game
from replay.games.floating_bridge.cards import Card
from replay.codec import decode, encode, is_fallback_code
from replay.games.floating_bridge.engine import Game
from replay.log import parse_log
from replay.games.floating_bridge.rules import legal_cards_mask

from .games import events, findings_of


def _data(seed: int, bot: str = "random", preset: str = "bridgebot", **kw) -> dict:
    return play_game(seed, bot, preset, chat=True, **kw).to_json_dict()


def _play_positions(data: dict) -> list[int]:
    return [i for i, e in enumerate(data["events"]) if e["type"] == "play"]


def revoke(data: dict, rng: random.Random) -> dict | None:
    """Replace a play by a card of the same hand that breaks follow-suit."""
    log = parse_log(data)
    game = Game(log.hands.by_seat(), log.first_bidder, log.rules)
    for i, e in enumerate(log.events):
        if e.type == "play":
            led = game.trick[0][1] // 13 if game.trick else None
            legal = legal_cards_mask(game.hands[e.seat], led, game.trump, game.trump_broken,
                                     not game.trick_winners, log.rules)
            illegal = game.hands[e.seat] & ~legal
            if illegal and rng.random() < 0.5:
                cards = [c for c in range(52) if illegal >> c & 1]
                data["events"][i]["card"] = str(Card(rng.choice(cards)))
                return data
            game.push_play(e.seat, e.card)
        elif e.type == "bid":
            game.push_call(e.seat, e.bid)
        elif e.type == "partner":
            game.push_partner(e.seat, e.card)
    return None


def card_not_in_hand(data: dict, rng: random.Random) -> dict | None:
    plays = _play_positions(data)
    if not plays:
        return None
    i = rng.choice(plays)
    seat = data["events"][i]["seat"]
    other = rng.choice([s for s in "NESW" if s != seat])
    data["events"][i]["card"] = rng.choice(data["hands"][other])
    return data


def short_hand(data: dict, rng: random.Random) -> dict:
    seat = rng.choice("NESW")
    data["hands"][seat] = data["hands"][seat][:12]
    return data


def card_dealt_twice(data: dict, rng: random.Random) -> dict:
    data["hands"]["E"][3] = data["hands"]["N"][5]
    return data


def wrong_trick_winner(data: dict, rng: random.Random) -> dict | None:
    tricks = [i for i, e in enumerate(data["events"]) if e["type"] == "trick"]
    if not tricks:
        return None
    i = rng.choice(tricks)
    data["events"][i]["winner"] = rng.choice([s for s in "NESW" if s != data["events"][i]["winner"]])
    return data


def partner_in_own_hand(data: dict, rng: random.Random) -> dict | None:
    for e in data["events"]:
        if e["type"] == "partner":
            e["card"] = rng.choice(data["hands"][e["seat"]])
            return data
    return None


def call_out_of_turn(data: dict, rng: random.Random) -> dict:
    bids = [e for e in data["events"] if e["type"] == "bid"]
    target = rng.choice(bids)
    target["seat"] = rng.choice([s for s in "NESW" if s != target["seat"]])
    return data


def wash_hands(data: dict, rng: random.Random) -> dict:
    data["rules"] = {"preset": "bridgebot", "wash_threshold": 40}
    return data


def wrong_end(data: dict, rng: random.Random) -> dict:
    data["end"] = {"reason": "cancelled" if data["end"]["reason"] == "completed" else "completed"}
    return data


def event_after_end(data: dict, rng: random.Random) -> dict:
    data["events"].append({"type": "bid", "seat": "N", "bid": "7NT"})
    data["events"].append({"type": "play", "seat": "E", "card": data["hands"]["E"][0]})
    return data


BREACHES = {
    "revoke": revoke, "card_not_in_hand": card_not_in_hand, "short_hand": short_hand,
    "card_dealt_twice": card_dealt_twice, "wrong_trick_winner": wrong_trick_winner,
    "partner_in_own_hand": partner_in_own_hand, "out_of_turn": call_out_of_turn,
    "wash_hand": wash_hands, "end_mismatch": wrong_end, "event_after_end": event_after_end,
}


def check_fallback(data: dict) -> str:
    log = parse_log(data)
    expected = findings_of(log)
    assert expected, "the injected breach must give a finding"
    code = encode(log)
    assert is_fallback_code(code)
    back = decode(code)
    assert events(back) == events(log)
    assert [list(map(int, h)) for h in back.hands.by_seat()] == [sorted(map(int, h)) for h in log.hands.by_seat()] \
        or [list(map(int, h)) for h in back.hands.by_seat()] == [list(map(int, h)) for h in log.hands.by_seat()]
    assert back.rules == log.rules and back.first_bidder == log.first_bidder
    assert (back.end and back.end.reason) == (log.end and log.end.reason)
    assert findings_of(back) == expected
    assert encode(back) == code
    return code


@pytest.mark.parametrize("breach", sorted(BREACHES))
@pytest.mark.parametrize("preset", ["bridgebot", "all-tricks"])
def test_injected_breaches_come_back_with_the_same_findings(breach, preset):
    rng = random.Random(breach)
    done = 0
    for seed in range(200):
        data = BREACHES[breach](_data(seed, "greedy" if seed % 2 else "random", preset), rng)
        if data is None:
            continue
        check_fallback(data)
        done += 1
        if done == 15:
            break
    assert done == 15


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 10**6), breach=st.sampled_from(sorted(BREACHES)), rng_seed=st.integers(0, 99),
       interrupt=st.sampled_from([0.0, 0.5]))
def test_any_broken_game_round_trips(seed, breach, rng_seed, interrupt):
    data = BREACHES[breach](_data(seed, interrupt_rate=interrupt), random.Random(rng_seed))
    if data is not None:
        check_fallback(data)


def test_clean_games_never_use_the_fallback():
    for seed in range(200):
        assert not is_fallback_code(encode(play_game(seed, chat=True)))


def test_fallback_keeps_order_of_an_invalid_deal_and_is_not_much_longer():
    data = short_hand(_data(3, "greedy"), random.Random(1))
    data["hands"]["N"] = list(reversed(data["hands"]["N"]))
    log = parse_log(data)
    back = decode(encode(log))
    assert [str(c) for c in back.hands.N] == data["hands"]["N"]
    clean = encode(play_game(3, "greedy"))
    revoked = check_fallback(revoke(_data(3, "greedy"), random.Random(0)))
    assert len(revoked) < 2 * len(clean)


def test_the_encoders_judgement_agrees_with_game_replay():
    from replay.games.floating_bridge.codec.compact import _judge

    rng = random.Random(7)
    for seed in range(300):
        data = _data(seed, "greedy" if seed % 2 else "random", interrupt_rate=0.3)
        breach = sorted(BREACHES)[seed % len(BREACHES)]
        broken = BREACHES[breach](json_copy(data), rng)
        for candidate in (data, broken):
            if candidate is None:
                continue
            log = parse_log(candidate)
            replay = log.replay()
            has_findings, phase, plays = _judge(log)
            assert (has_findings, phase) == (bool(replay.findings), replay.steps[-1].phase) or (
                replay.findings and has_findings)
            if not has_findings:  # one digit per card, each inside the engine's legal cards
                played = [e for e in log.events if e.type == "play"]
                assert len(plays) == len(played)
                assert all(0 <= digit < radix for digit, radix in plays)


def json_copy(data: dict) -> dict:
    import json

    return json.loads(json.dumps(data))
