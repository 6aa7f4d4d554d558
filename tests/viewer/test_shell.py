"""The generic replay shell: boards found by convention, their templates and hashed scripts, and
the chapter data the stepper's up/down keys read."""

from __future__ import annotations

import re

import pytest
from jinja2 import TemplateNotFound

from .conftest import code_of, load
from .test_pages import data_block


def test_boards_are_found_from_the_registry_name():
    from viewer.games import NoBoardError, board_for, package_of

    board = board_for("floating-bridge")
    assert board.game == "floating-bridge" and package_of("floating-bridge") == "viewer.games.floating_bridge"
    assert board.template_name == "games/floating-bridge/board.html"
    with pytest.raises(NoBoardError, match="'chess' is not a registered game"):
        board_for("chess")
    with pytest.raises(NoBoardError, match="not a game name"):
        board_for("../templates")


def test_game_templates_resolve_into_the_game_folder_and_nowhere_else(app):
    env = app.jinja_env
    template = env.get_template("games/floating-bridge/board.html")
    assert template.filename.endswith("viewer/games/floating_bridge/templates/board.html")
    for name in ("games/floating-bridge/../__init__.py", "games/floating-bridge/../../app.py",
                 "games/chess/board.html", "games/../templates/base.html"):
        with pytest.raises(TemplateNotFound):
            env.get_template(name)


def test_board_scripts_are_content_hashed_assets(app, client):
    assets = app.extensions["assets"]
    url = assets.url("games/floating-bridge/board.js")
    assert re.fullmatch(r"/static/games/floating-bridge/board\.[0-9a-f]{10}\.js", url)
    response = client.get(url)
    assert response.status_code == 200 and b"viewer.register(" in response.get_data()
    assert "immutable" in response.headers["Cache-Control"]


def test_page_loads_the_stepper_then_the_board_and_no_inline_script(client):
    html = client.get(f"/r/{code_of('seed3')}").get_data(as_text=True)
    sources = re.findall(r'<script src="([^"]+)"', html)
    assert [re.sub(r"\.[0-9a-f]{10}\.", ".", s) for s in sources] == [
        "/static/boot.js", "/static/stepper.js", "/static/games/floating-bridge/board.js", "/static/charts.js"]
    for tag in re.findall(r"<script\b[^>]*>", html):  # CSP: only scripts by URL or JSON data
        assert "src=" in tag or 'type="application/json"' in tag, tag
    assert 'data-go="prev-chapter"' in html and 'title="Next trick (↓)"' in html
    assert 'class="page-replay game-floating-bridge"' in html


def test_bridge_chapters_are_tricks():
    replay = load("seed3").replay()
    from viewer.view import ViewedGame, build_view

    data = build_view(ViewedGame(replay))["data"]
    ends = [s.index for s in replay.steps if s.trick_winner is not None]
    first_play = next(s.index for s in replay.steps if s.kind == "play")
    assert data["chapters"] == {"ends": ends, "before": first_play - 1}
    assert data["board"] == "floating-bridge"


def test_a_perspective_the_game_does_not_offer_shows_all_hands(client):
    code = code_of("seed3")
    html = client.get(f"/r/{code}?step=0&view=P1").get_data(as_text=True)
    assert "cards hidden" not in html and data_block(html)["initial"]["perspective"] == "all"
    long = client.get(f"/r/{code}?view=" + "N" * 50)
    assert long.status_code == 200 and data_block(long.get_data(as_text=True))["initial"]["perspective"] == "all"


def test_bridge_pages_offer_bridge_exports_only_for_bridge(client):
    code = code_of("seed3")
    html = client.get(f"/r/{code}").get_data(as_text=True)
    assert f"/r/{code}.pbn" in html and f"/r/{code}.lin" in html
