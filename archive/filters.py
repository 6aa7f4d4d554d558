"""The one definition of the archive's listing filters: what the CLI's options, the web's query
checks and the API's parameters are generated from, and what ``Archive.list`` checks its
filters with.

The *neutral* filters hold for every game (game, player, bot, winner, end reason, findings,
start times, listed); a game adds each of its facts (``GameModule.facts``) as a filter named
by the fact, its value cleaned by ``Fact.clean`` (an int fact also takes a range: ``>=30``,
``<=30``). Without a game, the facts of every registered game are offered.

>>> [f.name for f in filter_fields()][:4]
['game', 'player', 'bot', 'winner']
>>> clean_filters({"player": "Ana", "has_findings": "yes"}, None)
{'player': 'Ana', 'has_findings': True}
>>> clean_filters({"colour": "red"}, "coup")
Traceback (most recent call last):
...
archive.records.ArchiveError: unknown filter colour (known: game, player, bot, winner, rules, end_reason, finding_kind, has_findings, started_from, started_to, listed, fact, players, turns)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from replay.games import get as get_game, names as game_names
from replay.games.base import Fact

from .records import ArchiveError, _as_datetime

KINDS = ("text", "int", "seat", "choice", "bool", "date")
#: how a bool filter may be written (``?has_findings=yes``, ``--listed false``)
TRUE = ("1", "true", "yes", "on")
FALSE = ("0", "false", "no", "off")
#: the filter that takes facts written out (``turns>=30``, ``winner=2``; a list of them)
FACT = "fact"


@dataclass(frozen=True)
class FilterField:
    """One listing filter: its name (the keyword of ``Archive.list``, the CLI's ``--name``, the
    query parameter), how it is shown, its kind (``text``, ``int``, ``seat``, ``choice``,
    ``bool``, ``date``), the values it offers (``choice`` and some facts), the game it belongs
    to (None: every game) and, for a game's fact, the ``Fact`` itself."""

    name: str
    label: str
    kind: str
    values: tuple[str, ...] = ()
    help: str = ""
    game: str | None = None
    fact: Fact | None = None


def _union(items: Iterable[Iterable[str]]) -> tuple[str, ...]:
    out: dict[str, None] = {}
    for values in items:
        out.update(dict.fromkeys(values))
    return tuple(out)


def _games(game: str | None) -> list[Any]:
    return [get_game(game_name(game))] if game else [get_game(n) for n in game_names()]


def neutral_fields(game: str | None = None) -> list[FilterField]:
    """The filters every game has (end reasons and finding kinds offered: ``game``'s, or every game's)."""
    games = _games(game)
    return [
        FilterField("game", "Game", "choice", tuple(game_names()), "the game (its registry name)"),
        FilterField("player", "Player", "text", help="a seat's name or platform id, any case; * is a wildcard "
                                                      "(ali*)"),
        FilterField("bot", "Bot", "text", help="a bot's name, with its version (greedy-1) or without (greedy)"),
        FilterField("winner", "Winner", "text", help="a player or bot that won the game; * is a wildcard"),
        FilterField("rules", "Rules", "text", help="the game's rules (its name, or a preset)"),
        FilterField("end_reason", "End", "choice", _union(g.end_reasons for g in games), "how the game ended"),
        FilterField("finding_kind", "Finding", "choice", _union(sorted(g.finding_kinds) for g in games),
                    "a kind of finding the game has"),
        FilterField("has_findings", "Has findings", "bool", help="whether the game breaks any rule"),
        FilterField("started_from", "Started from", "date", help="an ISO 8601 date or time (inclusive)"),
        FilterField("started_to", "Started before", "date", help="an ISO 8601 date or time (exclusive)"),
        FilterField("listed", "Listed", "bool", help="listed games only (true) or unlisted uploads only (false)"),
    ]


NEUTRAL = ("game", "player", "bot", "winner", "rules", "end_reason", "finding_kind", "has_findings", "started_from",
           "started_to", "listed")


def _fact_field(fact: Fact, game: str | None) -> FilterField:
    kind = {"int": "int", "seat": "seat"}.get(fact.kind, "choice" if fact.values else "text")
    help_text = fact.help or ("a whole number, or a range: >=N, <=N" if fact.kind == "int" else "")
    return FilterField(fact.name, fact.label, kind, tuple(fact.values), help_text, game, fact)


def fact_fields(game: str | None = None) -> list[FilterField]:
    """Each fact of ``game`` (or of every game, one per name) as a filter; a fact named like a
    neutral filter (``winner``, ``rules``) is left to that filter and to ``fact``."""
    out: dict[str, FilterField] = {}
    owners: dict[str, list[str]] = {}
    for module in _games(game):
        for fact in module.facts:
            if fact.name in NEUTRAL or fact.name == FACT:
                continue
            owners.setdefault(fact.name, []).append(module.name)
            if fact.name not in out:
                out[fact.name] = _fact_field(fact, module.name)
    return [f if len(owners[f.name]) == 1 else FilterField(f.name, f.label, f.kind, f.values, f.help, None, f.fact)
            for f in out.values()]


