"""Floating bridge's board data: a ``GameReplay`` turned into plain data for its template and script.

The viewer never re-implements rules: everything here reads the engine's steps, findings and
result. :func:`board_view` gives the server-rendered position (the no-JavaScript page), the
auction and play tables with the step index of every call and card, and the compact per-step
JSON that ``board.js`` reads from the page.

>>> from replay.games.floating_bridge.bots import play_game
>>> from viewer.view import ViewedGame
>>> view = board_view(ViewedGame(play_game(seed=3).replay(), names={}), 0, "all", {})
>>> view["banner"]["contract"], view["step"]["text"]
('1♠', 'The cards are dealt')
"""

from __future__ import annotations

import re
from typing import Any

from replay.games.floating_bridge.cards import SEATS, SUIT_SYMBOLS, Card
from replay.games.floating_bridge.game import GameReplay
from .charts import analysis_chart, mark_text, mistake_text

SEAT_NAMES = [s.name for s in SEATS]
PERSPECTIVES = ("all", "N", "E", "S", "W")
RED_SUITS = ("D", "H")


def title(game) -> str:
    """The game's result as a title (the page title does not use it: it would give the game away)."""
    r = game.replay
    if r.contract is None:
        what = "passed out" if r.end_reason == "passed_out" else "no contract"
    else:
        what = f"{r.contract.symbol} by {r.declarer.full_name}"
    return f"Floating bridge: {what}"


def perspectives(replay: GameReplay) -> list[tuple[str, str]]:
    return [("all", "all hands")] + [(s.name, f"{s.full_name}\u2019s view") for s in SEATS]


CARD_CODE = re.compile(r"(?<![A-Za-z0-9])([SHDC])(10|[2-9TJQKA])(?![A-Za-z0-9])")


def readable_message(message: str) -> str:
    """Card codes in an engine message as suit symbols: ``East plays H2`` -> ``East plays ♥2``.

    >>> readable_message("East plays HT, which it does not hold; 1S stays")
    'East plays ♥10, which it does not hold; 1S stays'
    """
    return CARD_CODE.sub(lambda m: SUIT_SYMBOLS["CDHS".index(m.group(1))] + ("10" if m.group(2) in ("T", "10") else m.group(2)),
                        message)


def card_symbol(text: str) -> str:
    """``SA`` -> ``♠A``, ``HT`` -> ``♥10``."""
    return Card.parse(text).symbol


def card_parts(text: str) -> dict[str, str]:
    card = Card.parse(text)
    rank = "10" if text[1:] == "T" else text[1:]
    return {"code": text, "suit": "CDHS"[card.suit],
            "symbol": SUIT_SYMBOLS[card.suit], "rank": rank, "red": "CDHS"[card.suit] in RED_SUITS}


def hand_by_suit(cards: list[str]) -> list[dict[str, Any]]:
    """A hand as suit rows, spades first, high cards first."""
    rows = []
    for suit in "SHDC":
        in_suit = [c for c in cards if c[0] == suit]
        in_suit.sort(key=lambda c: -"23456789TJQKA".index(c[1]))
        rows.append({
            "suit": suit, "symbol": SUIT_SYMBOLS["CDHS".index(suit)], "red": suit in RED_SUITS,
            "ranks": ["10" if c[1] == "T" else c[1] for c in in_suit],
        })
    return rows


def _side_targets(replay: GameReplay) -> tuple[int | None, int | None]:
    return replay.result.needed, replay.result.defenders_needed


def compact_steps(replay: GameReplay) -> list[dict[str, Any]]:
    """``steps_json()`` without what the page can work out (keeps the page small)."""
    out = []
    for s in replay.steps_json():
        step = {
            "i": s["i"], "k": s["kind"], "s": s["seat"], "a": s["action"], "x": s["text"],
            "h": [s["hands"][n] for n in SEAT_NAMES],
            "tr": s["trick"], "tn": s["trick_number"],
            "tw": [s["tricks_won"][n] for n in SEAT_NAMES],
            "ds": s["declarer_side_tricks"], "df": s["defender_tricks"],
            "pr": s["partner_revealed"], "ta": s["to_act"], "ph": s["phase"], "w": s["trick_winner"],
        }
        if s["t"] is not None:
            step["t"] = s["t"]
        out.append(step)
    return out


