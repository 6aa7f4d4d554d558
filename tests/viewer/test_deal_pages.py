"""Duplicate deals in the viewer (issue 29): a game's "Other tables" panel, ``/deal/<key>`` (and
``.json``) and the duplicate scores of ``/stats``, over an archive filled with the rotation tables
of championship deals (``GameModule.play_table``, ``replay.duplicate.rotation``)."""

from __future__ import annotations

import html as htmllib
import json
import re
from dataclasses import dataclass, field

import pytest

from replay import duplicate
from replay.codec import encode
from replay.games import get

GAME = "floating-bridge"
BOTS = ["random", "greedy"]
HOSTILE = '<script>alert("deal")</script>&<b>'
SECRET = "Secret-Sam"  # the unlisted upload's player: never on another game's page


def table_log(deal: int, table: int, names: dict[str, str] | None = None) -> bytes:
    """The log of table ``table`` of deal ``deal`` (the rotation's seats; ``names`` renames seats)."""
    module = get(GAME)
    seats = duplicate.rotation(module.table_seats(BOTS), BOTS)
    log = module.play_table(deal, list(seats[table % len(seats)]), table=table)
    data = json.loads(log.canonical_json())
    for seat, name in (names or {}).items():
        data["players"][seat]["name"] = name
    return json.dumps(data).encode()


@dataclass
class Dealt:
    key: str  # deal 1's key
    ids: list[str]  # deal 1's listed tables, in the order stored
    logs: list[bytes]
    lone: str  # the one table of deal 2
    lone_key: str
    token: str = ""  # the unlisted upload of deal 1 (table 4)
    delete_token: str = ""
    extra: dict = field(default_factory=dict)


@pytest.fixture
def app(tmp_path):
    """The viewer over a fresh archive, looking up a deal's tables on every request (the tests
    store tables between requests; ``DEAL_VERSION_SECONDS`` has its own test)."""
    from viewer.app import create_app

    return create_app({"TESTING": True, "DB": f"sqlite:///{tmp_path / 'archive.db'}", "DEAL_VERSION_SECONDS": 0})


def ingest(app, data: bytes, source: str, listed: bool = True) -> str:
    from viewer.app import get_archive

    with app.app_context():
        result = get_archive().ingest_bytes(data, source, listed=listed)[0]
    assert result.public_id, result
    return result.public_id


@pytest.fixture
def dealt(app) -> Dealt:
    from replay.log import read_logs
    from viewer.services.upload import uploads

    logs = [table_log(1, t, {"N": HOSTILE} if t == 1 else None) for t in range(4)]
    ids = [ingest(app, data, f"d1-t{t}.json") for t, data in enumerate(logs)]
    lone = table_log(2, 0)
    lone_id = ingest(app, lone, "d2-t0.json")
    with app.app_context():
        outcome = uploads().ingest(table_log(1, 4, {"N": SECRET, "S": SECRET}), "secret.json")[0]
    assert outcome.token and not outcome.listed
    key = get(GAME).deal_key(read_logs(logs[0], "x.json")[0].log)
    lone_key = get(GAME).deal_key(read_logs(lone, "x.json")[0].log)
    assert key != lone_key
    return Dealt(key, ids, logs, lone_id, lone_key, outcome.token, outcome.delete_token)


def panel_of(html: str) -> str:
    start = html.find('id="other-tables"')
    assert start >= 0, "no Other tables panel"
    return html[start:html.index("</section>", start)]


def log_of(data: bytes):
    from replay.log import read_logs

    return read_logs(data, "x.json")[0].log


def expected_tables(dealt: Dealt) -> list[duplicate.Table]:
    module = get(GAME)
    out = []
    for public_id, data in zip(dealt.ids, dealt.logs):
        log = log_of(data)
        bots = {str(getattr(s, "name", s)): p.bot for s, p in log.players.items()}
        out.append(duplicate.Table(dealt.key, bots, module.deal_scores(log.replay()) or {}, public_id))
    return out


# --- the panel -------------------------------------------------------------------------------------

