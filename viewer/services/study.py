"""Studies in the viewer: ``/s/<id>`` pages, their JSON, exports, embed and pictures, and what
the study API (``/api/studies``, in :mod:`viewer.blueprints.api`) does.

A study (``replay.study``: a game with notes and what-if branches) is kept by the archive
(``archive.studies``): a short public id, an owner token (handed out once; the archive keeps
its hash) and numbered revisions that never change. A study page is the replay page of one of
its lines (``?line=``, default ``main``, the game as played), judged by the game's own engine,
plus the study's section: the notes a reader of that line meets, rendered without JavaScript
too, the lines as links, and ``study-data`` (the JSON ``study.js`` reads: what the page and the
script agree on). Every piece of user text (title, comments, names, branch titles) is
escaped where it is shown: by Jinja, by ``tojson``, or, for comments, by
``replay.study.render_comment`` whose output is already safe HTML.

Checked study games are kept in memory per (id, revision): a revision never changes, so one
judging of its lines serves every later page of it.

>>> study_limits()["comment_bytes"] == 128 * 1024
True
"""

from __future__ import annotations

import json
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from flask import Response, current_app, jsonify, request

from replay.codec.links import NAMES_PARAMETER, names_from_query
from replay.errors import ReplayError
from replay.games import get as get_game, names as game_names
from replay.games.base import seat_text
from replay.log import LogFormatError, depth_message, nested_deeper, parse_log
from replay.study import (GLYPHS, MAIN, MAX_BRANCHES, MAX_COMMENT_BYTES, MAX_DEPTH, MAX_MARKS, MAX_MOVES,
                          MAX_NOTES, MAX_STUDY_BYTES, MAX_TITLE, Source, StudyError, StudyGame,
                          comment_text, render_comment)

from ..app import PageError, get_archive
from ..view import ViewedGame
from .replay import decode_code, names_of, render_game
from .triage import listed_game
from .upload import viewed_upload
from archive.studies import Studies, StudyConflict, first_move, StudyNotFound, StudyStoreError, StudyTokenError, StudyTooLarge

#: a request body may carry a whole study (at most MAX_STUDY_BYTES) and its envelope
MAX_BODY_BYTES = MAX_STUDY_BYTES + 64 * 1024
MAX_STUDY_ID = 64
STUDY_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
TOKEN_HEADER = "X-Study-Token"
MAX_TOKEN = 200
MAX_MOVES_SHOWN = 200
LATEST_CACHE = "no-cache"  # a study's latest revision changes with every save: always revalidate
REVISION_SECONDS = 3600  # a revision never changes (but a study may be deleted)
STUDY_CACHE_ENTRIES = 32
_CACHE_LOCK = threading.Lock()


def study_limits() -> dict[str, int]:
    """The limits a study's editor keeps to (``replay.study``'s), by name."""
    return {"comment_bytes": MAX_COMMENT_BYTES, "title": MAX_TITLE, "notes": MAX_NOTES,
            "branches": MAX_BRANCHES, "moves": MAX_MOVES, "depth": MAX_DEPTH, "marks": MAX_MARKS,
            "study_bytes": MAX_STUDY_BYTES, "moves_shown": MAX_MOVES_SHOWN}


# --- the archive's studies ---------------------------------------------------------------------

def studies() -> Studies:
    """The app's :class:`archive.studies.Studies`."""
    found = current_app.extensions.get("studies")
    if found is None:
        found = current_app.extensions.setdefault("studies", Studies(get_archive()))
    return found


@dataclass(frozen=True)
class Found:
    """One revision of a stored study: its public id, the revision shown, the latest one,
    whether it is listed, and its ``study/1`` JSON; ``made`` (when the study was created) tells
    a study from another that later got the same id (the caches key on it too)."""

    id: str
    rev: int
    latest: int
    listed: bool
    data: dict[str, Any]
    made: str = ""

    @property
    def version(self) -> str:
        """What a cached page of this revision depends on besides the request."""
        return f"{self.id}\0{self.made}\0{self.rev}\0{self.latest}\0{int(self.listed)}"


