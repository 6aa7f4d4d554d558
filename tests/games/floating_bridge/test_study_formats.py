"""Floating bridge studies as PBN and LIN: written, read back to the same notes and branches,
read by endplay's PBN parser, and bad files refused with a StudyError."""

from __future__ import annotations

import io
import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay.games import get
from replay.games.floating_bridge.formats import study_lin, study_pbn
from replay.games.floating_bridge.formats.pbn import pbn_hand, to_pbn
from replay.log import LogFormatError
from replay.study import GLYPHS, StudyError, StudyGame

GAME = get("floating-bridge")
FORMATS = {"pbn": study_pbn, "lin": study_lin}
HOSTILE = [
    "Duck *here*: {West} should } not { win",            # braces
    "a | b || c|",                                        # LIN's field end
    "two\nlines\n\nand a paragraph\r\nand CR",            # line breaks
    "Zoë Łukasz 花子 🂡 ♠A ♥10 !S",                       # outside Latin-1, suit symbols, BBO's !S
    "שלום, West should duck ‏(RTL)‏ مرحبا",               # right to left
    "% not an escape line; nor ; a line comment \\ backslash \\u0041",
    "$1 not a NAG, =1= not a note, ! not a glyph",
    "Floating bridge, rules bridgebot: not the export's note",
    "What-if line b9 (from line main after step 3): not a header",
    " leading and trailing spaces ",
    "x" * 5000,                                           # longer than a line
]


def _expected(study: StudyGame, plain: bool = True) -> tuple[list[tuple], list[dict], str]:
    """Notes (their comments exactly as written: the bridge formats keep them so), branches,
    title."""
    data = study.to_json()
    notes = []
    for n in data["notes"]:
        comment = n["comment"]  # the formats keep a comment as written, Markdown markers and all
        if comment.strip() or n["glyph"]:
            notes.append((n["line"], n["step"], comment if comment.strip() else "", n["glyph"]))
    return notes, data["branches"], data["title"]


def _round_trip(study: StudyGame, fmt) -> StudyGame:
    text = study_text = fmt.write(study)
    if fmt is study_pbn:
        study_text.encode("latin-1")  # PBN's characters only: this raises otherwise
        assert all(len(line) <= 253 for line in text.split("\r\n"))
    return StudyGame.load(fmt.read(text))


@pytest.fixture(scope="module")
def study() -> StudyGame:
    """A study with notes on the deal, calls, the partner call and cards, glyphs, hostile text,
    a branch, a branch of the branch and a second branch from the same line."""
    found = StudyGame.new(GAME.selfplay(seed=7), title="Ducking, {really} | ✓ שלום")
    main = found.line("main")
    kinds = [s.kind for s in main.replay.steps]
    partner = kinds.index("partner")
    cards = [n for n, k in enumerate(kinds) if k == "play"]
    steps = [0, 1, 2, partner - 1, partner, cards[0], cards[3], cards[10], main.last]
    for n, step in enumerate(steps):
        glyph = list(GLYPHS)[n % len(GLYPHS)] if n % 3 else None
        found = found.with_note("main", step, comment=HOSTILE[n % len(HOSTILE)], glyph=glyph)
    found = found.with_note("main", cards[4], glyph="??")  # a glyph alone
    at = cards[5]
    moves = found.moves("main", at)
    other = next(m for m in moves if m.event["card"] != main.log.events[main.cuts[at]].card.__str__())
    found, b1 = found.with_branch("main", at, [other.event], title="Try ♠ | {this}")
    for _ in range(5):
        line = found.line(b1)
        found = StudyGame.load({**found.to_json(), "branches": [
            {**b, "moves": b["moves"] + [found.moves(b1, line.last)[-1].event]} if b["id"] == b1 else b
            for b in found.to_json()["branches"]]})
    found = found.with_note(b1, at + 1, comment=HOSTILE[3], glyph="!")
    found = found.with_note(b1, at + 3, comment=HOSTILE[0])
    found, b2 = found.with_branch(b1, at + 2, [found.moves(b1, at + 2)[0].event], title="")
    found = found.with_note(b2, at + 3, comment="nested", glyph="?!")
    found, b3 = found.with_branch("main", 2, [found.moves("main", 2)[-1].event], title="In the auction")
    found = found.with_note(b3, 3, comment=HOSTILE[1])
    return found


@pytest.mark.parametrize("name", FORMATS)
def test_round_trip_keeps_notes_branches_and_title(study: StudyGame, name: str) -> None:
    back = _round_trip(study, FORMATS[name])
    assert _expected(back, plain=False) == _expected(study)
    assert len(back.line_ids) == 4 and back.line("b2").parent == "b1"


