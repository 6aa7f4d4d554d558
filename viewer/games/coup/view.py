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

import re
from typing import Any

from .. import log_names, seat_label as label
from replay.games.coup.cards import CARD_NAMES, CARD_TEXT
from replay.games.coup.cards import ACTION_NAMES


#: card letters -> characters' names (the game's own vocabulary)
def card_names() -> dict[str, str]:

    return dict(zip(CARD_TEXT, CARD_NAMES))


def action_names() -> dict[str, str]:

    return dict(ACTION_NAMES)


#: findings whose wording names face-down or drawn cards: another seat's view words them neutrally
PRIVATE_FINDINGS = ("card_not_held", "card_not_in_deck")


def seats_of(replay: Any) -> tuple[str, ...]:
    return tuple(replay.seats)


#: stands for a seat while the replay words a step, so that names never meet its wording
_TOKEN = "\x00{}\x00"
_TOKENS = re.compile("\x00(\\d+)\x00")


def named_texts(replay: Any, perspective: str, names: dict[str, Any]) -> list[dict[str, str]]:
    """Each step's ``text`` and ``turn_text`` as ``steps_json(perspective)`` words them, with
    every seat written as its player's name, and ``plain``, the text without the "(true)" or
    "(a bluff)" that the record shows as a mark instead. The replay words each step with a
    stand-in for every seat, and the stand-ins become names afterwards (two players of one
    name still read right, and a name is never mistaken for a seat).

    >>> from replay.games.coup.bots import play_game
    >>> from replay.games.coup.replay import CoupReplay
    >>> replay = CoupReplay.from_log(play_game(seed=7, bots=("honest", "bluffer", "random")))
    >>> texts = named_texts(replay, "all", {"2": "Bo"})
    >>> texts[0]["text"]
    'The cards are dealt: 3 seats, 2 cards and 2 coins each; Bo moves first'
    >>> texts[1]["text"], texts[1]["plain"]
    ('Bo collects tax, claiming Duke (a bluff)', 'Bo collects tax, claiming Duke')
    """
    seats = seats_of(replay)
    tokens = {seat: _TOKEN.format(n) for n, seat in enumerate(seats)}
    shown = [label(names, seat) for seat in seats]
    viewer = None if perspective == "all" else tokens.get(perspective, perspective)

    def words(text: str) -> str:  # one pass: a name is never read again, whatever it holds
        return _TOKENS.sub(lambda m: shown[int(m.group(1))], text)

    own, plain = [], []
    for step in replay.steps:
        stand_in = step._replace(**{k: tokens.get(getattr(step, k), getattr(step, k))
                                    for k in ("seat", "target", "winner", "to_act")})
        own.append(stand_in.text_for(viewer))
        plain.append(stand_in._replace(bluff=None).text_for(viewer))
    out = []
    for step, text, bare in zip(replay.steps, own, plain):
        start, end = step.turn_start, step.index + 1
        turn = [t for x, t in zip(replay.steps[start:end], own[start:end]) if x.kind != "deal"]
        out.append({"text": words(text), "turn_text": words("; ".join(turn)), "plain": words(bare)})
    return out


def title(game: Any) -> str:
    r = game.replay
    turns = f"{r.turns} turn{'' if r.turns == 1 else 's'}"
    if r.winners:
        who = ", ".join(game.names.get(s) or s for s in r.winners)
        return f"Coup: {who} won in {turns}"
    return f"Coup: {str(r.end_reason).replace('_', ' ')} after {turns}"


def perspectives(replay: Any) -> list[tuple[str, str]]:
    names = log_names(replay)
    return [("all", "all cards open")] + [(s, f"{label(names, s)}\u2019s view") for s in seats_of(replay)]


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

    def __init__(self, names: dict[str, Any] | None = None) -> None:
        self.names = names or {}
        self.stack: list[dict[str, Any]] = []
        self.action: dict[str, Any] | None = None
        self.block: dict[str, Any] | None = None
        self.pending: dict[str, Any] | None = None  # an unsettled challenge
        self.settled: list[tuple[str, str, str]] = []  # (claim on, winner, loser)

    def entry(self, s: dict[str, Any]) -> dict[str, Any]:
        e: dict[str, Any] = {"i": s["i"], "k": s["kind"], "s": s["seat"], "x": s.get("plain") or s["text"]}
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
            return f"{label(self.names, b['s'])} blocks the {name}{shown}"
        if self.pending is not None and not self.pending["shown"]:
            return f"the {name} is challenged"
        if a.get("shown"):
            return f"the {name} goes ahead: its claim was shown"
        return f"the {name} goes ahead"


