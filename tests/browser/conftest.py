"""Browser tests: Playwright driving Debian's Chromium against a real viewer on loopback.

The viewer runs in a thread (werkzeug, 127.0.0.1, a free port) over a real SQLite archive
filled with sample games. A second server on another port plays "someone's blog" (another
origin) for the embed test.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from tests.conftest import SAMPLE_LOGS, skip_or_fail

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
SAMPLES = {
    "seed3": SAMPLE_LOGS / "selfplay" / "family-bridge_2026-05-30_1.json",
    "all_tricks": SAMPLE_LOGS / "selfplay" / "kopi-bridge_2026-05-20_1.json",
    "revoke": SAMPLE_LOGS / "broken" / "revoke.json",
    "script": SAMPLE_LOGS / "broken" / "script-player-name.json",
    "worked": SAMPLE_LOGS / "legacy" / "worked-example.txt",
}
#: one sample game per registered game, for the tests every board must pass (test_phone.py):
#: a game is tested once its board exists (viewer/games/<game>/)
GAME_SAMPLES = {
    "floating-bridge": SAMPLE_LOGS / "selfplay" / "family-bridge_2026-05-30_1.json",
    "uno-lite": SAMPLE_LOGS / "uno-lite" / "batch" / "uno-night.jsonl",
    "coup": SAMPLE_LOGS / "coup" / "selfplay" / "champ-3p_g11.json",
    "party-cards": SAMPLE_LOGS / "party-cards" / "selfplay-random-31.json",
    "holdem": SAMPLE_LOGS / "holdem" / "nine-handed-side-pots.phh",
}


def games_with_boards() -> list[str]:
    """The games of GAME_SAMPLES that this viewer has a board for."""
    from viewer.games import directory_of

    return [name for name in GAME_SAMPLES if (directory_of(name) / "__init__.py").is_file()]


LEGACY_WORKED_EXAMPLE = "0DzHzIMzzN-y-mfJFZNDnrCzxwvbKMXWIlqeTGVgmABOYHdyjPohiaELQRScpkUsut"

pytestmark = pytest.mark.browser


class Server:
    """A WSGI app served from a thread on 127.0.0.1 (port chosen by the system)."""

    def __init__(self, app):
        from werkzeug.serving import make_server

        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture(scope="session")
def viewer_server(tmp_path_factory):
    from viewer.app import create_app, get_archive

    db = tmp_path_factory.mktemp("viewer") / "archive.db"
    app = create_app({"DB": f"sqlite:///{db}"})
    ids = {}
    with app.app_context():
        archive = get_archive()
        for name, path in SAMPLES.items():
            ids[name] = archive.ingest_paths([str(path)])[0].public_id
        games = {name: archive.ingest_paths([str(GAME_SAMPLES[name])])[0].public_id for name in games_with_boards()}
    server = Server(app)
    server.ids = ids
    server.games = games  # game name -> public id of its sample
    server.app = app
    yield server
    server.close()


@pytest.fixture(scope="session")
def chromium():
    if not Path(CHROMIUM).exists():
        skip_or_fail(f"{CHROMIUM} is missing (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(chromium):
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15000)
    page.errors = []
    page.dialogs = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.on("console", lambda msg: page.errors.append(msg.text) if msg.type == "error" else None)

    def on_dialog(dialog):
        page.dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", on_dialog)
    yield page
    context.close()


def log_of(name: str):
    from replay.log import read_path

    return read_path(str(SAMPLES[name]))[0].log


def code_of(name: str) -> str:
    from replay.codec import encode

    return encode(log_of(name))