def filter_fields(game: str | None = None) -> list[FilterField]:
    """Every listing filter: the neutral ones, then ``game``'s facts (without a game, every
    game's). ``game`` must be a registered game (``ArchiveError`` otherwise)."""
    return [*neutral_fields(game), *fact_fields(game)]


def game_name(value: str) -> str:
    """A registered game's name, or ``ArchiveError`` naming them."""
    known = game_names()
    if value not in known:
        raise ArchiveError(f"game must be one of {', '.join(known)}, not {value!r}")
    return value


def _declared(name: str, game: str | None) -> list[Fact]:
    """The declarations of the fact ``name`` (``game``'s, or every game's)."""
    return [f for module in _games(game) for f in module.facts if f.name == name]


_RANGE = re.compile(r"^\s*(>=|<=|=)?\s*(.*?)\s*$", re.S)
_FACT = re.compile(r"^ *([a-z][a-z0-9_]{0,39}) *(>=|<=|=)([^\x00-\x1f\x7f]{1,200})$")


def clean_fact(name: str, op: str, typed: Any, game: str | None) -> tuple[str, str, Any]:
    """One fact condition, its value cleaned by the fact's own ``Fact.clean``: ``(name, op, value)``."""
    facts = _declared(name, game)
    if not facts:
        where = f"a fact of {game}" if game else "a fact of any game"
        known = sorted({f.name for module in _games(game) for f in module.facts})
        raise ArchiveError(f"{name} is not {where} (facts: {', '.join(known) or 'none'})")
    if op != "=" and all(f.kind != "int" for f in facts):
        raise ArchiveError(f"{name}{op}{typed}: {op} needs a fact that is a number, and {name} is not")
    error = None
    for fact in facts:
        try:
            return name, op, fact.clean(typed)
        except ValueError as exc:
            error = error or exc
    raise ArchiveError(str(error)) from None


def parse_fact(item: Any, game: str | None) -> tuple[str, str, Any]:
    """``"turns>=30"``, ``"winner=2"`` (or an already cleaned triple) -> ``(name, op, value)``."""
    if isinstance(item, tuple) and len(item) == 3:
        return clean_fact(*item, game)
    match = _FACT.match(item) if isinstance(item, str) else None
    if match is None:
        raise ArchiveError(f"fact filter {item!r} is not name=value, name>=number or name<=number "
                           "(e.g. turns>=30, winner=2)")
    name, op, value = match.groups()
    if not value.strip(" "):
        raise ArchiveError(f"fact filter {item!r} has no value")
    return clean_fact(name, op, value.strip(" "), game)


def _bool(name: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in TRUE:
        return True
    if text in FALSE:
        return False
    raise ArchiveError(f"{name} must be true or false (yes/no, 1/0), not {value!r}")


def clean_filters(raw: Mapping[str, Any], game: str | None = None) -> dict[str, Any]:
    """Listing filters as typed (query parameters, CLI options, ``Archive.list`` keywords) ->
    the cleaned filters ``Archive.list`` runs: neutral ones by name, and every fact condition
    (named filters and ``fact``) as ``(name, op, value)`` triples under ``"facts"``. Empty
    values are left out. ``ArchiveError`` says which filter is wrong and why.

    >>> clean_filters({"turns": ">=30", "fact": "players=3"}, "coup")
    {'facts': [('turns', '>=', 30), ('players', '=', 3)]}
    """
    game = raw.get("game") or game or None
    if game is not None:
        game = game_name(str(game).strip())
    named_facts = {f.name for f in fact_fields(game)}
    out: dict[str, Any] = {}
    facts: list[tuple[str, str, Any]] = []
    unknown = []
    for name, value in raw.items():
        if value is None or value == "" or (isinstance(value, (list, tuple)) and not value):
            continue
        if name == "game":
            out["game"] = game
        elif name in ("has_findings", "listed"):
            out[name] = _bool(name, value)
        elif name in ("started_from", "started_to"):
            out[name] = _as_datetime(value, name)
        elif name in NEUTRAL:
            out[name] = str(value).strip()
        elif name in (FACT, "facts"):
            items = [value] if isinstance(value, str) else list(value)
            facts.extend(parse_fact(item, game) for item in items)
        elif name in named_facts:
            if isinstance(value, int) and not isinstance(value, bool):
                facts.append(clean_fact(name, "=", value, game))
                continue
            op, typed = _RANGE.match(str(value)).groups()  # type: ignore[union-attr]
            facts.append(clean_fact(name, op or "=", typed, game))
        else:
            unknown.append(name)
    if unknown:
        known = [*NEUTRAL, FACT, *sorted(named_facts)]
        elsewhere = [n for n in unknown if game is not None and _declared(n, None)]
        if elsewhere:
            owners = [m.name for m in _games(None) if any(f.name == elsewhere[0] for f in m.facts)]
            raise ArchiveError(f"{elsewhere[0]} is a fact of {', '.join(owners)}, not of {game} "
                               f"(its filters: {', '.join(known)})")
        raise ArchiveError(f"unknown filter {', '.join(sorted(unknown))} (known: {', '.join(known)})")
    if facts:
        out["facts"] = facts
    return out
