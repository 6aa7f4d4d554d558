"""A round's picture: ``/r/<code>/round/<n>.svg``, ``/g/<id>/round/<n>.svg`` and
``/u/<token>/round/<n>.svg``, the SVG of ``replay.games.party_cards.image.round_svg``
(1200x630: chat apps' preview size): the party-cards drawing of the round's pick as an onlooker
saw it, with the page's names, the same picture as that step's PNG (``/picture.png``).

Card texts are untrusted: ``replay.picture.svg`` cleans, cuts and escapes them, and the
response forbids any script anyway (its own Content-Security-Policy: ``default-src 'none'``, ``script-src 'none'`` and a
``sandbox``; ``nosniff``), so an SVG opened on its own runs nothing. Code pictures never change
(a year's caching, immutable, with an ETag); an archived game's for five minutes like its page;
an unlisted upload's are private.
"""

from __future__ import annotations

import hashlib

from flask import Response, current_app, request
from viewer.errors import PageError
from replay.games.party_cards.image import round_svg
from viewer.services.picture import Ask, content_key, drawn, validator
from viewer.services.replay import game_from_code
from viewer.services.replay import ARCHIVED_CACHE_SECONDS, game_from_archive
from viewer.services.upload import viewed_upload

#: what an SVG response may do: draw itself (inline styles), nothing else
SVG_POLICY = ("default-src 'none'; script-src 'none'; style-src 'unsafe-inline'; img-src 'none'; "
              "font-src 'none'; connect-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'; "
              "frame-ancestors 'none'; sandbox")
MAX_ROUND_DIGITS = 6


def round_number(raw: str, replay) -> int:
    """``raw`` as a round of ``replay``: 400 when it is no number, 404 when the game has no such round."""

    if not (raw.isascii() and raw.isdigit()) or len(raw) > MAX_ROUND_DIGITS:
        raise PageError(f"a round is a whole number (1-{replay.rounds}), not {raw[:20]!r}", 400, "No such round")
    n = int(raw)
    if not 1 <= n <= replay.rounds:
        raise PageError(f"round {n} is not a round of this game (it has {replay.rounds})", 404, "No such round")
    return n


def svg_response(game, raw: str, cache_control: str, version: str = "") -> Response:
    """The round's SVG with its headers; ``version`` is what the picture depends on beyond the URL."""

    if game.board.game != "party-cards":
        raise PageError(f"only party-cards games have round pictures, not {game.board.game} games", 404)
    n = round_number(raw, game.replay)
    # what the picture is made of: the game (its code or stored bytes), the names its link
    # gives, the round, and the drawing's code (renderer_version)
    etag = validator(content_key("\0".join((game.path, game.query, version))), Ask("round-svg", step=n))
    if not request.if_none_match.star_tag and request.if_none_match.contains_weak(etag):
        response = Response(status=304)
    else:  # drawn within the client's picture rate and the process's drawing budget, as PNGs are
        data = drawn(etag, "pictures", lambda: lambda: round_svg(game.replay, n, game.names).encode("utf-8"))
        if isinstance(data, Response):
            return data
        response = Response(data, mimetype="image/svg+xml")
        response.charset = "utf-8"
    response.set_etag(etag)
    response.headers["Cache-Control"] = cache_control
    response.headers["Content-Security-Policy"] = SVG_POLICY
    response.headers["Content-Disposition"] = f'inline; filename="round-{n}.svg"'
    return response


def code_round_svg(code: str, n: str) -> Response:

    seconds = current_app.config["CODE_CACHE_SECONDS"]
    return svg_response(game_from_code(code), n, f"public, max-age={seconds}, immutable")


def archived_round_svg(public_id: str, n: str) -> Response:

    game, archived = game_from_archive(public_id)
    version = hashlib.sha256(archived.raw).hexdigest()[:20]
    return svg_response(game, n, f"public, max-age={ARCHIVED_CACHE_SECONDS}", version)


def upload_round_svg(token: str, n: str) -> Response:

    game, _ = viewed_upload(token)
    response = svg_response(game, n, "private, no-store")
    response.headers["X-Robots-Tag"] = "noindex"
    return response


#: (rule, view) pairs that ``viewer.games.init_app`` adds to the app (GET only)
ROUTES = (
    ("/r/<code>/round/<n>.svg", code_round_svg),
    ("/g/<public_id>/round/<n>.svg", archived_round_svg),
    ("/u/<token>/round/<n>.svg", upload_round_svg),
)
