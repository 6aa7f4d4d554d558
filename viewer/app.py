"""The viewer's Flask application factory.

>>> app = create_app({"TESTING": True, "DB": "sqlite://"})
>>> app.extensions["viewer_blueprints"]  # registered in this order
['static', 'home', 'replay', 'picture', 'embed', 'upload', 'games', 'stats', 'deals', 'triage', 'study', 'api']

Config comes from defaults, then ``GAME_REPLAY_*`` environment variables (``GAME_REPLAY_DB``
becomes ``DB``), then the mapping passed in. More areas plug in by adding a blueprint to
:data:`BLUEPRINTS` (or passing ``blueprints=``): each entry is ``"module:attribute"``.
"""

from __future__ import annotations

import gzip
import hashlib
import importlib
import threading
from pathlib import Path
from typing import Any, Mapping

from flask import Flask, Response, current_app, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from . import security
from .assets import Assets
from .errors import PageError
from .exports import export_media_types, export_suffixes
from .meta import meta_text
from .games import init_app as init_games
from werkzeug.middleware.proxy_fix import ProxyFix
from archive import Archive

#: The blueprints every app registers, in order.
BLUEPRINTS: list[str] = [
    "viewer.blueprints.static:bp",
    "viewer.blueprints.home:bp",
    "viewer.blueprints.replay:bp",
    "viewer.blueprints.picture:bp",
    "viewer.blueprints.embed:bp",
    "viewer.blueprints.upload:bp",
    "viewer.blueprints.games:bp",
    "viewer.blueprints.stats:bp",
    "viewer.blueprints.deals:bp",
    "viewer.blueprints.triage:bp",
    "viewer.blueprints.study:bp",
    "viewer.blueprints.api:bp",
]

DEFAULTS: dict[str, Any] = {
    "DB": None,  # archive URL; None: the archive's default (sqlite:///var/game-replay.db)
    "SITE_NAME": "Game Replay",
    "EMBED_FRAME_ANCESTORS": "*",  # who may frame /embed/ pages
    "PAGE_CACHE_BYTES": 64 * 1024 * 1024,  # rendered pages kept in memory (html and gzip), in bytes
    "COMPRESS": True,  # gzip text responses for clients that accept it
    "COMPRESS_MIN_SIZE": 500,
    "CODE_CACHE_SECONDS": 365 * 24 * 3600,
    "RECENT_GAMES": 10,
    # a deal's listed tables (a game page's "Other tables" panel) are looked up at most this often
    # per deal and process, in seconds (0: every request); services/deals.py
    "DEAL_VERSION_SECONDS": 1.0,
    "PROXY_FIX": 0,  # reverse proxies in front (trust that many X-Forwarded-* hops)
    "JSON_SORT_KEYS": False,
    # pictures and animations (viewer/services/picture.py; docs/deploy.md, "Pictures")
    "RENDER_MAX_CONCURRENT": 1,  # images drawn at once per process
    "RENDER_WAIT_SECONDS": 2.0,  # how long a render waits for a slot before its 503
    "RENDER_BUSY_RETRY_SECONDS": 5,  # Retry-After of that 503
    "IMAGE_CACHE_BYTES": 32 * 1024 * 1024,  # rendered images kept in memory per process, in bytes
    "ANIMATION_MAX_FRAMES": 400,  # frames (steps) in one GIF or MP4 (413 past it)
    # all clients together: drawing may take at most this share of a process's time, on
    # average (a burst of RENDER_BURST_SECONDS at once); past it 503, so that many clients
    # (a link posted to a large chat) cannot fill the workers with drawings either
    "RENDER_SHARE": 0.5,
    "RENDER_BURST_SECONDS": 10.0,
    # per client: a chat app fetches one PNG per link posted, a reader clicks "Picture" now and
    # then; cached answers and 304s are free. A PNG costs ~50 ms, an animation ~25 ms a frame
    "PICTURE_RATE_PER_MINUTE": 30,
    "PICTURE_RATE_BURST": 10,
    "ANIMATION_RATE_PER_MINUTE": 4,  # GIFs and MP4s made per client
    "ANIMATION_RATE_BURST": 2,
}
COMPRESSIBLE_TYPES = ("text/html", "text/css", "text/plain", "application/json", "application/javascript",
                      "image/svg+xml", *export_media_types())