@pytest.mark.parametrize("name", FORMATS)
def test_export_of_the_reimport_is_the_same_file(study: StudyGame, name: str) -> None:
    fmt = FORMATS[name]
    once = fmt.write(study)
    assert fmt.read(fmt.write(StudyGame.load(fmt.read(once)))) == fmt.read(once)


def test_pbn_without_notes_is_the_pbn_export() -> None:
    log = GAME.selfplay(seed=3)
    text = study_pbn.write(StudyGame.new(log))
    assert text == "% PBN 2.1\r\n% EXPORT\r\n" + to_pbn(log).replace('[Auction "', '[StudyLine "main"]\r\n[Auction "', 1)


def test_pbn_notes_are_pbn_notes_and_suffix_annotations(study: StudyGame) -> None:
    text = study_pbn.write(study)
    main = text.split("\r\n\r\n")[0]
    auction = main.split('[Auction "')[1].split("\r\n[")[0]
    assert re.search(r"=1=", auction) and '[Note "1:' in main
    assert re.search(r"\b(Pass|[1-7](NT|[CDHS]))(!!|\?\?|!\?|\?!|!|\?)( |\r)", auction)
    # the exact text of a lossy note follows its tag, with no brace or % of its own inside
    for comment in re.findall(r"\{([^}]*)\}", text):
        assert "{" not in comment and not any(line.startswith("%") for line in comment.split("\r\n"))


def test_lin_notes_follow_their_call_or_card(study: StudyGame) -> None:
    first = study_lin.write(study).split("\n")[0]
    assert "\n" not in first and first.startswith("pn|")
    assert "|nt|!S" not in first or "\\u0021S" in first
    # the note on step 1 comes right after the first call
    assert re.search(r"\|mb\|[^|]*\|nt\|", first)
    assert "|vg|Ducking\\u002C {really} \\u007C ✓ שלום|" in first


def test_endplay_reads_every_game_of_the_pbn_export(study: StudyGame) -> None:
    from endplay.parsers import pbn as endplay_pbn

    text = study_pbn.write(study)
    boards = endplay_pbn.load(io.StringIO(text))
    assert len(boards) == len(study.line_ids)
    for board, line_id in zip(boards, study.line_ids):
        line = study.line(line_id)
        assert board.deal.to_pbn() == "N:" + " ".join(pbn_hand(h) for h in line.log.hands.by_seat())
        calls = [e for e in line.log.events if e.type == "bid"]
        assert len(board.auction) == len(calls)
        assert len(board.play) == sum(e.type == "play" for e in line.log.events)
        assert board.info["StudyLine"] == line_id
    # the notes on calls reach endplay as the calls' announcements (Latin-1, one line)
    said = [b.announcement for b in boards[0].auction if b.announcement]
    assert said[0] == HOSTILE[1] == study.note("main", 1).comment
    assert len(said) == 3  # steps 1, 2 and the last call have comments


def test_plain_pbn_with_comments_reads_as_a_study() -> None:
    log = GAME.selfplay(seed=11)
    text = to_pbn(log)
    lines = text.split("\r\n")
    auction = lines.index(next(x for x in lines if x.startswith("[Auction")))
    play = lines.index(next(x for x in lines if x.startswith("[Play")))
    calls = lines[auction + 1].split()
    lines[auction + 1] = " ".join([calls[0], "{opening", "comment}", *calls[1:2], "$4", *calls[2:]])
    cards = lines[play + 1].split()
    lines[play + 1] = " ".join([cards[0] + "!", "{the lead}", *cards[1:]]) + " ; end of the trick"
    lines.insert(auction, "{about the deal}")
    study = StudyGame.load(study_pbn.read("\r\n".join(lines)))
    replay = study.line("main").replay
    lead = next(n for n, s in enumerate(replay.steps) if s.kind == "play")
    notes = {step: (n.comment, n.glyph) for step, n in study.notes("main").items()}
    assert notes[0] == ("about the deal", None)
    assert notes[1] == ("opening comment", None)
    assert notes[2] == ("", "??")
    assert notes[lead][0] == "the lead" and notes[lead][1] == "!"
    assert study.line_ids == ["main"] and replay.step_count == log.replay().step_count


