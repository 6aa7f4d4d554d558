"""Texas hold'em's pages: the board's data from the replay's steps (``steps_json``), a seat's
view holding no other seat's hole card until shown (in the page and in the data it embeds), the
streets as chapters, the record naming no card, hostile names kept as text.

A hand-made hand (``made_hand``, following the steps contract of the issue) runs the board's
code without the engine; the pages (``/g/<id>``, ``/r/<code>``, ``/u`` uploads of a ``.phh``) use
the registered game.
"""

from __future__ import annotations

import json
import re
from types import SimpleNamespace
from typing import Any

import pytest

from viewer.games.holdem import BOARD
from viewer.games.holdem import view as hv

EVIL = "<img src=x onerror=alert(1)>"
SEATS = ("p1", "p2", "p3")
HOLES = {"p1": ["Ac", "2d"], "p2": ["Kh", "Kd"], "p3": ["7h", "7s"]}


def made_hand() -> list[tuple]:
    """(kind, seat, amount or cards): a 3-seat hand to the showdown, p1 SB 50, p2 BB 100, p3
    on the button; p1 folds on the flop, p3 wins with a set of sevens."""
    return [
        ("hole", "p1", HOLES["p1"]), ("hole", "p2", HOLES["p2"]), ("hole", "p3", HOLES["p3"]),
        ("call", "p3", 100), ("call", "p1", 100), ("check", "p2", None),
        ("board", None, ["7c", "8d", "2s"]),
        ("check", "p1", None), ("bet", "p2", 200), ("raise", "p3", 600), ("fold", "p1", None), ("call", "p2", 600),
        ("board", None, ["Qs"]), ("check", "p2", None), ("check", "p3", None),
        ("board", None, ["3h"]), ("check", "p2", None), ("check", "p3", None),
        ("show", "p2", HOLES["p2"]), ("show", "p3", HOLES["p3"]),
    ]


def made_steps(seat: str | None = None, hand: list[tuple] | None = None) -> list[dict[str, Any]]:
    """The steps of ``made_hand`` as ``HoldemReplay.steps_json(seat)`` gives them."""
    hand = made_hand() if hand is None else hand
    stacks = {s: 10000 for s in SEATS}
    blinds = {"p1": 50, "p2": 100, "p3": 0}
    bets = dict(blinds)
    for s in SEATS:
        stacks[s] -= blinds[s]
    collected = 0
    board: list[str] = []
    hole: dict[str, list[str]] = {s: [] for s in SEATS}
    shown: set[str] = set()
    folded: list[str] = []
    street = "preflop"
    order = {"preflop": ["p3", "p1", "p2"], "post": ["p1", "p2", "p3"]}

    def snapshot(i, kind, who, text, amount, to_act, last=False):
        view = {}
        for s in SEATS:
            if seat is None or s == seat or s in shown or not hole[s]:
                view[s] = list(hole[s])
            else:
                view[s] = ["??", "??"]
        live = [s for s in SEATS if s not in folded]
        step = {"i": i, "kind": kind, "seat": who, "text": text, "event": i - 1 if i else None, "street": street,
                "amount": amount, "stacks": dict(stacks), "bets": dict(bets), "pot": collected + sum(bets.values()),
                "pots": [{"amount": collected + sum(bets.values()), "seats": live, "winners": []}],
                "board": list(board), "hole": view, "folded": list(folded), "all_in": [], "to_act": to_act,
                "button": "p3", "blinds": dict(blinds), "last": last}
        return step

    steps = [snapshot(0, "setup", None, "p1 posts 50, p2 posts 100", None, None)]
    for n, (kind, who, what) in enumerate(hand):
        i = n + 1
        amount = None
        if kind == "hole":
            hole[who] = list(what)
            text = f"{who} is dealt two cards"
        elif kind == "board":
            collected += sum(bets.values())
            bets = {s: 0 for s in SEATS}
            board.extend(what)
            street = {3: "flop", 4: "turn", 5: "river"}[len(board)]
            text = f"the {street}: " + " ".join(board)
        elif kind in ("call", "bet", "raise"):
            amount = what
            stacks[who] -= what - bets[who]
            bets[who] = what
            text = {"call": f"{who} calls {what}", "bet": f"{who} bets {what}", "raise": f"{who} raises to {what}"}[kind]
        elif kind == "fold":
            folded.append(who)
            text = f"{who} folds"
        elif kind == "check":
            text = f"{who} checks"
        else:  # show
            if street != "showdown":
                collected += sum(bets.values())
                bets = {s: 0 for s in SEATS}
                street = "showdown"
            shown.add(who)
            text = f"{who} shows " + " ".join(what)
        nxt = hand[n + 1] if n + 1 < len(hand) else None
        to_act = nxt[1] if nxt and nxt[0] not in ("hole", "board") else None
        steps.append(snapshot(i, kind, who, text, amount, to_act, last=nxt is None))
    final = steps[-1]
    final["stacks"]["p3"] += final["pot"]
    final["pot"] = 0
    final["pots"][0]["winners"] = ["p3"]
    final["winners"] = ["p3"]
    final["payoffs"] = {s: final["stacks"][s] - 10000 for s in SEATS}
    return steps


class MadeGame:
    name = "holdem"
    title = "Texas hold'em"

    def seat_order(self, log):
        return list(SEATS)


