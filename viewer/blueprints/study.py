"""The routes of studies; what they do is in :mod:`viewer.services.study`.

``/s/<id>`` (the latest revision) and ``/s/<id>/<rev>`` (a revision, read-only), each with
``?line=`` (default ``main``): the page, ``.json``, ``/log.json`` and the line's game exports
(``.<fmt>``), ``/analysis.json`` (the line's own analysis), ``/picture.png`` and animations,
``/study.json`` and ``/study.<fmt>`` (the study's exports), and ``/embed/s/...``. ``/s/new``
makes a study of a game (the replay pages' "Study this game" form) and redirects to it with
the owner token in the fragment (``#owner=<token>``: never sent to a server, kept by study.js).
``/studies``: the listed studies.
"""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, jsonify, redirect, render_template, request

from .. import csrf, ratelimit
from ..app import PageError, error_response, etag_for
from ..exports import download, export_response
from ..security import frameable
from ..view import check_output, page_json
from ..services.picture import content_key, image_response
from ..services.replay import analysis_response, cached_page
from ..services.study import (LATEST_CACHE, REVISION_SECONDS, Found, exported, find, line_of, listing,
                              log_from_source, render_line, store_new, study_data, study_game, study_start,
                              study_title, viewed_line)
from replay.games import game_for_format
from replay.study import StudyError, StudyGame

bp = Blueprint("study", __name__)
csrf.init_blueprint(bp)
bp.add_app_template_global(study_start, "study_start")
PER_PAGE = 50


def _cache_control(fixed_rev: bool) -> str:
    return f"public, max-age={REVISION_SECONDS}" if fixed_rev else LATEST_CACHE


def _robots(response: Response, found: Found) -> Response:
    if not found.listed:
        response.headers["X-Robots-Tag"] = "noindex"
    return response


def _page(found: Found, template: str, fixed_rev: bool, kind: str) -> Response:
    line = request.args.get("line") or "main"
    response = cached_page(kind, lambda: render_line(found, line, template, fixed_rev), _cache_control(fixed_rev),
                           version=f"{found.version}\0{line}")
    return _robots(response, found)


# --- pages ---------------------------------------------------------------------------------

@bp.get("/s/<study_id>")
def study_page(study_id: str) -> Response:
    return _page(find(study_id), "study.html", False, "s")


@bp.get("/s/<study_id>/<int:rev>")
def study_revision_page(study_id: str, rev: int) -> Response:
    return _page(find(study_id, rev), "study.html", True, "s-rev")


@bp.get("/embed/s/<study_id>")
@frameable
def study_embed(study_id: str) -> Response:
    return _page(find(study_id), "embed_study.html", False, "embed-s")


@bp.get("/embed/s/<study_id>/<int:rev>")
@frameable
def study_revision_embed(study_id: str, rev: int) -> Response:
    return _page(find(study_id, rev), "embed_study.html", True, "embed-s-rev")


# --- JSON, logs, exports --------------------------------------------------------------------

def _line_json(found: Found, fixed_rev: bool) -> Response:
    sg = study_game(found)
    line = line_of(sg, request.args.get("line"), found.id)
    body = study_data(found, sg, line, fixed_rev)
    body["title_shown"] = study_title(found, sg)
    game = viewed_line(found, sg, line, fixed_rev)
    body["replay"] = page_json(game)
    text = json.dumps(body, ensure_ascii=False)
    check_output(game, len(text.encode("utf-8")), "JSON")  # notes count too, as on the page
    response = Response(text, mimetype="application/json")
    response.headers["Cache-Control"] = _cache_control(fixed_rev)
    return _robots(response, found)


@bp.get("/s/<study_id>.json")
def study_json(study_id: str) -> Response:
    return _line_json(find(study_id), False)


@bp.get("/s/<study_id>/<int:rev>.json")
def study_revision_json(study_id: str, rev: int) -> Response:
    return _line_json(find(study_id, rev), True)


def _line_log(found: Found) -> Response:
    sg = study_game(found)
    line = line_of(sg, request.args.get("line"), found.id)
    name = f"study-{found.id}-{line}.json"
    return download(sg.line(line).log.canonical_json(indent=2) + "\n", "application/json", name)


@bp.get("/s/<study_id>/log.json")
def study_log(study_id: str) -> Response:
    return _line_log(find(study_id))


@bp.get("/s/<study_id>/<int:rev>/log.json")
def study_revision_log(study_id: str, rev: int) -> Response:
    return _line_log(find(study_id, rev))


def _study_export(found: Found, fmt: str) -> Response:
    body, media_type, encoding, name = exported(found, fmt)
    response = download(body, media_type, name)
    response.charset = encoding
    return response


@bp.get("/s/<study_id>/study.<fmt>")
def study_export(study_id: str, fmt: str) -> Response:
    return _study_export(find(study_id), fmt)


@bp.get("/s/<study_id>/<int:rev>/study.<fmt>")
def study_revision_export(study_id: str, rev: int, fmt: str) -> Response:
    return _study_export(find(study_id, rev), fmt)


def _game_export(found: Found, fmt: str, fixed_rev: bool) -> Response:
    sg = study_game(found)
    line = line_of(sg, request.args.get("line"), found.id)
    return export_response(viewed_line(found, sg, line, fixed_rev), fmt)


@bp.get("/s/<study_id>.<fmt>")
def study_game_export(study_id: str, fmt: str) -> Response:
    return _game_export(find(study_id), fmt, False)


