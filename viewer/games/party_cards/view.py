"""Party Cards' board data, read from the judged game's public API only.

The replay object (``replay.games.party_cards``' ``PartyReplay``) offers
``steps_json(seat=None)`` (per step: ``round``, ``czar``, ``question``, ``submissions`` with
``segments`` (the question with the answers in its blanks, plain data), ``choice``,
``round_winner``, ``scores``, ``status``, ``hands``, ``hand_sizes``, ``cards``, ``text``...),
``round_record(n)``, ``findings``, ``winners``, ``rounds`` and ``end_reason``; from the game's
package it takes only the blank-filling rule and which step a round's picture shows.

A seat's view is built from ``steps_json(seat)`` alone: the page embeds what that seat could
see (its own hand, submissions without authors until the pick), never the open data hidden by
the script. Card ids are embedded only for the cards the view holds (``hid``, ``cid``: studies
mark cards by id), never for submissions: in many logs ids follow the deal, so an id could
tell whose an anonymous answer is.

Texts are put once into a table (``game.texts``) and steps refer to them by index:

>>> table = TextTable()
>>> table.add("Bees?"), table.add("Soup."), table.add("Bees?"), table.texts
(0, 1, 0, ['Bees?', 'Soup.'])
>>> compact_segments([{"text": "Why? ", "answer": None, "blank": False},
...                   {"text": "Bees?", "answer": 0, "blank": True},
...                   {"text": "___", "answer": None, "blank": True}], table)
[[2, 0], [0, 1], [3, 2]]
"""

from __future__ import annotations

from typing import Any

from viewer.meta import meta_text
from replay.games.party_cards.cards import fill_blanks
from replay.games.party_cards.drawing import round_step
from flask import has_request_context, request
from viewer.errors import PageError

#: the longest OG description (chat apps cut around 200 characters)
MAX_DESCRIPTION = 200
#: segment kinds in the embedded data: the question's own text, an answer, a blank left open
QUESTION, ANSWER, OPEN_BLANK = 0, 1, 2


class RoundParameterError(ValueError):
    """A ``?round=`` value that names no round of the game."""


class TextTable:
    """Distinct texts in order of first use; ``add`` gives a text's index."""

    def __init__(self) -> None:
        self.index: dict[str, int] = {}
        self.texts: list[str] = []

    def add(self, text: str) -> int:
        found = self.index.get(text)
        if found is None:
            found = self.index[text] = len(self.texts)
            self.texts.append(text)
        return found


def segment_kind(segment: dict[str, Any]) -> int:
    if segment["answer"] is not None:
        return ANSWER
    return OPEN_BLANK if segment["blank"] else QUESTION


def compact_segments(segments: list[dict[str, Any]], table: TextTable) -> list[list[int]]:
    return [[table.add(s["text"]), segment_kind(s)] for s in segments]


def seats_of(replay: Any) -> tuple[str, ...]:
    return tuple(replay.seats)


def name_of(game: Any, seat: str | None) -> str:
    if seat is None:
        return ""
    return game.names.get(seat) or game.replay.name(seat)


def plain(text: str, most: int = MAX_DESCRIPTION) -> str:
    """One line of text for a meta tag (``viewer.meta.meta_text``, what every page's title and
    preview tags go through): control characters and line breaks become spaces, bidi
    overrides are dropped, and a text over ``most`` characters is cut with an ellipsis (the
    template escapes it).

    >>> plain("\\u202eBo\\u202c says\\n<b>hi</b>\\x00")
    'Bo says <b>hi</b>'
    """
    return meta_text(text, most)


def title(game: Any) -> str:
    """The page title. It names the players and the number of rounds but not the winner: a
    shared link must not give the result away."""
    r = game.replay
    joined = [name_of(game, s) for s in seats_of(r)]
    players = ", ".join(joined[:6]) + (f" and {len(joined) - 6} more" if len(joined) > 6 else "")
    rounds = f"{r.rounds} round{'' if r.rounds == 1 else 's'}"
    return f"Party Cards: {players} · {rounds}"


def perspectives(replay: Any) -> list[tuple[str, str]]:
    return [("all", "all cards open")] + [(s, f"{replay.name(s)}\u2019s view") for s in seats_of(replay)]


# --- rounds ------------------------------------------------------------------------------------

