"""The routes of ``upload``; what they do is in :mod:`viewer.services.upload`."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, Response, current_app, jsonify, request

from .. import csrf, ratelimit
from ..app import PageError, error_response, get_archive, wants_json
from ..exports import export_response
from ..security import frameable

from ..services.upload import (  # noqa: F401
    GUARDED_ENDPOINTS,
    LIMITS,
    _OEMBED_GAME,
    _OPEN_LOCK,
    _owner_action,
    _page,
    _private,
    files_from_request,
    game_by_token,
    limit,
    store_files,
    upload_response,
    uploads,
    viewed_upload,
)
from ..services.deals import stored_game_panel
from ..services.replay import render_game
from ..view import page_json
from ..services.replay import analysis_response

bp = Blueprint("upload", __name__)
csrf.init_blueprint(bp)


@bp.get("/upload")
def upload_page() -> Response:
    return _page("upload.html", limits={k: limit(k) for k in LIMITS}, results=None)


@bp.post("/upload")
def upload_form() -> Response:
    try:
        csrf.verify()
    except csrf.CsrfError as exc:
        return error_response(str(exc), 403, "Upload refused")
    limited = ratelimit.check()
    if limited is not None:
        return limited
    results, status = store_files(files_from_request())
    if wants_json():
        response = jsonify(upload_response(results, status))
        response.status_code = status
        response.headers["Cache-Control"] = "no-store"
        return response
    return _page("upload.html", status=status, limits={k: limit(k) for k in LIMITS},
                 results=[r.to_json() for r in results])


@bp.get("/u/<token>")
def upload_game(token: str) -> Response:

    game, archived = viewed_upload(token)
    html = render_game(game, "replay.html", deal_panel=stored_game_panel(archived))
    return _private(Response(html, mimetype="text/html"))


@bp.get("/u/<token>.json")
def upload_game_json(token: str) -> Response:

    game, _ = viewed_upload(token)
    return _private(jsonify(page_json(game)))


@bp.get("/u/<token>/analysis.json")
def upload_analysis(token: str) -> Response:
    """The analysis toggle's data on an upload's page: like ``/g/<id>/analysis.json``, linked
    to the uploaded game's row, and never cached by anyone (the token is the secret)."""

    game, archived = viewed_upload(token)
    return _private(analysis_response(game, archived.public_id, "private, no-store"))


@bp.get("/u/<token>/log.json")
def upload_log(token: str) -> Response:
    archived = game_by_token(token)
    response = Response(archived.raw, mimetype="application/json")
    response.headers["Content-Disposition"] = 'attachment; filename="upload.json"'
    return _private(response)


@bp.get("/u/<token>.<fmt>")
def upload_export(token: str, fmt: str) -> Response:
    game, _ = viewed_upload(token)
    return _private(export_response(game, fmt))


@bp.get("/embed/u/<token>")
@frameable
def upload_embed(token: str) -> Response:

    game, _ = viewed_upload(token)
    return _private(Response(render_game(game, "embed.html"), mimetype="text/html"))


@bp.get("/u/<token>/manage/<delete_token>")
def manage_page(token: str, delete_token: str) -> Response:
    archived = game_by_token(token)
    response = _page("upload_manage.html", token=token, delete_token=delete_token, game=archived,
                     done=request.args.get("done"))
    response.headers["Referrer-Policy"] = "same-origin"  # the tokens never leave this site; a form posted here keeps its Origin (no-referrer would make it "null", which the CSRF check refuses)
    return response


@bp.post("/u/<token>/delete")
def delete_upload(token: str) -> Response:
    return _owner_action(token, "delete")


@bp.post("/u/<token>/publish")
def publish_upload(token: str) -> Response:
    return _owner_action(token, "publish")


@bp.before_app_request
def open_archive_once() -> None:
    """Open the archive (and run its migrations) in one thread only.

    Under a threaded server the first requests arrive together, and ``get_archive()`` would
    open several archives at once; Alembic's module-level state is not thread-safe (seen as
    ``KeyError: 'config'`` and 500s under load). A failure here is left to the view that
    needs the archive, so pages that do not (codes) still work.
    """
    if "archive" in current_app.extensions:
        return
    with _OPEN_LOCK:
        if "archive" in current_app.extensions:
            return
        try:
            get_archive()
        except Exception as exc:  # noqa: BLE001 - reported by the view that needs it
            current_app.logger.warning("the archive could not be opened: %r", exc)


@bp.before_app_request
def hide_unlisted() -> Response | None:
    """An unlisted upload is not served under ``/g/<public id>``: only its token opens it."""
    if request.endpoint == "embed.oembed":
        try:
            found = _OEMBED_GAME.match(urlsplit(request.args.get("url", "")).path or "")
        except ValueError:  # a malformed url: the oEmbed view answers 404
            return None
        if found is None:
            return None
        public_id = found.group(1)
    elif request.endpoint in GUARDED_ENDPOINTS:
        public_id = (request.view_args or {}).get("public_id", "")
    else:
        return None
    try:
        listed = uploads().is_listed(public_id)
    except PageError:
        return None
    if listed is False:
        if request.endpoint == "embed.oembed":
            return error_response("that address is not a replay on this site", 404, "Not found")
        return error_response(f"there is no archived game with id {public_id!r}", 404, "No such game")
    return None

