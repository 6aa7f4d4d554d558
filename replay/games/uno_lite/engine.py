"""The UNO Lite engine: one position, pushed forward one event at a time.

``UnoState`` knows every card's place as counts per card kind: each seat's hand, the draw pile
(the 72 cards less the hands and the discard pile) and the discard pile in order. It never
raises on a breach of the rules: ``push`` returns the findings (``replay.games.base.Finding``)
of the spec's table, at most one per event (the first row that applies), and a fatal finding
stops rule checking (``stopped``).

>>> from replay.games.uno_lite.cards import parse_card as c
>>> hands = [[c(x) for x in "R5 G7 B1 Y9 R2 G2 B8".split()], [c(x) for x in "B3 B4 G1 G3 Y1 Y2 Y3".split()]]
>>> state = UnoState(hands, c("R9"), "P1")
>>> state.check_deal(), state.to_act
([], 'P1')
>>> state.legal()
[('play', 1), ('play', 4), ('play', 35)]
>>> state.apply("play", 0, c("R5"), 0), state.to_act
([], 'P2')
>>> state.legal()
[('draw',)]
>>> state.apply("pass", 1, None, 1)
[Finding(step=2, kind='pass_without_draw', seat='P2', message='P2 passes without drawing a card', event=1, fatal=False)]

Actions (``legal``) are tuples in one canonical order that codecs index into: first
``("play", card)`` for each distinct playable card kind the seat holds, by card value
(``R1`` < ... < ``R9`` < ``G1`` < ... < ``Y9``), then ``("draw",)`` when nothing is playable
and a card can be drawn, or ``("pass",)`` when nothing is playable and nothing can be drawn.
After a draw: ``("play", drawn)`` if the drawn card is playable, then ``("pass",)``.
"""

from __future__ import annotations

from typing import Any

from replay.games.base import Finding

from .cards import CARD_TEXT, COPIES, DECK_SIZE, HAND_SIZE, KINDS, PLAYABLE_LIST, PLAYABLE_ON

SEATS: tuple[str, str] = ("P1", "P2")
SEAT_INDEX = {"P1": 0, "P2": 1}

#: kind -> fatal, in the order of the spec's table (the first row that applies names a breach)
FINDING_KINDS: dict[str, bool] = {
    "invalid_deal": True,
    "event_after_end": True,
    "out_of_turn": True,
    "card_not_in_hand": True,
    "card_not_in_pile": True,
    "unplayable_card": False,
    "draw_while_playable": False,
    "second_draw": False,
    "pass_without_draw": False,
    "wrong_winner": False,
    "end_mismatch": False,
}

Action = tuple  # ("play", card) | ("draw",) | ("pass",)
DRAW: Action = ("draw",)
PASS: Action = ("pass",)


