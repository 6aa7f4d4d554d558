"""Replay pages: ``/r/<code>`` (a game from its code) and ``/g/<id>`` (an archived game).

Each page is also JSON (``.json``), and offers the log (``/log.json``) and the game's exports (``GameModule.exports``, one route).
Code pages never change, so they are rendered once, kept in memory and sent with long-lived
cache headers and an ETag."""

from __future__ import annotations

import functools
import hashlib
import mimetypes
import threading
from collections import OrderedDict
from typing import Any, Callable
from urllib.parse import unquote_plus, urlencode, urlsplit

from flask import Response, current_app, jsonify, redirect, render_template, request

from replay.errors import ReplayError
from replay.picture import views as picture_views
from replay.codec import CodeError, NamesError, decode, encode, is_legacy_code, seat_order
from replay.codec import names_of as log_names
from replay.codec.links import NAMES_PARAMETER, format_names, names_from_query

from ..exports import export_links
from ..app import PageError, accepts_gzip, etag_for, get_archive, gzip_bytes
from ..games import NoBoardError, board_for, game_titles
from ..view import MAX_PERSPECTIVE, ViewedGame, build_charts, build_view, check_output, plotly_bundle
from .. import ratelimit
from . import deals
from . import picture as pictures

MAX_CODE = 4096
MAX_NAME = 60
THEMES = ("auto", "light", "dark")
ARCHIVED_CACHE_SECONDS = 300
ANALYSIS_MAX_CONCURRENT = 2  # games solved at once per process (config ANALYSIS_MAX_CONCURRENT)
ANALYSIS_BUSY_RETRY_SECONDS = 10  # Retry-After when they are all taken
_SLOTS_LOCK = threading.Lock()


# --- loading games -----------------------------------------------------------------------------

#: the title of the 400 for a link's names that cannot belong to its game
NAMES_TITLE = "These names do not fit this game"


def decode_code(text: str, names: tuple[str, ...] = ()) -> Any:
    """A game's log from a code or link, with the link's names (``names``: a ``players=`` value
    read in seat order, or those in ``text``); ``PageError(400)`` saying what is wrong."""
    if len(text) > MAX_CODE:
        raise PageError(f"that code is {len(text)} characters long; codes are at most {MAX_CODE}")
    try:
        return decode(text, names=names or None)
    except NamesError as exc:
        raise PageError(f"{exc} (the {NAMES_PARAMETER} parameter lists the names in seat order)",
                        400, NAMES_TITLE) from None
    except ReplayError as exc:
        raise PageError(f"not a replay code: {exc}", 400, "That is not a replay code") from None


def canonical_code(log: Any, given: str) -> str:
    """The code this server writes for a game (``given`` when no code of ours can carry it)."""
    try:
        return encode(log)
    except CodeError:
        return given


def names_of(log: Any) -> dict[str, str]:
    """Player names by seat (as text), as the log (or the link it came from) gives them."""
    return {seat: name[:MAX_NAME] for seat, name in log_names(log).items()}


def players_query(log: Any) -> str:
    """The canonical query that carries the log's names (``players=...`` in its seat order, every
    game's seats), or ``""``: what the share field, the embed code and oEmbed pass on."""
    value = format_names(names_of(log), seat_order(log))
    return f"{NAMES_PARAMETER}={value}" if value else ""


def raw_query() -> str:
    return request.query_string.decode("utf-8", "replace")


def game_from_code(code: str) -> ViewedGame:
    log = decode_code(code, names_from_query(raw_query()))
    return ViewedGame(log.replay(), names=names_of(log), code=code, path=f"/r/{code}", query=players_query(log),
                      started_at=log.started_at.isoformat() if log.started_at else None)


def find_archived(public_id: str):
    """The ``ArchivedGame`` with this id; ``PageError(404)`` when there is none."""
    if len(public_id) > 64:
        raise PageError("that is not a game id", 404)
    archived = get_archive().get(public_id)
    if archived is None:
        raise PageError(f"there is no archived game with id {public_id!r}", 404, "No such game")
    return archived


def viewed_archived(archived) -> ViewedGame:
    replay = archived.replay()
    names = {s: (p.get("name") or "")[:MAX_NAME] for s, p in (archived.players or {}).items() if p.get("name")}
    started = archived.started_at.isoformat() if archived.started_at else None
    return ViewedGame(replay, names=names, code=archived.code, public_id=archived.public_id,
                      path=f"/g/{archived.public_id}", started_at=started,
                      extra={"archive": _jsonable(archived.summary())}, source_bytes=len(archived.raw))


