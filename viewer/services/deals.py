"""Duplicate deals in the viewer: the "Other tables" panel of a game's page, ``/deal/<key>``
(and ``.json``) and the duplicate scores of ``/stats``.

A game whose module has deals (``GameModule.has_deals``) fingerprints each game's deal
(``deal_key``) and scores each seat on its standard scale (``deal_scores``, in ``deal_unit``);
the archive keeps both (``Archive.deal_tables``). Everything here reads **listed** games only: an
unlisted upload is never one of another game's tables, and never moves a seat's mean.

Duplicate scores are worked out here with ``replay.duplicate`` over the deal's listed tables
(the first :data:`MAX_TABLES`): a seat's result minus that seat's mean over the tables with a
result. The panel leaves out the page's own game (the same row, or for a code page the same
canonical game) altogether: its means and duplicate scores are over the **other** tables only,
so nothing in it depends on the result of the game being watched (``/deal/<key>``, which the
user opens knowingly, compares every table, the own game included).

Pages that show a panel are cached under a version of the deal's listed tables
(:func:`ids_version`, one indexed query a request, in the order the tables are shown): a new
table of the deal (or one deleted, published, hidden) makes another page. When the archive
cannot be opened or queried (:data:`PANEL_ERRORS`) the panel raises :class:`PanelUnavailable`
and the page is served without it, and without caching (``services/replay.py``): the panel
costs the panel, never the page.

>>> number(7.0), number(-0.3333), number(1.5, signed=True), number(0.0, signed=True), number(None)
('7', '-0.33', '+1.5', '0', '—')
"""

from __future__ import annotations

import functools
import hashlib
import threading
import time
from collections import OrderedDict
from typing import Any, Callable, Iterable

from flask import current_app
from sqlalchemy import bindparam, select
from sqlalchemy.exc import SQLAlchemyError

from archive.models import Game
from archive.records import ArchiveError
from replay import duplicate
from replay.codec import decode, encode
from replay.errors import ReplayError
from replay.games import game_for_format, get as get_game

from ..app import PageError, get_archive
from ..games import game_titles, installed_games, seat_order

#: tables of one deal read (and shown) at most
MAX_TABLES = 500
#: code pages' deal keys kept per process (worked out from the decoded game once per code)
KEY_MEMO = 20_000
#: the longest code a page decodes (``services/replay.py``'s ``MAX_CODE``)
MAX_CODE = 4096
#: what an archive that cannot be opened or queried raises (``get_archive``: ``ArchiveError``, or
#: ``OSError`` for a SQLite path whose folder cannot be made; a query: ``SQLAlchemyError``)
PANEL_ERRORS = (ArchiveError, SQLAlchemyError, OSError)


class PanelUnavailable(Exception):
    """The "Other tables" panel cannot be built: the archive cannot be opened or queried (the
    error it raised is the ``__cause__``). The page goes on without the panel."""


def number(value: float | None, signed: bool = False) -> str:
    """A score as the pages show it: at most two decimals, no trailing zeros (``—``: none)."""
    if value is None:
        return "—"
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    if text in ("-0", ""):
        text = "0"
    if signed and not text.startswith("-") and text != "0":
        text = "+" + text
    return text


def module_of(name: str) -> Any:
    try:
        return get_game(name)
    except (LookupError, ImportError):
        return None


def has_deals(module: Any) -> bool:
    return bool(module is not None and getattr(module, "has_deals", False))


def key_of_log(log: Any) -> str | None:
    """A log's deal key from its game's ``deal_key`` hook (None: no deals, a hook that fails, or
    something that is not a key)."""
    try:
        module = game_for_format(log.format)
    except (LookupError, ImportError, AttributeError):
        return None
    if not has_deals(module):
        return None
    try:
        key = module.deal_key(log)
    except Exception:  # a game's hook that fails costs the panel, never the page
        return None
    return key if isinstance(key, str) and duplicate.is_key(key) else None


