"""``/games``: browse the public archive with filters, sorting and pages; ``/games.json`` too.

Filters (query parameters) come from the archive's filter spec (``filter_fields``): the neutral
ones (``game``, ``player``, ``bot``, ``winner``, ``end_reason``, ``finding_kind``,
``has_findings``, ``fact``, ``from``, ``to``) and each of the chosen game's facts by name
(``?game=coup&turns=12``). ``sort`` is ``started_at``, ``ingested_at`` or ``findings``, ``-``
in front for descending; ``page`` and ``per_page`` (at most 100) page through; ``after`` (the
``next_cursor`` of a page, which the ``next`` link carries) starts the page after that one
without counting through the ones before. Only listed games are shown: unlisted uploads never.
A bad parameter is a 400 that names it. Columns: each game's facts marked ``Fact.column``."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from archive.store import ArchiveError, CursorError

from ..app import PageError, get_archive
from ..games import game_titles, vocabulary
from ..rows import clean_query, column_facts, listed_rows, query_fields, web_name

#: every installed game's end reasons and finding kinds (one definition each: the games')
END_REASONS = vocabulary("end_reasons")
FINDING_KINDS = vocabulary("finding_kinds")
SORTS = ("-started_at", "started_at", "-ingested_at", "ingested_at", "-findings", "findings")
PAGING = ("sort", "page", "per_page", "after")
DEFAULT_PER_PAGE = 25
MAX_PER_PAGE = 100
MAX_PAGE = 100_000
MAX_TEXT = 100
MAX_CURSOR = 200


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
    game = (args.get("game") or "").strip() or None
    if game is not None and game not in game_titles():
        raise PageError(f"game must be one of {', '.join(game_titles())}, not {game[:40]!r}", 400, "Bad filter")
    raw: dict[str, str] = {}
    for field in query_fields(game):
        name = web_name(field)
        value = (args.get(name) or "").strip()
        if not value:
            continue
        if len(value) > MAX_TEXT:
            raise PageError(f"{name} is too long (at most {MAX_TEXT} characters)", 400, "Bad filter")
        if any(ord(ch) < 32 or 0xD800 <= ord(ch) < 0xE000 for ch in value):
            raise PageError(f"{name} may not contain control characters", 400, "Bad filter")
        raw[name] = value
    try:
        filters = clean_query(raw, game)
    except ArchiveError as exc:
        raise PageError(str(exc), 400, "Bad filter") from None
    sort = args.get("sort") or "-started_at"
    if sort not in SORTS:
        raise PageError(f"sort must be one of {', '.join(SORTS)}", 400, "Bad parameter")
    per_page = _int(args.get("per_page"), "per_page", DEFAULT_PER_PAGE, 1, MAX_PER_PAGE)
    page = _int(args.get("page"), "page", 1, 1, MAX_PAGE)
    after = (args.get("after") or "").strip()
    if len(after) > MAX_CURSOR or not after.isascii():
        raise PageError("after must be a page's next_cursor", 400, "Bad parameter")
    return {"game": game, "raw": raw, "filters": filters, "sort": sort, "page": page, "per_page": per_page,
            "after": after or None}


def listing(args) -> dict[str, Any]:
    """The JSON of a games listing (also what the page renders)."""
    query = parse_query(args)
    archive = get_archive()
    try:
        # the next link carries a cursor: a deep page is one index range, not an OFFSET
        offset = 0 if query["after"] else (query["page"] - 1) * query["per_page"]
        page = archive.list(listed=True, sort=query["sort"], limit=query["per_page"], offset=offset,
                                  cursor=query["after"], **query["filters"])
    except CursorError as exc:  # names no page of this listing
        raise PageError(str(exc), 404, "No such page") from None
    except ArchiveError as exc:
        raise PageError(str(exc), 400, "Bad filter") from None
    kept = {**query["raw"], **{k: v for k, v in args.items() if k in ("sort", "per_page") and v}}
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
        "filters": query["raw"],
        "columns": [{"name": f.name, "label": f.label} for f in column_facts(query["game"])],
        "games": listed_rows(archive, page.items),
        "next": page_link(query["page"] + 1, page.next_cursor) if more else None,
        "next_cursor": page.next_cursor,
        "prev": page_link(query["page"] - 1) if query["page"] > 1 else None,
    }
