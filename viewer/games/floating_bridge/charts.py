"""Per-trick charts, drawn as SVG by the server (``viewer.svgcharts``): no chart library.

Every mark drawn for a step carries that step (``data-step``): the page shows it from that step
on, so the charts never run ahead of the board, and a click jumps there. ``mark`` says how the
page marks the current step (``"tricks"``: x is tricks finished, ``"trick"``: x is the trick
under way, both placed by ``board.js``; ``"step"``: x is the step index), ``band`` marks a
column rather than a line. Each chart also keeps the numbers it drew (``series``) for tests and
for the JSON.

>>> from replay.games.floating_bridge.bots import play_game
>>> charts = build_charts(play_game(seed=3).replay())
>>> [c["id"] for c in charts]
['race', 'tricks', 'hands', 'time']
>>> 'data-step=' in charts[0]["svg"]
True

``analysis_chart`` is not one of them: it is drawn only when the reader turns the analysis on
(``/g/<id>/analysis.json``), so that a page holds no analysis until asked.

>>> mistake_text({"seat": "E", "card": "H7", "loss": 1, "best": ["HK"]})
"East's ♥7 costs a trick; ♥K held it"
"""

from __future__ import annotations

from typing import Any

from replay.games.floating_bridge.cards import SEATS, SUIT_SYMBOLS, Card, hand_points
from replay.games.floating_bridge.game import GameReplay

from ...svgcharts import Plot, ticks

SEAT_COLOURS = {"N": "#3b6fd8", "E": "#d9822b", "S": "#2f9e6e", "W": "#9a4fd0"}
DECLARER_COLOUR = "#2563eb"
DEFENDER_COLOUR = "#dc2626"
TRICKS = 13


def trick_ends(replay: GameReplay) -> list[int]:
    """The step index that finished each trick."""
    return [s.index for s in replay.steps if s.trick_winner is not None]


def race_chart(replay: GameReplay) -> dict[str, Any] | None:
    """Cumulative tricks of the declarer's side and the defenders, with both targets; the trick
    that decided the game is starred from that trick on."""
    ends = trick_ends(replay)
    if replay.contract is None or not ends:
        return None
    needed, defenders_needed = replay.result.needed, replay.result.defenders_needed
    xs = list(range(len(ends) + 1))
    steps = [0, *ends]
    declarer = [0] + [replay.steps[i].declarer_side_tricks for i in ends]
    defenders = [0] + [replay.steps[i].defender_tricks for i in ends]
    decided = next((n for n in xs[1:] if declarer[n] >= needed or defenders[n] >= defenders_needed), None)
    plot = Plot(x=(-0.3, TRICKS + 0.3), y=(0, TRICKS + 0.5), xlabel="trick", ylabel="tricks won")
    plot.axes(ticks(0, TRICKS), ticks(0, TRICKS, 2))
    plot.hline(needed, DECLARER_COLOUR, f"declarer needs {needed}")
    plot.hline(defenders_needed, DEFENDER_COLOUR, f"defenders need {defenders_needed}", anchor="end",
               dy=12 if defenders_needed == needed else -4)
    plot.steps_line([(x, y, st) for x, y, st in zip(xs, declarer, steps)], DECLARER_COLOUR,
                    titles=[f"after trick {x}: declarer's side {y}" for x, y in zip(xs, declarer)])
    plot.steps_line([(x, y, st) for x, y, st in zip(xs, defenders, steps)], DEFENDER_COLOUR, dash="2 4",
                    marker="square", titles=[f"after trick {x}: defenders {y}" for x, y in zip(xs, defenders)])
    if decided is not None:
        side = "declarer's side" if declarer[decided] >= needed else "defenders"
        y = declarer[decided] if side == "declarer's side" else defenders[decided]
        plot.marker(decided, y, "#f59e0b", steps[decided], "star", f"trick {decided} decided the game for the {side}")
        # the note runs away from the nearer edge, and below the star near the top: it always
        # fits inside the picture (at trick 1 an end-anchored note ran off the left edge)
        anchor = "start" if decided < TRICKS / 2 else "end"
        dy = 18 if plot.sy(y) - 10 < plot.top + 12 else -10
        beside = decided + (0.35 if anchor == "start" else -0.35)  # clear of the star
        plot.text(beside, y, f"decided: trick {decided}", steps[decided], cls="c-note", anchor=anchor, dy=dy)
    plot.key("Declarer's side", DECLARER_COLOUR)
    plot.key("Defenders", DEFENDER_COLOUR, "2 4")
    return {"id": "race", "title": "Tricks race", "mark": "tricks", "decided": decided,
            "series": {"declarer": declarer, "defenders": defenders, "steps": steps,
                       "targets": [needed, defenders_needed]},
            "svg": plot.render("Tricks race")}


