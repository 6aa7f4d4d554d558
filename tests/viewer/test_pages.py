"""Replay pages, their JSON twins, errors, home page and legacy links (Flask test client)."""

from __future__ import annotations

import gzip
import json
import re
from urllib.parse import quote

from replay.games.floating_bridge.cards import SEATS, Card

from viewer.view import full_steps

from .conftest import LEGACY_WORKED_EXAMPLE, code_of, load


def data_block(html: str, element_id: str = "replay-data"):
    """A page's JSON block; the replay's with its steps whole, as stepper.js rebuilds them."""
    found = re.search(rf'<script type="application/json" id="{element_id}">(.*?)</script>', html, re.S)
    assert found, f"no {element_id} block"
    data = json.loads(found.group(1))
    if element_id == "replay-data":
        data["steps"] = full_steps(data["steps"])
    return data


def test_code_page_shows_the_final_position_and_tables(client):
    log = load("seed3")
    replay = log.replay()
    response = client.get(f"/r/{code_of('seed3')}")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    # banner: contract, declarer, partner card, targets
    assert "1♠" in html and "South" in html
    assert f"{replay.result.needed} <span class=\"muted\">vs</span> {replay.result.defenders_needed}" in html
    # no-JS fallback: the final step's text, every call and every trick with its winner
    assert replay.final.text in html
    assert html.count('class="call') >= len(replay.calls)
    winners = re.findall(r'<td class="winner">([NESW])</td>', html)
    assert winners == [s.name for s in replay.trick_winners]
    # per-seat trick counts of the final position
    counts = dict(re.findall(r'<b data-count="([NESW])">(\d+)</b>', html))
    assert counts == {s.name: str(replay.final.tricks_won[s]) for s in SEATS}


def test_every_call_and_card_links_to_its_step(client):
    replay = load("seed3").replay()
    html = client.get(f"/r/{code_of('seed3')}").get_data(as_text=True)
    for step in replay.steps[1:]:
        if step.kind == "play":
            symbol = Card(step.action).symbol
            cell = re.search(rf'<a href="#{step.index}" data-step="{step.index}" class="card[^"]*"[^>]*>'
                             rf'<span class="sym">{symbol[0]}</span>{symbol[1:]}', html)
            assert cell, f"card of step {step.index} ({step.text}) is not a link to its step"
        else:
            assert f'data-step="{step.index}"' in html


def test_embedded_steps_match_the_engine(client):
    replay = load("seed3").replay()
    html = client.get(f"/r/{code_of('seed3')}").get_data(as_text=True)
    data = data_block(html)
    assert len(data["steps"]) == len(replay.steps)
    for step, shown in zip(replay.steps, data["steps"]):
        assert shown["tw"] == list(step.tricks_won)
        assert shown["ds"] == step.declarer_side_tricks and shown["df"] == step.defender_tricks
        assert shown["x"] == step.text
    assert data["game"]["partner_seat"] == (replay.partner_seat.name if replay.partner_seat is not None else None)


def test_json_twins(client, archived):
    code = code_of("seed3")
    from replay.codec import decode

    replay = decode(code).replay()
    body = client.get(f"/r/{code}.json").get_json()
    assert body["replay"] == json.loads(json.dumps(replay.to_json()))
    assert body["replay"]["trick_winners"] == [s.name for s in load("seed3").replay().trick_winners]
    assert len(body["steps"]) == len(replay.steps) and body["code"] == code
    game = client.get(f"/g/{archived['revoke']}.json").get_json()
    assert game["id"] == archived["revoke"]
    assert [f["kind"] for f in game["replay"]["findings"]] == ["revoke"]
    assert game["names"]["S"] == "Ясмина"


def test_names_from_the_link_are_escaped(client):
    evil = "<script>alert(1)</script>"
    response = client.get(f"/r/{code_of('seed3')}?players={quote(evil, safe='')},Bob")
    html = response.get_data(as_text=True)
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert data_block(html)["game"]["names"]["N"] == evil  # JSON block keeps the text, safely
    assert "Bob" in html


def test_archived_page_with_names_times_and_findings(client, archived):
    response = client.get(f"/g/{archived['revoke']}")
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert "Priya S" in html and "Ясмина" in html
    assert "East plays ♥2 but holds spades, the suit led: a revoke" in html
    assert 'class="card has-finding' in html or "has-finding" in html
    assert 'href="#16" data-step="16"' in html  # the finding links to its step


