"""Issue 25, item 4 "Rows from the game": the home page, the listing, stats and triage show each
game through its own hooks (``replay.games.get(name)``: seats, facts, counted role, analysis),
never floating bridge's columns and words for another game."""

from __future__ import annotations

import re
from html import unescape

import pytest

from tests.conftest import SAMPLE_LOGS

COUP = SAMPLE_LOGS / "coup" / "selfplay" / "champ-3p_g11.json"
UNO = SAMPLE_LOGS / "uno-lite" / "selfplay" / "uno-reshuffle_32.json"
PARTY = SAMPLE_LOGS / "party-cards" / "selfplay-random-31.json"
BRIDGE = SAMPLE_LOGS / "selfplay" / "family-bridge_2026-05-30_1.json"
BRIDGE_WORDS = ("contract", "declarer", "trick", "double dummy", "double-dummy", "bridge")


def text(html: str) -> str:
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


@pytest.fixture
def mixed(app) -> dict[str, str]:
    """One game of each kind in the archive: game -> public id."""
    from viewer.app import get_archive

    with app.app_context():
        results = get_archive().ingest_paths([str(p) for p in (COUP, UNO, PARTY, BRIDGE)])
    return dict(zip(("coup", "uno-lite", "party-cards", "floating-bridge"), (r.public_id for r in results)))


@pytest.fixture
def others_only(app) -> dict[str, str]:
    """An archive of games that are not bridge."""
    from viewer.app import get_archive

    with app.app_context():
        results = get_archive().ingest_paths([str(p) for p in (COUP, UNO, PARTY)])
    return dict(zip(("coup", "uno-lite", "party-cards"), (r.public_id for r in results)))


def test_home_rows_use_each_games_seats_and_players_names(client, mixed):
    recent = {g["id"]: g for g in client.get("/index.json").json["recent"]}
    coup = recent[mixed["coup"]]
    assert coup["game"] == "coup"
    assert [seat for seat, _ in coup["players"]] == ["1", "2", "3"]
    assert [name for _, name in coup["players"]] == ["honest-1", "bluffer-2", "random-3"]
    uno = recent[mixed["uno-lite"]]
    assert [seat for seat, _ in uno["players"]] == ["P1", "P2"] and all(name for _, name in uno["players"])
    bridge = recent[mixed["floating-bridge"]]
    assert [seat for seat, _ in bridge["players"]] == ["N", "E", "S", "W"]
    assert bridge["facts"]["contract"]
    assert "contract" not in coup["facts"] and coup["facts"]["turns"] > 0


def test_home_page_names_no_one_game_and_shows_each_games_facts(client, others_only):
    html = client.get("/").get_data(as_text=True)
    words = text(html)
    heading = re.search(r"<h1>(.*?)</h1>", html).group(1)
    assert heading == "Replay a game"  # not "Replay a floating bridge game"
    assert "Coup" in text(html[html.index("</h1>"):html.index("<form")])  # every game named alike
    assert "no contract" not in words and "N —" not in words
    assert "honest-1" in words and "bluffer-2" in words
    assert re.search(r"Turns:? \d+", words)  # Coup's and UNO Lite's own fact
    assert "Coup" in words and "UNO Lite" in words


def test_listing_of_coup_has_coups_columns_and_filters(client, mixed):
    html = client.get("/games?game=coup").get_data(as_text=True)
    form = html[html.index('<form class="filters"'):html.index("</form>")]
    head = html[html.index("<thead>"):html.index("</thead>")]
    for word in ("Contract", "contract", "declarer", "Result", "revoke"):
        assert word not in form + head, word
    assert ">Turns<" in head and ">Winner<" in head
    assert 'name="turns"' in form
    row = html[html.index('<tr data-id="%s"' % mixed["coup"]):]
    row = row[:row.index("</tr>")]
    assert "honest-1" in row and "—" not in text(row).split("Turns")[0][:0]
    listed = client.get("/games.json?game=coup").json["games"][0]
    assert "contract" not in listed and listed["facts"]["turns"] > 0
    assert listed["seats"] == ["1", "2", "3"]


def test_listing_filters_by_a_games_own_fact(client, mixed):
    turns = client.get("/games.json?game=coup").json["games"][0]["facts"]["turns"]
    found = client.get(f"/games.json?game=coup&turns={turns}").json
    assert [g["id"] for g in found["games"]] == [mixed["coup"]]
    assert client.get(f"/games.json?game=coup&turns={turns + 1}").json["total"] == 0
    bad = client.get("/games.json?game=coup&turns=many")
    assert bad.status_code == 400 and "turns" in bad.json["error"]


def test_bridge_listing_keeps_its_own_columns(client, mixed):
    html = client.get("/games?game=floating-bridge").get_data(as_text=True)
    head = html[html.index("<thead>"):html.index("</thead>")]
    assert ">Contract<" in head and ">Declarer<" in head
    assert 'name="contract"' in html


@pytest.mark.parametrize("game", ["coup", "uno-lite", "party-cards"])
def test_stats_of_a_game_without_a_counted_role_or_analysis_say_nothing_of_bridge(client, others_only, game):
    html = client.get(f"/stats?game={game}&by=player").get_data(as_text=True)
    words = text(html).lower()
    for word in ("declarer", "tricks lost", "double-dummy", "double dummy"):
        assert word not in words, word
    assert '"declarer_success_rate"' not in html and "Declarer success" not in html
    rows = client.get(f"/stats.json?game={game}&by=player").json["rows"]
    assert rows and all("declarer_games" not in r and "role_games" not in r for r in rows)
    assert all(set(r) >= {"games", "wins", "findings", "think_ms_median"} for r in rows)


def test_stats_of_bridge_label_its_counted_role(client, mixed):
    html = client.get("/stats?game=floating-bridge&by=player").get_data(as_text=True)
    assert "as declarer" in html
    rows = client.get("/stats.json?game=floating-bridge&by=player").json["rows"]
    assert sum(r["role_games"] for r in rows) == 1


def test_triage_event_column_has_no_none(client, others_only):
    for game, public_id in others_only.items():
        html = client.get(f"/g/{public_id}/triage").get_data(as_text=True)
        assert re.search(r"\b(action|illegal|coins|play|draw) None\b", text(html)) is None, game


def test_game_pages_headings_name_the_game(client, others_only):
    for game, public_id in others_only.items():
        html = client.get(f"/g/{public_id}").get_data(as_text=True)
        assert "floating bridge" not in text(html).lower(), game


def test_the_listing_never_takes_the_listed_filter(client, mixed):
    """The filter spec has ``listed`` (the CLI's); the web lists listed games only, whatever asks."""
    every = client.get("/games.json").json["total"]
    assert client.get("/games.json?listed=false").json["total"] == every
    assert 'name="listed"' not in client.get("/games").get_data(as_text=True)
