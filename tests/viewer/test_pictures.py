"""Pictures and animations on the web (issue 27): the PNG of any step from any view, GIF and
MP4 of a range of steps, the link previews (Open Graph, Twitter, oEmbed) of every replay,
archive, upload and embed page, and what they cost (validators, memory, rate limits, the
render budget). Real app, real archive, real renderer; pages parsed with a real HTML parser,
images decoded with Pillow and PyAV."""

from __future__ import annotations

import io
import threading
from html.parser import HTMLParser
from urllib.parse import parse_qs, quote, urlsplit

import pytest
from PIL import Image

from replay.games import get, names

HOST = "http://localhost"
DRAWN = [name for name in names() if get(name).has_drawing]
#: the tags of a large picture card: exactly one of each
PICTURE_TAGS = ("og:image", "og:image:type", "og:image:width", "og:image:height", "og:image:alt",
                "twitter:card", "twitter:image", "twitter:image:alt", "og:title", "og:url", "twitter:title")
MB = 1024 * 1024


class Head(HTMLParser):
    """A page's ``<meta>`` tags (name or property -> contents, in order) and its links by id."""

    def __init__(self) -> None:
        super().__init__()
        self.meta: dict[str, list[str]] = {}
        self.by_id: dict[str, dict[str, str | None]] = {}

    def handle_starttag(self, tag, attrs):
        found = dict(attrs)
        key = found.get("property") or found.get("name")
        if tag == "meta" and key:
            self.meta.setdefault(key, []).append(found.get("content") or "")
        if found.get("id"):
            self.by_id[found["id"]] = found

    def one(self, key: str) -> str:
        values = self.meta.get(key, [])
        assert len(values) == 1, (key, values)
        return values[0]


def head_of(html: str) -> Head:
    parser = Head()
    parser.feed(html)
    parser.close()
    return parser


def selfplay(game: str, seed: int = 5):
    return get(game).selfplay(seed)


def code_of(log) -> str:
    from replay.codec import encode

    return encode(log)


@pytest.fixture
def site(app):
    """For every game with a drawing: its code, an archived copy's id and an upload's token. The
    image rate limits are out of the way (their own tests set them)."""
    from viewer.app import get_archive
    from viewer.services.upload import uploads

    app.config.update({f"{kind}_RATE_{what}": 100_000 for kind in ("PICTURE", "ANIMATION")
                       for what in ("PER_MINUTE", "BURST")})

    found = {}
    with app.app_context():
        archive = get_archive()
        for n, game in enumerate(DRAWN):
            log = selfplay(game)
            public_id = archive.ingest_bytes(log.canonical_json().encode(), f"{game}.json")[0].public_id
            other = selfplay(game, 6 + n)
            [outcome] = uploads().ingest(other.canonical_json().encode(), f"{game}-upload.json")
            found[game] = {"code": code_of(log), "id": public_id, "token": outcome.token, "log": log}
    return found


def pages_of(entry) -> dict[str, str]:
    return {"code": f"/r/{entry['code']}", "archived": f"/g/{entry['id']}", "upload": f"/u/{entry['token']}",
            "embed-code": f"/embed/r/{entry['code']}", "embed-archived": f"/embed/g/{entry['id']}",
            "embed-upload": f"/embed/u/{entry['token']}"}


