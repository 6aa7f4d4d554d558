"""The routes of ``games``; what they do is in :mod:`viewer.services.games`."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, render_template, request

from ..games import game_titles
from ..rows import query_fields, web_name

from ..services.games import (  # noqa: F401
    SORTS,
    listing,
)

bp = Blueprint("games", __name__)


@bp.get("/games")
def games_page() -> Response:
    data = listing(request.args)
    json_link = "/games.json" + ("?" + request.query_string.decode("latin-1") if request.query_string else "")
    game = data["filters"].get("game")
    # the form offers the chosen game's facts; with no game, only the neutral filters (and fact=)
    fields = [(web_name(f), f) for f in query_fields(game) if game or f.fact is None]
    html = render_template("games.html", data=data, args=request.args, fields=fields, games=game_titles(), sorts=SORTS,
                           json_link=json_link)
    response = Response(html, mimetype="text/html")
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/games.json")
def games_json() -> Response:
    response = jsonify(listing(request.args))
    response.headers["Cache-Control"] = "no-cache"
    return response

