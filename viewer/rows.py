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

from typing import Any, Iterable, Mapping

from replay.games import get, names
from replay.games.base import Fact

from .adapters import FilterField, attach_facts, clean_filters, filter_fields
from .games import installed_games, seat_order

__all__ = ["column_facts", "listed_row", "listed_rows", "query_fields", "clean_query", "FilterField"]


def column_facts(game: str | None) -> list[Fact]:
    """The facts a listing of one game shows as columns (none for a listing of every game,
    whose rows show each game's facts in one cell)."""
    if not game:
        return []
    return [f for f in get(game).facts if f.column]


def _shown_facts(game: str, facts: Mapping[str, Any], players: Mapping[str, Mapping[str, Any]]
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
        "shown": _shown_facts(row.game, facts, players),
        "end_reason": row.end_reason,
        "findings": row.findings,
        "finding_kinds": list(row.finding_kinds),
        "code": row.code,
    }


def listed_rows(archive: Any, rows: Iterable[Any]) -> list[dict[str, Any]]:
    rows = list(rows)
    facts = attach_facts(archive, rows)
    return [listed_row(row, facts.get(row.public_id, {})) for row in rows]


# --- filters -----------------------------------------------------------------------------------

def query_fields(game: str | None) -> list[FilterField]:
    """The filters a listing accepts: the neutral ones, and one game's facts (or, with no game
    chosen, every game's facts, each name once)."""
    if game:
        return filter_fields(game)
    fields = {f.name: f for f in filter_fields(None)}
    for name in names():
        for field in filter_fields(name):
            fields.setdefault(field.name, field)
    return list(fields.values())


def clean_query(raw: Mapping[str, str], game: str | None) -> dict[str, Any]:
    """The archive's keywords for a query (``ArchiveError`` naming a bad filter). With no game
    chosen, a fact filter is cleaned by the game that declares that fact."""
    if game:
        return clean_filters(raw, game)
    out = clean_filters(raw, None)
    neutral = {f.name for f in filter_fields(None)}
    done: set[str] = set()
    for name in names():
        own = {f.name for f in filter_fields(name)} - neutral - done
        given = {k: v for k, v in raw.items() if k in own and v}
        if not given:
            continue
        done |= own
        facts = clean_filters(given, name).get("fact") or []
        out["fact"] = [*(out.get("fact") or []), *facts]
    return out


def game_json(archive: Any, row: Any) -> dict[str, Any]:
    """One archived game as the API describes it (a listing's row)."""
    return listed_rows(archive, [row])[0]
