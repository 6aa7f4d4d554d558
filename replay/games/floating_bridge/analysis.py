"""Double-dummy analysis of a played game: what every card cost.

For each card played, ``before`` is the number of tricks the declarer's side takes with best
play by both sides from the position the card was played in, and ``after`` the same from
the position it made; both count the tricks already won, and all 13 tricks (a game whose
rules stop play early is analysed as if the remaining tricks were played out). ``best`` lists
the legal cards that keep ``before``. A card by the declarer's side that lowers the count, or
one by a defender that raises it, is a mistake of ``loss`` tricks.

>>> from replay.games.floating_bridge.bots import play_game
>>> analysis = analyse(play_game(seed=7).replay())
>>> all(c.before - c.after == (c.loss if c.side == "declarer" else -c.loss) for c in analysis.cards)
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .cards import CARDS, SEATS, Card, Seat
from .engine import OVER, PLAY, Game
from .engine import game_at_step  # noqa: F401  (its home was here: tests and docs import it from here)
from .solver import Position, best_cards, card_values, solve

if TYPE_CHECKING:  # pragma: no cover
    from .game import GameReplay


@dataclass(frozen=True, slots=True)
class CardAnalysis:
    event: int  # index of the play in the log's events
    seat: Seat
    card: Card
    side: str  # "declarer" or "defenders": the side of the seat that played it
    before: int
    after: int
    best: tuple[Card, ...]
    legal: bool  # False for a card the rules did not allow (the engine's finding says why)
    #: with ``analyse(..., values=True)``: every legal card of the seat and the total tricks
    #: the declarer's side then takes (as ``after``), for marking a whole hand
    values: tuple[tuple[Card, int], ...] | None = None

    @property
    def loss(self) -> int:
        """Tricks the card gave away to the other side (0 for a best card)."""
        return self.before - self.after if self.side == "declarer" else self.after - self.before

    @property
    def mistake(self) -> bool:
        return self.loss > 0

    def to_json(self) -> dict[str, Any]:
        return {
            "event": self.event,
            "seat": self.seat.name,
            "card": str(self.card),
            "side": self.side,
            "before": self.before,
            "after": self.after,
            "best": [str(c) for c in self.best],
            "loss": self.loss,
            "legal": self.legal,
            **({} if self.values is None else {"values": {str(c): v for c, v in self.values}}),
        }


@dataclass(slots=True)
class GameAnalysis:
    contract: str | None
    declarer: Seat | None
    partner: Seat | None
    trump: int | None
    rules: str
    cards: list[CardAnalysis] = field(default_factory=list)
    complete: bool = True  # False when rule checking stopped before the play ended

    @property
    def start(self) -> int | None:
        """Tricks the declarer's side takes with best play from the opening lead."""
        return self.cards[0].before if self.cards else None

    def mistakes(self, side: str | None = None) -> list[CardAnalysis]:
        return [c for c in self.cards if c.mistake and (side is None or c.side == side)]

    def to_json(self) -> dict[str, Any]:
        return {
            "contract": self.contract,
            "declarer": None if self.declarer is None else self.declarer.name,
            "partner": None if self.partner is None else self.partner.name,
            "trump": None if self.trump is None else "CDHS"[self.trump],
            "rules": self.rules,
            "start": self.start,
            "complete": self.complete,
            "mistakes": {
                "declarer": sum(c.loss for c in self.mistakes("declarer")),
                "defenders": sum(c.loss for c in self.mistakes("defenders")),
            },
            "cards": [c.to_json() for c in self.cards],
        }


def _position(game: Game) -> Position | None:
    """The position of a game whose play has begun, before its next card, or None when no
    card is left. Unlike ``Position.from_game`` it also takes a game that stopped early."""
    if game.declarer is None or game.partner_card is None:
        return None
    if not any(game.hands):
        return None
    side = {int(game.declarer)}
    if game.partner_seat is not None:
        side.add(int(game.partner_seat))
    if game.trick:
        leader = int(game.trick[0][0])
    elif game.phase == PLAY:
        leader = int(game.to_act)
    elif game.trick_winners:
        leader = int(game.trick_winners[-1])
    else:
        return None
    return Position(hands=tuple(game.hands), trump=game.trump, declarer_side=tuple(sorted(side)),
                    leader=leader, trick=tuple(int(c) for _, c in game.trick),
                    trump_broken=game.trump_broken, first_trick=not game.trick_winners,
                    trump_in_first_trick=game.rules.trump_in_first_trick)


#: Changes whenever ``analyse`` could answer differently for the same game (a solver or rules
#: fix): stored analyses of another version are computed again (``archive/analyses.py``).
VERSION = "1"


def analyse(replay: "GameReplay", values: bool = False) -> GameAnalysis:
    """Analyse every card of a judged game (see the module's docstring). With ``values``, each
    card also gets the value of every legal card of its seat (``CardAnalysis.values``): what
    the viewer marks a whole hand with; slower, as every card is solved exactly."""
    log = replay.log
    game = Game(log.hands.by_seat(), log.first_bidder, log.rules)
    game.check_deal()
    result = GameAnalysis(
        contract=None if replay.contract is None else str(replay.contract),
        declarer=replay.declarer, partner=replay.partner_seat,
        trump=None if replay.contract is None or replay.contract % 5 == 4 else replay.contract % 5,
        rules=log.rules.name,
    )
    for number, event in enumerate(log.events):
        if game.stopped:
            result.complete = False
            break
        if event.type != "play" or game.phase != PLAY:
            game.push(event)
            continue
        position = Position.from_game(game)
        won = game.declarer_side_tricks
        card = CARDS[event.card]
        every = None
        if values:
            found = card_values(position)
            pick = max if SEATS[event.seat] in position.declarer_side else min
            optimum = pick(found.values())
            best = tuple(c for c, v in found.items() if v == optimum)
            value = found.get(card)
            every = tuple((c, won + v) for c, v in found.items())
        else:
            optimum, best, value = best_cards(position, card)
        seat = SEATS[event.seat]
        maxi = seat in position.declarer_side
        game.push(event)
        if game.stopped:  # a card the seat does not hold: nothing more to analyse
            result.complete = False
            break
        if value is not None:
            after = won + value
        else:
            rest = _position(game)
            after = game.declarer_side_tricks + (solve(rest) if rest is not None else 0)
        result.cards.append(CardAnalysis(
            event=number, seat=seat, card=card,
            side="declarer" if maxi else "defenders",
            before=won + optimum, after=after,
            best=best,
            legal=value is not None,
            values=every,
        ))
        if game.phase == OVER:
            break
    return result
