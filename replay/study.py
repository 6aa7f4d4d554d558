"""Studies: a game with annotations on its steps and what-if branches, for every game.

A *study* is a document (``study/1``, :class:`Study`): the game's log, a title, *notes* (a
comment in a small safe subset of Markdown, a glyph, highlighted cards and seats, arrows
between them) on any step of any line, and *branches*: from a step of a line (the game as
played is the line ``main``), alternative moves the game's engine finds legal there,
continued as far as the author likes. A branch is a game like any other: its log is the
parent line's events up to that step followed by the branch's moves, judged by the game's one
engine (:meth:`StudyGame.line`), so the board, the charts, the findings and the analysis all
work in it.

Only the game's interface is used (``start``, ``legal_events``, ``push``, ``finish``,
``step_events``, ``move_text``, ``judge``): the module names no game.

>>> from replay.games import get
>>> game = get("uno-lite")
>>> study = StudyGame.new(game.selfplay(seed=3), title="A first look")
>>> study.line("main").replay.step_count > 10
True
>>> moves = study.moves("main", 5)
>>> [m.seat for m in moves][:1] == [moves[0].seat] and len(moves) >= 1
True
>>> branched, branch = study.with_branch("main", 5, [moves[-1].event])
>>> branch, branched.line(branch).at, branched.line(branch).replay.findings
('b1', 5, [])
>>> noted = branched.with_note(branch, 6, comment="*Better*: keep the colour", glyph="!")
>>> noted.note(branch, 6).glyph, render_comment(noted.note(branch, 6).comment)
('!', '<p dir="auto"><em>Better</em>: keep the colour</p>')
>>> StudyGame.load(noted.to_json()).to_json() == noted.to_json()
True
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass
from typing import Any, Literal, Sequence

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .errors import ReplayError
from .games import UnknownGameError, game_for_format
from .games.base import GameModule, seat_text
from .log import LogFormatError, parse_log

FORMAT = "study/1"
MAIN = "main"
#: the glyphs a step may carry, with their names (PGN's numeric annotation glyphs 1-6)
GLYPHS: dict[str, str] = {"!": "good move", "?": "mistake", "!!": "brilliant move", "??": "blunder",
                          "!?": "interesting move", "?!": "dubious move"}
NAGS: dict[str, int] = {"!": 1, "?": 2, "!!": 3, "??": 4, "!?": 5, "?!": 6}

# --- limits (a study is user text: every one is checked, with its own message) ------------------
MAX_TITLE = 200                  # characters
MAX_COMMENT_BYTES = 128 * 1024   # one comment, UTF-8
MAX_COMMENTS_BYTES = 256 * 1024  # every comment of a study together (a page shows each three ways)
MAX_STUDY_BYTES = 4 * 1024 * 1024  # the whole document as JSON, the game's log included
MAX_NOTES = 2000
MAX_BRANCHES = 200
MAX_MOVES = 2000                 # in one branch
MAX_DEPTH = 16                   # branches of branches
MAX_MARKS = 64                   # highlights, and arrows, on one note
MAX_ID = 64                      # a card's or a seat's id in a mark
LINE_ID = re.compile(r"[a-z][a-z0-9]{0,15}")


class StudyError(ReplayError, ValueError):
    """A study that cannot be read or a change that cannot be made: the message says what and where."""


# --- the document ------------------------------------------------------------------------------

class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Mark(_Model):
    """A highlighted thing on the board: a card (its id as the game's log writes it, e.g.
    ``SA``, ``Y3``) or a seat (as the log writes it)."""

    kind: Literal["card", "seat"]
    id: str = Field(min_length=1, max_length=MAX_ID)


class Arrow(_Model):
    """An arrow from one marked thing to another."""

    start: Mark = Field(alias="from")
    to: Mark

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class Note(_Model):
    """What a study says at one step of one line."""

    line: str = MAIN
    step: int = Field(ge=0)
    comment: str = ""
    glyph: str | None = None
    highlights: tuple[Mark, ...] = Field(default=(), max_length=MAX_MARKS)
    arrows: tuple[Arrow, ...] = Field(default=(), max_length=MAX_MARKS)

    @property
    def empty(self) -> bool:
        return not (self.comment.strip() or self.glyph or self.highlights or self.arrows)


class Branch(_Model):
    """Moves tried instead of the line ``parent``'s own after its step ``at``."""

    id: str
    parent: str = MAIN
    at: int = Field(ge=0)
    moves: tuple[dict[str, Any], ...] = Field(min_length=1, max_length=MAX_MOVES)
    title: str = Field(default="", max_length=MAX_TITLE)


