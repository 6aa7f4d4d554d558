"""Odd parameters and headers that once produced 500s: each is now a 4xx or a normal page."""

import json

import pytest

from replay.games.floating_bridge.bots import play_game
from replay.codec import encode
from viewer.app import create_app, get_archive


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile")
    (folder / "g.json").write_text(play_game(2).canonical_json(), encoding="utf-8")
    app = create_app({"TESTING": True, "DB": f"sqlite:///{folder / 'a.db'}"})
    with app.app_context():
        [result] = get_archive().ingest_paths([str(folder / "g.json")])
    return app, result.public_id, encode(play_game(2))


@pytest.mark.parametrize("path", [
    "/g/{id}?step=²", "/r/{code}?step=²", "/embed/g/{id}?step=²", "/embed/r/{code}?step=²",
    "/g/{id}/triage?step=²", "/g/{id}/triage.json?step=²",
    "/games?page=²", "/games.json?per_page=²", "/api/games?page=²",
    "/oembed?url=http://localhost/g/{id}&maxwidth=²", "/oembed?url=http://localhost/g/{id}&maxheight=0",
    "/oembed?url=http%3A%2F%2F%5B%3A%3A1", "/oembed?url=http://[bad]/g/x",
    "/games?to=9999-12-31", "/games.json?to=9999-12-31", "/api/games?to=9999-12-31",
])
def test_odd_parameters_are_never_a_500(site, path):
    app, public_id, code = site
    response = app.test_client().get(path.format(id=public_id, code=code))
    assert response.status_code < 500, (path, response.status_code)


def test_last_day_filter_still_finds_games(site):
    app, _, _ = site
    data = app.test_client().get("/games.json?to=9999-12-31").get_json()
    assert data["total"] == 1


def test_malformed_origin_is_refused_not_a_crash(site):
    app, _, _ = site
    body = play_game(5).canonical_json()
    response = app.test_client().post("/api/logs", data=body, content_type="application/json",
                                      headers={"Origin": "http://[::1"})
    assert response.status_code == 403
    assert "another site" in json.loads(response.data)["error"]


@pytest.mark.parametrize("path", ["/api/games/{id}", "/g/{id}", "/g/{id}.json", "/api/games/{id}/triage?step=0",
                                  "/embed/g/{id}", "/g/{id}/triage"])
def test_ids_of_numbers_past_64_bits_are_404_not_a_database_overflow(site, path):
    app, _, _ = site
    with app.app_context():
        huge = get_archive().ids._hashids.encode(2**70)  # a well-formed id no row can have
    assert app.test_client().get(path.format(id=huge)).status_code == 404