@bp.get("/s/<study_id>/<int:rev>.<fmt>")
def study_revision_game_export(study_id: str, rev: int, fmt: str) -> Response:
    return _game_export(find(study_id, rev), fmt, True)


# --- analysis and pictures of a line ----------------------------------------------------------

def _analysis(found: Found, fixed_rev: bool) -> Response:
    """A line's analysis: the game's ``analyse`` on that line's own game (a branch's play, not
    the main line's), kept by the archive under that game's content (``archive.analyses``), so
    a branch's analysis is never stored as the game's."""
    sg = study_game(found)
    line = line_of(sg, request.args.get("line"), found.id)
    return analysis_response(viewed_line(found, sg, line, fixed_rev), None,
                             f"public, max-age={REVISION_SECONDS}" if fixed_rev else "no-cache",
                             etag_parts=(found.id, found.made, str(found.rev), line))


@bp.get("/s/<study_id>/analysis.json")
def study_analysis(study_id: str) -> Response:
    return _analysis(find(study_id), False)


@bp.get("/s/<study_id>/<int:rev>/analysis.json")
def study_revision_analysis(study_id: str, rev: int) -> Response:
    return _analysis(find(study_id, rev), True)


def _image(found: Found, kind: str, fixed_rev: bool) -> Response:
    sg = study_game(found)
    line = line_of(sg, request.args.get("line"), found.id)
    return image_response(kind, content_key(f"s\0{found.id}\0{found.made}\0{found.rev}\0{line}"), _cache_control(fixed_rev),
                          lambda: viewed_line(found, sg, line, fixed_rev))


for _suffix, _kind in (("picture.png", "picture"), ("animation.gif", "gif"), ("animation.mp4", "mp4")):
    def _latest_image(study_id: str, _kind: str = _kind) -> Response:
        return _image(find(study_id), _kind, False)

    def _revision_image(study_id: str, rev: int, _kind: str = _kind) -> Response:
        return _image(find(study_id, rev), _kind, True)

    bp.add_url_rule(f"/s/<study_id>/{_suffix}", f"study_{_kind}", _latest_image, methods=["GET"])
    bp.add_url_rule(f"/s/<study_id>/<int:rev>/{_suffix}", f"study_revision_{_kind}", _revision_image,
                    methods=["GET"])


# --- making a study from a replay page ------------------------------------------------------

def _new_form(status: int = 200, **context: Any) -> Response:
    response = Response(render_template("study_new.html", **context), status=status, mimetype="text/html")
    # an upload's token may be in the address: the page's <meta name="referrer"> keeps it on this site
    response.headers["Cache-Control"] = "no-store"
    return response


def _form_source() -> dict[str, str]:
    values = request.form if request.method == "POST" else request.args
    return {"kind": values.get("kind", "")[:10], "ref": values.get("ref", "")[:4096],
            "players": values.get("players", "")[:2000], "title": values.get("title", "")[:400],
            "listed": values.get("listed", "")}


@bp.get("/s/new")
def new_study_form() -> Response:
    """The form that makes a study (the replay pages' button opens it): it carries a CSRF token,
    which a replay page (cached, the same for everyone) cannot."""
    source = _form_source()
    game_title = None
    try:
        log, _ = log_from_source(source["kind"], source["ref"], source["players"])
        game_title = game_for_format(log.format).title
    except PageError as exc:
        return _new_form(exc.status, source=source, problem=exc.message)
    return _new_form(source=source, problem=None, game_title=game_title)


@bp.post("/s/new")
def new_study() -> Response:
    """Make a study and open it: ``303`` to ``/s/<id>#owner=<token>`` (the token is shown once)."""
    source = _form_source()
    try:
        csrf.verify()
    except csrf.CsrfError as exc:
        # a same-site post from a modern browser says so itself; without a token or that
        # header, ask again on the form (which carries a token)
        if request.headers.get("Sec-Fetch-Site") != "same-origin" or csrf.cross_site():
            return _new_form(403 if csrf.cross_site() else 200, source=source,
                             problem=str(exc) if csrf.cross_site() else None)
    limited = ratelimit.check("studies")
    if limited is not None:
        return limited
    title = source["title"].strip()
    try:
        log, src = log_from_source(source["kind"], source["ref"], source["players"])
        sg = StudyGame.new(log, title=title, source=src)
    except PageError as exc:
        return _new_form(exc.status, source=source, problem=exc.message)
    except StudyError as exc:
        return _new_form(422, source=source, problem=f"this game cannot be studied: {exc}")
    found, token = store_new(sg, source["listed"] in ("1", "on", "yes", "true"))
    response = redirect(f"/s/{found.id}#owner={token}", 303)
    response.headers["Cache-Control"] = "no-store"
    return response


# --- listed studies ---------------------------------------------------------------------------

@bp.get("/studies")
def studies_page() -> Response:
    raw = request.args.get("page", "1")
    page = int(raw) if raw.isascii() and raw.isdigit() and 0 < len(raw) < 7 and int(raw) > 0 else 1
    try:
        data = listing(page, PER_PAGE)
    except PageError as exc:
        return error_response(exc.message, exc.status, exc.title)
    response = Response(render_template("studies.html", listing=data), mimetype="text/html")
    response.headers["Cache-Control"] = "no-cache"
    response.set_etag(etag_for("studies", str(page), str(data["total"]), *(s["id"] + str(s["rev"]) for s in data["studies"])),
                      weak=True)
    return response.make_conditional(request)
