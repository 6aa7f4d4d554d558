"""``/static/<name>.<hash>.<ext>``: content-hashed assets, cached for a year; ``/favicon.ico``."""

from __future__ import annotations

import re

from flask import Blueprint, Response, abort, current_app, request

from ..app import accepts_gzip
from ..assets import Asset

bp = Blueprint("static", __name__)
YEAR = 365 * 24 * 3600
STALE = re.compile(r"(.+?)\.[0-9a-f]{10}((?:\.min)?\.[a-z0-9]+)")


@bp.get("/static/<path:hashed_name>")
def asset(hashed_name: str) -> Response:
    assets = current_app.extensions["assets"]
    found = assets.find(hashed_name)
    stale = False
    if found is None:
        # a page cached before a release may ask for an older hash: give the current file,
        # briefly cached, rather than break the page
        match = STALE.fullmatch(hashed_name)
        found = assets.by_name.get(match.group(1) + match.group(2)) if match else None
        if found is None:
            abort(404)
        stale = True
    return send(found, "public, max-age=60" if stale else f"public, max-age={YEAR}, immutable")


@bp.get("/favicon.ico")
def favicon() -> Response:
    """The site's icon where browsers, feed readers and link previews look for it whatever a page
    says (pages name ``favicon.svg``): the same SVG, which current browsers show, under a name that
    carries no hash, so cached for a day only."""
    found = current_app.extensions["assets"].by_name.get("favicon.svg")
    if found is None:
        abort(404)
    return send(found, "public, max-age=86400")


def send(found: Asset, cache_control: str) -> Response:
    """One asset's bytes (gzipped when the client takes it), with its ETag and caching."""
    etag = found.digest
    if request.if_none_match.contains_weak(etag):
        response = Response(status=304)
    elif found.compressible and accepts_gzip():
        response = Response(found.gzipped, mimetype=found.mimetype)
        response.headers["Content-Encoding"] = "gzip"
    else:
        response = Response(found.data, mimetype=found.mimetype)
    if found.mimetype.startswith(("text/", "application/javascript")):
        response.charset = "utf-8"
    response.set_etag(etag, weak=True)
    response.headers["Cache-Control"] = cache_control
    response.vary.add("Accept-Encoding")
    return response
