"""Singbridge's notation: bids and cards as numbers, read when the log (or the logger) says so."""

from __future__ import annotations

import copy
import json

import pytest

from replay.games.floating_bridge.bots import play_game
from replay.errors import ReplayError
from replay.games.floating_bridge.cards import Call, CallParseError, Card, CardParseError
from replay.log import LogFormatError, parse_log, read_logs
from replay.games.floating_bridge.log import json_schema
from replay.logger import GameLogger

SUIT = {"C": 1, "D": 2, "H": 3, "S": 4}
STRAIN = {"C": 1, "D": 2, "H": 3, "S": 4, "NT": 5}
RANK = {ch: i + 2 for i, ch in enumerate("23456789TJQKA")}


def sb_card(text: str) -> int:
    """Singbridge's number for a canonical card, worked out here from the format's definition."""
    return SUIT[text[0]] * 100 + RANK[text[1]]


def sb_call(text: str) -> int:
    return 0 if text == "pass" else int(text[0]) * 10 + STRAIN[text[1:]]


def singbridge_twin(log: dict, as_text: bool = False) -> dict:
    """The same game with every call and card in Singbridge's numbers."""
    twin = copy.deepcopy(log)
    twin["notation"] = "singbridge"
    conv = str if as_text else (lambda n: n)
    for seat, cards in twin["hands"].items():
        twin["hands"][seat] = [conv(sb_card(c)) for c in cards]
    for event in twin["events"]:
        if event["type"] == "bid":
            event["bid"] = conv(sb_call(event["bid"]))
        elif event["type"] in ("partner", "play"):
            event["card"] = conv(sb_card(event["card"]))
    return twin


def test_the_numbers():
    assert Call.from_singbridge(45) == Call.parse("4NT")
    assert Call.from_singbridge(11) == Call.parse("1C") and Call.from_singbridge(75) == Call.parse("7NT")
    assert Call.from_singbridge(0).is_pass
    assert Card.from_singbridge(114) == Card.parse("CA")
    assert Card.from_singbridge(102) == Card.parse("C2") and Card.from_singbridge(410) == Card.parse("ST")
    assert Card.from_singbridge(213) == Card.parse("DK") and Card.from_singbridge(311) == Card.parse("HJ")
    for bad in (10, 16, 80, 46, 5, -1, 1000, True):
        with pytest.raises(CallParseError):
            Call.from_singbridge(bad)
    for bad in (101, 115, 514, 14, 0, 1114, "4NT"):
        with pytest.raises(CardParseError):
            Card.from_singbridge(bad)


@pytest.mark.parametrize("as_text", [False, True], ids=["numbers", "digit strings"])
def test_a_singbridge_log_reads_to_the_same_game_as_its_ordinary_twin(as_text):
    ordinary = play_game(seed=11, chat=True).to_json_dict()
    twin = singbridge_twin(ordinary, as_text)
    assert isinstance(twin["events"][0]["bid"], str if as_text else int)
    a, b = parse_log(twin), parse_log(ordinary)
    assert a.notation == "singbridge" and b.notation == "standard"
    # the canonical writer writes the standard notation, and leaves the notation out
    assert a.canonical_json() == b.canonical_json()
    assert "notation" not in a.to_json_dict()
    from archive.store import canonical_sha256

    assert canonical_sha256(a) == canonical_sha256(b)  # one game in the archive
    ra, rb = a.replay(), b.replay()
    assert (str(ra.contract), ra.declarer, ra.result.winner, ra.findings) == \
        (str(rb.contract), rb.declarer, rb.result.winner, rb.findings)
    # and through the file reader
    [entry] = read_logs(json.dumps(twin).encode(), "sb.json")
    assert entry.ok and entry.log.canonical_json() == b.canonical_json()


def test_standard_text_is_still_read_in_a_singbridge_log():
    ordinary = play_game(seed=12).to_json_dict()
    mixed = singbridge_twin(ordinary)
    mixed["hands"]["N"] = ordinary["hands"]["N"]
    mixed["events"][0]["bid"] = ordinary["events"][0]["bid"]
    assert parse_log(mixed).canonical_json() == parse_log(ordinary).canonical_json()


