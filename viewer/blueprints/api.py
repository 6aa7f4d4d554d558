"""The JSON API under ``/api/``, described by the OpenAPI document at ``/api/openapi.json``.

Every answer is JSON; every error is ``{"error": "<what is wrong>", "status": <code>}`` with a
4xx status (see ``docs/api.md`` for examples). Bots upload with ``POST /api/logs``; it needs
no cookie or token, but a browser request from another site is refused.

The document and the server are kept to each other: query parameters are checked against the
very parameter objects the document lists (:func:`_checked_query`), so what the schema forbids
is a 400 and what it allows gets through to the pages' own readers, which accept all of it. Admin
routes answer 401 with a ``WWW-Authenticate`` challenge when no credentials come, 403 when the
wrong ones do. ``tests/uploads/test_api_fuzz.py`` runs schemathesis with every check over it.
"""

from __future__ import annotations

import copy
import re
from datetime import date
from typing import Any

from flask import Blueprint, Response, jsonify, request

from replay.games import get as get_game
from replay.games import names as game_names

from .. import csrf, ratelimit
from ..app import PageError, error_response
from ..app import get_archive
from ..games import game_titles
from ..rows import FilterField, game_json, query_fields, web_name
from ..services.games import MAX_CURSOR, MAX_PAGE, MAX_PER_PAGE, MAX_TEXT, SORTS, listing
from ..services.stats import stats_json
from ..services.triage import ADMIN_COOKIE, admin_token, is_admin, listed_game, quarantine_json, require_admin, triage_data
from ..services.upload import LIMITS, MAX_NAME, store_files, files_from_request, upload_response, uploads
from ..services.upload import game_by_token
from ..services.study import (MAX_BODY_BYTES as STUDY_BODY_BYTES, MAX_MOVES_SHOWN,
                              TOKEN_HEADER as STUDY_TOKEN_HEADER, Conflict, api_study, conflict_response,
                              create as create_study, find as find_study, moves_json, owner_token, read_body,
                              save as save_study, set_listed as set_study_listed)
from ..services.study import listing as study_listing
from replay.study import GLYPHS, MAX_MARKS, MAX_TITLE, MAX_BRANCHES, MAX_NOTES
from archive.uploads import UploadTokenError

bp = Blueprint("api", __name__, url_prefix="/api")
DELETE_HEADER = "X-Delete-Token"
MAX_ROW_ID = 2**62  # larger ids cannot be database rows (and overflow SQLite's integers)


def _no_store(response: Response, status: int = 200) -> Response:
    response.status_code = status
    response.headers["Cache-Control"] = "no-store"
    return response


# --- admin: 401 without credentials, 403 with the wrong ones -----------------------------------

AUTH_CHALLENGE = 'Bearer realm="game-replay admin"'


def _admin_refusal() -> Response | None:
    """The answer to an admin API request that is not an admin's, or None when it is.

    404 when admin is off; 401 with a ``WWW-Authenticate`` challenge when the request carries no
    credentials (no Bearer token, no admin cookie); 403 when it carries the wrong ones.
    """
    if admin_token() is not None and not is_admin():
        has_bearer = request.headers.get("Authorization", "").startswith("Bearer ")
        if not has_bearer and not request.cookies.get(ADMIN_COOKIE):
            response = error_response("this needs the admin token: send Authorization: Bearer <token>",
                                      401, "Admin only")
            response.headers["WWW-Authenticate"] = AUTH_CHALLENGE
            return response
    require_admin()  # 404 when admin is off, 403 for wrong credentials
    return None


# --- query parameters, checked against what the OpenAPI document declares ----------------------

def _ecma(pattern: str) -> re.Pattern[str]:
    """A schema pattern as JSON Schema reads it: ``$`` is the end of the text, not before a last newline."""
    return re.compile(pattern[:-1] + r"\Z" if pattern.endswith("$") else pattern)


_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
_INTEGER = re.compile(r"-?[0-9]{1,20}")


