"""Coup's picture of a step: every seat's name plate, coins and influence cards (face down where
the view hides them, lost ones face up and crossed out), what the step did in the players'
names, the seat to act and, at the end, the winner.

>>> from replay.picture.scene import PUBLIC, Table, Text
>>> from replay.games.coup import GAME
>>> replay = GAME.judge(GAME.selfplay(seed=7, bots=("honest", "bluffer", "random")))
>>> steps = GAME.view_steps(replay, PUBLIC)
>>> steps[0]["hands"], steps[0]["deck"]
({'1': None, '2': None, '3': None}, None)
>>> scene = draw(Table("Coup", ("1", "2", "3"), {"1": "Ann"}, PUBLIC), steps[:1])
>>> [i.text for i in scene.items if isinstance(i, Text)][:4]
['Coup', '3 players', 'Ann', '2']
>>> last = draw(Table("Coup", ("1", "2", "3"), {"1": "Ann"}), GAME.view_steps(replay, None))
>>> [i.text for i in last.items if isinstance(i, Text) and i.text.startswith("Ann")]
['Ann', 'Ann wins']

The onlooker's view (``GameModule.view_steps``'s default, ``common_view`` of the seats' views)
is what every seat saw: a field that any two seats saw differently (a hand, a replacement card,
an exchange, whether a claim was a bluff) is hidden.
"""

from __future__ import annotations

from typing import Any, Sequence

from ...picture.kit import card, card_back, header, plate, short_name
from ...picture.scene import BLACK, HIGHLIGHT, INK, MUTED, PANEL, RED, WIDTH, Circle, Item, Rect, Scene, Table, Text
from ...picture.text import fit
from .cards import CARD_NAMES, CARD_TEXT

#: each character's name and the colour of its card's face
NAMES = dict(zip(CARD_TEXT, CARD_NAMES))
FACES = {"D": "#7e22ce", "A": "#1f2937", "B": "#15803d", "C": "#b45309", "E": "#b91c1c"}
LOST_FACE = "#6b7280"
CARD_W, CARD_H = 132, 130
COLUMN_W = 400
PLATE_W = 280
COIN, COIN_EDGE = "#facc15", "#a16207"
#: the rows of seats: (plate's centre y, cards' top y)
ROWS = ((90, 122), (398, 430))
#: a name inside a sentence is cut to this width (the sentence is cut again as a whole)
NAME_W = 260

_ACTIONS = {
    "I": "{who} takes income", "F": "{who} takes foreign aid", "C": "{who} launches a coup against {target}",
    "T": "{who} collects tax", "A": "{who} assassinates {target}", "S": "{who} steals from {target}",
    "X": "{who} exchanges with the deck",
}




def _name(table: Table, seat: str | None) -> str:
    """A player's name as a sentence names them (cut to ``NAME_W``)."""
    return fit(table.name(seat), 24, True, NAME_W) if seat is not None else "nobody"


def _claimant(steps: Sequence[dict[str, Any]]) -> str | None:
    """Whose claim the last step's challenge is aimed at: the turn's latest block, else its action."""
    for step in reversed(steps[:-1]):
        if step["kind"] in ("block", "action"):
            return step["seat"]
    return None


def caption(table: Table, steps: Sequence[dict[str, Any]]) -> str:
    """The last step in words, with the players' names.

    >>> t = Table("Coup", ("1", "2"), {"1": "Ann", "2": "Bo"})
    >>> caption(t, [{"kind": "action", "seat": "1", "action": "S", "target": "2", "claim": "C", "bluff": True, "out": []}])
    'Ann steals from Bo, claiming Captain (a bluff)'
    >>> caption(t, [{"kind": "action", "seat": "1", "action": "S", "target": "2", "claim": "C", "out": []},
    ...             {"kind": "challenge", "seat": "2", "out": []}])
    "Bo challenges Ann's claim"
    """
    step = steps[-1]
    kind, seat = step["kind"], step["seat"]
    who = _name(table, seat)
    if kind == "deal":
        return "The cards are dealt"
    if kind == "action":
        text = _ACTIONS.get(step["action"], "{who} acts").format(who=who, target=_name(table, step.get("target")))
        if step.get("claim"):
            text += f", claiming {NAMES.get(step['claim'], '?')}" + _bluff(step)
    elif kind == "challenge":
        claimant = _claimant(steps)
        text = f"{who} challenges" + (f" {_name(table, claimant)}'s claim" if claimant else "")
    elif kind == "block":
        text = f"{who} blocks, claiming {NAMES.get(step.get('card'), '?')}" + _bluff(step)
    elif kind == "reveal":
        text = f"{who} shows {NAMES.get(step.get('card'), '?')}: the claim was true"
    elif kind == "replace":
        card_ = step.get("card")
        text = f"{who} draws {NAMES[card_]} as a replacement" if card_ in NAMES else f"{who} draws a replacement card"
    elif kind == "lose":
        text = f"{who} loses {NAMES.get(step.get('card'), 'an influence')}"
    elif kind == "exchange":
        drawn, kept = step.get("drawn"), step.get("kept")
        if drawn and kept is not None:
            text = (f"{who} draws {' and '.join(NAMES.get(c, '?') for c in drawn)}, keeps "
                    f"{' and '.join(NAMES.get(c, '?') for c in kept) or 'nothing'}")
        else:
            text = f"{who} exchanges two cards with the deck"
    elif kind == "leave":
        text = f"{who} leaves the game"
    else:
        text = who
    if kind in ("lose", "leave") and seat in step.get("out", ()) and kind != "leave":
        text += " and is out"
    return text


