"""Texas hold'em's board data, read from the judged hand's public API (``HoldemReplay``).

Hidden cards stay on the server: a seat's view is built from ``steps_json(seat)`` only, where
every other seat's hole cards are ``"??"`` until that seat shows them, so no card the seat could
not see reaches the page or the data it embeds. The open view (``"all"``) uses ``steps_json()``.
The equity of each live seat (``replay.games.holdem.equity.step_equities``) is worked out from
the view's own steps, so a seat's view never counts a card it could not see.

A step (the replay's contract) holds ``i``, ``kind``, ``seat``, ``text``, ``street``, ``amount``,
``stacks``, ``bets``, ``pot``, ``pots``, ``board``, ``hole``, ``folded``, ``all_in``, ``to_act``,
``button``, ``blinds`` and ``last``. The page adds ``x`` (the text with players' names for
seats) and ``eq`` (each live seat's chance to win, or ``None``).

The ↑/↓ keys move by street: the steps where the hole cards are all dealt and betting starts,
where the flop, the turn and the river come, where the showdown starts, and the last step:

>>> steps = [{"i": 0, "kind": "setup", "street": "preflop"}, {"i": 1, "kind": "hole", "street": "preflop"},
...          {"i": 2, "kind": "hole", "street": "preflop"}, {"i": 3, "kind": "call", "street": "preflop"},
...          {"i": 4, "kind": "check", "street": "preflop"}, {"i": 5, "kind": "board", "street": "flop"},
...          {"i": 6, "kind": "bet", "street": "flop"}, {"i": 7, "kind": "fold", "street": "flop"}]
>>> street_starts(steps)
[2, 5]
>>> chapters(steps)
{'ends': [2, 5, 7], 'before': 0}
>>> named("p1 raises to 300; p10 calls", {"p1": "Ann", "p10": "p1"}, ("p1", "p10"))
'Ann raises to 300; p1 calls'
>>> money(1234567), money(0.5, cents=True), money(12.0, cents=False)
('1,234,567', '0.50', '12')
"""

from __future__ import annotations

import functools
import json
import math
import re
from typing import Any

from replay.games.holdem.equity import step_equities

from .. import log_names, seat_label as label

STREETS = ("preflop", "flop", "turn", "river", "showdown")
STREET_NAMES = {"preflop": "Preflop", "flop": "Flop", "turn": "Turn", "river": "River", "showdown": "Showdown"}
SUITS = {"c": "\u2663", "d": "\u2666", "h": "\u2665", "s": "\u2660"}
SUIT_NAMES = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
RANK_NAMES = {"2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven", "8": "eight",
              "9": "nine", "T": "ten", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}
UNKNOWN = "??"


def seats_of(replay: Any) -> tuple[str, ...]:
    """The hand's seats in table order (``p1``..``pN``)."""
    return tuple(str(s) for s in replay.game.seat_order(replay.log))


def named(text: str, names: dict[str, Any], seats: tuple[str, ...]) -> str:
    """``text`` with every seat written as its player's name, in one pass (a name is never read
    again, so a player called ``p1`` cannot be mistaken for a seat)."""
    if not seats or not text:
        return text or ""
    pattern = re.compile(r"\b(" + "|".join(re.escape(s) for s in sorted(seats, key=len, reverse=True)) + r")\b")
    return pattern.sub(lambda m: label(names, m.group(1)), text)


def money(amount: Any, cents: bool = False) -> str:
    """An amount as the board writes it: grouped thousands, two decimals at a table in cents."""
    if amount is None:
        return ""
    if cents:
        return f"{float(amount):,.2f}"
    if isinstance(amount, float) and not amount.is_integer():
        return f"{amount:,.2f}"
    return f"{int(amount):,}"


def uses_cents(steps: list[dict[str, Any]]) -> bool:
    """Whether the table plays for fractions (a cash game in dollars): a blind or a stack that is
    not a whole number."""
    first = steps[0] if steps else {}
    values = list((first.get("stacks") or {}).values()) + list((first.get("blinds") or {}).values())
    return any(isinstance(v, float) and not v.is_integer() for v in values)