def auction_rows(replay: GameReplay, marks: dict[int, list[dict[str, Any]]]) -> list[list[dict[str, Any] | None]]:
    """Calls in rows under N/E/S/W: the first row starts in the first bidder's column."""
    rows: list[list[dict[str, Any] | None]] = []
    row: list[dict[str, Any] | None] = [None] * 4
    last_col = -1
    for step in replay.steps:
        if step.kind != "call":
            continue
        col = int(step.seat)
        if col <= last_col:
            rows.append(row)
            row = [None] * 4
        row[col] = {"step": step.index, "text": step.action.symbol, "pass": step.action.is_pass,
                    "red": step.action.strain is not None and step.action.strain in (1, 2),
                    "findings": marks.get(step.index, [])}
        last_col = col
    if any(row):
        rows.append(row)
    return rows


def play_rows(replay: GameReplay, marks: dict[int, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    """Tricks in order: the card each seat played, the leader, the winner and step indices."""
    tricks: list[dict[str, Any]] = []
    current: dict[str, Any] | None = None
    for step in replay.steps:
        if step.kind != "play":
            continue
        if current is None:
            current = {"number": len(tricks) + 1, "cells": [None] * 4, "leader": step.seat.name,
                       "winner": None, "first_step": step.index, "last_step": step.index}
            tricks.append(current)
        parts = card_parts(str(step.action))
        current["cells"][int(step.seat)] = {**parts, "step": step.index, "findings": marks.get(step.index, []),
                                             "lead": step.seat.name == current["leader"]}
        current["last_step"] = step.index
        if step.trick_winner is not None:
            current["winner"] = step.trick_winner.name
            cell = current["cells"][int(step.trick_winner)]
            if cell is not None:
                cell["won"] = True
            current = None
    return tricks


def auction_end(replay: GameReplay) -> int | None:
    """The step of the call that ended the auction with a contract (from it on, the contract and
    the declarer are known)."""
    if replay.contract is None:
        return None
    calls = [s.index for s in replay.steps if s.kind == "call"]
    return calls[-1] if calls else None


def high_bid(replay: GameReplay, index: int) -> tuple[str, str] | None:
    """The highest bid made by step ``index`` and who made it (``None`` before any bid)."""
    best = None
    for step in replay.steps[: index + 1]:
        if step.kind == "call" and not step.action.is_pass:
            best = (step.action.symbol, step.seat.full_name)
    return best


def chapters(replay: GameReplay) -> dict[str, Any]:
    """The ↑/↓ keys move by trick: the steps that finish a trick, and the step before the first card."""
    ends = [s.index for s in replay.steps if s.trick_winner is not None]
    first_play = next((s.index for s in replay.steps if s.kind == "play"), None)
    return {"ends": ends, "before": None if first_play is None else first_play - 1}


def board_view(game, index: int, perspective: str, options: dict[str, Any]) -> dict[str, Any]:
    """Everything the bridge template and script need at step ``index`` from ``perspective``."""
    replay = game.replay
    current = replay.steps[index]
    reveal = bool(options.get("reveal"))

    findings = [{**f.to_json(), "message": readable_message(f.message)} for f in replay.findings]
    marks: dict[int, list[dict[str, Any]]] = {}
    for f in findings:
        marks.setdefault(f["step"], []).append(f)

    needed, defenders_needed = _side_targets(replay)
    partner_card = None if replay.partner_card is None else str(replay.partner_card)
    partner_seat = None if replay.partner_seat is None else replay.partner_seat.name
    declarer = None if replay.declarer is None else replay.declarer.name
    revealed = reveal or current.partner_revealed or (perspective != "all" and perspective == partner_seat)
    partner_step = None
    if replay.partner_card is not None:
        for s in replay.steps:
            if s.kind == "play" and s.action == replay.partner_card:
                partner_step = s.index
                break
    won_at = auction_end(replay)
    in_auction = index < won_at if won_at is not None else index < len(replay.steps) - 1
    called_at = next((s.index for s in replay.steps if s.kind == "partner"), None)
    bid = high_bid(replay, index)

    seats = []
    for seat in SEATS:
        name = game.names.get(seat.name)
        cards = [str(c) for c in current.hand_cards(seat)]
        visible = perspective in ("all", seat.name)
        seats.append({
            "seat": seat.name, "full": seat.full_name, "name": name,
            "declarer": seat.name == declarer and not in_auction,
            "partner": revealed and seat.name == partner_seat and partner_seat != declarer,
            "to_act": current.to_act is not None and current.to_act == seat,
            "visible": visible, "count": len(cards),
            "suits": hand_by_suit(cards) if visible else [],
            "tricks": current.tricks_won[seat],
        })
    trick = [{"seat": s.name, **card_parts(str(c)),
              "won": current.trick_winner is not None and s == current.trick_winner}
             for s, c in current.trick]

    r = replay.result
    banner = {
        "contract": None if replay.contract is None else replay.contract.symbol,
        "contract_red": replay.contract is not None and replay.contract.strain in (1, 2),
        "declarer": declarer,
        "declarer_full": None if replay.declarer is None else replay.declarer.full_name,
        "partner_card": None if partner_card is None else card_parts(partner_card),
        "needed": needed, "defenders_needed": defenders_needed,
        "declarer_side": current.declarer_side_tricks if revealed else None,
        "defenders": current.defender_tricks if revealed else None,
        "rules": replay.rules.name, "end": replay.end_reason,
        "winner": r.winner, "over_under": r.over_under,
        "auction": in_auction,
        "high_bid": None if bid is None else f"{bid[0]} by {bid[1]}",
        "partner_shown": called_at is not None and index >= called_at,
    }

    data = {
        "steps": compact_steps(replay),
        "game": {
            "seats": SEAT_NAMES,
            "names": {s: game.names.get(s) for s in SEAT_NAMES},
            "declarer": declarer, "partner_card": partner_card, "partner_seat": partner_seat,
            "partner_step": partner_step, "auction_end": won_at, "partner_called": called_at,
            "contract": banner["contract"], "needed": needed, "defenders_needed": defenders_needed,
            "findings": findings, "rules": replay.rules.name, "end": replay.end_reason,
            "winner": r.winner, "checked": replay.checked,
        },
        "chapters": chapters(replay),
    }
    return {
        "seats": seats,
        "trick": trick,
        "step": {"text": current.text, "kind": current.kind, "phase": current.phase,
                 "trick_number": current.trick_number},
        "banner": banner,
        "auction": auction_rows(replay, marks),
        "partner_call": next(({"step": s.index, "seat": s.seat.full_name, "card": card_parts(str(s.action)),
                               "findings": marks.get(s.index, [])}
                              for s in replay.steps if s.kind == "partner"), None),
        "tricks": play_rows(replay, marks),
        "data": data,
    }


def analysis_view(game, analysis: dict[str, Any]) -> dict[str, Any]:
    """What the page's analysis toggle fetches (``/g/<id>/analysis.json``): every analysed card
    with its step, its GIB mark (``=`` or ``-n``) and, for a mistake, the sentence the step
    text shows; the mistakes; the chart (SVG drawn here); where the analysis stops and why."""

    replay = game.replay
    cards = []
    for c in analysis.get("cards") or []:
        entry = {k: c.get(k) for k in ("step", "seat", "card", "side", "before", "after", "loss", "legal", "best")}
        entry["values"] = c.get("values") or {}
        entry["mark"] = mark_text(c)
        entry["text"] = mistake_text(c) if (c.get("loss") or 0) > 0 else None
        cards.append(entry)
    chart = analysis_chart(analysis, replay.result.needed if replay.contract is not None else None)
    last = len(replay.steps) - 1
    analysed_to = analysis.get("analysed_to")
    stops = analysis.get("stops")
    note = None
    if stops and analysed_to is None:
        note = f"No analysis: {stops}."
    elif stops and (analysed_to < last or not analysis.get("complete", True)):
        note = f"Analysis stops after step {analysed_to}: {stops}."
    elif stops:
        note = f"Every card played is analysed; {stops}."
    return {
        "game": "floating-bridge",
        "declarer": analysis.get("declarer"), "partner": analysis.get("partner"),
        "start": analysis.get("start"), "complete": analysis.get("complete"),
        "mistakes": analysis.get("mistakes"),
        "analysed_to": analysed_to, "last_step": last, "stops": stops, "note": note,
        "cards": cards,
        "chart": None if chart is None else {k: chart[k] for k in ("id", "title", "svg", "series")},
    }