def _bluff(step: dict[str, Any]) -> str:
    bluff = step.get("bluff")
    return "" if bluff is None else " (a bluff)" if bluff else " (true)"


def _columns(count: int) -> list[float]:
    """The centres of ``count`` columns across the canvas."""
    left = (WIDTH - count * COLUMN_W) / 2
    return [left + COLUMN_W * (n + 0.5) for n in range(count)]


def _card(x: float, y: float, letter: str | None, lost: bool = False, lit: bool = False) -> list[Item]:
    """An influence card: its back (``None``), its face, or a lost one, greyed and crossed out."""
    if letter is None:
        return list(card_back(x, y, CARD_W, CARD_H))
    name = NAMES.get(letter, "?")
    if not lost:
        return list(card(x, y, name, colour=INK, w=CARD_W, h=CARD_H, face=FACES.get(letter, LOST_FACE), lit=lit,
                         size=18))
    items = list(card(x, y, name, colour="#f3f4f6", w=CARD_W, h=CARD_H, face=LOST_FACE, lit=lit, size=18))
    items += [Rect(x + 30, y + CARD_H - 34, CARD_W - 60, 24, fill=RED, radius=4),
              Text(x + CARD_W / 2, y + CARD_H - 22, "lost", 18, fill=INK, anchor="mm", bold=True, max_width=CARD_W - 60)]
    return items


def _seat(table: Table, step: dict[str, Any], seat: str, cx: float, row: tuple[int, int]) -> list[Item]:
    coins = step["coins"].get(seat, 0)
    out = seat in (step.get("out") or ()) and step.get("winner") != seat
    items = list(plate(cx, row[0], short_name(table, seat), "out of the game" if out else "", to_act=step.get("to_act") == seat,
                       won=step.get("winner") == seat, w=PLATE_W, h=48))
    # the coins: a gold coin beside the plate
    items += [Circle(cx + PLATE_W / 2 + 30, row[0], 22, fill=COIN, stroke=COIN_EDGE, stroke_width=2),
              Text(cx + PLATE_W / 2 + 30, row[0], str(coins), 20, fill=BLACK, anchor="mm", bold=True, max_width=42)]
    lost = list(step["faceup"].get(seat) or [])
    hidden = step["influence"].get(seat, 0)
    hand = (step.get("hands") or {}).get(seat)
    slots: list[tuple[str | None, bool]] = [(c, True) for c in lost]
    slots += [(hand[n] if hand is not None and n < len(hand) else None, False) for n in range(hidden)]
    just_lost = step["kind"] == "lose" and step["seat"] == seat
    x0 = cx - (len(slots) * CARD_W + (len(slots) - 1) * 12) / 2
    for n, (letter, is_lost) in enumerate(slots):
        lit = just_lost and is_lost and n == len(lost) - 1
        items += _card(x0 + n * (CARD_W + 12), row[1], letter, is_lost, lit)
    return items



def draw(table: Table, steps: Sequence[dict[str, Any]]) -> Scene:
    """The last of ``steps`` as a picture (1200x630)."""
    step = steps[-1]
    turn = step.get("turn") or 0
    items: list[Item] = list(header(table.title, f"{len(table.seats)} players" if step["kind"] == "deal" else f"Turn {turn}"))
    seats = list(table.seats)
    top = seats[:(len(seats) + 1) // 2]
    rows = (top, seats[len(top):])
    for row, placed in zip(ROWS, rows):
        for seat, cx in zip(placed, _columns(len(placed))):
            items += _seat(table, step, seat, cx, row)
    # the middle band: what this step did, the turn it belongs to, who acts next
    items.append(Rect(24, 266, WIDTH - 48, 94, fill=PANEL, radius=10))
    winner = step.get("winner")
    line = caption(table, steps)
    if winner is not None:
        line = f"{_name(table, winner)} wins"
    items.append(Text(WIDTH / 2, 293, line, 26, fill=HIGHLIGHT if winner is not None else INK, anchor="mm",
                      bold=True, max_width=WIDTH - 80))
    context = _context(table, steps)
    if context:
        items.append(Text(WIDTH / 2, 336, context, 20, fill=MUTED, anchor="mm", max_width=WIDTH - 80))
    deck = step.get("deck_size")
    if deck is not None:
        items.append(Text(WIDTH - 30, 618, f"Deck: {deck} card{'s' if deck != 1 else ''}", 18, fill=MUTED,
                          anchor="rb", max_width=300))
    where = "the deal" if step["kind"] == "deal" else f"turn {turn}"
    alt = f"{table.title}, {', '.join(short_name(table, s, 300) for s in seats)}; {where}: {line}"
    return Scene(items=tuple(items), alt=alt)


def _context(table: Table, steps: Sequence[dict[str, Any]]) -> str:
    """The second line: the winner's last move, the turn's action when this step answers it, or
    who is to act."""
    step = steps[-1]
    if step.get("winner") is not None and step["kind"] != "deal":
        return caption(table, steps)
    parts = []
    if step["kind"] not in ("deal", "action"):
        action = next((s for s in reversed(steps[:-1]) if s["kind"] == "action"), None)
        if action is not None and action.get("turn") == step.get("turn"):
            parts.append(caption(table, [action]))
    if step.get("to_act") is not None:
        parts.append(f"{_name(table, step['to_act'])} to act")
    return " · ".join(parts)
