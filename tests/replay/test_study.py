"""``replay.study``: the study/1 document (notes, glyphs, marks, branches), its limits and
checks, and comments rendered as safe HTML. Real games judge the lines (UNO Lite is quick)."""

from __future__ import annotations

import html.parser
import json
import re
from functools import lru_cache

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from replay.games import get
from replay.study import (GLYPHS, MAIN, MAX_BRANCHES, MAX_COMMENT_BYTES, MAX_DEPTH, MAX_ID, MAX_MARKS, MAX_MOVES,
                          MAX_NOTES, MAX_STUDY_BYTES, MAX_TITLE, NAGS, StudyError, StudyGame, comment_text,
                          render_comment)


@lru_cache(maxsize=None)
def uno() -> StudyGame:
    return StudyGame.new(get("uno-lite").selfplay(seed=3), title="UNO")


@lru_cache(maxsize=None)
def branched() -> tuple[StudyGame, str]:
    """UNO with a branch ``b1`` from step 5 of main, three moves long."""
    study = uno()
    return study.with_branch(MAIN, 5, _walk(study, MAIN, 5, 3))


def _walk(study: StudyGame, line: str, at: int, count: int, pick: int = -1) -> list[dict]:
    """``count`` legal moves from step ``at`` of ``line`` (each time the ``pick``-th one)."""
    game = study.game
    state = study.position(line, at)
    moves = []
    for _ in range(count):
        event = game.legal_events(state)[pick]
        moves.append(event.model_dump(mode="json", exclude_none=True, by_alias=True))
        assert state.push(event, 0) == []
    return moves


def load_error(data) -> str:
    with pytest.raises(StudyError) as caught:
        StudyGame.load(data)
    return str(caught.value)


def with_fields(**fields) -> dict:
    data = uno().to_json()
    data.update(fields)
    return data


# --- notes: whose they are, merging, removing ----------------------------------------------

def test_a_note_on_a_branchs_shared_step_belongs_to_the_parent():
    study, b1 = branched()
    noted = study.with_note(b1, 3, comment="before the branch")
    assert [(n["line"], n["step"]) for n in noted.to_json()["notes"]] == [(MAIN, 3)]
    assert noted.owner(b1, 3) == MAIN and noted.owner(b1, 5) == MAIN and noted.owner(b1, 6) == b1
    assert noted.note(MAIN, 3) == noted.note(b1, 3) and noted.note(MAIN, 3).comment == "before the branch"
    # the branch's own steps are its own
    noted = noted.with_note(b1, 7, comment="in the branch", glyph="?!")
    assert noted.note(MAIN, 7) is None and noted.note(b1, 7).glyph == "?!"
    assert sorted(noted.notes(b1)) == [3, 7] and sorted(noted.notes(MAIN)) == [3]
    # a document that puts it on the branch reads the same
    data = noted.to_json()
    data["notes"][0]["line"] = b1
    assert StudyGame.load(data).to_json() == noted.to_json()


def test_a_nested_branch_s_shared_steps_belong_to_the_line_that_made_them():
    study, b1 = branched()
    study, b2 = study.with_branch(b1, 7, _walk(study, b1, 7, 1, pick=0))
    assert [study.owner(b2, k) for k in (4, 5, 6, 7, 8)] == [MAIN, MAIN, b1, b1, b2]
    assert study.line(b2).depth == 2 and study.line(b2).parent == b1
    noted = study.with_note(b2, 6, comment="x").with_note(b2, 2, comment="y")
    assert [(n["line"], n["step"]) for n in noted.to_json()["notes"]] == [(MAIN, 2), (b1, 6)]
    assert noted.children(b1) == noted.children(b1, 7) and [b.id for b in noted.children(b1, 7)] == [b2]
    assert noted.children(b1, 6) == []


def test_notes_on_the_same_step_merge_in_order():
    study, b1 = branched()
    data = study.to_json()
    card = {"kind": "card", "id": "Y3"}
    seat = {"kind": "seat", "id": "P1"}
    data["notes"] = [
        {"line": MAIN, "step": 4, "comment": "first ", "glyph": "!", "highlights": [card]},
        {"line": b1, "step": 4, "comment": "\nsecond", "highlights": [card, seat],
         "arrows": [{"from": seat, "to": card}]},
        {"line": MAIN, "step": 4, "glyph": "??", "arrows": [{"from": seat, "to": card}]},
    ]
    merged = StudyGame.load(data)
    (note,) = merged.to_json()["notes"]
    assert note == {"line": MAIN, "step": 4, "comment": "first\n\nsecond", "glyph": "??",
                    "highlights": [card, seat], "arrows": [{"from": seat, "to": card}]}
    assert StudyGame.load(merged.to_json()).to_json() == merged.to_json()


