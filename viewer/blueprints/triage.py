"""The routes of ``triage``; what they do is in :mod:`viewer.services.triage`."""

from __future__ import annotations

import hmac

from flask import Blueprint, Response, jsonify, redirect, render_template, request

from .. import csrf, ratelimit
from ..app import PageError, error_response
from ..games import finding_label
from ..services.upload import game_by_token, uploads

from ..services.triage import (  # noqa: F401
    ADMIN_COOKIE,
    QUARANTINE_PAGE,
    _cookie_value,
    _offset,
    _refused_admin_form,
    _triage_page,
    admin_token,
    archived_triage_data,
    is_admin,
    quarantine_json,
    require_admin,
    triage_data,
)

bp = Blueprint("triage", __name__)
csrf.init_blueprint(bp)
#: one wording of finding kinds for the games filter, its badges and this page
bp.add_app_template_filter(finding_label, "finding_label")


@bp.get("/g/<public_id>/triage")
def archived_triage(public_id: str) -> Response:
    return _triage_page(archived_triage_data(public_id), f"/admin/games/{public_id}/delete")


@bp.get("/g/<public_id>/triage.json")
def archived_triage_json(public_id: str) -> Response:
    return jsonify(archived_triage_data(public_id))


@bp.get("/u/<token>/triage")
def upload_triage(token: str) -> Response:
    archived = game_by_token(token)
    base = f"/u/{token}"
    response = _triage_page(triage_data(archived, base, f"{base}/log.json", request.args.get("step"),
                                        request.args.get("page")), None)
    response.headers["X-Robots-Tag"] = "noindex"
    return response


@bp.get("/u/<token>/triage.json")
def upload_triage_json(token: str) -> Response:
    archived = game_by_token(token)
    base = f"/u/{token}"
    response = jsonify(triage_data(archived, base, f"{base}/log.json", request.args.get("step"),
                                   request.args.get("page")))
    response.headers["Cache-Control"] = "private, no-store"
    return response


@bp.get("/admin")
def admin_page() -> Response:
    if admin_token() is None:
        raise PageError("admin pages are off: set GAME_REPLAY_ADMIN_TOKEN to turn them on", 404, "Not found")
    if is_admin():
        return redirect("/admin/quarantine", 303)
    response = Response(render_template("admin_login.html", problem=None), mimetype="text/html")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/admin")
def admin_login() -> Response:
    token = admin_token()
    if token is None:
        raise PageError("admin pages are off: set GAME_REPLAY_ADMIN_TOKEN to turn them on", 404, "Not found")
    try:
        csrf.verify()
    except csrf.CsrfError as exc:
        return error_response(str(exc), 403, "Refused")
    limited = ratelimit.check("admin")
    if limited is not None:
        return limited
    given = request.form.get("token", "")
    if not hmac.compare_digest(given.encode(), token.encode()):
        response = Response(render_template("admin_login.html", problem="That is not the admin token."),
                            status=403, mimetype="text/html")
        response.headers["Cache-Control"] = "no-store"
        return response
    response = redirect("/admin/quarantine", 303)
    response.set_cookie(ADMIN_COOKIE, _cookie_value(token), httponly=True, samesite="Strict",
                        secure=request.is_secure, path="/", max_age=12 * 3600)
    return response


@bp.get("/admin/quarantine")
def quarantine_page() -> Response:
    require_admin()
    data = quarantine_json(_offset())
    response = Response(render_template("quarantine.html", data=data, page_size=QUARANTINE_PAGE), mimetype="text/html")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/admin/quarantine/<int:quarantine_id>/delete")
def quarantine_delete(quarantine_id: int) -> Response:
    refused = _refused_admin_form()
    if refused is not None:
        return refused
    if quarantine_id > 2**62 or not uploads().delete_quarantined(quarantine_id):
        raise PageError(f"there is no quarantined input {quarantine_id}", 404, "Not found")
    return redirect("/admin/quarantine", 303)


@bp.post("/admin/games/<public_id>/delete")
def game_delete(public_id: str) -> Response:
    refused = _refused_admin_form()
    if refused is not None:
        return refused
    if not uploads().delete_game(public_id):
        raise PageError(f"there is no archived game with id {public_id!r}", 404, "No such game")
    return redirect("/games", 303)

