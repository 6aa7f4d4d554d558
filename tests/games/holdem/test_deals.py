"""Texas hold'em's duplicate deals: the deal key, the payoffs in big blinds, championship tables.

Every table of a deal (``replay.duplicate.rotation``) gets the same hole cards seat by seat and
the same board whoever sits there, so its key is the same; different deals, another hole card,
another seat count or variant give another key; a hidden hole card gives none; ``deal_scores``
is each seat's payoff in big blinds; and ``selfplay`` still gives the logs it gave before
``play_table`` shared its code.
"""

from __future__ import annotations

import hashlib
import json
import math

import pytest
from hypothesis import given, settings, strategies as st

from replay.duplicate import is_key, rotation
from replay.games import game_for_format, get
from replay.games.holdem import bots as holdem_bots
from replay.games.holdem.cards import DECK, cards_text, parse_cards
from replay.games.holdem.championship import hand_result
from replay.log import read_path

GAME = get("holdem")
BOT_NAMES = tuple(holdem_bots.BOTS)
DEALS = st.integers(min_value=0, max_value=10**9)
SEATS = st.integers(min_value=2, max_value=7)


def bot_lists(least: int = 2):
    return st.lists(st.sampled_from(BOT_NAMES), min_size=least, max_size=4).filter(lambda b: len(set(b)) > 1)


def data_of(log) -> dict:
    return json.loads(log.canonical_json())


def keyed(data: dict):
    return GAME.deal_key(GAME.parse(data))


def actions(log, kind: str) -> list[str]:
    return [e.action for e in log.events if e.type == "action" and e.action.startswith(f"d {kind}")]


@settings(max_examples=20, deadline=None)
@given(DEALS, bot_lists(), st.one_of(st.none(), SEATS), st.sampled_from(("NT", "FT")))
def test_every_table_of_a_rotation_has_the_deals_key(deal, bots, players, variant):
    seats = GAME.table_seats(bots, players=players)
    assert seats == (players if players is not None else max(2, len(bots)))
    tables = rotation(seats, bots)
    logs = [GAME.play_table(deal, seated, table, players=players, variant=variant)
            for table, seated in enumerate(tables)]
    keys = {GAME.deal_key(log) for log in logs}
    assert len(keys) == 1 and is_key(keys.pop())
    seatings = [tuple(log.players[s].bot for s in log.seats) for log in logs]
    assert seatings == [tuple(f"{b}-1" for b in seated) for seated in tables]
    assert len(set(seatings)) > 1  # the bots differ from table to table, the cards do not
    assert len({tuple(actions(log, "dh")) for log in logs}) == 1
    boards = [" ".join(actions(log, "db")) for log in logs]
    longest = max(boards, key=len)
    assert all(longest.startswith(board) for board in boards)  # one board, as far as each table got


@settings(max_examples=40, deadline=None)
@given(DEALS, DEALS, SEATS)
def test_deals_with_different_hole_cards_never_share_a_key(one, two, players):
    if one == two:
        return
    bots = ("call",) * players
    first, second = GAME.play_table(one, bots), GAME.play_table(two, bots)
    assert actions(first, "dh") != actions(second, "dh")
    assert GAME.deal_key(first) != GAME.deal_key(second)


def hole_events(data: dict) -> list[dict]:
    return [e for e in data["events"] if e.get("action", "").startswith("d dh ")]


@settings(max_examples=40, deadline=None)
@given(DEALS, SEATS, st.data())
def test_another_hole_card_changes_the_key(deal, players, data):
    log_data = data_of(GAME.play_table(deal, ("call",) * players))
    key = keyed(log_data)
    holes = hole_events(log_data)
    event = data.draw(st.sampled_from(holes))
    d, dh, seat, cards = event["action"].split()
    pair = parse_cards(cards)
    used = {c for e in holes for c in parse_cards(e["action"].split()[3])}
    which = data.draw(st.integers(0, 1))
    pair[which] = data.draw(st.sampled_from([c for c in DECK if c not in used]))  # a card of the stub
    event["action"] = f"d dh {seat} {cards_text(pair)}"
    changed = keyed(log_data)
    assert changed not in (None, key)
    # the same two cards in the other order are the same deal
    event["action"] = f"d dh {seat} {cards_text(pair[::-1])}"
    assert keyed(log_data) == changed


