"""The leaderboard on ``/stats?game=...``, ``/stats.json`` and ``game-replay archive stats --game``:
rating, win rate with its 95% interval, zero-sum score, and each bot's rating history chart."""

from __future__ import annotations

import html as html_lib
import json
import math
import re

import pytest

from archive import Archive, ratings
from replay.games import get

BOTS = ("honest", "bluffer", "random")
GAMES = 60


def coup_logs(count: int = GAMES):
    coup = get("coup")
    out = []
    for seed in range(count):
        k = seed % 3
        out.append(coup.selfplay(seed, bots=BOTS[k:] + BOTS[:k], players=3))
    return out


def person_game():
    """A decided Coup game where seat 1 is a person with a hostile name."""
    log = get("coup").selfplay(1000, bots=BOTS, players=3)
    players = dict(log.players)
    players["1"] = players["1"].model_copy(update={"bot": None, "name": "<script>alert(1)</script>"})
    return log.model_copy(update={"players": players})


@pytest.fixture
def filled(app):
    from viewer.app import get_archive

    data = "\n".join(log.canonical_json() for log in [*coup_logs(), person_game()]).encode()
    with app.app_context():
        archive = get_archive()
        results = archive.ingest_bytes(data, "coup.jsonl")
        assert len(results) == GAMES + 1 and all(r.public_id for r in results)
        return archive.url


def test_stats_json_ranks_bots_by_rating(client, filled):
    body = client.get("/stats.json?game=coup").get_json()
    rows = body["rows"]
    assert [r["name"] for r in rows] == ["honest-1", "bluffer-1", "random-1"]
    assert [r["rank"] for r in rows] == [1, 2, 3]
    assert rows[0]["rating"] > rows[1]["rating"] > rows[2]["rating"]
    with Archive(filled) as archive:
        board = {r["name"]: r for r in ratings.leaderboard(archive.engine, "coup", "bot")}
    for r in rows:
        assert r["rating"] == board[r["name"]]["rating"] and r["score"] == board[r["name"]]["score"]
        low, high = r["win_rate_95"]
        assert 0 <= low < r["win_rate"] < high <= 1
        assert r["wins"] <= r["decided_games"] <= r["games"]
        assert math.isclose(r["rating"], r["mu"] - 3 * r["sigma"], abs_tol=1e-3)
    honest = rows[0]
    assert honest["decided_games"] == honest["rated_games"] == GAMES  # seat 1 of the last game is a person
    # every game here has its three seats' bots or the person; the bots alone are not zero-sum
    players = client.get("/stats.json?game=coup&by=player").get_json()["rows"]
    assert abs(sum(r["score"] for r in players)) < 1e-2
    assert "<script>alert(1)</script>" in {r["name"] for r in players}
    # without a game there is no leaderboard (ratings are per game)
    assert "rating" not in client.get("/stats.json").get_json()["rows"][0]


def test_stats_page_shows_rating_interval_and_score(client, filled):
    page = client.get("/stats?game=coup").get_data(as_text=True)
    rows = client.get("/stats.json?game=coup").get_json()["rows"]
    table = page[page.index('id="stats-table"'):page.index("</table>")]
    for r in rows:
        assert f"{r['rating']:.2f}" in table
        assert f"{r['win_rate'] * 100:.1f}% ({r['win_rate_95'][0] * 100:.1f}–{r['win_rate_95'][1] * 100:.1f}%)" in table
        assert f"{r['score']:+.2f}" in table
    names = re.findall(r'name=([^"&]+)&amp;game=coup">', table)
    assert names == [r["name"] for r in rows]  # in rank order
    charts = json.loads(html_lib.unescape(re.search(
        r'<script type="application/json" id="stats-charts">(.*?)</script>', page, re.S).group(1)))
    assert charts[0]["id"] == "rating"

    hostile = client.get("/stats?game=coup&by=player").get_data(as_text=True)
    assert "<script>alert(1)</script>" not in hostile
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in hostile


def test_rating_history_chart_per_bot(client, filled):
    page = client.get("/stats?by=bot&name=honest-1&game=coup").get_data(as_text=True)
    charts = json.loads(re.search(r'<script type="application/json" id="stats-charts">(.*?)</script>',
                                  page, re.S).group(1))
    chart = next(c for c in charts if c["id"] == "rating_history")
    (line,) = chart["data"]
    body = client.get("/stats.json?by=bot&name=honest-1&game=coup").get_json()
    (row,) = body["rows"]
    points = body["rating_history"]["coup"]
    assert len(points) == len(line["y"]) == row["rated_games"]
    assert line["x"] == list(range(1, row["rated_games"] + 1))
    assert line["y"][-1] == row["rating"]
    assert 'id="chart-rating_history"' in page
    # every game the bot has ratings in, one line each, without a game chosen
    assert set(client.get("/stats.json?by=bot&name=honest-1").get_json()["rating_history"]) == {"coup"}


def test_cli_leaderboard(cli_runner, filled):
    code, out, err = cli_runner("archive", "stats", "--db", filled, "--by", "bot", "--game", "coup", "--json")
    assert code == 0, err
    rows = json.loads(out)
    assert [r["name"] for r in rows] == ["honest-1", "bluffer-1", "random-1"]
    assert all({"rating", "win_rate_95", "score", "wins", "games"} <= set(r) for r in rows)
    code, out, err = cli_runner("archive", "stats", "--db", filled, "--by", "bot", "--game", "coup")
    assert code == 0, err
    for r in rows:
        line = next(line for line in out.splitlines() if r["name"] in line)
        low, high = r["win_rate_95"]
        for text in (f"{r['rating']:.2f}", f"({100 * low:.1f}-{100 * high:.1f}%)", f"{r['score']:+.2f}"):
            assert text in line
    code, out, err = cli_runner("archive", "stats", "--db", filled, "--game", "chess")
    assert code != 0 and "game must be one of" in err and "'chess'" in err
