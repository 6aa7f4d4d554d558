"""Coup's board data, read from the judged game's public API (``CoupReplay``).

Hidden information stays on the server: a seat's view is built from ``steps_json(seat)`` only,
so no other seat's face-down card, drawn card or exchange, and no bluff that seat could not know,
reaches the page or the data it embeds. The open view (``"all"``) uses ``steps_json()``.

Per step the replay gives ``i``, ``kind``, ``seat``, ``text``, ``turn_text``, ``turn``,
``action``, ``target``, ``card``, ``claim``, ``bluff`` (only where the view may know it),
``hands`` (``None`` for a hand the view cannot see), ``influence``, ``faceup``, ``coins``,
``out``, ``deck_size``, ``to_act``, ``winner`` and ``t``.

The turn's stack and how it resolved, and each seat's claims and challenges, are worked out
here from what the view shows (a claim whose claimant lost the challenge without showing the
card counts as a caught bluff, which every seat saw):

>>> steps = [
...     {"i": 0, "kind": "deal", "seat": None, "text": "dealt", "claim": None, "card": None, "action": None},
...     {"i": 1, "kind": "action", "seat": "2", "text": "2 steals from 3, claiming Captain", "claim": "C",
...      "card": None, "action": "S"},
...     {"i": 2, "kind": "challenge", "seat": "1", "text": "1 challenges", "claim": None, "card": None, "action": None},
...     {"i": 3, "kind": "reveal", "seat": "2", "text": "2 shows Captain", "claim": None, "card": "C", "action": None},
...     {"i": 4, "kind": "lose", "seat": "1", "text": "1 loses Contessa", "claim": None, "card": "E", "action": None}]
>>> turns = read_turns(steps)
>>> [(e["k"], e.get("m")) for e in turns[4]["stack"]]
[('action', 'true'), ('challenge', 'lost'), ('reveal', None), ('lose', None)]
>>> turns[4]["result"], turns[2]["result"]
('the steal goes ahead: its claim was shown', 'the steal is challenged')
>>> claim_counts(steps, ("1", "2", "3"))["1"]
{'claims': 0, 'bluffs': 0, 'caught': 0, 'won': 0, 'lost': 1}
"""

from __future__ import annotations

from typing import Any

#: card letters -> characters' names (the game's own vocabulary)
def card_names() -> dict[str, str]:
    from replay.games.coup.cards import CARD_NAMES, CARD_TEXT

    return dict(zip(CARD_TEXT, CARD_NAMES))


def action_names() -> dict[str, str]:
    from replay.games.coup.cards import ACTION_NAMES

    return dict(ACTION_NAMES)


#: findings whose wording names face-down or drawn cards: another seat's view words them neutrally
PRIVATE_FINDINGS = ("card_not_held", "card_not_in_deck")


def seats_of(replay: Any) -> tuple[str, ...]:
    return tuple(replay.seats)


def title(game: Any) -> str:
    r = game.replay
    turns = f"{r.turns} turn{'' if r.turns == 1 else 's'}"
    if r.winners:
        who = ", ".join(game.names.get(s) or s for s in r.winners)
        return f"Coup: {who} won in {turns}"
    return f"Coup: {str(r.end_reason).replace('_', ' ')} after {turns}"


def perspectives(replay: Any) -> list[tuple[str, str]]:
    return [("all", "all cards open")] + [(s, f"{s}\u2019s view") for s in seats_of(replay)]


def view_steps(replay: Any, perspective: str) -> list[dict[str, Any]]:
    """The steps as the perspective may see them (``"all"``: every card open)."""
    return replay.steps_json(None if perspective == "all" else perspective)


def turn_ends(steps: list[dict[str, Any]]) -> list[int]:
    """The last step of every turn (a turn starts with an action), for the ↑/↓ keys."""
    actions = [s["i"] for s in steps if s["kind"] == "action"]
    ends = [a - 1 for a in actions[1:]]
    if actions:
        ends.append(steps[-1]["i"])
    return ends


def chapters(steps: list[dict[str, Any]]) -> dict[str, Any]:
    return {"ends": turn_ends(steps), "before": 0}


# --- the turn's stack ----------------------------------------------------------------------------