def test_archived_script_name_is_text(client, archived):
    html = client.get(f"/g/{archived['script']}").get_data(as_text=True)
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_bad_code_is_400_with_reason_and_paste_box(client):
    response = client.get("/r/not-a-code!!")
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert "not a replay code" in html
    assert 'name="code"' in html and 'action="/"' in html
    assert response.headers["Cache-Control"] == "no-store"
    body = client.get("/r/not-a-code!!.json").get_json()
    assert client.get("/r/not-a-code!!.json").status_code == 400
    assert "not a replay code" in body["error"]


def test_unknown_game_is_404_with_paste_box(client, archived):
    response = client.get("/g/zzzzzzzz")
    assert response.status_code == 404
    html = response.get_data(as_text=True)
    assert "no archived game with id" in html and 'name="code"' in html
    assert client.get("/g/zzzzzzzz.json").status_code == 404
    assert client.get("/nowhere").status_code == 404


def test_home_lists_recent_games_and_opens_pasted_codes(client, archived):
    html = client.get("/").get_data(as_text=True)
    assert 'name="code"' in html
    for public_id in archived.values():
        assert f'href="/g/{public_id}"' in html
    code = code_of("seed3")
    for pasted in (code, f"#{code}", f"https://elsewhere.example/r/{code}"):
        response = client.get("/", query_string={"code": pasted})
        assert response.status_code == 303
        assert response.headers["Location"] == f"/r/{code}"
    with_names = client.get("/", query_string={"code": f"https://x.example/r/{code}?players=Ann,Bo"})
    assert with_names.headers["Location"] == f"/r/{code}?players=Ann,Bo"
    game = client.get("/", query_string={"code": f"https://x.example/g/{archived['seed3']}"})
    assert game.headers["Location"] == f"/g/{archived['seed3']}"


def test_bad_paste_is_400_on_the_home_page(client):
    response = client.get("/", query_string={"code": "hello world"})
    assert response.status_code == 400
    html = response.get_data(as_text=True)
    assert "not a replay code" in html and 'value="hello world"' in html


def test_legacy_links_open_the_same_game(client):
    from replay.codec import encode

    worked = load("worked")
    for pasted in (LEGACY_WORKED_EXAMPLE, f"https://old.example/#{LEGACY_WORKED_EXAMPLE}"):
        response = client.get("/", query_string={"code": pasted})
        assert response.status_code == 303
        target = response.headers["Location"]
        assert target == f"/r/{encode(worked)}"
    # a legacy code sent straight to /r/ moves to this server's code for the same game
    moved = client.get(f"/r/{LEGACY_WORKED_EXAMPLE}")
    assert moved.status_code == 301 and moved.headers["Location"] == f"/r/{encode(worked)}"
    page = client.get(moved.headers["Location"]).get_data(as_text=True)
    assert "3♠" in page and "North" in page


def test_perspective_reveal_and_theme(client):
    code = code_of("seed3")
    replay = load("seed3").replay()
    all_hands = client.get(f"/r/{code}?step=0").get_data(as_text=True)
    assert "cards hidden" not in all_hands
    north = client.get(f"/r/{code}?step=0&view=N").get_data(as_text=True)
    assert north.count("13 cards hidden") == 3
    # partner hidden until the partner card falls (never, in this game), unless revealed
    assert replay.partner_seat is not None and not replay.final.partner_revealed
    hidden = client.get(f"/r/{code}").get_data(as_text=True)
    assert 'class="role partner"' not in hidden and 'id="count-decl">?<' in hidden
    shown = client.get(f"/r/{code}?reveal=1").get_data(as_text=True)
    assert shown.count('class="role partner"') == 1
    assert f'id="count-decl">{replay.final.declarer_side_tricks}<' in shown
    assert 'data-theme="dark"' in client.get(f"/r/{code}?theme=dark").get_data(as_text=True)
    assert 'data-theme="auto"' in client.get(f"/r/{code}?theme=%22%3E").get_data(as_text=True)


