"""Studies (``replay.study``) with every registered game's own engine: the steps a study cuts
a log at, what-if branches of legal moves, the moves each view is offered, the words for
moves and the JSON document, for every game in ``replay.games.names()`` (no edit here when a
game is added)."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from replay.games import get, names
from replay.games.base import seat_text
from replay.log import read_logs
from replay.study import MAIN, StudyError, StudyGame

GAMES = names()
ROOT = Path(__file__).resolve().parents[2]
SEEDS = (0, 1, 2)
#: hypothesis examples per game for the tests that judge whole branches
EXAMPLES = 12


@lru_cache(maxsize=None)
def study_of(name: str, seed: int) -> StudyGame:
    return StudyGame.new(get(name).selfplay(seed=seed), title=f"{name} {seed}")


def sample_logs(name: str, folder: str) -> list:
    """The sample logs of ``name`` in any ``broken`` (or other) folder of ``sample_logs/``."""
    game = get(name)
    found = []
    for path in sorted((ROOT / "sample_logs").rglob("*.json")):
        if folder not in path.parts:
            continue
        entries = read_logs(path.read_bytes(), path.name)
        found.extend((path.name, e.log) for e in entries if e.ok and e.log.format == f"{name}/{game.major}")
    return found


def cut_log(game, log, upto: int, extra: list | None = None):
    """``log`` with its first ``upto`` events (then ``extra``) and no end, read by the game."""
    data = json.loads(log.canonical_json())
    data.pop("end", None)
    data["events"] = data["events"][:upto] + list(extra or [])
    return game.parse(data, "test")


def seat_or_none(seat) -> str | None:
    return None if seat is None else seat_text(seat)


def dumped(event) -> dict:
    return event.model_dump(mode="json", exclude_none=True, by_alias=True)


def steps_with_moves(study: StudyGame, line: str, every: int = 1) -> list[int]:
    """Every ``every``-th step of ``line`` where some move can be tried (the engine's own
    list: a study's ``moves`` words each of hold'em's thousands of moves)."""
    found = []
    for k in range(0, study.line(line).last + 1, every):
        state = study.position(line, k)
        if not state.over and study.game.legal_events(state):
            found.append(k)
    return found


# --- step_events and cuts --------------------------------------------------------------------

@pytest.mark.parametrize("name", GAMES)
def test_the_events_before_a_cut_make_exactly_the_steps_up_to_it(name):
    """``cuts[k]`` events judged alone make steps 0..k, the same steps as the whole game's,
    and the position there waits for the seat the step says is to act."""
    game = get(name)
    for seed in SEEDS:
        study = study_of(name, seed)
        main = study.line(MAIN)
        steps = main.replay.steps_json()
        assert len(main.cuts) == main.replay.step_count == len(steps)
        assert main.cuts[0] == 0 and list(main.cuts) == sorted(main.cuts)
        for k in range(main.last + 1):
            replay = game.judge(cut_log(game, main.log, main.cuts[k]))
            assert replay.step_count == k + 1, (name, seed, k)
            assert replay.findings == []
            assert replay.steps_json()[k]["text"] == steps[k]["text"]
            position = study.position(MAIN, k)
            if "to_act" in steps[k]:
                assert seat_or_none(position.to_act) == seat_or_none(steps[k]["to_act"]), (name, seed, k)


@pytest.mark.parametrize("name", GAMES)
def test_the_move_a_game_made_is_among_the_moves_offered_before_it(name):
    """Where a step was the move of the seat to act (an event with that ``seat``), the event
    that made it is one of the moves the study offers at the step before (so the engine's
    legal moves and the cuts agree). A lobby where seats join in any order offers the first
    one waited for; a dealing with no seat may write its cards in any order."""
    found = seated = 0
    for seed in SEEDS:
        study = study_of(name, seed)
        main = study.line(MAIN)
        events = json.loads(main.log.canonical_json())["events"]
        seated += sum("seat" in e for e in events)
        for k in range(main.last):
            made = {key: value for key, value in events[main.cuts[k + 1] - 1].items() if key != "t"}
            to_act = seat_or_none(study.position(MAIN, k).to_act)
            if to_act is not None and made.get("seat") == to_act:
                assert made in [m.event for m in study.moves(MAIN, k)], (name, seed, k, made)
                found += 1
    assert found >= seated // 4 and (found > 0 or seated == 0)


# --- branches --------------------------------------------------------------------------------

def _a_step_with_moves(data, study: StudyGame, line: str) -> int | None:
    """A step of ``line`` where some move can be tried (a few draws; None if none had one)."""
    for _ in range(6):
        at = data.draw(st.integers(0, study.line(line).last), label="at")
        state = study.position(line, at)
        if not state.over and study.game.legal_events(state):
            return at
    return None


def _branch_moves(data, study: StudyGame, line: str, at: int, most: int) -> list[dict]:
    """A random walk of legal moves from step ``at`` of ``line`` (the first one among
    ``StudyGame.moves``, the next ones from the engine's own legal events)."""
    game = study.game
    state = study.position(line, at)
    legal = game.legal_events(state)
    first = legal[data.draw(st.integers(0, len(legal) - 1), label="first move")]
    moves = [dumped(first)]
    assert state.push(first, 0) == []
    while len(moves) < most and not state.over:
        legal = game.legal_events(state)
        if not legal:
            break
        choice = legal[data.draw(st.integers(0, len(legal) - 1))]
        moves.append(dumped(choice))
        assert state.push(choice, 0) == []
    return moves


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_branches_of_legal_moves_are_legal_and_share_their_parents_steps(name, data):
    study = study_of(name, data.draw(st.sampled_from(SEEDS), label="seed"))
    game = study.game
    for _ in range(data.draw(st.integers(1, 3), label="branches")):
        line = data.draw(st.sampled_from(study.line_ids), label="parent")
        at = _a_step_with_moves(data, study, line)
        if at is None:
            continue
        moves = _branch_moves(data, study, line, at, data.draw(st.integers(1, 8), label="length"))
        study, branch_id = study.with_branch(line, at, moves, title="what if")
        parent, branch = study.line(line), study.line(branch_id)
        assert (branch.parent, branch.at, branch.depth, branch.title) == (line, at, parent.depth + 1, "what if")
        assert branch.replay.findings == [], [f.to_json() for f in branch.replay.findings]
        assert branch.last == at + len(moves) or not study.game.action_events, (branch.last, at, len(moves))
        # the same steps (a parent's last step may say it is the last: compared up to it then)
        shared = at + 1 if at < parent.last else at
        assert branch.replay.steps_json()[:shared] == parent.replay.steps_json()[:shared]
        assert branch.replay.steps_json()[at]["text"] == parent.replay.steps_json()[at]["text"]
        assert study.owner(branch_id, at) == study.owner(line, at)
        assert study.owner(branch_id, at + 1) == branch_id
        assert [b.id for b in study.children(line, at)][-1] == branch_id
        # judged directly, the same log gives the same findings and end
        direct = game.judge(cut_log(game, parent.log, parent.cuts[at], moves))
        assert direct.findings == branch.replay.findings
        ended = study.position(branch_id, branch.last).over
        assert branch.replay.end_reason == ("completed" if ended else direct.end_reason)
        again = StudyGame.load(study.export_json())
        assert again.line(branch_id).replay.steps_json() == branch.replay.steps_json()


def _refuses(study: StudyGame, state, model) -> bool:
    """Whether the game's engine refuses the move ``model`` (a log event) at ``state``."""
    return model.type in study.game.action_events and bool(state.copy().push(model, 0))


@pytest.mark.parametrize("name", GAMES)
def test_a_branch_with_a_move_the_engine_refuses_is_refused_naming_the_branch_and_move(name):
    """Moves legal elsewhere in the game (another seat's, a card not held any more) that the
    engine refuses at the branch point: the study refuses the branch, saying which move."""
    study = study_of(name, 0)
    main = study.line(MAIN)
    pool = [dumped(e) for k in range(0, main.last, 3) for e in study.game.legal_events(study.position(MAIN, k))[:10]]
    pool = [e for n, e in enumerate(pool) if e not in pool[:n]][:60]
    setup = json.loads(main.log.canonical_json())
    setup.pop("end", None)
    # one by one: a log may hold few of some events (one partner call in bridge)
    models = [study.game.parse({**setup, "events": [event]}, "test").events[0] for event in pool]
    tried = seconds = 0
    for at in steps_with_moves(study, MAIN, every=4):
        state = study.position(MAIN, at)
        first = study.moves(MAIN, at)[0]
        after = state.copy()
        after.push(study.game.legal_events(after)[first.index], 0)
        for bad, model in [(e, m) for e, m in zip(pool, models) if _refuses(study, state, m)][:2]:
            with pytest.raises(StudyError, match=r"branch 'b1', move 1 \(.+\) is not legal there: "):
                study.with_branch(MAIN, at, [bad])
            tried += 1
            if not after.over and _refuses(study, after, model):
                with pytest.raises(StudyError, match=r"branch 'b1', move 2 \(.+\) is not legal there: "):
                    study.with_branch(MAIN, at, [first.event, bad])
                seconds += 1
    assert tried >= 3 and seconds >= 1


@pytest.mark.parametrize("name", GAMES)
def test_a_branch_that_stops_early_has_the_findings_the_engine_gives_that_log(name):
    """A branch left before the game's end is judged as the game's engine judges the same
    log (no end: abandoned, with whatever the end of a log may find)."""
    game = get(name)
    for seed in SEEDS[:2]:
        study = study_of(name, seed)
        for at in steps_with_moves(study, MAIN, every=5):
            first = study.moves(MAIN, at)[-1]
            branched, branch_id = study.with_branch(MAIN, at, [first.event])
            branch = branched.line(branch_id)
            direct = game.judge(cut_log(game, study.line(MAIN).log, study.line(MAIN).cuts[at], [first.event]))
            assert [f.to_json() for f in branch.replay.findings] == [f.to_json() for f in direct.findings]
            assert branch.replay.end_reason == direct.end_reason
            assert branch.replay.step_count == at + 2


@pytest.mark.parametrize("name", GAMES)
def test_broken_logs_give_branches_only_from_positions_the_rules_reached(name):
    """A game whose rule checking stopped (a fatal finding) ends its replay at the last step
    before it: every step of it is a position to branch from, unless the setup itself broke
    the rules (then there is none, and a branch is refused)."""
    logs = sample_logs(name, "broken")
    assert logs, f"{name} has no broken sample logs"
    refused = 0
    for file, log in logs:
        study = StudyGame.new(log)
        main = study.line(MAIN)
        setup_fatal = any(f.fatal and f.event is None for f in main.replay.findings)
        for k in range(main.last + 1):
            if setup_fatal:
                with pytest.raises(StudyError, match="setup breaks the rules"):
                    study.moves(MAIN, k)
                with pytest.raises(StudyError, match=r"branch 'b1'.*no position to branch from"):
                    study.with_branch(MAIN, k, json.loads(log.canonical_json())["events"][:1]
                                      or [study_of(name, 0).moves(MAIN, 0)[0].event])
                refused += 1
                continue
            moves = study.moves(MAIN, k)
            if moves and k in (0, main.last):
                branched, branch_id = study.with_branch(MAIN, k, [moves[0].event])
                before = [f for f in main.replay.findings if f.event is not None and f.event < main.cuts[k]]
                assert [f.kind for f in branched.line(branch_id).replay.findings] == [f.kind for f in before], file
        with pytest.raises(StudyError, match=f"at step {main.last + 1}, but that line has steps 0-{main.last}"):
            study.with_branch(MAIN, main.last + 1, [{"type": "any"}])
    assert refused or name == "floating-bridge", f"{name}: no broken sample has a broken setup"


# --- the moves a view is offered -------------------------------------------------------------

@pytest.mark.parametrize("name", GAMES)
def test_each_view_is_offered_only_what_it_may_know(name):
    """All cards open (None or "all"): every legal event in the engine's order; a seat: its
    own moves only, and only on its own turn; an onlooker ("public") or a stranger: none."""
    game = get(name)
    study = study_of(name, 1)
    main = study.line(MAIN)
    seats = [seat_text(s) for s in game.seat_order(main.log)]
    offered_to_seats = 0
    for k in range(0, main.last + 1, max(1, main.last // 12)):
        state = study.position(MAIN, k)
        legal = [e.model_dump(mode="json", exclude_none=True, by_alias=True) for e in game.legal_events(state)]
        every = study.moves(MAIN, k, "all")
        assert [m.event for m in every] == legal and [m.index for m in every] == list(range(len(legal)))
        if k % 3 == 0:
            assert study.moves(MAIN, k) == every
        assert study.moves(MAIN, k, "public") == [] and study.moves(MAIN, k, "nobody at all") == []
        to_act = seat_or_none(state.to_act)
        for seat in seats:
            mine = study.moves(MAIN, k, seat)
            if seat != to_act:
                assert mine == [], (k, seat, to_act)
                continue
            assert all(m.seat in (None, seat) for m in mine), [m.text for m in mine if m.seat not in (None, seat)]
            events = game.legal_events(state)
            assert not any(game.chance(state, events[m.index]) for m in mine)
            assert [m for m in every if m.seat in (None, seat) and not game.chance(state, events[m.index])] == mine
            offered_to_seats += len(mine)
    assert offered_to_seats > 0


@pytest.mark.parametrize("name", GAMES)
def test_every_move_has_its_own_words(name):
    """``move_text``: every legal event of positions along games gets non-empty words of its
    own (a list a reader picks from), on one line."""
    for seed in SEEDS[:2]:
        study = study_of(name, seed)
        for k in range(0, study.line(MAIN).last + 1, 2):
            texts = [m.text for m in study.moves(MAIN, k)]
            assert all(t.strip() and "\n" not in t for t in texts), texts
            assert len(set(texts)) == len(texts), sorted(t for t in texts if texts.count(t) > 1)[:6]


# --- the document --------------------------------------------------------------------------

@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_random_study_reads_back_from_its_json_and_its_export(name, data):
    study = study_of(name, data.draw(st.sampled_from(SEEDS), label="seed"))
    text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)
    for _ in range(data.draw(st.integers(0, 2), label="branches")):
        line = data.draw(st.sampled_from(study.line_ids))
        at = _a_step_with_moves(data, study, line)
        if at is not None:
            study, _ = study.with_branch(line, at, _branch_moves(data, study, line, at, 3), title=data.draw(text))
    for _ in range(data.draw(st.integers(0, 4), label="notes")):
        line = data.draw(st.sampled_from(study.line_ids))
        step = data.draw(st.integers(0, study.line(line).last))
        mark = st.fixed_dictionaries({"kind": st.sampled_from(["card", "seat"]),
                                      "id": st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=8)})
        study = study.with_note(line, step, comment=data.draw(text),
                                glyph=data.draw(st.sampled_from([None, "!", "??", "!?"])),
                                highlights=data.draw(st.lists(mark, max_size=3)),
                                arrows=data.draw(st.lists(st.fixed_dictionaries({"from": mark, "to": mark}), max_size=2)))
    if data.draw(st.booleans(), label="retitle"):
        study = study.replace(title=data.draw(text))
    document = study.to_json()
    assert StudyGame.load(document).to_json() == document
    assert StudyGame.load(study.export_json()).to_json() == document
    assert StudyGame.load(study.export_json().encode()).export_json() == study.export_json()
    assert json.loads(study.export_json()) == document
    assert document["game"] == study.line(MAIN).log.format
