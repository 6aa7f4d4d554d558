"""The app factory, config, security headers, hashed static files and the serve command."""

from __future__ import annotations

import gzip
import re
import subprocess
import sys
import time
import urllib.request

from .conftest import code_of


def test_config_from_mapping_and_environment(monkeypatch, tmp_path):
    from viewer.app import BLUEPRINTS, create_app

    monkeypatch.setenv("GAME_REPLAY_DB", f"sqlite:///{tmp_path / 'env.db'}")
    monkeypatch.setenv("GAME_REPLAY_SITE_NAME", "Club replays")
    app = create_app()
    assert app.config["DB"] == f"sqlite:///{tmp_path / 'env.db'}"
    assert app.config["SITE_NAME"] == "Club replays"
    assert create_app({"DB": "sqlite://"}).config["DB"] == "sqlite://"
    assert len(app.extensions["viewer_blueprints"]) == len(BLUEPRINTS)
    assert set(app.extensions["viewer_blueprints"]) == set(app.blueprints) >= {"home", "replay", "embed", "static"}
    only_home = create_app({"DB": "sqlite://"}, blueprints=["viewer.blueprints.static:bp", "viewer.blueprints.home:bp"])
    assert "replay" not in only_home.blueprints


def test_csp_has_no_inline_script(client):
    response = client.get(f"/r/{code_of('seed3')}")
    csp = response.headers["Content-Security-Policy"]
    script_src = re.search(r"script-src ([^;]+)", csp).group(1)
    assert script_src.strip() == "'self'"
    html = response.get_data(as_text=True)
    for attrs in re.findall(r"<script([^>]*)>", html):
        assert 'type="application/json"' in attrs or "src=" in attrs, attrs
    assert not re.search(r"\son[a-z]+=", html), "inline event handler"
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_static_files_have_content_hashes_and_long_caching(client, app):
    html = client.get("/").get_data(as_text=True)
    css = re.search(r'href="(/static/viewer\.([0-9a-f]{10})\.css)"', html)
    assert css
    response = client.get(css.group(1))
    assert response.status_code == 200 and response.mimetype == "text/css"
    assert "immutable" in response.headers["Cache-Control"]
    import hashlib
    from viewer.assets import STATIC_DIR

    assert hashlib.sha256((STATIC_DIR / "viewer.css").read_bytes()).hexdigest()[:10] == css.group(2)
    stale = client.get("/static/viewer.0000000000.css")  # a page cached before a release
    assert stale.status_code == 200 and stale.get_data() == response.get_data()
    assert "immutable" not in stale.headers["Cache-Control"]
    assert client.get("/static/viewer.css").status_code == 404
    assert client.get("/static/nothing.0000000000.css").status_code == 404


def test_plotly_is_served_from_the_plotly_package(client, app):
    from viewer.assets import plotly_path

    url = app.extensions["assets"].url("plotly.min.js")
    assert re.fullmatch(r"/static/plotly\.[0-9a-f]{10}\.min\.js", url)
    response = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert response.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(response.get_data()) == plotly_path().read_bytes()
    from tests.conftest import ROOT

    copies = [p.relative_to(ROOT).as_posix() for folder in ("viewer", "docs", "bench") for p in (ROOT / folder).rglob("plotly*.js")]
    # the full plotly.js comes from the plotly package; the one copy is npm's basic dist bundle,
    # served beside its licence
    assert copies == ["viewer/static/plotly-basic.min.js"]
    head = (ROOT / copies[0]).read_text("utf-8")[:200]
    assert "plotly.js (basic - minified)" in head and "MIT" in head
    licence = client.get(app.extensions["assets"].url("plotly-basic.LICENSE.txt"))
    assert licence.status_code == 200 and b"Permission is hereby granted" in licence.get_data()


def test_charts_follow_the_engine():
    from viewer.games.floating_bridge.charts import build_charts

    from .conftest import load

    replay = load("seed3").replay()
    charts = {c["id"]: c for c in build_charts(replay)}
    race = charts["race"]["series"]
    declarer, defenders = race["declarer"], race["defenders"]
    assert declarer[-1] == replay.result.declarer_tricks and defenders[-1] == replay.result.defender_tricks
    assert sorted(race["targets"]) == sorted([replay.result.needed, replay.result.defenders_needed])
    decided = charts["race"]["decided"]
    assert defenders[decided] >= replay.result.defenders_needed or declarer[decided] >= replay.result.needed
    assert all(defenders[n] < replay.result.defenders_needed and declarer[n] < replay.result.needed
               for n in range(decided))
    assert charts["tricks"]["series"]["winners"] == [s.name for s in replay.trick_winners]
    times = charts["time"]["series"]
    assert times["steps"] == list(range(1, len(replay.steps)))
    assert all(y >= 0 for y in times["seconds"])
    from replay.codec import decode, encode

    assert "time" not in {c["id"] for c in build_charts(decode(encode(replay.log)).replay())}  # codes carry no times