def png_size(data: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "PNG"
        return image.size


def steps_of(log) -> int:
    return len(log.replay().steps_json())


# --- the link previews -------------------------------------------------------------------------

@pytest.mark.parametrize("game", DRAWN)
def test_every_page_previews_with_one_png_of_the_deal(client, site, game):
    entry = site[game]
    for kind, path in pages_of(entry).items():
        response = client.get(path)
        assert response.status_code == 200, (kind, response.status_code)
        head = head_of(response.get_data(as_text=True))
        for key in PICTURE_TAGS:
            head.one(key)
        image = head.one("og:image")
        assert head.one("twitter:card") == "summary_large_image"
        assert head.one("twitter:image") == image
        assert (head.one("og:image:type"), head.one("og:image:width"), head.one("og:image:height")) == (
            "image/png", "1200", "630")
        assert head.one("og:image:alt").strip() and head.one("twitter:image:alt") == head.one("og:image:alt")
        parts = urlsplit(image)
        assert f"{parts.scheme}://{parts.netloc}" == HOST and parts.path.endswith("/picture.png"), image
        assert "step" not in parse_qs(parts.query), image  # no step asked: the deal, no result
        picture = client.get(image)
        assert picture.status_code == 200, (kind, image, picture.get_data(as_text=True)[:300])
        assert picture.mimetype == "image/png"
        assert png_size(picture.data) == (1200, 630)
        assert len(picture.data) < MB


@pytest.mark.parametrize("game", DRAWN)
def test_the_deal_is_the_public_view_of_step_zero_with_the_names(client, app, site, game):
    from replay import picture

    from replay.codec import decode

    entry = site[game]
    seats = get(game).seat_order(decode(entry["code"]))
    given = [f"Ann {n}" if n % 2 else f"Bo \u0416 {n}" for n in range(len(seats))]
    log = decode(entry["code"], names=tuple(given))  # what the link gives: the code and its names
    replay = log.replay()
    names = dict(zip(seats, given))
    players = "players=" + ",".join(quote(name, safe="") for name in given)
    served = client.get(f"/r/{entry['code']}/picture.png?{players}").data
    assert served == picture.picture(replay, names=names)
    assert served == client.get(f"/r/{entry['code']}/picture.png?{players}&step=0&view=public").data
    assert served != client.get(f"/r/{entry['code']}/picture.png?step=0&view=public").data  # the names are drawn


@pytest.mark.parametrize("game", DRAWN)
def test_a_link_to_a_step_and_view_previews_that_step_from_that_view(client, site, game):
    entry = site[game]
    seat = get(game).seat_order(entry["log"])[0]
    step = min(3, steps_of(entry["log"]) - 1)
    for path in (f"/r/{entry['code']}", f"/g/{entry['id']}", f"/embed/r/{entry['code']}"):
        head = head_of(client.get(f"{path}?step={step}&view={seat}").get_data(as_text=True))
        query = parse_qs(urlsplit(head.one("og:image")).query)
        assert (query["step"], query["view"]) == ([str(step)], [seat]), head.one("og:image")
        assert client.get(head.one("og:image")).status_code == 200
        # a step past the end previews the last; a view the game has not, the step's default
        head = head_of(client.get(f"{path}?step=99999&view=nobody").get_data(as_text=True))
        query = parse_qs(urlsplit(head.one("og:image")).query)
        assert query["step"] == [str(steps_of(entry["log"]) - 1)] and "view" not in query


@pytest.mark.parametrize("game", DRAWN)
def test_step_and_view_change_the_picture(client, site, game):
    entry = site[game]
    base = f"/r/{entry['code']}/picture.png"
    seats = get(game).seat_order(entry["log"])
    last = steps_of(entry["log"]) - 1
    deal, end = client.get(base).data, client.get(f"{base}?step={last}").data
    assert deal != end
    views = {view: client.get(f"{base}?step={last}&view={view}").data for view in ("all", "public", *seats)}
    assert len(set(views.values())) > 1, "every view drew the same picture"
    for data in (deal, end, *views.values()):
        assert png_size(data) == (1200, 630)


#: (query, status, words the message must hold)
BAD = [
    ("?step=x", 400, "step must be a step number"),
    ("?step=-1", 400, "step must be a step number"),
    ("?step=1e3", 400, "digits only"),
    ("?step=%EF%BC%91", 400, "digits only"),  # a full-width digit one
    ("?step=1234567", 400, "at most 6"),
    ("?step=", 400, "step must be a step number"),
    ("?step=1&step=2", 400, "give step once"),
    ("?step=99999", 404, "no step 99999 in this game"),
    ("?view=nobody", 400, "no view 'nobody'"),
    ("?view=" + "v" * 21, 400, "view must be all, public or one of the game's seats"),
]


@pytest.mark.parametrize("query,status,words", BAD)
def test_bad_parameters_get_a_clear_4xx_as_json_or_a_page(client, site, query, status, words):
    entry = site[DRAWN[0]]
    for path in (f"/r/{entry['code']}/picture.png", f"/g/{entry['id']}/picture.png", f"/u/{entry['token']}/picture.png"):
        response = client.get(path + query, headers={"Accept": "application/json"})
        assert response.status_code == status, (path, query, response.status_code)
        assert words in response.get_json()["error"], response.get_json()
        page = client.get(path + query, headers={"Accept": "text/html"})
        assert page.status_code == status and page.mimetype == "text/html"
        assert words.replace("'", "&#39;") in page.get_data(as_text=True)
        assert page.headers["Cache-Control"] == "no-store"


BAD_ANIMATIONS = [
    ("?from=5&to=2", 400, "an animation runs forwards"),
    ("?speed=9", 400, "speed must be a number from 0.25 to 4"),
    ("?speed=0.1", 400, "speed must be a number"),
    ("?speed=nan", 400, "speed must be a number"),
    ("?speed=1e0", 400, "speed must be a number"),
    ("?to=abc", 400, "to must be a step number"),
    ("?from=99999", 404, "no step 99999 in this game (from)"),
    ("?view=P%E2%80%AE", 400, "view must be all, public"),
]


@pytest.mark.parametrize("query,status,words", BAD_ANIMATIONS)
@pytest.mark.parametrize("suffix", ["gif", "mp4"])
def test_bad_animation_parameters_get_a_clear_4xx(client, site, query, status, words, suffix):
    response = client.get(f"/r/{site[DRAWN[0]]['code']}/animation.{suffix}{query}",
                          headers={"Accept": "application/json"})
    assert response.status_code == status, (query, response.get_data(as_text=True))
    assert words in response.get_json()["error"], response.get_json()


def test_a_bad_code_or_id_or_token_is_the_same_error_as_its_page(client):
    for path, status in (("/r/not-a-code", 400), ("/g/nosuchgame", 404), ("/u/" + "x" * 43, 404)):
        page = client.get(path, headers={"Accept": "application/json"})
        picture = client.get(path + "/picture.png", headers={"Accept": "application/json"})
        assert page.status_code == picture.status_code == status, path
        assert picture.get_json()["error"] == page.get_json()["error"]


# --- animations -------------------------------------------------------------------------------

@pytest.mark.parametrize("game", DRAWN)
def test_the_gif_decodes_to_one_frame_a_step_at_chat_size(client, site, game):
    entry = site[game]
    response = client.get(f"/r/{entry['code']}/animation.gif?from=2&to=6&view=public")
    assert response.status_code == 200 and response.mimetype == "image/gif"
    with Image.open(io.BytesIO(response.data)) as gif:
        assert gif.format == "GIF" and gif.size == (720, 378)
        assert gif.n_frames == 5
        durations = []
        for frame in range(gif.n_frames):
            gif.seek(frame)
            durations.append(gif.info["duration"])
    fast = client.get(f"/r/{entry['code']}/animation.gif?from=2&to=6&view=public&speed=2")
    with Image.open(io.BytesIO(fast.data)) as gif:
        gif.seek(0)
        assert gif.info["duration"] < durations[0]
    assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"


@pytest.mark.parametrize("game", DRAWN)
def test_the_mp4_decodes_to_h264_frames_at_chat_size(client, site, game):
    av = pytest.importorskip("av", reason="PyAV decodes the MP4")
    entry = site[game]
    for path in (f"/r/{entry['code']}", f"/g/{entry['id']}", f"/u/{entry['token']}"):
        response = client.get(f"{path}/animation.mp4?from=0&to=3")
        assert response.status_code == 200 and response.mimetype == "video/mp4", response.get_data(as_text=True)[:300]
        with av.open(io.BytesIO(response.data)) as container:
            [stream] = container.streams.video
            assert not container.streams.audio
            assert stream.codec_context.name == "h264"
            frames = list(container.decode(stream))
        assert (frames[0].width, frames[0].height) == (720, 378)
        assert len(frames) >= 4  # at least one frame a step (a step may be held for several)


def test_an_animation_past_the_frame_cap_is_413_with_what_to_do(tmp_path, site_factory):
    app, entry = site_factory({"ANIMATION_MAX_FRAMES": 5})
    client = app.test_client()
    response = client.get(f"/r/{entry['code']}/animation.gif", headers={"Accept": "application/json"})
    assert response.status_code == 413
    message = response.get_json()["error"]
    assert "at most 5 frames" in message and "from= and to=" in message
    assert client.get(f"/r/{entry['code']}/animation.gif?from=1&to=5").status_code == 200
    assert client.get(f"/r/{entry['code']}/animation.gif?from=1&to=6").status_code == 413


# --- caching ------------------------------------------------------------------------------------

def test_code_pictures_are_immutable_with_a_strong_etag_and_304s(client, site):
    entry = site[DRAWN[0]]
    path = f"/r/{entry['code']}/picture.png?step=2&view=public"
    first = client.get(path)
    etag = first.headers["ETag"]
    assert etag.startswith('"') and not etag.startswith("W/")
    assert first.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    again = client.get(path, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b"" and again.headers["ETag"] == etag
    assert again.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    # another step, view, set of names or kind is another image
    others = {client.get(p).headers["ETag"] for p in (
        f"/r/{entry['code']}/picture.png?step=3&view=public", f"/r/{entry['code']}/picture.png?step=2",
        f"/r/{entry['code']}/picture.png?step=2&view=public&players=Ann,Bo",
        f"/r/{entry['code']}/animation.gif?from=2&to=2&view=public")}
    assert len(others) == 4 and etag not in others


def test_archived_pictures_are_keyed_by_the_stored_bytes(app, client, site):
    from viewer.app import get_archive
    from viewer.services.picture import Ask, content_key, validator

    entry = site[DRAWN[0]]
    response = client.get(f"/g/{entry['id']}/picture.png?step=1")
    assert response.headers["Cache-Control"] == "public, max-age=300"
    with app.app_context():
        raw = get_archive().get(entry["id"]).raw
        expected = validator(content_key(b"g\0" + raw), Ask("picture", step=1))
    assert response.headers["ETag"] == f'"{expected}"'
    assert client.get(f"/g/{entry['id']}/picture.png?step=1",
                      headers={"If-None-Match": response.headers["ETag"]}).status_code == 304


def test_upload_pictures_are_private_and_unlisted_ones_do_not_open_by_id(app, client, site):
    from viewer.services.upload import uploads

    entry = site[DRAWN[0]]
    response = client.get(f"/u/{entry['token']}/picture.png")
    assert response.status_code == 200
    assert response.headers["Cache-Control"] == "private, no-store"
    assert response.headers["X-Robots-Tag"] == "noindex"
    with app.app_context():
        public_id = uploads().by_token(entry["token"]).public_id
    for suffix in ("picture.png", "animation.gif", "animation.mp4"):
        hidden = client.get(f"/g/{public_id}/{suffix}", headers={"Accept": "application/json"})
        assert hidden.status_code == 404 and "no archived game" in hidden.get_json()["error"]


# --- cost under load -----------------------------------------------------------------------------

@pytest.fixture
def site_factory(tmp_path):
    """An app with ``config``, and a code of the first drawn game."""
    from viewer.app import create_app

    def make(config):
        app = create_app({"TESTING": True, "DB": f"sqlite:///{tmp_path / 'limits.db'}", **config})
        return app, {"code": code_of(selfplay(DRAWN[0])), "log": selfplay(DRAWN[0])}
    return make


def test_renders_past_the_clients_burst_are_429_and_cached_answers_are_free(site_factory):
    app, entry = site_factory({"PICTURE_RATE_PER_MINUTE": 1, "PICTURE_RATE_BURST": 2,
                               "ANIMATION_RATE_PER_MINUTE": 1, "ANIMATION_RATE_BURST": 1})
    client = app.test_client()
    base = f"/r/{entry['code']}/picture.png"
    first = client.get(f"{base}?step=1")
    assert first.status_code == 200 and client.get(f"{base}?step=2").status_code == 200
    refused = client.get(f"{base}?step=3", headers={"Accept": "application/json"})
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) >= 1
    assert "too many pictures drawn" in refused.get_json()["error"]
    # drawn already: from memory, or a 304, without a token
    assert client.get(f"{base}?step=1").data == first.data
    assert client.get(f"{base}?step=2", headers={"If-None-Match": first.headers["ETag"]}).status_code == 200
    assert client.get(f"{base}?step=1", headers={"If-None-Match": first.headers["ETag"]}).status_code == 304
    # animations have their own bucket
    assert client.get(f"/r/{entry['code']}/animation.gif?from=0&to=1").status_code == 200
    assert client.get(f"/r/{entry['code']}/animation.gif?from=0&to=2").status_code == 429
    # page views are never limited
    assert client.get(f"/r/{entry['code']}").status_code == 200


def test_renders_past_the_process_budget_are_503_and_pages_still_open(site_factory):
    from viewer.services.picture import render_slots

    app, entry = site_factory({"RENDER_MAX_CONCURRENT": 2, "RENDER_WAIT_SECONDS": 0.05,
                               "RENDER_BUSY_RETRY_SECONDS": 7})
    client = app.test_client()
    base = f"/r/{entry['code']}/picture.png"
    drawn = client.get(f"{base}?step=1")
    with app.app_context():
        slots = render_slots()
    taken = [slots.acquire(blocking=False) for _ in range(2)]  # every slot held, as by two renders
    assert taken == [True, True]
    try:
        busy = client.get(f"{base}?step=4", headers={"Accept": "application/json"})
        assert busy.status_code == 503 and busy.headers["Retry-After"] == "7"
        assert "drawing as many pictures as it can" in busy.get_json()["error"]
        assert client.get(f"/r/{entry['code']}/animation.mp4?from=0&to=1").status_code == 503
        assert client.get(f"{base}?step=1").data == drawn.data  # from memory: no slot needed
        assert client.get(f"/r/{entry['code']}").status_code == 200  # the page opens
    finally:
        for _ in taken:
            slots.release()
    assert client.get(f"{base}?step=4").status_code == 200


def test_drawing_past_the_process_share_of_time_is_503_for_every_client(site_factory):
    """All clients together may draw only RENDER_SHARE of a process's time: a flood from many
    addresses (a link posted to a large chat) gets 503s, not the workers."""
    app, entry = site_factory({"RENDER_SHARE": 0.001, "RENDER_BURST_SECONDS": 0.001,
                               "PICTURE_RATE_BURST": 1000})
    base = f"/r/{entry['code']}/picture.png"
    first = app.test_client().get(f"{base}?step=1", environ_base={"REMOTE_ADDR": "10.0.0.1"})
    assert first.status_code == 200  # the budget had time left: drawn, and charged what it took
    other = app.test_client().get(f"{base}?step=2", environ_base={"REMOTE_ADDR": "10.0.0.2"},
                                  headers={"Accept": "application/json"})
    assert other.status_code == 503 and int(other.headers["Retry-After"]) >= 1
    assert "drawing as many pictures as it can" in other.get_json()["error"]
    # what is drawn already costs no drawing time, and pages are never refused
    assert app.test_client().get(f"{base}?step=1", environ_base={"REMOTE_ADDR": "10.0.0.3"}).data == first.data
    assert app.test_client().get(f"/r/{entry['code']}").status_code == 200


def test_a_render_waits_briefly_for_a_slot(site_factory):
    from viewer.services.picture import render_slots

    app, entry = site_factory({"RENDER_MAX_CONCURRENT": 1, "RENDER_WAIT_SECONDS": 5})
    client = app.test_client()
    with app.app_context():
        slots = render_slots()
    slots.acquire()
    timer = threading.Timer(0.3, slots.release)
    timer.start()
    try:
        assert client.get(f"/r/{entry['code']}/picture.png?step=2").status_code == 200
    finally:
        timer.join()


# --- hostile names --------------------------------------------------------------------------------

HOSTILE = ("<script>alert(1)</script>&amp;\"'", "\u202eevil\u202c" + "W" * 10_000, "\u202e<b>x</b>")


@pytest.mark.parametrize("game", DRAWN)
def test_hostile_names_draw_and_never_reach_the_html_unescaped(client, site, game):
    entry = site[game]
    seats = get(game).seat_order(entry["log"])
    value = ",".join(quote(name, safe="") for name in (HOSTILE * len(seats))[:len(seats)])
    page = client.get(f"/r/{entry['code']}?players={value}")
    assert page.status_code == 200, page.get_data(as_text=True)[:400]
    html = page.get_data(as_text=True)
    assert "<script>alert" not in html and "<b>x</b>" not in html
    head = head_of(html)
    for key in PICTURE_TAGS:
        assert "\u202e" not in head.one(key), key
    image = head.one("og:image")
    assert "players=" in image
    for url in (image, image + "&step=3&view=all"):
        picture = client.get(url)
        assert picture.status_code == 200, picture.get_data(as_text=True)[:300]
        assert png_size(picture.data) == (1200, 630)
    gif = client.get(f"/r/{entry['code']}/animation.gif?from=0&to=2&players={value}")
    assert gif.status_code == 200 and gif.mimetype == "image/gif"


# --- oEmbed, the share box -------------------------------------------------------------------------

@pytest.mark.parametrize("game", DRAWN)
def test_oembed_gives_the_preview_picture_as_thumbnail(client, site, game):
    entry = site[game]
    for page in (f"{HOST}/r/{entry['code']}", f"{HOST}/g/{entry['id']}", f"{HOST}/r/{entry['code']}?step=2"):
        body = client.get("/oembed?" + "url=" + quote(page, safe="")).get_json()
        assert (body["thumbnail_width"], body["thumbnail_height"]) == (1200, 630)
        thumbnail = body["thumbnail_url"]
        assert thumbnail.startswith(HOST + urlsplit(page).path + "/picture.png")
        assert ("step=2" in thumbnail) == ("step=2" in page)
        response = client.get(thumbnail)
        assert response.mimetype == "image/png" and png_size(response.data) == (1200, 630)


@pytest.mark.parametrize("game", DRAWN)
def test_the_share_box_has_a_picture_link_of_the_step_and_view_shown(client, site, game):
    entry = site[game]
    seat = get(game).seat_order(entry["log"])[1]  # a seat both games have (the upload is another game)
    for path in (f"/r/{entry['code']}", f"/u/{entry['token']}"):
        html = client.get(f"{path}?step=2&view={seat}").get_data(as_text=True)
        head = head_of(html)
        link = head.by_id["picture-link"]
        assert html.index('id="copy-link"') < html.index('id="picture-link"') < html.index("Download log")
        assert urlsplit(link["href"]).path == f"{path}/picture.png"
        asked = parse_qs(urlsplit(link["href"]).query)
        assert asked.pop("players", None) == parse_qs(urlsplit(head.by_id["share-link"]["value"]).query).get("players")
        assert asked == {"step": ["2"], "view": [seat]}
        assert urlsplit(link["data-base"]).path == f"{path}/picture.png"
        assert {"all", "public", seat} <= set(link["data-views"].split())
        assert client.get(link["href"]).status_code == 200


# --- games with no drawing ---------------------------------------------------------------------------

@pytest.mark.parametrize("game", names())
def test_a_game_with_no_drawing_keeps_its_pages_with_a_summary_card(client, app, game, monkeypatch):
    """A game may give no drawing (``has_drawing`` false: a plugin that draws nothing): its
    pages work as before, with a summary card and no picture link; its picture routes are 404."""
    from viewer.app import get_archive

    if get(game).has_drawing:  # every built-in game draws: take its drawing away
        monkeypatch.setattr(type(get(game)), "has_drawing", property(lambda self: False))
    assert not get(game).has_drawing
    log = selfplay(game)
    with app.app_context():
        public_id = get_archive().ingest_bytes(log.canonical_json().encode(), f"{game}.json")[0].public_id
    code = code_of(log)
    for path in (f"/r/{code}", f"/g/{public_id}", f"/embed/r/{code}"):
        response = client.get(path)
        assert response.status_code == 200
        head = head_of(response.get_data(as_text=True))
        assert head.one("twitter:card") == "summary"
        assert "og:image" not in head.meta and "picture-link" not in head.by_id
    missing = client.get(f"/r/{code}/picture.png", headers={"Accept": "application/json"})
    assert missing.status_code == 404 and "have no picture" in missing.get_json()["error"]
    body = client.get("/oembed?url=" + quote(f"{HOST}/r/{code}", safe="")).get_json()
    assert "thumbnail_url" not in body