def test_an_archived_game_lists_the_other_tables_of_its_deal(client, dealt):
    html = client.get(f"/g/{dealt.ids[0]}").get_data(as_text=True)
    panel = panel_of(html)
    linked = re.findall(r'href="/g/([^"]+)"', panel)
    assert sorted(linked) == sorted(dealt.ids[1:])  # every other table, not itself
    assert f'href="/deal/{dealt.key}"' in panel and "Compare seat by seat" in panel
    assert "3 other tables" in panel
    # players by seat, each seat's result and duplicate score, the outcome
    assert "greedy-1" in panel and "random-1" in panel and "won by" in panel
    assert 'class="dup"' in panel and "tricks" in panel
    # no JavaScript needed: a <details> that works without it, the links in the HTML
    assert "<details" in panel and "<summary>" in panel


def test_the_panels_duplicate_scores_are_over_the_other_tables_only(client, dealt):
    from viewer.services.deals import number

    tables = expected_tables(dealt)
    others = tables[1:]  # the page is table 0's: the panel compares the other three among themselves
    dup = duplicate.duplicate_scores(others)
    panel = panel_of(client.get(f"/g/{dealt.ids[0]}").get_data(as_text=True))
    for table, scores in zip(others, dup):
        row = panel[panel.index(f'data-id="{table.ref}"'):]
        row = row[:row.index("</tr>")]
        shown = re.findall(r'class="dup" title="[^"]*">([^<]+)<', row)
        assert shown == [number(scores[s], True) for s in ("N", "E", "S", "W")]
    # the note says what the numbers are over
    assert "mean over these 3 other tables with a result" in panel
    assert "own result is left out" in panel


def _page_panels(app, dealt) -> dict[str, str]:
    """The panels of table 0's pages (its /g page and its code page), rendered afresh."""
    app.extensions.pop("page_cache", None)
    client = app.test_client()
    code = encode(log_of(dealt.logs[0]))
    return {path: panel_of(client.get(path).get_data(as_text=True)) for path in (f"/g/{dealt.ids[0]}", f"/r/{code}")}


def test_nothing_in_the_panel_depends_on_the_watched_games_result(app, client, dealt):
    """The panel of a game's page is the same whatever that game's own result was: it must not
    give the game away (with two tables, own = other - 2 * duplicate when the own game counted
    in the means). /deal/<key>, which the user opens knowingly, does change."""
    from sqlalchemy import update

    from archive.models import GamePlayer
    from viewer.app import get_archive

    before = _page_panels(app, dealt)
    deal_before = client.get(f"/deal/{dealt.key}.json").json
    assert all('class="dup"' in panel for panel in before.values())
    with app.app_context():
        archive = get_archive()
        row_id = archive.ids.decode(dealt.ids[0])
        with archive.engine.begin() as conn:
            conn.execute(update(GamePlayer).where(GamePlayer.game_id == row_id)
                         .values(deal_score=GamePlayer.deal_score + 40))
    after = _page_panels(app, dealt)
    assert after == before
    app.extensions.pop("page_cache", None)
    deal_after = client.get(f"/deal/{dealt.key}.json").json
    assert deal_after["means"] != deal_before["means"]  # the change is one the numbers would show


def test_the_panel_counts_the_tables_with_a_result(app, client, dealt):
    """A table cut short has no result: it is listed, but the means are not over it."""
    data = json.loads(table_log(1, 7))
    data["events"], data["game_id"] = data["events"][:6], "cut-short"
    data.pop("end", None)
    cut = ingest(app, json.dumps(data).encode(), "cut.json")
    panel = panel_of(client.get(f"/g/{dealt.ids[0]}").get_data(as_text=True))
    assert "also played at 4 other tables" in panel and f'data-id="{cut}"' in panel
    assert "mean over these 3 other tables with a result" in panel


def test_one_other_table_shows_its_results_without_duplicate_scores(app, client):
    """Against one table's own mean every duplicate score is 0: the panel shows the results."""
    ids = [ingest(app, table_log(9, t), f"d9-t{t}.json") for t in range(2)]
    panel = panel_of(client.get(f"/g/{ids[0]}").get_data(as_text=True))
    assert "1 other table." in panel and f'data-id="{ids[1]}"' in panel
    assert 'class="dup"' not in panel and 'class="score"' in panel and "duplicate score" not in panel


def test_a_game_alone_at_its_deal_has_no_panel(client, dealt):
    html = client.get(f"/g/{dealt.lone}").get_data(as_text=True)
    assert 'id="other-tables"' not in html
    assert "/deal/" not in html
    # a game from the sample logs (another deal, alone) neither
    code = encode(log_of(table_log(3, 0)))
    assert 'id="other-tables"' not in client.get(f"/r/{code}").get_data(as_text=True)