class Source(_Model):
    """Where the study's game came from (``code``: a replay code; ``game``: an archived game's
    public id; ``upload`` or ``file``: no reference is kept, an upload's token is a secret)."""

    kind: Literal["code", "game", "upload", "file"]
    ref: str | None = Field(default=None, max_length=4096)


class Study(_Model):
    """A study as JSON (``study/1``): what is stored, exported and imported."""

    format: Literal["study/1"] = FORMAT
    title: str = Field(default="", max_length=MAX_TITLE)
    game: str = ""  # the log's format, for readers that do not open the log
    log: dict[str, Any]
    source: Source | None = None
    branches: tuple[Branch, ...] = Field(default=(), max_length=MAX_BRANCHES)
    notes: tuple[Note, ...] = Field(default=(), max_length=MAX_NOTES)


# --- comments ----------------------------------------------------------------------------------

_LINK = re.compile(r"\[([^\[\]\n]{1,500})\]\(((?:[^()\s]|\([^()\s]*\)){1,2000})\)")
_TOKEN = re.compile(r"\*\*|__|\*|_|`")


def comment_text(text: str) -> str:
    """A comment as plain text (links as their text and URL, emphasis markers dropped), for
    pictures, oEmbed and the bridge formats.

    >>> comment_text("**Duck** here, see [the rules](https://example.org/r)")
    'Duck here, see the rules (https://example.org/r)'
    """
    text = _LINK.sub(lambda m: f"{m.group(1)} ({m.group(2)})", text)
    return re.sub(r"\*\*|__|(?<!\w)[*_]|[*_](?!\w)|`", "", text)


def _inline(text: str) -> str:
    """One paragraph's text -> HTML: everything escaped, then balanced emphasis tags only."""
    text = _LINK.sub(lambda m: f"{m.group(1)} ({m.group(2)})", text)
    out: list[str] = []
    stack: list[tuple[str, int]] = []  # open markers and where their text starts in out
    tags = {"**": "strong", "__": "strong", "*": "em", "_": "em", "`": "code"}
    pos = 0
    for found in _TOKEN.finditer(text):
        marker = found.group()
        if marker == "_" or marker == "__":
            before = text[found.start() - 1] if found.start() else " "
            after = text[found.end()] if found.end() < len(text) else " "
            if before.isalnum() and after.isalnum():  # snake_case is not emphasis
                continue
        out.append(html.escape(text[pos:found.start()], quote=False))
        pos = found.end()
        if stack and stack[-1][0] == marker and out and len(out) > stack[-1][1]:
            opened, at = stack.pop()
            out[at - 1] = f"<{tags[opened]}>"
            out.append(f"</{tags[opened]}>")
        elif stack and stack[-1][0] == "`":
            out.append(html.escape(marker, quote=False))
        else:
            out.append(html.escape(marker, quote=False))
            stack.append((marker, len(out)))
    out.append(html.escape(text[pos:], quote=False))
    return "".join(out)


def render_comment(text: str) -> str:
    """A comment (a small, safe subset of Markdown) as HTML: paragraphs (``dir="auto"`` so a
    right-to-left comment reads right to left), line breaks, ``*em*``/``_em_``,
    ``**strong**``/``__strong__``, `` `code` ``; a link ``[text](url)`` is shown as its text
    and its URL, never as a link. Every other character is escaped: no markup of the comment's
    own can reach the page.

    >>> render_comment("a <script>alert(1)</script> **b** [x](javascript:alert(1))")
    '<p dir="auto">a &lt;script&gt;alert(1)&lt;/script&gt; <strong>b</strong> x (javascript:alert(1))</p>'
    >>> render_comment("*open\\n\\nsnake_case_name")
    '<p dir="auto">*open</p><p dir="auto">snake_case_name</p>'
    """
    paragraphs = [p for p in re.split(r"\n\s*\n", text.replace("\r\n", "\n").replace("\r", "\n")) if p.strip()]
    return "".join('<p dir="auto">' + "<br>".join(_inline(line) for line in p.strip("\n").split("\n")) + "</p>"
                   for p in paragraphs)


