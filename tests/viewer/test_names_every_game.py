"""``?players=`` on every game's links (issue 24, item 2), through every way into the viewer.

Names are positional in the game's own seat order (bridge N E S W, UNO P1 P2, a Coup table's
seats 1..5, a party table's p1..p4). Fewer names leave the later seats unnamed, an empty entry
leaves its seat unnamed, more names than seats is a 400 that says so (docs/code-format.md,
section 6). Whatever the link names, the share field, the embed code and oEmbed carry on.
"""

from __future__ import annotations

import re
from functools import lru_cache
from html import unescape
from urllib.parse import quote

import pytest

HOST = "http://localhost"
GAMES = ("floating-bridge", "uno-lite", "coup", "party-cards")
#: names that need escaping in a link: a comma, an ampersand, spaces, letters beyond ASCII
GIVEN = ("Ann", "Bo, Jr", "Łucja & co", "Dev 🐐", "Eli")


@lru_cache(maxsize=None)
def nameless(game: str) -> tuple[str, tuple[str, ...]]:
    """A seeded game's code, its log holding no names, and its seats in table order."""
    from replay.codec import encode
    from replay.games import get
    from replay.log import Player

    module = get(game)
    if game == "floating-bridge":
        log = module.selfplay(3, ("random",) * 4)
    elif game == "uno-lite":
        log = module.selfplay(3, ("random", "greedy"))
    elif game == "coup":
        log = module.selfplay(3, ("honest", "bluffer", "random"), players=5)
    else:
        log = module.selfplay(3, ("random", "greedy", "random", "greedy"))
    seats = tuple(getattr(s, "name", s) for s in log.players) if game in ("coup", "party-cards") else tuple(module.seats)
    # party codes carry names: leave every seat listed but unnamed; other games' codes carry none
    log = log.model_copy(update={"players": {k: Player() for k in log.players} if game == "party-cards" else {}})
    return encode(log), seats


def query(names) -> str:
    """The ``players`` value as the docs say to write it (each name percent-encoded)."""
    return ",".join(quote(n, safe="") for n in names)


def share_field(html: str) -> str:
    return unescape(re.search(r'id="share-link"[^>]*\svalue="([^"]*)"', html).group(1))


def embed_code(html: str) -> str:
    return unescape(re.search(r'<textarea id="embed-code"[^>]*>(.*?)</textarea>', html, re.S).group(1))


def page_title(html: str) -> str:
    return unescape(re.search(r"<title>(.*?)</title>", html, re.S).group(1))


def names_in(title: str, seats, shown: dict[str, str]) -> bool:
    """Whether a spoiler-free title names each seat's player (or the seat, when only some have
    a name; a game with no names at all is "<Game> game")."""
    if not shown:
        return " game" in title and not any(f"{seat}," in title for seat in seats)
    return all((shown.get(seat) or seat) in title for seat in seats)


def cases(game: str):
    """(label, players value, names by seat the game should show, the query links carry on)."""
    code, seats = nameless(game)
    n = len(seats)
    every = GIVEN[:n] if n <= len(GIVEN) else GIVEN + tuple(f"P{i}" for i in range(len(GIVEN), n))
    return [
        ("all", query(every), dict(zip(seats, every)), "players=" + query(every)),
        ("too few", query(every[:1]), {seats[0]: every[0]}, "players=" + query(every[:1])),
        ("one empty", "," + query(every[1:2]), {seats[1]: every[1]}, "players=," + query(every[1:2])),
        ("empty", "", {}, ""),
        ("empty entries", ",%E2%80%AE,%20,%07", {}, ""),  # nothing left once bidi and controls go
    ]


def too_many(game: str) -> str:
    _, seats = nameless(game)
    return query(f"N{i}" for i in range(len(seats) + 1))


def refusal(game: str) -> str:
    _, seats = nameless(game)
    return f"the link names {len(seats) + 1} players but this game has {len(seats)} seats"


@pytest.mark.parametrize("game", GAMES)
def test_page_names_every_seat_and_share_field_and_embed_code_keep_them(client, game):
    code, seats = nameless(game)
    for label, value, shown, carried in cases(game):
        response = client.get(f"/r/{code}?players={value}")
        assert response.status_code == 200, (label, response.status_code)
        html = response.get_data(as_text=True)
        link = f"{HOST}/r/{code}" + (f"?{carried}" if carried else "")
        assert share_field(html) == link, label
        assert f'<iframe src="{HOST}/embed/r/{code}' + (f"?{carried}" if carried else "") + '"' in embed_code(html), label
        title = page_title(html)
        assert names_in(title, seats, shown), (label, title)
        assert "\u202e" not in title and "\x07" not in title
    response = client.get(f"/r/{code}?players={too_many(game)}")
    assert response.status_code == 400 and refusal(game) in response.get_data(as_text=True)


