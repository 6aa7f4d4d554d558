"""The routes of ``stats``; what they do is in :mod:`viewer.services.stats`."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, render_template, request

from ..games import game_titles

from ..services.stats import (  # noqa: F401
    stats_charts,
    stats_json,
)

bp = Blueprint("stats", __name__)


@bp.get("/stats")
def stats_page() -> Response:
    data = stats_json(request.args)
    charts = stats_charts(data["rows"], data["name"], data.get("rating_history"), data.get("counted_role"),
                          data["analysis"])
    html = render_template("stats.html", data=data, charts=charts, games=game_titles())
    response = Response(html, mimetype="text/html")
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/stats.json")
def stats_json_route() -> Response:
    data = stats_json(request.args)
    for row in data["rows"]:
        row.pop("think_ms", None)
    return jsonify(data)