def card_face(card: str) -> dict[str, str]:
    """A card as the board draws it (``"Ac"`` -> rank ``A``, suit ``♣``, colour, words); an
    unknown card (``"??"``) is a card back.

    >>> card_face("Td")["label"], card_face("Td")["colour"], card_face("??")["state"]
    ('10♦', 'red', 'back')
    """
    if not card or card == UNKNOWN or len(card) != 2 or card[1] not in SUITS:
        return {"state": "back", "card": "", "label": "", "colour": "", "words": "face-down card"}
    rank, suit = card[0], card[1]
    return {"state": "up", "card": card, "label": ("10" if rank == "T" else rank) + SUITS[suit],
            "colour": "red" if suit in "dh" else "black",
            "words": f"{RANK_NAMES.get(rank, rank)} of {SUIT_NAMES[suit]}"}


def blind_marks(first: dict[str, Any], seats: tuple[str, ...]) -> dict[str, str]:
    """``SB``, ``BB`` (and ``ST`` for straddles) by the blinds' sizes, smallest first (seat order
    breaks ties); no mark for a seat that posts nothing.

    >>> blind_marks({"blinds": {"p1": 100, "p2": 50, "p3": 0}}, ("p1", "p2", "p3"))
    {'p2': 'SB', 'p1': 'BB'}
    """
    blinds = first.get("blinds") or {}
    posting = sorted((s for s in seats if blinds.get(s)), key=lambda s: (blinds[s], seats.index(s)))
    words = ("SB", "BB")
    return {s: words[n] if n < len(words) else "ST" for n, s in enumerate(posting)}


def title(game: Any) -> str:
    r = game.replay
    winners = list(getattr(r, "winners", ()) or ())
    if winners:
        return "Texas hold\u2019em: " + ", ".join(game.names.get(s) or s for s in winners) + " won"
    return f"Texas hold\u2019em: {str(r.end_reason).replace('_', ' ')}"


def perspectives(replay: Any) -> list[tuple[str, str]]:
    names = log_names(replay)
    return [("all", "all cards open")] + [(s, f"{label(names, s)}\u2019s view") for s in seats_of(replay)]


def view_steps(replay: Any, perspective: str) -> list[dict[str, Any]]:
    """The steps as the perspective may see them (``"all"``: every card open)."""
    return replay.steps_json(None if perspective == "all" else perspective)


def street_starts(steps: list[dict[str, Any]]) -> list[int]:
    """Where each street starts: the last hole card deal (betting starts), each board deal, and
    the first show or muck (the showdown)."""
    starts: list[int] = []
    holes = [s["i"] for s in steps if s.get("kind") == "hole"]
    if holes:
        starts.append(holes[-1])
    starts += [s["i"] for s in steps if s.get("kind") == "board"]
    starts += [s["i"] for s in steps if s.get("kind") in ("show", "muck")][:1]
    return sorted(set(starts))


def chapters(steps: list[dict[str, Any]]) -> dict[str, Any]:
    """The streets as the ↑/↓ keys' chapters (``stepper.js``): each street's start, then the end."""
    ends = street_starts(steps)
    if steps and (not ends or ends[-1] != steps[-1]["i"]):
        ends.append(steps[-1]["i"])
    return {"ends": ends, "before": 0}


def equities(steps: list[dict[str, Any]]) -> list[dict[str, float] | None]:
    """Each step's chance to win per live seat, from the view's own steps (``None`` where there
    is nothing to say); all ``None`` when the steps hold cards the evaluator refuses. The same
    hand seen the same way (another step's page of one view) is worked out once."""
    key = json.dumps([[s.get("kind"), s.get("hole"), s.get("board"), s.get("folded")] for s in steps],
                     separators=(",", ":"))  # the seats in table order, as the steps give them
    return [None if e is None else dict(e) for e in _equities(key)]


@functools.lru_cache(maxsize=256)
def _equities(key: str) -> tuple[dict[str, float] | None, ...]:
    steps = [{"kind": k, "hole": h, "board": b, "folded": f} for k, h, b, f in json.loads(key)]
    try:
        found = step_equities(steps)
    except ValueError:  # cards the engine refused (a card dealt twice): a finding says so, no chart
        return (None,) * len(steps)
    return tuple(None if e is None else {str(s): round(float(v), 4) for s, v in e.items()
                                         if v is not None and math.isfinite(float(v))} for e in found)