@pytest.mark.parametrize("game", GAMES)
def test_json_twin_names_every_seat(client, game):
    code, _ = nameless(game)
    for label, value, shown, _carried in cases(game):
        response = client.get(f"/r/{code}.json?players={value}")
        assert response.status_code == 200, label
        names = response.get_json()["names"]
        assert {seat: name for seat, name in names.items() if name} == shown, label
    response = client.get(f"/r/{code}.json?players={too_many(game)}")
    assert response.status_code == 400 and refusal(game) in response.get_json()["error"]


@pytest.mark.parametrize("game", GAMES)
def test_embed_and_oembed_carry_the_names(client, game):
    code, seats = nameless(game)
    for label, value, shown, carried in cases(game):
        embed = client.get(f"/embed/r/{code}?players={value}")
        assert embed.status_code == 200, label
        title = page_title(embed.get_data(as_text=True))
        assert names_in(title, seats, shown), (label, title)
        page = f"{HOST}/r/{code}" + (f"?players={value}" if value else "")
        answer = client.get("/oembed", query_string={"url": page, "format": "json"})
        assert answer.status_code == 200, label
        src = unescape(re.search(r'<iframe src="([^"]+)"', answer.get_json()["html"]).group(1))
        assert src == f"{HOST}/embed/r/{code}" + (f"?players={value}" if value else ""), label
        assert names_in(answer.get_json()["title"], seats, shown), label
        # the frame it names shows the same names
        framed = client.get(src.replace(HOST, ""))
        assert framed.status_code == 200 and page_title(framed.get_data(as_text=True)) == title, label
    assert client.get(f"/embed/r/{code}?players={too_many(game)}").status_code == 400
    answer = client.get("/oembed", query_string={"url": f"{HOST}/r/{code}?players={too_many(game)}"})
    assert answer.status_code == 400 and refusal(game) in answer.get_json()["error"]


@pytest.mark.parametrize("game", GAMES)
def test_a_link_pasted_on_the_home_page_opens_with_its_names(client, game):
    code, _ = nameless(game)
    for label, value, shown, carried in cases(game):
        link = f"https://elsewhere.example/r/{code}?players={value}"
        response = client.get("/", query_string={"code": link})
        assert response.status_code == 303, label
        assert response.headers["Location"] == f"/r/{code}" + (f"?{carried}" if carried else ""), label
        assert client.get("/index.json", query_string={"code": link}).get_json()["location"] == response.headers["Location"]
        opened = client.get(response.headers["Location"].replace(f"/r/{code}", f"/r/{code}.json", 1))
        assert {seat: name for seat, name in opened.get_json()["names"].items() if name} == shown, label
    link = f"https://elsewhere.example/r/{code}?players={too_many(game)}"
    response = client.get("/", query_string={"code": link})
    assert response.status_code == 400 and refusal(game) in response.get_data(as_text=True)
    response = client.get("/index.json", query_string={"code": link})
    assert response.status_code == 400 and refusal(game) in response.get_json()["error"]


def test_party_round_picture_names_the_link_players(client):
    code, seats = nameless("party-cards")
    plain = client.get(f"/r/{code}/round/1.svg")
    assert plain.status_code == 200
    for label, value, shown, _carried in cases("party-cards"):
        response = client.get(f"/r/{code}/round/1.svg?players={value}")
        assert response.status_code == 200 and response.mimetype == "image/svg+xml", label
        svg = unescape(response.get_data(as_text=True))
        if label == "all":  # the round's czar and winner are named with the link's names
            assert any(name in svg for name in shown.values()) and svg != unescape(plain.get_data(as_text=True))
        elif not shown:
            assert svg == unescape(plain.get_data(as_text=True)), label
    response = client.get(f"/r/{code}/round/1.svg?players={too_many('party-cards')}")
    assert response.status_code == 400 and refusal("party-cards") in response.get_data(as_text=True)
    # the round page's picture and link carry the names too
    html = client.get(f"/r/{code}?round=1&players={query(GIVEN[:4])}").get_data(as_text=True)
    image = unescape(re.search(r'<meta property="og:image" content="([^"]+)"', html).group(1))
    assert image.startswith(f"{HOST}/r/{code}/picture.png?players={query(GIVEN[:4])}&step=")
    assert image.endswith("&view=public")
