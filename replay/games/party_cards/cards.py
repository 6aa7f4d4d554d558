"""Question and answer cards: the bundled card pool and filling answers into blanks.

A question's blanks are runs of three or more underscores. ``fill_blanks`` puts the answers
into them and returns *segments*, plain data (never markup) that a board or an image draws:

>>> [s["text"] for s in fill_blanks("Why can't I sleep at night? ___", ["Bees?"])]
["Why can't I sleep at night? ", 'Bees?']
>>> fill_blanks("I packed ___ for the trip.", ["<b>A goose.</b>"])[1]
{'text': '<b>A goose.</b>', 'answer': 0, 'blank': True}
>>> "".join(s["text"] for s in fill_blanks("Step aside, ___. Here comes ___!", ["A goose.", "Glitter."]))
'Step aside, A goose. Here comes Glitter!'
>>> "".join(s["text"] for s in fill_blanks("Make a haiku.", ["Bees.", "Soup.", "Jazz hands."]))
'Make a haiku. Bees. / Soup. / Jazz hands.'

The pool (``data/cards-v1.json``) holds original cards written for this project's self-play:
>>> pool = card_pool(); len(pool.questions), len(pool.answers), pool.version
(60, 150, 1)
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Sequence

#: a blank in a question: three or more underscores
BLANK = re.compile(r"_{3,}")
POOL_FILE = "cards-v1.json"


def blank_count(question: str) -> int:
    """How many blanks a question text has.

    >>> blank_count("___ plus ___: the recipe"), blank_count("Make a haiku.")
    (2, 0)
    """
    return len(BLANK.findall(question))


def fill_blanks(question: str, answers: Sequence[str]) -> list[dict[str, Any]]:
    """The question with ``answers`` in its blanks, as segments ``{"text", "answer", "blank"}``.

    ``answer`` is the index of the answer a segment shows (``None`` for the question's own
    text), ``blank`` whether the segment stands in a blank. Answers fill the blanks in order;
    an unfilled blank stays ``___``; answers beyond the blanks follow the question, after a
    space, separated by `` / ``. When the question goes on after a blank, a filled answer's
    final full stop (one, not an ellipsis) is dropped: ``"I packed A goose for the trip."``,
    not ``"A goose. for"``. Texts are kept as they are otherwise: escaping is the drawing
    side's job.

    >>> fill_blanks("___", [])
    [{'text': '___', 'answer': None, 'blank': True}]
    """
    segments: list[dict[str, Any]] = []
    position = 0
    used = 0
    for match in BLANK.finditer(question):
        if match.start() > position:
            segments.append({"text": question[position:match.start()], "answer": None, "blank": False})
        if used < len(answers):
            text = answers[used]
            if match.end() < len(question) and text.endswith(".") and not text.endswith(".."):
                text = text[:-1]
            segments.append({"text": text, "answer": used, "blank": True})
            used += 1
        else:
            segments.append({"text": match.group(), "answer": None, "blank": True})
        position = match.end()
    if position < len(question):
        segments.append({"text": question[position:], "answer": None, "blank": False})
    for extra in range(used, len(answers)):
        segments.append({"text": " " if extra == used else " / ", "answer": None, "blank": False})
        segments.append({"text": answers[extra], "answer": extra, "blank": True})
    return segments


def filled_text(question: str, answers: Sequence[str]) -> str:
    """The filled question as one plain text."""
    return "".join(s["text"] for s in fill_blanks(question, answers))


@dataclass(frozen=True)
class CardPool:
    """The bundled cards: ``questions`` as ``(text, pick)`` pairs and ``answers`` as texts."""

    version: int
    questions: tuple[tuple[str, int], ...]
    answers: tuple[str, ...]

    def texts(self) -> list[str]:
        """Every card text, questions first (what the codec's dictionary is trained on)."""
        return [q for q, _ in self.questions] + list(self.answers)


@lru_cache(maxsize=1)
def card_pool() -> CardPool:
    """The bundled card pool, read once from the package data."""
    raw = resources.files("replay.games.party_cards").joinpath("data", POOL_FILE).read_text(encoding="utf-8")
    data = json.loads(raw)
    questions = tuple((q["text"], int(q["pick"])) for q in data["questions"])
    return CardPool(int(data["version"]), questions, tuple(data["answers"]))