@pytest.mark.parametrize("text, words", [
    ("", "no PBN game"),
    ('[Event "x"]\r\n[Deal "N:AKQ.. . . ."]\r\n', "Deal tag"),
    ("{never closed\r\n[Event \"x\"]", "never closed"),
])
def test_bad_pbn_is_refused(text: str, words: str) -> None:
    with pytest.raises(StudyError, match=re.escape(words)):
        study_pbn.read(text)


def test_pbn_of_standard_bridge_is_refused() -> None:
    text = to_pbn(GAME.selfplay(seed=3))
    lines = text.split("\r\n")
    auction = lines.index(next(x for x in lines if x.startswith("[Auction")))
    doubled = lines.copy()
    doubled[auction + 1] = doubled[auction + 1].replace("Pass", "X", 1)
    with pytest.raises(StudyError, match="double"):
        study_pbn.read("\r\n".join(doubled))
    no_partner = [x for x in lines if not x.startswith("[PartnerCard")]
    with pytest.raises(StudyError, match="PartnerCard"):
        study_pbn.read("\r\n".join(no_partner))
    with pytest.raises(StudyError, match="not one of its lines"):
        study_pbn.read(text + "\r\n" + text)


def test_bad_lin_is_refused() -> None:
    log = GAME.selfplay(seed=3)
    study = StudyGame.new(log)
    text = study_lin.write(study)
    with pytest.raises(StudyError, match="no deal"):
        study_lin.read("pn|a,b,c,d|mb|1S|")
    with pytest.raises(StudyError, match="partner card"):
        study_lin.read(re.sub(r"\|nt\|Floating bridge[^|]*", "", text))
    with pytest.raises(StudyError, match="double"):
        study_lin.read(text.replace("|mb|p|", "|mb|d|", 1))
    with pytest.raises(StudyError, match="not one"):
        study_lin.read(text + text)


def test_registered_formats_tell_each_other_apart(study: StudyGame) -> None:
    formats = {f.name: f for f in GAME.study_formats}
    assert set(formats) == {"pbn", "lin"}
    assert formats["pbn"].suffix == ".pbn" and formats["lin"].suffix == ".lin"
    assert formats["pbn"].encoding == "latin-1"
    pbn_text, lin_text = formats["pbn"].write(study), formats["lin"].write(study)
    assert formats["pbn"].looks_like(pbn_text) and not formats["pbn"].looks_like(lin_text)
    assert formats["lin"].looks_like(lin_text) and not formats["lin"].looks_like(pbn_text)
    assert not formats["lin"].looks_like(study.export_json())
    assert not formats["pbn"].looks_like(study.export_json())


# --- random studies ------------------------------------------------------------------------------

@st.composite
def random_studies(draw) -> StudyGame:
    text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=200)
    title = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)
    study = StudyGame.new(GAME.selfplay(seed=draw(st.integers(0, 50))), title=draw(title))
    for _ in range(draw(st.integers(0, 3))):
        line_id = draw(st.sampled_from(study.line_ids))
        line = study.line(line_id)
        at = draw(st.integers(0, line.last))
        moves = study.moves(line_id, at)
        if not moves:
            continue
        chosen = [draw(st.sampled_from(moves)).event]
        study, new = study.with_branch(line_id, at, chosen, title=draw(title))
        for _ in range(draw(st.integers(0, 4))):
            more = study.moves(new, study.line(new).last)
            if not more:
                break
            data = study.to_json()
            for branch in data["branches"]:
                if branch["id"] == new:
                    branch["moves"].append(draw(st.sampled_from(more)).event)
            study = StudyGame.load(data)
    for _ in range(draw(st.integers(0, 6))):
        line_id = draw(st.sampled_from(study.line_ids))
        step = draw(st.integers(0, study.line(line_id).last))
        study = study.with_note(line_id, step, comment=draw(text),
                                glyph=draw(st.one_of(st.none(), st.sampled_from(list(GLYPHS)))))
    return study


