"""Property tests of the rules engine on thousands of seeded random-legal games.

The expectations here are computed independently of the engine (a plain trick-winner function
from card ranks), so a bug in the engine's own bookkeeping cannot hide itself.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay.games.floating_bridge.bots import play_game
from replay.games.floating_bridge.cards import Card, Seat
from replay.log import parse_log
from replay.games.floating_bridge.log import GameLog, PlayEvent

PRESETS = ("bridgebot", "all-tricks")


def independent_winner(trick: list[tuple[str, str]], trump: str | None) -> str:
    """The seat that wins a trick, from ranks alone: highest trump, else highest of the led suit."""
    led = trick[0][1][0]
    order = "23456789TJQKA"

    def strength(card: str) -> int:
        suit, rank = card[0], order.index(card[1])
        if trump is not None and suit == trump:
            return 200 + rank
        return 100 + rank if suit == led else rank - 100

    return max(trick, key=lambda pc: strength(pc[1]))[0]


def check_game(log: GameLog) -> None:
    data = log.to_json_dict()
    replay = log.replay()
    assert replay.findings == [], replay.findings
    assert replay.checked
    bids = [e for e in data["events"] if e["type"] == "bid"]
    real_bids = [e for e in bids if e["bid"] != "pass"]
    if not real_bids:
        assert replay.end_reason == "passed_out"
        assert len(bids) == 4
        return
    contract = real_bids[-1]["bid"]
    level, strain = int(contract[0]), contract[1:]
    trump = None if strain == "NT" else strain
    declarer = real_bids[-1]["seat"]
    partner_card = next(e["card"] for e in data["events"] if e["type"] == "partner")
    partner = next(seat for seat, cards in data["hands"].items() if partner_card in cards)
    side = {declarer, partner}
    need = {True: 6 + level, False: 8 - level}
    plays = [(e["seat"], e["card"]) for e in data["events"] if e["type"] == "play"]
    assert len(plays) % 4 == 0
    counts = {True: 0, False: 0}
    reached_at = None
    winners = []
    for number in range(len(plays) // 4):
        trick = plays[number * 4:(number + 1) * 4]
        winner = independent_winner(trick, trump)
        winners.append(winner)
        counts[winner in side] += 1
        if reached_at is None and (counts[True] >= need[True] or counts[False] >= need[False]):
            reached_at = number + 1
    assert [s.name for s in replay.trick_winners] == winners
    if log.rules.play_all_tricks:
        assert len(winners) == 13
        assert replay.result.over_under == counts[True] - need[True]
    else:
        # the stop-early rule, exactly: play stops on the trick where a side reaches its number
        assert reached_at == len(winners)
    expected_winner = "declarer" if counts[True] >= need[True] else "defenders"
    assert replay.result.winner == expected_winner
    assert replay.result.declarer_tricks == counts[True]
    assert sum(replay.tricks) == len(winners)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_thousands_of_seeded_games_replay_clean_and_stop_exactly(preset, bot):
    for seed in range(750):
        log = play_game(seed, bot=bot, rules=preset)
        check_game(log)
        # and the same through the canonical JSON text
        assert parse_log(log.canonical_json()).canonical_json() == log.canonical_json()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**40), preset=st.sampled_from(PRESETS), bot=st.sampled_from(["random", "greedy"]))
def test_any_seed_gives_a_clean_game(seed, preset, bot):
    check_game(play_game(seed, bot=bot, rules=preset))


# --- injected breaches --------------------------------------------------------------------

def step_of_event(data: dict, event_index: int) -> int:
    """The step an event produces: 1 + the calls, partner calls and cards up to it."""
    return sum(1 for e in data["events"][: event_index + 1] if e["type"] in ("bid", "partner", "play"))


def play_indices(data: dict) -> list[int]:
    return [i for i, e in enumerate(data["events"]) if e["type"] == "play"]


def hand_before(data: dict, seat: str, event_index: int) -> list[str]:
    played = {e["card"] for e in data["events"][:event_index] if e["type"] == "play" and e["seat"] == seat}
    return [c for c in data["hands"][seat] if c not in played]


def first_finding(data: dict):
    replay = parse_log(data).replay()
    assert replay.findings, "the injected breach was not found"
    return replay.findings[0]


def trump_of(data: dict) -> str | None:
    contract = [e["bid"] for e in data["events"] if e["type"] == "bid" and e["bid"] != "pass"][-1]
    return None if contract.endswith("NT") else contract[1]


def inject_revoke(data: dict):
    plays = play_indices(data)
    for k, index in enumerate(plays):
        if k % 4 == 0:
            continue
        event = data["events"][index]
        led = data["events"][plays[k - k % 4]]["card"][0]
        hand = hand_before(data, event["seat"], index)
        if event["card"][0] != led:
            continue
        others = [c for c in hand if c[0] != led and not (k < 4 and c[0] == trump_of(data))]
        if others:
            event["card"] = others[0]
            return index
    return None


def inject_off_turn(data: dict):
    plays = play_indices(data)
    if len(plays) < 8:
        return None
    a, b = plays[5], plays[6]  # second and third cards of trick 2
    data["events"][a], data["events"][b] = data["events"][b], data["events"][a]
    return a


def inject_played_twice(data: dict):
    plays = play_indices(data)
    for k in range(4, len(plays)):
        seat = data["events"][plays[k]]["seat"]
        earlier = [data["events"][i]["card"] for i in plays[:k] if data["events"][i]["seat"] == seat]
        if earlier:
            data["events"][plays[k]]["card"] = earlier[0]
            return plays[k]
    return None


def inject_trump_lead(data: dict):
    trump = trump_of(data)
    if trump is None:
        return None
    plays = play_indices(data)
    broken = False
    for k, index in enumerate(plays):
        event = data["events"][index]
        if k % 4 == 0 and k > 0 and not broken:
            hand = hand_before(data, event["seat"], index)
            trumps = [c for c in hand if c[0] == trump]
            if trumps and len(trumps) < len(hand) and event["card"][0] != trump:
                event["card"] = trumps[0]
                return index
        if event["card"][0] == trump:
            broken = True
    return None


BREACHES = {
    "revoke": inject_revoke,
    "out_of_turn": inject_off_turn,
    "card_played_twice": inject_played_twice,
    "trump_not_broken": inject_trump_lead,
}


@pytest.mark.parametrize("kind", sorted(BREACHES))
@pytest.mark.parametrize("preset", PRESETS)
def test_injected_breaches_are_found_at_their_step(kind, preset):
    injected = 0
    for seed in range(400):
        data = play_game(seed, bot="random", rules=preset).to_json_dict()
        index = BREACHES[kind](data)
        if index is None:
            continue
        injected += 1
        finding = first_finding(data)
        assert finding.kind == kind, (seed, finding)
        assert finding.event == index
        expected_step = step_of_event(data, index)
        if finding.fatal:
            # a fatal breach leaves the position where it was: it is tied to the last step
            assert finding.step == expected_step - 1
        else:
            assert finding.step == expected_step
        assert finding.seat == Seat[data["events"][index]["seat"]]
    assert injected > 50, f"only {injected} games could take a {kind}"


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), kind=st.sampled_from(sorted(BREACHES)))
def test_breaches_found_for_any_seed(seed, kind):
    data = play_game(seed, bot="random", rules="bridgebot").to_json_dict()
    index = BREACHES[kind](data)
    if index is None:
        return
    finding = first_finding(data)
    assert (finding.kind, finding.event) == (kind, index)


def injectable(kind: str, bot: str = "random") -> tuple[dict, int]:
    """The first seeded game that can take a breach, with the breached event's index."""
    for seed in range(100):
        data = play_game(seed, bot=bot).to_json_dict()
        index = BREACHES[kind](data)
        if index is not None and index < len(data["events"]) - 4:
            return data, index
    raise AssertionError(f"no game could take a {kind}")