def read_turns(steps: list[dict[str, Any]], names: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Per step: the turn's stack so far (entries ``i``, ``k`` kind, ``s`` seat, ``x`` text, ``cl``
    claim, ``m`` mark: ``true``/``bluff`` on claims where known, ``won``/``lost`` on settled
    challenges) and ``result``, how the turn stands; ``over`` when the turn is finished."""
    out: list[dict[str, Any]] = []
    turn: _Turn | None = None
    for n, s in enumerate(steps):
        if s["kind"] == "action":
            turn = _Turn(names)
        if s["kind"] == "deal":
            out.append({"stack": [], "result": "", "over": False})
            continue
        if turn is None:  # events before any action (a seat leaving)
            turn = _Turn(names)
        turn.entry(s)
        over = n == len(steps) - 1 or steps[n + 1]["kind"] == "action"
        out.append({"stack": [dict(e) for e in turn.stack], "result": turn.result(), "over": over})
    return out


COUNT_KEYS = ("claims", "bluffs", "caught", "won", "lost")


def count_changes(steps: list[dict[str, Any]], seats: tuple[str, ...]) -> list[list[Any]]:
    """When each seat's claims and challenges counts go up: ``[step, seat, key]``, one entry per
    unit, in step order. The counts at step ``i`` are the entries up to ``i``: a claim counts
    from its step, a mark (a bluff the view knows of, a caught bluff, a challenge won or lost)
    from the step that settles it, so the table never shows what comes later.

    >>> steps = [{"i": 0, "kind": "deal", "seat": None, "text": "", "claim": None, "card": None, "action": None},
    ...     {"i": 1, "kind": "action", "seat": "1", "text": "", "claim": "D", "card": None, "action": "T"},
    ...     {"i": 2, "kind": "challenge", "seat": "2", "text": "", "claim": None, "card": None, "action": None},
    ...     {"i": 3, "kind": "lose", "seat": "1", "text": "", "claim": None, "card": "E", "action": None}]
    >>> count_changes(steps, ("1", "2"))
    [[1, '1', 'claims'], [3, '1', 'bluffs'], [3, '1', 'caught'], [3, '2', 'won']]
    """
    zero = {s: dict.fromkeys(COUNT_KEYS, 0) for s in seats}
    done = {s: dict(c) for s, c in zero.items()}  # marks of finished turns
    before = {s: dict(c) for s, c in zero.items()}
    claims = dict.fromkeys(seats, 0)
    changes: list[list[Any]] = []
    for n, (s, turn) in enumerate(zip(steps, read_turns(steps))):
        if s["kind"] in ("action", "block") and s.get("claim") and s["seat"] in claims:
            claims[s["seat"]] += 1
        now = {seat: dict(c) for seat, c in done.items()}
        if s["kind"] != "deal":
            for e in turn["stack"]:
                if "cl" in e and e["s"] in now:
                    now[e["s"]]["bluffs"] += e.get("m") == "bluff"
                    now[e["s"]]["caught"] += bool(e.get("caught"))
                if e["k"] == "challenge" and e["s"] in now and e.get("m") in ("won", "lost"):
                    now[e["s"]][e["m"]] += 1
            if turn["over"]:
                done = {seat: dict(c) for seat, c in now.items()}
        for seat in seats:
            now[seat]["claims"] = claims[seat]
            for key in COUNT_KEYS:
                changes.extend([s["i"], seat, key] for _ in range(now[seat][key] - before[seat][key]))
        before = now
    return changes


def claim_counts(steps: list[dict[str, Any]], seats: tuple[str, ...],
                 upto: int | None = None) -> dict[str, dict[str, int]]:
    """Per seat, at step ``upto`` (``None``: the last): claims made, bluffs the view knows of
    (``bluffs``), bluffs caught by a challenge (``caught``, public), challenges won and lost."""
    return tally(count_changes(steps, seats), seats, upto)


def tally(changes: list[list[Any]], seats: tuple[str, ...], upto: int | None = None) -> dict[str, dict[str, int]]:
    """The counts that ``count_changes`` gives, up to step ``upto`` (``None``: all)."""
    counts = {s: dict.fromkeys(COUNT_KEYS, 0) for s in seats}
    for step, seat, key in changes:
        if upto is not None and step > upto:
            break
        counts[seat][key] += 1
    return counts


# --- the triage timeline ------------------------------------------------------------------------

def event_text(event: Any) -> str | None:
    """A logged Coup event in words for the triage timeline (its seat has a column of its own):
    the action's and the cards' names for the log's letters; ``None`` for an event this does
    not know (triage then names its fields).

    >>> from types import SimpleNamespace as E
    >>> event_text(E(type="action", seat="2", action="S", target="3")), event_text(E(type="block", card="E"))
    ('steal from 3', 'block, claiming Contessa')
    >>> event_text(E(type="exchange", drawn=["A", "B"], kept=["C"])), event_text(E(type="coins", coins=4))
    ('exchange: draws Assassin and Ambassador, keeps Captain', 'coins: 4')
    """
    # as the log writes it: cards are letters there (numbers inside)
    written = event.model_dump(mode="json") if hasattr(event, "model_dump") else dict(vars(event))
    kind = written.get("type")
    cards = card_names()

    def card(letter: Any) -> str:
        return cards.get(str(letter), str(letter))

    if kind == "action":
        name = action_names().get(written.get("action") or "", "an action")
        target = written.get("target")
        into = {"coup": "against", "assassinate": "", "steal": "from"}.get(name)
        return name if not target else f"{name} {into + ' ' if into else ''}{target}"
    if kind == "block":
        return f"block, claiming {card(written.get('card', '?'))}"
    if kind in ("reveal", "lose"):
        return f"{'shows' if kind == 'reveal' else 'loses'} {card(written.get('card', '?'))}"
    if kind == "replace":
        return f"draws {card(written.get('card', '?'))} as a replacement"
    if kind == "exchange":
        drawn = " and ".join(card(c) for c in written.get("drawn") or []) or "nothing"
        kept = " and ".join(card(c) for c in written.get("kept") or []) or "nothing"
        return f"exchange: draws {drawn}, keeps {kept}"
    if kind == "illegal":
        reason = written.get("reason")
        return f"refused: {written.get('message') or '?'}" + (f" ({reason})" if reason else "")
    if kind == "coins" and written.get("coins") is not None:
        return f"coins: {written['coins']}"
    if kind in ("challenge", "leave"):
        return "challenges" if kind == "challenge" else "leaves the game"
    return None


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

def compact_steps(steps: list[dict[str, Any]], seats: tuple[str, ...],
                  names: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The view's steps in short keys for board.js: ``k`` kind, ``s`` seat, ``x`` text (the turn
    so far), ``e`` the event's own text, ``turn``, ``c`` coins, ``n`` influence, ``h`` face-down
    cards (``null`` when hidden), ``f`` face-up cards, each in seat order; ``o`` seats out,
    ``deck`` the court deck's size, ``ta`` to act, ``w`` winner, ``st`` the turn's stack, ``r``
    how it stands, ``ov`` whether the turn is over."""
    turns = read_turns(steps, names)
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