def test_empty_notes_are_dropped_and_an_empty_edit_removes_a_note():
    study = uno()
    assert study.with_note(MAIN, 2, comment=" \n\t ").to_json()["notes"] == []
    assert study.with_note(MAIN, 2, highlights=[], arrows=[]).to_json()["notes"] == []
    noted = study.with_note(MAIN, 2, comment="keep", glyph="!").with_note(MAIN, 3, glyph="?")
    assert [n["step"] for n in noted.to_json()["notes"]] == [2, 3]
    assert noted.with_note(MAIN, 2).note(MAIN, 2) is None
    assert [n["step"] for n in noted.with_note(MAIN, 2, comment="").to_json()["notes"]] == [3]
    # an edit replaces the whole note (glyph, marks) rather than adding to it
    again = noted.with_note(MAIN, 2, comment="new")
    assert (again.note(MAIN, 2).comment, again.note(MAIN, 2).glyph) == ("new", None)


def test_removing_a_branch_removes_its_branches_and_their_notes_only():
    study, b1 = branched()
    study, b2 = study.with_branch(b1, 7, _walk(study, b1, 7, 1, pick=0))
    study, b3 = study.with_branch(MAIN, 9, _walk(study, MAIN, 9, 2, pick=0))
    noted = (study.with_note(b1, 3, comment="shared, main's").with_note(b1, 7, comment="b1's")
             .with_note(b2, 8, comment="b2's").with_note(b3, 10, comment="b3's"))
    left = noted.without_branch(b1)
    assert left.line_ids == [MAIN, b3]
    assert [(n["line"], n["step"]) for n in left.to_json()["notes"]] == [(MAIN, 3), (b3, 10)]
    assert left.line(b3).replay.steps_json() == noted.line(b3).replay.steps_json()
    with pytest.raises(StudyError, match="this study has no line 'b1'"):
        left.line(b1)
    assert noted.without_branch(b2).line_ids == [MAIN, b1, b3]
    # ids are not reused while the line exists; a freed id may be taken again
    assert noted.with_branch(MAIN, 2, _walk(noted, MAIN, 2, 1))[1] == "b4"
    assert left.with_branch(MAIN, 2, _walk(left, MAIN, 2, 1))[1] == "b1"


def test_a_line_the_study_does_not_have_is_a_study_error_everywhere():
    study, _ = branched()
    for call in (lambda: study.line("b9"), lambda: study.note("b9", 0), lambda: study.owner("b9", 0),
                 lambda: study.notes("b9"), lambda: study.moves("b9", 0), lambda: study.position("b9", 0),
                 lambda: study.with_note("b9", 0, comment="x"), lambda: study.with_branch("b9", 0, [{"type": "pass"}])):
        with pytest.raises(StudyError, match="'b9'"):
            call()
    for step in (-1, study.line(MAIN).last + 1):
        with pytest.raises(StudyError, match=f"line 'main' has steps 0-{study.line(MAIN).last}, not {step}"):
            study.moves(MAIN, step)
    with pytest.raises(StudyError, match=r"notes.0.step: line 'main' has steps 0-\d+, not 999"):
        study.with_note(MAIN, 999, comment="x")


# --- limits and checks: each its own message --------------------------------------------------