# --- lines -------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Move:
    """One move the engine finds legal at a point: its index in ``legal_events``, the event as
    the log writes it, its seat, and words for it (``GameModule.move_text``)."""

    index: int
    event: dict[str, Any]
    seat: str | None
    text: str

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "event": self.event, "seat": self.seat, "text": self.text}


@dataclass(frozen=True)
class Line:
    """One line of a study: ``main`` (the game as played) or a branch, judged.

    ``at`` is the step of ``parent`` it leaves from (its steps up to ``at`` are the parent's);
    ``log`` and ``replay`` are the line's own game; ``cuts[k]`` is how many of the log's
    events make steps up to ``k`` (a branch from step ``k`` keeps ``events[:cuts[k]]``)."""

    id: str
    parent: str | None
    at: int
    depth: int
    log: Any
    replay: Any
    cuts: tuple[int, ...]
    title: str = ""

    @property
    def last(self) -> int:
        return self.replay.step_count - 1 if self.replay.step_count else 0


def _dump(event: Any) -> dict[str, Any]:
    return event.model_dump(mode="json", exclude_none=True, by_alias=True)


def _cuts(game: GameModule, replay: Any) -> tuple[int, ...]:
    """``cuts[k]``: the number of the log's events up to and including the one that made step
    ``k`` (step 0: none of them)."""
    made = game.step_events(replay)
    return tuple(0 if k == 0 or index is None else index + 1 for k, index in enumerate(made))