def _check_value(param: dict[str, Any], raw: str) -> Any:
    """``raw`` as the parameter's schema reads it, or ``PageError`` 400 naming what it must be."""
    schema, name = param["schema"], param["name"]

    def bad(what: str) -> PageError:
        return PageError(f"{name} must be {what}, not {raw[:30]!r}", 400, "Bad parameter")

    if schema.get("type") == "integer":
        if not (raw.isascii() and _INTEGER.fullmatch(raw)):
            raise bad(f"a whole number from {schema['minimum']} to {schema['maximum']}")
        number = int(raw)
        if not schema["minimum"] <= number <= schema["maximum"]:
            raise bad(f"a whole number from {schema['minimum']} to {schema['maximum']}")
        return number
    if "enum" in schema and raw not in schema["enum"]:
        raise bad("one of " + ", ".join(schema["enum"]))
    if len(raw) > schema.get("maxLength", len(raw)):
        raise PageError(f"{name} is too long (at most {schema['maxLength']} characters)", 400, "Bad parameter")
    if schema.get("format") == "date":
        try:
            if not _DATE.fullmatch(raw):
                raise ValueError(raw)
            date.fromisoformat(raw)
        except ValueError:
            raise bad("a date like 2026-11-21") from None
    if "pattern" in schema and not _ecma(schema["pattern"]).search(raw):
        raise bad(param.get("x-must-be", f"text matching {schema['pattern']}"))
    return raw


def _checked_query(params: list[dict[str, Any]]) -> dict[str, Any]:
    """The declared query parameters that were sent, read as their schemas say (400 if one breaks it)."""
    out = {}
    for param in params:
        raw = request.args.get(param["name"])
        if raw is not None:
            out[param["name"]] = _check_value(param, raw)
    return out


@bp.post("/logs")
def post_logs() -> Response:
    reason = csrf.cross_site()
    if reason:
        raise PageError(f"{reason}: upload from this site's /upload page, or from a program", 403, "Refused")
    _checked_query(UPLOAD_QUERY)
    limited = ratelimit.check()
    if limited is not None:
        return limited
    files = files_from_request()
    if request.mimetype == "multipart/form-data":
        # RFC 7578 makes a part's filename optional; a "files" part sent without one is a file too
        # (werkzeug files it under form fields, as UTF-8 text: send binary parts with a filename).
        files += [("files", text.encode()) for text in request.form.getlist("files") if text]
    results, status = store_files(files)
    return _no_store(jsonify(upload_response(results, status)), status)


@bp.get("/games")
def api_games() -> Response:
    _checked_query(GAME_FILTERS)
    return jsonify(listing(request.args))


@bp.get("/games/<public_id>")
def api_game(public_id: str) -> Response:
    archived = listed_game(public_id)
    out = game_json(get_archive(), archived)
    out["replay"] = archived.replay().to_json()
    return jsonify(out)


@bp.get("/games/<public_id>/triage")
def api_game_triage(public_id: str) -> Response:
    step = _checked_query(TRIAGE_QUERY).get("step")
    base = f"/g/{public_id}"
    # A step past this game's end names nothing: 404 (the schema cannot know each game's length).
    data = triage_data(listed_game(public_id), base, f"{base}/log.json", None if step is None else str(step),
                       past_end_status=404)
    return jsonify(data)


@bp.delete("/games/<public_id>")
def api_delete_game(public_id: str) -> Response:
    refused = _admin_refusal()
    if refused is not None:
        return refused
    if not uploads().delete_game(public_id):
        raise PageError(f"there is no archived game with id {public_id!r}", 404, "No such game")
    return _no_store(jsonify({"deleted": public_id}))


@bp.get("/stats")
def api_stats() -> Response:
    _checked_query(STATS_QUERY)
    data = stats_json(request.args)
    for row in data["rows"]:
        row.pop("think_ms", None)
    return jsonify(data)


def _upload_summary(token: str) -> dict[str, Any]:

    archived = game_by_token(token)
    out = game_json(get_archive(), archived)
    out.pop("id")
    out.update(url=f"/u/{token}", triage_url=f"/u/{token}/triage", listed=archived.listed,
               public_id=archived.public_id if archived.listed else None)
    return out


@bp.get("/uploads/<token>")
def api_upload(token: str) -> Response:
    return _no_store(jsonify(_upload_summary(token)))


@bp.post("/uploads/<token>/publish")
def api_publish(token: str) -> Response:

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
    refused = _admin_refusal()
    if refused is not None:
        return refused
    offset = _checked_query(QUARANTINE_QUERY).get("offset", 0)
    return _no_store(jsonify(quarantine_json(offset)))


@bp.delete("/quarantine/<int:quarantine_id>")
def api_delete_quarantined(quarantine_id: int) -> Response:
    refused = _admin_refusal()
    if refused is not None:
        return refused
    if quarantine_id > MAX_ROW_ID or not uploads().delete_quarantined(quarantine_id):
        raise PageError(f"there is no quarantined input {quarantine_id}", 404, "Not found")
    return _no_store(jsonify({"deleted": quarantine_id}))