@settings(max_examples=20, deadline=None)
@given(DEALS, st.integers(3, 7), st.data())
def test_seats_and_variant_are_part_of_the_key(deal, players, data):
    log = GAME.play_table(deal, ("call",) * players)
    fixed = GAME.play_table(deal, ("call",) * players, variant="FT")
    assert actions(fixed, "dh") == actions(log, "dh")
    assert GAME.deal_key(fixed) != GAME.deal_key(log)
    # one seat fewer: the first seats' cards come off the deck alike, but it is another deal
    fewer = GAME.play_table(deal, ("call",) * (players - 1))
    assert GAME.deal_key(fewer) != GAME.deal_key(log)


def test_a_hidden_hole_card_has_no_key_unless_shown():
    log = GAME.play_table(3, ("call", "call", "call"))  # call bots reach the showdown
    data = data_of(log)
    key = keyed(data)
    shown = [e["action"].split()[0] for e in data["events"] if " sm " in e.get("action", "")]
    assert shown and key is not None
    for event in hole_events(data):
        seat = event["action"].split()[2]
        event["action"] = f"d dh {seat} ????"
    # every seat showed: the cards are known after all
    assert set(shown) == set(GAME.parse(data).seats) and keyed(data) == key
    # a seat that folds never shows: a hidden card of it is unknown for good
    for deal in range(30):
        folded = data_of(GAME.play_table(deal, ("tag", "tag", "tag")))
        quiet = [e for e in hole_events(folded)
                 if not any(x.get("action", "").startswith(e["action"].split()[2] + " sm") for x in folded["events"])]
        if quiet:
            break
    else:
        pytest.fail("no hand where a seat did not show")
    assert keyed(folded) is not None
    quiet[0]["action"] = quiet[0]["action"][:-2] + "??"
    assert keyed(folded) is None
    untold = data_of(log)
    untold["events"] = [e for e in untold["events"] if not e.get("action", "").startswith("d dh p2")]
    assert GAME.deal_key(GAME.parse(untold)) is None


@settings(max_examples=15, deadline=None)
@given(DEALS, st.integers(0, 20), SEATS)
def test_a_key_survives_the_json_round_trip(deal, table, players):
    log = GAME.play_table(deal, [("tag", "random", "call")[i % 3] for i in range(players)], table, chat=True)
    again = GAME.parse(json.loads(log.canonical_json()))
    assert GAME.deal_key(again) == GAME.deal_key(log) is not None
    assert GAME.deal_scores(again.replay()) == GAME.deal_scores(log.replay())


def test_reading_the_sample_logs_never_raises():
    seen = keys = 0
    for path in sorted(GAME.sample_logs.rglob("*")):
        if not path.is_file() or path.suffix in (".py", ".md"):
            continue
        for entry in read_path(str(path)):
            if not entry.ok or game_for_format(entry.log.format) is not GAME:
                continue
            seen += 1
            key = GAME.deal_key(entry.log)
            keys += key is not None
            assert key is None or is_key(key)
            scores = GAME.deal_scores(GAME.judge(entry.log))
            assert scores is None or set(scores) == set(entry.log.seats)
    assert seen >= 15 and keys >= 10 and keys < seen  # PHH hands with hidden cards have none


@settings(max_examples=25, deadline=None)
@given(DEALS, bot_lists(), st.one_of(st.none(), SEATS), st.sampled_from(("NT", "FT")), st.integers(0, 3))
def test_payoffs_in_big_blinds_add_up_to_zero(deal, bots, players, variant, table):
    seats = GAME.table_seats(bots, players=players)
    seated = rotation(seats, bots)[table % seats]
    log = GAME.play_table(deal, seated, table, players=players, variant=variant, blinds=(25, 50))
    scores = GAME.deal_scores(log.replay())
    assert list(scores) == list(log.seats)
    assert math.isclose(sum(scores.values()), 0.0, abs_tol=1e-9)  # no rake: one seat's gain is another's loss
    assert scores == dict(hand_result(log).raw)
    assert all(-10000 / 50 <= v <= (seats - 1) * 10000 / 50 for v in scores.values())


