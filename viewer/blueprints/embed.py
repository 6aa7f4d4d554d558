"""Embeds for blogs: ``/embed/r/<code>``, ``/embed/g/<id>``, and ``/oembed`` (type ``rich``).

Only these embed pages may be put in another site's iframe (see ``viewer.security``).
``/embed.js`` is an optional one-line script for blogs: embedded pages post their height to the
page around them and the script sizes their iframes. oEmbed follows https://oembed.com: ``url`` and ``format`` (``json`` only: anything else is
501), ``maxwidth``/``maxheight`` bound the iframe, an address we do not serve is 404. A game with a
drawing has a ``thumbnail_url``: the PNG its page's link preview shows (1200x630). A study's
address (``/s/<id>``, ``/s/<id>/<rev>``, with ``?line=``) answers with its embed
(``/embed/s/...``, served by ``viewer.blueprints.study``), the study's title, a description
that counts its notes and branches, and the line's picture at step 0.
"""

from __future__ import annotations

import re
from html import escape
from urllib.parse import SplitResult, parse_qs, quote, urlsplit

from flask import Blueprint, Response, current_app, jsonify, request

from ..app import PageError
from ..security import frameable
from ..services.picture import PREVIEW_HEIGHT, PREVIEW_WIDTH, has_picture, picture_path, preview_step_view
from ..services.replay import NAMES_TITLE, archived_game_page, game_from_archive, game_from_code, immutable_page, render_game
from ..services.study import describe, find as find_study, line_of, study_game, study_title, viewed_line

bp = Blueprint("embed", __name__)
PAGE = re.compile(r"^(?:/embed)?/(r|g)/([^/?#.]+)/?$")
STUDY_PAGE = re.compile(r"^(?:/embed)?/s/([A-Za-z0-9_-]{1,64})(?:/([0-9]{1,9}))?/?$")
DEFAULT_WIDTH, DEFAULT_HEIGHT = 640, 560
MIN_WIDTH, MIN_HEIGHT = 200, 200


@bp.get("/embed/r/<code>")
@frameable
def embed_code(code: str) -> Response:
    return immutable_page("embed-r", lambda: render_game(game_from_code(code), "embed.html"))


@bp.get("/embed/g/<public_id>")
@frameable
def embed_archived(public_id: str) -> Response:
    return archived_game_page("embed-g", public_id, "embed.html", other_tables=False)


def _dimension(name: str) -> int | None:
    value = request.args.get(name)
    if value is None or value == "":
        return None
    if not (value.isascii() and value.isdigit()) or len(value) > 6 or int(value) < 1:
        raise PageError(f"{name} must be a whole number of pixels (1 or more), not {value[:20]!r}", 400)
    return int(value)


@bp.get("/embed.js")
def embed_script() -> Response:
    """The optional script for blogs (one line, at a stable address) that sizes replay iframes to
    their content; the oEmbed answer is a plain iframe that works without it."""
    asset = current_app.extensions["assets"].by_name["embed.js"]
    response = Response(asset.data, mimetype="application/javascript")
    response.charset = "utf-8"
    response.headers["Cache-Control"] = "public, max-age=86400"
    response.headers["Cross-Origin-Resource-Policy"] = "cross-origin"
    response.set_etag(asset.digest, weak=True)
    return response.make_conditional(request)


def _size() -> tuple[int, int]:
    """The iframe's size: the default, bounded by ``maxwidth`` and ``maxheight``."""
    maxwidth, maxheight = _dimension("maxwidth"), _dimension("maxheight")
    width, height = DEFAULT_WIDTH, DEFAULT_HEIGHT
    if maxwidth is not None:
        width = max(min(width, maxwidth), min(MIN_WIDTH, maxwidth))
    if maxheight is not None:
        height = max(min(height, maxheight), min(MIN_HEIGHT, maxheight))
    return width, height


