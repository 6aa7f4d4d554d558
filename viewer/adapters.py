"""TEMPORARY (issue 25): what the archive gives on the viewer's branch, in the archive's new shape.

The archive is changing at the same time (another branch): its rows carry ``facts`` and players
with ``role``/``won`` instead of floating bridge's columns, its stats rows have neutral keys, and
``archive/filters.py`` gives the filter spec. Until that lands, the viewer reads the archive
through these adapters; at the merge each becomes the archive's own name:

- :func:`row_facts`, :func:`attach_facts` -> ``row.facts``
- :func:`stats_row` -> the rows of ``Archive.stats`` as they are
- :class:`FilterField`, :func:`filter_fields`, :func:`clean_filters` -> ``archive.filters``

Nothing else in the viewer reads the old columns.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timezone
from typing import Any, Mapping

from archive import ArchiveError
from replay.games import get, names
from replay.games.base import Fact
from sqlalchemy import select
from archive.models import GameFact

#: the old per-game columns of a row (release 0.1); every other fact is in ``game_facts``
_OLD_COLUMNS = ("contract", "declarer", "partner_seat", "result")


def row_facts(row: Any) -> dict[str, Any]:
    """A listed row's facts (``row.facts`` once the archive gives it)."""
    found = getattr(row, "facts", None)
    if isinstance(found, dict):
        return found
    return {k: getattr(row, k) for k in _OLD_COLUMNS if getattr(row, k, None) is not None}


def attach_facts(archive: Any, rows: list[Any]) -> dict[str, dict[str, Any]]:
    """Every fact of each row, by public id, read from ``game_facts`` (the new archive's rows
    carry them: then this only reads ``row.facts``)."""
    out = {row.public_id: row_facts(row) for row in rows}
    missing = {archive.ids.decode(row.public_id): row for row in rows if not isinstance(getattr(row, "facts", None), dict)}
    missing.pop(None, None)
    if missing:


        with archive.engine.connect() as conn:
            found = conn.execute(select(GameFact.game_id, GameFact.name, GameFact.value, GameFact.num)
                                 .where(GameFact.game_id.in_(list(missing)))).all()
        for fact in found:
            row = missing[fact.game_id]
            out[row.public_id][fact.name] = fact.num if fact.num is not None else fact.value
    return out


def stats_row(row: Mapping[str, Any]) -> dict[str, Any]:
    """A stats row with the neutral keys (``games, wins, findings, think_ms``; ``role_games`` and
    ``role_won`` for a game with a counted role)."""
    out = {"name": row["name"], "games": row["games"], "wins": row.get("wins"), "findings": row["findings"],
           "think_ms": row.get("think_ms")}
    if "role_games" in row or "declarer" in row:
        out["role_games"] = row.get("role_games", row.get("declarer", 0))
        out["role_won"] = row.get("role_won", row.get("made", 0))
    return out


# --- the filter spec (archive/filters.py) --------------------------------------------------------

@dataclass(frozen=True)
class FilterField:
    name: str
    label: str
    kind: str  # 'text' | 'int' | 'seat' | 'choice' | 'bool' | 'date'
    values: tuple[str, ...] = ()
    help: str = ""
    game: str | None = None
    fact: Fact | None = None


def _vocabulary(game: str | None, attribute: str) -> tuple[str, ...]:
    words: dict[str, None] = {}
    for name in ([game] if game else names()):
        module = get(name)
        words.update(dict.fromkeys(module.end_reasons if attribute == "end_reasons" else sorted(module.finding_kinds)))
    return tuple(words)


NEUTRAL = ("game", "player", "bot", "winner", "rules", "end_reason", "finding_kind", "has_findings", "started_from",
           "started_to", "fact")


def filter_fields(game: str | None = None) -> list[FilterField]:
    """The neutral filters, then ``game``'s facts (every game's without one, each name once)."""
    fields = [
        FilterField("game", "Game", "choice", tuple(names()), "the game (its registry name)"),
        FilterField("player", "Player", "text", help="a seat's name or platform id, any case; * is a wildcard"),
        FilterField("bot", "Bot", "text", help="a bot's name, with or without its version"),
        FilterField("winner", "Winner", "text", help="a player or bot that won the game; * is a wildcard"),
        FilterField("rules", "Rules", "text", help="the game's rules (its name, or a preset)"),
        FilterField("end_reason", "End", "choice", _vocabulary(game, "end_reasons"), "how the game ended"),
        FilterField("finding_kind", "Finding", "choice", _vocabulary(game, "finding_kinds"), "a kind of finding"),
        FilterField("has_findings", "Has findings", "bool", ("yes", "no"), "whether the game breaks any rule"),
        FilterField("started_from", "From", "date", help="an ISO 8601 date (inclusive)"),
        FilterField("started_to", "Before", "date", help="an ISO 8601 date (exclusive)"),
        FilterField("fact", "Fact", "text", help="name=value, or name>=n / name<=n for numbers"),
    ]
    seen = set(NEUTRAL)
    for module in ([get(game)] if game else [get(n) for n in names()]):
        for fact in module.facts:
            if fact.name in seen:
                continue
            seen.add(fact.name)
            kind = {"int": "int", "seat": "seat"}.get(fact.kind, "choice" if fact.values else "text")
            fields.append(FilterField(fact.name, fact.label, kind, tuple(fact.values), fact.help, module.name, fact))
    return fields


def clean_filters(raw: Mapping[str, str], game: str | None) -> dict[str, Any]:
    """The query's filters as this branch's ``Archive.list`` keywords (``ArchiveError`` naming a
    bad one). Without a game, a fact is cleaned by the first game that declares it."""
    out: dict[str, Any] = {}
    facts: list[str] = []
    for field in filter_fields(game):
        value = (raw.get(field.name) or "").strip()
        if not value:
            continue
        if field.fact is not None:
            try:
                facts.append(f"{field.name}={field.fact.clean(value)}")
            except ValueError as exc:
                raise ArchiveError(str(exc)) from None
        elif field.kind == "choice" and value not in field.values:
            raise ArchiveError(f"{field.name} must be one of {', '.join(field.values)}, not {value[:40]!r}")
        elif field.kind == "bool":
            if value.lower() not in ("yes", "no", "true", "false", "1", "0"):
                raise ArchiveError(f"{field.name} must be yes or no")
            out[field.name] = value.lower() in ("yes", "true", "1")
        elif field.kind == "date":
            try:
                day = date.fromisoformat(value)
            except ValueError:
                raise ArchiveError(f"{field.name} must be a date like 2026-11-21, not {value[:30]!r}") from None
            out[field.name] = datetime(day.year, day.month, day.day, tzinfo=timezone.utc)
        elif field.name == "fact":
            facts.append(value)
        else:
            out[field.name] = value
    if facts:
        out["fact"] = facts
    return out
