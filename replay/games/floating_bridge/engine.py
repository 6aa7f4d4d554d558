"""The game state machine: one position, pushed forward one event at a time.

``Game`` is to floating bridge what python-chess's ``Board`` is to chess: it holds the
position, lists the legal actions (``legal_calls``, ``legal_cards``) and takes actions
(``push_call``, ``push_partner``, ``push_play``, ``announce_trick``). It never raises on a
breach of the rules: each push returns the findings it caused. A breach that leaves the
position defined (a revoke, a trump led too early, a wrong announced winner) is recorded and
the action is applied; one that does not (a card the seat does not hold, a call out of turn)
is recorded as *fatal* and the game stops being checked (``Game.stopped``).

>>> from replay.games.floating_bridge.cards import Seat, Call, Card
>>> game = Game.new_random(seed=1)
>>> game.to_act == game.first_bidder
True
>>> game.push_call(game.to_act, Call.parse("1S"))
[]
"""

from __future__ import annotations

import random
from functools import reduce
from operator import itemgetter, or_
from typing import Any, Sequence

from replay.games.base import Finding

from .cards import (
    CARDS,
    CALLS,
    FULL_DECK_MASK,
    PASS_VALUE,
    SEATS,
    SUIT_MASKS,
    Call,
    Card,
    Seat,
    Strain,
    hand_points,
    cards_of,
)
from .rules import DEFAULT_RULES, Rules, first_leader, legal_calls, legal_cards_mask, targets, trick_winner_index

#: The highest bid, which ends the auction at once (no closing passes).
SEVEN_NT = Call.bid(7, Strain.NT)

# Phases
AUCTION = "auction"
PARTNER = "partner"
PLAY = "play"
OVER = "over"

#: Finding kinds, with whether they stop rule checking. Documented in docs/log-format.md.
FINDING_KINDS: dict[str, bool] = {
    "invalid_deal": True,        # a hand without 13 cards, or a card dealt twice
    "wash_hand": False,          # a hand below the wash threshold reached the auction
    "out_of_turn": True,         # a call, partner call or card by the wrong seat
    "wrong_phase": True,         # e.g. a card played during the auction
    "insufficient_bid": True,    # a bid not higher than the highest bid
    "partner_in_own_hand": False,  # the declarer called its own card (without self_partner)
    "card_not_in_hand": True,    # a card the seat never held
    "card_played_twice": True,   # a card that was already played
    "revoke": False,             # did not follow suit while able to
    "trump_not_broken": False,   # led a trump before trumps were broken, holding other suits
    "trump_in_first_trick": False,  # a trump in the first trick where the rules forbid it
    "wrong_trick_winner": False,  # the bot announced a winner the rules disagree with
    "unexpected_trick_event": False,  # a trick announcement with no finished trick to announce
    "event_after_end": True,     # a call or card after the game was over
    "end_mismatch": False,       # the logged end reason contradicts the play
}


def finding(step: int, kind: str, seat: Seat | None, message: str, event: int | None = None) -> Finding:
    """A floating bridge finding: ``replay.games.base.Finding`` with the seat as a ``Seat``
    (its name in JSON) and ``fatal`` as ``FINDING_KINDS`` says."""
    return Finding(step, kind, seat, message, event, FINDING_KINDS.get(kind, False))


