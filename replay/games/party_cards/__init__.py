"""Party cards (Cards Against Humanity style) as chat bots run them: the ``party-cards/1`` game module.

``GAME`` is what the registry (``replay.games``) hands out:

>>> from replay.games import get
>>> game = get("party-cards")
>>> game.title, game.finding_kinds["pick_out_of_range"], game.end_reasons[-1]
('Party Cards', True, 'not_enough_players')
>>> replay = game.judge(game.selfplay(seed=3, bots=("random",)))
>>> replay.findings, replay.end_reason
([], 'completed')

Seats are the bot's own names (``p1``, a chat handle), so ``seats`` is empty: each log lists
its own in ``players``. The package: ``cards`` (the bundled pool, ``fill_blanks``), ``log``
(the pydantic models of the format), ``engine`` (``PartyState``), ``replay`` (``PartyReplay``),
``logger`` (``PartyLogger``, for bots), ``bots`` (self-play), ``image`` (``round_svg``) and
``codec`` (a compact binary form of a log).
"""

from __future__ import annotations

from typing import Any, Callable, ClassVar, Mapping, Sequence

from .bots import BOTS, play_game
from .engine import FINDING_KINDS
from .log import END_REASONS, PartyLog, json_schema, parse
from .replay import PartyReplay


class PartyCards:
    """The party-cards game module (``replay.games.base.GameModule``)."""

    name: ClassVar[str] = "party-cards"
    title: ClassVar[str] = "Party Cards"
    major: ClassVar[int] = 1
    seats: ClassVar[tuple[str, ...]] = ()  # free names, listed per log in ``players``
    finding_kinds: ClassVar[Mapping[str, bool]] = FINDING_KINDS
    end_reasons: ClassVar[tuple[str, ...]] = END_REASONS
    Log: ClassVar[type] = PartyLog
    bots: ClassVar[Mapping[str, Callable[..., Any]]] = BOTS

    def parse(self, data: dict[str, Any], source: str | None = None) -> PartyLog:
        """A decoded JSON object -> ``PartyLog``; raises ``replay.log.LogFormatError``."""
        return parse(data, source)

    def judge(self, log: PartyLog) -> PartyReplay:
        """One engine pass over the log: findings, winner, scores, rounds."""
        return PartyReplay.from_log(log)

    def json_schema(self) -> dict[str, Any]:
        return json_schema()

    def selfplay(self, seed: int, bots: Sequence[str] = ("random",), **options: Any) -> PartyLog:
        """A seeded bot game's log (options: ``out_dir``, ``interrupt_rate``, ``rounds``,
        ``score_limit``, ``hand_size``, ``chat``, ``game_id``)."""
        return play_game(seed, bots=tuple(bots), **options)

    def __repr__(self) -> str:
        return "<game party-cards/1: Party Cards>"


GAME = PartyCards()

__all__ = ["GAME", "PartyCards", "PartyLog", "PartyReplay", "parse", "play_game"]
