"""Past the archive's count cap, the games browser says "N+" and keeps offering the next page."""

import archive.store
from replay.games.floating_bridge.bots import play_game
from viewer.app import create_app, get_archive


def test_capped_totals_are_shown_as_lower_bounds(tmp_path, monkeypatch):
    for seed in range(7):
        (tmp_path / f"g{seed}.json").write_text(play_game(seed).canonical_json(), encoding="utf-8")
    app = create_app({"TESTING": True, "DB": f"sqlite:///{tmp_path / 'a.db'}"})
    with app.app_context():
        get_archive().ingest_paths([str(tmp_path)])
    client = app.test_client()
    exact = client.get("/games.json?rules=bridgebot&per_page=2").get_json()
    assert exact["total"] == 7 and exact["total_exact"] is True and exact["pages"] == 4

    monkeypatch.setattr(archive.store, "COUNT_CAP", 3)
    capped = client.get("/games.json?rules=bridgebot&per_page=2&page=2").get_json()
    assert capped["total_exact"] is False and capped["total"] == 3
    assert capped["next"] is not None  # more pages exist beyond the lower bound
    html = client.get("/games?rules=bridgebot&per_page=2&page=2").get_data(as_text=True)
    assert '<span id="games-total">3+</span>' in html