# --- the record -----------------------------------------------------------------------------

VERBS = {"fold": "folds", "check": "checks", "call": "calls", "bet": "bets", "raise": "raises to",
         "show": "shows", "muck": "mucks"}


def step_street(step: dict[str, Any]) -> str:
    """The street a step belongs to in the record: the board's size when it was taken (a board
    deal opens the street its cards make), the showdown for a show or a muck.

    >>> step_street({"kind": "board", "board": ["7c", "8d", "2s", "Ah"], "street": "flop"})
    'turn'
    >>> step_street({"kind": "check", "board": ["7c", "8d", "2s", "Ah", "2d"], "street": "showdown"})
    'river'
    """
    if step.get("kind") in ("show", "muck"):
        return "showdown"
    if step.get("kind") == "setup":
        return "preflop"
    return {0: "preflop", 3: "flop", 4: "turn", 5: "river"}.get(len(step.get("board") or []), step.get("street") or "preflop")


def record_words(step: dict[str, Any], names: dict[str, Any], cents: bool) -> str:
    """A step in the record's words, naming no card (the record is in the page from the start:
    a shown hand or a board card must not be read there before the board reaches it)."""
    kind = step.get("kind")
    if kind == "board":
        return {"flop": "the flop", "turn": "the turn", "river": "the river"}.get(step_street(step), "the board")
    who = label(names, step.get("seat"))
    verb = VERBS.get(kind or "")
    if verb is None:
        return who or str(kind or "")
    amount = step.get("amount")
    if kind in ("call", "bet", "raise") and amount is not None:
        return f"{who} {verb} {money(amount, cents)}"
    return f"{who} {verb}"