class KeyMemo:
    """A thread-safe LRU of ``name -> value`` for values that never change for their name (a
    code's deal key, the deal key of stored bytes by their hash)."""

    def __init__(self, size: int = KEY_MEMO):
        self.size = size
        self.items: OrderedDict[str, Any] = OrderedDict()
        self.lock = threading.Lock()

    def peek(self, name: str) -> Any:
        with self.lock:
            return self.items.get(name)

    def put(self, name: str, value: Any) -> None:
        with self.lock:
            self.items[name] = value
            self.items.move_to_end(name)
            while len(self.items) > self.size:
                self.items.popitem(last=False)

    def get(self, name: str, make: Callable[[], Any]) -> Any:
        with self.lock:
            if name in self.items:
                self.items.move_to_end(name)
                return self.items[name]
        value = make()
        self.put(name, value)
        return value


def _memo() -> KeyMemo:
    found = current_app.extensions.get("deal_keys")
    if found is None:
        found = current_app.extensions.setdefault("deal_keys", KeyMemo())
    return found


def code_deal(code: str) -> tuple[str | None, str | None]:
    """``(deal key, canonical code)`` of a code page's game (``(None, None)`` when its game has
    no deals or the code does not decode: the page says why). Worked out once per code."""

    if len(code) > MAX_CODE:
        return None, None

    def make() -> tuple[str | None, str | None]:
        try:
            log = decode(code)
        except Exception:  # the page itself says what is wrong with the code
            return None, None
        key = key_of_log(log)
        if key is None:
            return None, None
        try:
            canonical = encode(log)
        except ReplayError:
            canonical = code
        return key, canonical

    return _memo().get("r\0" + hashlib.sha256(code.encode("utf-8", "replace")).hexdigest(), make)


def archived_key(archived: Any) -> str | None:
    """A stored game's deal key, as ingest kept it (``Archive.deal_key_of``; None: its game
    has no deals, or its log does not tell the whole deal; :class:`PanelUnavailable`: the
    archive cannot be queried)."""
    if not has_deals(module_of(archived.game)):
        return None
    try:
        archive = get_archive()
        row_id = archive.ids.decode(archived.public_id)
        return None if row_id is None else archive.deal_key_of(row_id)
    except PANEL_ERRORS as exc:
        raise PanelUnavailable(str(exc)) from exc


def stored_game_panel(archived: Any) -> dict[str, Any] | None:
    """The panel of a stored game's page that is not cached (an upload's ``/u/<token>``; None
    also when the archive cannot be queried: the page goes on without it)."""
    try:
        return game_panel(archived_key(archived), own_id=archived.public_id)[0]()
    except PanelUnavailable as exc:
        current_app.logger.warning("the Other tables panel is left out: %s", exc)
        return None


# --- the deal's tables ---------------------------------------------------------------------------

def _codes(row_ids: list[int]) -> dict[int, str | None]:
    archive = get_archive()
    with archive.engine.connect() as conn:
        return dict(conn.execute(select(Game.id, Game.code).where(Game.id.in_(row_ids))).all())


def stored_tables(key: str, with_codes: bool = False) -> list[dict[str, Any]]:
    """The deal's listed tables as the archive gives them (``Archive.deal_tables``), oldest
    first, at most ``MAX_TABLES + 1`` (one more than are shown: whether the deal has more);
    with ``with_codes`` each has its ``code`` too."""
    tables = get_archive().deal_tables(key, listed_only=True, limit=MAX_TABLES + 1)
    if with_codes and tables and any("code" not in t for t in tables):
        codes = _codes([t["row_id"] for t in tables])
        for t in tables:
            t.setdefault("code", codes.get(t["row_id"]))
    return tables


def _who(seat: dict[str, Any]) -> str:
    return seat.get("name") or seat.get("bot") or seat["seat"]