def test_a_code_page_computes_its_key_and_leaves_itself_out(client, dealt):
    code = encode(log_of(dealt.logs[2]))
    response = client.get(f"/r/{code}")
    assert response.status_code == 200
    panel = panel_of(response.get_data(as_text=True))
    assert sorted(re.findall(r'href="/g/([^"]+)"', panel)) == sorted(dealt.ids[:2] + dealt.ids[3:])
    # its panel changes as tables come: the page is no longer cached as immutable
    assert "immutable" not in response.headers["Cache-Control"]
    # a table of the deal that is not stored: every stored table is another one
    other = encode(log_of(table_log(1, 5)))
    panel = panel_of(client.get(f"/r/{other}").get_data(as_text=True))
    assert sorted(re.findall(r'href="/g/([^"]+)"', panel)) == sorted(dealt.ids)


def test_a_new_table_of_the_deal_changes_the_cached_pages(app, client, dealt):
    code = encode(log_of(dealt.logs[0]))
    before_g = client.get(f"/g/{dealt.ids[0]}")
    before_r = client.get(f"/r/{code}")
    before_deal = client.get(f"/deal/{dealt.key}")
    new_id = ingest(app, table_log(1, 6), "d1-t6.json")
    after_g = client.get(f"/g/{dealt.ids[0]}")
    after_r = client.get(f"/r/{code}")
    after_deal = client.get(f"/deal/{dealt.key}")
    for before, after in ((before_g, after_g), (before_r, after_r), (before_deal, after_deal)):
        assert f"/g/{new_id}" not in before.get_data(as_text=True)
        assert f"/g/{new_id}" in after.get_data(as_text=True)
        assert before.headers["ETag"] != after.headers["ETag"]
    # an If-None-Match of the old page is not a 304
    stale = client.get(f"/g/{dealt.ids[0]}", headers={"If-None-Match": before_g.headers["ETag"]})
    assert stale.status_code == 200
    fresh = client.get(f"/g/{dealt.ids[0]}", headers={"If-None-Match": after_g.headers["ETag"]})
    assert fresh.status_code == 304


def test_hostile_player_names_are_escaped_everywhere(client, dealt):
    escaped = htmllib.escape(HOSTILE, quote=True)
    pages = [f"/g/{dealt.ids[0]}", f"/deal/{dealt.key}", f"/r/{encode(log_of(dealt.logs[0]))}",
             f"/u/{dealt.token}"]
    for path in pages:
        html = client.get(path).get_data(as_text=True)
        assert HOSTILE not in html and "<script>alert" not in html, path
        assert escaped.replace("&#x27;", "&#39;") in html or "&lt;script&gt;alert(&#34;deal&#34;)" in html, path
    tables = {t["id"]: t for t in client.get(f"/deal/{dealt.key}.json").json["tables"]}
    assert tables[dealt.ids[1]]["seats"]["N"]["name"] == HOSTILE  # JSON keeps the name as it is


# --- /deal/<key> -------------------------------------------------------------------------------------

def test_deal_json_agrees_with_replay_duplicate(client, dealt):
    body = client.get(f"/deal/{dealt.key}.json").json
    tables = expected_tables(dealt)
    order = [t["id"] for t in body["tables"]]  # oldest first
    tables.sort(key=lambda t: order.index(t.ref))
    assert body["key"] == dealt.key and body["game"] == GAME and body["unit"] == "tricks"
    assert body["count"] == 4 and body["seats"] == ["N", "E", "S", "W"]
    assert sorted(order) == sorted(dealt.ids)
    starts = [t["started_at"] for t in body["tables"]]
    assert starts == sorted(starts)
    assert body["means"] == pytest.approx(duplicate.seat_means(tables))
    for got, table, scores in zip(body["tables"], tables, duplicate.duplicate_scores(tables)):
        assert got["url"] == f"/g/{table.ref}"
        for seat, cell in got["seats"].items():
            assert cell["score"] == pytest.approx(table.scores[seat])
            assert cell["duplicate"] == pytest.approx(scores[seat])
            assert cell["bot"] == table.bots[seat]
        assert got["winners"] == [s for s, c in got["seats"].items() if c["won"]]
    # each seat's duplicate scores add up to nothing over the deal's tables
    for seat in body["seats"]:
        assert sum(t["seats"][seat]["duplicate"] for t in body["tables"]) == pytest.approx(0)