def game_from_archive(public_id: str) -> tuple[ViewedGame, Any]:
    archived = find_archived(public_id)
    return viewed_archived(archived), archived


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return value


# --- rendering ---------------------------------------------------------------------------------

def view_options(args) -> dict[str, Any]:
    step = args.get("step", "")
    perspective = args.get("view", "all")
    theme = args.get("theme", "auto")
    return {
        "step": int(step) if step.isascii() and step.isdigit() and len(step) < 6 else None,
        "perspective": perspective if len(perspective) <= MAX_PERSPECTIVE else "all",  # the board checks it
        "reveal": args.get("reveal", "") in ("1", "true", "yes", "on"),
        "theme": theme if theme in THEMES else "auto",
    }


def render_game(game: ViewedGame, template: str, **extra: Any) -> str:
    options = view_options(request.args)
    view = build_view(game, step=options["step"], perspective=options["perspective"], reveal=options["reveal"])
    base = request.host_url.rstrip("/")
    page_url = base + game.path + (f"?{game.query}" if game.query else "")
    embed_path = "/embed" + game.path + (f"?{game.query}" if game.query else "")
    links = {
        "page": page_url,
        "json": game.path + ".json" + (f"?{game.query}" if game.query else ""),
        "log": game.path + "/log.json" + (f"?{game.query}" if game.query else ""),
        "embed": base + embed_path,
        "oembed": base + "/oembed?" + urlencode({"url": page_url, "format": "json"}),
        "full": game.path + (f"?{game.query}" if game.query else ""),
        "embed_script": base + "/embed.js",
    }
    links["exports"] = export_links(game, game.path, game.query)
    if pictures.has_picture(game):
        # the view on screen ("all", every card open, is a step's picture's default)
        shown = view["perspective"] if view["perspective"] in picture_views(game.replay)[1:] else None
        links.update({
            "picture": pictures.picture_path(game),  # the share box's picture link edits step and view
            "picture_step": pictures.picture_path(game, view["step"]["index"], shown),
            "picture_views": picture_views(game.replay),
            "animation_gif": pictures.picture_path(game, kind="gif"),
            "animation_mp4": pictures.picture_path(game, kind="mp4"),
        })
    social_image = _social_image(game, view, options, base)
    charts = build_charts(game)
    # charts drawn by the server (svg) are in the page; the others go to plotly.js as JSON
    charts_json = [{k: v for k, v in c.items() if k != "svg"} for c in charts if not c.get("svg")]
    html = render_template(template, **view, v=view, links=links, theme=options["theme"],
                           charts=charts, charts_json=charts_json, plotly_bundle=plotly_bundle(charts),
                           social_image=social_image, **extra)
    check_output(game, len(html.encode("utf-8")))  # the steps kept to the budget; the page must too
    return html


def _social_image(game: ViewedGame, view: dict[str, Any], options: dict[str, Any], base: str) -> dict[str, Any] | None:
    """The page's link preview picture (``og:image``): a board's own (``v.og``'s ``image``,
    with ``image_type``, ``width``, ``height``, ``image_alt``; or its ``step``, and ``view``, to
    draw), else the PNG of the step the link asks for (no ``?step=``: the deal) from the view it
    asks for (``?view=``). ``None``: no picture (a game with no drawing), a ``summary`` card."""
    og = view.get("og") or {}
    if og.get("image"):
        kind = og.get("image_type") or mimetypes.guess_type(urlsplit(og["image"]).path)[0] or "image/png"
        return {"image": og["image"], "type": kind, "width": og.get("width"), "height": og.get("height"),
                "alt": og.get("image_alt") or game.title}
    if og.get("step") is not None:
        found = pictures.preview(game, base, int(og["step"]), og.get("view") or request.args.get("view"), game.title)
        if found is not None and og.get("image_alt"):
            found["alt"] = og["image_alt"]
        return found
    return pictures.preview(game, base, options["step"], request.args.get("view"), game.title)


class PageCache:
    """A thread-safe LRU of rendered pages, ``key -> (html, gzipped html)``, bounded by the
    bytes it holds (both forms counted): a page larger than a quarter of it is not kept."""

    def __init__(self, max_bytes: int):
        self.max_bytes = max_bytes
        self.bytes = 0
        self.items: OrderedDict[str, tuple[bytes, bytes]] = OrderedDict()
        self.lock = threading.Lock()

    def get_or_make(self, key: str, make: Callable[[], str]) -> tuple[bytes, bytes]:
        with self.lock:
            found = self.items.get(key)
            if found is not None:
                self.items.move_to_end(key)
                return found
        html = make().encode("utf-8")
        entry = (html, gzip_bytes(html))
        size = len(entry[0]) + len(entry[1])
        if 0 < size <= self.max_bytes // 4:
            with self.lock:
                old = self.items.pop(key, None)
                if old is not None:
                    self.bytes -= len(old[0]) + len(old[1])
                self.items[key] = entry
                self.bytes += size
                while self.bytes > self.max_bytes:
                    _, dropped = self.items.popitem(last=False)
                    self.bytes -= len(dropped[0]) + len(dropped[1])
        return entry


