"""Names survive sharing (issue 24, item 2): on UNO Lite, Coup and party-cards links the share
field, "Copy link", the embed code, and the link after switching the view keep ``?players=``
exactly, a name holding a comma included, on a desktop and on a phone."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from playwright.sync_api import expect

from .conftest import GAME_SAMPLES

SIZES = {"desktop": (1366, 900), "phone": (375, 812)}
GAMES = ("uno-lite", "coup", "party-cards")
#: two names in seat order, one holding a comma, one beyond ASCII
NAMES = ("Bo, Jr", "Łucja")
VALUE = ",".join(quote(name, safe="") for name in NAMES)


def code_for(game: str) -> str:
    """The sample's code with no names in it (party codes carry names: every seat unnamed)."""
    from replay.codec import encode
    from replay.log import Player, read_path

    log = read_path(str(GAME_SAMPLES[game]))[0].log
    return encode(log.model_copy(update={"players": {k: Player() for k in log.players}} if game == "party-cards" else {"players": {}}))


def wait_ready(page) -> None:
    page.locator("html.js-ready").wait_for(state="attached")


def copied(page) -> str:
    page.click("#copy-link")
    expect(page.locator("#copy-link")).to_have_text("Copied")
    text = page.evaluate("navigator.clipboard.readText()")
    page.wait_for_timeout(1600)  # the button reads "Copy link" again
    return text


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", GAMES)
def test_share_field_copy_link_and_embed_code_keep_the_names(chromium, viewer_server, game, size):
    width, height = SIZES[size]
    context = chromium.new_context(viewport={"width": width, "height": height})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=viewer_server.url)
    page = context.new_page()
    page.set_default_timeout(15000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    code = code_for(game)
    page_url = f"{viewer_server.url}/r/{code}?players={VALUE}"
    try:
        response = page.goto(page_url)
        assert response is not None and response.status == 200
        wait_ready(page)
        assert page.locator("#share-link").input_value() == page_url
        link = copied(page)
        assert link.startswith(page_url + "#"), link
        page.click("#embed-button")
        snippet = page.locator("#embed-code").input_value()
        assert snippet.startswith(f'<iframe src="{viewer_server.url}/embed/r/{code}?players={VALUE}"'), snippet
        # the names the page shows are the link's
        title = page.title()
        assert NAMES[0] in title and NAMES[1] in title, title
        # another seat's view (Coup's and party's: another page): the names go with it, byte for byte
        options = page.locator("#perspective option").evaluate_all("(os) => os.map((o) => o.value)")
        seat = next(value for value in options if value != "all")
        if game == "uno-lite":  # drawn in place
            page.select_option("#perspective", seat)
        else:
            with page.expect_navigation():
                page.select_option("#perspective", seat)
            wait_ready(page)
            assert f"players={VALUE}" in page.url and f"view={quote(seat, safe='')}" in page.url, page.url
        assert page.locator("#share-link").input_value() == page_url
        link = copied(page)
        assert link.startswith(page_url + "&view=" + quote(seat, safe="") + "#"), link
        assert NAMES[0] in page.title()
        assert not errors, errors
    finally:
        context.close()
