"""``/games``: browse the public archive with filters, sorting and pages; ``/games.json`` too.

Filters (query parameters): ``game`` (a registered game's name: ``floating-bridge``,
``uno-lite``), ``player`` (name or platform id, ``*`` wildcards), ``bot`` (with
or without version), ``winner`` (a winning seat's name, id or bot), ``fact`` (one of the game's
own facts: ``turns>=30``, ``contract=3NT``, ``winner=P1``), ``rules``, ``contract`` (``3S``, ``3NT``), ``declarer`` (seat),
``result`` (``declarer``/``defenders``), ``end_reason``, ``finding_kind``, ``has_findings``
(``yes``/``no``), ``from`` and ``to`` (dates, ``to`` inclusive). ``sort`` is
``started_at``, ``ingested_at`` or ``findings``, ``-`` in front for descending; ``page`` and
``per_page`` (at most 100) page through; ``after`` (the ``next_cursor`` of a page, which the
``next`` link carries) starts the page after that one without counting through the ones before. Only listed games are shown: unlisted uploads never.
A bad parameter is a 400 that names it.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta, timezone
from typing import Any
from urllib.parse import urlencode

from flask import Blueprint, Response, jsonify, render_template, request

from replay.games.floating_bridge.rules import PRESETS

from ..app import PageError, get_archive
from ..games import game_titles, seat_order, vocabulary

bp = Blueprint("games", __name__)

#: every installed game's end reasons and finding kinds (one definition each: the games')
END_REASONS = vocabulary("end_reasons")
FINDING_KINDS = vocabulary("finding_kinds")
SORTS = ("-started_at", "started_at", "-ingested_at", "ingested_at", "-findings", "findings")
TEXT_FILTERS = ("game", "player", "bot", "winner", "fact", "rules", "contract", "declarer", "result", "end_reason",
                "finding_kind")
PARAMS = (*TEXT_FILTERS, "has_findings", "from", "to", "sort", "page", "per_page", "after")
DEFAULT_PER_PAGE = 25
MAX_PER_PAGE = 100
MAX_PAGE = 100_000
MAX_TEXT = 100
MAX_CURSOR = 200


def _date(value: str, name: str) -> datetime:
    try:
        day = date.fromisoformat(value)
    except ValueError:
        raise PageError(f"{name} must be a date like 2026-11-21, not {value[:30]!r}", 400, "Bad filter") from None
    return datetime(day.year, day.month, day.day, tzinfo=timezone.utc)


def _int(value: str | None, name: str, default: int, low: int, high: int) -> int:
    if value is None or value == "":
        return default
    if not (value.isascii() and value.isdigit()) or len(value) > 7:
        raise PageError(f"{name} must be a whole number, not {value[:20]!r}", 400, "Bad parameter")
    number = int(value)
    if not low <= number <= high:
        raise PageError(f"{name} must be between {low} and {high}, not {number}", 400, "Bad parameter")
    return number


def parse_query(args) -> dict[str, Any]:
    """The archive filters, sort and page asked for by a query string (``PageError`` if bad)."""
    filters: dict[str, Any] = {}
    for name in TEXT_FILTERS:
        value = (args.get(name) or "").strip()
        if not value:
            continue
        if len(value) > MAX_TEXT:
            raise PageError(f"{name} is too long (at most {MAX_TEXT} characters)", 400, "Bad filter")
        if any(ord(ch) < 32 or 0xD800 <= ord(ch) < 0xE000 for ch in value):
            raise PageError(f"{name} may not contain control characters", 400, "Bad filter")
        filters[name] = value
    if filters.get("game") and filters["game"] not in game_titles():
        raise PageError(f"game must be one of {', '.join(game_titles())}, not {filters['game']!r}", 400, "Bad filter")
    if filters.get("declarer") and filters["declarer"].upper() not in ("N", "E", "S", "W"):
        raise PageError(f"declarer must be a seat (N, E, S or W), not {filters['declarer']!r}", 400, "Bad filter")
    if filters.get("result") and filters["result"] not in ("declarer", "defenders"):
        raise PageError(f"result must be 'declarer' or 'defenders', not {filters['result']!r}", 400, "Bad filter")
    if filters.get("end_reason") and filters["end_reason"] not in END_REASONS:
        raise PageError(f"end_reason must be one of {', '.join(END_REASONS)}", 400, "Bad filter")
    if filters.get("finding_kind") and filters["finding_kind"] not in FINDING_KINDS:
        raise PageError(f"finding_kind must be one of {', '.join(FINDING_KINDS)}", 400, "Bad filter")
    has = (args.get("has_findings") or "").strip().lower()
    if has:
        if has not in ("yes", "no", "true", "false", "1", "0"):
            raise PageError("has_findings must be yes or no", 400, "Bad filter")
        filters["has_findings"] = has in ("yes", "true", "1")
    if args.get("from"):
        filters["started_from"] = _date(args["from"], "from")
    if args.get("to"):
        end = _date(args["to"], "to")
        # up to the end of that day (the last representable day has no next day)
        filters["started_to"] = end + timedelta(days=1) if end.date() < date.max else end.replace(hour=23, minute=59, second=59)
    sort = args.get("sort") or "-started_at"
    if sort not in SORTS:
        raise PageError(f"sort must be one of {', '.join(SORTS)}", 400, "Bad parameter")
    per_page = _int(args.get("per_page"), "per_page", DEFAULT_PER_PAGE, 1, MAX_PER_PAGE)
    page = _int(args.get("page"), "page", 1, 1, MAX_PAGE)
    after = (args.get("after") or "").strip()
    if len(after) > MAX_CURSOR or not after.isascii():
        raise PageError("after must be a page's next_cursor", 400, "Bad parameter")
    return {"filters": filters, "sort": sort, "page": page, "per_page": per_page, "after": after or None}


def game_json(item) -> dict[str, Any]:
    """One listed game as the listing shows it."""
    players = {s: {k: v for k, v in (p or {}).items() if k in ("name", "bot")}
               for s, p in (item.players or {}).items()}
    return {
        "id": item.public_id,
        "game": item.game,
        "seats": seat_order(item.game, players),
        "url": f"/g/{item.public_id}",
        "triage_url": f"/g/{item.public_id}/triage",
        "started_at": item.started_at.isoformat().replace("+00:00", "Z") if item.started_at else None,
        "rules": item.rules,
        "players": players,
        "contract": item.contract,
        "declarer": item.declarer,
        "result": item.result,
        "end_reason": item.end_reason,
        "findings": item.findings,
        "finding_kinds": list(item.finding_kinds),
        "code": item.code,
    }


def listing(args) -> dict[str, Any]:
    """The JSON of a games listing (also what the page renders)."""
    from archive.store import ArchiveError, CursorError

    query = parse_query(args)
    try:
        # the next link carries a cursor: a deep page is one index range, not an OFFSET
        offset = 0 if query["after"] else (query["page"] - 1) * query["per_page"]
        page = get_archive().list(listed=True, sort=query["sort"], limit=query["per_page"], offset=offset,
                                  cursor=query["after"], **query["filters"])
    except CursorError as exc:  # names no page of this listing
        raise PageError(str(exc), 404, "No such page") from None
    except ArchiveError as exc:
        raise PageError(str(exc), 400, "Bad filter") from None
    kept = {k: v for k, v in args.items() if k in PARAMS and k not in ("page", "after") and v}
    pages = max(1, -(-page.total // query["per_page"]))
    # past COUNT_CAP matches the archive gives a lower bound: say "1,000+" and keep paging
    more = page.next_cursor is not None

    def page_link(number: int, after: str | None = None) -> str:
        return "?" + urlencode({**kept, "page": number, **({"after": after} if after else {})})

    return {
        "total": page.total,
        "total_exact": page.total_exact,
        "page": query["page"],
        "per_page": query["per_page"],
        "pages": pages,
        "sort": query["sort"],
        "filters": {k: v for k, v in args.items() if k in PARAMS and k not in ("sort", "page", "per_page", "after")
                    and v},
        "games": [game_json(item) for item in page.items],
        "next": page_link(query["page"] + 1, page.next_cursor) if more else None,
        "next_cursor": page.next_cursor,
        "prev": page_link(query["page"] - 1) if query["page"] > 1 else None,
    }


@bp.get("/games")
def games_page() -> Response:
    data = listing(request.args)
    json_link = "/games.json" + ("?" + request.query_string.decode("latin-1") if request.query_string else "")
    html = render_template("games.html", data=data, args=request.args, finding_kinds=list(FINDING_KINDS),
                           games=game_titles(),
                           end_reasons=END_REASONS, rules_presets=sorted(PRESETS), sorts=SORTS,
                           json_link=json_link)
    response = Response(html, mimetype="text/html")
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/games.json")
def games_json() -> Response:
    response = jsonify(listing(request.args))
    response.headers["Cache-Control"] = "no-cache"
    return response