@pytest.mark.parametrize("where,value", [("bid", 45), ("bid", "45"), ("bid", 0), ("card", 114), ("hand", 114)])
def test_numbers_are_errors_in_an_ordinary_log(where, value):
    log = play_game(seed=13).to_json_dict()
    if where == "bid":
        log["events"][0]["bid"] = value
        place, what = "events[0].bid", "call"
    elif where == "card":
        index = next(i for i, e in enumerate(log["events"]) if e["type"] == "play")
        log["events"][index]["card"] = value
        place, what = f"events[{index}].card", "card"
    else:
        log["hands"]["E"][3] = value
        place, what = "hands.E[3]", "card"
    for data in (log, {**log, "notation": "standard"}):
        with pytest.raises(LogFormatError) as info:
            parse_log(data)
        assert str(info.value) == (f"{place}: {value!r} is not a {what} (numbers are read as cards and calls "
                                   'only in a log with "notation": "singbridge")')


def test_bad_numbers_and_notations_are_named():
    twin = singbridge_twin(play_game(seed=14).to_json_dict())
    twin["events"][1]["bid"] = 46
    twin["hands"]["S"][0] = 115
    with pytest.raises(LogFormatError) as info:
        parse_log(twin)
    places = dict(info.value.errors)
    assert places["events[1].bid"].startswith("46 is not a call in Singbridge notation")
    assert places["hands.S[0]"].startswith("115 is not a card in Singbridge notation")
    other = {**play_game(seed=14).to_json_dict(), "notation": "pbn"}
    with pytest.raises(LogFormatError, match=r"notation: 'pbn' is not a known notation"):
        parse_log(other)


def test_the_logger_takes_numbers_with_the_option():
    reference = play_game(seed=15)
    data = reference.to_json_dict()
    twin = singbridge_twin(data)
    logger = GameLogger(game_id=data.get("game_id"), rules=data["rules"], players=data.get("players"),
                        clock=None, notation="singbridge", meta=data.get("meta"))
    logger.deal({seat: cards for seat, cards in twin["hands"].items()}, first_bidder=twin["first_bidder"])
    for event in twin["events"]:
        t = event.get("t")
        if event["type"] == "bid":
            logger.bid(event["seat"], event["bid"], t=t)
        elif event["type"] == "partner":
            logger.partner(event["seat"], event["card"], t=t)
        elif event["type"] == "play":
            logger.play(event["seat"], event["card"], t=t)
        elif event["type"] == "trick":
            logger.trick(event["winner"], t=t)
        else:
            logger.chat(event["text"], event.get("seat"), t=t)
    logger.started_at = reference.started_at
    replay = logger.end(data["end"]["reason"], t=data["end"].get("t"))
    written = logger.to_dict()
    assert "notation" not in written  # the logger writes the standard notation
    assert written["events"][0]["bid"] == data["events"][0]["bid"]
    assert replay.log.canonical_json() == reference.canonical_json()


def test_the_logger_refuses_numbers_without_the_option():
    logger = GameLogger(clock=None)
    with pytest.raises(CardParseError):
        logger.deal([[s * 100 + r for r in range(2, 15)] for s in (1, 2, 3, 4)], first_bidder="N")
    game = play_game(seed=16).to_json_dict()
    logger.deal(game["hands"], first_bidder="N")
    with pytest.raises(CallParseError):
        logger.bid("N", 45)
    with pytest.raises(CardParseError):
        logger.play("N", 114)
    assert logger.to_dict()["events"] == []
    with pytest.raises(ReplayError, match="notation must be one of standard, singbridge, not 'matlab'"):
        GameLogger(notation="matlab")


def test_the_schema_documents_the_notation():
    schema = json_schema()
    notation = schema["properties"]["notation"]
    assert notation["enum"] == ["standard", "singbridge"] and notation["default"] == "standard"
    assert "0 = pass" in notation["description"] and "canonical writer" in notation["description"]
