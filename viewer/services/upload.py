"""Uploads: the ``/upload`` page, and the unlisted games it makes (``/u/<token>``).

Every uploaded file goes through :func:`check_and_store`, which the JSON API
(``POST /api/logs``, in :mod:`viewer.blueprints.api`) shares: limits on file size, number of
files, decompressed size and JSON nesting; a file name that tries to be a path is refused;
input that cannot be read as a game is refused with the reader's reason and is not stored
(the archive's quarantine is for files bots save, not for anonymous uploads). Readable games
are stored unlisted, each with an upload token (its page) and a delete token (shown once).

The page works without JavaScript (a plain multipart form); ``upload.js`` adds drag and drop
and shows each file's result in place. The form carries a CSRF token (:mod:`viewer.csrf`);
uploads are rate limited per client (:mod:`viewer.ratelimit`)."""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from typing import Any

from flask import Response, current_app, g, redirect, render_template, request
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.exceptions import RequestEntityTooLarge

from replay.log import ZSTD_MAGIC, LogFormatError, decompress_zstd, depth_message, nested_deeper, read_logs

from .. import csrf
from ..app import PageError, error_response, get_archive
from ..view import ViewedGame
from archive.uploads import Uploads
from archive.uploads import UploadOutcome
from archive.uploads import UploadTokenError

LIMITS: dict[str, int] = {
    "UPLOAD_MAX_FILE_BYTES": 2 * 1024 * 1024,  # one file as sent
    "UPLOAD_MAX_FILES": 20,  # files in one request
    "UPLOAD_MAX_DECOMPRESSED": 8 * 1024 * 1024,  # a .zst file once inflated
    "UPLOAD_MAX_GAMES": 500,  # games in one request (JSON lines)
    "UPLOAD_MAX_DEPTH": 32,  # JSON nesting
}
ACCEPTED_TYPES = ("application/json", "application/x-ndjson", "application/jsonl", "application/x-jsonlines",
                  "application/zstd", "application/octet-stream", "text/plain")
MAX_NAME = 200
BAD_NAME = re.compile(r"[\x00-\x1f\x7f/\\]")
STORED_STATUSES = ("stored", "stored_with_findings")


def limit(name: str) -> int:
    return int(current_app.config.get(name, LIMITS[name]))


def request_limit() -> int:
    """The most bytes one upload request may carry (all files plus multipart overhead)."""
    return limit("UPLOAD_MAX_FILE_BYTES") * limit("UPLOAD_MAX_FILES") + 64 * 1024


def uploads():
    """The app's :class:`archive.uploads.Uploads`."""
    found = current_app.extensions.get("uploads")
    if found is None:

        found = current_app.extensions.setdefault("uploads", Uploads(get_archive()))
    return found


# --- checking and storing files ----------------------------------------------------------------

class Refused(Exception):
    """A file that is not stored: ``status`` is the HTTP status it would get on its own."""

    def __init__(self, reason: str, status: int = 422):
        super().__init__(reason)
        self.reason = reason
        self.status = status


@dataclass
class FileResult:
    """What became of one uploaded file (and each game in it)."""

    file: str
    size: int
    status: str = "refused"  # stored, stored_with_findings, duplicate, refused
    reason: str | None = None
    http_status: int = 200
    games: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        out = {"file": self.file, "size": self.size, "status": self.status, "games": self.games}
        if self.reason is not None:
            out["reason"] = self.reason
        return out


def display_name(name: str | None) -> str:
    """A file name safe to echo (it is escaped again wherever it is shown)."""
    if not name:
        return "upload"
    return name[:MAX_NAME]


def check_name(name: str) -> None:
    if len(name) > MAX_NAME:
        raise Refused(f"the file name is {len(name)} characters long; at most {MAX_NAME} are allowed", 400)
    if BAD_NAME.search(name) or name in (".", "..") or name.startswith(".."):
        raise Refused("the file name may not contain a path (no '/', '\\', '..' or control characters)", 400)


def read_upload(name: str, data: bytes) -> list:
    """The games in one file (``LogEntry`` list), or ``Refused`` saying why none can be stored."""
    check_name(name)
    if not data:
        raise Refused("the file is empty", 400)
    most = limit("UPLOAD_MAX_FILE_BYTES")
    if len(data) > most:
        raise Refused(f"the file is {len(data):,} bytes; files may be at most {most:,} bytes", 413)
    text = data
    if data.startswith(ZSTD_MAGIC):
        inflated = limit("UPLOAD_MAX_DECOMPRESSED")
        try:
            text = decompress_zstd(data, inflated, name)
        except LogFormatError as exc:
            status = 413 if "limit" in str(exc) else 422
            raise Refused(f"{exc}: not stored", status) from None
    depth = limit("UPLOAD_MAX_DEPTH")  # the reader refuses past replay.log.MAX_DEPTH (32) in any case
    if nested_deeper(text, depth):
        raise Refused(depth_message(depth), 422)
    entries = read_logs(data, name, max_decompressed=limit("UPLOAD_MAX_DECOMPRESSED"))
    if len(entries) > limit("UPLOAD_MAX_GAMES"):
        raise Refused(f"the file holds {len(entries)} games; at most {limit('UPLOAD_MAX_GAMES')} per upload", 413)
    if not any(e.ok for e in entries):
        first = entries[0].error
        reason = str(first) if len(entries) == 1 else f"none of its {len(entries)} games can be read; first: {first}"
        raise Refused(reason, 422)
    return entries


