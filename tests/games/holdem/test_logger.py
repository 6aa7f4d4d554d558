"""HoldemLogger: the table set up at once, liberal cards and amounts, PHH notations, times,
atomic saving, the round trip save -> read -> judge, and specific errors for malformed input."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

from replay.games import names
from replay.games.holdem.logger import HoldemLogger
from replay.logger import GameLogger, LoggerInputError, LoggerStateError

#: end() judges the hand and GameLogger finds the game through the registry
registered = pytest.mark.skipif("holdem" not in names(), reason="the holdem game is not registered yet")


def hand(logger: HoldemLogger) -> None:
    """The spec's example hand."""
    logger.deal_hole("p1", "Ac2d")
    logger.deal_hole("p2", "????")
    logger.deal_hole("p3", ["7h", "7s"])
    logger.bet("p3", 300)
    logger.check_call("p1")
    logger.fold("p2")
    logger.deal_board("7c 8d 2s")
    logger.check_call("p1")
    logger.bet("p3", 400)
    logger.fold("p1")


def test_setup_fields_and_defaults():
    logger = HoldemLogger(players=["Ann", "Bob", {"name": "callbot", "bot": "callbot-2"}], clock=None)
    data = logger.to_dict()
    assert data["players"] == {"p1": {"name": "Ann"}, "p2": {"name": "Bob"},
                               "p3": {"name": "callbot", "bot": "callbot-2"}}
    assert (data["variant"], data["antes"], data["blinds_or_straddles"], data["min_bet"], data["starting_stacks"]) \
        == ("NT", [0, 0, 0], [50, 100, 0], 100, [10000, 10000, 10000])
    assert data["events"] == [] and "small_bet" not in data
    fixed = HoldemLogger(seats=2, variant="FT", blinds=(1, 2), stacks=[200, 150], antes=1, clock=None).to_dict()
    assert (fixed["small_bet"], fixed["big_bet"], fixed["antes"], fixed["starting_stacks"]) == (2, 4, [1, 1], [200, 150])
    assert "min_bet" not in fixed and "players" not in fixed
    straddle = HoldemLogger(stacks=[1000] * 4, blinds=[5, 10, 20], min_bet=10, clock=None,
                            phh_fields={"table": "Aldebaran", "currency": "USD"}).to_dict()
    assert (straddle["table"], straddle["currency"]) == ("Aldebaran", "USD")
    assert straddle["blinds_or_straddles"] == [5, 10, 20, 0] and straddle["min_bet"] == 10


def test_amounts_stay_exact():
    logger = HoldemLogger(seats=2, blinds=("0.25", Decimal("0.50")), stacks=[50, "48.75"], clock=None)
    logger.bet(2, "1.50")
    logger.bet(1, 3)
    data = logger.to_dict()
    assert data["blinds_or_straddles"] == [Decimal("0.25"), Decimal("0.50")]
    assert data["starting_stacks"] == [50, Decimal("48.75")] and type(data["starting_stacks"][0]) is int
    assert [e["action"] for e in data["events"]] == ["p2 cbr 1.50", "p1 cbr 3"]
    assert HoldemLogger(seats=2, stacks=0.1 + 0.2, min_bet=1, blinds=0, clock=None).stacks == [Decimal("0.30000000000000004")] * 2


def test_cards_and_notations_are_written_canonically():
    logger = HoldemLogger(seats=3, clock=None)
    logger.deal_hole(1, "10h K♠")
    logger.deal_hole("2", [0, None])
    logger.deal_hole("p3", ["AH", "??"])
    logger.action("d DB 7C 8d 2s # the flop")
    logger.action("p1   CBR   1,250")
    logger.show("p1")
    logger.show(2, "2c3d")
    logger.muck("p3")
    logger.action("# a burn card showed")
    assert [e["action"] for e in logger.to_dict()["events"]] == [
        "d dh p1 ThKs", "d dh p2 2c??", "d dh p3 Ah??", "d db 7c8d2s # the flop", "p1 cbr 1250", "p1 sm -",
        "p2 sm 2c3d", "p3 sm", "# a burn card showed"]


@registered
def test_round_trip_save_read_judge(tmp_path):
    from replay.log import read_path

    logger = HoldemLogger(game_id="table-7/2026-11-28/113", players=["Alice", "Bob", "callbot"], blinds=(50, 100),
                          stacks=10000, out_dir=tmp_path, clock=None)
    hand(logger)
    logger.chat("<b>gg</b>", seat="p3")
    replay = logger.end(finishing_stacks=[9700, 9900, 10400])
    assert [p.name for p in tmp_path.iterdir()] == ["table-7_2026-11-28_113.json"]  # no temporary file left
    [entry] = read_path(str(logger.path))
    assert entry.error is None and entry.log.canonical_json() == replay.log.canonical_json()
    assert replay.findings == [] and replay.winners == ["p3"]
    data = json.loads(logger.path.read_text(encoding="utf-8"))
    assert data["end"] == {"reason": "completed", "finishing_stacks": [9700, 9900, 10400]}
    assert data["events"][0] == {"action": "d dh p1 Ac2d"}
    assert logger.link("https://replay.example").startswith("https://replay.example/r/")


