"""Party cards' picture of a step: the question card (with the winning answer filled in once the
czar has picked), the answers as the view saw them, every seat's score, the czar and the round.

>>> from replay.picture.scene import PUBLIC, Table, Text
>>> from replay.games.party_cards import GAME
>>> replay = GAME.judge(GAME.selfplay(seed=7))
>>> steps = GAME.view_steps(replay, PUBLIC)
>>> steps[0]["hands"]["p1"], steps[9]["submissions"], steps[10]["submissions"][0]["seat"]
(None, None, None)
>>> table = Table("Party Cards", replay.seats, {"p5": "Eve"}, PUBLIC)
>>> [i.text for i in draw(table, steps[:8]).items if isinstance(i, Text) and "czar" in i.text]
['Eve is the czar · p2 answers', 'czar']
>>> n = round_step(steps, 3)
>>> steps[n]["kind"], steps[n]["winner"]
('pick', 'p3')

The onlooker's view (``GameModule.view_steps``'s default, ``common_view`` of the seats' views)
is what every seat saw: no hand, no submission before the reveal, the revealed ones without
their authors until the pick. Card texts are long and untrusted: they are wrapped into lines
measured with the fonts the pictures are drawn with, and cut with an ellipsis where the room
ends (``wrap``).
"""

from __future__ import annotations

import re
from typing import Any, Sequence

from ...picture.fonts import measure
from ...picture.kit import card_back, header, plate, short_name
from ...picture.scene import (BLACK, CARD, CARD_EDGE, HIGHLIGHT, INK, MUTED, PANEL, WIDTH, Circle, Item, Rect,
                              Scene, Table, Text)
from ...picture.text import ELLIPSIS, clean, fit

#: the question card (black, as in the game), the answers' column and the scores' strip
QUESTION_BOX = (24, 72, 600, 400)
ANSWERS_BOX = (648, 72, 528, 400)
SCORES_TOP = 524
QUESTION_SIZES = (36, 32, 28, 24, 22)
LINE = 1.25
#: more of a card's text than any box can hold is never looked at
MAX_TEXT = 1200
QUESTION_FACE = "#111111"




def round_step(steps: Sequence[dict[str, Any]], number: int) -> int:
    """The index of round ``number``'s picture among ``steps``: its pick (the first, where a
    log has two), or its last step when the czar never picked, as the round's link opens at;
    ``ValueError`` for a round the steps do not have."""
    last = pick = None
    for n, step in enumerate(steps):
        if step["round"] == number:
            last = n
            if step["kind"] == "pick" and pick is None:
                pick = n
    if last is None or number < 1:
        raise ValueError(f"round {number!r} is not a round of this game")
    return pick if pick is not None else last


# --- text ----------------------------------------------------------------------------------------

def _words(runs: Sequence[tuple[str, bool]]) -> list[tuple[str, bool, bool]]:
    """``runs`` as words ``(word, lit, space_before)``: a word glued to the one before (``coat``
    then ``.`` across two runs) keeps no space between them."""
    out: list[tuple[str, bool, bool]] = []
    space = False
    budget = MAX_TEXT
    for text, lit in runs:
        text = str(text)[:budget]
        budget -= len(text)
        for piece in re.split(r"(\s+)", text):
            if not piece:
                continue
            if piece.isspace():
                space = True
                continue
            word = clean(piece)
            if word:
                out.append((word, lit, space and bool(out)))
                space = False
    return out


