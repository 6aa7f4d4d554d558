"""Issue 25 item 4/5: a board is found through ``GameModule.board`` (a dotted package, default
``viewer.games.<name>``), and a game with no board package gets the viewer's generic board, so
any registered game has a page, a seat view, an embed and a JSON twin."""

from __future__ import annotations

import pytest

from replay.games import get


@pytest.fixture
def boardless(monkeypatch, tmp_path):
    """UNO Lite as if it declared a board package that is not installed: a game with no board."""
    from viewer import games
    from viewer.app import create_app

    monkeypatch.setattr(type(get("uno-lite")), "board", "no_such_package.board")
    monkeypatch.setattr(games, "_boards", {})
    app = create_app({"TESTING": True, "DB": f"sqlite:///{tmp_path / 'a.db'}"})
    yield app.test_client()
    games._boards.clear()


def _code() -> str:
    from replay.codec import encode

    return encode(get("uno-lite").selfplay(3, ("random", "greedy")))


def test_the_board_package_comes_from_the_game(monkeypatch):
    from viewer import games

    assert games.package_of("uno-lite") == "viewer.games.uno_lite"
    monkeypatch.setattr(type(get("uno-lite")), "board", "viewer.games.coup")
    assert games.package_of("uno-lite") == "viewer.games.coup"
    assert games.directory_of("uno-lite").name == "coup"


def test_a_game_without_a_board_gets_the_generic_board(boardless):
    from viewer.games import board_for

    board = board_for("uno-lite")
    assert board.game == "uno-lite" and board.charts(None) == []
    code = _code()
    page = boardless.get(f"/r/{code}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert 'id="generic-step"' in html and 'id="generic-record"' in html
    import re

    script = re.search(r'src="(/static/games/uno-lite/board\.[^"]+)"', html).group(1)
    assert "generic-step" in boardless.get(script).get_data(as_text=True)  # the generic script, as this game's
    seat = boardless.get(f"/r/{code}?view=P1")
    assert seat.status_code == 200
    assert boardless.get(f"/r/{code}.json").status_code == 200
    assert boardless.get(f"/embed/r/{code}").status_code == 200
