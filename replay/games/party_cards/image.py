"""A round's picture: the question with the winning answer filled in, as an SVG for chat previews.

The picture of a round is the game's drawing (``drawing.draw``) of the round's last pick, as an
onlooker saw it (``round_scene``): the same scene the PNG previews and the animations show.

>>> from replay.games.party_cards.bots import play_game
>>> from replay.picture.scene import Text
>>> scene = round_scene(play_game(seed=7).replay(), 2, names={"p3": "Kim"})
>>> [i.text for i in scene.items if isinstance(i, Text) and "scores" in i.text]
['Chi picks answer 3: Kim scores']

>>> from replay.games.party_cards.bots import play_game
>>> svg = round_svg(play_game(seed=7).replay(), 1)
>>> svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630"')
True

Every text that comes from the log (card texts, player names, the game id) is untrusted: it
is XML-escaped, and characters that XML 1.0 cannot carry at all (control characters, lone
surrogates, U+FFFE/U+FFFF) are replaced by U+FFFD, so the image always parses as XML and no
text can become markup:

>>> xml_text('<img src=x onerror=alert(1)> & "q" ]]>\\x07')
'&lt;img src=x onerror=alert(1)&gt; &amp; &quot;q&quot; ]]&gt;\\ufffd'

Lines are wrapped by an estimate of the text's width (no font metrics: the library draws
nothing), and the font shrinks until the text fits; a text too long even at the smallest size
is cut with an ellipsis.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from replay.picture import scene_at

from .cards import fill_blanks
from .drawing import round_step
from .replay import RoundError

WIDTH, HEIGHT = 1200, 630
MARGIN = 72
TEXT_TOP = 150
TEXT_BOTTOM = 520
FONT_SIZES = (64, 56, 50, 44, 38, 33, 28, 24)
LINE_HEIGHT = 1.25
QUESTION_COLOUR = "#ffffff"
ANSWER_COLOUR = "#ffd23f"
BACKGROUND = "#16161d"
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_text(text: str) -> str:
    """``text`` safe inside an XML element or a double-quoted attribute."""
    text = _NOT_XML.sub("\ufffd", text)
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&#39;"))


def _width(text: str, size: float) -> float:
    """A rough rendered width: wide (East Asian, emoji) characters count double, marks nothing."""
    units = 0.0
    for ch in text:
        if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Cf"):
            continue
        units += 1.0 if unicodedata.east_asian_width(ch) in ("W", "F") else 0.58
    return units * size


def _words(segments: list[dict[str, Any]]) -> list[tuple[str, bool, bool]]:
    """Segments -> ``(word, is_answer, space_before)``; spaces inside segments split words."""
    out: list[tuple[str, bool, bool]] = []
    space = False
    for segment in segments:
        is_answer = segment["answer"] is not None
        for piece in re.split(r"(\s+)", segment["text"]):
            if not piece:
                continue
            if piece.isspace():
                space = True
                continue
            out.append((piece, is_answer, space and bool(out)))
            space = False
    return out


def _wrap(words: list[tuple[str, bool, bool]], size: float, width: float) -> list[list[tuple[str, bool, bool]]]:
    lines: list[list[tuple[str, bool, bool]]] = [[]]
    used = 0.0
    space = _width(" ", size)
    for word, is_answer, space_before in words:
        w = _width(word, size)
        extra = (space if space_before else 0.0) + w
        if lines[-1] and used + extra > width:
            lines.append([])
            used = 0.0
            extra = w
        while w > width:  # a single word wider than the line: break it
            cut = max(1, int(len(word) * width / w))
            lines[-1].append((word[:cut], is_answer, bool(lines[-1]) and space_before))
            lines.append([])
            word = word[cut:]
            w = _width(word, size)
            extra = w
            space_before = False
        lines[-1].append((word, is_answer, bool(lines[-1]) and space_before))
        used += extra
    return [line for line in lines if line]


def _layout(segments: list[dict[str, Any]]) -> tuple[int, list[list[tuple[str, bool, bool]]]]:
    words = _words(segments)
    room = TEXT_BOTTOM - TEXT_TOP
    for size in FONT_SIZES:
        lines = _wrap(words, size, WIDTH - 2 * MARGIN)
        if len(lines) * size * LINE_HEIGHT <= room:
            return size, lines
    size = FONT_SIZES[-1]
    lines = _wrap(words, size, WIDTH - 2 * MARGIN)
    keep = max(1, int(room // (size * LINE_HEIGHT)))
    if len(lines) > keep:
        lines = lines[:keep]
        last = lines[-1]
        word, is_answer, space_before = last[-1]
        last[-1] = (word + "…", is_answer, space_before)
    return size, lines


def _line_svg(line: list[tuple[str, bool, bool]], x: int, y: float, size: int) -> str:
    runs: list[tuple[bool, str]] = []
    for word, is_answer, space_before in line:
        piece = (" " if space_before else "") + word
        if runs and runs[-1][0] == is_answer:
            runs[-1] = (is_answer, runs[-1][1] + piece)
        else:
            runs.append((is_answer, piece))
    spans = "".join(
        f'<tspan fill="{ANSWER_COLOUR if is_answer else QUESTION_COLOUR}"'
        f'{" font-weight=" + chr(34) + "bold" + chr(34) if is_answer else ""}>{xml_text(text)}</tspan>'
        for is_answer, text in runs)
    return f'<text x="{x}" y="{y:.0f}" font-size="{size}" xml:space="preserve">{spans}</text>'


def round_scene(replay, round_number: int, names: dict[str, str] | None = None):
    """The picture (``replay.picture.scene.Scene``) of round ``round_number``: the drawing of its
    last pick (its last step when the czar never picked), as an onlooker saw it; ``names`` as
    ``replay.picture.scene_at`` takes them. Raises ``RoundError`` for a round the game does not have.
    """
    if not isinstance(round_number, int) or not 1 <= round_number <= replay.rounds:
        raise RoundError(f"round {round_number!r} is not a round of this game (it has {replay.rounds})")
    steps = replay.game.view_steps(replay, None)
    return scene_at(replay, step=round_step(steps, round_number), view="public", names=names)


def round_svg(replay, round_number: int) -> str:
    """An SVG (1200x630) of round ``round_number``: its question with the winning answer in its
    blanks (the blanks left open when the round had no pick), the czar and the winner.

    Raises ``RoundError`` for a round the game does not have.
    """
    record = replay.round_record(round_number)
    question = record["question"]["text"]
    winning = next((s for s in record["submissions"] if s["won"]), None)
    if winning is not None:
        segments = winning["segments"]
    else:
        segments = fill_blanks(question, [])
    size, lines = _layout(segments)
    step = size * LINE_HEIGHT
    block = len(lines) * step
    top = TEXT_TOP + (TEXT_BOTTOM - TEXT_TOP - block) / 2 + size
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="DejaVu Sans, Arial, sans-serif">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="{BACKGROUND}"/>',
        f'<rect x="24" y="24" width="{WIDTH - 48}" height="{HEIGHT - 48}" rx="28" fill="none" '
        f'stroke="#3a3a4a" stroke-width="4"/>',
    ]
    heading = f"Round {round_number}"
    if replay.log.game_id:
        heading += f" · {replay.log.game_id[:60]}"
    parts.append(f'<text x="{MARGIN}" y="100" font-size="30" fill="#9a9ab0">{xml_text(heading)}</text>')
    for n, line in enumerate(lines):
        parts.append(_line_svg(line, MARGIN, top + n * step, size))
    czar = replay.name(record["czar"]) if record["czar"] else "nobody"
    if record["winner"] is not None:
        footer = f"Czar: {czar} · Winner: {replay.name(record['winner'])}"
    else:
        footer = f"Czar: {czar} · no pick"
    if len(footer) > 90:
        footer = footer[:89] + "…"
    parts.append(f'<text x="{MARGIN}" y="{HEIGHT - 60}" font-size="30" fill="#9a9ab0">{xml_text(footer)}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
