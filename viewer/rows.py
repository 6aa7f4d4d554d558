"""Archived games as listings show them, through each game's own hooks.

A row's seats, facts and their labels come from the game (``replay.games.get(name)``:
``seat_order``, ``facts`` with ``Fact.label``/``Fact.shown``/``Fact.column``); the players'
names stand in for seat ids wherever a log named them. The home page, ``/games`` and their
JSON twins all build their rows here, so no listing knows one game's columns.

>>> [f.name for f in column_facts("coup")]
['winner', 'players', 'turns']
>>> column_facts(None)
[]
"""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any, Iterable, Mapping

from archive import ArchiveError
from replay.games import get
from replay.games.base import Fact

from archive.filters import FilterField, clean_filters, filter_fields
from .games import installed_games, seat_order

__all__ = ["column_facts", "listed_row", "listed_rows", "query_fields", "clean_query", "FilterField"]


def column_facts(game: str | None) -> list[Fact]:
    """The facts a listing of one game shows as columns (none for a listing of every game,
    whose rows show each game's facts in one cell)."""
    if not game:
        return []
    return [f for f in get(game).facts if f.column]


def shown_facts(game: str, facts: Mapping[str, Any], players: Mapping[str, Mapping[str, Any]]
                 ) -> list[dict[str, Any]]:
    """The row's column facts as readers see them: label and shown value (a seat fact shows
    the player's name)."""
    try:
        module = get(game)
    except LookupError:
        return []
    out = []
    for fact in module.facts:
        if not fact.column or fact.name not in facts:
            continue
        value = facts[fact.name]
        shown = fact.shown(value)
        if fact.kind == "seat" and (players.get(str(value)) or {}).get("name"):
            shown = f"{players[str(value)]['name']}"
        out.append({"name": fact.name, "label": fact.label, "value": value, "shown": shown})
    return out


def _players(row: Any) -> dict[str, dict[str, Any]]:
    return {str(s): {k: v for k, v in (p or {}).items() if k in ("name", "bot", "role", "won")}
            for s, p in (row.players or {}).items()}


def listed_row(row: Any, facts: Mapping[str, Any]) -> dict[str, Any]:
    """One archived game as a listing shows it (``/games.json``, ``/index.json``)."""
    players = _players(row)
    titles = {g.name: g.title for g in installed_games()}
    return {
        "id": row.public_id,
        "game": row.game,
        "title": titles.get(row.game, row.game),
        "seats": seat_order(row.game, players),
        "url": f"/g/{row.public_id}",
        "triage_url": f"/g/{row.public_id}/triage",
        "started_at": row.started_at.isoformat().replace("+00:00", "Z") if row.started_at else None,
        "players": players,
        "facts": dict(facts),
        "shown": shown_facts(row.game, facts, players),
        "end_reason": row.end_reason,
        "findings": row.findings,
        "finding_kinds": list(row.finding_kinds),
        "code": row.code,
    }


def listed_rows(archive: Any, rows: Iterable[Any]) -> list[dict[str, Any]]:
    rows = list(rows)
    return [listed_row(row, row.facts) for row in rows]


# --- filters -----------------------------------------------------------------------------------

#: the web's names for the spec's date filters (``?from=2026-11-01&to=2026-11-21``, ``to`` inclusive)
WEB_NAMES = {"started_from": "from", "started_to": "to"}


def web_name(field: FilterField) -> str:
    return WEB_NAMES.get(field.name, field.name)


def query_fields(game: str | None) -> list[FilterField]:
    """The filters a listing accepts: the spec's (``filter_fields``), the neutral ones and the
    game's facts (every game's, with no game chosen). Never ``listed``: a listing shows listed
    games only."""
    return [f for f in filter_fields(game) if f.name != "listed"]


def clean_query(raw: Mapping[str, str], game: str | None) -> dict[str, Any]:
    """The archive's keywords for a query by web names (``ArchiveError`` naming a bad filter)."""
    spec = {}
    for field in query_fields(game):
        value = raw.get(web_name(field))
        if value:
            spec[field.name] = value
    if spec.get("started_to"):
        try:  # the web's "to" is the last day, the spec's started_to the first day after
            spec["started_to"] = (date.fromisoformat(spec["started_to"]) + timedelta(days=1)).isoformat()
        except (ValueError, OverflowError):
            if spec["started_to"].startswith("9999-12-31"):
                spec["started_to"] = "9999-12-31"
            else:
                raise ArchiveError(f"to must be a date like 2026-11-21, not {spec['started_to'][:30]!r}") from None
    # the web takes a choice's values only (any game's: the API's schema offers their union)
    for field in query_fields(None):
        if field.kind == "choice" and field.fact is None and spec.get(field.name) not in (None, *field.values):
            raise ArchiveError(f"{web_name(field)} must be one of {', '.join(field.values)}, "
                               f"not {str(spec[field.name])[:40]!r}")
    return clean_filters(spec, game)


def game_json(archive: Any, row: Any) -> dict[str, Any]:
    """One archived game as the API describes it (a listing's row)."""
    return listed_rows(archive, [row])[0]