def page_cache() -> PageCache:
    cache = current_app.extensions.get("page_cache")
    if cache is None:
        cache = current_app.extensions.setdefault("page_cache", PageCache(int(current_app.config["PAGE_CACHE_BYTES"])))
    return cache


@functools.cache
def page_parameters() -> frozenset[str]:
    """The query parameters a replay page reads: the shell's, and every board's own."""
    names = {"step", "view", "reveal", "theme", NAMES_PARAMETER}  # view_options() and the names
    for name in game_titles():
        try:
            board = board_for(name)
        except NoBoardError:
            continue
        names.update(board.options, board.parameters)
    return frozenset(names)


def page_query() -> str:
    """The request's query with only the parameters a page reads (``page_parameters``), each
    ``name=value`` pair kept as it came and in its order: unknown parameters (``?x=1``) make no
    other page, so they make no other cache entry."""
    known = page_parameters()
    raw = request.query_string.decode("utf-8", "replace")
    return "&".join(pair for pair in raw.split("&") if unquote_plus(pair.partition("=")[0]) in known)


def cached_page(kind: str, make: Callable[[], str], cache_control: str, version: str = "") -> Response:
    """An HTML page kept rendered in memory, with an ETag and 304s.

    The key is the page's host (pages show absolute links: share box, oEmbed discovery), its
    path, the parameters it reads (``page_query``) and ``version`` (what the content depends on
    beyond the URL).
    """
    key = f"{kind}\0{request.host_url}\0{request.path}?{page_query()}\0{version}"
    etag = etag_for(key)
    headers = {"Cache-Control": cache_control}
    if request.if_none_match.contains_weak(etag):
        response = Response(status=304, headers=headers)
        response.set_etag(etag, weak=True)
        return response
    html, gz = page_cache().get_or_make(key, make)
    if accepts_gzip() and current_app.config["COMPRESS"]:
        response = Response(gz, mimetype="text/html", headers=headers)
        response.headers["Content-Encoding"] = "gzip"
    else:
        response = Response(html, mimetype="text/html", headers=headers)
    response.set_etag(etag, weak=True)
    return response


def immutable_page(kind: str, make: Callable[[], str]) -> Response:
    """A page that never changes for its URL (code pages): a year of caching."""
    return cached_page(kind, make, f"public, max-age={current_app.config['CODE_CACHE_SECONDS']}, immutable")


def archived_game_page(kind: str, public_id: str, template: str, other_tables: bool = True) -> Response:
    """An archived game's page: looked up every time (a deleted game is gone at once), rendered
    once per version of its stored bytes and, for a game with deals, of its deal's listed
    tables (the "Other tables" panel: ``services/deals.py``; ``other_tables=False``: a page
    without it, an embed)."""
    archived = find_archived(public_id)
    version = hashlib.sha256(archived.raw).hexdigest()[:20]
    try:
        key = deals.archived_key(archived) if other_tables else None
        deal, tables = deals.game_panel(key, own_id=archived.public_id)
        return cached_page(kind, lambda: render_game(viewed_archived(archived), template, deal_panel=deal()),
                           f"public, max-age={ARCHIVED_CACHE_SECONDS}", version + tables)
    except deals.PanelUnavailable as exc:
        return page_without_panel(exc, lambda: render_game(viewed_archived(archived), template))


def code_game_page(kind: str, code: str, template: str) -> Response:
    """A code page: immutable (rendered once, cached for a year), except for a game with deals,
    whose "Other tables" panel changes as tables of its deal are stored: that page is kept per
    version of the deal's listed tables and cached like an archived game's."""
    key, canonical = deals.code_deal(code)
    if key is None:
        return immutable_page(kind, lambda: render_game(game_from_code(code), template))
    try:
        deal, tables = deals.game_panel(key, own_code=canonical)
        return cached_page(kind, lambda: render_game(game_from_code(code), template, deal_panel=deal()),
                           f"public, max-age={ARCHIVED_CACHE_SECONDS}", "deal\0" + tables)
    except deals.PanelUnavailable as exc:
        return page_without_panel(exc, lambda: render_game(game_from_code(code), template))