def test_a_comment_may_be_128_kib_and_not_one_byte_more():
    study = uno()
    assert len(study.with_note(MAIN, 1, comment="a" * 100_000).note(MAIN, 1).comment) == 100_000
    assert len(study.with_note(MAIN, 1, comment="a" * MAX_COMMENT_BYTES).note(MAIN, 1).comment) == MAX_COMMENT_BYTES
    with pytest.raises(StudyError) as caught:
        study.with_note(MAIN, 1, comment="a" * (MAX_COMMENT_BYTES + 1))
    assert str(caught.value) == "notes.0.comment: a comment may be at most 131,072 bytes (this one is 131,073)"
    # bytes, not characters: a euro sign is three
    euros = "€" * (MAX_COMMENT_BYTES // 3 + 1)
    with pytest.raises(StudyError, match=r"^notes.0.comment: a comment may be at most 131,072 bytes \(this one is 131,073\)$"):
        study.with_note(MAIN, 1, comment=euros)


def test_every_limit_has_its_own_message():
    study, b1 = branched()
    base = study.to_json()
    branch = base["branches"][0]
    mark = {"kind": "card", "id": "Y3"}

    def changed(**fields):
        data = json.loads(json.dumps(base))
        data.update(fields)
        return data

    cases = {
        "title": (changed(title="t" * (MAX_TITLE + 1)), r"^title: String should have at most 200 characters$"),
        "branch title": (changed(branches=[{**branch, "title": "t" * (MAX_TITLE + 1)}]),
                         r"^branches.0.title: String should have at most 200 characters$"),
        "notes": (changed(notes=[{"line": MAIN, "step": 1, "glyph": "!"}] * (MAX_NOTES + 1)),
                  r"^notes: Tuple should have at most 2000 items after validation, not 2001$"),
        "branches": (changed(branches=[{**branch, "id": f"b{n}"} for n in range(1, MAX_BRANCHES + 2)]),
                     r"^branches: Tuple should have at most 200 items after validation, not 201$"),
        "moves": (changed(branches=[{**branch, "moves": [{"type": "pass", "seat": "P1"}] * (MAX_MOVES + 1)}]),
                  r"^branches.0.moves: Tuple should have at most 2000 items after validation, not 2001$"),
        "no moves": (changed(branches=[{**branch, "moves": []}]),
                     r"^branches.0.moves: Tuple should have at least 1 item after validation, not 0$"),
        "highlights": (changed(notes=[{"line": MAIN, "step": 1, "highlights": [mark] * (MAX_MARKS + 1)}]),
                       r"^notes.0.highlights: Tuple should have at most 64 items after validation, not 65$"),
        "arrows": (changed(notes=[{"line": MAIN, "step": 1, "arrows": [{"from": mark, "to": mark}] * (MAX_MARKS + 1)}]),
                   r"^notes.0.arrows: Tuple should have at most 64 items after validation, not 65$"),
        "mark id": (changed(notes=[{"line": MAIN, "step": 1, "highlights": [{"kind": "seat", "id": "x" * (MAX_ID + 1)}]}]),
                    r"^notes.0.highlights.0.id: String should have at most 64 characters$"),
        "empty mark id": (changed(notes=[{"line": MAIN, "step": 1, "highlights": [{"kind": "seat", "id": ""}]}]),
                          r"^notes.0.highlights.0.id: String should have at least 1 character$"),
        "mark kind": (changed(notes=[{"line": MAIN, "step": 1, "highlights": [{"kind": "trick", "id": "1"}]}]),
                      r"^notes.0.highlights.0.kind: Input should be 'card' or 'seat'$"),
        "glyph": (changed(notes=[{"line": MAIN, "step": 1, "glyph": "!!!"}]),
                  r"^notes.0.glyph: '!!!' is not a glyph \(one of ! \? !! \?\? !\? \?!\)$"),
        "negative step": (changed(notes=[{"line": MAIN, "step": -1, "glyph": "!"}]),
                          r"^notes.0.step: Input should be greater than or equal to 0$"),
        "note line": (changed(notes=[{"line": "b7", "step": 1, "glyph": "!"}]), r"^notes.0.line: there is no line 'b7'$"),
        "note step": (changed(notes=[{"line": b1, "step": study.line(b1).last + 1, "glyph": "!"}]),
                      rf"^notes.0.step: line 'b1' has steps 0-{study.line(b1).last}, not {study.line(b1).last + 1}$"),
        "branch at": (changed(branches=[{**branch, "at": 10_000}]),
                      r"^branch 'b1' leaves line 'main' at step 10000, but that line has steps 0-\d+$"),
        "source": (changed(source={"kind": "url", "ref": "x"}),
                   r"^source.kind: Input should be 'code', 'game', 'upload' or 'file'$"),
        "format": (changed(format="study/2"), r"^format must be 'study/1', not 'study/2'$"),
        "no log": ({"format": "study/1"}, r"^log: Field required$"),
        "log": (changed(log={"format": "chess/1"}), r"^the study's game log cannot be read: format: 'chess/1' is not a known format"),
    }
    for label, (data, message) in cases.items():
        got = load_error(data)
        assert re.search(message, got), (label, got)
    # a whole study over 4 MiB: its own message, as text and as an object
    big = changed(notes=[{"line": MAIN, "step": k, "comment": "c" * 120_000} for k in range(1, 37)])
    assert load_error(big) == f"the study is larger than {MAX_STUDY_BYTES:,} bytes"
    text = json.dumps(big)
    assert load_error(text) == f"the study is {len(text):,} bytes; at most {MAX_STUDY_BYTES:,} are allowed"


def test_branches_nest_at_most_max_depth_deep():
    study = uno()
    line, at = MAIN, 1
    for _ in range(MAX_DEPTH):
        study, line = study.with_branch(line, at, _walk(study, line, at, 1, pick=0))
        at += 1
    assert study.line(line).depth == MAX_DEPTH
    with pytest.raises(StudyError, match=rf"^branches.{MAX_DEPTH}: branches may be nested at most {MAX_DEPTH} deep$"):
        study.with_branch(line, at, _walk(study, line, at, 1, pick=0))


@pytest.mark.parametrize("bad, message", [
    ("B1", "is not a branch id"), ("main", "is not a branch id"), ("1b", "is not a branch id"),
    ("b" * 17, "is not a branch id"), ("b-1", "is not a branch id"), ("", "is not a branch id"),
    ("b\u0131", "is not a branch id"),
])
def test_bad_branch_ids_are_refused(bad, message):
    study, _ = branched()
    data = study.to_json()
    data["branches"][0]["id"] = bad
    assert load_error(data).startswith(f"branches.0.id: {bad[:40]!r} {message}")


def test_branch_ids_are_unique_and_parents_come_first():
    study, b1 = branched()
    data = study.to_json()
    data["branches"] = data["branches"] * 2
    assert load_error(data) == "branches.1.id: there are two lines called 'b1'"
    data = study.to_json()
    data["branches"] = [{**data["branches"][0], "id": "b2", "parent": "b3"}, {**data["branches"][0], "id": "b3"}]
    assert load_error(data).startswith("branches.0.parent: 'b3' is not a line before it")


@settings(max_examples=60, deadline=None)
@given(glyph=st.text(max_size=4))
def test_only_the_six_glyphs_are_taken(glyph):
    study = uno()
    if glyph in GLYPHS:
        assert study.with_note(MAIN, 1, glyph=glyph).note(MAIN, 1).glyph == glyph
    else:
        with pytest.raises(StudyError, match="^notes.0.glyph: "):
            study.with_note(MAIN, 1, glyph=glyph)


def test_the_glyphs_and_their_nags():
    assert list(GLYPHS) == ["!", "?", "!!", "??", "!?", "?!"] and NAGS == {g: n for n, g in enumerate(GLYPHS, 1)}


@pytest.mark.parametrize("surrogate", ["\ud800", "\udc00", "\udbff\udbff", "x\udfffy"])
def test_lone_surrogates_are_refused_wherever_they_are(surrogate):
    study, _ = branched()
    with pytest.raises(StudyError, match="^notes.0.comment: text holds a lone surrogate"):
        study.with_note(MAIN, 1, comment=surrogate)
    with pytest.raises(StudyError, match="^title: "):
        study.replace(title=surrogate)
    data = study.to_json()
    data["branches"][0]["title"] = surrogate
    assert load_error(data).startswith("branches.0.title: ")
    with pytest.raises(StudyError, match="^notes.0.highlights.0.id: "):
        study.with_note(MAIN, 1, highlights=[{"kind": "seat", "id": surrogate}])
    # as JSON text (a \\ud800 escape) too
    text = json.dumps(study.to_json() | {"notes": [{"line": MAIN, "step": 1, "comment": surrogate}]})
    assert "\\ud" in text
    assert load_error(text).startswith("notes.0.comment: text holds a lone surrogate")


@pytest.mark.parametrize("where", ["top", "note", "branch", "mark", "arrow", "source"])
def test_unknown_fields_are_refused(where):
    study, _ = branched()
    data = study.with_note(MAIN, 1, comment="x", highlights=[{"kind": "seat", "id": "P1"}],
                           arrows=[{"from": {"kind": "seat", "id": "P1"}, "to": {"kind": "seat", "id": "P2"}}]).to_json()
    data["source"] = {"kind": "file"}
    target, path = {"top": (data, "colour"), "note": (data["notes"][0], "notes.0.colour"),
                    "branch": (data["branches"][0], "branches.0.colour"),
                    "mark": (data["notes"][0]["highlights"][0], "notes.0.highlights.0.colour"),
                    "arrow": (data["notes"][0]["arrows"][0], "notes.0.arrows.0.colour"),
                    "source": (data["source"], "source.colour")}[where]
    target["colour"] = "red"
    assert load_error(data) == f"{path}: Extra inputs are not permitted"


@pytest.mark.parametrize("data, message", [
    ("", "the study is not JSON"), ("{", "the study is not JSON"), (b"\xff\xfe{}", "the study is not JSON"),
    ("[]", "a study is a JSON object"), ("null", "a study is a JSON object"), (3, "a study is a JSON object"),
    ("[" * 100_000 + "]" * 100_000, "nested too deep"),
    ({"log": 3}, "log: Input should be a valid dictionary"),
    ({"log": {}}, "the study's game log cannot be read"),
])
def test_what_is_not_a_study_says_so(data, message):
    assert message in load_error(data)


def test_a_study_names_its_game_from_its_log():
    data = uno().to_json()
    data["game"] = "something else"
    assert StudyGame.load(data).to_json()["game"] == "uno-lite/1"


# --- comments ----------------------------------------------------------------------------------

class _Page(html.parser.HTMLParser):
    """Every element of a fragment with its attributes, its text, and whether it nests well."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, list]] = []
        self.open: list[str] = []
        self.text: list[str] = []
        self.nested = True

    def handle_starttag(self, tag, attrs):
        self.elements.append((tag, attrs))
        if tag == "br":
            self.text.append("\n")
        else:
            if tag == "p" and self.open:
                self.nested = False
            if tag == "p":
                self.text.append("\n\n")
            self.open.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag):
        if not self.open or self.open.pop() != tag:
            self.nested = False

    def handle_data(self, data):
        if not self.open:
            self.nested = False
        self.text.append(data)

    def handle_comment(self, data):
        self.elements.append(("<!--", []))

    def handle_decl(self, decl):
        self.elements.append(("<!", []))

    def handle_pi(self, data):
        self.elements.append(("<?", []))

    def unknown_decl(self, data):
        self.elements.append(("<![", []))


def parsed(fragment: str) -> _Page:
    page = _Page()
    page.feed(fragment)
    page.close()
    return page


MARKERS = re.compile(r"[*_`]")


def words(text: str) -> str:
    """Text with the emphasis markers dropped and white space made single spaces."""
    return " ".join(MARKERS.sub("", text).split())


#: text a comment may hold: anything but lone surrogates, with markup-like pieces frequent
_PIECES = st.one_of(
    st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="[]()"), max_size=12),
    st.sampled_from(["*", "**", "_", "__", "`", "\n", "\n\n", "\r\n", "<", ">", "&", "&amp;", '"', "'", "<b>",
                     "</p>", "<script>", "snake_case", "\u202e", "\u2066", " ", "<!--", "]]>", "\x00", "\u2028"]),
)
_LINKED = st.tuples(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="[]()\n\r"), min_size=1, max_size=10),
                    st.text(st.characters(blacklist_categories=("Cs", "Zs", "Zl", "Zp", "Cc"), blacklist_characters="()[]"),
                            min_size=1, max_size=12).filter(lambda u: not any(c.isspace() for c in u)))
_COMMENTS = st.lists(st.one_of(_PIECES, _LINKED), max_size=14)


def _join(parts) -> tuple[str, str]:
    """A comment from pieces and links, and the same text with each link as "text (url)"."""
    comment, shown = [], []
    for part in parts:
        if isinstance(part, tuple):
            comment.append(f"[{part[0]}]({part[1]})")
            shown.append(f"{part[0]} ({part[1]})")
        else:
            comment.append(part)
            shown.append(part)
    return "".join(comment), "".join(shown)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(parts=_COMMENTS)
def test_a_rendered_comment_is_only_its_text_in_a_few_plain_tags(parts):
    comment, shown = _join(parts)
    out = render_comment(comment)
    page = parsed(out)
    for tag, attrs in page.elements:
        assert tag in ("p", "br", "em", "strong", "code"), (comment, out)
        assert attrs == ([("dir", "auto")] if tag == "p" else []), (comment, out)
    assert page.nested, (comment, out)
    assert words("".join(page.text)) == words(shown), (comment, out)
    assert out == "" or out.startswith('<p dir="auto">') and out.endswith("</p>")
    assert words(comment_text(comment)) == words(shown)
    assert "<" not in comment_text(comment).replace("<", "") and comment_text(comment).count("<") == shown.count("<")


@pytest.mark.parametrize("hostile", [
    "<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "[click](javascript:alert(1))",
    "[x](javascript:alert(document.cookie))<a href=\"javascript:alert(1)\">y</a>",
    "\u202eevil\u202c and \u2067isolate", "مرحبا **بالعالم**", "<svg/onload=alert(1)>", "&lt;script&gt;",
    "<style>*{display:none}</style>", "<iframe src=//evil>", "`<b>`", "**<i>x</i>**", "\"'><script>",
    "<!-- a --> <![CDATA[ x ]]>", "a" * 100_000 + "<b>", "<p dir=rtl onclick=x>",
])
def test_hostile_comments_stay_text(hostile):
    out = render_comment(hostile)
    page = parsed(out)
    assert {tag for tag, _ in page.elements} <= {"p", "br", "em", "strong", "code"}
    assert all(attrs == ([("dir", "auto")] if tag == "p" else []) for tag, attrs in page.elements)
    assert words("".join(page.text)) == words(comment_text(hostile)) == words(
        re.sub(r"\[([^\]]+)\]\(([^)]+(?:\([^)]*\))?)\)", r"\1 (\2)", hostile))
    assert set(re.findall(r"<[^>]*>", out)) <= {'<p dir="auto">', "</p>", "<br>", "<em>", "</em>", "<strong>",
                                                 "</strong>", "<code>", "</code>"}


def test_comment_markup_examples():
    assert render_comment("**Duck** here, _then_ `cash`") == (
        '<p dir="auto"><strong>Duck</strong> here, <em>then</em> <code>cash</code></p>')
    assert render_comment("one\ntwo\r\n\r\nthree") == '<p dir="auto">one<br>two</p><p dir="auto">three</p>'
    assert render_comment("`*not em*`") == '<p dir="auto"><code>*not em*</code></p>'
    assert render_comment("a snake_case_name and __init__") == (
        '<p dir="auto">a snake_case_name and <strong>init</strong></p>')
    assert render_comment("[the rules](https://example.org/a_(b))") == (
        '<p dir="auto">the rules (https://example.org/a_(b))</p>')
    assert render_comment("   \n\n  ") == ""
    assert comment_text("**Duck**, [rules](https://x.org)") == "Duck, rules (https://x.org)"


# --- what a seat's view is offered (hidden information) -----------------------------------

def test_a_seat_is_not_offered_the_cards_a_draw_could_give():
    """UNO: where the seat to move must draw, every card left is a move with all cards open,
    and none in the seat's own view (the cards a draw could give tell the other hand)."""
    for seed in range(6):
        study = StudyGame.new(get("uno-lite").selfplay(seed=seed))
        for k in range(study.line(MAIN).last + 1):
            every = study.moves(MAIN, k)
            if every and all(m.event["type"] == "draw" for m in every):
                seat = every[0].seat
                assert len(every) > 1 and len({m.event["card"] for m in every}) == len(every)
                assert study.moves(MAIN, k, seat) == []
                return
    pytest.fail("no position where a seat must draw")


def test_a_seat_is_offered_neither_another_seats_answers_nor_its_draws():
    """Coup: while the actor is to act, another seat may challenge; the actor's view lists
    the actor's moves only, and a replacement card drawn is never a seat's to pick."""
    kinds = set()
    for seed in range(4):
        study = StudyGame.new(get("coup").selfplay(seed=seed))
        for k in range(study.line(MAIN).last + 1):
            every = study.moves(MAIN, k)
            to_act = study.position(MAIN, k).to_act
            mine = study.moves(MAIN, k, to_act) if to_act is not None else []
            assert {m.seat for m in mine} <= {to_act}
            assert not {m.event["type"] for m in mine} & {"replace", "exchange"}
            assert [m for m in every if m.seat == to_act and m.event["type"] not in ("replace", "exchange")] == mine
            kinds |= {(m.seat == to_act, m.event["type"]) for m in every}
    assert (False, "challenge") in kinds and (True, "replace") in kinds or (False, "replace") in kinds