def test_fatal_breach_stops_checking_and_says_so():
    data, index = injectable("card_played_twice")
    replay = parse_log(data).replay()
    assert not replay.checked
    assert replay.findings[-1].fatal
    # no step was produced for the breach or anything after it
    assert len(replay.steps) == step_of_event(data, index)
    assert replay.result.winner is None


def test_revoke_is_recorded_and_play_continues():
    data, index = injectable("revoke")
    replay = parse_log(data).replay()
    assert replay.findings[0].kind == "revoke"
    assert len(replay.steps) > step_of_event(data, index)
    played = replay.steps[step_of_event(data, index)]
    assert str(played.action) == data["events"][index]["card"]


def test_wrong_announced_winner_disagrees_with_engine():
    data = play_game(11, bot="greedy").to_json_dict()
    tricks = [i for i, e in enumerate(data["events"]) if e["type"] == "trick"]
    event = data["events"][tricks[2]]
    truth = event["winner"]
    event["winner"] = {"N": "E", "E": "S", "S": "W", "W": "N"}[truth]
    replay = parse_log(data).replay()
    assert [f.kind for f in replay.findings] == ["wrong_trick_winner"]
    assert "trick 3" in replay.findings[0].message
    assert Seat[truth].full_name in replay.findings[0].message
    assert replay.checked  # a disagreement does not stop checking


