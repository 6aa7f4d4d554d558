"""Floating bridge's picture of a step: the four seats around the table (North at the top,
South at the bottom, West on the left, East on the right), each hand as cards (face down where
the view does not see it), the auction or the trick under way in the middle, the contract and
the partner card in the top left corner, the sides' tricks in the top right one, and the step
in the players' names in the header.

The drawing sees only the steps ``GAME.view_steps`` hands it (``GameReplay.steps_json`` as the
view saw them): a hand the view does not see is ``null`` there, so it is drawn as card backs.

>>> from replay.picture.scene import PUBLIC, Table, Text
>>> from replay.games.floating_bridge.bots import play_game
>>> from replay.games.floating_bridge import GAME
>>> replay = play_game(seed=7).replay()
>>> table = Table("Floating bridge", ("N", "E", "S", "W"), {"N": "Ann", "E": "Bob"}, PUBLIC)
>>> scene = draw(table, GAME.view_steps(replay, PUBLIC)[:1])
>>> caption(table, GAME.view_steps(replay, PUBLIC)[:1])
'The deal: Ann bids first'
>>> texts = [i.text for i in scene.items if isinstance(i, Text)]
>>> "Ann" in texts and "Bob" in texts and "S" in texts
True
>>> label("ST"), label("H2")
('10♠', '2♥')
"""

from __future__ import annotations

from typing import Any, Sequence

from ...picture.kit import card, card_back, header, plate
from ...picture.scene import (BLACK, HIGHLIGHT, INK, MUTED, PANEL, Item, Rect, Scene, Table, Text)

SEATS = ("N", "E", "S", "W")
SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
#: a hand's order on the table: suits alternate black and red, ranks high to low
SUIT_ORDER = "SHCD"
RANK_ORDER = "AKQJT98765432"
STRAIN_SYMBOL = {**SUIT_SYMBOL, "N": "NT"}

#: a card in a hand, and one in the trick
HAND_W, HAND_H = 48, 66
#: a hand card's label size: ``10♣`` fits a card of ``HAND_W`` (cards side by side, edge to edge)
HAND_LABEL = 18
TRICK_W, TRICK_H = 56, 80
#: North's and South's hands: one row of 13; West's and East's: two rows of 7 and 6
ROW_STEP = 48
SIDE_STEP = 48
SIDE_ROW = 7
NS_X = 600 - (12 * ROW_STEP + HAND_W) / 2
#: where each seat sits: (plate centre x, plate centre y, first card x, first card y)
PLATE_W, PLATE_H = 220, 44
PLACES = {
    "N": (600, 84, NS_X, 110),
    "S": (600, 586, NS_X, 488),
    "W": (124, 226, 12, 256),
    "E": (1200 - 12 - (SIDE_ROW - 1) * SIDE_STEP - HAND_W + PLATE_W / 2, 226,
          1200 - 12 - (SIDE_ROW - 1) * SIDE_STEP - HAND_W, 256),
}
#: the middle of the table (the trick, the auction)
MID_X, MID_Y = 600, 330
TRICK_AT = {
    "N": (MID_X - TRICK_W / 2, MID_Y - TRICK_H - 14),
    "S": (MID_X - TRICK_W / 2, MID_Y + 14),
    "W": (MID_X - TRICK_W - 60, MID_Y - TRICK_H / 2),
    "E": (MID_X + 60, MID_Y - TRICK_H / 2),
}
#: a name in a caption is cut to this many characters (the header cuts the whole line too)
NAME_CHARS = 16


def label(code: str) -> str:
    """A card as the picture shows it: ``SK`` -> ``K♠``, ``HT`` -> ``10♥``."""
    rank = code[1:]
    return ("10" if rank == "T" else rank) + SUIT_SYMBOL.get(code[:1], code[:1])


def call_label(code: str) -> str:
    """A call as the picture shows it: ``2H`` -> ``2♥``, ``3NT`` -> ``3NT``, ``pass`` -> ``Pass``."""
    if code.lower() == "pass":
        return "Pass"
    return code[:1] + STRAIN_SYMBOL.get(code[1:2], code[1:])


def _sorted(cards: list[str]) -> list[str]:
    return sorted(cards, key=lambda c: (SUIT_ORDER.find(c[:1]), RANK_ORDER.find(c[1:])))


def _short(name: str) -> str:
    return name if len(name) <= NAME_CHARS else name[:NAME_CHARS - 1] + "…"


