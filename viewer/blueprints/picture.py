"""The routes of pictures and animations; what they do is in :mod:`viewer.services.picture`.

``/r/<code>/picture.png?step=N&view=V`` (and ``/g/<id>/``, ``/u/<token>/``): the PNG of a step
(no step: the deal, from an onlooker's seat), 1200x630, the link preview of every page.
``animation.gif`` and ``animation.mp4`` with ``from``, ``to``, ``view`` and ``speed``: a range
of steps for a chat. A code's images never change (a year, immutable); an archived game's are
keyed by its stored bytes and kept like its page; an upload's are private.
"""

from __future__ import annotations

from urllib.parse import unquote_plus

from flask import Blueprint, Response, current_app, request

from replay.codec.links import NAMES_PARAMETER

from ..errors import PageError
from ..services.picture import content_key, image_response
from ..services.replay import ARCHIVED_CACHE_SECONDS, find_archived, game_from_code, viewed_archived
from ..services.upload import game_by_token, uploads, viewed_upload

bp = Blueprint("picture", __name__)


def _code_image(code: str, kind: str) -> Response:
    # the names the link gives are drawn: their parameter as written (an escaped comma is part
    # of a name, a plain one separates two)
    raw = request.query_string.decode("utf-8", "replace")
    names = "&".join(pair for pair in raw.split("&") if unquote_plus(pair.partition("=")[0]) == NAMES_PARAMETER)
    return image_response(kind, content_key(f"r\0{code}\0{names}"),
                          f"public, max-age={current_app.config['CODE_CACHE_SECONDS']}, immutable",
                          lambda: game_from_code(code))


def _archived_image(public_id: str, kind: str) -> Response:
    archived = find_archived(public_id)
    if uploads().is_listed(archived.public_id) is False:  # an unlisted upload opens by its token only
        raise PageError(f"there is no archived game with id {public_id!r}", 404, "No such game")
    return image_response(kind, content_key(b"g\0" + archived.raw), f"public, max-age={ARCHIVED_CACHE_SECONDS}",
                          lambda: viewed_archived(archived))


def _upload_image(token: str, kind: str) -> Response:
    archived = game_by_token(token)
    return image_response(kind, content_key(b"u\0" + archived.raw), "private, no-store",
                          lambda: viewed_upload(token)[0], private=True)


@bp.get("/r/<code>/picture.png")
def code_picture(code: str) -> Response:
    return _code_image(code, "picture")


@bp.get("/r/<code>/animation.gif")
def code_gif(code: str) -> Response:
    return _code_image(code, "gif")


@bp.get("/r/<code>/animation.mp4")
def code_mp4(code: str) -> Response:
    return _code_image(code, "mp4")


@bp.get("/g/<public_id>/picture.png")
def archived_picture(public_id: str) -> Response:
    return _archived_image(public_id, "picture")


@bp.get("/g/<public_id>/animation.gif")
def archived_gif(public_id: str) -> Response:
    return _archived_image(public_id, "gif")


@bp.get("/g/<public_id>/animation.mp4")
def archived_mp4(public_id: str) -> Response:
    return _archived_image(public_id, "mp4")


@bp.get("/u/<token>/picture.png")
def upload_picture(token: str) -> Response:
    return _upload_image(token, "picture")


@bp.get("/u/<token>/animation.gif")
def upload_gif(token: str) -> Response:
    return _upload_image(token, "gif")


@bp.get("/u/<token>/animation.mp4")
def upload_mp4(token: str) -> Response:
    return _upload_image(token, "mp4")
