"""Pictures, through the registry alone: what every game with a drawing must do (issue 27).

Each game's own tests check that its views hide what they must; these check what the core
promises for every game: the drawing is handed only the steps of the view asked for, up to the
step drawn (so a hidden card cannot reach it); a link with no step shows step 0 as an onlooker
sees it; every step and view draws a 1200x630 PNG, hostile names included; animations have one
frame per step that changed.
"""

from __future__ import annotations

import io

import pytest
from PIL import Image

from replay.games import get, names
from replay.picture import (PUBLIC, PictureError, animation, durations, picture, resolve_view, scene_at,
                            scenes, views)

DRAWN = [name for name in names() if get(name).has_drawing]
HOSTILE = ("<script>alert(1)</script>&amp;", "\u202egnp.exe" + "x" * 10_000, "李小龍 Ωμέγα Жанна ♠♥")


def test_every_builtin_game_has_a_drawing():
    assert {"floating-bridge", "uno-lite", "coup", "party-cards", "holdem"} <= set(DRAWN)


@pytest.fixture(scope="module", params=DRAWN)
def judged(request):
    game = get(request.param)
    return game.judge(game.selfplay(seed=11))


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    with Image.open(io.BytesIO(data)) as image:
        image.load()
        return image.size


def test_the_drawing_is_handed_only_its_views_steps_up_to_the_step(judged, monkeypatch):
    game = judged.game
    seen = []
    real = type(game).draw

    def recording(table, steps):
        seen.append((table, list(steps)))
        return real(game, table, steps)

    monkeypatch.setattr(game, "draw", recording)
    last = len(game.view_steps(judged, None)) - 1
    for view in views(judged):
        resolved = resolve_view(judged, view, 0)
        expected = game.view_steps(judged, resolved)
        for step in sorted({0, 1, last // 2, last}):
            seen.clear()
            scene_at(judged, step=step, view=view)
            [(table, steps)] = seen
            assert table.view == resolved
            assert steps == expected[:step + 1]


def test_a_link_without_a_step_shows_the_deal_as_an_onlooker_sees_it(judged):
    assert scene_at(judged) == scene_at(judged, step=0, view="public")
    assert resolve_view(judged, None) == PUBLIC


def test_every_view_of_the_first_a_middle_and_the_last_step_draws_a_preview_png(judged):
    last = len(judged.game.view_steps(judged, None)) - 1
    for view in views(judged):
        for step in sorted({0, last // 2, last}):
            assert png_size(picture(judged, step=step, view=view)) == (1200, 630)


def test_hostile_names_draw(judged):
    seats = judged.game.seat_order(judged.log)
    names_ = {seat: HOSTILE[n % len(HOSTILE)] for n, seat in enumerate(seats)}
    scene = scene_at(judged, step=0, view="all", names=names_)
    assert png_size(picture(judged, step=0, view="all", names=names_)) == (1200, 630)
    assert scene.width == 1200 and scene.height == 630


def test_a_gif_has_one_frame_per_step_that_changed(judged):
    frames = list(scenes(judged, 0, 8))
    distinct = 1 + sum(1 for a, b in zip(frames, frames[1:]) if a != b)
    data = animation(judged, 0, 8, format="gif")
    with Image.open(io.BytesIO(data)) as gif:
        assert gif.size == (720, 378)
        assert gif.n_frames == distinct
        times = []
        for n in range(gif.n_frames):
            gif.seek(n)
            times.append(gif.info["duration"])
    assert sum(times) == sum(durations(len(frames)))


def test_bad_steps_and_views_are_clear_errors(judged):
    last = len(judged.game.view_steps(judged, None)) - 1
    with pytest.raises(PictureError, match=f"no step {last + 1} in this game"):
        picture(judged, step=last + 1)
    with pytest.raises(PictureError, match="no view 'nobody'"):
        picture(judged, view="nobody")
    with pytest.raises(PictureError, match="runs forwards"):
        animation(judged, 3, 1)
    with pytest.raises(PictureError, match="gif or mp4"):
        animation(judged, format="webm")
