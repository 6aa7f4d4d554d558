"""The routes of ``replay``; what they do is in :mod:`viewer.services.replay`."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify, request

from replay.codec.links import names_from_query

from ..exports import download as _download
from ..exports import export_response
from ..app import etag_for
from ..view import page_json

from ..services.replay import (  # noqa: F401
    ARCHIVED_CACHE_SECONDS,
    analysis_response,
    archived_game_page,
    code_game_page,
    decode_code,
    game_from_archive,
    game_from_code,
    immutable_page,
    legacy_redirect,
    raw_query,
    render_game,
)

bp = Blueprint("replay", __name__)


# --- routes ------------------------------------------------------------------------------------

@bp.get("/r/<code>")
def code_page(code: str) -> Response:
    moved = legacy_redirect(code, "")
    if moved is not None:
        return moved

    return code_game_page("r", code, "replay.html")


@bp.get("/r/<code>.json")
def code_json(code: str) -> Response:
    game = game_from_code(code)
    response = jsonify(page_json(game))
    response.headers["Cache-Control"] = f"public, max-age={current_app.config['CODE_CACHE_SECONDS']}, immutable"
    response.set_etag(etag_for("rj", request.full_path), weak=True)
    return response.make_conditional(request)


@bp.get("/r/<code>/log.json")
def code_log(code: str) -> Response:
    log = decode_code(code, names_from_query(raw_query()))  # with the names the link gives
    return _download(log.canonical_json(indent=2) + "\n", "application/json", "game.json")


@bp.get("/r/<code>.<fmt>")
def code_export(code: str, fmt: str) -> Response:
    game = game_from_code(code)
    return export_response(game, fmt)


@bp.get("/g/<public_id>")
def archived_page(public_id: str) -> Response:
    return archived_game_page("g", public_id, "replay.html")


@bp.get("/g/<public_id>.json")
def archived_json(public_id: str) -> Response:
    game, _ = game_from_archive(public_id)
    return jsonify(page_json(game))


@bp.get("/g/<public_id>/log.json")
def archived_log(public_id: str) -> Response:
    _, archived = game_from_archive(public_id)
    return _download(archived.raw, "application/json", f"{archived.public_id}.json")


@bp.get("/g/<public_id>.<fmt>")
def archived_export(public_id: str, fmt: str) -> Response:
    game, _ = game_from_archive(public_id)
    return export_response(game, fmt)


@bp.get("/r/<code>/analysis.json")
def code_analysis(code: str) -> Response:
    return analysis_response(game_from_code(code), None,
                             f"public, max-age={current_app.config['CODE_CACHE_SECONDS']}, immutable",
                             etag_parts=(request.full_path,))


@bp.get("/g/<public_id>/analysis.json")
def archived_analysis(public_id: str) -> Response:
    game, archived = game_from_archive(public_id)
    return analysis_response(game, archived.public_id, f"public, max-age={ARCHIVED_CACHE_SECONDS}")