def test_deal_html_shows_the_json(client, dealt):
    from viewer.services.deals import number

    body = client.get(f"/deal/{dealt.key}.json").json
    response = client.get(f"/deal/{dealt.key}")
    assert response.status_code == 200 and response.mimetype == "text/html"
    html = response.get_data(as_text=True)
    assert "Floating bridge: one deal at 4 tables" in html and "tricks" in html
    rows = re.findall(r'<tr data-id="([^"]+)">(.*?)</tr>', html, re.S)
    assert [r[0] for r in rows] == [t["id"] for t in body["tables"]]
    for (_, row), table in zip(rows, body["tables"]):
        cells = re.findall(r'<td class="num( dup)?">([^<]*)</td>', row)
        want = []
        for seat in body["seats"]:
            want += [("", number(table["seats"][seat]["score"])), (" dup", number(table["seats"][seat]["duplicate"], True))]
        assert cells == want
        assert f'href="/g/{table["id"]}"' in row
    means = html[html.index('class="seat-means"'):]
    means = re.findall(r'<td class="num">([^<]*)</td>', means[:means.index("</tr>")])
    assert means == [number(body["means"][s]) for s in body["seats"]]


@pytest.mark.parametrize("key, word", [
    ("not-a-key", "is not a deal key"),
    ("ABCDEF0123456789ABCDEF01", "is not a deal key"),  # upper case is not a key
    ("0123456789abcdef0123456", "is not a deal key"),  # 23 digits
    ("0123456789abcdef01234567", "no public game was dealt"),  # shaped like one, unknown
])
def test_unknown_or_malformed_keys_are_404s_that_say_why(client, dealt, key, word):
    for path in (f"/deal/{key}", f"/deal/{key}.json"):
        response = client.get(path)
        assert response.status_code == 404, path
        assert word in response.get_data(as_text=True), path
    assert client.get(f"/deal/{key}.json").json["status"] == 404


# --- listed games only --------------------------------------------------------------------------------

def test_an_unlisted_upload_never_shows_on_another_games_page(client, dealt):
    for path in (f"/g/{dealt.ids[0]}", f"/deal/{dealt.key}", f"/deal/{dealt.key}.json", "/stats", "/stats.json",
                 f"/r/{encode(log_of(dealt.logs[1]))}"):
        assert SECRET not in client.get(path).get_data(as_text=True), path
    assert client.get(f"/deal/{dealt.key}.json").json["count"] == 4
    # its own page lists the public tables of its deal, and is never cached
    response = client.get(f"/u/{dealt.token}")
    assert "no-store" in response.headers["Cache-Control"]
    panel = panel_of(response.get_data(as_text=True))
    assert sorted(re.findall(r'href="/g/([^"]+)"', panel)) == sorted(dealt.ids)
    assert SECRET not in panel


def test_a_published_upload_joins_the_deal(app, client, dealt):
    from viewer.services.upload import uploads

    before = client.get(f"/g/{dealt.ids[0]}").get_data(as_text=True)
    assert SECRET not in before
    with app.app_context():
        public_id = uploads().publish(dealt.token, dealt.delete_token)
    after = client.get(f"/g/{dealt.ids[0]}").get_data(as_text=True)
    assert SECRET in panel_of(after) and f"/g/{public_id}" in panel_of(after)
    assert client.get(f"/deal/{dealt.key}.json").json["count"] == 5


# --- /stats ----------------------------------------------------------------------------------------

def test_stats_shows_the_duplicate_score_beside_the_plain_one(client, dealt):
    body = client.get("/stats.json").json
    boards = {b["game"]: b for b in body["duplicate"]}
    assert list(boards) == [GAME]
    board = boards[GAME]
    assert (board["deals"], board["tables"], board["duplicated_deals"], board["duplicated_tables"]) == (2, 5, 1, 4)
    want = duplicate.leaderboard(expected_tables(dealt) + [duplicate.Table(dealt.lone_key, *_lone(dealt))],
                                 unit="tricks")
    assert [s["bot"] for s in board["standings"]] == [s.bot for s in want.standings]
    for got, expect in zip(board["standings"], want.standings):
        assert got["duplicate"]["mean"] == pytest.approx(expect.duplicate.mean)
        assert got["plain"]["mean"] == pytest.approx(expect.plain.mean)
        assert got["plain"]["half_width"] == pytest.approx(expect.plain.half)
    html = client.get("/stats").get_data(as_text=True)
    section = html[html.index(f'id="duplicate-{GAME}"'):]
    section = section[:section.index("</section>")]
    assert "Rests on 1 deal played at two tables or more (4 tables), of 2 deals at 5 tables" in section
    for expect in want.standings:
        assert f"<td>{expect.bot}</td>" in section
        assert expect.plain.text(2) in section and expect.duplicate.text(2, signed=True) in section
    # one game chosen: its section; a name: that name's row only
    assert client.get(f"/stats.json?game={GAME}").json["duplicate"][0]["game"] == GAME
    named = client.get(f"/stats.json?name={want.standings[0].bot}").json["duplicate"][0]["standings"]
    assert [s["bot"] for s in named] == [want.standings[0].bot]


