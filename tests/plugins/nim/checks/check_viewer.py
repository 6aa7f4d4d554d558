"""The viewer shows Nim with no board of its own: the generic board draws any registered game.
Its replay page, a seat's view, the embed, the listing, the stats and the archived game's page."""

from __future__ import annotations

import re

import pytest

from .conftest import CLEAN

BRIDGE_WORDS = re.compile(r"\b(declarer|contract|tricks?|revoke|double.dummy)\b", re.IGNORECASE)


@pytest.fixture
def app(tmp_path):
    from viewer.app import create_app

    return create_app({"TESTING": True, "DB": f"sqlite:///{tmp_path / 'archive.db'}"})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def archived(app, logs) -> dict[str, str]:
    """game_id -> public id of the clean samples, in the app's archive."""
    from viewer.app import get_archive

    with app.app_context():
        results = get_archive().ingest_paths([str(p) for p in CLEAN])
    return {log.game_id: r.public_id for r, log in zip(results, logs.values())}


@pytest.fixture
def code(logs) -> str:
    from replay.codec import encode

    return encode(next(iter(logs.values())))


def page(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, (url, response.status_code, response.get_data(as_text=True)[:600])
    return response.get_data(as_text=True)


def test_replay_page(client, code, logs):
    html = page(client, f"/r/{code}")
    assert "Nim" in html and "takes" in html
    assert not BRIDGE_WORDS.search(html), BRIDGE_WORDS.search(html)


def test_replay_page_with_names(client, code):
    html = page(client, f"/r/{code}?players=Ann,Bo")
    assert "Ann" in html and "Bo" in html


def test_a_seat_view(client, code):
    page(client, f"/r/{code}?view=P1")


def test_a_wrong_seat_view_is_not_a_500(client, code):
    assert client.get(f"/r/{code}?view=N").status_code in (200, 400, 404)


def test_embed(client, code):
    assert "Nim" in page(client, f"/embed/r/{code}")


def test_archived_game_page(client, archived):
    html = page(client, f"/g/{next(iter(archived.values()))}")
    assert "Nim" in html


def test_listing_shows_its_facts(client, archived):
    html = page(client, "/games?game=nim")
    for public_id in archived.values():
        assert public_id in html
    assert "Moves" in html and "Winner" in html
    assert not BRIDGE_WORDS.search(html), BRIDGE_WORDS.search(html)


def test_listing_filters_by_its_fact(client, archived, logs):
    """``heaps`` and ``moves`` (not ``winner``: that name is also the neutral filter of a
    winning player's name, see ``archive.filters``)."""
    html = page(client, "/games?game=nim&moves=7")
    for log in logs.values():
        assert (archived[log.game_id] in html) == (len(log.events) == 7)
    html = page(client, "/games?game=nim&heaps=5+7")
    for log in logs.values():
        assert (archived[log.game_id] in html) == (log.heaps == [5, 7])


def test_stats(client, archived):
    html = page(client, "/stats?game=nim")
    assert "greedy" in html
    assert not BRIDGE_WORDS.search(html), BRIDGE_WORDS.search(html)