# --- studies (replay.study; viewer/services/study.py) -------------------------------------------

@bp.post("/studies")
def api_create_study() -> Response:
    reason = csrf.cross_site()
    if reason:
        raise PageError(f"{reason}: make studies from this site's pages, or from a program", 403, "Refused")
    limited = ratelimit.check("studies")
    if limited is not None:
        return limited
    found, token = create_study(read_body())
    return _no_store(jsonify({"id": found.id, "rev": found.rev, "owner_token": token, "url": f"/s/{found.id}"}), 201)


@bp.get("/studies")
def api_studies() -> Response:
    query = _checked_query(STUDY_LIST_QUERY)
    response = jsonify(study_listing(query.get("page", 1), query.get("per_page", 50)))
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/studies/<study_id>")
def api_study_get(study_id: str) -> Response:
    rev = _checked_query(STUDY_GET_QUERY).get("rev")
    found = find_study(study_id, rev)
    response = jsonify(api_study(found))
    response.headers["Cache-Control"] = "no-cache" if rev is None else "public, max-age=3600"
    return response


@bp.put("/studies/<study_id>")
def api_study_put(study_id: str) -> Response:
    owner_token()  # 403 before anything is read
    limited = ratelimit.check("studies")
    if limited is not None:
        return limited
    body = read_body()
    try:
        rev = save_study(study_id, body)
    except Conflict as exc:
        return conflict_response(exc.latest, exc.base)
    return _no_store(jsonify({"id": study_id, "rev": rev, "url": f"/s/{study_id}"}))


@bp.get("/studies/<study_id>/moves")
def api_study_moves(study_id: str) -> Response:
    query = _checked_query(STUDY_MOVES_QUERY)
    data = moves_json(study_id, query.get("line"), query.get("step"), query.get("view"), query.get("q"))
    response = jsonify(data)
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.post("/studies/<study_id>/listed")
def api_study_listed(study_id: str) -> Response:
    owner_token()
    listed = set_study_listed(study_id, read_body())
    return _no_store(jsonify({"id": study_id, "listed": listed}))


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
            401: "No admin credentials: send Authorization: Bearer <token>",
            404: "No such game, upload or input", 413: "Too large", 415: "Unsupported upload type",
            422: "Unreadable content", 429: "Rate limited: see Retry-After"}
    out = {str(c): _error(text[c]) for c in codes}
    if 401 in codes:
        out["401"]["headers"] = {"WWW-Authenticate": {
            "description": "the challenge: Bearer", "required": True, "schema": {"type": "string", "pattern": "^Bearer"}}}
    return out


def _component_prefix(name: str) -> str:
    """``floating-bridge`` -> ``FloatingBridge``: a game's prefix for its schema components."""
    return "".join(part.capitalize() for part in name.split("-"))


def _log_schemas() -> dict[str, Any]:
    """Every registered game's log schema (``GameModule.json_schema()``) as components
    (``<Game>Log`` and its parts, refs rewritten to match), and ``GameLog``: one of them, chosen
    by ``format``."""
    out: dict[str, Any] = {}
    mapping: dict[str, str] = {}
    for name in game_names():
        game = get_game(name)
        prefix = _component_prefix(name)
        schema = copy.deepcopy(game.json_schema())
        defs = schema.pop("$defs", {})
        for key in ("$schema", "$id"):
            schema.pop(key, None)

        def fix(node: Any, prefix: str = prefix) -> Any:
            if isinstance(node, dict):
                return {k: (f"#/components/schemas/{prefix}Log{v[len('#/$defs/'):]}"
                            if isinstance(v, str) and v.startswith("#/$defs/") else fix(v)) for k, v in node.items()}
            if isinstance(node, list):
                return [fix(item) for item in node]
            return node

        out.update(fix({f"{prefix}Log": schema, **{f"{prefix}Log{n}": v for n, v in defs.items()}}))
        mapping[f"{name}/{game.major}"] = f"#/components/schemas/{prefix}Log"
    out["GameLog"] = {"description": "A game log: each registered game's own format, chosen by its format field.",
                      "oneOf": [{"$ref": ref} for ref in mapping.values()],
                      "discriminator": {"propertyName": "format", "mapping": mapping}}
    return out