def test_independent_winner_helper_agrees_with_examples():
    assert independent_winner([("N", "H2"), ("E", "HA"), ("S", "S2"), ("W", "HK")], "S") == "S"
    assert independent_winner([("N", "H2"), ("E", "HA"), ("S", "S2"), ("W", "HK")], None) == "E"
    assert independent_winner([("N", "D9"), ("E", "C2"), ("S", "DT"), ("W", "D3")], "H") == "S"
    assert Card.parse("HT") > Card.parse("H9")


@pytest.mark.parametrize("preset", ["bridgebot", "all-tricks"])
def test_play_card_returns_the_winner_exactly_when_a_trick_completes(preset):
    # the codec reads the trick winner from play_card's return (no second look at the state)
    from replay.games.floating_bridge.engine import Game, OVER

    for seed in range(40):
        log = play_game(seed, "random", rules=preset)
        game = Game(log.hands.by_seat(), log.first_bidder, log.rules)
        completed = 0
        for event in log.events:
            if event.type == "bid":
                assert game.push_call(event.seat, event.bid) == []
            elif event.type == "partner":
                assert game.push_partner(event.seat, event.card) == []
            elif event.type == "play":
                assert game.legal_mask(event.seat) >> event.card & 1
                cards_in_trick = len(game.trick)
                winner = game.play_card(event.seat, event.card)
                if cards_in_trick == 3:
                    completed += 1
                    assert winner == game.trick_winners[-1] and len(game.trick_winners) == completed
                    assert game.pending_announcement
                else:
                    assert winner is None and len(game.trick) == cards_in_trick + 1
        assert completed == len(game.trick_winners)
        assert (game.phase == OVER) == (log.end is not None and log.end.reason == "completed")


@pytest.mark.parametrize("hands", [
    [list(range(0, 13)), list(range(13, 26)), list(range(26, 39)), list(range(39, 52))],
    [[0, 1, 1, 51], [5], [], list(range(10, 23))],   # a card twice, one card, none: an invalid deal
    [[7, 7], [7], [51, 0], [3, 3, 3]],
])
def test_game_holds_each_hand_as_cards_and_as_a_mask(hands):
    from replay.games.floating_bridge.cards import Card
    from replay.games.floating_bridge.engine import Game

    game = Game(hands, 0)
    for seat, cards in enumerate(hands):
        assert game.deal[seat] == tuple(cards)
        assert all(type(card) is Card for card in game.deal[seat])
        mask = 0
        for card in cards:
            mask |= 1 << card
        assert game.hands[seat] == mask  # a card dealt twice is held once
    assert bool(game.check_deal()) == any(len(cards) != 13 for cards in hands)