def page_without_panel(exc: Exception, make: Callable[[], str]) -> Response:
    """A game's page when its "Other tables" panel cannot be built (``deals.PanelUnavailable``:
    the archive cannot be opened or queried): the page without the panel, rendered for this
    request and never cached (neither here nor by the browser or a proxy), so the panel is back
    as soon as the archive is. A page that raises while a panel is being built was never kept
    in the page cache (``PageCache.get_or_make`` keeps what ``make`` returned)."""
    current_app.logger.warning("the Other tables panel is left out: %s", exc)
    response = Response(make(), mimetype="text/html")
    response.headers["Cache-Control"] = "no-store"
    return response


def legacy_redirect(code: str, prefix: str) -> Response | None:
    """A legacy code opens under this server's own code for the same game."""
    if not is_legacy_code(code):
        return None
    log = decode_code(code)
    new = canonical_code(log, code)
    if new == code:
        return None
    query = request.query_string.decode("ascii", "replace")
    return redirect(f"{prefix}/r/{new}" + (f"?{query}" if query else ""), 301)


# --- analysis (the page's "analysis" toggle fetches it; the page itself never holds it) --------

class SolverBusy(Exception):
    """Every solving slot of this process is taken (``ANALYSIS_MAX_CONCURRENT``)."""


def _solve_slots() -> threading.BoundedSemaphore:
    """The process's cap on games solved at once for the analysis routes."""
    found = current_app.extensions.get("analysis-slots")
    if found is None:
        with _SLOTS_LOCK:
            found = current_app.extensions.get("analysis-slots")
            if found is None:
                cap = int(current_app.config.get("ANALYSIS_MAX_CONCURRENT", ANALYSIS_MAX_CONCURRENT))
                if cap < 1:
                    raise ValueError(f"ANALYSIS_MAX_CONCURRENT must be at least 1, not {cap}")
                found = current_app.extensions["analysis-slots"] = threading.BoundedSemaphore(cap)
    return found


class _SolveSlot:
    """Holds one of the process's solving slots while a game is solved, or raises SolverBusy."""

    def __init__(self, slots: threading.BoundedSemaphore):
        self.slots = slots

    def __enter__(self) -> None:
        if not self.slots.acquire(blocking=False):
            raise SolverBusy()

    def __exit__(self, *exc: Any) -> None:
        self.slots.release()


def _busy() -> Response:
    seconds = int(current_app.config.get("ANALYSIS_BUSY_RETRY_SECONDS", ANALYSIS_BUSY_RETRY_SECONDS))
    response = jsonify({"error": "the server is solving as many games as it can right now: "
                                 f"try again in {seconds} s", "status": 503})
    response.status_code = 503
    response.headers["Retry-After"] = str(seconds)
    response.headers["Cache-Control"] = "no-store"
    return response


def analysis_response(game: ViewedGame, public_id: str | None, cache_control: str,
                      etag_parts: tuple[str, ...] | None = None) -> Response:
    """A game's analysis for its board (``Board.extra["analysis"]``), computed on first asking
    and kept by the archive (``archive/analyses.py``): a game is never solved twice.

    With ``etag_parts``, the answer carries a weak ETag made of them and the analysis version,
    and a request whose ``If-None-Match`` matches gets its 304 before anything is read or
    solved (and costs no rate-limit token). Solving a game not stored yet is rate limited per
    client and capped per process (``ANALYSIS_MAX_CONCURRENT``: 503 with ``Retry-After``);
    requests for one game wait for one solve."""
    make = game.board.extra.get("analysis")
    if make is None:
        raise PageError(f"{game.replay.game.title} games have no analysis", 404, "No analysis")
    archive = get_archive()
    version = archive.analyses.version(game.replay.log)
    if version is None:
        raise PageError("this game has no analysis", 404, "No analysis")
    etag = None
    if etag_parts is not None:
        etag = etag_for("ra", version, *etag_parts)
        if request.if_none_match.contains_weak(etag):
            response = Response(status=304)
            response.set_etag(etag, weak=True)
            response.headers["Cache-Control"] = cache_control
            return response
    if not archive.analyses.stored(game.replay.log):  # solving costs: new games are rate limited

        limited = ratelimit.check("analysis")
        if limited is not None:
            return limited
    slots = _solve_slots()
    try:
        analysis = archive.analysis(game.replay.log, game.replay, public_id=public_id,
                                    solve_slot=lambda: _SolveSlot(slots))
    except SolverBusy:
        return _busy()
    if analysis is None:
        raise PageError("this game has no analysis", 404, "No analysis")
    response = jsonify(make(game, analysis))
    response.headers["Cache-Control"] = cache_control
    if etag is not None:
        response.set_etag(etag, weak=True)
    return response