def deal_view(key: str, tables: list[dict[str, Any]], truncated: bool | None = None) -> dict[str, Any]:
    """The deal's tables compared seat by seat: per table each seat's player (name, bot), won,
    result and duplicate score (``replay.duplicate.duplicate_scores`` over these tables, the
    first :data:`MAX_TABLES`); the seats in table order, each seat's mean, the game, its title
    and unit, and ``truncated`` (more tables than are shown: by default, more than
    ``MAX_TABLES`` were given)."""
    if truncated is None:
        truncated = len(tables) > MAX_TABLES
    tables = tables[:MAX_TABLES]
    game = tables[0]["game"]
    module = module_of(game)
    seats = seat_order(game, list(dict.fromkeys(s["seat"] for t in tables for s in t["seats"])))
    rows = [duplicate.Table(key, {s["seat"]: _who(s) for s in t["seats"]},
                            {s["seat"]: s["score"] for s in t["seats"] if s["score"] is not None}, t["public_id"])
            for t in tables]
    means = duplicate.seat_means(rows)
    dup = duplicate.duplicate_scores(rows)
    out_tables = []
    for t, scores in zip(tables, dup):
        by_seat = {s["seat"]: s for s in t["seats"]}
        cells = {}
        for seat in seats:
            s = by_seat.get(seat)
            if s is None:
                continue
            cells[seat] = {"name": s.get("name"), "bot": s.get("bot"), "won": s.get("won"), "score": s["score"],
                           "duplicate": scores.get(seat)}
        winners = [seat for seat in seats if (by_seat.get(seat) or {}).get("won")]
        started = t.get("started_at")
        out_tables.append({
            "id": t["public_id"], "url": f"/g/{t['public_id']}",
            "started_at": started.isoformat().replace("+00:00", "Z") if started else None,
            "end_reason": t["end_reason"], "winners": winners, "findings": t.get("findings", 0),
            "seats": cells,
        })
    return {
        "key": key, "url": f"/deal/{key}", "json_url": f"/deal/{key}.json",
        "game": game, "title": game_titles().get(game, game),
        "unit": (getattr(module, "deal_unit", None) or "points"),
        "seats": seats, "count": len(tables), "truncated": truncated,
        "means": {seat: means[seat] for seat in seats if seat in means},
        "tables": out_tables,
    }


def check_key(key: str) -> None:
    """``PageError(404)`` for text that is not shaped like a deal key (``replay.duplicate.is_key``)."""
    if not duplicate.is_key(key):
        raise PageError(f"{key[:40]!r} is not a deal key: a deal key is {duplicate.KEY_LENGTH} lowercase "
                        "hexadecimal digits", 404, "No such deal")


def deal_page(key: str) -> dict[str, Any]:
    """``/deal/<key>``'s data (``PageError(404)`` for a malformed key or one no listed game has)."""
    check_key(key)
    tables = stored_tables(key)
    if not tables:
        raise PageError(f"no public game was dealt the deal {key}", 404, "No such deal")
    return deal_view(key, tables)


def panel(key: str | None, tables: list[dict[str, Any]] | None, own_id: str | None = None,
          own_code: str | None = None) -> dict[str, Any] | None:
    """The "Other tables" panel: the deal's view of the **other** tables alone, without the
    page's own game (the row ``own_id``, or the tables whose code is ``own_code``): their
    results, and duplicate scores against the means of these other tables (``scored`` of
    them have a result), so nothing in the panel tells the watched game's result. Duplicate
    scores only when two other tables or more have a result (``with_duplicate``: against one
    table's own mean every score would be 0). None when no other table is stored."""
    if not key or not tables:
        return None
    truncated = len(tables) > MAX_TABLES
    others = [t for t in tables[:MAX_TABLES]
              if not (t["public_id"] == own_id or (own_code and t.get("code") == own_code))]
    if not others:
        return None
    view = deal_view(key, others, truncated=truncated)
    scored = sum(1 for t in others if any(s["score"] is not None for s in t["seats"]))
    return {**view, "others": len(others), "scored": scored, "with_duplicate": scored >= 2}


@functools.lru_cache(maxsize=4)
def _listed_ids_query(limit: int) -> Any:
    """Built once per limit: a request pays for the query, not for building it. The order is
    ``Archive.deal_tables``'s (games without a start time first, then by start time, then by
    row id), so the ids are those of the tables shown, plus the one after them."""
    return (select(Game.id).where(Game.deal_key == bindparam("key"), Game.listed.is_(True))
            .order_by(Game.started_at.is_not(None), Game.started_at, Game.id).limit(limit))