def round_marks(steps: list[dict[str, Any]]) -> list[dict[str, int | None]]:
    """For each round (in order): its first step, its pick step (``None`` without a pick) and
    its last step. The step a round's link opens at is its pick, else its last step."""
    rounds: list[dict[str, Any]] = []
    for s in steps:
        n = s["round"]
        if n < 1:
            continue
        while len(rounds) < n:
            rounds.append({"round": len(rounds) + 1, "start": s["i"], "pick": None, "last": s["i"]})
        mark = rounds[n - 1]
        mark["last"] = s["i"]
        if s["kind"] == "pick" and mark["pick"] is None:
            mark["pick"] = s["i"]
    for mark in rounds:
        mark["open"] = mark["pick"] if mark["pick"] is not None else mark["last"]
    return rounds


def chapters(steps: list[dict[str, Any]], marks: list[dict[str, Any]]) -> dict[str, Any]:
    """A chapter is a round: it ends at its pick (or its last step); before the first one is
    the lobby's last step."""
    before = marks[0]["start"] - 1 if marks else None
    return {"ends": [m["open"] for m in marks], "before": before if before is not None and before >= 0 else None}


def round_parameter(raw: str | None, rounds: int) -> int | None:
    """``?round=N``: ``None`` when absent; ``RoundParameterError`` when it names no round."""
    if raw is None or raw == "":
        return None
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 6:
        raise RoundParameterError(f"round must be a round number (1-{rounds}), not {raw[:20]!r}")
    n = int(raw)
    if not 1 <= n <= rounds:
        raise RoundParameterError(f"round {n} is not a round of this game (it has {rounds})")
    return n


# --- the embedded steps ------------------------------------------------------------------------

def compact_steps(replay: Any, shown: list[dict[str, Any]], table: TextTable) -> list[dict[str, Any]]:
    """The steps as the page's perspective saw them, with short keys and texts as indices."""
    seats = seats_of(replay)
    out = []
    for s in shown:
        question = s["question"]
        step: dict[str, Any] = {
            "i": s["i"], "k": s["kind"], "s": s["seat"], "x": s["text"], "r": s["round"], "cz": s["czar"],
            "q": None if question is None else table.add(question["text"]),
            "qp": None if question is None else question["pick"],
            "an": s["answered"], "rv": s["revealed"],
            "sub": [{"n": sub["number"], "s": sub["seat"], "m": sub["mine"], "w": sub["won"],
                     "g": compact_segments(sub["segments"], table)} for sub in s["submissions"]],
            "ch": s["choice"], "rw": s["round_winner"],
            "sc": [s["scores"][seat] for seat in seats],
            "st": [s["status"][seat] for seat in seats],
            "h": [None if s["hands"][seat] is None else [table.add(c["text"]) for c in s["hands"][seat]]
                  for seat in seats],
            "hs": [s["hand_sizes"][seat] for seat in seats],
            "c": None if s["cards"] is None else [table.add(c["text"]) for c in s["cards"]],
            # the ids of the cards this view holds (studies mark cards by id); never the
            # submissions' (before the pick an id could tell who wrote an answer)
            "hid": [None if s["hands"][seat] is None else [c["id"] for c in s["hands"][seat]] for seat in seats],
            "cid": None if s["cards"] is None else [c["id"] for c in s["cards"]],
            "ta": s["to_act"], "w": s["winner"],
        }
        if question is not None:
            step["blank"] = compact_segments(_blank_question(question["text"]), table)
        out.append(step)
    return out


def _blank_question(text: str) -> list[dict[str, Any]]:
    """The question with its blanks open: the game's own ``fill_blanks`` with no answers
    (imported here, when a party-cards game is shown, so the viewer loads without it)."""

    return fill_blanks(text, [])


# --- what the template draws -------------------------------------------------------------------

def submission_view(game: Any, sub: dict[str, Any]) -> dict[str, Any]:
    return {
        "number": sub["number"], "seat": sub["seat"], "name": name_of(game, sub["seat"]) if sub["seat"] else None,
        "mine": sub["mine"], "won": sub["won"],
        "segments": [{"text": g["text"], "kind": segment_kind(g)} for g in sub["segments"]],
    }


