"""A bot logs Nim with ``GameLogger(game="nim")`` and shares its replay link."""

from __future__ import annotations

from replay.logger import GameLogger


def test_game_logger_hands_out_the_game_logger(tmp_path):
    logger = GameLogger(game="nim", game_id="room-5/1", players={"P1": "Ann", "P2": "nimbot"}, out_dir=tmp_path,
                        clock=None)
    assert type(logger).__name__ == "NimLogger"
    logger.setup([2, 3], first_player="P1")
    logger.take("P1", heap=1, count=1, t=500)
    logger.take("P2", heap=0, count=2, t=900)
    logger.take("P1", heap=1, count=2, t=1500)
    replay = logger.end("completed", winner="P1", t=1600)
    assert replay.findings == [] and replay.winners == ["P1"]
    assert logger.path is not None and logger.path.parent == tmp_path
    link = logger.link("https://replay.example")
    assert link.startswith("https://replay.example/r/a") and "players=Ann,nimbot" in link


def test_the_link_opens_the_same_game():
    from replay.codec import decode

    logger = GameLogger(game="nim", players={"P1": "Ann", "P2": "Bo"}, clock=None)
    logger.setup([1, 1], first_player="P2")
    logger.take("P2", 0, 1)
    logger.take("P1", 1, 1)
    logger.end("completed", winner="P1")
    code = logger.link("https://x.example", names=False).rsplit("/", 1)[1]
    again = decode(code)
    assert again.heaps == [1, 1] and again.first_player == "P2" and len(again.events) == 2
