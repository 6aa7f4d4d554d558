"""The share box's "picture" link (issue 27): beside "Copy link", it points at the PNG of the
step and view on screen, and follows them as the reader steps and switches the view."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from .conftest import games_with_boards


def drawn_games() -> list[str]:
    from replay.games import get

    return [name for name in games_with_boards() if get(name).has_drawing]


def asked(href: str) -> dict[str, list[str]]:
    """The step and view a link asks for (the names a link may carry aside)."""
    found = parse_qs(urlsplit(href).query)
    found.pop("players", None)
    return found


def wait_ready(page) -> None:
    page.locator("html.js-ready").wait_for(state="attached")


@pytest.mark.parametrize("game", drawn_games())
def test_the_picture_link_sits_beside_copy_link_and_follows_the_step_and_view(page, viewer_server, game):
    path = f"/g/{viewer_server.games[game]}"
    response = page.goto(f"{viewer_server.url}{path}#2")
    assert response is not None and response.status == 200
    wait_ready(page)
    link = page.locator("#picture-link")
    assert link.is_visible()
    # beside "Copy link": the next control in the share row
    assert page.evaluate("document.getElementById('copy-link').nextElementSibling.id") == "picture-link"
    href = link.get_attribute("href")
    assert urlsplit(href).path == f"{path}/picture.png"
    assert asked(href) == {"step": ["2"]}

    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert page.locator("#step-no").text_content() == "4"
    assert asked(link.get_attribute("href")) == {"step": ["4"]}
    page.keyboard.press("Home")
    assert asked(link.get_attribute("href")) == {"step": ["0"]}

    seats = [o for o in page.locator("#perspective option").evaluate_all("os => os.map(o => o.value)") if o != "all"]
    page.select_option("#perspective", seats[-1])
    assert asked(link.get_attribute("href")) == {"step": ["0"], "view": [seats[-1]]}
    page.keyboard.press("End")
    last = page.locator("#step-no").text_content()
    href = link.get_attribute("href")
    assert asked(href) == {"step": [last], "view": [seats[-1]]}

    picture = page.request.get(viewer_server.url + href)
    assert picture.status == 200 and picture.headers["content-type"] == "image/png"
    assert picture.body()[:8] == b"\x89PNG\r\n\x1a\n"
    assert page.errors == []
