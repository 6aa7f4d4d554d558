"""Texas hold'em, no-limit and fixed-limit, 2 to 10 seats: the ``holdem/1`` game module.

Its log says what a PHH hand history says (``../shared/spec/holdem.md``): the stakes and stacks
by seat ``p1``..``pN`` (the button last), then one PHH action notation an event. ``GAME`` is what
the registry (``replay.games``) hands out:

>>> from replay.games import get
>>> game = get("holdem")
>>> game.title, game.player_counts, game.finding_kinds["out_of_turn"], game.finding_kinds["needless_fold"]
("Texas hold'em", (2, 10), True, False)
>>> replay = game.judge(game.selfplay(seed=3))
>>> replay.findings, replay.end_reason
([], 'completed')

The package: ``cards`` (cards as PHH writes them), ``log`` (the models of ``holdem/1``),
``phh`` (reading and writing PHH ``.phh``/``.phhs``), ``engine`` (``HoldemState``: betting,
pots, showdown), ``evaluator`` (hand ranks), ``equity`` (each seat's chance to win),
``replay`` (``HoldemReplay``), ``logger`` (``HoldemLogger``), ``codec`` (replay codes),
``bots`` (self-play) and ``championship`` (big blinds per 100 hands, all-in adjusted).
"""

from __future__ import annotations

import re
from decimal import Decimal
from itertools import combinations
from pathlib import Path
from typing import Any, Callable, ClassVar, Mapping, Sequence

from ..base import Export, Fact, ForeignFormat, GameModule, SeatFigure
from . import deals as _deals
from . import drawing, phh
from ...picture.scene import PUBLIC
from .cards import cards_text
from .bots import BOTS, play_game
from .bots import play_table as _play_table
from .bots import table_seats as _table_seats
from .championship import championship_command
from .codec import CODEC as PAYLOAD_CODEC
from .engine import FINDING_KINDS, HoldemState, parse_action
from .log import END_REASONS, ActionEvent, HoldemLog, json_schema, parse, read_json
from .logger import HoldemLogger
from .replay import _BOARD_NAMES, HoldemReplay, _num as _json_amount
from ...log import LogFormatError
from .stats import FIGURES

STREETS = ("preflop", "flop", "turn", "river", "showdown")
#: the line that begins a hand of a .phhs file: its table, ``[12]``
_HAND_TABLE = re.compile(r"\s*\[\s*[0-9]+\s*\]\s*(#.*)?$")


#: the most bet sizes ``legal_actions`` lists at one point (more: evenly spaced, both ends kept)
MAX_SIZES = 20_000


def legal_actions(state: HoldemState) -> list[str]:
    """Every PHH action notation that may come next at ``state`` (``GAME.legal_events``' texts):
    every bet size in the table's smallest unit, up to ``MAX_SIZES`` of them.

    >>> state, _ = HoldemState.from_setup("NT", [0, 0], [50, 100], [300, 300], min_bet=100)
    >>> legal_actions(state)[:2], len(legal_actions(state))
    (['d dh p1 2c2d', 'd dh p1 2c2h'], 1326)
    >>> for text in ("d dh p1 AcAd", "d dh p2 KcKd"):
    ...     _ = state.push_action(text)
    >>> legal_actions(state)[:3], legal_actions(state)[-1], len(legal_actions(state))
    (['p2 f', 'p2 cc', 'p2 cbr 200'], 'p2 cbr 300', 103)
    """
    if state.over or state.stopped:
        return []
    if state.to_act is None:
        due = state.dealer_due
        if due is None:
            return []
        cards = sorted(state.unseen())
        if due[0] == "dh":
            return [f"d dh {due[1]} {cards_text(pair)}" for pair in combinations(cards, 2)]
        return [f"d db {cards_text(drawn)}" for drawn in combinations(cards, due[1])]
    seat = state.to_act
    legal = state.legal()
    texts = [f"{seat} f"] if legal.fold else []
    texts.append(f"{seat} cc")
    if legal.min_to is not None:
        unit = 1 if state.exponent >= 0 else Decimal(1).scaleb(state.exponent)
        low, high = legal.min_to, legal.max_to
        count = int((high - low) / unit) + 1
        if count > MAX_SIZES:  # deep stacks in small units: evenly spaced sizes, both ends kept
            unit = (high - low) / (MAX_SIZES - 1)
            unit = int(unit) if state.exponent >= 0 else unit.quantize(Decimal(1).scaleb(state.exponent))
        size = low
        while size < high:
            texts.append(f"{seat} cbr {size}")
            size += unit
        texts.append(f"{seat} cbr {high}")  # all-in (or the fixed size), once
    return texts


