"""Browser tests for uploads, the games browser and triage (Playwright with Debian's Chromium).

Each test module starts its own viewer on loopback over a fresh SQLite archive, filled with
self-play games made here (greedy and random bots, a revoke), all public.
"""

from __future__ import annotations

import json

import pytest

from replay.log import parse_log
from tests.uploads.logs import XSS_NAME, as_bytes, clean_log, revoke_log, truncated, xss_log

from .conftest import Server

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def upload_server(tmp_path_factory):
    from viewer.app import create_app, get_archive

    db = tmp_path_factory.mktemp("uploads") / "archive.db"
    app = create_app({"DB": f"sqlite:///{db}", "UPLOAD_RATE_PER_MINUTE": 600, "UPLOAD_RATE_BURST": 100})
    with app.app_context():
        archive = get_archive()
        for seed in range(200, 204):
            archive.ingest_bytes(as_bytes(clean_log(seed)), f"greedy-{seed}.json")
        for seed in range(210, 213):
            archive.ingest_bytes(as_bytes(clean_log(seed, bot="random")), f"random-{seed}.json")
        archive.ingest_bytes(as_bytes(revoke_log(220)), "listed-revoke.json")
    server = Server(app)
    yield server
    server.close()


def _file(name: str, data: bytes) -> dict:
    return {"name": name, "mimeType": "application/json", "buffer": data}


def _upload(page, server, *files: dict) -> None:
    page.goto(server.url + "/upload")
    page.set_input_files("#upload-files", list(files))
    page.click("#upload-button")
    page.locator("#results > li").nth(len(files) - 1).wait_for()


def test_three_files_at_once(page, upload_server):
    clean = as_bytes(clean_log(230))
    revoke = revoke_log(231)
    _upload(page, upload_server, _file("clean.json", clean), _file("revoke.json", as_bytes(revoke)),
            _file("truncated.json", truncated(as_bytes(clean_log(232)))))
    rows = page.locator("#results > li")
    statuses = {rows.nth(i).locator(".file-name").inner_text(): rows.nth(i).get_attribute("data-status")
                for i in range(rows.count())}
    assert statuses == {"clean.json": "stored", "revoke.json": "stored_with_findings", "truncated.json": "refused"}
    refused = page.locator("#results > li[data-status=refused] .reason").inner_text()
    assert "not JSON" in refused
    assert page.locator("#results > li[data-status=stored] a.view-link").count() == 1
    assert page.locator("#results > li[data-status=stored] a.manage-link").count() == 1

    # the revoke's triage link opens at the revoke
    revoke_step = next(f.step for f in parse_log(revoke).replay().findings if f.kind == "revoke")
    page.locator("#results > li[data-status=stored_with_findings] a.triage-link").click()
    page.wait_for_selector("#finding-list")
    assert page.locator("#selected-step").inner_text() == str(revoke_step)
    first = page.locator("#finding-list li").first
    assert first.locator(".finding-kind").inner_text() == "revoke"
    state = json.loads(page.locator("#state-json").inner_text())
    assert state["i"] == revoke_step and state["findings"][0]["kind"] == "revoke"
    # ... and its finding opens the board at that step
    first.locator("a.board-link").click()
    page.wait_for_url(f"**#{revoke_step}")
    page.locator("#step-no", has_text=str(revoke_step)).wait_for()
    assert page.locator("#step-no").inner_text() == str(revoke_step)
    assert page.url.endswith(f"#{revoke_step}")
    assert page.errors == []


def test_games_browser_filters_by_bot_and_finding_kind(page, upload_server):
    page.goto(upload_server.url + "/games")
    total = int(page.locator("#games-total").inner_text())
    assert total >= 8
    page.fill("input[name=bot]", "random")
    page.click("#filter-button")
    page.wait_for_url("**/games?**bot=random**")
    assert page.locator("#games-total").inner_text() == "3"
    titles = page.locator("#games-table .player").evaluate_all("els => els.map(e => e.title)")
    assert titles and all(t.startswith("random") for t in titles)

    page.fill("input[name=bot]", "")
    page.select_option("#filter-finding", "revoke")
    page.click("#filter-button")
    page.wait_for_url("**finding_kind=revoke**")
    assert page.locator("#games-total").inner_text() == "1"
    assert "revoke" in page.locator("#games-table tbody tr").first.inner_text()
    page.locator("#games-table tbody tr a.badge").first.click()
    page.wait_for_selector("#finding-list")
    assert page.locator("#finding-list .finding-kind").first.inner_text() == "revoke"


def test_stats_charts_draw_with_plotly_from_the_app(page, upload_server):
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(upload_server.url + "/stats?by=bot")
    page.locator("#stats-charts-box").scroll_into_view_if_needed()  # the library loads when they are seen
    page.wait_for_selector("#stats-charts-box[data-drawn='1']")
    # every game's columns: games, findings, think time (a game's counted role only with ?game=)
    assert page.locator("#stats-charts-box .js-plotly-plot").count() == 3
    assert all(url.startswith(upload_server.url) for url in requests)  # no CDN
    assert [u for u in requests if "plotly" in u] and all("plotly-basic." in u for u in requests if "plotly" in u)
    assert page.errors == []


def test_xss_sample_uploads_and_no_dialog_opens(page, upload_server):
    log = xss_log(240)
    _upload(page, upload_server, _file("xss.json", as_bytes(log)))
    row = page.locator("#results > li").first
    assert row.get_attribute("data-status") == "stored"
    view = row.locator("a.view-link").get_attribute("href")
    manage = row.locator("a.manage-link").get_attribute("href")
    for path in (view + "/triage", manage, view):
        response = page.goto(upload_server.url + path)
        assert response.status == 200
        page.wait_for_load_state("load")
        page.wait_for_timeout(200)
        assert XSS_NAME in page.locator("body").inner_text(), path  # shown as text
    page.goto(upload_server.url + manage)
    page.click("#publish-button")
    page.wait_for_url("**/g/**")
    public = page.url
    assert XSS_NAME in page.locator("body").inner_text()
    for path in ("/games", "/games?player=" + "%3Cscript%3Ealert(1)%3C%2Fscript%3E", "/stats?by=player",
                 "/", public.replace(upload_server.url, "") + "/triage"):
        page.goto(upload_server.url + path)
        page.wait_for_load_state("load")
        page.wait_for_timeout(200)
    assert "alert(1)" in page.locator("body").inner_text()
    page.goto(upload_server.url + "/games?player=" + "%3Cscript%3Ealert(1)%3C%2Fscript%3E")
    assert page.locator("#games-total").inner_text() == "1"
    assert XSS_NAME in page.locator("#games-table").inner_text()
    assert page.dialogs == []
    assert not [e for e in page.errors if "alert" in e]


def test_drag_and_drop_uploads_the_dropped_files(page, upload_server):
    page.goto(upload_server.url + "/upload")
    payload = [("dropped-a.json", as_bytes(clean_log(250)).decode()), ("dropped-b.json", as_bytes(clean_log(251)).decode())]
    transfer = page.evaluate_handle("""(files) => {
        const dt = new DataTransfer();
        for (const [name, text] of files) dt.items.add(new File([text], name, {type: "application/json"}));
        return dt;
    }""", payload)
    page.dispatch_event("#drop-zone", "drop", {"dataTransfer": transfer})
    assert page.locator("#chosen li").count() == 2
    page.click("#upload-button")
    page.locator("#results > li").nth(1).wait_for()
    names = page.locator("#results .file-name").all_inner_texts()
    assert sorted(names) == ["dropped-a.json", "dropped-b.json"]
    assert page.locator("#results > li[data-status=stored]").count() == 2