def listed_ids(key: str) -> list[int]:
    """The row ids of the deal's listed tables as they are shown (:func:`stored_tables`'s
    order, the first ``MAX_TABLES + 1``): one indexed query (``ix_games_deal_key``), all a
    cached page needs to know whether it is still the same."""
    with get_archive().engine.connect() as conn:
        return list(conn.execute(_listed_ids_query(MAX_TABLES + 1), {"key": key}).scalars())


def listed_version(key: str) -> str:
    """:func:`ids_version` of the deal's listed tables, kept per process for
    ``DEAL_VERSION_SECONDS`` (default 1 s; 0: asked every time): under load the pages of one
    deal cost one query a second, and a new table shows on them within that second."""
    seconds = float(current_app.config.get("DEAL_VERSION_SECONDS", 1.0))
    if seconds <= 0:
        return ids_version(listed_ids(key))
    memo = current_app.extensions.get("deal_versions")
    if memo is None:
        memo = current_app.extensions.setdefault("deal_versions", KeyMemo())
    now = time.monotonic()
    found = memo.peek(key)
    if found is not None and found[0] > now:
        return found[1]
    version = ids_version(listed_ids(key))
    memo.put(key, (now + seconds, version))
    return version


def ids_version(ids: Iterable[int]) -> str:
    """The version of a deal's listed tables (their row ids): a table stored, deleted,
    published or hidden makes another one; ``""``: none."""
    ids = list(ids)
    return hashlib.sha256(",".join(map(str, ids)).encode()).hexdigest()[:16] if ids else ""


def game_panel(key: str | None, own_id: str | None = None, own_code: str | None = None
               ) -> tuple[Callable[[], dict[str, Any] | None], str]:
    """``(make, version)`` for a page: ``make()`` builds the panel (or None: no other table), and
    ``version`` is that of the deal's listed tables (:func:`ids_version`), which the page is
    cached under (``""``: no deal key, or no listed table). Only ``version`` is read on every
    request; the panel is built when the page is rendered. Both raise :class:`PanelUnavailable`
    when the archive cannot be opened or queried (:data:`PANEL_ERRORS`)."""
    if not key:
        return (lambda: None), ""
    try:
        version = listed_version(key)
    except PANEL_ERRORS as exc:
        raise PanelUnavailable(str(exc)) from exc
    if not version:
        return (lambda: None), ""

    def make() -> dict[str, Any] | None:
        try:
            tables = stored_tables(key, with_codes=own_code is not None)
        except PANEL_ERRORS as exc:
            raise PanelUnavailable(str(exc)) from exc
        return panel(key, tables, own_id, own_code)

    return make, version


def deal_version(key: str) -> str:
    """``/deal/<key>``'s version (``PageError(404)`` as :func:`deal_page` for a key no listed
    game has or a malformed one)."""
    check_key(key)
    version = listed_version(key)
    if not version:
        raise PageError(f"no public game was dealt the deal {key}", 404, "No such deal")
    return version


# --- stats ---------------------------------------------------------------------------------------

def duplicate_stats(by: str, game: str | None) -> list[dict[str, Any]]:
    """For ``/stats``: per game with deals (``game`` alone, or every game) that has duplicated
    deals among its listed games, its leaderboard (``Archive.duplicate_leaderboard``) as JSON,
    with the game's name and title."""
    archive = get_archive()
    titles = game_titles()
    names = [game] if game else [g.name for g in installed_games() if has_deals(g)]
    names = [n for n in names if has_deals(module_of(n))]
    if not names:
        return []
    duplicated = archive.duplicated_games(listed_only=True)
    out = []
    for name in names:
        if not duplicated.get(name):
            continue
        board = archive.duplicate_leaderboard(name, by=by, listed_only=True)
        if not board.duplicated_deals:
            continue
        data = board.to_json()
        data["game"], data["title"] = name, titles.get(name, name)
        for standing, row in zip(board.standings, data["standings"]):
            row["plain_text"] = standing.plain.text(2)
            row["duplicate_text"] = standing.duplicate.text(2, signed=True)
        out.append(data)
    return out


__all__ = ["MAX_TABLES", "PANEL_ERRORS", "PanelUnavailable", "code_deal", "archived_key", "deal_page", "deal_view", "duplicate_stats",
           "deal_version", "game_panel", "ids_version", "key_of_log", "listed_ids", "number", "panel", "stored_tables"]
