"""The analysis JSON routes (``/g/<id>/analysis.json``, ``/r/<code>/analysis.json``), the page
without analysis data, and the mistakes on ``/stats``."""

from __future__ import annotations

import json
import re

import pytest

from replay.codec import encode
from replay.games import get
from replay.games.floating_bridge import FloatingBridge
from tests.conftest import SAMPLE_LOGS
from tests.games.floating_bridge.blunder import blunder_game


@pytest.fixture
def solver_calls(monkeypatch):
    calls = []
    real = FloatingBridge.analyse

    def counted(self, replay):
        calls.append(1)
        return real(self, replay)

    monkeypatch.setattr(FloatingBridge, "analyse", counted)
    return calls


@pytest.fixture
def blunder(app):
    from viewer.app import get_archive

    game = blunder_game()
    data = dict(game.data)
    data["players"] = {**data["players"], "E": {"name": "<script>alert(1)</script>", "bot": "greedy-1"}}
    game.data = data
    with app.app_context():
        [result] = get_archive().ingest_bytes(game.bytes(), "blunder.json")
    game.public_id = result.public_id
    return game


def test_the_route_gives_marks_mistakes_and_chart_once_solved(client, blunder, solver_calls):
    response = client.get(f"/g/{blunder.public_id}/analysis.json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    assert response.headers["Cache-Control"] == "public, max-age=300"
    data = response.get_json()
    [duck] = [c for c in data["cards"] if c["step"] == blunder.step]
    assert (duck["seat"], duck["card"], duck["loss"], duck["mark"]) == ("E", blunder.card, 1, "-1")
    assert duck["text"] == "East's ♥7 costs a trick; ♥A held it"
    assert duck["values"][blunder.ace] == duck["before"] and duck["best"] == [blunder.ace]
    assert all(c["mark"] == "=" for c in data["cards"] if not c["loss"])
    assert blunder.step in data["chart"]["series"]["mistakes"]
    assert f'data-step="{blunder.step}"' in data["chart"]["svg"]
    assert data["complete"] is True and data["analysed_to"] == data["last_step"]
    # the players' names are not part of the analysis at all (nothing there to escape)
    assert "script" not in response.get_data(as_text=True)
    assert len(solver_calls) == 1
    # asked again, and from the game's code: the stored analysis, not the solver
    assert client.get(f"/g/{blunder.public_id}/analysis.json").get_json() == data
    code = encode(get("floating-bridge").parse(blunder.data))
    by_code = client.get(f"/r/{code}/analysis.json")
    assert by_code.status_code == 200 and by_code.get_json() == data
    assert "immutable" in by_code.headers["Cache-Control"]
    assert len(solver_calls) == 1


def test_the_page_itself_holds_no_analysis(client, blunder, solver_calls):
    html = client.get(f"/g/{blunder.public_id}").get_data(as_text=True)
    assert f'data-src="/g/{blunder.public_id}/analysis.json"' in html
    assert re.search(r'<section[^>]*id="analysis-box"[^>]*hidden', html)
    for marker in ("costs a trick", "held it", '"values"', "dd-loss", "Makeable tricks"):
        assert marker not in html
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html  # the name is there, escaped
    assert solver_calls == []


def test_games_without_analysis_and_bad_input(client, app):
    from viewer.app import get_archive

    with app.app_context():
        [uno] = get_archive().ingest_paths([str(SAMPLE_LOGS / "uno-lite" / "batch" / "uno-night.jsonl")])[:1]
    response = client.get(f"/g/{uno.public_id}/analysis.json")
    assert response.status_code == 404
    assert "UNO Lite games have no analysis" in response.get_data(as_text=True)
    assert client.get("/g/nosuchgame/analysis.json").status_code == 404
    assert client.get("/r/not-a-code!/analysis.json").status_code == 400


def test_an_unfinished_auction_has_no_cards_and_says_why(client, app):
    from replay.games.floating_bridge.bots import play_game
    from viewer.app import get_archive

    log = play_game(seed=1)
    unfinished = log.model_copy(update={"events": [e for e in log.events if e.type == "bid"][:2], "end": None})
    with app.app_context():
        [result] = get_archive().ingest_bytes(unfinished.canonical_json().encode(), "unfinished.json")
    data = client.get(f"/g/{result.public_id}/analysis.json").get_json()
    assert data["cards"] == [] and data["chart"] is None and data["analysed_to"] is None
    assert data["note"] == "No analysis: there was no contract, so no play."


def test_stats_show_tricks_lost_over_analysed_games(client, app, blunder):
    from viewer.app import get_archive

    assert client.get(f"/g/{blunder.public_id}/analysis.json").status_code == 200  # analysed on view
    rows = {r["name"]: r for r in client.get("/stats.json?by=bot").get_json()["rows"]}
    with app.app_context():
        kept = get_archive().analysis_stats("bot", listed_only=True)
    assert rows["greedy-1"]["analysed_games"] == 1
    assert rows["greedy-1"]["lost"] == kept["greedy-1"]["lost"] > 0
    html = client.get("/stats?by=bot").get_data(as_text=True)
    assert "over 1 analysed" in html and "Lost / analysed game" in html
    # the hostile name is a player name: escaped on the per-player page
    html = client.get("/stats?by=player").get_data(as_text=True)
    assert "<script>alert(1)</script>" not in html and "&lt;script&gt;" in html
    json.loads(client.get("/stats.json?by=player").get_data(as_text=True))


def test_solving_new_games_is_rate_limited_reading_stored_ones_is_not(tmp_path):
    from replay.games.floating_bridge.bots import play_game
    from viewer.app import create_app

    app = create_app({"TESTING": True, "DB": f"sqlite:///{tmp_path / 'a.db'}",
                      "ANALYSIS_RATE_PER_MINUTE": 1, "ANALYSIS_RATE_BURST": 1})
    client = app.test_client()
    first, second = (encode(play_game(seed)) for seed in (7, 11))
    assert client.get(f"/r/{first}/analysis.json").status_code == 200
    refused = client.get(f"/r/{second}/analysis.json")
    assert refused.status_code == 429 and "analyses of new games" in refused.get_json()["error"]
    assert int(refused.headers["Retry-After"]) >= 1
    for _ in range(3):  # the stored one is read, never refused
        assert client.get(f"/r/{first}/analysis.json").status_code == 200


# --- review fixes: uploads, the solve cap, revalidation, the version in the ETag ----------------

def _code_of(data):
    return encode(get("floating-bridge").parse(data))


def test_an_upload_page_gets_its_analysis_privately(client, app, solver_calls):
    from viewer.app import get_archive
    from viewer.services.upload import uploads

    game = blunder_game()
    with app.app_context():
        [outcome] = uploads().ingest(game.bytes(), "mine.json")
        public_id = uploads().by_token(outcome.token).public_id
    html = client.get(f"/u/{outcome.token}").get_data(as_text=True)
    assert f'data-src="/u/{outcome.token}/analysis.json"' in html
    response = client.get(f"/u/{outcome.token}/analysis.json")
    assert response.status_code == 200, response.get_data(as_text=True)
    assert response.headers["Cache-Control"] == "private, no-store"
    assert response.headers["X-Robots-Tag"] == "noindex"
    [duck] = [c for c in response.get_json()["cards"] if c["step"] == game.step]
    assert (duck["card"], duck["loss"]) == (game.card, 1)
    # linked to the uploaded game's row: counted for everyone's stats, not the public ones
    with app.app_context():
        assert get_archive().analysis_stats("bot")["greedy-1"]["analysed_games"] == 1
        assert get_archive().analysis_stats("bot", listed_only=True) == {}
    # the unlisted game's analysis is not served under its public id, and a wrong token is a 404
    assert client.get(f"/g/{public_id}/analysis.json").status_code == 404
    assert client.get("/u/" + "x" * 43 + "/analysis.json").status_code == 404
    assert len(solver_calls) == 1


def test_a_revalidation_is_answered_before_solving(client, app, solver_calls):
    from sqlalchemy import delete

    from archive.models import StoredAnalysis
    from viewer.app import get_archive

    url = f"/r/{_code_of(blunder_game().data)}/analysis.json"
    first = client.get(url)
    assert first.status_code == 200 and first.headers["ETag"].startswith('W/"')
    assert len(solver_calls) == 1
    with app.app_context():  # the stored analysis is gone (say, dropped by an admin)
        with get_archive().engine.begin() as conn:
            conn.execute(delete(StoredAnalysis))
    again = client.get(url, headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.headers["ETag"] == first.headers["ETag"]
    assert len(solver_calls) == 1  # the client's copy stands: nothing solved


def test_a_new_analyser_version_changes_the_etag(client, solver_calls, monkeypatch):
    url = f"/r/{_code_of(blunder_game().data)}/analysis.json"
    first = client.get(url)
    assert first.status_code == 200
    monkeypatch.setattr(FloatingBridge, "analysis_version", property(lambda self: "test-2"))
    again = client.get(url, headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 200 and again.headers["ETag"] != first.headers["ETag"]
    assert len(solver_calls) == 2


def test_solves_are_capped_and_one_game_is_solved_once(app, monkeypatch):
    import threading

    from replay.games.floating_bridge.bots import play_game

    app.config["ANALYSIS_MAX_CONCURRENT"] = 1
    started, release = threading.Event(), threading.Event()
    calls = []
    real = FloatingBridge.analyse

    def slow(self, replay):
        calls.append(1)
        started.set()
        assert release.wait(60), "the test never released the solver"
        return real(self, replay)

    monkeypatch.setattr(FloatingBridge, "analyse", slow)
    busy = f"/r/{_code_of(blunder_game().data)}/analysis.json"
    other = f"/r/{encode(play_game(13))}/analysis.json"
    answers = {}

    def ask(name):
        answers[name] = app.test_client().get(busy)

    first = threading.Thread(target=ask, args=("first",))
    first.start()
    assert started.wait(60)
    second = threading.Thread(target=ask, args=("second",))  # the same game: waits for that solve
    second.start()
    refused = app.test_client().get(other)  # another game while the one slot is taken
    assert refused.status_code == 503
    assert refused.headers["Retry-After"] == "10" and refused.headers["Cache-Control"] == "no-store"
    assert "solving as many games as it can" in refused.get_json()["error"]
    release.set()
    first.join(60)
    second.join(60)
    assert answers["first"].status_code == answers["second"].status_code == 200
    assert answers["first"].get_json() == answers["second"].get_json()
    assert len(calls) == 1  # one solve for the two requests
    assert app.test_client().get(other).status_code == 200 and len(calls) == 2