def _found(stored: Any) -> Found:
    """A :class:`Found` from the archive's ``StoredStudy``."""
    return Found(stored.id, stored.rev, stored.latest, stored.listed, stored.data, stored.created_at.isoformat())


def check_id(study_id: str) -> str:
    if not STUDY_ID.fullmatch(study_id):
        raise PageError(f"there is no study with id {study_id[:40]!r}", 404, "No such study")
    return study_id


def find(study_id: str, rev: int | None = None) -> Found:
    """A stored study's revision (``None``: the latest); ``PageError(404)`` when there is none."""
    check_id(study_id)
    if rev is not None and not 1 <= rev <= 2**31:
        raise PageError(f"study {study_id!r} has no revision {rev}", 404, "No such revision")
    stored = studies().get(study_id, rev) if rev is not None else studies().get(study_id)
    if stored is None:
        if rev is not None and studies().get(study_id) is not None:
            raise PageError(f"study {study_id!r} has no revision {rev}", 404, "No such revision")
        raise PageError(f"there is no study with id {study_id!r}", 404, "No such study")
    return _found(stored)


def study_game(found: Found) -> StudyGame:
    """The checked study of a stored revision, kept in memory (a revision never changes)."""
    cache = current_app.extensions.get("study-games")
    if cache is None:
        cache = current_app.extensions.setdefault("study-games", OrderedDict())
    key = (found.id, found.made, found.rev)
    with _CACHE_LOCK:
        hit = cache.get(key)
        if hit is not None:
            cache.move_to_end(key)
            return hit
    try:
        made = StudyGame.load(found.data)
    except StudyError as exc:
        # a study stored while its game was installed, opened where it is not (or a stored
        # document this version cannot read): say so, never a traceback
        raise PageError(f"study {found.id!r} (revision {found.rev}) cannot be shown here: {exc}", 422,
                        "Cannot show this study") from None
    with _CACHE_LOCK:
        cache[key] = made
        while len(cache) > STUDY_CACHE_ENTRIES:
            cache.popitem(last=False)
    return made


def line_of(sg: StudyGame, line_id: str | None, study_id: str) -> str:
    """The line ``?line=`` asks for (default ``main``); ``PageError(404)`` for one the study lacks."""
    line_id = MAIN if line_id in (None, "") else line_id
    if line_id not in sg.line_ids:
        raise PageError(f"study {study_id!r} has no line {line_id[:40]!r} (its lines: "
                        f"{', '.join(sg.line_ids[:20])}{'...' if len(sg.line_ids) > 20 else ''})",
                        404, "No such line")
    return line_id


# --- a line as a replay page -------------------------------------------------------------------

def base_path(found: Found, fixed_rev: bool) -> str:
    """``/s/<id>`` (the latest revision) or ``/s/<id>/<rev>`` (a revision, read-only)."""
    return f"/s/{found.id}" + (f"/{found.rev}" if fixed_rev else "")


def line_query(line_id: str) -> str:
    return "" if line_id == MAIN else f"line={quote(line_id)}"


def viewed_line(found: Found, sg: StudyGame, line_id: str, fixed_rev: bool = False) -> ViewedGame:
    """One line of a study as a page shows it (path and query give its links: JSON, log,
    exports, pictures, embed)."""
    line = sg.line(line_id)
    log = line.log
    started = log.started_at.isoformat() if getattr(log, "started_at", None) else None
    size = len(json.dumps(found.data, ensure_ascii=False).encode("utf-8"))
    return ViewedGame(line.replay, names=names_of(log), path=base_path(found, fixed_rev),
                      query=line_query(line_id), started_at=started, source_bytes=size,
                      extra={"study": {"id": found.id, "rev": found.rev, "line": line_id}})


