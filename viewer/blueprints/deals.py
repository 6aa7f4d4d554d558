"""The routes of duplicate deals (``/deal/<key>``); what they do is in :mod:`viewer.services.deals`."""

from __future__ import annotations

from flask import Blueprint, Response, jsonify, render_template

from ..services.deals import deal_page, deal_version, number
from ..services.replay import ARCHIVED_CACHE_SECONDS, cached_page

bp = Blueprint("deals", __name__)


@bp.app_template_filter("deal_number")
def deal_number(value: float | None, signed: bool = False) -> str:
    return number(value, signed)


@bp.get("/deal/<key>")
def deal_html(key: str) -> Response:
    return cached_page("deal", lambda: render_template("deal.html", deal=deal_page(key)),
                       f"public, max-age={ARCHIVED_CACHE_SECONDS}", deal_version(key))


@bp.get("/deal/<key>.json")
def deal_json(key: str) -> Response:
    response = jsonify(deal_page(key))
    response.headers["Cache-Control"] = f"public, max-age={ARCHIVED_CACHE_SECONDS}"
    return response
