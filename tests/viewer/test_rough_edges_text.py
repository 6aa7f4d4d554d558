"""Issue 24's rough edges in server-made text: the triage page's events, repro line and finding
labels; names instead of seat ids in steps, views and charts; the Coup claims table as of the
step shown; the words a reader sees ("(true) TRUE", an empty party banner)."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest

from viewer.view import full_steps

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
    party = ingest(app, SAMPLE_LOGS / "party-cards" / "selfplay-random-31.json")  # worded from its fields
    coup = ingest(app, ROOT_LOG)  # worded by Coup's board
    events = {}
    for name, public_id in (("party", party), ("coup", coup)):
        html = client.get(f"/g/{public_id}/triage").get_data(as_text=True)
        events[name] = cells(html, "timeline", 4)
        assert events[name] and not any("None" in e for e in events[name]), events[name]
        rows = client.get(f"/g/{public_id}/triage.json").get_json()["timeline"]
        assert all(r["description"] and "None" not in r["description"] for r in rows)
    assert "join" in events["party"] and any(e.startswith("answer: cards ") for e in events["party"])
    assert any(e.startswith("draw: cards ") and "{" not in e for e in events["party"])  # a card's own text
    assert "coins: 2" in events["coup"] and "tax" in events["coup"]  # the Root's COINS line, ACT T
    assert "refused: ACT|2|C|1 (refused by the Root)" in events["coup"]
    assert any(re.fullmatch(r"(shows|loses) (Duke|Assassin|Ambassador|Captain|Contessa)", e) for e in events["coup"])


def test_coup_triage_has_times_and_think_times(app, client):
    public_id = ingest(app, COUP_SAMPLE)
    html = client.get(f"/g/{public_id}/triage").get_data(as_text=True)
    times, thinks = cells(html, "timeline", 1), cells(html, "timeline", 2)
    assert times and all(re.fullmatch(r"\d+:\d\d\.\d", t) for t in times), times
    assert sum(1 for t in thinks if re.fullmatch(r"\d+\.\d s", t)) >= len(thinks) - 2  # chat lines have none



def test_a_log_without_times_says_so_instead_of_empty_time_columns(app, client):
    """The broken Coup samples (what triage lists first) record no times: the columns read '—'
    and the page says why, where they were blank before; a timed log keeps its figures."""
    public_id = ingest(app, SAMPLE_LOGS / "coup" / "broken" / "out-of-turn.json")
    html = client.get(f"/g/{public_id}/triage").get_data(as_text=True)
    assert 'id="no-times"' in html
    times, thinks = cells(html, "timeline", 1), cells(html, "timeline", 2)
    assert times and set(times) == {"—"} and set(thinks) == {"—"}, (times, thinks)
    timed = client.get(f"/g/{ingest(app, COUP_SAMPLE)}/triage").get_data(as_text=True)
    assert 'id="no-times"' not in timed and "—" not in cells(timed, "timeline", 1)

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


# --- the replay pages' own words -----------------------------------------------------------------

def data_of(html: str) -> dict:
    """The page's embedded data with its steps whole again (they are sent as changes)."""
    data = json.loads(unescape(html.split('id="replay-data">', 1)[1].split("</script>", 1)[0]))
    data["steps"] = full_steps(data["steps"])
    return data


def counts_table(html: str) -> list[list[int]]:
    body = html.split('id="coup-counts"', 1)[1].split("</tbody>", 1)[0]
    return [[int(n) for n in re.findall(r"<td[^>]*>(\d+)</td>", row)] for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
            if "<td" in row]


def test_the_coup_claims_table_counts_only_up_to_the_step_it_shows(app, client):
    from replay.log import read_path

    replay = read_path(str(COUP_SAMPLE))[0].log.replay()
    public_id = ingest(app, COUP_SAMPLE)
    last = replay.step_count - 1
    for view in ("all", *replay.seats):
        steps = replay.steps_json(None if view == "all" else view)
        whole = counts_table(client.get(f"/g/{public_id}?view={view}&step={last}").get_data(as_text=True))
        assert any(any(row) for row in whole)
        start = client.get(f"/g/{public_id}?view={view}&step=0").get_data(as_text=True)
        assert counts_table(start) == [[0] * 5 for _ in replay.seats], view
        assert '"counts"' not in start  # the page carries no whole-game totals either
        middle = last // 2
        claims = sum(1 for s in steps[:middle + 1] if s["claim"])
        assert sum(row[0] for row in counts_table(
            client.get(f"/g/{public_id}?view={view}&step={middle}").get_data(as_text=True))) == claims


def test_pages_name_players_where_they_named_seats(app, client):
    coup_id = ingest(app, COUP_SAMPLE)
    uno_id = ingest(app, SAMPLE_LOGS / "uno-lite" / "batch" / "uno-night.jsonl")
    for public_id, seat_id in ((coup_id, r"\d"), (uno_id, r"P[12]")):
        html = client.get(f"/g/{public_id}?step=1").get_data(as_text=True)
        data = data_of(html)
        names = data["game"]["names"]
        assert all(names.values())
        words = unescape(re.search(r'<span id="step-words">(.*?)</span>', html).group(1))
        assert words.startswith(names[data["steps"][1]["s"]] + " ") and not re.match(seat_id + " ", words), words
        labels = [unescape(x) for x in re.findall(r'<option value="[^"]+"[^>]*>([^<]+)</option>', html.split('id="perspective"', 1)[1].split("</select>", 1)[0])]
        assert labels[1:] == [f"{names[s]}\u2019s view" for s in data["game"]["seats"]], labels
        assert all(not re.match(seat_id + "\u2019s view", label) for label in labels)
        final = client.get(f"/g/{public_id}").get_data(as_text=True)
        winners = data["game"]["winners"]
        assert f"{', '.join(names[w] for w in winners)} won" in unescape(final)


def test_coup_marks_a_true_claim_once(app, client):
    public_id = ingest(app, COUP_SAMPLE)
    html = client.get(f"/g/{public_id}").get_data(as_text=True)
    record = unescape(re.sub(r"<[^>]+>", "", html.split('id="coup-turns"', 1)[1].split("</table>", 1)[0]))
    assert "true claim" in record and "(true)" not in record and "(a bluff)" not in record


def test_a_name_is_written_as_it_is_whatever_it_holds():
    """Names take the seats' places in one pass: a name that looks like a stand-in for another
    seat, or like a regular expression's group, is written as it is."""
    from replay.games.coup.bots import play_game
    from replay.games.coup.replay import CoupReplay
    from viewer.games.coup.view import named_texts

    replay = CoupReplay.from_log(play_game(seed=7, bots=("honest", "bluffer", "random")))
    odd = {"1": "\x001\x00", "2": "\\g<0> $1", "3": "Cy"}
    texts = named_texts(replay, "all", odd)
    for step, words in zip(replay.steps_json(), texts):
        if step["seat"] in odd and step["kind"] != "deal":
            assert words["text"].startswith(odd[step["seat"]] + " "), (step["i"], words["text"])
    assert "\\g<0> $1 moves first" in texts[0]["text"]
