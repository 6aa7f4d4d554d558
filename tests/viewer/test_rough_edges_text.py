"""Issue 24's rough edges in server-made text: the triage page's events, repro line and finding
labels; names instead of seat ids in steps, views and charts; the Coup claims table as of the
step shown; the words a reader sees ("(true) TRUE", an empty party banner)."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest

from tests.conftest import SAMPLE_LOGS

ROOT_LOG = SAMPLE_LOGS / "coup" / "root" / "refusal-and-kick.log"
COUP_SAMPLE = SAMPLE_LOGS / "coup" / "selfplay" / "champ-3p_g11.json"


def ingest(app, path) -> str:
    from viewer.app import get_archive

    with app.app_context():
        return get_archive().ingest_paths([str(path)])[0].public_id


def cells(html: str, table_id: str, column: int) -> list[str]:
    """The text of one column of a table's body rows."""
    body = html.split(f'id="{table_id}"', 1)[1].split("</tbody>", 1)[0]
    out = []
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S):
        tds = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        if len(tds) > column:
            out.append(" ".join(unescape(re.sub(r"<[^>]+>", "", tds[column])).split()))
    return out


# --- triage ------------------------------------------------------------------------------------

def test_triage_events_are_described_from_their_fields_never_none(app, client):
    public_id = ingest(app, ROOT_LOG)
    html = client.get(f"/g/{public_id}/triage").get_data(as_text=True)
    events = cells(html, "timeline", 4)
    assert events and not any("None" in e for e in events), events
    assert "coins 2" in events  # the Root's COINS line: the count it carries
    assert any(e.startswith("action T") for e in events)
    assert "illegal: message ACT|2|C|1, reason refused by the Root" in events
    rows = client.get(f"/g/{public_id}/triage.json").get_json()["timeline"]
    assert all(r["description"] and "None" not in r["description"] for r in rows)


def test_coup_triage_has_times_and_think_times(app, client):
    public_id = ingest(app, COUP_SAMPLE)
    html = client.get(f"/g/{public_id}/triage").get_data(as_text=True)
    times, thinks = cells(html, "timeline", 1), cells(html, "timeline", 2)
    assert times and all(re.fullmatch(r"\d+:\d\d\.\d", t) for t in times), times
    assert sum(1 for t in thinks if re.fullmatch(r"\d+\.\d s", t)) >= len(thinks) - 2  # chat lines have none


def test_the_repro_line_names_the_site_it_was_read_on(app, client):
    public_id = ingest(app, COUP_SAMPLE)
    for base in ("http://localhost", "https://replays.example.org"):
        html = client.get(f"/g/{public_id}/triage", base_url=base).get_data(as_text=True)
        repro = unescape(html.split('id="repro">', 1)[1].split("</pre>", 1)[0])
        assert "<this site>" not in repro
        assert f"{base}/g/{public_id}/log.json" in repro.splitlines()[0]
        data = client.get(f"/g/{public_id}/triage.json", base_url=base).get_json()
        assert data["repro"]["download"].endswith(f"{base}/g/{public_id}/log.json")


def test_finding_badges_say_what_the_filter_says(app, client):
    public_id = ingest(app, ROOT_LOG)
    games = client.get("/games").get_data(as_text=True)
    options = dict(re.findall(r'<option value="(\w+)"[^>]*>([^<]+)</option>',
                              games.split('id="filter-finding"', 1)[1].split("</select>", 1)[0]))
    assert options["refused_message"] == "refused message"
    assert options["out_of_turn"] == "out of turn"
    badge = unescape(re.search(r'class="badge warn"[^>]*>([^<]+)</a>', games).group(1))
    kinds = badge.split(": ", 1)[1].split(", ")
    assert kinds and all(k in options.values() for k in kinds), (kinds, options)
    assert "refused message" in kinds and "refused_message" not in badge
    triage = client.get(f"/g/{public_id}/triage").get_data(as_text=True)
    shown = [unescape(k) for k in re.findall(r'<span class="finding-kind"[^>]*>([^<]+)</span>', triage)]
    assert shown and all(k in options.values() for k in shown), shown
    from viewer.games import finding_label  # the one wording, imported by both pages

    assert all(finding_label(k) == label for k, label in options.items())