class _Turn:
    """Reads one turn's events in order: its stack entries and where its claims stand."""

    def __init__(self) -> None:
        self.stack: list[dict[str, Any]] = []
        self.action: dict[str, Any] | None = None
        self.block: dict[str, Any] | None = None
        self.pending: dict[str, Any] | None = None  # an unsettled challenge
        self.settled: list[tuple[str, str, str]] = []  # (claim on, winner, loser)

    def entry(self, s: dict[str, Any]) -> dict[str, Any]:
        e: dict[str, Any] = {"i": s["i"], "k": s["kind"], "s": s["seat"], "x": s["text"]}
        kind = s["kind"]
        if kind in ("action", "block") and s.get("claim"):
            e["cl"] = s["claim"]
            if "bluff" in s:
                e["m"] = "bluff" if s["bluff"] else "true"
        if kind == "action":
            e["a"] = s["action"]
            self.action = e
        elif kind == "block":
            self.block = e
        elif kind == "challenge":
            claimant = self.block or self.action
            if claimant is not None and self.pending is None:
                self.pending = {"on": claimant, "by": e, "shown": False}
        elif kind == "reveal":
            p = self.pending
            if p is not None and p["on"]["s"] == s["seat"]:
                p["shown"] = True
                p["on"]["shown"] = True
                p["on"].setdefault("m", "true")
        elif kind == "lose" and self.pending is not None:
            p = self.pending
            if not p["shown"] and p["on"]["s"] == s["seat"]:  # the claim was not shown: caught
                p["on"]["m"] = p["on"].get("m") or "bluff"
                p["on"]["caught"] = True
                p["by"]["m"] = "won"
                self.settled.append(("block" if p["on"] is self.block else "action", p["by"]["s"], s["seat"]))
                self.pending = None
            elif p["shown"] and p["by"]["s"] == s["seat"]:  # the challenger pays
                p["by"]["m"] = "lost"
                self.settled.append(("block" if p["on"] is self.block else "action", s["seat"], p["by"]["s"]))
                self.pending = None
        elif kind == "leave" and self.pending is not None:
            p = self.pending
            if s["seat"] == p["on"]["s"] and not p["shown"]:
                p["on"]["caught"] = True  # a challenged claimant that leaves loses its claim
                self.pending = None
        self.stack.append(e)
        return e

    def result(self) -> str:
        """How the turn stands (or resolved), in words."""
        a = self.action
        if a is None:
            return ""
        name = action_names().get(a.get("a") or "", "action")
        if a.get("caught"):
            return f"the {name} fails: its claim was not shown"
        b = self.block
        if b is not None:
            if b.get("caught"):
                return f"the block fails: the {name} goes ahead"
            if self.pending is not None and self.pending["on"] is b and not self.pending["shown"]:
                return "the block is challenged"
            shown = ": its claim was shown" if b.get("shown") else ""
            return f"{b['s']} blocks the {name}{shown}"
        if self.pending is not None and not self.pending["shown"]:
            return f"the {name} is challenged"
        if a.get("shown"):
            return f"the {name} goes ahead: its claim was shown"
        return f"the {name} goes ahead"


def read_turns(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per step: the turn's stack so far (entries ``i``, ``k`` kind, ``s`` seat, ``x`` text, ``cl``
    claim, ``m`` mark: ``true``/``bluff`` on claims where known, ``won``/``lost`` on settled
    challenges) and ``result``, how the turn stands; ``over`` when the turn is finished."""
    out: list[dict[str, Any]] = []
    turn: _Turn | None = None
    for n, s in enumerate(steps):
        if s["kind"] == "action":
            turn = _Turn()
        if s["kind"] == "deal":
            out.append({"stack": [], "result": "", "over": False})
            continue
        if turn is None:  # events before any action (a seat leaving)
            turn = _Turn()
        turn.entry(s)
        over = n == len(steps) - 1 or steps[n + 1]["kind"] == "action"
        out.append({"stack": [dict(e) for e in turn.stack], "result": turn.result(), "over": over})
    return out


def claim_counts(steps: list[dict[str, Any]], seats: tuple[str, ...]) -> dict[str, dict[str, int]]:
    """Per seat: claims made, bluffs the view knows of (``bluffs``), bluffs caught by a
    challenge (``caught``, public), challenges won and lost."""
    counts = {s: {"claims": 0, "bluffs": 0, "caught": 0, "won": 0, "lost": 0} for s in seats}
    turns = read_turns(steps)
    for n, s in enumerate(steps):
        if s["kind"] in ("action", "block") and s.get("claim") and s["seat"] in counts:
            counts[s["seat"]]["claims"] += 1
        over = turns[n]["over"] or n == len(steps) - 1
        if s["kind"] != "deal" and over:
            for e in turns[n]["stack"]:
                if "cl" in e and e["s"] in counts:
                    if e.get("m") == "bluff":
                        counts[e["s"]]["bluffs"] += 1
                    if e.get("caught"):
                        counts[e["s"]]["caught"] += 1
                if e["k"] == "challenge" and e["s"] in counts and e.get("m") in ("won", "lost"):
                    counts[e["s"]][e["m"]] += 1
    return counts


# --- findings -----------------------------------------------------------------------------------

def view_findings(replay: Any, perspective: str) -> list[dict[str, Any]]:
    """The findings as the view may read them: one about another seat's face-down or drawn cards
    names none of them in a seat's view."""
    findings = [f.to_json() for f in replay.findings]
    if perspective == "all":
        return findings
    out = []
    for f in findings:
        if f["kind"] in PRIVATE_FINDINGS and f.get("seat") != perspective:
            words = f["kind"].replace("_", " ")
            f = {**f, "message": f"{f.get('seat') or 'a seat'}: {words} (its cards are hidden in this view)"
                 + ("; rule checking stops here" if f.get("fatal") else "")}
        out.append(f)
    return out