NULL_STR = {"type": ["string", "null"]}
NULL_INT = {"type": ["integer", "null"]}
STRING_PARAM_MAX = 100


def _query(name: str, description: str, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"name": name, "in": "query", "required": False, "description": description,
            "schema": schema or {"type": "string", "maxLength": STRING_PARAM_MAX}}


def _path(name: str, description: str, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"name": name, "in": "path", "required": True, "description": description,
            "schema": schema or {"type": "string", "minLength": 1, "maxLength": 64}}


NO_CONTROL = "^[^\\x00-\\x1f]*$"  # what the server refuses in names: control characters
TEXT = {"type": "string", "maxLength": MAX_TEXT, "pattern": NO_CONTROL}
NO_CONTROL_HINT = "text without control characters"


def _text_query(name: str, description: str) -> dict[str, Any]:
    return {**_query(name, description, dict(TEXT)), "x-must-be": NO_CONTROL_HINT}


# A date from year 1 on (there is no year 0 to filter by).
DAY = {"type": "string", "format": "date", "pattern": "^(?:[1-9][0-9]{3}|0[1-9][0-9]{2}|00[1-9][0-9]|000[1-9])-"}
FACT = {"type": "string", "maxLength": MAX_TEXT,
        "pattern": "^ *[a-z][a-z0-9_]{0,39} *(?:=[^\\x00-\\x1f\\x7f]*[^ \\x00-\\x1f\\x7f][^\\x00-\\x1f\\x7f]*|(?:>=|<=) *-?[0-9]{1,18} *)$"}
INT_TEXT = {"type": "string", "maxLength": 19, "pattern": "^ *-?[0-9]{1,18} *$"}


def _filter_param(field: FilterField) -> dict[str, Any]:
    """One filter of the archive's filter spec as an OpenAPI query parameter."""
    what = field.help or field.label
    if field.name == "fact":
        return {**_query("fact", "one of a game's own facts: name=value, or name>=n / name<=n for numbers",
                         dict(FACT)), "x-must-be": "name=value, name>=number or name<=number"}
    if field.kind == "date":
        return _query(web_name(field), {"from": "started on or after this day",
                                        "to": "started on or before this day"}[web_name(field)], dict(DAY))
    if field.kind == "bool":
        return _query(field.name, what, {"type": "string", "enum": ["yes", "no"]})
    if field.values:
        return _query(field.name, what, {"type": "string", "enum": list(field.values)})
    if field.kind == "int":
        return {**_query(field.name, what, dict(INT_TEXT)), "x-must-be": "a whole number"}
    if field.fact is not None and field.fact.pattern:
        return {**_query(field.name, what, {"type": "string", "maxLength": MAX_TEXT,
                                            "pattern": f"^(?:{field.fact.pattern})$"}),
                "x-must-be": field.fact.help or f"text matching {field.fact.pattern}"}
    return _text_query(field.name, what + (f" ({', '.join(t for t in [field.game] if t)})" if field.game else ""))


GAME_FILTERS = [
    *(_filter_param(field) for field in query_fields(None)),
    _query("sort", "order", {"type": "string", "enum": list(SORTS)}),
    _query("page", "page number", {"type": "integer", "minimum": 1, "maximum": MAX_PAGE}),
    _query("per_page", "games per page", {"type": "integer", "minimum": 1, "maximum": MAX_PER_PAGE}),
    _query("after", "a page's next_cursor: the page after it (what the next link carries)",
           {"type": "string", "maxLength": MAX_CURSOR, "pattern": "^[A-Za-z0-9_-]*$"}),
]
MAX_STEP = 999_999
TRIAGE_QUERY = [_query("step", "the step to show the engine state at; past the game's last step is a 404",
                       {"type": "integer", "minimum": 0, "maximum": MAX_STEP})]
STATS_QUERY = [_query("by", "group by", {"type": "string", "enum": ["bot", "player"]}),
               _text_query("name", "one bot or player")]
MAX_OFFSET = 999_999
QUARANTINE_QUERY = [_query("offset", "skip this many", {"type": "integer", "minimum": 0, "maximum": MAX_OFFSET})]
# What upload.check_name refuses: control characters, slashes, ".", and names starting "..".
FILE_NAME = {"type": "string", "maxLength": MAX_NAME,
             "pattern": "^(?:\\.?[^.\\x00-\\x1f\\x7f/\\\\][^\\x00-\\x1f\\x7f/\\\\]*)?$"}
