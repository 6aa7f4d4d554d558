"""``/static/<name>.<hash>.<ext>``: content-hashed assets, cached for a year."""

from __future__ import annotations

from flask import Blueprint, Response, abort, current_app, request

from ..app import accepts_gzip

bp = Blueprint("static", __name__)
YEAR = 365 * 24 * 3600


@bp.get("/static/<path:hashed_name>")
def asset(hashed_name: str) -> Response:
    found = current_app.extensions["assets"].find(hashed_name)
    if found is None:
        abort(404)
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
    response.headers["Cache-Control"] = f"public, max-age={YEAR}, immutable"
    response.vary.add("Accept-Encoding")
    return response
