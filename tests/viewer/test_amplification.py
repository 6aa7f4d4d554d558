"""No code or upload makes a page or JSON many times its own size (issue 24, "Amplification").

A code is a few hundred characters, yet its game can be long: raw-form codes are zstd JSON,
so a log that repeats itself (20,000 ``join`` events, a table of long cards) compresses to
almost nothing. The pages used to repeat every seat's whole hand at every step (a 326-character
party code made a 13 MB page and a 100 MB ``.json``). Now the steps are sent as changes, every
page keeps to a budget (50 times the game's own size plus an allowance) that is checked before
the steps are built, and the page cache is bounded by bytes with a key that ignores unknown
parameters.

The worst cases are built here (``bench/amplification.py`` prints their sizes); each is a log
as a bot or an attacker could write it, encoded with ``replay.codec.encode``.
"""

from __future__ import annotations

import gzip
import io
import json
import tracemalloc
from typing import Any, Callable

import pytest

from replay.codec import encode
from replay.log import parse_log
from tests.conftest import SAMPLE_LOGS

#: A page or JSON may be this many times the size of what the reader gave (a code's length, an
#: upload's bytes)...
RATIO = 50
#: ...plus this fixed allowance for the page around the game. The shell alone (header, controls,
#: options, share box, an empty record) measures about 14 KB (a 4-step party lobby's page); an
#: ordinary game's record and charts add the rest: the largest page of the bot-played games in
#: sample_logs/ is about 190 KB (a 189-step UNO Lite game whose code is 67 characters: its
#: record and hand-size chart are a kilobyte a step). 512 KiB is that with room for games of a
#: few hundred steps; a 1 GB answer to a 185-character code is 2,000 times over it.
ALLOWANCE = 512 * 1024

PARTY_SEATS = [f"p{n}" for n in range(1, 11)]  # the format's most seats


def party_log(joins: int, hand: int = 10, text: int = 20) -> dict[str, Any]:
    """A party-cards lobby of 10 seats with ``hand`` cards of ``text`` characters each, where
    seats join ``joins`` times (the same event over and over: it compresses to nothing)."""
    return {
        "format": "party-cards/1", "players": {s: {} for s in PARTY_SEATS}, "score_limit": 1000,
        "hand_size": hand,
        "hands": {s: [{"id": f"{s}-{k}", "text": f"{k:03d}" + "y" * (text - 3)} for k in range(hand)]
                  for s in PARTY_SEATS},
        "events": [{"type": "join", "seat": PARTY_SEATS[n % len(PARTY_SEATS)]} for n in range(joins)],
    }


def uno_log(turns: int) -> dict[str, Any]:
    """UNO Lite where neither seat can play on the starter: they draw the cards that cannot be
    played either and pass, turn after turn, then pass without drawing (a finding each time,
    none of them fatal, so every event is a step) until ``turns`` turns are taken (the format
    allows 10,000 events)."""
    hands = {"P1": [f"R{n}" for n in range(1, 8)], "P2": [f"B{n}" for n in range(1, 8)]}
    dealt = hands["P1"] + hands["P2"]
    unplayable = [f"{c}{n}" for c in "RBY" for n in range(1, 9) for _ in range(2)]
    for card in dealt:
        unplayable.remove(card)
    events: list[dict[str, Any]] = []
    for n in range(turns):
        seat = "P1" if n % 2 == 0 else "P2"
        if unplayable:
            events.append({"type": "draw", "seat": seat, "card": unplayable.pop()})
        events.append({"type": "pass", "seat": seat})
    return {"format": "uno-lite/1", "first_player": "P1", "starter": "G9", "hands": hands, "events": events}


def coup_log(actions: int) -> dict[str, Any]:
    """Coup at a table of six where every seat takes income, ``actions`` times in all."""
    seats = [str(n) for n in range(1, 7)]
    return {"format": "coup/1", "players": {s: {} for s in seats}, "first_player": "1",
            "hands": {s: ["D", "A"] if int(s) % 2 else ["C", "E"] for s in seats},
            "events": [{"type": "action", "seat": seats[n % 6], "action": "income"} for n in range(actions)]}


#: name -> the log of a game whose code is short and whose old page was huge
HOSTILE_CODES: dict[str, Callable[[], dict[str, Any]]] = {
    "party, 20,000 joins": lambda: party_log(20_000),
    "party, long cards": lambda: party_log(500, hand=20, text=1000),
    "UNO Lite, 9,000 turns": lambda: uno_log(9_000),
    "Coup, 20,000 actions": lambda: coup_log(20_000),
}

#: one bot-played game of each game: these still show whole
SAMPLES = {
    "floating-bridge": SAMPLE_LOGS / "selfplay" / "family-bridge_2026-01-31_1.json",
    "uno-lite": SAMPLE_LOGS / "uno-lite" / "selfplay" / "uno-reshuffle_32.json",
    "coup": SAMPLE_LOGS / "coup" / "selfplay" / "champ-5p_g21.json",
    "party-cards": SAMPLE_LOGS / "party-cards" / "selfplay-random-34.json",
}


def code_of(data: dict[str, Any]) -> str:
    return encode(parse_log(data))


def body_size(response) -> int:
    """The answer's size as sent without compression."""
    data = response.get_data()
    if response.headers.get("Content-Encoding") == "gzip":
        data = gzip.decompress(data)
    return len(data)