def _lone(dealt: Dealt):
    log = log_of(table_log(2, 0))
    return ({str(getattr(s, "name", s)): p.bot for s, p in log.players.items()},
            get(GAME).deal_scores(log.replay()) or {})


def test_stats_without_duplicated_deals_has_no_section(client, app):
    ingest(app, table_log(7, 0), "alone.json")
    assert "duplicate" not in client.get("/stats.json").json
    assert "duplicate deals" not in client.get("/stats").get_data(as_text=True)


def test_code_pages_of_games_without_a_deal_key_stay_immutable(client, dealt, monkeypatch):
    from viewer.services import deals

    code = encode(log_of(dealt.logs[0]))
    assert client.get(f"/r/{code}").headers["Cache-Control"] == "public, max-age=300"
    monkeypatch.setattr(deals, "code_deal", lambda code: (None, None))
    response = client.get(f"/r/{code}?theme=dark")
    assert "immutable" in response.headers["Cache-Control"] and 'id="other-tables"' not in response.get_data(as_text=True)


def test_a_deals_tables_are_looked_up_once_a_while_under_load(app, client, dealt, monkeypatch):
    from viewer.services import deals

    app.config["DEAL_VERSION_SECONDS"] = 3600
    asked = []
    real = deals.listed_ids
    monkeypatch.setattr(deals, "listed_ids", lambda key: asked.append(key) or real(key))
    code = encode(log_of(dealt.logs[0]))
    for path in (f"/g/{dealt.ids[0]}", f"/g/{dealt.ids[1]}", f"/r/{code}", f"/deal/{dealt.key}"):
        assert client.get(path).status_code == 200
    assert asked == [dealt.key]  # one lookup for the deal's four pages
    app.config["DEAL_VERSION_SECONDS"] = 0
    client.get(f"/g/{dealt.ids[0]}")
    assert asked == [dealt.key] * 2


def _games_with_deals() -> list[str]:
    from replay.games import names

    return [name for name in names() if get(name).has_deals]


@pytest.mark.parametrize("name", _games_with_deals())
def test_every_game_with_deals_gets_its_panel_and_deal_page(app, client, name):
    """Each game's rotation tables of one deal: every page lists the others, each seat once."""
    module = get(name)
    bots = list(module.bots)[:2]
    seats = duplicate.rotation(module.table_seats(bots), bots)
    logs = [module.play_table(5, list(s), table=t) for t, s in enumerate(seats)]
    key = module.deal_key(logs[0])
    ids = [ingest(app, log.canonical_json().encode(), f"{name}-{t}.json") for t, log in enumerate(logs)]
    body = client.get(f"/deal/{key}.json").json
    assert body["game"] == name and body["count"] == len(logs) and body["unit"] == module.deal_unit
    assert len(body["seats"]) == len(set(body["seats"])) == len(seats[0])
    for public_id in ids:
        panel = panel_of(client.get(f"/g/{public_id}").get_data(as_text=True))
        assert sorted(re.findall(r'href="/g/([^"]+)"', panel)) == sorted(set(ids) - {public_id})
    assert f'id="duplicate-{name}"' in client.get("/stats").get_data(as_text=True)


# --- an archive that cannot be opened or queried: the panel is left out, the page is served ---------

@pytest.mark.parametrize("url", ["postgresql://u:p@127.0.0.1:1/nowhere", "sqlite:////proc/nowhere/archive.db"])
def test_a_code_page_needs_no_archive(url):
    """Before issue 29 code pages never needed the database: an archive that cannot be opened
    costs the panel, never the page, and that page is not kept anywhere."""
    from viewer.app import create_app

    app = create_app({"TESTING": True, "DB": url, "DEAL_VERSION_SECONDS": 0})
    client = app.test_client()
    code = encode(log_of(table_log(1, 0)))
    for _ in range(2):
        response = client.get(f"/r/{code}")
        assert response.status_code == 200, response.get_data(as_text=True)[:300]
        html = response.get_data(as_text=True)
        assert 'id="board"' in html and 'id="other-tables"' not in html
        assert response.headers["Cache-Control"] == "no-store" and "ETag" not in response.headers