def create_app(config: Mapping[str, Any] | None = None, blueprints: list[str] | None = None) -> Flask:
    """Build a viewer app. ``config`` overrides environment and defaults."""
    app = Flask(__name__, static_folder=None, instance_relative_config=True)
    app.config.update(DEFAULTS)
    app.config.from_prefixed_env(prefix="GAME_REPLAY")
    if config:
        app.config.update(config)
    if "PAGE_CACHE_SIZE" in app.config:  # a count of pages, before the cache was sized in bytes
        raise ValueError("PAGE_CACHE_SIZE (GAME_REPLAY_PAGE_CACHE_SIZE, a count of pages) is no longer read: "
                         "set PAGE_CACHE_BYTES (GAME_REPLAY_PAGE_CACHE_BYTES), the bytes of pages kept per worker")
    app.json.sort_keys = False
    app.json.ensure_ascii = False

    assets = Assets()
    app.extensions["assets"] = assets
    app.jinja_env.globals.update(asset_url=assets.url, site_name=lambda: current_app.config["SITE_NAME"])
    app.jinja_env.filters["meta_text"] = meta_text  # titles and preview tags: one line, no bidi tricks
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True

    init_games(app)  # boards' templates (games/<game>/...) and has_asset()

    hops = int(app.config.get("PROXY_FIX") or 0)
    if hops > 0:

        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops, x_prefix=hops)  # type: ignore[method-assign]

    registered = []
    for spec in blueprints if blueprints is not None else BLUEPRINTS:
        module_name, _, attr = spec.partition(":")
        bp = getattr(importlib.import_module(module_name), attr or "bp")
        app.register_blueprint(bp)
        registered.append(bp.name)
    app.extensions["viewer_blueprints"] = registered

    security.init_app(app)
    app.after_request(compress_response)
    app.register_error_handler(PageError, _page_error)
    app.register_error_handler(HTTPException, _http_error)
    return app


# --- archive ---------------------------------------------------------------------------------

_ARCHIVE_LOCK = threading.Lock()


def get_archive():
    """The app's archive (opened on first use). Raises ``ArchiveError`` if it cannot be opened.

    Opening runs Alembic, whose module state is not thread-safe, so under a threaded server
    only one thread opens the archive; the others wait for it.
    """
    archive = current_app.extensions.get("archive")
    if archive is not None:
        return archive
    with _ARCHIVE_LOCK:
        return _open_archive()


def _open_archive():
    archive = current_app.extensions.get("archive")
    if archive is None:
        url = current_app.config["DB"]
        if url and url.startswith("sqlite:///"):
            Path(url[len("sqlite:///"):]).parent.mkdir(parents=True, exist_ok=True)
        archive = Archive(url or None)
        current_app.extensions["archive"] = archive
    return archive


# --- responses -------------------------------------------------------------------------------

def wants_json() -> bool:
    path = request.path
    if path.endswith(".json") or path.startswith("/api/") or path == "/oembed":
        return True
    best = request.accept_mimetypes.best_match(["text/html", "application/json"])
    return best == "application/json" and request.accept_mimetypes[best] > request.accept_mimetypes["text/html"]


def error_response(message: str, status: int, title: str, download: str | None = None) -> Response:
    if wants_json():
        response = jsonify({"error": message, "status": status, **({"download": download} if download else {})})
    else:
        html = render_template("error.html", message=message, title=title, status=status, paste=damaged_code(),
                               download=download)
        response = Response(html, status=status, mimetype="text/html")
    response.status_code = status
    response.headers["Cache-Control"] = "no-store"
    return response


def damaged_code() -> str:
    """The code the reader tried, to fix in the error page's box: ``?code=`` on the home page, the
    code in an ``/r/<code>`` (or ``/embed/r/<code>``) address."""
    if request.path == "/":
        return request.args.get("code", "")[:4096]
    for prefix in ("/r/", "/embed/r/"):
        if request.path.startswith(prefix):
            code = request.path[len(prefix):]
            for suffix in ("/log.json", ".json", "/picture.png", "/animation.gif", "/animation.mp4",
                           *export_suffixes()):
                if code.endswith(suffix):
                    code = code[: -len(suffix)]
            return code[:4096]
    return ""


def _page_error(exc: PageError) -> Response:
    return error_response(exc.message, exc.status, exc.title, exc.download)


def _http_error(exc: HTTPException) -> Response:
    if exc.code is not None and exc.code < 400:
        return exc.get_response()
    messages = {404: "There is no page at this address.",
                405: "This page does not accept that kind of request."}
    response = error_response(messages.get(exc.code, exc.description or exc.name), exc.code or 500, exc.name)
    if exc.code == 405 and isinstance(exc, HTTPException):
        allow = exc.get_response().headers.get("Allow")
        if allow:
            response.headers["Allow"] = allow
    return response


def gzip_bytes(data: bytes) -> bytes:
    return gzip.compress(data, compresslevel=6, mtime=0)


def accepts_gzip() -> bool:
    return "gzip" in request.headers.get("Accept-Encoding", "").lower()


def compress_response(response: Response) -> Response:
    """``after_request``: gzip text bodies for clients that accept gzip."""
    response.vary.add("Accept-Encoding")
    if (not current_app.config["COMPRESS"] or response.direct_passthrough or response.is_streamed
            or "Content-Encoding" in response.headers or response.status_code < 200
            or response.status_code in (204, 304) or response.mimetype not in COMPRESSIBLE_TYPES
            or not accepts_gzip()):
        return response
    data = response.get_data()
    if len(data) < current_app.config["COMPRESS_MIN_SIZE"]:
        return response
    response.set_data(gzip_bytes(data))
    response.headers["Content-Encoding"] = "gzip"
    if response.headers.get("ETag") and not response.headers["ETag"].startswith("W/"):
        response.headers["ETag"] = "W/" + response.headers["ETag"]
    return response


def etag_for(*parts: str) -> str:
    """A weak validator for content made from ``parts`` and the current assets and templates."""
    assets: Assets = current_app.extensions["assets"]
    digest = hashlib.sha256("\0".join((assets.version, *parts)).encode()).hexdigest()[:20]
    return digest