@registered
def test_game_logger_hands_out_the_holdem_logger():
    logger = GameLogger(game="holdem", players={"p1": "Ann", "p2": "Bob"}, blinds=(1, 2), stacks=200, clock=None)
    assert isinstance(logger, HoldemLogger) and logger.to_dict()["starting_stacks"] == [200, 200]


@registered
def test_times_are_stamped_from_the_clock():
    now = [100.0]
    logger = HoldemLogger(seats=2, blinds=(1, 2), stacks=100, clock=lambda: now[0])
    now[0] = 101.5
    logger.deal_hole(1, "AcAd")
    logger.deal_hole(2, "KcKd", t=7)
    now[0] = 103.0
    logger.fold(1)
    now[0] = 104.0
    replay = logger.end()
    assert [e.t for e in replay.log.events] == [1500, 7, 3000] and replay.log.end.t == 4000


@registered
def test_illegal_moves_are_logged_and_found():
    logger = HoldemLogger(seats=2, blinds=(1, 2), stacks=100, clock=None)
    logger.deal_hole(1, "AcAd")
    logger.deal_hole(2, "AcKd")  # the ace of clubs again
    replay = logger.end("cancelled")
    assert [f.kind for f in replay.findings] == ["duplicate_card"]
    logger = HoldemLogger(seats=2, blinds=(1, 2), stacks=100, clock=None)
    logger.deal_hole(1, "AcAd")
    logger.deal_hole(2, "KcKd")
    logger.bet(2, 500)  # over the stack (heads-up the button acts first before the flop)
    assert "bet_too_large" in [f.kind for f in logger.end("cancelled").findings]


def test_malformed_input_is_refused_with_a_clear_message():
    with pytest.raises(LoggerInputError, match="how many seats"):
        HoldemLogger()
    with pytest.raises(LoggerInputError, match="2 to 10 seats, not 11"):
        HoldemLogger(seats=11)
    with pytest.raises(LoggerInputError, match=r"the seat counts differ \(players 2, stacks 3\)"):
        HoldemLogger(players=["a", "b"], stacks=[1, 2, 3])
    with pytest.raises(LoggerInputError, match="variant 'PO' is not one this game plays"):
        HoldemLogger(seats=2, variant="PO")
    with pytest.raises(LoggerInputError, match="a starting stack must be positive"):
        HoldemLogger(seats=2, stacks=0)
    with pytest.raises(LoggerInputError, match="must be a number, not True"):
        HoldemLogger(seats=2, stacks=True)
    with pytest.raises(LoggerInputError, match="must be a number, not 'lots'"):
        HoldemLogger(seats=2, antes="lots")
    with pytest.raises(LoggerInputError, match="small_bet and big_bet are fixed-limit"):
        HoldemLogger(seats=2, big_bet=4)
    with pytest.raises(TypeError):
        HoldemLogger(seats=2, blind=(1, 2))  # a misspelt keyword is not kept as a PHH field
    with pytest.raises(LoggerInputError, match="'min_bet' is not a PHH field a logger may add"):
        HoldemLogger(seats=2, phh_fields={"min_bet": 3})
    with pytest.raises(LoggerInputError, match="3 blinds for 2 seats"):
        HoldemLogger(seats=2, blinds=(1, 2, 4))
    logger = HoldemLogger(seats=3, clock=None)
    with pytest.raises(LoggerInputError, match="'p4' is not a seat of this table"):
        logger.fold("p4")
    with pytest.raises(LoggerInputError, match="'Ann' is not a seat name"):
        logger.fold("Ann")
    with pytest.raises(LoggerInputError, match="'Xx' is not cards"):
        logger.deal_board("Xx")
    with pytest.raises(LoggerInputError, match="'1h' is not a card"):
        logger.deal_hole(1, ["Ah", "1h"])
    with pytest.raises(LoggerInputError, match="52 is not a card number"):
        logger.deal_hole(1, [51, 52])
    with pytest.raises(LoggerInputError, match="a bet must be positive"):
        logger.bet(1, -5)
    with pytest.raises(LoggerInputError, match="is not a hold'em action notation: 'sd' is not a hold'em action"):
        logger.action("p1 sd")
    with pytest.raises(LoggerInputError, match="'p9' is not a seat of this table"):
        logger.action("d dh p9 AcAd")
    with pytest.raises(LoggerInputError, match="an empty action notation"):
        logger.action("   ")
    with pytest.raises(LoggerInputError, match="a chat text has at most 4000 characters"):
        logger.chat("x" * 4001, seat=1)
    with pytest.raises(LoggerInputError, match="unknown end reason 'won'"):
        logger.end("won")
    with pytest.raises(LoggerInputError, match="finishing_stacks must be a list of 3 amounts"):
        logger.end(finishing_stacks=[1, 2])
    assert logger.to_dict()["events"] == []  # nothing refused was logged


@registered
def test_nothing_is_logged_after_the_end():
    logger = HoldemLogger(seats=3, clock=None)
    logger.end("cancelled")
    with pytest.raises(LoggerStateError, match="the game has ended"):
        logger.fold(1)
