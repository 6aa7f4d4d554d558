"""The party-cards engine: one position, pushed forward one event at a time.

``PartyState`` knows who was invited, who is in the game, every seat's hand (card ids in the
order they arrived), the scores, and the round in play: its czar, question, submissions,
the order shown to the czar and the pick. It never raises on a breach of the rules: ``push``
returns the findings (``replay.games.base.Finding``) of the spec's table, at most one per
event (the first row that applies), and a fatal finding stops rule checking (``stopped``).

>>> hands = [[("a1", "Bees?"), ("a2", "Jazz hands.")], [("a3", "A goose."), ("a4", "Glitter.")],
...          [("a5", "Soup."), ("a6", "A kazoo solo.")]]
>>> state = PartyState(("p1", "p2", "p3"), hands, hand_size=2, score_limit=1)
>>> state.check_setup(), state.to_act, state.legal()
([], 'p1', [('join', 'p1'), ('decline', 'p1')])
>>> for i, seat in enumerate(("p1", "p2", "p3")):
...     _ = state.join(seat, i)
>>> state.round("p1", "q1", "Why? ___", 1, 3)
[]
>>> state.to_act, state.legal()
('p2', [('answer', 'p2', ('a3',)), ('answer', 'p2', ('a4',))])
>>> state.answer("p2", ["a3"], 4), state.answer("p3", ["a9"], 5)
([], [Finding(step=5, kind='card_not_in_hand', seat='p3', message="p3 plays 'a9', which is not in their hand; rule checking stops here", event=5, fatal=True)])

Actions (``legal``) are the decisions of the seat ``to_act``, in one canonical order that
codecs index into: in the lobby, the first invited seat (table order) without an answer has
``("join", seat)`` then ``("decline", seat)``; in a round, the first seat in the game (table
order, the czar excepted) that has not answered has ``("answer", seat, ids)`` for every
ordered choice of ``pick`` distinct cards of its hand (``itertools.permutations`` of the hand
in the order the cards arrived); once the submissions are revealed the czar has
``("pick", czar, 1)`` ... ``("pick", czar, n)``. Between those (dealing questions, shuffling,
drawing) the bot acts, not a seat: ``to_act`` is ``None`` and ``legal()`` is empty.
"""

from __future__ import annotations

from itertools import permutations
from typing import Any, Iterable, Sequence

from replay.games.base import Finding

MIN_PLAYERS = 3

#: kind -> fatal, in the order of the spec's table (the first row that applies names a breach)
FINDING_KINDS: dict[str, bool] = {
    "invalid_setup": True,
    "event_after_end": True,
    "not_enough_players": False,
    "not_in_game": True,
    "czar_answered": False,
    "wrong_answer_count": False,
    "card_not_in_hand": True,
    "answered_twice": False,
    "wrong_reveal": False,
    "pick_out_of_range": True,
    "not_the_czar": True,
    "wrong_czar": False,
    "hand_not_refilled": False,
    "played_past_limit": False,
    "wrong_winner": False,
    "end_mismatch": False,
}

# lobby status of a seat
INVITED, IN, DECLINED, LEFT = 0, 1, 2, 3
STATUS_NAMES = ("invited", "in", "declined", "left")

Action = tuple  # ("join", seat) | ("decline", seat) | ("answer", seat, ids) | ("pick", seat, n)
Card = tuple  # (id, text)


