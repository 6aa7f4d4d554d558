import json
import os
import threading

import pytest

from replay.games.floating_bridge.bots import play_game
from replay.games.floating_bridge.engine import Game
from replay.log import parse_log
from replay.logger import GameLogger, LoggerStateError, save_log


def play_through_logger(out_dir=None, **kwargs) -> GameLogger:
    """Replay a self-play game's actions through a fresh GameLogger, as a bot would."""
    source = play_game(4, bot="greedy").to_json_dict()
    logger = GameLogger(game_id="chat-42/2026-11-21/7", players={"N": "Alice", "E": {"name": "greedy", "bot": "greedy-1"}},
                        out_dir=out_dir, clock=None, **kwargs)
    logger.deal(source["hands"], source["first_bidder"])
    for e in source["events"]:
        if e["type"] == "bid":
            logger.bid(e["seat"], e["bid"], t=e["t"])
        elif e["type"] == "partner":
            logger.partner(e["seat"], e["card"], t=e["t"])
        elif e["type"] == "play":
            logger.play(e["seat"], e["card"], t=e["t"])
        elif e["type"] == "trick":
            logger.trick(e["winner"], t=e["t"])
    logger.chat("gg", seat="W")
    return logger


def test_logger_records_a_game_and_returns_its_replay(tmp_path):
    logger = play_through_logger(out_dir=tmp_path)
    replay = logger.end("completed")
    assert replay.findings == [] and replay.result.winner is not None
    assert logger.path.parent == tmp_path and logger.path.name == "chat-42_2026-11-21_7.json"
    saved = parse_log(logger.path.read_bytes())
    assert saved.canonical_json() == replay.log.canonical_json()
    assert saved.players[saved.first_bidder.__class__.N].name == "Alice"
    assert saved.events[-1].type == "chat" and saved.end.reason == "completed"


def test_logger_keeps_illegal_actions_for_the_engine_to_judge():
    game = Game.new_random(seed=8)
    logger = GameLogger(clock=None)
    logger.deal(game.deal, game.first_bidder)
    wrong = game.first_bidder.next
    logger.bid(wrong, "1S")
    replay = logger.end("cancelled")
    assert [f.kind for f in replay.findings] == ["out_of_turn"]


def test_logger_refuses_misuse_with_clear_errors():
    logger = GameLogger(clock=None)
    with pytest.raises(LoggerStateError, match="call deal"):
        logger.bid("N", "1S")
    game = Game.new_random(seed=2)
    logger.deal(game.deal, game.first_bidder)
    with pytest.raises(LoggerStateError, match="unknown end reason"):
        logger.end("exploded")
    logger.end("abandoned")
    with pytest.raises(LoggerStateError, match="has ended"):
        logger.play("N", "SA")


def test_name_clash_gets_a_suffix_and_never_overwrites(tmp_path):
    log = play_game(1)
    first = save_log(log, tmp_path)
    second = save_log(log, tmp_path)
    assert first != second and second.name.endswith("-2.json")
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([first.name, second.name])


def test_unsafe_game_ids_make_safe_file_names(tmp_path):
    data = play_game(1).to_json_dict()
    data["game_id"] = "../../etc/passwd"
    path = save_log(parse_log(data), tmp_path)
    assert path.parent == tmp_path and ".." not in path.name and "/" not in path.name


def test_no_half_written_file_is_ever_visible(tmp_path):
    logs = [play_game(seed) for seed in range(60)]
    seen_bad = []
    done = threading.Event()

    def reader():
        while not done.is_set():
            for name in os.listdir(tmp_path):
                if name.startswith("."):
                    continue  # temporary files are hidden
                try:
                    json.loads((tmp_path / name).read_bytes())
                except (ValueError, FileNotFoundError) as exc:
                    seen_bad.append((name, exc))

    thread = threading.Thread(target=reader)
    thread.start()
    try:
        for log in logs:
            save_log(log, tmp_path)
    finally:
        done.set()
        thread.join()
    assert seen_bad == []
    assert len([n for n in os.listdir(tmp_path) if not n.startswith(".")]) == 60
    assert not [n for n in os.listdir(tmp_path) if n.startswith(".")]