def test_a_failing_query_costs_the_panel_and_is_not_cached(app, client, dealt, monkeypatch):
    from sqlalchemy.exc import OperationalError

    from viewer.services import deals

    def down(*args, **kwargs):
        raise OperationalError("SELECT", {}, Exception("server closed the connection"))

    code = encode(log_of(dealt.logs[0]))
    paths = (f"/g/{dealt.ids[0]}", f"/r/{code}", f"/u/{dealt.token}")
    for name in ("listed_ids", "stored_tables"):  # the version on every request; the tables on a render
        app.extensions.pop("page_cache", None)  # a page kept while the archive answered is still right
        with monkeypatch.context() as m:
            m.setattr(deals, name, down)
            for path in paths:
                response = client.get(path)
                assert response.status_code == 200, (name, path)
                assert 'id="other-tables"' not in response.get_data(as_text=True), (name, path)
                assert "no-store" in response.headers["Cache-Control"], (name, path)
        for path in paths:  # the archive is back: so is the panel
            assert 'id="other-tables"' in client.get(path).get_data(as_text=True), (name, path)


# --- what is shown, and its version ------------------------------------------------------------------

def _dated(deal: int, table: int, started: str) -> bytes:
    data = json.loads(table_log(deal, table))
    data["started_at"] = started
    return json.dumps(data).encode()


def test_the_version_follows_the_tables_shown(app, client, monkeypatch):
    """With more tables than are shown, the tables shown are the oldest (by start time): a new
    table that starts before them changes the shown tables, so it must change the version."""
    from viewer.services import deals

    monkeypatch.setattr(deals, "MAX_TABLES", 2)
    ids = [ingest(app, _dated(11, t, started), f"d11-t{t}.json")
           for t, started in enumerate(["2026-05-01T00:00:00Z", "2026-05-02T00:00:00Z"])]
    key = get(GAME).deal_key(log_of(table_log(11, 0)))

    def shown() -> tuple[list[str], list[str], bool]:
        html = client.get(f"/deal/{key}").get_data(as_text=True)
        body = client.get(f"/deal/{key}.json").json
        return re.findall(r'<tr data-id="([^"]+)"', html), [t["id"] for t in body["tables"]], body["truncated"]

    assert shown() == (ids, ids, False)  # exactly MAX_TABLES tables: nothing left out
    assert "The first" not in client.get(f"/deal/{key}").get_data(as_text=True)
    early = ingest(app, _dated(11, 2, "2020-01-01T00:00:00Z"), "d11-t2.json")
    assert shown() == ([early, ids[0]], [early, ids[0]], True)
    assert "The first 2 tables are shown" in client.get(f"/deal/{key}").get_data(as_text=True)
    # a game's panel follows too, and says there are more
    panel = panel_of(client.get(f"/g/{ids[1]}").get_data(as_text=True))
    assert re.findall(r'<tr data-id="([^"]+)"', panel) == [early, ids[0]]
    assert "also played at 2 or more other tables" in panel and "The first 2 other tables are listed" in panel
    late = ingest(app, _dated(11, 3, "2027-01-01T00:00:00Z"), "d11-t3.json")  # after those shown
    assert late not in shown()[0]


def test_listed_ids_are_the_tables_shown_in_their_order(app, dealt, monkeypatch):
    """The version's ids and ``Archive.deal_tables``'s tables agree, games without a start time
    (shown first) included."""
    from viewer.app import get_archive
    from viewer.services import deals

    data = json.loads(table_log(1, 8))
    data.pop("started_at", None)
    undated = ingest(app, json.dumps(data).encode(), "undated.json")
    for limit in (2, 3, 500):
        monkeypatch.setattr(deals, "MAX_TABLES", limit)
        with app.app_context():
            tables = deals.stored_tables(dealt.key)
            assert deals.listed_ids(dealt.key) == [t["row_id"] for t in tables]
            assert len(tables) == min(limit + 1, 5)
            assert tables[0]["public_id"] == undated and get_archive() is not None