class PartyState:
    """A position of a party-cards game. ``push`` (or the per-event methods) is the mutator.

    Public fields (read by the replay's snapshots and the bots): ``seats`` (names, table
    order), ``status`` (per seat: ``INVITED``, ``IN``, ``DECLINED``, ``LEFT``), ``hands`` (per
    seat, a dict whose keys are the card ids held, in arrival order), ``texts`` (every answer
    card's text by id), ``scores``, ``rounds`` (rounds started), ``czar`` (seat index of the
    round in play), ``question`` (``(id, text, pick)``), ``submissions`` (seat index -> ids, in
    the order they came), ``order`` (the seat indices shown to the czar, once revealed),
    ``choice`` and ``round_winner`` (the pick of the round), ``winner`` (the first seat to
    reach ``score_limit``), ``over`` (set at that pick), ``stopped`` and ``steps``.
    """

    __slots__ = ("seats", "index", "hand_size", "score_limit", "end_t", "status", "hands", "texts", "ids",
                 "scores", "rounds", "czar", "last_czar", "question", "submissions", "order", "choice",
                 "round_winner", "winner", "over", "stopped", "steps", "_setup")

    def __init__(self, seats: Sequence[str], hands: "Sequence[Iterable[Card] | None]", hand_size: int = 10,
                 score_limit: int = 1, end_t: int | None = None):
        self.seats = tuple(seats)
        self.index = {name: i for i, name in enumerate(self.seats)}
        self.hand_size = hand_size
        self.score_limit = score_limit
        self.end_t = end_t
        n = len(self.seats)
        self.status = [INVITED] * n
        self.hands: list[dict[str, None]] = []
        self.texts: dict[str, str] = {}
        self.ids: set[str] = set()
        dealt = [None if h is None else list(h) for h in hands]
        self._setup = dealt
        for cards in dealt:
            hand: dict[str, None] = {}
            for card_id, text in cards or ():
                hand[card_id] = None
                self.texts.setdefault(card_id, text)
                self.ids.add(card_id)
            self.hands.append(hand)
        self.scores = [0] * n
        self.rounds = 0
        self.czar: int | None = None
        self.last_czar: int | None = None
        self.question: tuple[str, str, int] | None = None
        self.submissions: dict[int, tuple[str, ...]] = {}
        self.order: tuple[int, ...] | None = None
        self.choice: int | None = None
        self.round_winner: int | None = None
        self.winner: int | None = None
        self.over = False
        self.stopped = False
        self.steps = 0

    # -- the State protocol ---------------------------------------------------------------------
    @property
    def to_act(self) -> str | None:
        """The seat whose decision the game waits for (see the module doc), else ``None``."""
        seat = self._to_act()
        return None if seat is None else self.seats[seat]

    def _to_act(self) -> int | None:
        if self.over or self.stopped:
            return None
        if self.question is None:
            if self.rounds:
                return None
            for i, status in enumerate(self.status):
                if status == INVITED:
                    return i
            return None
        if self.choice is not None:
            return None
        if self.order is not None:
            return self.czar
        submissions = self.submissions
        for i, status in enumerate(self.status):
            if status == IN and i != self.czar and i not in submissions:
                return i
        return None

    def legal(self) -> list[Action]:
        """The legal actions of ``to_act``, in the canonical order (see the module doc)."""
        seat = self._to_act()
        if seat is None:
            return []
        name = self.seats[seat]
        if self.question is None:
            return [("join", name), ("decline", name)]
        if self.order is not None:
            return [("pick", name, k) for k in range(1, len(self.order) + 1)]
        return [("answer", name, ids) for ids in permutations(self.hands[seat], self.question[2])]

    def push(self, event: Any, index: int) -> list[Finding]:
        """Apply one logged event (a ``party-cards/1`` event model); chat is ignored."""
        kind = event.type
        t = event.t
        if kind == "answer":
            return self.answer(event.seat, event.cards, index, t)
        if kind == "draw":
            return self.draw(event.seat, [(c.id, c.text) for c in event.cards], index, t)
        if kind == "pick":
            return self.pick(event.seat, event.choice, index, t)
        if kind == "round":
            q = event.question
            return self.round(event.czar, q.id, q.text, q.pick, index, t)
        if kind == "reveal":
            return self.reveal(event.order, index, t)
        if kind == "join":
            return self.join(event.seat, index, t)
        if kind == "decline":
            return self.decline(event.seat, index, t)
        if kind == "leave":
            return self.leave(event.seat, index, t)
        if kind == "swap":
            return self.swap(event.seat, event.discard, [(c.id, c.text) for c in event.draw], index, t)
        return []

    def apply_action(self, action: Action, index: int) -> list[Finding]:
        """Apply one of ``legal()``'s actions (``index``: where it would stand in the log)."""
        kind = action[0]
        if kind == "answer":
            return self.answer(action[1], action[2], index)
        if kind == "pick":
            return self.pick(action[1], action[2], index)
        if kind == "join":
            return self.join(action[1], index)
        return self.decline(action[1], index)

    def copy(self) -> "PartyState":
        other = PartyState.__new__(PartyState)
        for name in PartyState.__slots__:
            setattr(other, name, getattr(self, name))
        other.status = list(self.status)
        other.hands = [dict(h) for h in self.hands]
        other.texts = dict(self.texts)
        other.ids = set(self.ids)
        other.scores = list(self.scores)
        other.submissions = dict(self.submissions)
        return other

    # -- queries --------------------------------------------------------------------------------
    def in_game(self) -> list[int]:
        """Seat indices in the game (joined and not left), in table order."""
        return [i for i, s in enumerate(self.status) if s == IN]

    def next_czar(self) -> int | None:
        """The seat that should be the next czar: after the last czar's seat, in table order."""
        players = self.in_game()
        if not players:
            return None
        if self.last_czar is None:
            return None  # the first czar is named by the bot: any seat in the game
        for i in players:
            if i > self.last_czar:
                return i
        return players[0]

    def hand_ids(self, seat: int) -> list[str]:
        return list(self.hands[seat])

    # -- setup ----------------------------------------------------------------------------------
    def check_setup(self) -> list[Finding]:
        """``invalid_setup`` (fatal) for a duplicate card id, or a hand without ``hand_size`` cards."""
        problems = []
        seen: set[str] = set()
        duplicates: list[str] = []
        for seat, cards in zip(self.seats, self._setup):
            if cards is None:
                problems.append(f"{seat} was dealt no hand")
                continue
            if len(cards) != self.hand_size:
                problems.append(f"{seat} was dealt {len(cards)} cards, not {self.hand_size}")
            for card_id, _ in cards:
                if card_id in seen and card_id not in duplicates:
                    duplicates.append(card_id)
                seen.add(card_id)
        if duplicates:
            shown = ", ".join(repr(d) for d in duplicates[:5]) + (" ..." if len(duplicates) > 5 else "")
            problems.append(f"card id{'s' if len(duplicates) > 1 else ''} {shown} dealt more than once")
        if not problems:
            return []
        self.stopped = True
        return [Finding(0, "invalid_setup", None, "; ".join(problems), None, True)]

    # -- the mutators ---------------------------------------------------------------------------
    def _fatal(self, kind: str, seat: str | None, index: int, message: str) -> list[Finding]:
        self.stopped = True
        return [Finding(self.steps, kind, seat, message + "; rule checking stops here", index, True)]

    def _late(self, t: int | None) -> bool:
        return t is not None and self.end_t is not None and t > self.end_t

    def _late_finding(self, name: str | None, what: str, t: int, index: int) -> list[Finding]:
        return self._fatal("event_after_end", name, index, f"{what} at t={t}, after the logged end (t={self.end_t})")

    def _new_ids(self, cards: Iterable[Card], name: str | None, index: int) -> list[Finding] | None:
        """``invalid_setup`` when a card brought in by an event reuses an id of the game."""
        ids = self.ids
        fresh: set[str] = set()
        for card_id, _ in cards:
            if card_id in ids or card_id in fresh:
                return self._fatal("invalid_setup", name, index,
                                   f"card id {card_id!r} is already used in this game")
            fresh.add(card_id)
        return None

    def _not_in(self, seat: int, name: str, verb: str, index: int) -> list[Finding]:
        status = self.status[seat]
        why = "has left" if status == LEFT else "declined" if status == DECLINED else "has not joined"
        return self._fatal("not_in_game", name, index, f"{name} {verb}, but {why} the game")

    def join(self, name: str, index: int, t: int | None = None) -> list[Finding]:
        if self.stopped:
            return []
        if self._late(t):
            return self._late_finding(name, f"{name} joins", t, index)
        self.steps += 1
        self.status[self.index[name]] = IN
        return []

    def decline(self, name: str, index: int, t: int | None = None) -> list[Finding]:
        if self.stopped:
            return []
        if self._late(t):
            return self._late_finding(name, f"{name} declines", t, index)
        self.steps += 1
        seat = self.index[name]
        self.status[seat] = LEFT if self.status[seat] == IN else DECLINED
        return []

    def leave(self, name: str, index: int, t: int | None = None) -> list[Finding]:
        if self.stopped:
            return []
        if self._late(t):
            return self._late_finding(name, f"{name} leaves", t, index)
        seat = self.index[name]
        if self.status[seat] != IN:
            return self._not_in(seat, name, "leaves", index)
        self.steps += 1
        self.status[seat] = LEFT
        return []

    def swap(self, name: str, discard: Sequence[str], draw: Sequence[Card], index: int,
             t: int | None = None) -> list[Finding]:
        if self.stopped:
            return []
        found = self._new_ids(draw, name, index)
        if found:
            return found
        if self._late(t):
            return self._late_finding(name, f"{name} swaps cards", t, index)
        seat = self.index[name]
        if self.status[seat] != IN:
            return self._not_in(seat, name, "swaps cards", index)
        hand = self.hands[seat]
        missing = _missing(hand, discard)
        if missing is not None:
            return self._fatal("card_not_in_hand", name, index,
                               f"{name} throws away {missing}, which is not in their hand")
        self.steps += 1
        for card_id in discard:
            del hand[card_id]
        self._take(hand, draw)
        return []

    def draw(self, name: str, cards: Sequence[Card], index: int, t: int | None = None) -> list[Finding]:
        if self.stopped:
            return []
        found = self._new_ids(cards, name, index)
        if found:
            return found
        if self._late(t):
            return self._late_finding(name, f"{name} draws", t, index)
        seat = self.index[name]
        if self.status[seat] != IN:
            return self._not_in(seat, name, "draws", index)
        self.steps += 1
        self._take(self.hands[seat], cards)
        return []

    def _take(self, hand: dict[str, None], cards: Sequence[Card]) -> None:
        texts, ids = self.texts, self.ids
        for card_id, text in cards:
            hand[card_id] = None
            texts[card_id] = text
            ids.add(card_id)

    def round(self, czar_name: str, question_id: str, text: str, pick: int, index: int,
              t: int | None = None) -> list[Finding]:
        if self.stopped:
            return []
        if question_id in self.ids:
            return self._fatal("invalid_setup", czar_name, index,
                               f"question id {question_id!r} is already used in this game")
        if self._late(t):
            return self._late_finding(czar_name, f"round {self.rounds + 1} starts", t, index)
        number = self.rounds + 1
        self.steps += 1
        players = self.in_game()
        findings: list[Finding] = []
        czar = self.index[czar_name]
        expected = self.next_czar()
        if len(players) < MIN_PLAYERS:
            findings = [Finding(self.steps, "not_enough_players", czar_name,
                                f"round {number} starts with {len(players)} seat{'s' if len(players) != 1 else ''} "
                                f"in the game (at least {MIN_PLAYERS} are needed)", index)]
        elif self.status[czar] != IN or (expected is not None and czar != expected):
            if self.status[czar] != IN:
                why = f"{czar_name} is not in the game"
            else:
                why = f"the next czar in table order is {self.seats[expected]}"
            findings = [Finding(self.steps, "wrong_czar", czar_name, f"round {number}: {czar_name} is the czar, but "
                                + why, index)]
        else:
            short = [i for i in players if len(self.hands[i]) < self.hand_size]
            if short:
                first = self.seats[short[0]]
                text_short = ", ".join(f"{self.seats[i]} holds {len(self.hands[i])}" for i in short)
                findings = [Finding(self.steps, "hand_not_refilled", first,
                                    f"round {number} starts with fewer than {self.hand_size} cards in a hand: "
                                    + text_short, index)]
            elif self.winner is not None:
                leader = self.seats[self.winner]
                findings = [Finding(self.steps, "played_past_limit", leader,
                                    f"round {number} starts after {leader} reached the score limit "
                                    f"({self.score_limit})", index)]
        self.rounds = number
        self.czar = czar
        self.last_czar = czar
        self.question = (question_id, text, pick)
        self.ids.add(question_id)
        self.submissions = {}
        self.order = None
        self.choice = None
        self.round_winner = None
        return findings

    def answer(self, name: str, cards: Sequence[str], index: int, t: int | None = None) -> list[Finding]:
        if self.stopped:
            return []
        if self._late(t):
            return self._late_finding(name, f"{name} answers", t, index)
        seat = self.index[name]
        if self.status[seat] != IN:
            return self._not_in(seat, name, "answers", index)
        hand = self.hands[seat]
        question = self.question
        previous = self.submissions.get(seat)
        finding: Finding | None = None
        step = self.steps + 1
        if question is not None and seat == self.czar:
            finding = Finding(step, "czar_answered", name, f"{name} answers, but is the czar of round {self.rounds}",
                              index)
        elif question is not None and len(cards) != question[2]:
            finding = Finding(step, "wrong_answer_count", name,
                              f"{name} plays {len(cards)} card{'s' if len(cards) != 1 else ''}, but the question "
                              f"asks for {question[2]}", index)
        else:
            missing = _missing(hand, cards)
            if missing is not None:
                return self._fatal("card_not_in_hand", name, index, f"{name} plays {missing}, which is not in "
                                   "their hand")
            if previous is not None:
                finding = Finding(step, "answered_twice", name,
                                  f"{name} answers a second time in round {self.rounds} (the new answer replaces "
                                  "the first, whose cards go back to the hand)", index)
        self.steps = step
        if previous is not None:
            for card_id in previous:
                hand[card_id] = None
        played = []
        for card_id in cards:
            if card_id in hand:  # after a non-fatal finding, cards not held are left out
                del hand[card_id]
                played.append(card_id)
        if previous is not None:
            del self.submissions[seat]
        self.submissions[seat] = tuple(played)
        return [finding] if finding is not None else []

    def reveal(self, order: Sequence[str], index: int, t: int | None = None) -> list[Finding]:
        if self.stopped:
            return []
        if self._late(t):
            return self._late_finding(None, "the answers are revealed", t, index)
        self.steps += 1
        seats = tuple(self.index[name] for name in order)
        self.order = seats
        findings: list[Finding] = []
        if sorted(seats) != sorted(self.submissions):
            listed = set()
            odd = None
            for i in seats:
                if i not in self.submissions or i in listed:
                    odd = f"{self.seats[i]} is listed " + ("twice" if i in listed else "but did not answer")
                    break
                listed.add(i)
            if odd is None:
                missing = next(i for i in self.submissions if i not in listed)
                odd = f"{self.seats[missing]} answered but is not listed"
                seat_name = self.seats[missing]
            else:
                seat_name = self.seats[i]
            findings = [Finding(self.steps, "wrong_reveal", seat_name,
                                "the order shown to the czar does not list exactly the seats that answered: " + odd,
                                index)]
        return findings

    def pick(self, name: str, choice: int, index: int, t: int | None = None) -> list[Finding]:
        if self.stopped:
            return []
        if self._late(t):
            return self._late_finding(name, f"{name} picks", t, index)
        seat = self.index[name]
        if self.status[seat] != IN:
            return self._not_in(seat, name, "picks", index)
        count = len(self.submissions)
        order = self.order if self.order is not None else tuple(self.submissions)
        if not 1 <= choice <= count or choice > len(order):
            shown = min(count, len(order))
            return self._fatal("pick_out_of_range", name, index,
                               f"{name} picks answer {choice}, but " +
                               ("there is no answer to pick" if shown == 0 else f"the answers are numbered 1-{shown}"))
        if self.question is None or seat != self.czar:
            czar = "no round has started" if self.question is None else f"{self.seats[self.czar]} is the czar"
            return self._fatal("not_the_czar", name, index, f"{name} picks an answer, but {czar}")
        self.steps += 1
        author = order[choice - 1]
        self.choice = choice
        self.round_winner = author
        self.scores[author] += 1
        if self.winner is None and self.scores[author] >= self.score_limit:
            self.winner = author
            self.over = True
        return []


def _missing(hand: dict[str, None], ids: Sequence[str]) -> str | None:
    """The first id (as text) that the hand does not hold, counting repeats; ``None`` if all are held."""
    seen: set[str] = set()
    for card_id in ids:
        if card_id not in hand or card_id in seen:
            return repr(card_id)
        seen.add(card_id)
    return None