def _stakes(text: str) -> str:
    """``50/100`` as the archive keeps it, typed as ``50-100``, ``50 / 100`` or ``0.25/0.50`` too
    (amounts without trailing zeros: ``0.25/0.5``)."""
    parts = text.replace(" ", "").replace("-", "/").split("/")
    try:
        if len(parts) < 2:
            raise ArithmeticError
        amounts = [Decimal(p) for p in parts]
    except ArithmeticError:
        raise ValueError(f"stakes are written small blind/big blind, e.g. 50/100, not {text!r}") from None
    return "/".join(format(a.normalize(), "f") for a in amounts)


def _yes_no(text: str) -> str:
    value = text.strip().lower()
    if value in ("yes", "y", "true", "1"):
        return "yes"
    if value in ("no", "n", "false", "0"):
        return "no"
    raise ValueError(f"showdown must be yes or no, not {text!r}")


class Holdem(GameModule):
    """The Texas hold'em game module (``replay.games.base.GameModule``)."""

    name: ClassVar[str] = "holdem"
    title: ClassVar[str] = "Texas hold'em"
    major: ClassVar[int] = 1
    #: PHH's seat names: p1 is the small blind, the last seat the button
    seats: ClassVar[tuple[str, ...]] = tuple(f"p{i}" for i in range(1, 11))
    player_counts: ClassVar[tuple[int, int]] = (2, 10)
    finding_kinds: ClassVar[Mapping[str, bool]] = FINDING_KINDS
    end_reasons: ClassVar[tuple[str, ...]] = END_REASONS
    #: every event but chat is one PHH action (the dealer's deals too): a step each
    action_events: ClassVar[frozenset[str]] = frozenset(("action",))
    #: the viewer's up/down keys go street by street
    chapter: ClassVar[str] = "street"
    Log: ClassVar[type] = HoldemLog
    Logger: ClassVar[type] = HoldemLogger
    bots: ClassVar[Mapping[str, Callable[..., Any]]] = BOTS
    default_bots: ClassVar[tuple[str, ...]] = ("tag", "call", "random")
    readers: ClassVar[tuple[ForeignFormat, ...]] = (
        ForeignFormat("phh", phh.looks_like, phh.read, phh.read_games, suffixes=(".phh", ".phhs"),
                      starts_game=lambda line: _HAND_TABLE.match(line) is not None),)
    read_json: ClassVar[Any] = read_json
    code_marker: ClassVar[str] = "v"
    payload_codec: ClassVar[Any] = PAYLOAD_CODEC
    exports: ClassVar[tuple[Export, ...]] = (
        Export("phh", "PHH hand history", ".phh", "application/toml", phh.write),)
    facts: ClassVar[tuple[Fact, ...]] = (
        Fact("variant", "Variant", values=("NT", "FT"), normalise=lambda t: t.strip().upper(), column=True,
             help="NT (no-limit) or FT (fixed-limit)"),
        Fact("seats", "Seats", kind="int", column=True),
        Fact("stakes", "Stakes", normalise=_stakes, pattern=r"[0-9]+(\.[0-9]+)?(/[0-9]+(\.[0-9]+)?)+", column=True,
             help="small blind/big blind (no-limit) or small bet/big bet (fixed-limit), e.g. 50/100"),
        Fact("street", "Street reached", values=STREETS, normalise=lambda t: t.strip().lower(), column=True),
        Fact("showdown", "Showdown", values=("yes", "no"), normalise=_yes_no),
        Fact("biggest_pot", "Biggest pot", kind="int", column=True,
             help="the whole pot in chips (in cents at a table that plays in dollars and cents)"),
        Fact("winner", "Winner", kind="seat"),
    )
    #: VPIP, PFR, showdowns won and big blinds per 100 hands, per player and bot (``stats``)
    seat_figures: ClassVar[tuple[SeatFigure, ...]] = FIGURES
    bench_corpora: ClassVar[tuple[tuple[str, Mapping[str, Any]], ...]] = (
        ("6 seats, 10,000 chips, 50/100 no-limit, 3 bots", {"bots": ("tag", "call", "random"), "players": 6}),
        ("heads-up, 10,000 chips, 3 bots", {"bots": ("tag", "call", "random"), "players": 2}),
    )
    #: ``game-replay holdem-championship``: big blinds per 100 hands, raw and all-in adjusted
    commands: ClassVar[tuple[Any, ...]] = (championship_command,)
    sample_logs: ClassVar[Any] = Path(__file__).resolve().parents[3] / "sample_logs" / "holdem"
    #: a seat's result at a duplicate deal: its payoff in big blinds (``deals``)
    deal_unit: ClassVar[str] = "big blinds"

    def log_seats(self, log: HoldemLog) -> tuple[str, ...]:
        """A table's seats are ``p1``..``pN`` for its N starting stacks."""
        return tuple(log.seats)

    def parse(self, data: dict[str, Any], source: str | None = None) -> HoldemLog:
        return parse(data, source)

    def judge(self, log: HoldemLog) -> HoldemReplay:
        return HoldemReplay.from_log(log)

    def json_schema(self) -> dict[str, Any]:
        return json_schema()

    def start(self, log: HoldemLog) -> tuple[HoldemState, list]:
        return HoldemState.from_log(log)

    def legal_events(self, state: HoldemState) -> list[Any]:
        """Every action that may come next: for the dealer each deal the unseen cards allow (a
        seat's two hole cards, or the street's board cards, as sets); for a seat a fold where
        it is legal, the check or call, and every bet or raise size from the least to the most
        (in the table's smallest unit)."""
        return [ActionEvent.model_construct(action=text) for text in legal_actions(state)]

    def chance(self, state: HoldemState, event: Any) -> bool:
        """The dealer's cards (``d dh``, ``d db``) are chance: only a study's view with every
        card open is offered them."""
        return event.action.startswith("d ")

    def move_text(self, state: HoldemState, event: Any) -> str:
        """Words for a move a study may try (``replay.study``): the words the record gives the
        step it would make (``p6 raises to 100``, ``p6 calls 50``, ``p1 is dealt AhKd``,
        ``Flop: 2c 7d Jh``), from the position alone (no move is tried: a bet can have
        thousands of sizes); notation that is not PHH is shown as it is.

        >>> state, _ = HoldemState.from_setup("NT", [0, 0], [50, 100], [300, 300], min_bet=100)
        >>> [GAME.move_text(state, e) for e in GAME.legal_events(state)[:2]]
        ['p1 is dealt 2c2d', 'p1 is dealt 2c2h']
        >>> for text in ("d dh p1 AcAd", "d dh p2 KcKd"):
        ...     _ = state.push_action(text)
        >>> texts = [GAME.move_text(state, e) for e in GAME.legal_events(state)]
        >>> texts[:3], texts[-1], len(set(texts)) == len(texts)
        (['p2 folds', 'p2 calls 50', 'p2 raises to 200'], 'p2 raises to 300 (all-in)', True)
        >>> _ = state.push_action("p2 cc"); _ = state.push_action("p1 cc")
        >>> GAME.move_text(state, GAME.legal_events(state)[0])
        'Flop: 2c 2d 2h'
        """
        text = event.action
        try:
            action = parse_action(text)
        except LogFormatError:
            return text
        if action is None:
            return text
        first = action[0]
        if first == "dh":
            return f"{action[1]} is dealt {cards_text(action[2])}"
        if first == "db":
            name = _BOARD_NAMES.get(len(state.board) + len(action[1]), "Board")
            return f"{name}: {' '.join(cards_text((c,)) for c in action[1])}"
        seat, verb = first, action[1]
        p = state.index.get(seat)
        if p is None:
            return text
        stack, bet = state.stacks[p], state.bets[p]
        if verb == "f":
            return f"{seat} folds"
        if verb == "cc":
            call = min(stack, max(state.bets) - bet)
            if call <= 0:
                return f"{seat} checks"
            return f"{seat} calls {call}" + (" (all-in)" if call == stack else "")
        if verb == "cbr":
            to = action[2]
            words = "bets" if max(state.bets) == 0 else "raises to"
            return f"{seat} {words} {to}" + (" (all-in)" if stack and to == stack + bet else "")
        if action[2] is None:
            return f"{seat} mucks"
        return f"{seat} shows" + ("" if action[2] == "-" else f" {cards_text(action[2])}")

    def selfplay(self, seed: int, bots: Sequence[str] = default_bots, **options: Any) -> HoldemLog:
        """A seeded bot hand (options: ``players``, ``stacks``, ``blinds``, ``game_id``, ``out_dir``)."""
        return play_game(seed, bots=tuple(bots), **options)

    # -- duplicate deals (``replay.duplicate``; ``deals``) -----------------------------------
    def deal_key(self, log: HoldemLog) -> str | None:
        """The fingerprint of the variant, the seat count and every seat's hole cards, in seat
        order; None when a hole card is not known. The board is left out on purpose: a hand
        folded before the flop never shows it, and at one deal every table gets the same board
        (``deals.deal_key``)."""
        return _deals.deal_key(log)

    def deal_scores(self, replay: HoldemReplay) -> dict[str, float] | None:
        """Each seat's payoff in big blinds, raw (``championship.hand_result``); None for a hand
        that cannot be counted (``deals.deal_scores``)."""
        return _deals.deal_scores(replay)

    def play_table(self, deal: int, bots: Sequence[str], table: int = 0, **options: Any) -> HoldemLog:
        """Championship deal ``deal`` with ``bots[i]`` in seat ``p{i+1}``: the deck shuffled from
        the deal number alone, the bots' choices from ``(deal, table)`` (``bots.play_table``;
        options: ``players``, ``stacks``, ``blinds``, ``variant``...)."""
        return _play_table(deal, tuple(bots), table, **options)

    def table_seats(self, bots: Sequence[str], players: int | None = None, **_: Any) -> int:
        """``players`` if given, else one seat a bot (at least two, at most ten)."""
        return _table_seats(bots, players)

    def view_steps(self, replay: HoldemReplay, view: str | None) -> list[dict[str, Any]]:
        """The steps as ``view`` saw them (``None`` every card open, a seat's, or an onlooker's:
        ``PUBLIC``, every hole card ``??`` until shown), each with the table's decimal
        ``places`` and, on the last, what each seat ``won`` (``drawing.annotate``).

        >>> from replay.picture.scene import PUBLIC
        >>> replay = GAME.judge(GAME.selfplay(seed=3, players=3))
        >>> steps = GAME.view_steps(replay, PUBLIC)
        >>> steps[1]["hole"]["p1"], steps[-1]["won"], steps[0]["places"]
        (['??', '??'], {'p2': 100}, 0)
        """
        if view == PUBLIC:
            steps = replay.steps_json(onlooker=True)
        else:
            steps = super().view_steps(replay, view)
        settlement = replay.settlement
        won = None
        if settlement is not None and getattr(settlement, "settled", False):
            won = {seat: _json_amount(v) for seat, v in zip(replay.seats, settlement.winnings) if v}
        exponent = replay.state.exponent
        return drawing.annotate(steps, -exponent if exponent < 0 else 0, won)

    def draw(self, table: Any, steps: Sequence[dict[str, Any]]) -> Any:
        """The picture of the last of ``steps`` (``drawing.draw``)."""
        return drawing.draw(table, steps)

    def replay_lines(self, replay: HoldemReplay) -> list[str]:
        data = replay.to_json()
        lines = [f"  board {' '.join(data['board']) or '-'}, reached the {data['street']}"]
        for pot in data["pots"]:
            won = ", ".join(pot.get("winners") or []) or "unsettled"
            lines.append(f"  pot {pot['amount']} among {', '.join(pot['seats'])}: {won}")
        return lines

    def __repr__(self) -> str:
        return "<game holdem/1: Texas hold'em>"


GAME = Holdem()

__all__ = ["GAME", "Holdem", "HoldemLog", "HoldemReplay", "HoldemState", "parse", "play_game"]