UPLOAD_QUERY = [{**_query("name", "file name for a raw body upload (no path: no '/', '\\\\', leading '..' or "
                                  "control characters)", FILE_NAME),
                 "x-must-be": "a file name without a path or control characters"}]

MAX_STUDY_PAGE = 100_000
STUDY_LIST_QUERY = [_query("page", "page number", {"type": "integer", "minimum": 1, "maximum": MAX_STUDY_PAGE}),
                    _query("per_page", "studies per page", {"type": "integer", "minimum": 1, "maximum": 200})]
STUDY_GET_QUERY = [_query("rev", "a revision (default: the latest)", {"type": "integer", "minimum": 1,
                                                                      "maximum": 2**31})]
STUDY_MOVES_QUERY = [
    {**_query("line", "the line (default main, the game as played)",
              {"type": "string", "maxLength": 16, "pattern": "^[a-z][a-z0-9]{0,15}$"}),
     "x-must-be": "a line id: main, b1, b2..."},
    _query("step", "the step after which a move is tried (default: the line's last)",
           {"type": "integer", "minimum": 0, "maximum": MAX_STEP}),
    _query("view", "whose moves: all (default) or a seat (its own moves when it is to act, else none)",
           {"type": "string", "maxLength": 20}),
    _text_query("q", "only moves whose text holds this (any case)"),
]
STUDY_TOKEN_PARAM = {"name": STUDY_TOKEN_HEADER, "in": "header", "required": True,
                     "description": "the study's owner token, given once when it was made",
                     "schema": {"type": "string", "minLength": 1, "maxLength": 200}}
STUDY_ID_PARAM = _path("id", "the study's public id", {"type": "string", "minLength": 1, "maxLength": 64,
                                                        "pattern": "^[A-Za-z0-9_-]+$"})

DELETE_TOKEN_PARAM = {"name": DELETE_HEADER, "in": "header", "required": True,
                      "description": "the delete token given once when the game was uploaded",
                      "schema": {"type": "string", "maxLength": 100}}
ADMIN_SECURITY = [{"adminToken": []}]