class StudyGame:
    """A study read and checked: its game, every line judged on first use, and edits that give
    a new study (the object itself never changes)."""

    def __init__(self, study: Study):
        self.study = study
        try:
            self.base_log = parse_log(study.log, "study")
        except LogFormatError as exc:
            raise StudyError(f"the study's game log cannot be read: {exc}") from None
        except UnknownGameError as exc:
            raise StudyError(f"the study's game is not one this site knows: {exc}") from None
        self.game: GameModule = game_for_format(self.base_log.format)
        self._lines: dict[str, Line] = {}
        self._branches = {b.id: b for b in study.branches}
        self._notes: list[Note] | None = None
        self._check()

    # -- reading --------------------------------------------------------------------------------
    @classmethod
    def load(cls, data: "str | bytes | dict[str, Any]") -> "StudyGame":
        """A study from its JSON (text, bytes or a decoded object); ``StudyError`` says what is wrong."""
        if isinstance(data, (str, bytes)):
            if len(data) > MAX_STUDY_BYTES:
                raise StudyError(f"the study is {len(data):,} bytes; at most {MAX_STUDY_BYTES:,} are allowed")
            try:
                data = json.loads(data)
            except (ValueError, UnicodeDecodeError) as exc:
                raise StudyError(f"the study is not JSON: {exc}") from None
            except RecursionError:
                raise StudyError("the study is not JSON a study can be: its arrays and objects are nested too deep") from None
        if not isinstance(data, dict):
            raise StudyError("a study is a JSON object with a 'log' (and 'notes', 'branches')")
        if data.get("format", FORMAT) != FORMAT:
            raise StudyError(f"format must be {FORMAT!r}, not {str(data.get('format'))[:40]!r}")
        try:
            study = Study.model_validate(data)
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "the study"
            raise StudyError(f"{where}: {first['msg']}") from None
        return cls(study)

    @classmethod
    def new(cls, log: Any, title: str = "", source: "Source | dict[str, Any] | None" = None) -> "StudyGame":
        """A study of a game log (any game's ``Log``) with nothing said yet."""
        data = json.loads(log.canonical_json())
        return cls.load({"format": FORMAT, "title": title, "game": log.format, "log": data,
                         "source": source.model_dump() if isinstance(source, Source) else source})

    def to_json(self) -> dict[str, Any]:
        """The study as JSON (``study/1``), in one canonical form."""
        data = self.study.model_dump(mode="json", by_alias=True, exclude_defaults=False)
        data["game"] = self.base_log.format
        data["notes"] = [n.model_dump(mode="json", by_alias=True) for n in self._sorted_notes()]
        return data

    def export_json(self) -> str:
        """The study as a JSON file's text (canonical, UTF-8, ends with a newline)."""
        return json.dumps(self.to_json(), ensure_ascii=False, indent=1, sort_keys=True) + "\n"

    # -- checks ---------------------------------------------------------------------------------
    def _check(self) -> None:
        study = self.study
        text = json.dumps(study.model_dump(mode="json", by_alias=True), ensure_ascii=False)
        if len(text.encode("utf-8", "surrogatepass")) > MAX_STUDY_BYTES:
            raise StudyError(f"the study is larger than {MAX_STUDY_BYTES:,} bytes")
        if study.source is not None and study.source.kind in ("upload", "file") and study.source.ref is not None:
            raise StudyError(f"source.ref: a study of {'an upload' if study.source.kind == 'upload' else 'a file'} "
                             "keeps no reference (an upload's token is a secret)")
        seen: set[str] = {MAIN}
        for n, branch in enumerate(study.branches):
            where = f"branches.{n}"
            if not LINE_ID.fullmatch(branch.id) or branch.id == MAIN:
                raise StudyError(f"{where}.id: {branch.id[:40]!r} is not a branch id (a lowercase letter, then up to 15 lowercase letters or digits; not 'main')")
            if branch.id in seen:
                raise StudyError(f"{where}.id: there are two lines called {branch.id!r}")
            if branch.parent not in seen:
                raise StudyError(f"{where}.parent: {branch.parent[:40]!r} is not a line before it (a branch comes after the line it leaves)")
            seen.add(branch.id)
            if self._depth(branch.id) > MAX_DEPTH:
                raise StudyError(f"{where}: branches may be nested at most {MAX_DEPTH} deep")
        for n, note in enumerate(study.notes):
            where = f"notes.{n}"
            if note.line not in seen:
                raise StudyError(f"{where}.line: there is no line {note.line[:40]!r}")
            if len(note.comment.encode("utf-8", "surrogatepass")) > MAX_COMMENT_BYTES:
                raise StudyError(f"{where}.comment: a comment may be at most {MAX_COMMENT_BYTES:,} bytes "
                                 f"(this one is {len(note.comment.encode('utf-8', 'surrogatepass')):,})")
            if note.glyph is not None and note.glyph not in GLYPHS:
                raise StudyError(f"{where}.glyph: {note.glyph[:10]!r} is not a glyph (one of {' '.join(GLYPHS)})")
            if _surrogates(note.comment):
                raise StudyError(f"{where}.comment: text holds a lone surrogate (not valid Unicode)")
        if _surrogates(text):  # a string pydantic took as it is (the log's own texts)
            raise StudyError("the study's text holds a lone surrogate (not valid Unicode)")
        # every line is judged: a move the engine does not allow, or a step that is not there,
        # is refused here rather than met later
        for branch in study.branches:
            self.line(branch.id)
        for n, note in enumerate(study.notes):
            if note.step > self.line(note.line).last:
                raise StudyError(f"notes.{n}.step: line {note.line!r} has steps 0-{self.line(note.line).last}, not {note.step}")
        # what is stored is the notes merged (one a step of a line): the limits hold for them too
        total = 0
        for note in self._sorted_notes():
            where = f"the note on step {note.step} of line {note.line!r}"
            size = len(note.comment.encode("utf-8", "surrogatepass"))
            total += size
            if size > MAX_COMMENT_BYTES:
                raise StudyError(f"{where}: its comments together are {size:,} bytes; a step's comment may be at most "
                                 f"{MAX_COMMENT_BYTES:,} (several notes on one step are joined)")
            if len(note.highlights) > MAX_MARKS or len(note.arrows) > MAX_MARKS:
                raise StudyError(f"{where}: at most {MAX_MARKS} highlights and {MAX_MARKS} arrows a step "
                                 "(several notes on one step are joined)")
        if total > MAX_COMMENTS_BYTES:
            raise StudyError(f"the study's comments are {total:,} bytes together; at most {MAX_COMMENTS_BYTES:,} are allowed")

    def _depth(self, line_id: str) -> int:
        depth = 0
        while line_id != MAIN:
            line_id = self._branches[line_id].parent
            depth += 1
        return depth

    # -- lines ----------------------------------------------------------------------------------
    @property
    def line_ids(self) -> list[str]:
        return [MAIN] + [b.id for b in self.study.branches]

    def line(self, line_id: str) -> Line:
        """The line ``line_id`` judged (``StudyError`` for a line the study does not have)."""
        found = self._lines.get(line_id)
        if found is not None:
            return found
        if line_id == MAIN:
            replay = self.game.judge(self.base_log)
            found = Line(MAIN, None, 0, 0, self.base_log, replay, _cuts(self.game, replay))
        else:
            branch = self._branches.get(line_id)
            if branch is None:
                raise StudyError(f"this study has no line {str(line_id)[:40]!r}")
            found = self._branch_line(branch)
        self._lines[line_id] = found
        return found

    def _branch_line(self, branch: Branch) -> Line:
        parent = self.line(branch.parent)
        if branch.at > parent.last:
            raise StudyError(f"branch {branch.id!r} leaves line {branch.parent!r} at step {branch.at}, "
                             f"but that line has steps 0-{parent.last}")
        data = parent.log.to_json_dict()
        data.pop("end", None)
        kept = data["events"][:parent.cuts[branch.at]]
        data["events"] = kept + [dict(m) for m in branch.moves]
        try:
            log = self.game.parse(data, f"branch {branch.id}")
        except LogFormatError as exc:
            raise StudyError(f"branch {branch.id!r}: its moves are not events of this game: {exc}") from None
        state = self._state(log, len(kept), f"branch {branch.id!r}")
        for n, event in enumerate(log.events[len(kept):]):
            where = f"branch {branch.id!r}, move {n + 1}"
            if state.over:
                raise StudyError(f"{where}: the game is over before it")
            text = self.game.move_text(state, event)  # the words of the position before it
            found = state.push(event, len(kept) + n)
            if found:
                raise StudyError(f"{where} ({text}) is not legal there: {found[0].message}")
        if state.over and not self.game.finish(state):
            data["end"] = {"reason": "completed"}
            log = self.game.parse(data, f"branch {branch.id}")
        replay = self.game.judge(log)
        made = replay.step_count - 1 - branch.at
        if made != len(branch.moves):
            raise StudyError(f"branch {branch.id!r}: its {len(branch.moves)} moves make {made} steps of the game: "
                             "a branch holds moves only (no chat, no announcements)")
        return Line(branch.id, branch.parent, branch.at, parent.depth + 1, log, replay,
                    _cuts(self.game, replay), branch.title)

    def _state(self, log: Any, upto: int, where: str) -> Any:
        """The position after ``log.events[:upto]`` (``StudyError`` when the game's rules
        stopped before it: a fatal finding leaves no position to branch from)."""
        state, findings = self.game.start(log)
        if any(f.fatal for f in findings) or state.stopped:
            raise StudyError(f"{where}: the game's setup breaks the rules, so there is no position to branch from")
        for index, event in enumerate(log.events[:upto]):
            state.push(event, index)
            if state.stopped:
                raise StudyError(f"{where}: the game broke the rules before this step "
                                 "(rule checking stopped), so there is no position to branch from")
        return state

    def position(self, line_id: str, step: int) -> Any:
        """The game's state after step ``step`` of line ``line_id``."""
        line = self.line(line_id)
        if not 0 <= step <= line.last:
            raise StudyError(f"line {line_id!r} has steps 0-{line.last}, not {step}")
        return self._state(line.log, line.cuts[step], f"line {line_id!r}, step {step}")

    def moves(self, line_id: str, step: int, view: str | None = None) -> list[Move]:
        """The moves that could be tried after step ``step`` of line ``line_id``, as ``view``
        may see them: ``None`` or ``"all"`` every legal move; a seat only its own moves, when it
        is to act (another seat's options would show what it holds; where other seats may answer
        too, as a challenge can, their moves are theirs alone), and no outcome of chance
        (``GameModule.chance``: the card a draw gives); anyone else none."""
        state = self.position(line_id, step)
        if state.over:
            return []
        seat_view = view not in (None, "all")
        if seat_view and (state.to_act is None or seat_text(state.to_act) != view):
            return []
        moves = []
        for n, event in enumerate(self.game.legal_events(state)):
            seat = None if getattr(event, "seat", None) is None else seat_text(event.seat)
            if seat_view and (seat not in (None, view) or self.game.chance(state, event)):
                continue
            moves.append(Move(n, _dump(event), seat, self.game.move_text(state, event)))
        return moves

    def owner(self, line_id: str, step: int) -> str:
        """The line a step of ``line_id`` belongs to: a branch's steps up to ``at`` are its
        parent's (a note there is the parent's note)."""
        if line_id != MAIN and line_id not in self._branches:
            raise StudyError(f"this study has no line {str(line_id)[:40]!r}")
        while line_id != MAIN:
            branch = self._branches[line_id]
            if step > branch.at:
                return line_id
            line_id = branch.parent
        return MAIN

    def children(self, line_id: str, step: int | None = None) -> list[Branch]:
        """The branches that leave ``line_id`` (at ``step``, if given)."""
        return [b for b in self.study.branches if b.parent == line_id and (step is None or b.at == step)]

    # -- notes ----------------------------------------------------------------------------------
    def _sorted_notes(self) -> list[Note]:
        if self._notes is None:
            self._notes = self._merged_notes()
        return self._notes

    def _merged_notes(self) -> list[Note]:
        merged: dict[tuple[str, int], Note] = {}
        for note in self.study.notes:
            line = self.owner(note.line, note.step) if note.line in self.line_ids else note.line
            key = (line, note.step)
            note = note.model_copy(update={"line": line})
            if key in merged:
                note = _merge(merged[key], note)
            merged[key] = note
        order = {line: n for n, line in enumerate(self.line_ids)}
        return [n for n in sorted(merged.values(), key=lambda n: (order[n.line], n.step)) if not n.empty]

    def note(self, line_id: str, step: int) -> Note | None:
        """The note on a step of a line (a branch's shared steps show its parent's notes)."""
        owner = self.owner(line_id, step)
        return next((n for n in self._sorted_notes() if n.line == owner and n.step == step), None)

    def notes(self, line_id: str) -> dict[int, Note]:
        """Every note a reader of ``line_id`` meets, by step."""
        last = self.line(line_id).last
        found = {}
        for note in self._sorted_notes():
            if note.step <= last and self.owner(line_id, note.step) == note.line:
                found[note.step] = note
        return dict(sorted(found.items()))

    # -- edits (each gives a new, checked study) -----------------------------------------------
    def replace(self, **changes: Any) -> "StudyGame":
        data = self.to_json()
        data.update(changes)
        return StudyGame.load(data)

    def with_note(self, line_id: str, step: int, **fields: Any) -> "StudyGame":
        """The study with the note at (``line_id``, ``step``) set to ``fields`` (comment, glyph,
        highlights, arrows); an empty note removes it."""
        owner = self.owner(line_id, step) if line_id in self.line_ids else line_id
        notes = [n.model_dump(mode="json", by_alias=True) for n in self._sorted_notes()
                 if (n.line, n.step) != (owner, step)]
        notes.append({"line": owner, "step": step, **fields})
        return self.replace(notes=notes)

    def with_branch(self, parent: str, at: int, moves: Sequence[dict[str, Any]], title: str = "") -> tuple["StudyGame", str]:
        """The study with a new branch from step ``at`` of ``parent``, and the branch's id."""
        taken = set(self.line_ids)
        n = 1
        while f"b{n}" in taken:
            n += 1
        branch = {"id": f"b{n}", "parent": parent, "at": at, "moves": list(moves), "title": title}
        data = self.to_json()
        data["branches"] = data["branches"] + [branch]
        return StudyGame.load(data), f"b{n}"

    def without_branch(self, line_id: str) -> "StudyGame":
        """The study without a branch, its own branches and their notes."""
        gone = {line_id}
        for b in self.study.branches:
            if b.parent in gone:
                gone.add(b.id)
        data = self.to_json()
        data["branches"] = [b for b in data["branches"] if b["id"] not in gone]
        data["notes"] = [n for n in data["notes"] if n["line"] not in gone]
        return StudyGame.load(data)


def _merge(a: Note, b: Note) -> Note:
    comment = "\n\n".join(c for c in (a.comment.strip(), b.comment.strip()) if c)
    return a.model_copy(update={
        "comment": comment, "glyph": b.glyph or a.glyph,
        "highlights": tuple(dict.fromkeys(a.highlights + b.highlights)),
        "arrows": tuple(dict.fromkeys(a.arrows + b.arrows))})


_SURROGATE = re.compile("[\ud800-\udfff]")


def _surrogates(text: str) -> bool:
    return _SURROGATE.search(text) is not None