def _study_oembed(parts: SplitResult, study_id: str, rev: int | None) -> Response:
    """oEmbed of a study page (``/s/<id>``, ``/s/<id>/<rev>``, ``?line=``): its embed, the
    study's title, a description counting its notes and branches, and the line's picture at
    step 0 as the thumbnail."""
    asked = parse_qs(parts.query)
    line = (asked.get("line") or ["main"])[0]
    try:
        found = find_study(study_id, rev)
        sg = study_game(found)
        line = line_of(sg, line, found.id)
    except PageError as exc:
        raise PageError(f"that address is not a study on this site: {exc.message}", 404) from None
    game = viewed_line(found, sg, line, rev is not None)
    title = study_title(found, sg, game)
    width, height = _size()
    origin = f"{parts.scheme}://{parts.netloc}"
    query = "" if line == "main" else f"?line={quote(line)}"
    src = f"{origin}/embed{game.path}{query}"
    html = (f'<iframe src="{escape(src)}" width="{width}" height="{height}" '
            f'style="border:0;max-width:100%" loading="lazy" title="{escape(title)}"></iframe>')
    body = {
        "version": "1.0", "type": "rich", "title": title, "description": describe(sg, title),
        "provider_name": current_app.config["SITE_NAME"], "provider_url": f"{origin}/",
        "cache_age": 3600 if rev is not None else 300, "html": html, "width": width, "height": height,
    }
    if has_picture(game):
        body.update({"thumbnail_url": origin + picture_path(game, 0),
                     "thumbnail_width": PREVIEW_WIDTH, "thumbnail_height": PREVIEW_HEIGHT})
    response = jsonify(body)
    response.headers["Cache-Control"] = "public, max-age=300"
    response.headers["Access-Control-Allow-Origin"] = "*"
    return response


@bp.get("/oembed")
def oembed() -> Response:
    fmt = request.args.get("format", "json")
    if fmt != "json":
        raise PageError(f"oEmbed format {fmt[:20]!r} is not supported; use json", 501, "Not implemented")
    url = request.args.get("url", "")
    if not url:
        raise PageError("the url parameter is required", 400)
    try:
        parts = urlsplit(url)
    except ValueError:  # e.g. an unclosed IPv6 bracket
        raise PageError("that address is not a replay on this site", 404) from None
    hosts = {request.host, *current_app.config.get("OEMBED_HOSTS", ())}
    study = STUDY_PAGE.match(parts.path or "")
    if study and parts.scheme in ("http", "https") and parts.netloc in hosts:
        return _study_oembed(parts, study.group(1), int(study.group(2)) if study.group(2) else None)
    found = PAGE.match(parts.path or "")
    if parts.scheme not in ("http", "https") or parts.netloc not in hosts or not found:
        raise PageError("that address is not a replay on this site", 404)
    kind, key = found.groups()
    try:
        with current_app.test_request_context(f"/{kind}/{key}", query_string=parts.query,
                                              base_url=f"{parts.scheme}://{parts.netloc}"):
            game = game_from_code(key) if kind == "r" else game_from_archive(key)[0]
    except PageError as exc:
        if exc.title == NAMES_TITLE:  # a replay, but its link's names cannot be this game's: say so
            raise
        raise PageError(f"that address is not a replay on this site: {exc.message}", 404) from None

    width, height = _size()
    src = f"{parts.scheme}://{parts.netloc}/embed/{kind}/{key}" + (f"?{parts.query}" if parts.query else "")
    title = game.title
    html = (f'<iframe src="{escape(src)}" width="{width}" height="{height}" '
            f'style="border:0;max-width:100%" loading="lazy" title="{escape(title)}"></iframe>')
    body = {
        "version": "1.0",
        "type": "rich",
        "title": title,
        "provider_name": current_app.config["SITE_NAME"],
        "provider_url": f"{parts.scheme}://{parts.netloc}/",
        "cache_age": 86400 if kind == "r" else 300,
        "html": html,
        "width": width,
        "height": height,
    }
    if has_picture(game):  # the picture the page's link preview shows: the deal, or the step the url asks
        asked = parse_qs(parts.query)
        step, view = preview_step_view(game, (asked.get("step") or [None])[0], (asked.get("view") or [None])[0])
        body.update({"thumbnail_url": f"{parts.scheme}://{parts.netloc}" + picture_path(game, step, view),
                     "thumbnail_width": PREVIEW_WIDTH, "thumbnail_height": PREVIEW_HEIGHT})
    response = jsonify(body)
    response.headers["Cache-Control"] = "public, max-age=3600"
    response.headers["Access-Control-Allow-Origin"] = "*"
    return response