def _study_schemas() -> dict[str, Any]:
    """The study routes' components: the ``study/1`` document (``replay.study.Study``) and answers."""
    mark = {"type": "object", "required": ["kind", "id"], "additionalProperties": False,
            "properties": {"kind": {"enum": ["card", "seat"]}, "id": {"type": "string", "minLength": 1, "maxLength": 64}}}
    note = {"type": "object", "required": ["step"], "additionalProperties": False, "properties": {
        "line": {"type": "string"}, "step": {"type": "integer", "minimum": 0},
        "comment": {"type": "string", "description": "plain text with a small safe subset of Markdown"},
        "glyph": {"anyOf": [{"enum": list(GLYPHS)}, {"type": "null"}]},
        "highlights": {"type": "array", "maxItems": MAX_MARKS, "items": mark},
        "arrows": {"type": "array", "maxItems": MAX_MARKS, "items": {
            "type": "object", "required": ["from", "to"], "additionalProperties": False,
            "properties": {"from": mark, "to": mark}}}}}
    branch = {"type": "object", "required": ["id", "at", "moves"], "additionalProperties": False, "properties": {
        "id": {"type": "string"}, "parent": {"type": "string"}, "at": {"type": "integer", "minimum": 0},
        "moves": {"type": "array", "minItems": 1, "items": {"type": "object"}},
        "title": {"type": "string", "maxLength": MAX_TITLE}}}
    document = {
        "type": "object", "required": ["log"], "additionalProperties": False,
        "description": "a study/1 document: a game's log with notes and what-if branches (replay.study)",
        "properties": {
            "format": {"const": "study/1"}, "title": {"type": "string", "maxLength": MAX_TITLE},
            "game": {"type": "string"}, "log": _ref("GameLog"),
            "source": {"anyOf": [{"type": "null"}, {"type": "object", "required": ["kind"], "additionalProperties": False,
                                                     "properties": {"kind": {"enum": ["code", "game", "upload", "file"]},
                                                                    "ref": NULL_STR}}]},
            "branches": {"type": "array", "maxItems": MAX_BRANCHES, "items": branch},
            "notes": {"type": "array", "maxItems": MAX_NOTES, "items": note}}}
    source = {"type": "object", "required": ["kind", "ref"], "additionalProperties": False, "properties": {
        "kind": {"enum": ["code", "game", "upload"]},
        "ref": {"type": "string", "minLength": 1, "maxLength": 4096,
                "description": "the replay code (or link), the archived game's public id, or the upload's token"},
        "players": {"type": "string", "maxLength": 2000, "description": "a link's players= value, for a code"}}}
    common = {"title": {"type": "string", "maxLength": MAX_TITLE}, "listed": {"type": "boolean"}}
    create = {"oneOf": [
        {"type": "object", "required": ["source"], "additionalProperties": False,
         "properties": {"source": source, **common}},
        {"type": "object", "required": ["study"], "additionalProperties": False,
         "properties": {"study": _ref("StudyDocument"), **common}},
        {"type": "object", "required": ["file"], "additionalProperties": False,
         "properties": {"file": {"type": "object", "required": ["text"], "additionalProperties": False, "properties": {
             "name": {"type": "string", "maxLength": 200, "description": "its suffix tells the format"},
             "text": {"type": "string", "description": "a study file of a game's own format (its "
                                                       "study_formats) or study/1 JSON"}}}, **common}},
        _ref("GameLog")]}
    move = {"type": "object", "required": ["index", "event", "seat", "text"], "properties": {
        "index": {"type": "integer", "minimum": 0}, "event": {"type": "object"}, "seat": NULL_STR,
        "text": {"type": "string"}}}
    return {
        "StudyDocument": document,
        "StudyCreate": create,
        "StudyCreated": {"type": "object", "required": ["id", "rev", "owner_token", "url"], "properties": {
            "id": {"type": "string"}, "rev": {"type": "integer", "minimum": 1},
            "owner_token": {"type": "string", "description": "shown once"}, "url": {"type": "string"}}},
        "StoredStudy": {"type": "object", "required": ["id", "rev", "latest", "listed", "study"], "properties": {
            "id": {"type": "string"}, "rev": {"type": "integer", "minimum": 1},
            "latest": {"type": "integer", "minimum": 1}, "listed": {"type": "boolean"},
            "study": _ref("StudyDocument")}},
        "StudySave": {"type": "object", "required": ["base", "study"], "additionalProperties": False, "properties": {
            "base": {"type": "integer", "minimum": 1, "description": "the revision the edit was made from"},
            "study": _ref("StudyDocument")}},
        "StudySaved": {"type": "object", "required": ["rev"], "properties": {
            "id": {"type": "string"}, "rev": {"type": "integer", "minimum": 2}, "url": {"type": "string"}}},
        "StudyConflict": {"type": "object", "required": ["error", "status", "latest"], "properties": {
            "error": {"type": "string"}, "status": {"type": "integer"}, "latest": {"type": "integer", "minimum": 1}}},
        "StudyMoves": {"type": "object", "required": ["to_act", "total", "moves"], "properties": {
            "rev": {"type": "integer"}, "line": {"type": "string"}, "step": {"type": "integer"},
            "to_act": NULL_STR, "total": {"type": "integer", "minimum": 0},
            "moves": {"type": "array", "maxItems": MAX_MOVES_SHOWN, "items": move}}},
        "StudyList": {"type": "object", "required": ["total", "page", "per_page", "pages", "studies"], "properties": {
            "total": {"type": "integer", "minimum": 0}, "page": {"type": "integer", "minimum": 1},
            "per_page": {"type": "integer", "minimum": 1}, "pages": {"type": "integer", "minimum": 1},
            "studies": {"type": "array", "items": {"type": "object", "required": ["id", "title", "game", "url"],
                                                   "properties": {"id": {"type": "string"},
                                                                  "title": {"type": "string"},
                                                                  "game": {"type": "string"},
                                                                  "url": {"type": "string"},
                                                                  "rev": {"type": "integer"},
                                                                  "updated_at": NULL_STR,
                                                                  "notes": NULL_INT, "branches": NULL_INT}}}}},
    }