def record_rows(steps: list[dict[str, Any]], names: dict[str, Any], cents: bool,
                marks: dict[int, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """The record by street: each row a street and its steps (links), hole deals left out."""
    rows: list[dict[str, Any]] = []
    for s in steps:
        if s.get("kind") in ("setup", "hole"):
            continue
        street = step_street(s)
        if not rows or rows[-1]["street"] != street:
            rows.append({"street": street, "name": STREET_NAMES.get(street, street), "entries": []})
        rows[-1]["entries"].append({"i": s["i"], "k": s.get("kind"), "x": record_words(s, names, cents),
                                    "findings": marks.get(s["i"], [])})
    return rows


# --- the table ------------------------------------------------------------------------------

def seat_places(seats: tuple[str, ...], perspective: str) -> dict[str, dict[str, float]]:
    """Where each seat sits around the oval (percent of the table's box), clockwise from the
    bottom: seat 1 there, or the viewing seat in its own view; and where its bet lies, toward
    the middle."""
    n = len(seats)
    turn = seats.index(perspective) if perspective in seats else 0
    places = {}
    for k, seat in enumerate(seats):
        angle = math.pi / 2 + 2 * math.pi * ((k - turn) % n) / n
        c, s = math.cos(angle), math.sin(angle)
        x, y = 50 + 38 * c, 50 + 38 * s
        if abs(s) < 0.45:  # a seat at the side: its bet just above it, clear of the board cards
            bx, by = 50 + 28 * c, y - 12
        else:
            bx, by = 50 + 21 * c, 50 + 23 * s
        places[seat] = {"x": round(x, 2), "y": round(y, 2), "bx": round(bx, 2), "by": round(by, 2)}
    return places


def seat_boxes(step: dict[str, Any], seats: tuple[str, ...], names: dict[str, Any], perspective: str,
               marks: dict[str, str], cents: bool) -> list[dict[str, Any]]:
    places = seat_places(seats, perspective)
    winners = step.get("winners") or []
    eq = step.get("eq") or {}
    boxes = []
    for seat in seats:
        bet = (step.get("bets") or {}).get(seat) or 0
        boxes.append({
            "seat": seat, "name": names.get(seat), "stack": money((step.get("stacks") or {}).get(seat), cents),
            "bet": money(bet, cents) if bet else "", "cards": [card_face(c) for c in (step.get("hole") or {}).get(seat) or []],
            "folded": seat in (step.get("folded") or []), "all_in": seat in (step.get("all_in") or []),
            "to_act": step.get("to_act") == seat, "button": step.get("button") == seat,
            "blind": marks.get(seat, ""), "winner": seat in winners, "me": perspective == seat,
            "eq": f"{round(100 * eq[seat])}%" if seat in eq else "", "place": places[seat],
        })
    return boxes


def pot_lines(step: dict[str, Any], names: dict[str, Any], cents: bool) -> list[str]:
    """The pots in words (the main pot, then the side pots, with their winners once settled)
    when there is more than one that two seats or more contest, or once they are settled; a
    bet nobody has matched yet is not a pot.

    >>> pots = [{"amount": 100, "seats": ["p1", "p2"], "winners": []}, {"amount": 50, "seats": ["p2"], "winners": []}]
    >>> pot_lines({"pots": pots}, {}, False)
    []
    >>> pots.append({"amount": 400, "seats": ["p1", "p2"], "winners": []})
    >>> pot_lines({"pots": pots}, {}, False)
    ['main pot 100', 'side pot 400']
    """
    pots = [p for p in step.get("pots") or [] if len(p.get("seats") or []) >= 2 or p.get("winners")]
    if len(pots) < 2 and not any(p.get("winners") for p in pots):
        return []
    lines = []
    for n, p in enumerate(pots):
        what = "main pot" if n == 0 else f"side pot {n}" if len(pots) > 2 else "side pot"
        line = f"{what} {money(p.get('amount'), cents)}"
        if p.get("winners"):
            line += " \u2192 " + ", ".join(label(names, w) for w in p["winners"])
        lines.append(line)
    return lines


def outcome_text(step: dict[str, Any], names: dict[str, Any], replay: Any, cents: bool) -> str:
    if step.get("last"):
        winners = step.get("winners") or list(getattr(replay, "winners", ()) or ())
        payoffs = step.get("payoffs") or {}
        if winners:
            parts = []
            for w in winners:
                gain = payoffs.get(w)
                parts.append(label(names, w) + (f" +{money(gain, cents)}" if gain and gain > 0 else ""))
            return ", ".join(parts) + " won"
        return "Ended: " + str(getattr(replay, "end_reason", "") or "").replace("_", " ")
    if step.get("to_act"):
        return f"{label(names, step['to_act'])} to act"
    return ""


#: findings whose wording may name a dealt card: a seat's view words them without cards
PRIVATE_FINDINGS = ("duplicate_card", "wrong_deal")
#: a card, or cards written one after another as PHH writes them (``AcAd``, ``Ac??``)
_CARD = re.compile(r"(?<![A-Za-z0-9])(?:[2-9TJQKA][cdhs]|\?\?)+(?![A-Za-z0-9])")


def view_findings(replay: Any, perspective: str) -> list[dict[str, Any]]:
    """The findings as the view may read them: one that could name another seat's hole cards
    names no card in a seat's view.

    >>> from types import SimpleNamespace as N
    >>> f = N(to_json=lambda: {"kind": "duplicate_card", "seat": "p2", "message": "p2: Ac is dealt twice", "step": 2})
    >>> view_findings(N(findings=[f]), "p1")[0]["message"], view_findings(N(findings=[f]), "all")[0]["message"]
    ('p2: a card is dealt twice', 'p2: Ac is dealt twice')
    >>> g = N(to_json=lambda: {"kind": "duplicate_card", "seat": "p1", "step": 9,
    ...                        "message": "p1 shows QhQd, but it was dealt AcAd"})
    >>> view_findings(N(findings=[g]), "p2")[0]["message"], view_findings(N(findings=[g]), "p1")[0]["message"]
    ('p1 shows a card, but it was dealt a card', 'p1 shows a card, but it was dealt a card')
    """
    findings = [f.to_json() for f in replay.findings]
    if perspective == "all":
        return findings
    # the seat's own findings too: "p2 is dealt Ac, a card already dealt" tells who holds Ac
    return [{**f, "message": _CARD.sub("a card", f["message"])} if f["kind"] in PRIVATE_FINDINGS
            else f for f in findings]


def board_view(game: Any, index: int, perspective: str, options: dict[str, Any]) -> dict[str, Any]:
    """Everything the hold'em template and script need at step ``index`` from ``perspective``.

    Only ``view_steps(replay, perspective)`` is read: in a seat's view the other seats' hole
    cards are ``"??"`` until shown, in the page and in the data it embeds.
    """
    replay = game.replay
    seats = seats_of(replay)
    names = {s: game.names.get(s) for s in seats}
    raw = view_steps(replay, perspective)
    eqs = equities(raw)
    steps = [{**s, "x": named(s.get("text") or "", names, seats), "eq": e} for s, e in zip(raw, eqs)]
    current = steps[index]
    cents = uses_cents(steps)
    marks = blind_marks(steps[0], seats) if steps else {}
    findings = view_findings(replay, perspective)
    at: dict[int, list[dict[str, Any]]] = {}
    for f in findings:
        at.setdefault(f["step"], []).append(f)
    starts = street_starts(steps)
    data = {
        "steps": steps,
        "game": {
            "seats": list(seats), "names": names, "winners": list(getattr(replay, "winners", ()) or ()),
            "end": replay.end_reason, "checked": replay.checked, "perspective": perspective,
            "findings": findings, "cents": cents, "blinds": marks,
            "streets": [{"i": i, "street": steps[i].get("street")} for i in starts],
        },
        "chapters": chapters(steps),
    }
    return {
        "seats": seat_boxes(current, seats, names, perspective, marks, cents),
        "board_cards": [card_face(c) for c in current.get("board") or []],
        "board_slots": max(0, 5 - len(current.get("board") or [])),
        "street": STREET_NAMES.get(current.get("street") or "", current.get("street") or ""),
        "pot": money(current.get("pot"), cents),
        "pots": pot_lines(current, names, cents),
        "outcome": outcome_text(current, names, replay, cents),
        "step": {"text": current["x"], "kind": current.get("kind"), "street": current.get("street")},
        "record_rows": record_rows(steps, names, cents, at),
        "perspective_name": label(names, perspective),
        "variant": "fixed-limit" if getattr(replay.log, "variant", "NT") == "FT" else "no-limit",
        "stakes": "/".join(money(v, cents) for v in sorted(v for v in (steps[0].get("blinds") or {}).values() if v)),
        "findings": findings,
        "data": data,
    }


def event_text(event: Any) -> str | None:
    """A logged hold'em event in words for the triage timeline (its seat has a column of its
    own): the PHH notation read out; ``None`` for anything else.

    >>> from types import SimpleNamespace as E
    >>> event_text(E(type="action", action="p3 cbr 300")), event_text(E(type="action", action="d db 7c8d2s"))
    ('bets or raises to 300', 'deals the board: 7c 8d 2s')
    >>> event_text(E(type="action", action="p1 sm AcKd")), event_text(E(type="action", action="p2 f"))
    ('shows Ac Kd', 'folds')
    """
    if getattr(event, "type", None) != "action":
        return None
    words = str(getattr(event, "action", "") or "").split("#")[0].split()
    if not words:
        return None
    if words[0] == "d" and len(words) >= 3:
        if words[1] == "dh" and len(words) >= 4:
            return f"deals {words[2]} hole cards"
        if words[1] == "db":
            cards = words[2]
            return "deals the board: " + " ".join(cards[k:k + 2] for k in range(0, len(cards), 2))
        return None
    if len(words) < 2:
        return None
    what, rest = words[1], words[2:]
    if what == "f":
        return "folds"
    if what == "cc":
        return "checks or calls"
    if what == "cbr" and rest:
        return f"bets or raises to {rest[0]}"
    if what == "sm":
        cards = rest[0] if rest else ""
        return ("shows " + " ".join(cards[k:k + 2] for k in range(0, len(cards), 2))) if cards and cards != "-" else "mucks"
    return None