def game_links(outcome, first_step: int | None = None) -> dict[str, Any]:
    """Where an uploaded game can be seen (and, once, managed)."""
    out: dict[str, Any] = {"status": outcome.status, "source": outcome.source, "findings": outcome.findings,
                           "listed": outcome.listed}
    if outcome.error:
        out["reason"] = outcome.error
    if outcome.listed and outcome.public_id:
        base = f"/g/{outcome.public_id}"
        out["id"] = outcome.public_id
    elif outcome.token:
        base = f"/u/{outcome.token}"
        out["token"] = outcome.token
    else:
        return out
    out["url"] = base
    out["triage_url"] = base + "/triage"
    if outcome.findings and first_step is not None:
        out["triage_url"] += f"?step={first_step}"
        out["finding_url"] = f"{base}#{first_step}"
    if outcome.delete_token:
        out["manage_url"] = f"/u/{outcome.token}/manage/{outcome.delete_token}"
        out["delete_token"] = outcome.delete_token
    return out


def check_file(name: str, data: bytes) -> tuple[FileResult, list | None]:
    """One file read and checked, nothing stored: its result so far and its games (``LogEntry``
    list), or no games when the whole file is refused (the result then says why)."""
    result = FileResult(display_name(name), len(data))
    try:
        entries = read_upload(name, data)
    except Refused as exc:
        result.reason, result.http_status = exc.reason, exc.status
        return result, None
    if len(entries) == 1 and entries[0].error is not None:
        result.reason, result.http_status = str(entries[0].error), 422
        return result, None
    return result, entries


def store_checked(result: FileResult, name: str, data: bytes, entries: list) -> FileResult:
    """Store the readable games of a checked file; each game's outcome (and delete token) goes
    into ``result``."""

    store = uploads()
    outcomes = []
    try:
        if all(e.ok for e in entries):
            outcomes = store.ingest(data, name)
        else:
            for entry in entries:
                if entry.ok:
                    outcomes.extend(store.ingest(entry.raw, entry.source))
                else:
                    outcomes.append(UploadOutcome(entry.source, "refused", error=str(entry.error)))
    except SQLAlchemyError as exc:
        current_app.logger.error("upload %r could not be stored: %r", result.file, exc)
        raise PageError("the archive could not store the upload right now; try again later", 503,
                        "Archive unavailable") from None
    result.games = [game_links(o, _first_finding_step(entries, o.source)
                               if o.findings and o.status != "refused" else None) for o in outcomes]
    statuses = {o.status for o in outcomes}
    if "stored_with_findings" in statuses:
        result.status = "stored_with_findings"
    elif "stored" in statuses:
        result.status = "stored"
    elif "duplicate" in statuses:
        result.status = "duplicate"
    else:
        result.status = "refused"
        result.http_status = 422
        result.reason = outcomes[0].error if outcomes else "no game could be stored"
    if result.status != "refused" and "refused" in statuses:
        refused = sum(1 for o in outcomes if o.status == "refused")
        result.reason = f"{refused} of {len(outcomes)} games could not be read and were not stored"
    return result


def store_file(name: str, data: bytes) -> FileResult:
    """Check one file and store its readable games; never raises for bad content."""
    result, entries = check_file(name, data)
    return result if entries is None else store_checked(result, name, data, entries)


def _first_finding_step(entries, source: str) -> int | None:
    for entry in entries:
        if entry.ok and (entry.source == source or len(entries) == 1):
            replay = entry.log.replay()
            return replay.findings[0].step if replay.findings else None
    return None


def store_files(files: list[tuple[str, bytes]]) -> tuple[list[FileResult], int]:
    """Store a batch; returns the per-file results and the HTTP status for the whole request.

    201 when any game was newly stored, 200 when every game was already there, else (every
    file refused) the refusal's own status when they agree (413, 400) or 422.
    """
    if not files:
        raise PageError("no files in the upload: send files in a multipart form (field 'files') "
                        "or one log as the request body", 400, "Nothing to upload")
    most = limit("UPLOAD_MAX_FILES")
    if len(files) > most:
        raise PageError(f"{len(files)} files in one upload; at most {most} are allowed", 413, "Too many files")
    # every file is read and checked before any is stored: a refusal (or a reader's failure) on
    # one file can never leave another's games stored with no answer, and no delete token given
    checked = [check_file(name, data) for name, data in files]
    results = [result if entries is None else store_checked(result, name, data, entries)
               for (name, data), (result, entries) in zip(files, checked)]
    if any(g.get("status") in STORED_STATUSES for r in results for g in r.games):
        return results, 201
    if any(r.status == "duplicate" for r in results):
        return results, 200
    codes = {r.http_status for r in results}
    return results, codes.pop() if len(codes) == 1 else 422