class _Story:
    """What the steps so far tell: the calls, the contract, the partner card, the result."""

    def __init__(self, steps: Sequence[dict[str, Any]]):
        self.calls: list[tuple[str, str]] = []
        self.contract: str | None = None
        self.declarer: str | None = None
        self.partner_card: str | None = None
        self.first_bidder: str | None = steps[0].get("to_act")
        for step in steps:
            if step["kind"] == "call":
                self.calls.append((step["seat"], step["action"]))
                if step["action"].lower() != "pass":
                    self.contract, self.declarer = step["action"], step["seat"]
            elif step["kind"] == "partner":
                self.partner_card = step["action"]
        last = steps[-1]
        self.partner: str | None = last.get("partner")
        self.over = last["phase"] == "over"
        self.auction_over = last["phase"] != "auction"
        self.needed = 6 + int(self.contract[0]) if self.contract else None
        self.winners: tuple[str, ...] = ()
        self.declarer_won: bool | None = None
        side = last.get("declarer_side_tricks")
        if self.over and self.contract and self.declarer and side is not None:
            self.declarer_won = side >= self.needed
            team = {self.declarer, self.partner or self.declarer}
            self.winners = tuple(s for s in SEATS if (s in team) == self.declarer_won)

    def team_names(self, table: Table, seats: Sequence[str]) -> str:
        return " and ".join(_short(table.name(s)) for s in seats)


def caption(table: Table, steps: Sequence[dict[str, Any]]) -> str:
    """The header's line for the last of ``steps``, in the players' names."""
    step = steps[-1]
    story = _Story(steps)
    who = _short(table.name(step["seat"])) if step["seat"] else ""
    kind = step["kind"]
    if kind == "deal":
        text = "The deal" + (f": {_short(table.name(step['to_act']))} bids first" if step.get("to_act") else "")
    elif kind == "call":
        action = step["action"]
        text = f"{who} passes" if action.lower() == "pass" else f"{who} bids {call_label(action)}"
    elif kind == "partner":
        text = f"{who} calls {label(step['action'])} as partner card"
    else:
        text = f"Trick {step['trick_number']}: {who} plays {label(step['action'])}"
        if step.get("trick_winner"):
            text += f", {_short(table.name(step['trick_winner']))} wins it"
    if story.over and story.contract is None:
        text += ": passed out"
    elif story.winners:
        last = steps[-1]
        made = last["declarer_side_tricks"] if story.declarer_won else last["defender_tricks"]
        text = f"{story.team_names(table, story.winners)} win with {made} tricks"
    return text