def first_move_text(sg: StudyGame, line_id: str) -> str:
    """Words for a branch's first move (``GameModule.move_text`` at the point it leaves from)."""
    try:
        return first_move(sg, line_id)
    except (StudyError, ReplayError, IndexError):
        return ""


def study_title(found: Found, sg: StudyGame, game: ViewedGame | None = None) -> str:
    """The study's own title, else one made from its game's (``Study: <the game's title>``)."""
    title = (sg.study.title or "").strip()
    if title:
        return title
    if game is None:
        game = viewed_line(found, sg, MAIN)
    return f"Study: {game.title}"


def note_json(note: Any) -> dict[str, Any]:
    data = note.model_dump(mode="json", by_alias=True)
    return {"comment": data["comment"], "html": render_comment(data["comment"]), "glyph": data["glyph"],
            "highlights": data["highlights"], "arrows": data["arrows"]}


def first_moves(sg: StudyGame, view: str | None = None) -> dict[str, str]:
    """Every line's first move in words (``""`` for ``main``), as ``view`` may read them: with
    every card open (``None``, ``"all"``) the game's ``move_text``; from a seat, the branch's
    step as that seat saw it (``move_text`` knows every card: a claim's truth, a card drawn);
    from anything else, no words."""
    if view in (None, "all"):
        return {lid: first_move_text(sg, lid) for lid in sg.line_ids}
    words = {MAIN: ""}
    for lid in sg.line_ids[1:]:
        line = sg.line(lid)
        try:
            step = line.replay.steps_json(view)[line.at + 1]
        except (ReplayError, ValueError, IndexError):  # not a seat of this game
            words[lid] = ""
            continue
        words[lid] = str(step.get("text") or "") if isinstance(step, dict) else ""
    return words


def page_view() -> str:
    """The perspective a study page or its JSON is asked for (``?view=``; default every card open)."""
    return request.args.get("view") or "all"


def study_data(found: Found, sg: StudyGame, line_id: str, fixed_rev: bool = False,
               firsts: dict[str, str] | None = None) -> dict[str, Any]:
    """The page's ``study-data`` (and ``/s/<id>.json``): what ``study.js`` reads."""
    firsts = first_moves(sg, page_view()) if firsts is None else firsts
    lines = []
    for lid in sg.line_ids:
        line = sg.line(lid)
        lines.append({"id": lid, "parent": line.parent, "at": line.at, "title": line.title, "last": line.last,
                      "depth": line.depth, "first": firsts[lid]})
    children: dict[str, list[dict[str, str]]] = {}
    for branch in sg.children(line_id):
        children.setdefault(str(branch.at), []).append({"id": branch.id, "title": branch.title,
                                                        "first": firsts[branch.id]})
    page = base_path(found, fixed_rev)
    query = line_query(line_id)
    return {
        "id": found.id, "rev": found.rev, "latest": found.latest, "title": sg.study.title,
        "game": sg.game.name, "line": line_id, "editable": False, "listed": found.listed,
        "source": sg.study.source.model_dump() if sg.study.source else None,
        "lines": lines,
        "notes": {str(step): note_json(note) for step, note in sg.notes(line_id).items()},
        "children": children,
        "glyphs": dict(GLYPHS), "limits": study_limits(),
        "urls": {"page": page + (f"?{query}" if query else ""), "api": f"/api/studies/{found.id}",
                 "moves": f"/api/studies/{found.id}/moves", "embed": "/embed" + page + (f"?{query}" if query else ""),
                 "export": f"/s/{found.id}/study.json" if not fixed_rev else f"{page}/study.json",
                 "latest": f"/s/{found.id}" + (f"?{query}" if query else "")},
    }


def study_exports(sg: StudyGame, found: Found, fixed_rev: bool) -> list[dict[str, str]]:
    """Download links of the study: ``study.json`` and each of its game's ``study_formats``."""
    page = base_path(found, fixed_rev)
    out = [{"label": "Study (JSON)", "url": f"{page}/study.json"}]
    out += [{"label": f.label, "url": f"{page}/study{f.suffix}"} for f in sg.game.study_formats]
    return out