def trick_map(replay: GameReplay) -> dict[str, Any] | None:
    """The card each seat played to each trick (shown from its step); the winner's cell is
    filled and starred once the trick is over."""
    plays = [s for s in replay.steps if s.kind == "play"]
    if not plays:
        return None
    tricks: list[dict[Any, Any]] = []
    current: dict[Any, Any] = {}
    for s in plays:
        current[int(s.seat)] = s
        if s.trick_winner is not None:
            current["winner"] = int(s.trick_winner)
            current["end"] = s.index
            tricks.append(current)
            current = {}
    if current:
        tricks.append(current)
    rows = list(SEATS)  # N at the top
    plot = Plot(x=(0.5, TRICKS + 0.5), y=(0, 4), xlabel="trick", left=26, height=190, top=6)
    plot.axes(ticks(1, TRICKS), [])
    for r, seat in enumerate(rows):
        y = 3.5 - r
        plot.label(0.5, y, seat.name, anchor="end", dx=-4)
    winners = []
    for n, trick in enumerate(tricks, start=1):
        winners.append(None if "winner" not in trick else SEATS[trick["winner"]].name)
        for r, seat in enumerate(rows):
            step = trick.get(int(seat))
            if step is None:
                continue
            card: Card = step.action
            y0 = 3 - r
            plot.bar(n - 0.46, y0 + 0.04, y0 + 0.96, step=step.index, cls="c-cell", x1=n + 0.46,
                     title=f"trick {n}: {seat.full_name} {card.symbol}")
            if trick.get("winner") == int(seat):
                plot.bar(n - 0.46, y0 + 0.04, y0 + 0.96, step=trick["end"], cls="c-won", x1=n + 0.46,
                         title=f"trick {n}: {seat.full_name} won with {card.symbol}")
            red = " c-red" if card.suit in (1, 2) else ""
            plot.text(n, y0 + 0.5, card.symbol, step.index, cls=f"c-card{red}")
    return {"id": "tricks", "title": "Trick map", "mark": "trick", "band": True,
            "series": {"winners": winners}, "svg": plot.render("Trick map (the winner's card is filled)")}


