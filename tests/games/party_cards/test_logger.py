"""PartyLogger: liberal input, times, atomic saving, the round trip save -> read -> judge."""

from __future__ import annotations

import json

import pytest

from replay.games.party_cards import GAME
from replay.games.party_cards.bots import play_game
from replay.games.party_cards.logger import PartyLogger
from replay.logger import LoggerInputError, LoggerStateError
from replay.log import read_path

from .helpers import HANDS, NAMES


def new_logger(**options) -> PartyLogger:
    return PartyLogger(players=dict(NAMES), score_limit=1, hand_size=2, clock=None, **options)


def test_round_trip_save_read_judge(tmp_path):
    logger = new_logger(game_id="grp-9/cah/4", out_dir=tmp_path)
    logger.deal({"p1": [("a1", "x"), {"id": "a2", "text": "y"}], **{s: HANDS[s] for s in ("p2", "p3", "p4")}})
    for seat in ("p1", "p2", "p3"):
        logger.join(seat)
    logger.decline("p4")
    logger.round("p1", {"id": "q1", "text": "Why? ___", "pick": 1})
    logger.answer("p2", ["a3"])
    logger.answer("p3", ["a5"])
    logger.reveal(["p3", "p2"])
    logger.pick("p1", 2)
    logger.chat("<b>gg</b>", seat="p2")
    replay = logger.end("completed", winner="p2")
    assert [p.name for p in tmp_path.iterdir()] == ["grp-9_cah_4.json"]  # no temporary file left
    [entry] = read_path(str(logger.path))
    assert entry.error is None and entry.log.canonical_json() == replay.log.canonical_json()
    again = GAME.judge(entry.log)
    assert again.to_json() == replay.to_json() and again.findings == [] and again.winners == ["p2"]
    data = json.loads(logger.path.read_text(encoding="utf-8"))
    assert data["hands"]["p1"] == [{"id": "a1", "text": "x"}, {"id": "a2", "text": "y"}]


def test_times_are_stamped_from_the_clock():
    now = [100.0]
    logger = PartyLogger(players=dict(NAMES), score_limit=1, clock=lambda: now[0])
    logger.deal({})
    now[0] = 102.5
    logger.join("p1")
    logger.join("p2", t=7)
    now[0] = 110.0
    replay = logger.end("not_enough_players")
    assert [e.t for e in replay.log.events] == [2500, 7] and replay.log.end.t == 10000


def test_illegal_actions_are_logged_as_they_happened():
    logger = new_logger()
    logger.deal(HANDS)
    logger.join("p1")
    logger.answer("p2", ["a1"])  # not in the game, and not its card
    replay = logger.end("cancelled")
    assert [f.kind for f in replay.findings] == ["not_in_game"]


def test_bad_input_is_refused_with_a_specific_error():
    with pytest.raises(LoggerInputError, match="'p 1' is not a seat name"):
        PartyLogger(players={"p 1": "Ann"}, score_limit=1)
    with pytest.raises(LoggerInputError, match="score_limit must be a positive whole number"):
        PartyLogger(players={"p1": "Ann"}, score_limit=0)
    logger = new_logger()
    with pytest.raises(LoggerStateError, match="call deal"):
        logger.join("p1")
    with pytest.raises(LoggerInputError, match="'p9' is not a seat of this game"):
        logger.deal({"p9": []})
    logger.deal(HANDS)
    with pytest.raises(LoggerInputError, match="is not a card"):
        logger.draw("p1", ["a9"])
    with pytest.raises(LoggerInputError, match="not a pick count"):
        logger.round("p1", ("q1", "Why?", 4))
    with pytest.raises(LoggerInputError, match="'' is not a card id"):
        logger.answer("p1", [""])
    with pytest.raises(LoggerInputError, match="unknown end reason 'abandoned'"):
        logger.end("abandoned")
    assert logger.to_dict()["events"] == []  # nothing was recorded by the refused calls
    logger.end("cancelled")
    with pytest.raises(LoggerStateError, match="the game has ended"):
        logger.join("p1")


def test_selfplay_saves_through_the_logger(tmp_path):
    log = GAME.selfplay(3, bots=("random",), out_dir=str(tmp_path), interrupt_rate=0.0, rounds=4)
    [path] = tmp_path.iterdir()
    [entry] = read_path(str(path))
    assert entry.log.canonical_json() == log.canonical_json()


def test_bad_bot_names_are_refused():
    with pytest.raises(ValueError, match="'clever' is not a bot"):
        play_game(1, bots=("clever",))
    with pytest.raises(ValueError, match="one bot name"):
        play_game(1, bots=("random", "random"))