def assert_bounded(response, own: int, where: str) -> None:
    assert response.status_code in (200, 413), (where, response.status_code)
    size = body_size(response)
    assert size <= RATIO * own + ALLOWANCE, f"{where}: {size:,} bytes from {own:,} ({size / own:,.0f} times)"
    if response.status_code == 413:
        text = response.get_data(as_text=True)
        assert "too large to show here" in text
        assert "/log.json" in text  # the log's download, which always works


@pytest.mark.parametrize("name", list(HOSTILE_CODES))
def test_a_short_code_makes_no_huge_page(client, name: str) -> None:
    code = code_of(HOSTILE_CODES[name]())
    assert len(code) < 600, len(code)  # short, as the codes were (185 to 284 characters)
    for path in (f"/r/{code}", f"/r/{code}.json", f"/embed/r/{code}"):
        assert_bounded(client.get(path), len(code), f"{name} {path[:20]}")


def test_a_refused_page_says_why_and_links_the_log(client) -> None:
    code = code_of(party_log(20_000))
    page = client.get(f"/r/{code}")
    assert page.status_code == 413
    text = page.get_data(as_text=True)
    assert "its 20,001 steps" in text
    assert f'href="/r/{code}/log.json"' in text
    answer = client.get(f"/r/{code}.json").get_json()
    assert answer["status"] == 413 and answer["download"] == f"/r/{code}/log.json"
    log = client.get(answer["download"])  # the download itself is the log, not a page: it works
    assert log.status_code == 200 and len(json.loads(log.data)["events"]) == 20_000


def test_the_refusal_comes_before_the_steps_are_built(client) -> None:
    """A code whose steps would hold its table of long cards 500 times: the old page built all
    of them (hundreds of megabytes) before writing anything; the budget is checked first."""
    code = code_of(party_log(500, hand=20, text=1000))
    client.get("/r/" + code_of(uno_log(3)))  # the app's own first-request work, outside the measure
    tracemalloc.start()
    try:
        response = client.get(f"/r/{code}.json")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert response.status_code == 413
    assert peak < 32 * 1024 * 1024, f"{peak:,} bytes at the peak"


@pytest.mark.parametrize("game", list(SAMPLES))
def test_ordinary_games_still_show_whole_and_within_budget(client, game: str) -> None:
    from replay.log import read_path

    log = read_path(str(SAMPLES[game]))[0].log
    code = encode(log)
    steps = len(log.replay().steps_json())
    for path in (f"/r/{code}", f"/r/{code}.json", f"/embed/r/{code}"):
        response = client.get(path)
        assert response.status_code == 200, (game, path)
        assert_bounded(response, len(code), f"{game} {path[:20]}")
    data = client.get(f"/r/{code}.json").get_json()
    assert data["steps_format"] == "changes/1" and len(data["steps"]) == steps


def test_a_party_upload_makes_no_huge_page(client) -> None:
    """A 100 KB party log uploaded (the issue's 116 KB upload made a 51.5 MB ``.json``): its
    private page, JSON and embed, and once published its archive page, JSON and embed, keep to
    50 times the upload."""
    raw = json.dumps(party_log(3_000)).encode()
    assert 90_000 < len(raw) < 130_000
    response = client.post("/api/logs", data={"files": [(io.BytesIO(raw), "lobby.json")]},
                           content_type="multipart/form-data")
    assert response.status_code == 201, response.get_json()
    stored = response.get_json()["files"][0]["games"][0]
    private = stored["url"]
    for path in (private, private + ".json", "/embed" + private):
        assert_bounded(client.get(path), len(raw), path)
    published = client.post(f"/api/uploads/{stored['token']}/publish",
                            headers={"X-Delete-Token": stored["delete_token"]})
    assert published.status_code == 200
    public = published.get_json()["url"]
    for path in (public, public + ".json", "/embed" + public):
        assert_bounded(client.get(path), len(raw), path)


def test_unknown_parameters_make_no_new_cache_entries(client, app) -> None:
    code = encode(parse_log(json.loads(SAMPLES["uno-lite"].read_text())))
    first = client.get(f"/r/{code}")
    assert first.status_code == 200
    cache = app.extensions["page_cache"]
    held = len(cache.items)
    for n in range(12):
        assert client.get(f"/r/{code}?x={n}").status_code == 200
    assert len(cache.items) == held
    # the parameters a page reads still make their own page
    assert client.get(f"/r/{code}?step=3").status_code == 200
    assert len(cache.items) == held + 1


def test_the_page_cache_is_bounded_by_bytes(tmp_path) -> None:
    from viewer.app import create_app

    limit = 1024 * 1024
    app = create_app({"TESTING": True, "DB": f"sqlite:///{tmp_path / 'a.db'}", "PAGE_CACHE_BYTES": limit})
    client = app.test_client()
    code = encode(parse_log(json.loads(SAMPLES["uno-lite"].read_text())))
    for step in range(24):  # 24 different pages of about 190 KB each
        assert client.get(f"/r/{code}?step={step}").status_code == 200
    cache = app.extensions["page_cache"]
    held = sum(len(html) + len(gz) for html, gz in cache.items.values())
    assert 0 < held <= limit, held