def hand_strength(replay: GameReplay) -> dict[str, Any]:
    """Points (with the length bonus) and suit lengths of each seat's dealt hand."""
    hands = replay.log.hands.by_seat()
    labels = [s.name for s in SEATS]
    points = [hand_points(h) for h in hands]
    top = max(20, max(points) + 2)
    # two panels side by side in one picture: points on 0..4, suit lengths on 5..9
    plot = Plot(x=(-0.5, 9.5), y=(0, top), ylabel="points", top=22)
    plot.axes([(n, s) for n, s in enumerate(labels)] + [(5 + n, s) for n, s in enumerate(labels)], ticks(0, top, 5))
    for n, (seat, value) in enumerate(zip(labels, points)):
        plot.bar(n, 0, value, SEAT_COLOURS[seat], 0, f"{seat}: {value} points")
        plot.text(n, value, str(value), 0, dy=-3)
    lengths: dict[str, list[int]] = {}
    scale = top / TRICKS  # 13 cards fill the panel
    for n, hand in enumerate(hands):
        base = 0.0
        for suit in (3, 2, 1, 0):  # spades at the bottom
            count = sum(1 for c in hand if c // 13 == suit)
            lengths.setdefault("SHDC"[3 - suit], []).append(count)
            if count:
                letter = "CDHS"[suit]
                plot.bar(5 + n, base, base + count * scale, step=0, cls=f"suit-{letter}",
                         title=f"{labels[n]}: {count} {SUIT_SYMBOLS[suit]}")
                plot.text(5 + n, base + count * scale / 2, f"{SUIT_SYMBOLS[suit]}{count}", 0, cls="c-inbar")
                base += count * scale
    plot.label(1.5, top, "points", dy=-9)
    plot.label(6.5, top, "suit lengths", dy=-9)
    return {"id": "hands", "title": "Hand strength", "mark": None, "perspective": "all",
            "series": {"points": points, "lengths": lengths},
            "svg": plot.render("Hand strength: points and suit lengths")}


def think_time(replay: GameReplay) -> dict[str, Any] | None:
    """Seconds each move took (time since the previous logged event), when the log has times."""
    moves = [s for s in replay.steps if s.index > 0 and s.t is not None]
    if len(moves) < 2:
        return None
    times: dict[int, int] = {}
    previous = 0
    for event in replay.log.events:  # every timed event, including trick announcements
        if event.t is not None:
            times.setdefault(id(event), previous)
            previous = event.t
    events = replay.log.events
    bars = []
    for s in moves:
        before = times.get(id(events[s.event])) if s.event is not None else None
        seconds = max(0, (s.t - (before or 0))) / 1000
        bars.append((s, round(seconds, 2)))
    last = len(replay.steps) - 1
    top = max(1.0, max(sec for _, sec in bars) * 1.1)
    every = max(1, round(last / 8))
    plot = Plot(x=(0, last + 1), y=(0, top), xlabel="step", ylabel="seconds")
    plot.axes(ticks(0, last, every), [(top * k / 4, f"{top * k / 4:.1f}") for k in range(5)])
    for s, seconds in bars:
        plot.bar(s.index, 0, seconds, SEAT_COLOURS[s.seat.name], s.index, f"step {s.index}: {s.text} ({seconds:.1f} s)",
                 width=0.85)
    for seat in SEATS:
        plot.key(seat.full_name, SEAT_COLOURS[seat.name])
    return {"id": "time", "title": "Think time", "mark": "step",
            "series": {"steps": [s.index for s, _ in bars], "seconds": [sec for _, sec in bars]},
            "svg": plot.render("Think time per move")}


def build_charts(replay: GameReplay) -> list[dict[str, Any]]:
    """Every chart that applies to this game, in page order."""
    charts = [race_chart(replay), trick_map(replay), hand_strength(replay), think_time(replay)]
    return [c for c in charts if c is not None]


MISTAKE_COLOUR = "#dc2626"


def analysis_chart(analysis: dict[str, Any], needed: int | None) -> dict[str, Any] | None:
    """The declarer side's makeable tricks (double dummy) after each card, from the analysis
    (``archive.Analyses``); every mistake marked, each point shown from its card's step and a
    click on it jumps there. Only drawn when the reader turns the analysis on (it is fetched
    then, never part of the page)."""
    cards = analysis.get("cards") or []
    if not cards:
        return None
    count = len(cards)
    xs = list(range(count + 1))
    values = [cards[0]["before"]] + [c["after"] for c in cards]
    steps = [cards[0]["step"] - 1] + [c["step"] for c in cards]
    top = TRICKS
    plot = Plot(x=(-0.5, max(count, 4) + 0.5), y=(0, top + 0.5), xlabel="cards played (trick numbers below)",
                ylabel="declarer's side makes")
    plot.axes([(4 * n, str(n)) for n in range(1, count // 4 + 1)], ticks(0, top, 2))
    if needed is not None:
        plot.hline(needed, DECLARER_COLOUR, f"declarer needs {needed}")
    titles = [f"before the opening lead: {values[0]} tricks"]
    for n, c in enumerate(cards, start=1):
        what = Card.parse(c["card"]).symbol
        titles.append(f"card {n}, {SEATS_FULL[c['seat']]}'s {what}: {c['after']} tricks"
                      + (f" ({mark_text(c)})" if c.get("loss") else ""))
    plot.steps_line([(x, y, st) for x, y, st in zip(xs, values, steps)], DECLARER_COLOUR, titles=titles)
    mistakes = []
    for n, c in enumerate(cards, start=1):
        if c.get("loss", 0) > 0:
            mistakes.append(c["step"])
            plot.marker(n, c["after"], MISTAKE_COLOUR, c["step"], "square", mistake_text(c), size=6)
            plot.text(n, c["after"], mark_text(c), c["step"], cls="c-note c-mistake", dy=-9)
    plot.key("Declarer's side makes (double dummy)", DECLARER_COLOUR)
    if mistakes:
        plot.key("a mistake (click: go to it)", MISTAKE_COLOUR)
    return {"id": "analysis", "title": "Makeable tricks after each card", "mark": "card",
            "series": {"tricks": values, "steps": steps, "mistakes": mistakes},
            "svg": plot.render("The declarer side's makeable tricks after each card")}


SEATS_FULL = {s.name: s.full_name for s in SEATS}


def mark_text(card: dict[str, Any]) -> str:
    """GIB's mark of a card: ``=`` when it keeps the count, ``-1``, ``-2``... for what it costs."""
    loss = int(card.get("loss") or 0)
    return "=" if loss <= 0 else f"-{loss}"


def held_by(card: dict[str, Any]) -> str | None:
    """The best card to name beside a mistake: one of the same suit if any, else the highest."""
    best = [Card.parse(b) for b in card.get("best") or []]
    if not best:
        return None
    played = Card.parse(card["card"])
    same = [b for b in best if b.suit == played.suit]
    pick = max(same or best, key=lambda b: (b.rank, b.suit))
    others = len(best) - 1
    return pick.symbol + ("" if not others else f" (or {others} other card{'s' if others > 1 else ''})")


def mistake_text(card: dict[str, Any]) -> str:
    """``East's ♥7 costs a trick; ♥K held it``."""
    loss = int(card.get("loss") or 0)
    cost = "a trick" if loss == 1 else f"{loss} tricks"
    text = f"{SEATS_FULL[card['seat']]}'s {Card.parse(card['card']).symbol} costs {cost}"
    held = held_by(card)
    return text + (f"; {held} held it" if held else "")