def files_from_request() -> list[tuple[str, bytes]]:
    """The uploaded files: multipart parts (any field), or the whole body as one file."""
    if request.content_length is not None and request.content_length > request_limit():
        raise PageError(f"the upload is {request.content_length:,} bytes; at most {request_limit():,} bytes "
                        f"({limit('UPLOAD_MAX_FILES')} files of {limit('UPLOAD_MAX_FILE_BYTES'):,} bytes)",
                        413, "Upload too large")
    request.max_content_length = request_limit()
    request.max_form_parts = limit("UPLOAD_MAX_FILES") + 10
    mimetype = request.mimetype
    try:
        if mimetype == "multipart/form-data":
            files = []
            for _, storage in request.files.items(multi=True):
                data = storage.stream.read(limit("UPLOAD_MAX_FILE_BYTES") + 1)
                if storage.filename == "" and not data:
                    continue  # an empty file input
                files.append((storage.filename or storage.name or "upload", data))
            return files
        if mimetype in ACCEPTED_TYPES or mimetype == "":
            data = request.get_data(cache=False)
            if not data and mimetype == "":
                return []
            return [(request.args.get("name", "upload.json"), data)]
    except RequestEntityTooLarge:
        raise PageError(f"the upload is larger than {request_limit():,} bytes", 413, "Upload too large") from None
    raise PageError(f"cannot read an upload of type {mimetype[:60]!r}: send multipart/form-data, "
                    "application/json, application/x-ndjson or application/zstd", 415, "Unsupported upload")


def upload_response(results: list[FileResult], status: int) -> dict[str, Any]:
    stored = sum(1 for r in results for gm in r.games if gm.get("status") in STORED_STATUSES)
    return {"status": status, "stored": stored, "files": [r.to_json() for r in results]}


# --- pages -------------------------------------------------------------------------------------

def _page(template: str, status: int = 200, **context: Any) -> Response:
    response = Response(render_template(template, **context), status=status, mimetype="text/html")
    response.headers["Cache-Control"] = "no-store"
    return response


def game_by_token(token: str):
    found = uploads().by_token(token)
    if found is None:
        raise PageError("there is no upload at this address (it may have been deleted)", 404, "No such upload")
    return found


def viewed_upload(token: str) -> tuple[ViewedGame, Any]:
    archived = game_by_token(token)
    replay = archived.replay()
    names = {s: (p.get("name") or "")[:60] for s, p in (archived.players or {}).items() if p.get("name")}
    started = archived.started_at.isoformat() if archived.started_at else None
    return ViewedGame(replay, names=names, code=archived.code, path=f"/u/{token}", started_at=started,
                      extra={"upload": {"listed": archived.listed, "findings": archived.findings}},
                      source_bytes=len(archived.raw)), archived


def _private(response: Response) -> Response:
    response.headers["Cache-Control"] = "private, no-store"
    response.headers["X-Robots-Tag"] = "noindex"
    return response


def _owner_action(token: str, action: str) -> Response:

    try:
        csrf.verify()
    except csrf.CsrfError as exc:
        return error_response(str(exc), 403, "Refused")
    delete_token = request.form.get("delete_token", "")
    store = uploads()
    if action == "delete":
        if not store.delete(token, delete_token):
            raise PageError("that delete link is not valid for this upload: nothing was deleted", 403, "Not deleted")
        return _page("upload_manage.html", token=None, delete_token=None, game=None, done="deleted")
    try:
        public_id = store.publish(token, delete_token)
    except UploadTokenError as exc:
        raise PageError(f"{exc}: nothing was changed", 403, "Not changed") from None
    return redirect(f"/g/{public_id}", 303)


# --- opening the archive once per process -----------------------------------------------------

_OPEN_LOCK = threading.Lock()


# --- unlisted games stay off their public id ---------------------------------------------------

_OEMBED_GAME = re.compile(r"^(?:/embed)?/g/([^/?#.]+)/?$")
GUARDED_ENDPOINTS = {"replay.archived_page", "replay.archived_json", "replay.archived_log",
                     "replay.archived_export", "replay.archived_analysis", "embed.embed_archived",
                     "picture.archived_picture", "picture.archived_gif", "picture.archived_mp4"}