def made_replay(names: dict[str, str] | None = None) -> Any:
    players = {s: SimpleNamespace(name=n) for s, n in (names or {}).items()}
    return SimpleNamespace(game=MadeGame(), log=SimpleNamespace(players=players, variant="NT"),
                           steps_json=lambda seat=None: made_steps(seat), findings=[], winners=["p3"],
                           end_reason="completed", checked=True)


def viewed(names: dict[str, str] | None = None) -> Any:
    return SimpleNamespace(replay=made_replay(names), names=dict(names or {}))


def hidden_cards(seat: str) -> set[str]:
    """The cards a seat may never read before the showdown: the others' hole cards."""
    return {c for s, cards in HOLES.items() if s != seat for c in cards}


# --- the board's data from hand-made steps -------------------------------------------------------

def test_streets_are_the_chapters():
    steps = made_steps()
    assert hv.street_starts(steps) == [3, 7, 13, 16, 19]
    assert hv.chapters(steps) == {"ends": [3, 7, 13, 16, 19, 20], "before": 0}


def test_the_view_at_each_step_draws_that_step_only():
    game = viewed({"p1": "Ann", "p2": EVIL})
    steps = made_steps()
    for index, step in enumerate(steps):
        v = hv.board_view(game, index, "all", {})
        assert [c["card"] for c in v["board_cards"]] == step["board"], index
        assert v["board_slots"] == 5 - len(step["board"])
        seats = {p["seat"]: p for p in v["seats"]}
        assert {s: [c["card"] for c in p["cards"]] for s, p in seats.items()} == step["hole"]
        assert {s: p["folded"] for s, p in seats.items()} == {s: s in step["folded"] for s in SEATS}
        assert seats["p3"]["button"] and not seats["p1"]["button"]
        assert (seats["p1"]["blind"], seats["p2"]["blind"], seats["p3"]["blind"]) == ("SB", "BB", "")
        assert v["pot"] == f"{step['pot']:,}"
    last = hv.board_view(game, len(steps) - 1, "all", {})
    assert last["outcome"] == "p3 +800 won"
    assert hv.board_view(game, 4, "all", {})["outcome"] == "Ann to act"


def test_a_seat_view_holds_no_other_seats_hole_card_before_it_is_shown():
    game = viewed()
    steps = made_steps()
    first_show = next(s["i"] for s in steps if s["kind"] == "show")
    for seat in SEATS:
        v = hv.board_view(game, 0, seat, {})
        data = json.dumps(v["data"])
        never_shown = {c for s in SEATS if s != seat and s not in ("p2", "p3") for c in HOLES[s]}
        for card in never_shown:  # p1 never shows: in no other seat's view at all
            assert f'"{card}"' not in data, (seat, card)
        for index in range(first_show):
            at = hv.board_view(game, index, seat, {})
            drawn = {c["card"] for p in at["seats"] for c in p["cards"]}
            assert not drawn & hidden_cards(seat), (seat, index)
            mine = {c["card"] for p in at["seats"] if p["seat"] == seat for c in p["cards"]}
            assert mine <= set(HOLES[seat])
            backs = [c for p in at["seats"] if p["seat"] != seat for c in p["cards"] if c["state"] == "back"]
            assert len(backs) == 2 * sum(1 for s in SEATS if s != seat and steps[index]["hole"][s])


def test_the_record_names_no_card_and_names_are_text():
    game = viewed({"p2": EVIL, "p3": "p1"})
    v = hv.board_view(game, 0, "all", {})
    words = " ".join(e["x"] for r in v["record_rows"] for e in r["entries"])
    for card in [c for cards in HOLES.values() for c in cards] + ["7c", "8d", "2s", "Qs", "3h"]:
        assert card not in words
    assert [r["street"] for r in v["record_rows"]] == ["preflop", "flop", "turn", "river", "showdown"]
    assert f"{EVIL} bets 200" in words and "p1 raises to 600" in words  # p3 is named "p1"
    assert v["data"]["steps"][10]["x"] == "p1 raises to 600"  # p3 (named "p1") raises
    assert v["data"]["steps"][9]["x"] == f"{EVIL} bets 200"


def test_side_pots_and_money():
    step = {"pots": [{"amount": 300, "seats": SEATS, "winners": []}, {"amount": 1250.5, "seats": ["p1", "p2"], "winners": ["p2"]}]}
    assert hv.pot_lines(step, {"p2": "Bo"}, cents=True) == ["main pot 300.00", "side pot 1,250.50 \u2192 Bo"]
    assert hv.pot_lines({"pots": [{"amount": 5, "seats": SEATS, "winners": []}]}, {}, False) == []
    assert hv.uses_cents([{"stacks": {"p1": 100.0}, "blinds": {"p1": 0.5}}])
    assert not hv.uses_cents([{"stacks": {"p1": 100}, "blinds": {"p1": 1}}])


def test_seat_places_put_the_viewer_at_the_bottom():
    places = hv.seat_places(SEATS, "p2")
    assert places["p2"]["y"] == max(p["y"] for p in places.values())
    assert all(10 <= p["x"] <= 90 and 9 <= p["y"] <= 91 for p in places.values())
    ten = tuple(f"p{n}" for n in range(1, 11))
    assert len({(p["x"], p["y"]) for p in hv.seat_places(ten, "all").values()}) == 10


def test_the_board_is_registered_by_convention():
    assert BOARD.game == "holdem" and BOARD.chapter == "street"
    assert BOARD.template_name == "games/holdem/board.html"