# --- the page -----------------------------------------------------------------------------------

def compact_steps(steps: list[dict[str, Any]], seats: tuple[str, ...]) -> list[dict[str, Any]]:
    """The view's steps in short keys for board.js: ``k`` kind, ``s`` seat, ``x`` text (the turn
    so far), ``e`` the event's own text, ``turn``, ``c`` coins, ``n`` influence, ``h`` face-down
    cards (``null`` when hidden), ``f`` face-up cards, each in seat order; ``o`` seats out,
    ``deck`` the court deck's size, ``ta`` to act, ``w`` winner, ``st`` the turn's stack, ``r``
    how it stands, ``ov`` whether the turn is over."""
    turns = read_turns(steps)
    out = []
    for s, turn in zip(steps, turns):
        item = {
            "i": s["i"], "k": s["kind"], "s": s["seat"], "x": s["turn_text"] or s["text"], "e": s["text"],
            "turn": s["turn"], "c": [s["coins"][seat] for seat in seats],
            "n": [s["influence"][seat] for seat in seats], "h": [s["hands"][seat] for seat in seats],
            "f": [s["faceup"][seat] for seat in seats], "o": list(s["out"]), "deck": s["deck_size"],
            "ta": s["to_act"], "w": s["winner"], "st": turn["stack"], "r": turn["result"], "ov": turn["over"],
        }
        if s.get("t") is not None:
            item["t"] = s["t"]
        out.append(item)
    return out


def turn_rows(steps: list[dict[str, Any]], marks: dict[int, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """The record: one row per turn with its events (each a link to its step) and result."""
    turns = read_turns(steps)
    rows: list[dict[str, Any]] = []
    for n, s in enumerate(steps):
        if s["kind"] == "deal":
            continue
        if s["kind"] == "action" or not rows:
            rows.append({"number": len(rows) + 1, "seat": s["seat"] if s["kind"] == "action" else None})
        rows[-1]["stack"] = [{**e, "findings": marks.get(e["i"], [])} for e in turns[n]["stack"]]
        rows[-1]["result"] = turns[n]["result"]
        rows[-1]["last_step"] = s["i"]
    return rows


def seat_boxes(current: dict[str, Any], seats: tuple[str, ...], names: dict[str, Any],
               perspective: str) -> list[dict[str, Any]]:
    boxes = []
    for seat in seats:
        hand = current["hands"][seat]
        boxes.append({
            "seat": seat, "name": names.get(seat), "coins": current["coins"][seat],
            "influence": current["influence"][seat], "down": hand, "up": current["faceup"][seat],
            "out": seat in current["out"], "to_act": current["to_act"] == seat,
            "winner": current["winner"] == seat, "me": perspective == seat,
        })
    return boxes


def board_view(game: Any, index: int, perspective: str, options: dict[str, Any]) -> dict[str, Any]:
    """Everything the Coup template and script need at step ``index`` from ``perspective``.

    Only ``view_steps(replay, perspective)`` is read for the position, the record and the
    embedded steps: in a seat's view the other seats' face-down cards are not in it.
    """
    replay = game.replay
    seats = seats_of(replay)
    steps = view_steps(replay, perspective)
    current = steps[index]
    findings = view_findings(replay, perspective)
    marks: dict[int, list[dict[str, Any]]] = {}
    for f in findings:
        marks.setdefault(f["step"], []).append(f)
    counts = claim_counts(steps, seats)
    compact = compact_steps(steps, seats)
    names = {s: game.names.get(s) for s in seats}
    last = len(steps) - 1
    data = {
        "steps": compact,
        "game": {
            "seats": list(seats), "names": names, "winners": list(replay.winners), "turns": replay.turns,
            "findings": findings, "end": replay.end_reason, "checked": replay.checked,
            "perspective": perspective, "cards": card_names(), "counts": counts,
        },
        "chapters": chapters(steps),
    }
    now = compact[index]
    return {
        "seats": seat_boxes(current, seats, names, perspective),
        "counts": [{"seat": s, **counts[s]} for s in seats],
        "cards": card_names(),
        "deck_size": current["deck_size"],
        "stack": now["st"], "result": now["r"], "over": now["ov"], "turn": current["turn"],
        "outcome": {"winners": list(replay.winners), "end": replay.end_reason, "turns": replay.turns,
                    "final": index == last},
        "step": {"text": now["x"], "kind": current["kind"], "turn": current["turn"]},
        "turn_rows": turn_rows(steps, marks),
        "findings": findings,
        "data": data,
    }