def record_rows(game: Any, shown: list[dict[str, Any]], marks: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The record: one row per round, as the perspective saw it at the round's last step (the
    czar, the winning answer filled in, the winner), with the step its link opens at."""
    rows = []
    for mark in marks:
        s = shown[mark["last"]]
        winning = next((sub for sub in s["submissions"] if sub["won"]), None)
        question = s["question"]["text"] if s["question"] else ""
        segments = (submission_view(game, winning)["segments"] if winning is not None
                    else [{"text": g["text"], "kind": segment_kind(g)} for g in _blank_question(question)])
        rows.append({
            "round": mark["round"], "step": mark["open"], "start": mark["start"], "pick": mark["pick"],
            "czar": name_of(game, s["czar"]), "winner": name_of(game, s["round_winner"]) if s["round_winner"] else None,
            "segments": segments,
        })
    return rows


def og_tags(game: Any, round_number: int | None, base: str) -> dict[str, Any]:
    """Open Graph / Twitter card fields. With a round: that round only (its question with the
    winning answer, its czar and winner), and its picture. Without: nothing past the title."""
    replay = game.replay
    query = f"?{game.query}" if game.query else ""
    if round_number is None:
        return {"title": plain(game.title), "description": plain(
            f"A Party Cards game with {len(seats_of(replay))} players: step through every round."),
            "url": base + game.path + query, "image": None}
    record = replay.round_record(round_number)
    winning = next((s for s in record["submissions"] if s["won"]), None)
    if winning is not None:
        filled = "".join(g["text"] for g in winning["segments"])
        said = f"{name_of(game, record['czar'])} picked {name_of(game, record['winner'])}\u2019s answer"
    else:
        filled = record["question"]["text"]
        said = f"{name_of(game, record['czar'])} was the czar; no pick"
    sep = "&" if query else "?"
    return {
        "title": plain(f"Party Cards, round {round_number}: {said}", 120),
        "description": plain(filled),
        "url": base + game.path + query + f"{sep}round={round_number}",
        # the preview's picture: the PNG of the round's pick as an onlooker saw it (the shell
        # draws it, viewer/services/replay.py); /round/<n>.svg is the same drawing as SVG
        "step": round_step(replay.game.view_steps(replay, None), round_number), "view": "public",
        "image_alt": plain(f"Round {round_number}: {filled}"),
    }


def _request_round(rounds: int) -> tuple[int | None, str]:
    """The page's ``?round=`` and its absolute base URL (outside a request: none)."""

    if not has_request_context():
        return None, ""
    return round_parameter(request.args.get("round"), rounds), request.host_url.rstrip("/")


def board_view(game: Any, index: int, perspective: str, options: dict[str, Any]) -> dict[str, Any]:
    """Everything the party-cards template and script need at step ``index`` from ``perspective``."""

    replay = game.replay
    seats = seats_of(replay)
    open_steps = replay.steps_json()
    seat = None if perspective == "all" else perspective
    shown = open_steps if seat is None else replay.steps_json(seat)
    current = shown[index]
    marks = round_marks(open_steps)
    try:
        round_link, base = _request_round(len(marks))
    except RoundParameterError as exc:
        raise PageError(str(exc), 404 if "not a round of" in str(exc) else 400, "No such round") from None
    table = TextTable()
    steps = compact_steps(replay, shown, table)
    findings = [f.to_json() for f in replay.findings]

    players = []
    for n, s in enumerate(seats):
        hand = current["hands"][s]
        players.append({
            "seat": s, "name": name_of(game, s), "score": current["scores"][s], "status": current["status"][s],
            "czar": current["czar"] == s, "answered": s in current["answered"], "to_act": current["to_act"] == s,
            "count": current["hand_sizes"][s], "visible": hand is not None,
            "cards": [c["text"] for c in hand] if hand is not None else [],
            "winner": s in replay.winners, "mine": s == seat,
        })
    question = current["question"]
    data = {
        "steps": steps,
        "game": {
            "seats": list(seats), "names": {s: name_of(game, s) for s in seats},
            "texts": table.texts, "perspective": perspective,
            "winners": list(replay.winners), "rounds": [
                {"n": m["round"], "start": m["start"], "pick": m["pick"], "open": m["open"]} for m in marks],
            "score_limit": replay.log.score_limit,
            "findings": findings, "end": replay.end_reason, "checked": replay.checked,
            "path": game.path, "query": game.query,
        },
        "chapters": chapters(open_steps, marks),
        "round_link": round_link,
    }
    last = len(shown) - 1
    return {
        "players": players,
        "seat": seat,
        "round": current["round"],
        "czar": name_of(game, current["czar"]),
        "question": None if question is None else {
            "pick": question["pick"],
            "segments": [{"text": g["text"], "kind": segment_kind(g)} for g in _blank_question(question["text"])]},
        "submissions": [submission_view(game, sub) for sub in current["submissions"]],
        "revealed": current["revealed"],
        "drawn": [c["text"] for c in current["cards"]] if current["cards"] else [],
        "outcome": {"winners": [name_of(game, w) for w in replay.winners], "end": replay.end_reason,
                    "rounds": replay.rounds, "final": index == last},
        "step": {"text": current["text"], "kind": current["kind"], "round": current["round"]},
        "record_rows": record_rows(game, shown, marks),
        "round_link": round_link,
        "og": og_tags(game, round_link, base),
        "data": data,
    }