def openapi_document() -> dict[str, Any]:
    """The OpenAPI 3.1 description of this API."""
    players = {"type": "object", "additionalProperties": {"type": "object", "properties": {
        "name": NULL_STR, "bot": NULL_STR, "role": NULL_STR, "won": {"type": ["boolean", "null"]}}}}
    fact_value = {"type": ["string", "integer"]}
    game = {
        "type": "object",
        "required": ["url", "triage_url", "players", "facts", "end_reason", "findings", "finding_kinds"],
        "properties": {
            "id": {"type": "string"}, "game": {"type": "string"}, "title": {"type": "string"},
            "seats": {"type": "array", "items": {"type": "string"}},
            "url": {"type": "string"}, "triage_url": {"type": "string"},
            "started_at": NULL_STR, "players": players,
            "facts": {"type": "object", "additionalProperties": fact_value,
                      "description": "every fact the game's outcome gave (GameModule.facts names them)"},
            "shown": {"type": "array", "items": {"type": "object", "properties": {
                "name": {"type": "string"}, "label": {"type": "string"}, "value": fact_value,
                "shown": {"type": "string"}}}},
            "end_reason": {"type": "string"},
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
            "next_cursor": {**NULL_STR, "description": "pass as after for the next page; null on the last"},
        },
    }
    stats_row = {
        "type": "object", "required": ["name", "games", "findings", "findings_per_100_games"],
        "properties": {
            "name": {"type": "string"}, "games": {"type": "integer"}, "wins": NULL_INT,
            "role_games": {"type": "integer", "description": "games in the game's counted role (with game=)"},
            "role_won": {"type": "integer"}, "role_win_rate": {"type": ["number", "null"]},
            "findings": {"type": "integer"}, "findings_per_100_games": {"type": "number"},
            "think_ms_median": NULL_INT, "think_ms_mean": NULL_INT, "moves_timed": {"type": "integer"},
            "figures": {"type": "object", "description": "the game's own figures per player (with game=): "
                                                         "value, 95% interval half width where it has one, "
                                                         "and n, the count it is over",
                        "additionalProperties": {"type": "object", "properties": {
                            "value": {"type": ["number", "null"]}, "interval": {"type": ["number", "null"]},
                            "n": {"type": "integer"}}}},
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
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Game Replay API", "version": "1",
            "description": "Upload game logs (" + ", ".join(game_titles().values()) + "), browse public games, "
                           "triage findings. "
                           "Errors are JSON {error, status} with a 4xx status.",
        },
        "paths": {
            "/api/logs": {"post": {
                "operationId": "uploadLogs",
                "summary": "Upload game logs (stored unlisted)",
                "description": (f"Several files as multipart/form-data (at least one; any field name when a part "
                                "has a filename, 'files' by convention and read even without one), or one log "
                                "as the body (JSON: a GameLog, any registered game's format). The content must read as a game "
                                "(known cards and seats), which JSON Schema cannot say: otherwise 422. "
                                f"Limits: {LIMITS['UPLOAD_MAX_FILES']} files, "
                                f"{LIMITS['UPLOAD_MAX_FILE_BYTES']:,} bytes a file, "
                                f"{LIMITS['UPLOAD_MAX_DECOMPRESSED']:,} bytes inflated, JSON nested at most "
                                f"{LIMITS['UPLOAD_MAX_DEPTH']} deep. 201 when a game was stored, 200 when all "
                                "were already there; when every file is refused, the status of the refusal."),
                "parameters": UPLOAD_QUERY,
                "requestBody": {"required": True, "content": {
                    "multipart/form-data": {
                        "schema": {"type": "object", "required": ["files"], "properties": {
                            "files": {"type": "array", "minItems": 1, "maxItems": LIMITS["UPLOAD_MAX_FILES"],
                                      "items": {"type": "string", "format": "binary"}}}},
                        "encoding": {"files": {"contentType": "application/json, application/x-ndjson, "
                                                              "application/zstd"}}},
                    "application/json": {"schema": _ref("GameLog")},
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
                "parameters": GAME_FILTERS,
                "responses": {"200": _json(_ref("GameList"), "A page of games"), **_errors(400, 404)},
            }},
            "/api/games/{id}": {
                "get": {"operationId": "getGame", "summary": "A public game with its judged replay",
                        "parameters": [_path("id", "public id")],
                        "responses": {"200": _json(_ref("Game"), "The game"), **_errors(404)}},
                "delete": {"operationId": "deleteGame", "summary": "Delete a game (admin)",
                           "security": ADMIN_SECURITY, "parameters": [_path("id", "public id")],
                           "responses": {"200": _json({"type": "object", "required": ["deleted"]}, "Deleted"),
                                         **_errors(401, 403, 404)}},
            },
            "/api/games/{id}/triage": {"get": {
                "operationId": "getTriage", "summary": "Findings, timeline and engine state of a public game",
                "parameters": [_path("id", "public id"), *TRIAGE_QUERY],
                "responses": {"200": _json(_ref("Triage"), "Triage data"), **_errors(400),
                              "404": _error("No such game, or no such step in it")},
            }},
            "/api/stats": {"get": {
                "operationId": "getStats", "summary": "Per bot or player statistics over public games",
                "parameters": STATS_QUERY,
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
                "parameters": QUARANTINE_QUERY,
                "responses": {"200": _json({"type": "object", "required": ["total", "items"]}, "A page of inputs"),
                              **_errors(400, 401, 403, 404)},
            }},
            "/api/quarantine/{id}": {"delete": {
                "operationId": "deleteQuarantined", "summary": "Delete a quarantined input (admin)",
                "security": ADMIN_SECURITY,
                "parameters": [_path("id", "quarantine id", {"type": "integer", "minimum": 1, "maximum": 2**53})],
                "responses": {"200": _json({"type": "object", "required": ["deleted"]}, "Deleted"),
                              **_errors(401, 403, 404)},
            }},
            "/api/studies": {
                "post": {
                    "operationId": "createStudy", "summary": "Make a study of a game, or import one",
                    "description": ("A study (comments, glyphs, marks and what-if branches on a game) of a replay "
                                    "code or link (source kind code; names from its players= parameter or "
                                    "source.players), a public archived game (kind game, its id) or an upload "
                                    "(kind upload, its token: the study does not keep it); a study/1 "
                                    "document to import (study); a study file of a game's own format (file: "
                                    "text with comments in a format a game declares); or a game log itself (the study's source is then "
                                    "a file). The answer's owner_token is shown once: send it "
                                    f"as {STUDY_TOKEN_HEADER} to save. A code, game or upload that is not there "
                                    f"is a 404; a study that cannot be kept a 422. At most {STUDY_BODY_BYTES:,} "
                                    "bytes."),
                    "requestBody": {"required": True, "content": {"application/json": {"schema": _ref("StudyCreate")}}},
                    "responses": {"201": _json(_ref("StudyCreated"), "Made"),
                                  **_errors(400, 403, 404, 413, 422, 429)},
                },
                "get": {
                    "operationId": "listStudies", "summary": "Listed studies, newest first, paged",
                    "parameters": STUDY_LIST_QUERY,
                    "responses": {"200": _json(_ref("StudyList"), "A page of studies"), **_errors(400)},
                },
            },
            "/api/studies/{id}": {
                "get": {"operationId": "getStudy", "summary": "A study's revision (default the latest) as study/1",
                        "parameters": [STUDY_ID_PARAM, *STUDY_GET_QUERY],
                        "responses": {"200": _json(_ref("StoredStudy"), "The study"), **_errors(400, 404)}},
                "put": {"operationId": "saveStudy", "summary": "Save a new revision (owner)",
                        "description": ("base is the revision the edit was made from: when it is not the latest, "
                                        "409 with latest, and nothing is stored."),
                        "parameters": [STUDY_ID_PARAM, STUDY_TOKEN_PARAM],
                        "requestBody": {"required": True, "content": {"application/json": {"schema": _ref("StudySave")}}},
                        "responses": {"200": _json(_ref("StudySaved"), "Saved as a new revision"),
                                      "409": _json(_ref("StudyConflict"), "A stale base: someone saved meanwhile"),
                                      **_errors(400, 403, 404, 413, 422, 429)}},
            },
            "/api/studies/{id}/moves": {"get": {
                "operationId": "studyMoves", "summary": "The moves that could be tried after a step of a line",
                "parameters": [STUDY_ID_PARAM, *STUDY_MOVES_QUERY],
                "responses": {"200": _json(_ref("StudyMoves"), f"The legal moves (at most {MAX_MOVES_SHOWN})"),
                              **_errors(400), "404": _error("No such study, line or step")},
            }},
            "/api/studies/{id}/listed": {"post": {
                "operationId": "listStudy", "summary": "List a study publicly, or not (owner)",
                "parameters": [STUDY_ID_PARAM, STUDY_TOKEN_PARAM],
                "requestBody": {"required": True, "content": {"application/json": {"schema": {
                    "type": "object", "required": ["listed"], "additionalProperties": False,
                    "properties": {"listed": {"type": "boolean"}}}}}},
                "responses": {"200": _json({"type": "object", "required": ["id", "listed"], "properties": {
                    "id": {"type": "string"}, "listed": {"type": "boolean"}}}, "Changed"),
                              **_errors(400, 403, 404, 413)},
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
                **_study_schemas(),
                **_log_schemas(),
            },
        },
    }