class UnoState:
    """A position of UNO Lite. ``apply`` (and ``push``, its event-object form) is the mutator.

    Fields are plain ints and lists, public for the replay's snapshots and the bots:
    ``hands[seat][kind]`` counts, ``hand_sizes``, ``pile[kind]`` counts and ``pile_size``,
    ``discard`` (bottom to top), ``top``, ``seat`` (index of the seat to move), ``drew``
    (a card was drawn this turn), ``drawn`` (that card), ``turns`` (turns ended), ``winner``
    (index of the seat whose hand emptied), ``steps`` (play, draw and pass events applied),
    ``reshuffles`` and ``reshuffled`` (the last applied draw began with a reshuffle).
    """

    __slots__ = ("hands", "hand_sizes", "pile", "pile_size", "discard", "top", "seat", "drew",
                 "drawn", "turns", "winner", "over", "stopped", "steps", "reshuffles", "reshuffled",
                 "_deal")

    def __init__(self, hands: "list[list[int]] | tuple", starter: int, first_player: "str | int"):
        self._deal = ([list(h) for h in hands], starter)
        self.hands = [[0] * KINDS, [0] * KINDS]
        for seat in (0, 1):
            counts = self.hands[seat]
            for card in hands[seat]:
                counts[card] += 1
        self.hand_sizes = [len(hands[0]), len(hands[1])]
        self.pile = [COPIES] * KINDS
        for seat in (0, 1):
            for card in hands[seat]:
                self.pile[card] -= 1
        self.pile[starter] -= 1
        self.pile_size = DECK_SIZE - self.hand_sizes[0] - self.hand_sizes[1] - 1
        self.discard = [starter]
        self.top = starter
        self.seat = first_player if isinstance(first_player, int) else SEAT_INDEX[first_player]
        self.drew = False
        self.drawn: int | None = None
        self.turns = 0
        self.winner: int | None = None
        self.over = False
        self.stopped = False
        self.steps = 0
        self.reshuffles = 0
        self.reshuffled = False

    # -- the State protocol ---------------------------------------------------------------------
    @property
    def to_act(self) -> str | None:
        """The seat to move, ``None`` once a hand emptied or checking stopped."""
        if self.over or self.stopped:
            return None
        return SEATS[self.seat]

    def push(self, event: Any, index: int) -> list[Finding]:
        """Apply one logged event (an object with ``type``, ``seat``, ``card``); chat is ignored."""
        kind = event.type
        if kind == "chat":
            return []
        seat = event.seat
        return self.apply(kind, SEAT_INDEX[seat] if isinstance(seat, str) else seat,
                          getattr(event, "card", None), index)

    def legal(self) -> list[Action]:
        """The legal actions of the seat to move, in the canonical order (see the module doc)."""
        if self.over or self.stopped:
            return []
        if self.drew:
            drawn = self.drawn
            if drawn is not None and drawn in PLAYABLE_ON[self.top]:
                return [("play", drawn), PASS]
            return [PASS]
        hand = self.hands[self.seat]
        plays = [("play", k) for k in PLAYABLE_LIST[self.top] if hand[k]]
        if plays:
            return plays
        return [DRAW] if self.can_draw() else [PASS]

    def copy(self) -> "UnoState":
        """An independent copy of the position (for trying actions)."""
        other = UnoState.__new__(UnoState)
        for name in UnoState.__slots__:
            setattr(other, name, getattr(self, name))
        other.hands = [list(self.hands[0]), list(self.hands[1])]
        other.hand_sizes = list(self.hand_sizes)
        other.pile = list(self.pile)
        other.discard = list(self.discard)
        return other

    # -- queries --------------------------------------------------------------------------------
    def can_draw(self) -> bool:
        """Whether a draw now would find a card (after a reshuffle if the pile is empty)."""
        return self.pile_size > 0 or len(self.discard) > 1

    def draw_choices(self) -> list[int]:
        """The distinct card kinds a draw now can give, sorted: the chance outcomes of a draw.

        When the draw pile is empty, they are those of the discard pile except its top card
        (the reshuffle the draw would make).
        """
        if self.pile_size:
            pile = self.pile
            return [k for k in range(KINDS) if pile[k]]
        return sorted(set(self.discard[:-1]))

    def has_playable(self, seat: int) -> bool:
        hand = self.hands[seat]
        for k in PLAYABLE_LIST[self.top]:
            if hand[k]:
                return True
        return False

    def hand_cards(self, seat: int) -> list[int]:
        """A seat's hand as sorted card values (duplicates repeated)."""
        hand = self.hands[seat]
        return [k for k in range(KINDS) for _ in range(hand[k])]

    # -- setup ----------------------------------------------------------------------------------
    def check_deal(self) -> list[Finding]:
        """``invalid_deal`` (fatal) for a hand without 7 cards or a card dealt three times."""
        hands, starter = self._deal
        problems = []
        for seat in (0, 1):
            if len(hands[seat]) != HAND_SIZE:
                problems.append(f"{SEATS[seat]} was dealt {len(hands[seat])} cards, not {HAND_SIZE}")
        seen = [0] * KINDS
        for card in (*hands[0], *hands[1], starter):
            seen[card] += 1
        too_many = [CARD_TEXT[k] for k in range(KINDS) if seen[k] > COPIES]
        if too_many:
            problems.append(f"more than {COPIES} copies among the hands and the starter of "
                            + ", ".join(too_many))
        if not problems:
            return []
        self.stopped = True
        return [Finding(0, "invalid_deal", None, "; ".join(problems), None, True)]

    # -- the mutator ----------------------------------------------------------------------------
    def apply(self, kind: str, seat: int, card: int | None, index: int) -> list[Finding]:
        """Apply a ``play``/``draw``/``pass`` by seat index ``seat`` (log event ``index``).

        Returns at most one finding: the first row of the spec's table that applies. After a
        fatal one the position is left as it was and ``stopped`` is set.
        """
        if self.stopped:
            return []
        name = SEATS[seat]
        if self.over:
            return self._fatal("event_after_end", name, index,
                               f"{name} {_VERB[kind]} after {SEATS[self.winner]}'s hand emptied")
        if seat != self.seat:
            return self._fatal("out_of_turn", name, index,
                               f"{name} {_VERB[kind]} out of turn ({SEATS[self.seat]} is to move)")
        if kind == "play":
            return self._play(seat, name, card, index)
        if kind == "draw":
            return self._draw(seat, name, card, index)
        return self._pass(seat, name, index)

    def _fatal(self, kind: str, name: str, index: int, message: str) -> list[Finding]:
        self.stopped = True
        return [Finding(self.steps, kind, name, message + "; rule checking stops here", index, True)]

    def _play(self, seat: int, name: str, card: int, index: int) -> list[Finding]:
        hand = self.hands[seat]
        if not hand[card]:
            return self._fatal("card_not_in_hand", name, index, f"{name} plays {CARD_TEXT[card]}, "
                               "which is not in their hand")
        top = self.top
        findings: list[Finding] = []
        self.steps += 1
        if card not in PLAYABLE_ON[top]:
            findings = [Finding(self.steps, "unplayable_card", name,
                                f"{name} plays {CARD_TEXT[card]} on {CARD_TEXT[top]}: neither colour "
                                "nor number matches", index)]
        hand[card] -= 1
        left = self.hand_sizes[seat] - 1
        self.hand_sizes[seat] = left
        self.discard.append(card)
        self.top = card
        self.turns += 1
        self.drew = False
        self.drawn = None
        self.reshuffled = False
        if left == 0:
            self.winner = seat
            self.over = True
        else:
            self.seat = 1 - seat
        return findings

    def _draw(self, seat: int, name: str, card: int, index: int) -> list[Finding]:
        pile = self.pile
        reshuffle = self.pile_size == 0
        if reshuffle:
            # the discard pile except its top card becomes the draw pile (decided now, applied
            # only if the draw is accepted, so a fatal finding leaves the position as it was)
            available = self.discard[:-1].count(card) if card is not None else 0
        else:
            available = pile[card]
        if not available:
            where = ("the draw pile is empty and the discard pile has no other card"
                     if reshuffle and len(self.discard) == 1 else
                     f"no copy of it can be in the draw pile")
            return self._fatal("card_not_in_pile", name, index, f"{name} draws {CARD_TEXT[card]}, but {where}")
        findings: list[Finding] = []
        self.steps += 1
        if self.drew:
            if self.has_playable(seat):
                findings = [Finding(self.steps, "draw_while_playable", name,
                                    f"{name} draws while holding a playable card", index)]
            else:
                findings = [Finding(self.steps, "second_draw", name,
                                    f"{name} draws a second card in one turn", index)]
        elif self.has_playable(seat):
            findings = [Finding(self.steps, "draw_while_playable", name,
                                f"{name} draws while holding a playable card", index)]
        if reshuffle:
            top = self.discard[-1]
            for k in self.discard[:-1]:
                pile[k] += 1
            self.pile_size = len(self.discard) - 1
            self.discard = [top]
            self.reshuffles += 1
        self.reshuffled = reshuffle
        pile[card] -= 1
        self.pile_size -= 1
        self.hands[seat][card] += 1
        self.hand_sizes[seat] += 1
        self.drew = True
        self.drawn = card
        return findings

    def _pass(self, seat: int, name: str, index: int) -> list[Finding]:
        findings: list[Finding] = []
        self.steps += 1
        if not self.drew:
            if self.has_playable(seat):
                findings = [Finding(self.steps, "pass_without_draw", name,
                                    f"{name} passes without drawing, holding a playable card", index)]
            elif self.can_draw():
                findings = [Finding(self.steps, "pass_without_draw", name,
                                    f"{name} passes without drawing a card", index)]
        self.turns += 1
        self.drew = False
        self.drawn = None
        self.reshuffled = False
        self.seat = 1 - seat
        return findings


_VERB = {"play": "plays", "draw": "draws", "pass": "passes"}