def test_no_scores_for_a_hand_cut_short_or_broken():
    played = [GAME.play_table(deal, ("random", "tag", "call"), interrupt_rate=1.0) for deal in range(20)]
    cut = [log for log in played if log.end.reason in ("cancelled", "timeout")]
    assert len(cut) >= 4
    assert all(GAME.deal_scores(log.replay()) is None for log in cut)
    assert all(GAME.deal_key(log) is not None for log in cut)  # the deal is still known
    data = data_of(GAME.play_table(5, ("call", "call", "call")))
    bets = [e for e in data["events"] if e.get("action", "").endswith(" cc")]
    bets[0]["action"] = bets[0]["action"][:-2] + "cbr 99999999"  # more than the stack: fatal
    replay = GAME.parse(data).replay()
    assert any(f.fatal for f in replay.findings) and GAME.deal_scores(replay) is None


def test_play_table_names_the_deal_table_and_bots():
    log = GAME.play_table(11, ("tag", "random", "call", "tag"), 3, variant="FT")
    assert log.game_id == "championship-holdem-FT-4p-d11-t3"
    assert log.meta == {"championship": {"deal": 11, "table": 3}}
    assert [log.players[s].bot for s in log.seats] == ["tag-1", "random-1", "call-1", "tag-1"]
    assert len({log.players[s].name for s in log.seats}) == 4
    assert GAME.play_table(11, ("tag", "random", "call", "tag"), 3, variant="FT").canonical_json() == log.canonical_json()
    # the table number seeds the bots' choices: random bots play another hand at another table
    plays = {tuple(e.action for e in GAME.play_table(11, ("random",) * 4, t).events) for t in range(5)}
    assert len(plays) > 1
    assert len(GAME.play_table(2, ("tag",), players=5).seats) == 5  # one bot fills the table
    with pytest.raises(ValueError):
        GAME.play_table(1, ("tag", "call"), players=3)
    with pytest.raises(ValueError):
        GAME.play_table(1, ("tag", "nobody"))
    assert GAME.has_deals and GAME.deal_unit == "big blinds"
    assert GAME.table_seats(("tag",)) == 2 and GAME.table_seats(("tag", "call", "random"), players=9) == 9


#: the SHA-256 of ``selfplay``'s canonical JSON on main before ``play_table`` shared its code:
#: (seed, options) -> digest
SELFPLAY = {
    (7, (("players", 6),)): "e433673a6c5afc2537f8352ee774263738ec55cbb090f5aff49b29871709026e",
    (7, (("players", 2),)): "b6ebb29f5045d4180fed28cb15ec64fcb1f39a560dcfbe16ad42e5d0fa95f06b",
    (7, (("bots", ("random", "tag")), ("players", 3), ("chat", True), ("interrupt_rate", 0.3), ("variant", "FT"))):
        "055d7119bf267f9ce4092c8106621f297770299df1933994c853f2696d6aa65c",
    (8, (("bots", ("random", "tag")), ("players", 10), ("chat", True), ("interrupt_rate", 0.3), ("variant", "NT"))):
        "d0cf9c3c2aea9ff2c93389a535f30c9cbd61bf9f10cbbd2c7d672265b0327d2f",
}


@pytest.mark.parametrize("seed, options", list(SELFPLAY))
def test_selfplay_gives_the_logs_it_always_gave(seed, options):
    log = GAME.selfplay(seed, **dict(options))
    assert hashlib.sha256(log.canonical_json().encode()).hexdigest() == SELFPLAY[seed, options]
    assert "championship" not in log.meta and log.meta["selfplay"]["seed"] == seed