def note_list(sg: StudyGame, line_id: str) -> list[dict[str, Any]]:
    """The notes of a line for the no-JavaScript list: step, glyph (and its name), comment HTML."""
    return [{"step": step, "glyph": note.glyph, "glyph_name": GLYPHS.get(note.glyph or "", ""),
             "html": render_comment(note.comment),
             "marks": len(note.highlights) + len(note.arrows)}
            for step, note in sg.notes(line_id).items()]


def line_tree(sg: StudyGame, line_id: str, page: str, firsts: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """The lines in tree order (each branch after its parent, by step), with their links."""
    firsts = first_moves(sg, page_view()) if firsts is None else firsts
    by_parent: dict[str, list[str]] = {}
    for branch in sg.study.branches:
        by_parent.setdefault(branch.parent, []).append(branch.id)
    out: list[dict[str, Any]] = []

    def walk(lid: str) -> None:
        line = sg.line(lid)
        url = page + ("" if lid == MAIN else f"?line={quote(lid)}")
        if lid != MAIN:
            url += f"#{line.at + 1}"
        out.append({"id": lid, "title": line.title, "at": line.at, "depth": line.depth, "last": line.last,
                    "first": firsts[lid], "url": url, "current": lid == line_id,
                    "parent": line.parent})
        for child in sorted(by_parent.get(lid, []), key=lambda c: sg.line(c).at):
            walk(child)

    walk(MAIN)
    return out


def render_line(found: Found, line_id: str | None, template: str, fixed_rev: bool = False) -> str:
    """A study page (or its embed): the line's replay page plus the study's section."""
    sg = study_game(found)
    line_id = line_of(sg, line_id, found.id)
    game = viewed_line(found, sg, line_id, fixed_rev)
    title = study_title(found, sg, game)
    page = base_path(found, fixed_rev)
    notes = sg.notes(line_id)
    firsts = first_moves(sg, page_view())
    study = {
        "data": study_data(found, sg, line_id, fixed_rev, firsts), "title": title, "fixed_rev": fixed_rev,
        "found": found, "line": sg.line(line_id), "line_id": line_id, "notes": note_list(sg, line_id),
        "tree": line_tree(sg, line_id, page, firsts), "exports": study_exports(sg, found, fixed_rev),
        "description": describe(sg, title),
        "note_count": len(sg.study.notes), "branch_count": len(sg.study.branches),
        "first_comment": next((comment_text(n.comment) for n in notes.values() if n.comment.strip()), ""),
    }
    html = render_game(game, template, study=study)
    if line_id != MAIN:
        # the board's analysis toggle asks <path>/analysis.json: on a branch, that line's
        old = f'data-src="{page}/analysis.json"'
        html = html.replace(old, f'data-src="{page}/analysis.json?line={quote(line_id)}"')
    return html


def describe(sg: StudyGame, title: str) -> str:
    """One line about a study, for link previews and oEmbed: its game, notes and branches."""
    notes, branches = len(sg.study.notes), len(sg.study.branches)
    return (f"A study of a {sg.game.title} game: {notes} note{'' if notes == 1 else 's'}, "
            f"{branches} branch{'' if branches == 1 else 'es'}.")


# --- creating studies --------------------------------------------------------------------------

def read_body() -> dict[str, Any]:
    """The request's JSON object: 413 past ``MAX_BODY_BYTES``, 400 when it is not a JSON object."""
    length = request.content_length
    if length is not None and length > MAX_BODY_BYTES:
        raise PageError(f"the request is {length:,} bytes; at most {MAX_BODY_BYTES:,} are allowed", 413,
                        "Too large")
    data = request.stream.read(MAX_BODY_BYTES + 1)
    if len(data) > MAX_BODY_BYTES:
        raise PageError(f"the request is more than {MAX_BODY_BYTES:,} bytes; at most {MAX_BODY_BYTES:,} "
                        "are allowed", 413, "Too large")
    if not data.strip():
        raise PageError("the request has no body: send a JSON object", 400, "Bad request")
    if nested_deeper(data):  # before the parser, which would recurse as deep as the text
        raise PageError(depth_message(), 400, "Bad request")
    try:
        body = json.loads(data)
    except (ValueError, UnicodeDecodeError) as exc:
        raise PageError(f"the body is not JSON: {exc}", 400, "Bad request") from None
    if not isinstance(body, dict):
        raise PageError("the body must be a JSON object", 400, "Bad request")
    return body


def _title(value: Any) -> str:
    if value is None:
        return ""
    if not isinstance(value, str):
        raise PageError("title must be text", 400, "Bad request")
    if len(value) > MAX_TITLE:
        raise PageError(f"title is {len(value)} characters long; at most {MAX_TITLE} are allowed", 400,
                        "Bad request")
    return value


def _listed(value: Any) -> bool:
    if value is None:
        return False
    if not isinstance(value, bool):
        raise PageError("listed must be true or false", 400, "Bad request")
    return value


def log_from_source(kind: Any, ref: Any, players: str = "") -> tuple[Any, Source]:
    """The game a study starts from, and the source it records: a replay code (or link, with
    its ``players=`` names), a listed archived game's public id, or an upload's token (which
    the study never keeps). ``PageError`` 400 for a bad request, 404 for a game not found."""
    if kind not in ("code", "game", "upload"):
        raise PageError(f"source.kind must be code, game or upload, not {str(kind)[:20]!r}", 400, "Bad request")
    if not isinstance(ref, str) or not ref.strip():
        raise PageError("source.ref must be the code, the game's id or the upload's token", 400, "Bad request")
    ref = ref.strip()
    if kind == "code":
        names = names_from_query(f"{NAMES_PARAMETER}={players}") if players else ()
        try:
            log = decode_code(ref, names)
        except PageError as exc:
            raise PageError(exc.message, 404 if exc.status == 400 and "not a replay code" in exc.message else exc.status,
                            exc.title) from None
        return log, Source(kind="code", ref=ref[:4096])
    if kind == "game":
        archived = listed_game(ref)
        return archived.replay().log, Source(kind="game", ref=archived.public_id)
    game, _ = viewed_upload(ref)
    return game.replay.log, Source(kind="upload")


def create(body: dict[str, Any]) -> tuple[Found, str]:
    """A new study from an API body (``source``, ``study``, or a game's log itself: a study of
    that game with ``file`` as its source); the stored revision and the owner token."""
    if "format" in body and "source" not in body and "study" not in body:
        try:
            log = parse_log(body, "the request")
        except (LogFormatError, ReplayError) as exc:
            raise PageError(f"the body is neither a study request nor a game log this site reads: {exc}", 422,
                            "Not a game log") from None
        return store_new(checked(lambda: StudyGame.new(log, source=Source(kind="file"))), False)
    unknown = set(body) - {"source", "study", "file", "title", "listed"}
    if unknown:
        raise PageError(f"unknown field {sorted(unknown)[0][:40]!r} (a study is made from 'source', 'study' or "
                        "'file', with 'title' and 'listed')", 400, "Bad request")
    listed = _listed(body.get("listed"))
    title = _title(body.get("title"))
    if sum(key in body for key in ("source", "study", "file")) != 1:
        raise PageError("send one of 'source' (a game to study), 'study' (a study/1 document to import) or 'file' "
                        "(a study file in a format a game declares)", 400,
                        "Bad request")
    if "file" in body:
        sg = study_from_file(body["file"])
        if "title" in body:
            sg = checked(lambda: sg.replace(title=title))
    elif "source" in body:
        source = body["source"]
        if not isinstance(source, dict):
            raise PageError("source must be an object: {\"kind\": \"code\"|\"game\"|\"upload\", \"ref\": ...}", 400,
                            "Bad request")
        extra = set(source) - {"kind", "ref", "players"}
        if extra:
            raise PageError(f"source has an unknown field {sorted(extra)[0][:40]!r}", 400, "Bad request")
        players = source.get("players") or ""
        if not isinstance(players, str) or len(players) > 2000:
            raise PageError("source.players must be the link's players= value (text)", 400, "Bad request")
        log, src = log_from_source(source.get("kind"), source.get("ref"), players)
        try:
            sg = StudyGame.new(log, title=title, source=src)
        except StudyError as exc:
            raise PageError(f"this game cannot be studied: {exc}", 422, "Cannot make a study") from None
    else:
        data = body["study"]
        if not isinstance(data, dict):
            raise PageError("study must be a study/1 JSON object", 400, "Bad request")
        sg = load_study(data)
        if "title" in body:
            sg = checked(lambda: sg.replace(title=title))
    return store_new(sg, listed)


def study_formats() -> list[Any]:
    """Every registered game's study file formats (``GameModule.study_formats``)."""
    return [fmt for name in game_names() for fmt in get_game(name).study_formats]


def study_from_file(upload: Any) -> StudyGame:
    """A study from a file's text (``{"name", "text"}``): a format told by the name's suffix,
    else by its content (``looks_like``), else ``study/1`` JSON. 422 says what it could not read."""
    if not isinstance(upload, dict) or set(upload) - {"name", "text"} or not isinstance(upload.get("text"), str):
        raise PageError("file must be {\"name\": \"<file name>\", \"text\": \"<the file's text>\"}", 400, "Bad request")
    name = upload.get("name") or ""
    if not isinstance(name, str) or len(name) > 200:
        raise PageError("file.name must be a file name (at most 200 characters)", 400, "Bad request")
    text = upload["text"].removeprefix("\ufeff")
    formats = study_formats()
    chosen = next((f for f in formats if f.suffix and name.lower().endswith(f.suffix.lower())), None)
    if chosen is None:
        chosen = next((f for f in formats if f.looks_like(text)), None)
    if chosen is None:
        if text.lstrip().startswith("{"):
            return load_study(text)
        known = ", ".join(f"{f.label} ({f.suffix})" for f in formats) or "none besides study/1 JSON"
        raise PageError(f"{name[:60] or 'the file'}: not a study file this site reads (formats: {known})", 422,
                        "Not a study file")
    try:
        return StudyGame.load(chosen.read(text))
    except (StudyError, LogFormatError, ReplayError) as exc:
        raise PageError(f"{name[:60] or 'the file'}: not a {chosen.label} study this site can read: {exc}", 422,
                        "Not a study file") from None


UNLISTED_UPLOAD = ("a study of an upload stays unlisted (the upload's link is all it was shared by): "
                   "make the upload public first, then study its public game")


def store_new(sg: StudyGame, listed: bool) -> tuple[Found, str]:
    """Keep a new study (revision 1): the stored study and its owner token (shown once)."""
    if listed and sg.study.source is not None and sg.study.source.kind == "upload":
        raise PageError(UNLISTED_UPLOAD, 422, "Not listed")
    try:
        created = studies().create(sg, listed=listed)
    except StudyTooLarge as exc:
        raise PageError(str(exc), 413, "Too large") from None
    except StudyStoreError as exc:
        raise PageError(str(exc), 422, "Not a study this site can keep") from None
    stored = studies().get(created.id)
    if stored is None:  # deleted between the two statements
        raise PageError(f"there is no study with id {created.id!r}", 404, "No such study")
    return _found(stored), created.owner_token


def _refused(exc: Exception) -> PageError:
    """A study the site cannot keep: 413 when it is too large as a whole, else 422 (the message
    says what and where)."""
    message = str(exc)
    status = 413 if message.startswith("the study is") and "bytes" in message else 422
    return PageError(message, status, "Not a study this site can keep")


def checked(make: Any) -> StudyGame:
    try:
        return make()
    except StudyError as exc:
        raise _refused(exc) from None


def load_study(data: dict[str, Any]) -> StudyGame:
    """A study document checked (``StudyError`` -> 422 with its message; too large -> 413)."""
    try:
        return StudyGame.load(data)
    except StudyError as exc:
        raise _refused(exc) from None
    except (LogFormatError, ReplayError) as exc:
        raise PageError(f"log: {exc}", 422, "Not a study this site can keep") from None


def owner_token() -> str:
    """The ``X-Study-Token`` header; ``PageError(403)`` when it is missing or absurd."""
    token = request.headers.get(TOKEN_HEADER, "")
    if not token:
        raise PageError(f"this needs the study's owner token: send it as {TOKEN_HEADER}", 403, "Not allowed")
    if len(token) > MAX_TOKEN:
        raise PageError(f"that {TOKEN_HEADER} is not this study's owner token", 403, "Not allowed")
    return token


def save(study_id: str, body: dict[str, Any]) -> int:
    """Save a new revision (``PUT``): 403 wrong token, 409 (``Conflict``) stale base, 4xx bad study."""
    token = owner_token()
    check_id(study_id)
    if studies().get(study_id) is None:
        raise PageError(f"there is no study with id {study_id!r}", 404, "No such study")
    unknown = set(body) - {"base", "study"}
    if unknown:
        raise PageError(f"unknown field {sorted(unknown)[0][:40]!r} (send 'base' and 'study')", 400, "Bad request")
    base = body.get("base")
    if not isinstance(base, int) or isinstance(base, bool) or base < 1:
        raise PageError("base must be the revision the study was edited from (a whole number, 1 or more)", 400,
                        "Bad request")
    data = body.get("study")
    if not isinstance(data, dict):
        raise PageError("study must be a study/1 JSON object", 400, "Bad request")
    if not studies().is_owner(study_id, token):  # before judging every line of what was sent
        raise PageError(f"that {TOKEN_HEADER} is not this study's owner token: nothing was saved", 403, "Not allowed")
    sg = load_study(data)
    try:
        return int(studies().save(study_id, token, base, sg))
    except StudyConflict as exc:
        raise Conflict(int(exc.latest), base) from None
    except StudyTokenError:
        raise PageError(f"that {TOKEN_HEADER} is not this study's owner token: nothing was saved", 403,
                        "Not allowed") from None
    except StudyNotFound as exc:
        raise PageError(str(exc), 404, "No such study") from None
    except StudyTooLarge as exc:
        raise PageError(f"{exc}: nothing was saved", 413, "Too large") from None
    except StudyStoreError as exc:  # e.g. a study of another game than the stored one's
        raise PageError(f"{exc}: nothing was saved", 422, "Not saved") from None


class Conflict(Exception):
    """A save against a revision that is not the latest."""

    def __init__(self, latest: int, base: int):
        super().__init__(latest)
        self.latest = latest
        self.base = base


def conflict_response(latest: int, base: int) -> Response:
    response = jsonify({"error": f"Someone saved revision {latest} meanwhile (this edit was made from revision "
                                 f"{base}): nothing was saved", "status": 409, "latest": latest})
    response.status_code = 409
    response.headers["Cache-Control"] = "no-store"
    return response


def set_listed(study_id: str, body: dict[str, Any]) -> bool:
    token = owner_token()
    check_id(study_id)
    if studies().get(study_id) is None:
        raise PageError(f"there is no study with id {study_id!r}", 404, "No such study")
    if set(body) != {"listed"} or not isinstance(body["listed"], bool):
        raise PageError("send {\"listed\": true} or {\"listed\": false}", 400, "Bad request")
    if body["listed"] and studies().is_owner(study_id, token):
        source = study_game(find(study_id)).study.source
        if source is not None and source.kind == "upload":
            raise PageError(UNLISTED_UPLOAD, 422, "Not listed")
    try:
        studies().set_listed(study_id, token, body["listed"])
    except StudyNotFound as exc:
        raise PageError(str(exc), 404, "No such study") from None
    except StudyTokenError:
        raise PageError(f"that {TOKEN_HEADER} is not this study's owner token: nothing was changed", 403,
                        "Not allowed") from None
    return body["listed"]


def moves_json(study_id: str, line_id: str | None, step: int | None, view: str | None, q: str | None) -> dict[str, Any]:
    """``GET /api/studies/<id>/moves``: what could be tried after a step of a line (latest revision)."""
    found = find(study_id)
    sg = study_game(found)
    line_id = line_of(sg, line_id, found.id)
    line = sg.line(line_id)
    step = line.last if step is None else step
    if step > line.last:
        raise PageError(f"line {line_id!r} has steps 0-{line.last}, not {step}", 404, "No such step")
    try:
        state = sg.position(line_id, step)
        moves = sg.moves(line_id, step, view or None)
    except StudyError as exc:
        raise PageError(str(exc), 404, "No such step") from None
    to_act = None if state.over or state.to_act is None else seat_text(state.to_act)
    wanted = (q or "").casefold()
    chosen = [m.to_json() for m in moves if wanted in m.text.casefold()]
    return {"rev": found.rev, "line": line_id, "step": step, "to_act": to_act, "total": len(moves),
            "moves": chosen[:MAX_MOVES_SHOWN]}


def api_study(found: Found) -> dict[str, Any]:
    return {"id": found.id, "rev": found.rev, "latest": found.latest, "listed": found.listed, "study": found.data}


def listing(page: int, per_page: int) -> dict[str, Any]:
    """Listed studies, latest saved first, a page at a time."""
    found = studies().listing(limit=per_page, offset=(page - 1) * per_page)
    items = []
    for summary in found.items:
        data = summary.to_json()
        data.pop("listed", None)
        items.append(data)
    pages = max(1, -(-found.total // per_page))
    return {"total": found.total, "page": page, "per_page": per_page, "pages": pages, "studies": items}


def exported(found: Found, fmt: str) -> tuple[bytes, str, str, str]:
    """The study as ``study.<fmt>``: ``json`` (``study/1``) or one of its game's ``study_formats``
    (by suffix or name): body, media type, encoding, file name."""
    sg = study_game(found)
    name = f"study-{found.id}-r{found.rev}"
    if fmt == "json":
        return sg.export_json().encode("utf-8"), "application/json", "utf-8", f"{name}.json"
    chosen = next((f for f in sg.game.study_formats if f.suffix == f".{fmt}" or f.name == fmt), None)
    if chosen is None:
        there = ", ".join(["json", *(f.suffix.lstrip(".") for f in sg.game.study_formats)])
        raise PageError(f"{sg.game.title} studies have no {fmt[:20]!r} export (they have: {there})", 404,
                        "No such export")
    try:
        text = chosen.write(sg)
    except (StudyError, ReplayError) as exc:
        raise PageError(f"this study cannot be written as {chosen.label}: {exc}", 422, "Cannot export") from None
    return text.encode(chosen.encoding), chosen.media_type, chosen.encoding, f"{name}{chosen.suffix}"


def study_start(game: ViewedGame) -> dict[str, str] | None:
    """What the replay page's "Study this game" form sends: the source of ``game`` (a code
    and its link's names, an archived game's id, an upload's token), or ``None``."""
    path = game.path or ""
    if path.startswith("/r/") and game.code:
        players = ""
        for pair in (game.query or "").split("&"):
            key, _, value = pair.partition("=")
            if key == NAMES_PARAMETER:
                players = value
        return {"kind": "code", "ref": game.code, "players": players}
    if path.startswith("/g/") and game.public_id:
        return {"kind": "game", "ref": game.public_id, "players": ""}
    if path.startswith("/u/"):
        return {"kind": "upload", "ref": path[3:], "players": ""}
    return None