class Game:
    """A floating bridge position, from the deal to the end of play."""

    __slots__ = (
        "rules", "first_bidder", "deal", "hands", "played", "phase", "to_act",
        "highest_bid", "high_bidder", "passes", "calls", "declarer", "contract", "trump",
        "partner_card", "partner_seat", "partner_revealed", "trick", "trick_winners",
        "tricks_won", "trump_broken", "stopped", "passed_out", "pending_announcement",
        "declarer_side_tricks", "defender_tricks", "last_trick", "need_declarer", "need_defenders",
    )

    def __init__(self, hands: Sequence[Sequence[int]], first_bidder: int, rules: Rules = DEFAULT_RULES):
        self.rules = rules
        self.first_bidder = SEATS[first_bidder]
        deal = []
        masks = []
        for h in hands:  # each hand as Cards and as a mask
            if len(h) > 1:  # (itemgetter: one C call for the whole hand)
                pick = itemgetter(*h)
                deal.append(pick(CARDS))
                bits = pick(_BITS)
                mask = sum(bits)
                if mask.bit_count() != len(h):  # a card twice (an ``invalid_deal``): held once
                    mask = reduce(or_, bits)
            else:
                deal.append(tuple([CARDS[c] for c in h]))
                mask = sum([_BITS[c] for c in h])
            masks.append(mask)
        self.deal: tuple[tuple[Card, ...], ...] = tuple(deal)
        self.hands: list[int] = masks
        self.played = 0
        self.phase = AUCTION
        self.to_act: Seat | None = self.first_bidder
        self.highest_bid: Call | None = None
        self.high_bidder: Seat | None = None
        self.passes = 0  # passes in a row
        self.calls: list[tuple[Seat, Call]] = []
        self.declarer: Seat | None = None
        self.contract: Call | None = None
        self.trump: int | None = None
        self.partner_card: Card | None = None
        self.partner_seat: Seat | None = None
        self.partner_revealed = False
        self.trick: list[tuple[Seat, Card]] = []  # (seat, card) of the trick under way
        self.last_trick: tuple[tuple[Seat, Card], ...] = ()  # the last finished trick
        self.trick_winners: list[Seat] = []
        self.tricks_won = [0, 0, 0, 0]
        self.trump_broken = False
        self.stopped = False  # rule checking stopped after a fatal finding
        self.passed_out = False
        self.pending_announcement = False
        self.declarer_side_tricks = 0
        self.defender_tricks = 0
        self.need_declarer = self.need_defenders = 0  # ``targets(contract)``, once there is one

    # ----------------------------------------------------------------- construction
    @classmethod
    def new_random(cls, seed: int | None = None, rules: Rules = DEFAULT_RULES,
                   rng: random.Random | None = None) -> "Game":
        """A shuffled deal (redealt while any hand is below the wash threshold)."""
        rng = rng or random.Random(seed)
        while True:
            deck = list(range(52))
            rng.shuffle(deck)
            hands = [sorted(deck[i * 13:(i + 1) * 13]) for i in range(4)]
            if all(hand_points(h) >= rules.wash_threshold for h in hands):
                return cls(hands, rng.randrange(4), rules)

    def check_deal(self) -> list[Finding]:
        """Findings about the deal itself (step 0)."""
        findings: list[Finding] = []
        seen = 0
        problems = []
        for seat, cards in zip(SEATS, self.deal):
            if len(cards) != 13:
                problems.append(f"{seat.name} holds {len(cards)} cards, not 13")
            mask = 0
            for c in cards:
                if (seen | mask) >> c & 1:
                    problems.append(f"{Card(c)} is dealt twice (again to {seat.name})")
                mask |= 1 << c
            seen |= mask
        if problems:
            findings.append(finding(0, "invalid_deal", None, "; ".join(problems)))
            self.stopped = True
            return findings
        for seat, cards in zip(SEATS, self.deal):
            pts = hand_points(cards)
            if pts < self.rules.wash_threshold:
                findings.append(finding(
                    0, "wash_hand", seat,
                    f"{seat.full_name} has {pts} points, below the wash threshold of "
                    f"{self.rules.wash_threshold}: the deal should have been redealt"))
        return findings

    # ----------------------------------------------------------------- queries
    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def holder(self, card: int) -> Seat | None:
        """Who was dealt a card."""
        for seat, cards in zip(SEATS, self.deal):
            if card in cards:
                return seat
        return None

    def legal_calls(self) -> list[Call]:
        return legal_calls(self.highest_bid) if self.phase == AUCTION else []

    def legal_cards(self) -> list[Card]:
        """The cards the seat to act may play now."""
        if self.phase != PLAY or self.to_act is None:
            return []
        return cards_of(self.legal_mask(self.to_act))

    def legal_partner_cards(self) -> list[Card]:
        if self.phase != PARTNER or self.declarer is None:
            return []
        if self.rules.self_partner:
            return list(CARDS)
        return cards_of(FULL_DECK_MASK & ~self._dealt_mask(self.declarer))

    def _dealt_mask(self, seat: int) -> int:
        m = 0
        for c in self.deal[seat]:
            m |= 1 << c
        return m

    def legal_mask(self, seat: int) -> int:
        """The cards ``seat`` may play now, as a mask: the play rules (``rules.legal_cards_mask``)
        at this position. The codec indexes cards among these (one copy of the rules)."""
        trick = self.trick
        return legal_cards_mask(self.hands[seat], trick[0][1] // 13 if trick else None, self.trump,
                                self.trump_broken, not self.trick_winners, self.rules)

    @property
    def needed(self) -> tuple[int, int] | None:
        """(declarer's side, defenders) tricks needed, once there is a contract."""
        return None if self.contract is None else targets(self.contract)

    # ----------------------------------------------------------------- actions
    def _fatal(self, step: int, kind: str, seat: int | None, message: str) -> list[Finding]:
        self.stopped = True
        return [finding(step, kind, None if seat is None else SEATS[seat], message)]

    def _wrong_phase(self, step: int, seat: int, what: str) -> list[Finding] | None:
        if self.phase == OVER:
            return self._fatal(step, "event_after_end", seat,
                               f"{SEATS[seat].full_name} {what} after the game was over")
        return None

    def push_call(self, seat: int, call: int, step: int = 0) -> list[Finding]:
        """A call (bid or pass) by ``seat``."""
        if self.phase != AUCTION:
            return self._wrong_phase(step, seat, f"calls {Call(call)}") or self._fatal(
                step, "wrong_phase", seat,
                f"{SEATS[seat].full_name} calls {Call(call)}, but the auction is over")
        if seat != self.to_act:
            return self._fatal(step, "out_of_turn", seat,
                               f"{SEATS[seat].full_name} calls {Call(call)} out of turn: "
                               f"it is {self.to_act.full_name}'s turn to call")
        if call != PASS_VALUE and self.highest_bid is not None and call <= self.highest_bid:
            return self._fatal(step, "insufficient_bid", seat,
                               f"{SEATS[seat].full_name} bids {Call(call)}, not higher than {self.highest_bid}")
        self.calls.append((SEATS[seat], CALLS[call]))
        if call == PASS_VALUE:
            self.passes += 1
            if self.highest_bid is None and self.passes == 4:
                self.phase, self.to_act, self.passed_out = OVER, None, True
                return []
            if self.highest_bid is not None and self.passes == 3:
                self._end_auction()
                return []
        else:
            self.highest_bid, self.high_bidder, self.passes = CALLS[call], SEATS[seat], 0
            if call == SEVEN_NT:
                self._end_auction()
                return []
        self.to_act = SEATS[(seat + 1) & 3]
        return []

    def _end_auction(self) -> None:
        self.contract = self.highest_bid
        self.declarer = self.high_bidder
        strain = self.contract % 5
        self.trump = None if strain == 4 else strain
        self.need_declarer, self.need_defenders = targets(self.contract)
        self.phase = PARTNER
        self.to_act = self.declarer

    def push_partner(self, seat: int, card: int, step: int = 0) -> list[Finding]:
        """The declarer names the partner card."""
        name = SEATS[seat].full_name
        if self.phase != PARTNER:
            return self._wrong_phase(step, seat, f"calls partner card {Card(card)}") or self._fatal(
                step, "wrong_phase", seat,
                f"{name} calls partner card {Card(card)} " +
                ("during the auction" if self.phase == AUCTION else "after the partner was already called"))
        if seat != self.declarer:
            return self._fatal(step, "out_of_turn", seat,
                               f"{name} calls the partner card, but {self.declarer.full_name} is the declarer")
        findings: list[Finding] = []
        self.partner_card = CARDS[card]
        self.partner_seat = self.holder(card)
        if self.partner_seat == self.declarer and not self.rules.self_partner:
            findings.append(finding(step, "partner_in_own_hand", SEATS[seat],
                                    f"{name} calls {Card(card)}, a card in its own hand, "
                                    "which these rules do not allow; it plays alone"))
        self.phase = PLAY
        self.to_act = SEATS[first_leader(self.declarer, self.contract)]
        return findings

    def push_play(self, seat: int, card: int, step: int = 0) -> list[Finding]:
        """``seat`` plays ``card`` to the current trick."""
        if self.phase != PLAY:
            name = SEATS[seat].full_name
            return self._wrong_phase(step, seat, f"plays {Card(card)}") or self._fatal(
                step, "wrong_phase", seat,
                f"{name} plays {Card(card)} " +
                ("during the auction" if self.phase == AUCTION else "before the partner card was called"))
        if seat != self.to_act:
            return self._fatal(step, "out_of_turn", seat,
                               f"{SEATS[seat].full_name} plays {Card(card)} out of turn: "
                               f"it is {self.to_act.full_name}'s turn")
        bit = 1 << card
        hand = self.hands[seat]
        if not hand & bit:
            name = SEATS[seat].full_name
            if self.played & bit:
                return self._fatal(step, "card_played_twice", seat,
                                   f"{name} plays {Card(card)}, which was already played")
            holder = self.holder(card)  # nobody, in a deal that is not whole (a study's import)
            return self._fatal(step, "card_not_in_hand", seat,
                               f"{name} plays {Card(card)}, which it does not hold "
                               f"(it was dealt to {holder.full_name if holder else 'nobody'})")
        findings: list[Finding] = []
        legal = self.legal_mask(seat)
        if not legal & bit:
            findings.append(self._illegal_play_finding(step, seat, card, hand))
        self.play_card(seat, card)
        return findings

    def play_card(self, seat: int, card: int) -> Seat | None:
        """The play of a card the seat holds, by the rules: it joins the trick, breaks trumps,
        reveals the partner; a fourth card gives the trick to its winner, who leads next, and
        may end the game. ``push_play`` calls it once a card is checked; the codec, whose codes
        hold only legal cards (``legal_mask``), calls it directly: the one copy of the play.
        Returns the trick's winner when the card completes a trick, else None."""
        bit = 1 << card
        self.pending_announcement = False  # an announcement must come before the next card
        self.hands[seat] &= ~bit
        self.played |= bit
        trick = self.trick
        trick.append(_PLAYED[seat][card])  # (Seat, Card), typed and shared, as snapshots share them
        if card == self.partner_card:
            self.partner_revealed = True
        trump = self.trump
        if card // 13 == trump:  # never in NT: trump is None
            self.trump_broken = True
        if len(trick) < 4:
            self.to_act = _NEXT_SEAT[seat]
            return None
        # the trick is complete
        winner = trick[trick_winner_index((trick[0][1], trick[1][1], trick[2][1], trick[3][1]), trump)][0]
        winners = self.trick_winners
        winners.append(winner)
        self.tricks_won[winner] += 1
        if winner == self.declarer or winner == self.partner_seat:
            self.declarer_side_tricks += 1
        else:
            self.defender_tricks += 1
        self.last_trick = tuple(trick)
        self.trick = []
        self.pending_announcement = True
        if len(winners) == 13 or (
            not self.rules.play_all_tricks
            and (self.declarer_side_tricks >= self.need_declarer or self.defender_tricks >= self.need_defenders)
        ):
            self.phase, self.to_act = OVER, None
        else:
            self.to_act = winner
        return winner

    def _illegal_play_finding(self, step: int, seat: int, card: int, hand: int) -> Finding:
        name = SEATS[seat].full_name
        suit = card // 13
        if self.trick:
            led = self.trick[0][1] // 13
            if hand & SUIT_MASKS[led]:
                return finding(step, "revoke", SEATS[seat],
                               f"{name} plays {Card(card)} but holds {_SUIT_NAMES[led]}, the suit led: a revoke")
            return finding(step, "trump_in_first_trick", SEATS[seat],
                           f"{name} trumps the first trick with {Card(card)}, which these rules forbid "
                           "while it holds other suits")
        if not self.trump_broken and suit == self.trump:
            return finding(step, "trump_not_broken", SEATS[seat],
                           f"{name} leads {Card(card)}, a trump, before trumps were broken, "
                           "while holding other suits")
        return finding(step, "trump_in_first_trick", SEATS[seat],
                       f"{name} leads a trump ({Card(card)}) to the first trick, which these rules forbid")

    def announce_trick(self, winner: int, step: int = 0) -> list[Finding]:
        """A bot's announcement of the last trick's winner; checked against the rules."""
        if not self.pending_announcement:
            number = len(self.trick_winners)
            return [finding(step, "unexpected_trick_event", SEATS[winner],
                            f"the bot announced {SEATS[winner].full_name} as a trick winner, "
                            f"but no trick had just finished (tricks finished: {number})")]
        self.pending_announcement = False
        actual = self.trick_winners[-1]
        if actual != winner:
            number = len(self.trick_winners)
            return [finding(step, "wrong_trick_winner", SEATS[winner],
                            f"the bot announced {SEATS[winner].full_name} as the winner of trick "
                            f"{number}, but the rules give it to {actual.full_name}")]
        return []

    def copy(self) -> "Game":
        other = Game.__new__(Game)
        for name in Game.__slots__:
            setattr(other, name, getattr(self, name))
        other.hands = list(self.hands)
        other.calls = list(self.calls)
        other.trick = list(self.trick)
        other.trick_winners = list(self.trick_winners)
        other.tricks_won = list(self.tricks_won)
        return other

    # ----------------------------------------------------------------- the game-neutral interface
    #: The log events that are actions (a step each); ``trick`` and ``chat`` are not.
    ACTION_EVENTS = frozenset(("bid", "partner", "play"))

    def push(self, event, step: int = 0) -> list[Finding]:
        """Apply one log event (``replay.log`` model): the one place events are dispatched.

        ``step`` is the replay step the event makes (for ``trick``, the step it announces).
        Chat and other events that are not actions change nothing.
        """
        kind = event.type
        if kind == "play":
            return self.push_play(event.seat, event.card, step)
        if kind == "bid":
            return self.push_call(event.seat, event.bid, step)
        if kind == "partner":
            return self.push_partner(event.seat, event.card, step)
        if kind == "trick":
            return self.announce_trick(event.winner, step)
        return []

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def legal(self) -> list[tuple[str, int]]:
        """The legal actions of the seat to act, in the canonical order codecs index into:
        calls (pass, then bids low to high), partner cards, or cards (clubs 2 to spades A),
        each as ``(event type, Call or Card)``."""
        if self.phase == AUCTION:
            return [("bid", c) for c in self.legal_calls()]
        if self.phase == PARTNER:
            return [("partner", c) for c in self.legal_partner_cards()]
        if self.phase == PLAY:
            return [("play", c) for c in self.legal_cards()]
        return []


_SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
#: ``1 << card`` by card, and the seat after each seat (clockwise)
_BITS: tuple[int, ...] = tuple(1 << c for c in range(52))
_NEXT_SEAT: tuple[Seat, ...] = SEATS[1:] + SEATS[:1]
#: ``(Seat, Card)`` of every seat and card: the pairs a trick holds
_PLAYED: tuple[tuple[tuple[Seat, Card], ...], ...] = tuple(tuple((seat, card) for card in CARDS) for seat in SEATS)


def game_at_step(replay: Any, step: int) -> Game:
    """The engine's game after ``replay.steps[step]`` (step 0 is the deal)."""
    if not 0 <= step < replay.step_count:
        raise IndexError(f"step {step} is not a step of this game (0-{replay.step_count - 1})")
    log = replay.log
    game = Game(log.hands.by_seat(), log.first_bidder, log.rules)
    game.check_deal()
    count = 0
    for event in log.events:
        if count == step or game.stopped:
            break
        game.push(event)
        if event.type in Game.ACTION_EVENTS and not game.stopped:
            count += 1
    return game