def test_code_pages_are_cacheable_with_etag(client):
    code = code_of("seed3")
    first = client.get(f"/r/{code}")
    # bridge has deals (issue 29): the page's "Other tables" panel changes as tables of its deal
    # are stored, so it revalidates like an archived game's page instead of being immutable
    # (a game without deals keeps "immutable": tests/viewer/test_deal_pages.py)
    assert first.headers["Cache-Control"] == "public, max-age=300"
    etag = first.headers["ETag"]
    again = client.get(f"/r/{code}", headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.get_data() == b""
    other = client.get(f"/r/{code}?theme=dark")
    assert other.headers["ETag"] != etag


def test_pages_are_gzipped_when_accepted(client):
    code = code_of("seed3")
    plain = client.get(f"/r/{code}")
    zipped = client.get(f"/r/{code}", headers={"Accept-Encoding": "gzip, br"})
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(zipped.get_data()) == plain.get_data()
    assert "Accept-Encoding" in zipped.headers["Vary"]


def test_log_download(client, archived):
    code = code_of("seed3")
    response = client.get(f"/r/{code}/log.json")
    assert response.headers["Content-Disposition"].startswith("attachment")
    from replay.codec import decode

    assert json.loads(response.get_data()) == decode(code).to_json_dict()
    raw = client.get(f"/g/{archived['revoke']}/log.json")
    from tests.viewer.conftest import SAMPLES

    assert raw.get_data() == SAMPLES["revoke"].read_bytes()


def test_pbn_and_lin_exports(client, archived):
    from replay.games.floating_bridge.formats.lin import to_lin
    from replay.games.floating_bridge.formats.pbn import to_pbn

    code = code_of("seed3")
    html = client.get(f"/r/{code}").get_data(as_text=True)
    assert f'href="/r/{code}.pbn"' in html and f'href="/r/{code}.lin"' in html
    from replay.codec import decode

    pbn = client.get(f"/r/{code}.pbn")
    assert pbn.status_code == 200 and pbn.headers["Content-Disposition"] == f'attachment; filename="{code}.pbn"'
    assert pbn.get_data(as_text=True) == to_pbn(decode(code))
    lin = client.get(f"/g/{archived['revoke']}.lin")
    assert lin.status_code == 200 and lin.get_data(as_text=True) == to_lin(load("revoke"))
    named = client.get(f"/r/{code}.pbn?players=Ann,Bo").get_data(as_text=True)
    assert '[North "Ann"]' in named and '[East "Bo"]' in named
    assert client.get("/r/bad!!.pbn").status_code == 400


def test_archived_pages_have_etags_and_a_deleted_game_is_gone_at_once(client, app, archived):
    path = f"/g/{archived['seed3']}"
    first = client.get(path)
    assert first.headers["Cache-Control"] == "public, max-age=300"
    assert client.get(path, headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    assert client.get(path).get_data() == first.get_data()  # served from memory

    # the game leaves the archive (as a deleted upload does): its page is gone at once
    from sqlalchemy import text

    from viewer.app import get_archive

    with app.app_context():
        archive = get_archive()
        row = archive.ids.decode(archived["seed3"])
        with archive.engine.begin() as conn:
            for table in ("game_players", "game_findings"):
                conn.execute(text(f"DELETE FROM {table} WHERE game_id = :id"), {"id": row})
            conn.execute(text("DELETE FROM games WHERE id = :id"), {"id": row})
    assert client.get(path).status_code == 404
    assert client.get(path, headers={"If-None-Match": first.headers["ETag"]}).status_code == 404


def test_every_sample_game_renders(client, app):
    """Passed out, cancelled mid-auction, findings, legacy, all-tricks: every page answers 200."""
    from replay.codec import encode

    from tests.conftest import SAMPLE_LOGS
    from viewer.app import get_archive

    with app.app_context():
        results = get_archive().ingest_paths([str(SAMPLE_LOGS)])
    ids = {r.public_id for r in results if r.public_id}
    assert len(ids) > 40
    for public_id in ids:
        for path in (f"/g/{public_id}", f"/embed/g/{public_id}", f"/g/{public_id}.json"):
            assert client.get(path).status_code == 200, path
        with app.app_context():
            log = get_archive().get(public_id).log
        page = client.get(f"/r/{encode(log)}")
        assert page.status_code == 200, public_id
        data = data_block(page.get_data(as_text=True))
        assert len(data["steps"]) == len(log.replay().steps)