@pytest.mark.parametrize("name", FORMATS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(study=random_studies())
def test_random_studies_round_trip(name: str, study: StudyGame) -> None:
    back = _round_trip(study, FORMATS[name])
    assert _expected(back, plain=False) == _expected(study)


# --- damaged files -------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def exports() -> dict[str, str]:
    study = StudyGame.new(GAME.selfplay(seed=5), title="Damaged")
    study = study.with_note("main", 0, comment="deal {x}", glyph="!")
    study = study.with_note("main", 3, comment="über ✓\nline", glyph="?")
    study, branch = study.with_branch("main", 8, [study.moves("main", 8)[0].event], title="b")
    study = study.with_note(branch, 9, comment="in the branch")
    return {name: fmt.write(study) for name, fmt in FORMATS.items()}


@pytest.mark.parametrize("name", FORMATS)
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_damaged_files_give_a_study_or_a_study_error(exports: dict[str, str], name: str, data) -> None:
    """Cut, doubled or changed characters anywhere: the reader answers a study or a
    StudyError (or LogFormatError) that says what is wrong, never another exception."""
    text = exports[name]
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(text)))
        kind = data.draw(st.sampled_from(["cut", "insert", "double"]))
        if kind == "cut":
            text = text[:at] + text[at + data.draw(st.integers(1, 40)):]
        elif kind == "insert":
            text = text[:at] + data.draw(st.text(st.sampled_from('{}[]"|\\=$!?%;,\n 1SNpx-*^'), max_size=6)) + text[at:]
        else:
            text = text[:at] + text[max(0, at - 30):at] + text[at:]
    try:
        StudyGame.load(FORMATS[name].read(text))
    except (StudyError, LogFormatError) as exc:
        assert str(exc)


def _broken(kind: str):
    """A game as played with a revoke (rule checking goes on) or with a card played twice
    (rule checking stops)."""
    data = json.loads(GAME.selfplay(seed=0).canonical_json())
    events = data["events"]
    plays = [n for n, e in enumerate(events) if e["type"] == "play"]
    first = plays[5]
    if kind == "revoke":
        seat, suit = events[first]["seat"], events[first]["card"][0]
        later = next(k for k in plays[6:] if events[k]["seat"] == seat and events[k]["card"][0] != suit)
        events[first]["card"], events[later]["card"] = events[later]["card"], events[first]["card"]
    else:
        events[plays[9]]["card"] = events[plays[1]]["card"]
    return GAME.parse(data)


@pytest.mark.parametrize("name", FORMATS)
def test_a_game_with_a_revoke_round_trips_with_its_finding(name: str) -> None:
    log = _broken("revoke")
    study = StudyGame.new(log).with_note("main", 3, comment="before the revoke")
    back = StudyGame.load(FORMATS[name].read(FORMATS[name].write(study)))
    found = [(f.step, f.kind, f.message) for f in back.line("main").replay.findings]
    assert found == [(f.step, f.kind, f.message) for f in log.replay().findings] and found[0][1] == "revoke"
    assert _expected(back, plain=False) == _expected(study)  # the export's findings comment is not a note


@pytest.mark.parametrize("name", FORMATS)
def test_a_game_whose_rule_checking_stopped_is_written_but_not_read_back(name: str) -> None:
    study = StudyGame.new(_broken("stopped"))
    assert not study.line("main").replay.checked
    text = FORMATS[name].write(study)
    with pytest.raises(StudyError, match="breaks the rules"):
        FORMATS[name].read(text)


@pytest.mark.parametrize("name", FORMATS)
def test_a_file_too_large_is_refused_before_reading(name: str) -> None:
    from replay.games.floating_bridge.formats.study_common import MAX_TEXT

    with pytest.raises(StudyError, match="at most"):
        FORMATS[name].read(" " * (MAX_TEXT + 1))


@settings(max_examples=300, deadline=None)
@given(text=st.text(st.sampled_from(" \\a{}é✓\n%|\xa0\u2003"), max_size=80), width=st.integers(1, 20))
def test_wrapped_escaped_text_reads_back_exactly(text: str, width: int) -> None:
    """However spaces, escapes and the width fall, every line is short enough (an escape may
    stand alone), none starts or ends with a space a reader could strip, and the text comes back."""
    from replay.games.floating_bridge.formats.study_common import escape, join_wrapped, unescape, wrap_escaped

    escaped = escape(text, lambda c: c.isascii() and c not in "{}%")
    lines = wrap_escaped(escaped, width)
    assert all(line == line.strip() for line in lines)
    assert all(len(line) <= max(width, 11) for line in lines)
    assert unescape(join_wrapped([line.strip() for line in lines])) == text


@pytest.mark.parametrize("name", FORMATS)
def test_a_long_unbroken_note_on_a_call_reads_back(name: str) -> None:
    """The exact text after a [Note] tag may be wrapped right after its =n= (a case hypothesis found)."""
    study = StudyGame.new(GAME.selfplay(seed=2))
    comment = "0\x1f\x1f00000Ʀ" + "\U0001fffb\U00041bf6\U0005f831" * 5
    study = study.with_note("main", 1, comment=comment)
    back = StudyGame.load(FORMATS[name].read(FORMATS[name].write(study)))
    assert {s: n.comment for s, n in back.notes("main").items()} == {1: comment}