def turn_rows(steps: list[dict[str, Any]], marks: dict[int, list[dict[str, Any]]],
              names: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The record: one row per turn with its events (each a link to its step) and result."""
    turns = read_turns(steps, names)
    rows: list[dict[str, Any]] = []
    for n, s in enumerate(steps):
        if s["kind"] == "deal":
            continue
        if s["kind"] == "action" or not rows:
            seat = s["seat"] if s["kind"] == "action" else None
            rows.append({"number": len(rows) + 1, "seat": seat, "name": label(names or {}, seat) or None})
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
    names = {s: game.names.get(s) for s in seats}
    steps = [{**s, **words} for s, words in zip(view_steps(replay, perspective), named_texts(replay, perspective, names))]
    current = steps[index]
    findings = view_findings(replay, perspective)
    marks: dict[int, list[dict[str, Any]]] = {}
    for f in findings:
        marks.setdefault(f["step"], []).append(f)
    changes = count_changes(steps, seats)
    counts = tally(changes, seats, index)  # as of the step shown: board.js follows the stepper
    compact = compact_steps(steps, seats, names)
    last = len(steps) - 1
    data = {
        "steps": compact,
        "game": {
            "seats": list(seats), "names": names, "winners": list(replay.winners), "turns": replay.turns,
            "findings": findings, "end": replay.end_reason, "checked": replay.checked,
            "perspective": perspective, "cards": card_names(), "count_changes": changes,
        },
        "chapters": chapters(steps),
    }
    now = compact[index]
    return {
        "seats": seat_boxes(current, seats, names, perspective),
        "counts": [{"seat": s, "name": names.get(s), **counts[s]} for s in seats],
        "cards": card_names(),
        "deck_size": current["deck_size"],
        "stack": now["st"], "result": now["r"], "over": now["ov"], "turn": current["turn"],
        "outcome": {"winners": list(replay.winners), "end": replay.end_reason, "turns": replay.turns,
                    "final": index == last},
        "step": {"text": now["x"], "kind": current["kind"], "turn": current["turn"]},
        "turn_rows": turn_rows(steps, marks, names),
        "perspective_name": label(names, perspective),
        "winner_names": [label(names, w) for w in replay.winners],
        "findings": findings,
        "data": data,
    }
