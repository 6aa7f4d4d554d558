"""The triage timeline is paged: a long log makes pages of bounded size, and findings reach theirs."""

from __future__ import annotations

import re

import pytest

from replay.log import parse_log
from replay.games.floating_bridge.log import EVENT_LIMITS

TIMELINE_PAGE = 200  # events a timeline page shows (viewer.blueprints.triage.TIMELINE_PAGE)
from .logs import as_bytes, clean_log

ROW = re.compile(r'<tr id="event-(\d+)"')


def long_log(seed: int = 31) -> dict:
    """A played game with as many chat lines as a log may hold, and a wrong winner at the end.

    The chat comes first, so the game's events and its finding sit on later pages.
    """
    log = clean_log(seed)
    chats = [{"type": "chat", "seat": "NESW"[i % 4], "text": f"line {i} <b>not bold</b>"}
             for i in range(EVENT_LIMITS["chat"])]
    log["events"] = chats + log["events"]
    tricks = [e for e in log["events"] if e["type"] == "trick"]
    tricks[-1]["winner"] = "NESW"[("NESW".index(tricks[-1]["winner"]) + 1) % 4]
    log["game_id"] = f"long-{seed}"
    return log


@pytest.fixture
def stored(client, archive):
    log = long_log()
    [result] = archive.ingest_bytes(as_bytes(log), "long.json")
    assert result.status == "stored_with_findings"
    return log, f"/g/{result.public_id}"


def test_long_timeline_is_paged_and_bounded(client, stored):
    log, base = stored
    total = len(log["events"])
    pages = -(-total // TIMELINE_PAGE)
    assert total > TIMELINE_PAGE and pages >= 2
    first = client.get(f"{base}/triage?page=1")
    assert first.status_code == 200
    assert [int(n) for n in ROW.findall(first.text)] == list(range(TIMELINE_PAGE))
    # bounded: the page holds one page of rows, not the whole log
    assert len(first.data) < 200_000, len(first.data)
    assert f'href="{base}/triage?step=' in first.text and "&amp;page=2#timeline-title" in first.text
    assert 'rel="prev"' not in first.text
    last = client.get(f"{base}/triage?page={pages}")
    assert [int(n) for n in ROW.findall(last.text)] == list(range((pages - 1) * TIMELINE_PAGE, total))
    assert 'rel="prev"' in last.text and 'rel="next"' not in last.text
    assert "&lt;b&gt;not bold&lt;/b&gt;" in first.text and "<b>not bold" not in first.text
    data = client.get(f"{base}/triage.json?page=2").json
    assert [row["event"] for row in data["timeline"]] == list(range(TIMELINE_PAGE, min(total, 2 * TIMELINE_PAGE)))
    assert data["timeline_page"] == {
        "page": 2, "pages": pages, "per_page": TIMELINE_PAGE, "events": total,
        "first_event": TIMELINE_PAGE, "last_event": min(total, 2 * TIMELINE_PAGE) - 1,
        "previous_url": f"{base}/triage?step={data['selected']}&page=1#timeline-title",
        "next_url": None if pages == 2 else f"{base}/triage?step={data['selected']}&page=3#timeline-title",
    }


def test_finding_links_reach_their_events_page(client, stored):
    log, base = stored
    replay = parse_log(log).replay()
    [finding] = replay.findings
    assert finding.event >= TIMELINE_PAGE  # the finding is not on the first page
    page_of_event = finding.event // TIMELINE_PAGE + 1
    # the default page is the one holding the selected finding's event
    data = client.get(f"{base}/triage.json").json
    assert data["timeline_page"]["page"] == page_of_event
    assert finding.event in [row["event"] for row in data["timeline"]]
    # links from any page lead to the finding's page and row
    [item] = client.get(f"{base}/triage.json?page=1&step=0").json["findings"]
    assert item["page"] == page_of_event
    assert item["event_url"] == f"{base}/triage?step={finding.step}&page={page_of_event}#event-{finding.event}"
    assert item["select_url"] == f"{base}/triage?step={finding.step}&page={page_of_event}#state"
    followed = client.get(item["event_url"].split("#")[0])
    assert f'id="event-{finding.event}"' in followed.text
    assert item["event_url"].replace("&", "&amp;") in client.get(f"{base}/triage?page=1").text
    # a step picked from the state form (no page) opens the page of its event
    step_of_late_event = replay.event_steps[TIMELINE_PAGE + 5]
    picked = client.get(f"{base}/triage.json?step={step_of_late_event}").json
    assert picked["timeline_page"]["page"] == 2


@pytest.mark.parametrize("page", ["0", "99", "x", "-1", "1" * 10])
def test_bad_page_is_a_400(client, stored, page):
    _, base = stored
    response = client.get(f"{base}/triage?page={page}")
    assert response.status_code == 400
    assert "page" in response.text


def test_short_game_has_one_page_and_no_pager(client, archive):
    [result] = archive.ingest_bytes(as_bytes(clean_log(5)), "short.json")
    page = client.get(f"/g/{result.public_id}/triage")
    assert page.status_code == 200 and "timeline-pager" not in page.text
    data = client.get(f"/g/{result.public_id}/triage.json").json
    assert data["timeline_page"]["pages"] == 1 and data["timeline_page"]["next_url"] is None
