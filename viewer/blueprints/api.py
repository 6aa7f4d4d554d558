"""The JSON API under ``/api/``, described by the OpenAPI document at ``/api/openapi.json``.

Every answer is JSON; every error is ``{"error": "<what is wrong>", "status": <code>}`` with a
4xx status (see ``docs/api.md`` for examples). Bots upload with ``POST /api/logs``; it needs
no cookie or token, but a browser request from another site is refused.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, jsonify, request

from replay.engine import FINDING_KINDS

from .. import csrf, ratelimit
from ..app import PageError, get_archive
from ..games import game_titles
from .games import END_REASONS, MAX_PER_PAGE, SORTS, game_json, listing
from .stats import stats_json
from .triage import archived_triage_data, is_admin, listed_game, quarantine_json, require_admin, _offset
from .upload import LIMITS, limit, store_files, files_from_request, upload_response, uploads

bp = Blueprint("api", __name__, url_prefix="/api")
DELETE_HEADER = "X-Delete-Token"
MAX_ROW_ID = 2**62  # larger ids cannot be database rows (and overflow SQLite's integers)


def _no_store(response: Response, status: int = 200) -> Response:
    response.status_code = status
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/logs")
def post_logs() -> Response:
    reason = csrf.cross_site()
    if reason:
        raise PageError(f"{reason}: upload from this site's /upload page, or from a program", 403, "Refused")
    limited = ratelimit.check()
    if limited is not None:
        return limited
    results, status = store_files(files_from_request())
    return _no_store(jsonify(upload_response(results, status)), status)


@bp.get("/games")
def api_games() -> Response:
    return jsonify(listing(request.args))


@bp.get("/games/<public_id>")
def api_game(public_id: str) -> Response:
    archived = listed_game(public_id)
    out = game_json(archived)
    out["replay"] = archived.replay().to_json()
    return jsonify(out)


@bp.get("/games/<public_id>/triage")
def api_game_triage(public_id: str) -> Response:
    return jsonify(archived_triage_data(public_id))


@bp.delete("/games/<public_id>")
def api_delete_game(public_id: str) -> Response:
    require_admin()
    if not uploads().delete_game(public_id):
        raise PageError(f"there is no archived game with id {public_id!r}", 404, "No such game")
    return _no_store(jsonify({"deleted": public_id}))


@bp.get("/stats")
def api_stats() -> Response:
    data = stats_json(request.args)
    for row in data["rows"]:
        row.pop("think_ms", None)
    return jsonify(data)


def _upload_summary(token: str) -> dict[str, Any]:
    from .upload import game_by_token

    archived = game_by_token(token)
    out = game_json(archived)
    out.pop("id")
    out.update(url=f"/u/{token}", triage_url=f"/u/{token}/triage", listed=archived.listed,
               public_id=archived.public_id if archived.listed else None)
    return out


@bp.get("/uploads/<token>")
def api_upload(token: str) -> Response:
    return _no_store(jsonify(_upload_summary(token)))


@bp.post("/uploads/<token>/publish")
def api_publish(token: str) -> Response:
    from archive.uploads import UploadTokenError

    try:
        public_id = uploads().publish(token, request.headers.get(DELETE_HEADER, ""))
    except UploadTokenError as exc:
        status = 404 if "no upload" in str(exc) else 403
        raise PageError(f"{exc}: nothing was changed", status, "Not changed") from None
    return _no_store(jsonify({"id": public_id, "url": f"/g/{public_id}", "listed": True}))


@bp.delete("/uploads/<token>")
def api_delete_upload(token: str) -> Response:
    store = uploads()
    if store.by_token(token) is None:
        raise PageError("there is no upload with that token", 404, "No such upload")
    if not store.delete(token, request.headers.get(DELETE_HEADER, "")):
        raise PageError("that delete token does not belong to this upload: nothing was deleted", 403, "Not deleted")
    return _no_store(jsonify({"deleted": True}))


@bp.get("/quarantine")
def api_quarantine() -> Response:
    require_admin()
    return _no_store(jsonify(quarantine_json(_offset())))


@bp.delete("/quarantine/<int:quarantine_id>")
def api_delete_quarantined(quarantine_id: int) -> Response:
    require_admin()
    if quarantine_id > MAX_ROW_ID or not uploads().delete_quarantined(quarantine_id):
        raise PageError(f"there is no quarantined input {quarantine_id}", 404, "Not found")
    return _no_store(jsonify({"deleted": quarantine_id}))


@bp.get("/openapi.json")
def openapi_json() -> Response:
    response = jsonify(openapi_document())
    response.headers["Cache-Control"] = "public, max-age=300"
    response.headers["Access-Control-Allow-Origin"] = "*"
    return response


# --- the OpenAPI document ----------------------------------------------------------------------

def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _error(description: str) -> dict[str, Any]:
    return _json(_ref("Error"), description)


def _errors(*codes: int) -> dict[str, Any]:
    text = {400: "A bad parameter (the error names it)", 403: "Not allowed (the error says why)",
            404: "No such game, upload or input", 413: "Too large", 415: "Unsupported upload type",
            422: "Unreadable content", 429: "Rate limited: see Retry-After"}
    return {str(c): _error(text[c]) for c in codes}


NULL_STR = {"type": ["string", "null"]}
NULL_INT = {"type": ["integer", "null"]}
STRING_PARAM_MAX = 100


def _query(name: str, description: str, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"name": name, "in": "query", "required": False, "description": description,
            "schema": schema or {"type": "string", "maxLength": STRING_PARAM_MAX}}


def _path(name: str, description: str, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "description": description,
            "schema": schema or {"type": "string", "minLength": 1, "maxLength": 64}}


DELETE_TOKEN_PARAM = {"name": DELETE_HEADER, "in": "header", "required": True,
                      "description": "the delete token given once when the game was uploaded",
                      "schema": {"type": "string", "maxLength": 100}}
ADMIN_SECURITY = [{"adminToken": []}]


def openapi_document() -> dict[str, Any]:
    """The OpenAPI 3.1 description of this API."""
    players = {"type": "object", "additionalProperties": {"type": "object", "properties": {
        "name": NULL_STR, "bot": NULL_STR}}}
    game = {
        "type": "object",
        "required": ["url", "triage_url", "rules", "players", "end_reason", "findings", "finding_kinds"],
        "properties": {
            "id": {"type": "string"}, "game": {"type": "string"}, "seats": {"type": "array", "items": {"type": "string"}},
            "url": {"type": "string"}, "triage_url": {"type": "string"},
            "started_at": NULL_STR, "rules": {"type": "string"}, "players": players,
            "contract": NULL_STR, "declarer": NULL_STR,
            "result": {"enum": ["declarer", "defenders", None]}, "end_reason": {"type": "string"},
            "findings": {"type": "integer", "minimum": 0},
            "finding_kinds": {"type": "array", "items": {"type": "string"}}, "code": NULL_STR,
        },
    }
    upload_game = {
        "type": "object", "required": ["status", "source", "findings", "listed"],
        "properties": {
            "status": {"enum": ["stored", "stored_with_findings", "duplicate", "refused"]},
            "source": {"type": "string"}, "findings": {"type": "integer", "minimum": 0},
            "listed": {"type": "boolean"}, "reason": {"type": "string"},
            "id": {"type": "string", "description": "public id, for a listed game"},
            "token": {"type": "string", "description": "upload token, for an unlisted game"},
            "url": {"type": "string"}, "triage_url": {"type": "string"}, "finding_url": {"type": "string"},
            "manage_url": {"type": "string", "description": "shown once: make public or delete"},
            "delete_token": {"type": "string", "description": "shown once"},
        },
    }
    file_result = {
        "type": "object", "required": ["file", "size", "status", "games"],
        "properties": {
            "file": {"type": "string"}, "size": {"type": "integer", "minimum": 0},
            "status": {"enum": ["stored", "stored_with_findings", "duplicate", "refused"]},
            "reason": {"type": "string"}, "games": {"type": "array", "items": _ref("UploadGame")},
        },
    }
    upload_response_schema = {
        "type": "object", "required": ["status", "stored", "files"],
        "properties": {"status": {"type": "integer"}, "stored": {"type": "integer", "minimum": 0},
                       "files": {"type": "array", "items": _ref("FileResult")}},
    }
    refused_or_error = {"anyOf": [_ref("UploadResponse"), _ref("Error")]}
    listing_schema = {
        "type": "object", "required": ["total", "page", "per_page", "pages", "sort", "games"],
        "properties": {
            "total": {"type": "integer", "minimum": 0}, "page": {"type": "integer", "minimum": 1},
            "total_exact": {"type": "boolean", "description": "false when total is a lower bound (1,000+ matches)"},
            "per_page": {"type": "integer"}, "pages": {"type": "integer"}, "sort": {"type": "string"},
            "filters": {"type": "object"}, "games": {"type": "array", "items": _ref("Game")},
            "next": NULL_STR, "prev": NULL_STR,
        },
    }
    stats_row = {
        "type": "object", "required": ["name", "games", "findings", "findings_per_100_games"],
        "properties": {
            "name": {"type": "string"}, "games": {"type": "integer"}, "seats": {"type": "integer"},
            "declarer_games": {"type": "integer"},
            "made": {"type": "integer"}, "declarer_success_rate": {"type": ["number", "null"]},
            "findings": {"type": "integer"}, "findings_per_100_games": {"type": "number"},
            "think_ms_median": NULL_INT, "think_ms_mean": NULL_INT, "moves_timed": {"type": "integer"},
        },
    }
    triage = {
        "type": "object", "required": ["findings", "timeline", "selected", "state", "log_url"],
        "properties": {
            "findings": {"type": "array", "items": {"type": "object", "required": ["step", "kind", "message"]}},
            "timeline": {"type": "array", "items": {"type": "object", "required": ["event", "type"]}},
            "selected": {"type": "integer"}, "last_step": {"type": "integer"}, "state": {"type": "object"},
            "log_url": {"type": "string"}, "board_url": {"type": "string"}, "code_url": NULL_STR,
            "repro": {"type": "object"}, "game": {"type": "object"}, "title": {"type": "string"},
        },
    }
    game_filters = [
        _query("game", "one game's games", {"type": "string", "enum": list(game_titles())}),
        _query("player", "a seat's name or platform id (case-insensitive; * is a wildcard)"),
        _query("bot", "a bot name, with or without its version"),
        _query("rules", "a rules name (bridgebot, all-tricks, ...)"),
        _query("contract", "a contract such as 3S or 2NT"),
        _query("declarer", "the declarer's seat", {"type": "string", "enum": ["N", "E", "S", "W"]}),
        _query("result", "who won", {"type": "string", "enum": ["declarer", "defenders"]}),
        _query("end_reason", "how the game ended", {"type": "string", "enum": list(END_REASONS)}),
        _query("finding_kind", "games with this kind of finding", {"type": "string", "enum": list(FINDING_KINDS)}),
        _query("has_findings", "only games with (yes) or without (no) findings",
               {"type": "string", "enum": ["yes", "no"]}),
        _query("from", "started on or after this day", {"type": "string", "format": "date"}),
        _query("to", "started on or before this day", {"type": "string", "format": "date"}),
        _query("sort", "order", {"type": "string", "enum": list(SORTS)}),
        _query("page", "page number", {"type": "integer", "minimum": 1, "maximum": 100000}),
        _query("per_page", "games per page", {"type": "integer", "minimum": 1, "maximum": MAX_PER_PAGE}),
    ]
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Game Replay API", "version": "1",
            "description": "Upload floating bridge game logs, browse public games, triage findings. "
                           "Errors are JSON {error, status} with a 4xx status.",
        },
        "paths": {
            "/api/logs": {"post": {
                "operationId": "uploadLogs",
                "summary": "Upload game logs (stored unlisted)",
                "description": (f"Several files as multipart/form-data (any field name; 'files' by convention), "
                                f"or one log as the body. Limits: {LIMITS['UPLOAD_MAX_FILES']} files, "
                                f"{LIMITS['UPLOAD_MAX_FILE_BYTES']:,} bytes a file, "
                                f"{LIMITS['UPLOAD_MAX_DECOMPRESSED']:,} bytes inflated, JSON nested at most "
                                f"{LIMITS['UPLOAD_MAX_DEPTH']} deep. 201 when a game was stored, 200 when all "
                                "were already there; when every file is refused, the status of the refusal."),
                "parameters": [_query("name", "file name for a raw body upload")],
                "requestBody": {"required": True, "content": {
                    "multipart/form-data": {"schema": {"type": "object", "properties": {
                        "files": {"type": "array", "items": {"type": "string", "format": "binary"}}}}},
                    "application/json": {"schema": {"type": "object"}},
                    "application/x-ndjson": {"schema": {"type": "string"}},
                    "application/zstd": {"schema": {"type": "string", "format": "binary"}},
                }},
                "responses": {
                    "200": _json(_ref("UploadResponse"), "Every game was already in the archive"),
                    "201": _json(_ref("UploadResponse"), "At least one game was stored"),
                    "400": _json(refused_or_error, "Nothing to upload, or a bad file name"),
                    "403": _error("A request from another site"),
                    "413": _json(refused_or_error, "A file, the batch or the inflated data is too large"),
                    "415": _error("Unsupported content type"),
                    "422": _json(refused_or_error, "No file could be read as a game"),
                    "429": _error("Too many uploads from this address: see Retry-After"),
                    "503": _error("The archive cannot store anything right now"),
                },
            }},
            "/api/games": {"get": {
                "operationId": "listGames", "summary": "Public games, filtered, sorted and paged",
                "parameters": game_filters,
                "responses": {"200": _json(_ref("GameList"), "A page of games"), **_errors(400)},
            }},
            "/api/games/{id}": {
                "get": {"operationId": "getGame", "summary": "A public game with its judged replay",
                        "parameters": [_path("id", "public id")],
                        "responses": {"200": _json(_ref("Game"), "The game"), **_errors(404)}},
                "delete": {"operationId": "deleteGame", "summary": "Delete a game (admin)",
                           "security": ADMIN_SECURITY, "parameters": [_path("id", "public id")],
                           "responses": {"200": _json({"type": "object", "required": ["deleted"]}, "Deleted"),
                                         **_errors(403, 404)}},
            },
            "/api/games/{id}/triage": {"get": {
                "operationId": "getTriage", "summary": "Findings, timeline and engine state of a public game",
                "parameters": [_path("id", "public id"),
                               _query("step", "the step to show the engine state at",
                                      {"type": "integer", "minimum": 0, "maximum": 999999})],
                "responses": {"200": _json(_ref("Triage"), "Triage data"), **_errors(400, 404)},
            }},
            "/api/stats": {"get": {
                "operationId": "getStats", "summary": "Per bot or player statistics over public games",
                "parameters": [_query("by", "group by", {"type": "string", "enum": ["bot", "player"]}),
                               _query("name", "one bot or player")],
                "responses": {"200": _json({"type": "object", "required": ["by", "rows"], "properties": {
                    "by": {"type": "string"}, "name": NULL_STR,
                    "rows": {"type": "array", "items": _ref("StatsRow")}}}, "Statistics"), **_errors(400, 404)},
            }},
            "/api/uploads/{token}": {
                "get": {"operationId": "getUpload", "summary": "An uploaded game by its token",
                        "parameters": [_path("token", "upload token")],
                        "responses": {"200": _json(_ref("Game"), "The upload"), **_errors(404)}},
                "delete": {"operationId": "deleteUpload", "summary": "Delete an upload with its delete token",
                           "parameters": [_path("token", "upload token"), DELETE_TOKEN_PARAM],
                           "responses": {"200": _json({"type": "object", "required": ["deleted"]}, "Deleted"),
                                         **_errors(403, 404)}},
            },
            "/api/uploads/{token}/publish": {"post": {
                "operationId": "publishUpload", "summary": "Make an upload public with its delete token",
                "parameters": [_path("token", "upload token"), DELETE_TOKEN_PARAM],
                "responses": {"200": _json({"type": "object", "required": ["id", "url", "listed"]}, "Now public"),
                              **_errors(403, 404)},
            }},
            "/api/quarantine": {"get": {
                "operationId": "listQuarantine", "summary": "Inputs that could not be read (admin)",
                "security": ADMIN_SECURITY,
                "parameters": [_query("offset", "skip this many", {"type": "integer", "minimum": 0, "maximum": 999999})],
                "responses": {"200": _json({"type": "object", "required": ["total", "items"]}, "A page of inputs"),
                              **_errors(400, 403, 404)},
            }},
            "/api/quarantine/{id}": {"delete": {
                "operationId": "deleteQuarantined", "summary": "Delete a quarantined input (admin)",
                "security": ADMIN_SECURITY,
                "parameters": [_path("id", "quarantine id", {"type": "integer", "minimum": 1, "maximum": 2**53})],
                "responses": {"200": _json({"type": "object", "required": ["deleted"]}, "Deleted"),
                              **_errors(403, 404)},
            }},
        },
        "components": {
            "securitySchemes": {"adminToken": {"type": "http", "scheme": "bearer",
                                               "description": "the ADMIN_TOKEN from the server's config"}},
            "schemas": {
                "Error": {"type": "object", "required": ["error", "status"],
                          "properties": {"error": {"type": "string"}, "status": {"type": "integer"}}},
                "Game": game, "GameList": listing_schema, "UploadGame": upload_game, "FileResult": file_result,
                "UploadResponse": upload_response_schema, "StatsRow": stats_row, "Triage": triage,
            },
        },
    }
