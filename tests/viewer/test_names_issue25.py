"""Issue 25 item 4 "Names", the cases the issue names: on a Coup and a party-cards code,
``?players=Alice,Bob``, an empty name (``honest-1,,random-3``, what ``replay_url(names=True)``
writes) and too many names answer a page, never a 500, on every way in."""

from __future__ import annotations

import pytest

from .test_names_every_game import HOST, nameless


@pytest.mark.parametrize("game", ["coup", "party-cards"])
@pytest.mark.parametrize("names", ["Alice,Bob", "honest-1,,random-3", ""])
def test_names_never_500(client, game, names):
    code, _ = nameless(game)
    for path in (f"/r/{code}", f"/r/{code}.json", f"/embed/r/{code}"):
        response = client.get(f"{path}?players={names}")
        assert response.status_code == 200, (path, names, response.status_code)
    answer = client.get("/oembed", query_string={"url": f"{HOST}/r/{code}?players={names}", "format": "json"})
    assert answer.status_code == 200
    if names == "Alice,Bob":
        assert "Alice" in client.get(f"/r/{code}?players={names}").get_data(as_text=True)


@pytest.mark.parametrize("game", ["coup", "party-cards"])
def test_too_many_names_is_a_400_with_a_reason(client, game):
    code, seats = nameless(game)
    many = ",".join(f"n{i}" for i in range(len(seats) + 1))
    for path in (f"/r/{code}", f"/r/{code}.json", f"/embed/r/{code}"):
        response = client.get(f"{path}?players={many}", headers={"Accept": "application/json"})
        assert response.status_code == 400, path
        assert "name" in response.get_data(as_text=True).lower()
    if game == "party-cards":
        assert client.get(f"/r/{code}/round/1.svg?players=Alice,Bob").status_code == 200
        assert client.get(f"/r/{code}/round/1.svg?players={many}").status_code == 400