def _break(word: str, size: float, bold: bool, width: float) -> list[str]:
    """A word wider than the line, in pieces that fit."""
    pieces = []
    while word:
        cut = len(word)
        while cut > 1 and measure(word[:cut], size, bold) > width:
            cut = max(1, cut * 3 // 4 if measure(word[:cut * 3 // 4], size, bold) > width else cut - 1)
        pieces.append(word[:cut])
        word = word[cut:]
    return pieces


def wrap(runs: Sequence[tuple[str, bool]], size: float, width: float, lines: int) -> list[list[tuple[str, bool]]]:
    """``runs`` (text, lit) laid into at most ``lines`` lines of ``width``: each line a list of
    (text, lit) pieces, the last cut with an ellipsis when the text goes on. Lit text is bold.

    >>> wrap([("Why can't I sleep at night? ", False), ("Bees.", True)], 20, 200, 3)
    [[("Why can't I sleep at", False)], [('night?', False), (' Bees.', True)]]
    >>> wrap([("It ends with ", False), ("a trench coat", True), (".", False)], 20, 400, 2)
    [[('It ends with', False), (' a trench coat', True), ('.', False)]]
    >>> wrap([("word " * 50, False)], 20, 120, 2)[-1][-1][0].endswith("…")
    True
    """
    out: list[list[tuple[str, bool]]] = [[]]
    used = 0.0
    space = measure(" ", size, False)
    for word, lit, spaced in _words(runs):
        w = measure(word, size, lit)
        gap = space if spaced else 0.0
        if out[-1] and used + gap + w > width:
            if len(out) == lines:
                _ellipsis(out[-1], size, width)
                return out
            out.append([])
            used = 0.0
        pieces = _break(word, size, lit, width) if w > width else [word]
        for k, piece in enumerate(pieces):
            if k:
                if len(out) == lines:
                    _ellipsis(out[-1], size, width)
                    return out
                out.append([])
                used = 0.0
            lead = " " if out[-1] and spaced and not k else ""
            if out[-1] and out[-1][-1][1] == lit:
                out[-1][-1] = (out[-1][-1][0] + lead + piece, lit)
            else:
                out[-1].append((lead + piece, lit))
            used += (space if lead else 0.0) + measure(piece, size, lit)
    return [line for line in out if line]


def _ellipsis(line: list[tuple[str, bool]], size: float, width: float) -> None:
    """End ``line`` with an ellipsis, cutting its end so that it still fits."""
    text, lit = line[-1]
    before = sum(measure(t, size, l) for t, l in line[:-1])
    line[-1] = (fit(text + " " + ELLIPSIS * 2, size, lit, max(1.0, width - before)).rstrip(ELLIPSIS).rstrip()
                + ELLIPSIS, lit)


def _lines(items: list[Item], x: float, y: float, lines: list[list[tuple[str, bool]]], size: float,
           ink: str, lit_ink: str, width: float) -> None:
    """Draw wrapped ``lines`` from (``x``, ``y``), each piece where the previous one ended."""
    for n, line in enumerate(lines):
        at = x
        for text, lit in line:
            items.append(Text(at, y + n * size * LINE, text, size, fill=lit_ink if lit else ink, anchor="lt",
                              bold=lit, max_width=max(1.0, x + width - at)))
            at += measure(text, size, lit)


# --- the picture ------------------------------------------------------------------------------------

def _question(items: list[Item], step: dict[str, Any], winning: dict[str, Any] | None) -> None:
    x, y, w, h = QUESTION_BOX
    items.append(Rect(x, y, w, h, fill=QUESTION_FACE, stroke=CARD_EDGE, radius=14))
    question = step.get("question")
    if question is None:
        status = list(step["status"].values())
        joined = sum(1 for s in status if s == "in")
        items.append(Text(x + w / 2, y + h / 2 - 24, "Fill in the blank: ___", 34, anchor="mm", bold=True,
                          max_width=w - 40))
        items.append(Text(x + w / 2, y + h / 2 + 28, f"{len(status)} invited · {joined} joined", 24, fill=MUTED,
                          anchor="mm", max_width=w - 40))
        return
    if winning is not None:
        runs = [(s["text"], s["answer"] is not None) for s in winning["segments"]]
    else:
        runs = [(question["text"], False)]
    inner = w - 56
    for size in QUESTION_SIZES:
        room = int((h - 80) // (size * LINE))
        lines = wrap(runs, size, inner, room)
        if size == QUESTION_SIZES[-1] or not _cut(lines):
            break
    _lines(items, x + 28, y + 28, lines, size, INK, HIGHLIGHT, inner)
    pick = question.get("pick", 1)
    items.append(Text(x + w - 28, y + h - 22, f"Pick {pick}", 20, fill=MUTED, anchor="rb", bold=True, max_width=200))


def _cut(lines: list[list[tuple[str, bool]]]) -> bool:
    return bool(lines) and lines[-1][-1][0].endswith(ELLIPSIS)


def _answers(items: list[Item], table: Table, step: dict[str, Any]) -> None:
    x, y, w, h = ANSWERS_BOX
    submissions = step.get("submissions")
    shown = list(submissions or [])
    authors = {s.get("seat") for s in shown}
    # those who answered but whose answer this view cannot see: a card back with their name
    hidden = [seat for seat in step.get("answered") or [] if seat not in authors] if not step.get("revealed") else []
    if step.get("revealed") and submissions is None:
        hidden = list(step.get("answered") or [])
    rows = len(shown) + len(hidden)
    if step.get("question") is None:  # the lobby: the answer cards dealt, face down
        sizes = [n for n in (step.get("hand_sizes") or {}).values() if n]
        if sizes:
            for n in range(5):
                items.extend(card_back(x + 130 + n * 40, y + 90 + n * 12, 150, 200))
            each = max(sizes)
            items.append(Text(x + w / 2, y + 340, f"{each} answer card{'s' if each != 1 else ''} each", 24,
                              fill=INK, anchor="mm", bold=True, max_width=w))
        return
    if not rows:
        if step.get("question") is not None:
            items.append(Text(x + w / 2, y + 40, "No answers yet", 22, fill=MUTED, anchor="mm", max_width=w))
        return
    gap = 8
    row_h = min(92.0, (h - gap * (rows - 1)) / rows)
    size = 20 if row_h >= 40 else 16
    for n, sub in enumerate(shown):
        top = y + n * (row_h + gap)
        won = bool(sub.get("won"))
        items.append(Rect(x, top, w, row_h, fill=CARD, stroke=HIGHLIGHT if won else CARD_EDGE,
                          stroke_width=4 if won else 1, radius=8))
        left = x + 12
        if sub.get("number") is not None:
            items.append(Text(left, top + row_h / 2, str(sub["number"]), size + 2, fill=BLACK, anchor="lm", bold=True,
                              max_width=32))
            left += 34
        author = sub.get("seat")
        tag = ("you" if sub.get("mine") else short_name(table, author)) if author is not None else None
        right = x + w - 12
        if tag:
            tag_w = min(160.0, measure(clean(tag)[:40], size - 2, True) + 4)
            items.append(Text(right, top + row_h / 2, tag, size - 2, fill="#374151", anchor="rm", bold=True,
                              max_width=160))
            right -= tag_w + 12
        text = " / ".join(c.get("text", "") for c in sub.get("cards") or [])
        room = max(1, int((row_h - 8) // (size * LINE)))
        lines = wrap([(text, False)], size, right - left, room)
        block = len(lines) * size * LINE
        _lines(items, left, top + (row_h - block) / 2 + 2, lines, size, BLACK, BLACK, right - left)
    for n, seat in enumerate(hidden, start=len(shown)):
        top = y + n * (row_h + gap)
        items.extend(card_back(x, top, w, row_h))
        items.append(Text(x + w / 2, top + row_h / 2, f"{short_name(table, seat)}: an answer", size, fill=INK,
                          anchor="mm", bold=True, max_width=w - 24))


def _scores(items: list[Item], table: Table, step: dict[str, Any]) -> None:
    """Every seat in the game: its plate (the czar's says so) and its score on a badge."""
    lobby = step.get("round", 0) == 0
    seats = [s for s in table.seats if lobby or step["status"].get(s) in ("in", "left")] or list(table.seats)
    per_row = len(seats) if len(seats) <= 5 else (len(seats) + 1) // 2
    slot = min(232.0, (WIDTH - 48 - 8 * (per_row - 1)) / per_row)
    badge = 0 if lobby else 44
    row_h = 44 if len(seats) > per_row else 60
    for n, seat in enumerate(seats):
        row, col = divmod(n, per_row)
        in_row = min(per_row, len(seats) - row * per_row)
        left = (WIDTH - in_row * slot - (in_row - 1) * 8) / 2 + col * (slot + 8)
        cy = SCORES_TOP + row_h / 2 + row * (row_h + 8)
        status = step["status"].get(seat)
        if lobby:
            detail = {"in": "joined", "invited": "invited", "declined": "declined", "left": "left"}.get(status, "")
        else:
            detail = "czar" if step.get("czar") == seat else "left" if status == "left" else ""
        items.extend(plate(left + (slot - badge) / 2, cy, short_name(table, seat), detail,
                           to_act=step.get("to_act") == seat, won=step.get("winner") == seat,
                           w=slot - badge, h=row_h - 4))
        if not lobby:
            score = step["scores"].get(seat, 0)
            r = min(19.0, (row_h - 6) / 2)
            items += [Circle(left + slot - r - 1, cy, r, fill=CARD, stroke=HIGHLIGHT if step.get("winner") == seat
                             else CARD_EDGE, stroke_width=2),
                      Text(left + slot - r - 1, cy, str(score), 20, fill=BLACK, anchor="mm", bold=True,
                           max_width=2 * r - 4)]


def _winning(step: dict[str, Any]) -> dict[str, Any] | None:
    return next((s for s in step.get("submissions") or [] if s.get("won")), None)


def caption(table: Table, step: dict[str, Any]) -> str:
    """The step in words, with the players' names.

    >>> caption(Table("Party Cards", ("p1", "p2"), {"p1": "Ann"}), {"kind": "pick", "seat": "p1",
    ...         "choice": 2, "round_winner": "p2", "winner": None})
    'Ann picks answer 2: p2 scores'
    """
    kind, seat = step["kind"], step.get("seat")
    who = fit(table.name(seat), 24, True, 260) if seat is not None else ""
    if kind == "setup":
        return "The cards are dealt"
    if kind == "round":
        return f"{who} is the czar"
    if kind in ("join", "decline", "leave"):
        return f"{who} {kind}s"
    if kind == "answer":
        return f"{who} answers"
    if kind == "reveal":
        return f"The czar sees {len(step.get('answered') or [])} answers"
    if kind == "pick":
        scorer = fit(table.name(step["round_winner"]), 24, True, 260) if step.get("round_winner") else "nobody"
        text = f"{who} picks answer {step.get('choice')}: {scorer} scores"
        if step.get("winner") is not None and step["winner"] == step.get("round_winner"):
            text += " and wins"
        return text
    if kind == "draw":
        return f"{who} draws"
    if kind == "swap":
        return f"{who} swaps cards"
    return who



def draw(table: Table, steps: Sequence[dict[str, Any]]) -> Scene:
    """The last of ``steps`` as a picture (1200x630)."""
    step = steps[-1]
    number = step.get("round") or 0
    items: list[Item] = list(header(table.title, f"Round {number}" if number else "The lobby"))
    winning = _winning(step)
    _question(items, step, winning)
    _answers(items, table, step)
    line = caption(table, step)
    if step.get("czar") is not None and step["kind"] not in ("round", "pick"):
        line = f"{fit(table.name(step['czar']), 24, True, 260)} is the czar · {line}"
    if step.get("winner") is not None:
        line = f"{fit(table.name(step['winner']), 24, True, 260)} wins the game"
    items.append(Text(WIDTH / 2, 494, line, 22, fill=HIGHLIGHT if step.get("winner") else INK, anchor="mm",
                      bold=True, max_width=WIDTH - 48))
    _scores(items, table, step)
    where = f"round {number}" if number else "the lobby"
    alt = f"{table.title}, {', '.join(short_name(table, s, 300) for s in table.seats)}; {where}: {line}"
    if winning is not None:
        alt += ". " + fit("".join(s["text"] for s in winning["segments"]), 20, False, 2000)
    return Scene(items=tuple(items), alt=alt)