def _hand(seat: str, step: dict[str, Any], view_all: bool) -> list[Item]:
    hand = step["hands"].get(seat)
    count = len(hand) if hand is not None else step.get("hand_sizes", {}).get(seat, 0)
    _, _, x0, y0 = PLACES[seat]
    labels: list[str | None] = _sorted(hand) if hand is not None else [None] * count
    items: list[Item] = []
    for n, code in enumerate(labels):
        if seat in ("N", "S"):
            x, y = x0 + n * ROW_STEP, y0
        else:
            x, y = x0 + (n % SIDE_ROW) * SIDE_STEP, y0 + (n // SIDE_ROW) * (HAND_H + 6)
        items.extend(card_back(x, y, HAND_W, HAND_H) if code is None else card(x, y, label(code), w=HAND_W, h=HAND_H,
                                                                                 size=HAND_LABEL))
    return items


def _seat(table: Table, seat: str, step: dict[str, Any], story: _Story) -> list[Item]:
    cx, cy, x0, _ = PLACES[seat]
    items = list(plate(cx, cy, table.name(seat), to_act=step.get("to_act") == seat,
                       won=seat in story.winners, w=PLATE_W, h=PLATE_H))
    won = step["tricks_won"][seat]
    tricks = f"{won} trick{'s' if won != 1 else ''}" if step["phase"] in ("play", "over") and story.contract else ""
    role = ""
    if story.declarer == seat and step["phase"] != "auction":
        role = "declarer"
    if story.partner == seat and story.partner != story.declarer:
        role = "partner"
    tx = cx + PLATE_W / 2 + 12
    if tricks:
        items.append(Text(tx, cy - 1, tricks, 18, fill=INK, anchor="lb", max_width=96))
    if role:
        items.append(Text(tx, cy + 1, role, 18, fill=HIGHLIGHT, anchor="lt", max_width=96))
    return items


def _auction(table: Table, story: _Story) -> list[Item]:
    """The calls so far in a grid, a column a seat, the first bidder's column first."""
    order = list(SEATS)
    if story.first_bidder in order:
        k = order.index(story.first_bidder)
        order = order[k:] + order[:k]
    col_w, row_h, top = 118, 28, 196
    x0 = MID_X - 2 * col_w
    items: list[Item] = [Rect(x0 - 8, top - 8, 4 * col_w + 16, 290, fill=PANEL, radius=10)]
    for n, seat in enumerate(order):
        items.append(Text(x0 + n * col_w + col_w / 2, top, table.name(seat), 18, fill=MUTED, anchor="mt",
                          bold=True, max_width=col_w - 8))
    rows = [story.calls[i:i + 4] for i in range(0, len(story.calls), 4)]
    for r, row in enumerate(rows[-8:]):
        for n, (seat, call) in enumerate(row):
            text = call_label(call)
            items.append(Text(x0 + n * col_w + col_w / 2, top + 34 + r * row_h, text, 20,
                              fill=MUTED if text == "Pass" else INK, anchor="mt", bold=text != "Pass"))
    return items


def _trick(step: dict[str, Any]) -> list[Item]:
    items: list[Item] = []
    winner = step.get("trick_winner")
    for seat, code in step["trick"]:
        x, y = TRICK_AT[seat]
        lit = seat == winner if winner else (seat == step["seat"] and step["kind"] == "play")
        items.extend(card(x, y, label(code), w=TRICK_W, h=TRICK_H, lit=lit))
    return items


def _contract_box(table: Table, story: _Story) -> list[Item]:
    x, y, w, h = 12, 64, 268, 112
    items: list[Item] = [Rect(x, y, w, h, fill=PANEL, radius=10)]
    if story.contract is None:
        items.append(Text(x + 14, y + 10, "Auction", 18, fill=MUTED, anchor="lt"))
        items.append(Text(x + 14, y + 40, "no bid yet" if not story.over else "passed out", 24, anchor="lt",
                          bold=True, max_width=w - 28))
        return items
    items.append(Text(x + 14, y + 10, "Contract" if story.auction_over else "Highest bid", 18,
                      fill=MUTED, anchor="lt"))
    items.append(Text(x + 14, y + 36, call_label(story.contract), 28, anchor="lt", bold=True))
    items.append(Text(x + 14, y + 74, _short(table.name(story.declarer or "")), 20, anchor="lt",
                      max_width=w - 90))
    if story.partner_card:
        items.append(Text(x + w - 58, y + 10, "partner", 18, fill=MUTED, anchor="mt"))
        items.extend(card(x + w - 81, y + 36, label(story.partner_card), w=HAND_W, h=HAND_H, size=HAND_LABEL))
    return items


def _tricks_box(step: dict[str, Any], story: _Story) -> list[Item]:
    x, y, w, h = 920, 64, 268, 112
    done = story.over and story.declarer_won is not None
    items: list[Item] = [Rect(x, y, w, h, fill=HIGHLIGHT if done else PANEL, radius=10)]
    ink, muted = (BLACK, BLACK) if done else (INK, MUTED)
    if story.needed is None or step["phase"] == "auction":
        items.append(Text(x + 14, y + 10, "Tricks", 18, fill=muted, anchor="lt"))
        items.append(Text(x + 14, y + 40, "after the auction", 20, fill=ink, anchor="lt"))
        return items
    side, defenders = step.get("declarer_side_tricks"), step.get("defender_tricks")
    need_def = 14 - story.needed
    items.append(Text(x + 14, y + 10, "Tricks won / needed", 18, fill=muted, anchor="lt"))
    if side is None:
        items.append(Text(x + 14, y + 40, f"declarer's side ? / {story.needed}", 20, fill=ink, anchor="lt"))
        items.append(Text(x + 14, y + 74, f"defenders ? / {need_def}", 20, fill=ink, anchor="lt"))
        return items
    items.append(Text(x + 14, y + 40, f"declarer's side {side} / {story.needed}", 20, fill=ink, anchor="lt",
                      bold=done and story.declarer_won))
    items.append(Text(x + 14, y + 74, f"defenders {defenders} / {need_def}", 20, fill=ink, anchor="lt",
                      bold=done and not story.declarer_won))
    return items


def draw(table: Table, steps: Sequence[dict[str, Any]]) -> Scene:
    """The last of ``steps`` as a picture (1200x630)."""
    step = steps[-1]
    story = _Story(steps)
    text = caption(table, steps)
    items: list[Item] = list(header(table.title, text))
    items.extend(_contract_box(table, story))
    items.extend(_tricks_box(step, story))
    for seat in SEATS:
        items.extend(_seat(table, seat, step, story))
        items.extend(_hand(seat, step, table.view is None))
    if step["phase"] in ("auction", "partner") or (story.over and story.contract is None):
        items.extend(_auction(table, story))
    else:
        items.extend(_trick(step))
    names = ", ".join(_short(table.name(s)) for s in SEATS)
    return Scene(items=tuple(items), alt=f"{table.title} ({names}), step {step['i']}: {text}")