def test_serve_fills_an_empty_archive_and_prints_its_url(tmp_path):
    db = f"sqlite:///{tmp_path / 'serve.db'}"
    process = subprocess.Popen([sys.executable, "-c", "from viewer.cli import main; main()", "serve",
                                "--db", db, "--port", "0"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        lines = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = process.stdout.readline()
            if not line:
                break
            lines.append(line)
            if "http://" in line:
                break
        url = re.search(r"http://[^/\s]+/", "".join(lines))
        assert url, "".join(lines)
        assert re.search(r"filled the empty archive with \d+ games", "".join(lines))
        html = urllib.request.urlopen(url.group(0), timeout=10).read().decode()
        assert 'href="/g/' in html
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_serve_rejects_a_bad_port(cli_runner):
    code, _, err = cli_runner("serve", "--port", "70000")
    assert code == 2 and "70000" in err


def test_behind_a_reverse_proxy_links_use_the_public_address(tmp_path):
    from viewer.app import create_app

    app = create_app({"DB": f"sqlite:///{tmp_path / 'p.db'}", "PROXY_FIX": 1})
    code = code_of("seed3")
    html = app.test_client().get(f"/r/{code}", headers={"X-Forwarded-Proto": "https", "X-Forwarded-Host": "replays.example"}).get_data(as_text=True)
    assert f'value="https://replays.example/r/{code}"' in html
    assert "url=https%3A%2F%2Freplays.example%2Fr%2F" in html


def test_cached_pages_do_not_leak_one_host_into_another(client):
    code = code_of("seed3")
    first = client.get(f"/r/{code}", headers={"Host": "evil.example"}).get_data(as_text=True)
    assert f'value="http://evil.example/r/{code}"' in first
    second = client.get(f"/r/{code}", headers={"Host": "replays.example"}).get_data(as_text=True)
    assert f'value="http://replays.example/r/{code}"' in second and "evil.example" not in second


def test_canonical_code_keeps_the_given_code_only_for_a_game_no_code_can_carry():
    import pytest

    from replay.games.floating_bridge.bots import play_game
    from replay.games.floating_bridge.rules import Rules
    from viewer.services.replay import canonical_code

    log = play_game(seed=3)
    assert canonical_code(log, "given") != "given"
    house = log.model_copy(update={"rules": Rules("house")})  # a preset code v1 cannot name
    assert canonical_code(house, "given") == "given"
    with pytest.raises(TypeError, match="takes a game's log or judged replay"):  # a bug, not "no code"
        canonical_code(log.to_json_dict(), "given")


def test_a_fact_is_shown_as_its_game_shows_it():
    """The viewer shows a fact through ``Fact.shown`` (a game's own symbols are the game's: the
    core keeps no contract filter)."""
    from replay.games import get
    from viewer.rows import shown_facts

    contract = get("floating-bridge").fact("contract")
    shown = shown_facts("floating-bridge", {"contract": "3S", "declarer": "N"}, {"N": {"name": "Ann"}})
    assert shown[0] == {"name": "contract", "label": "Contract", "value": "3S", "shown": contract.shown("3S")}
    assert shown[1]["shown"] == "Ann"  # a seat fact names its player


def test_the_old_page_count_setting_is_refused_with_its_replacement(monkeypatch, tmp_path):
    """GAME_REPLAY_PAGE_CACHE_SIZE counted pages; the cache is sized in bytes now, and a deployment
    that still sets the old name is told so at start instead of being silently ignored."""
    import pytest

    from viewer.app import create_app

    monkeypatch.setenv("GAME_REPLAY_PAGE_CACHE_SIZE", "512")
    with pytest.raises(ValueError, match="PAGE_CACHE_BYTES"):
        create_app({"DB": f"sqlite:///{tmp_path}/a.db"})
    monkeypatch.delenv("GAME_REPLAY_PAGE_CACHE_SIZE")
    create_app({"DB": f"sqlite:///{tmp_path}/a.db"})  # without the old name it starts
