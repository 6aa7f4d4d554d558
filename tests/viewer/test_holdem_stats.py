"""``/stats?game=holdem`` shows the figures poker players read first (VPIP, PFR, showdowns won,
bb/100 with its 95% interval) per bot, from the game's declared seat figures; names stay text."""

from __future__ import annotations

import json

from replay.games.holdem.bots import play_game


def _fill(app, tmp_path, hands: int = 12) -> None:
    from viewer.app import get_archive

    folder = tmp_path / "hands"
    folder.mkdir()
    for seed in range(hands):
        log = play_game(seed, bots=("tag", "call", "random"), players=6)
        data = log.to_json_dict()
        if seed == 0:  # a hostile player name
            data["players"]["p1"]["name"] = '<img src=x onerror="alert(1)">'
        (folder / f"{seed}.json").write_text(json.dumps(data), encoding="utf-8")
    with app.app_context():
        results = get_archive().ingest_paths([str(folder)])
    assert [r.status for r in results] == ["stored"] * hands


def test_the_stats_page_shows_the_seat_figures(app, client, tmp_path):
    _fill(app, tmp_path)
    data = client.get("/stats.json?game=holdem&by=bot").get_json()
    assert [f["name"] for f in data["seat_figures"]] == ["vpip", "pfr", "showdown_wins", "bb_per_100"]
    rows = {r["name"]: r for r in data["rows"]}
    assert set(rows) == {"tag-1", "call-1", "random-1"}
    assert rows["call-1"]["figures"]["pfr"]["value"] == 0.0
    assert rows["tag-1"]["figures"]["pfr"]["value"] > 0
    assert rows["tag-1"]["figures"]["vpip"]["n"] == 24  # two seats a hand, 12 hands
    page = client.get("/stats?game=holdem&by=bot").get_data(as_text=True)
    for label in ("VPIP", "PFR", "Showdowns won", "bb/100 (95%)"):
        assert label in page
    bb = rows["tag-1"]["figures"]["bb_per_100"]
    assert f"{bb['value']:+.2f} ± {bb['interval']:.2f} bb/100" in page
    players = client.get("/stats?game=holdem&by=player").get_data(as_text=True)
    assert '<img src=x' not in players
    assert "&lt;img src=x onerror=&#34;alert(1)&#34;&gt;" in players  # Jinja's escaping


def test_games_without_seat_figures_show_none(app, client, tmp_path):
    _fill(app, tmp_path, hands=2)
    data = client.get("/stats.json?game=coup").get_json()
    assert "seat_figures" not in data
