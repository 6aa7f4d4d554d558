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
        plot.text(decided, y, f"decided: trick {decided}", steps[decided], cls="c-note", anchor="end", dy=-10)
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
