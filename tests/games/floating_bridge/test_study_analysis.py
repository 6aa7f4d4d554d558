"""Double-dummy marks in a study's branch: the game's analysis of the branch line equals the
solver run directly on the branch's positions, and differs from the game as played where the
branch played another card."""

from __future__ import annotations

import pytest

from replay.games import get
from replay.games.floating_bridge.solver import Position, card_values, solve
from replay.study import StudyGame

GAME = get("floating-bridge")


def _marks(replay) -> dict[int, dict]:
    return {card["step"]: card for card in GAME.analyse(replay)["cards"]}


def _solver_marks(replay, step: int) -> tuple[int, dict[str, int]]:
    """What the solver says before the card of ``step``: the best value for the seat to play,
    and every legal card's value (tricks of the declarer's side, those already won included)."""
    position = Position.from_replay(replay, step - 1)
    won = replay.steps[step - 1].declarer_side_tricks
    values = {str(card): won + value for card, value in card_values(position).items()}
    seat = replay.steps[step].seat
    pick = max if int(seat) in position.declarer_side else min
    assert pick(values.values()) == won + solve(position)  # the solver agrees with itself
    return pick(values.values()), values


@pytest.fixture(scope="module")
def branched() -> tuple[StudyGame, str, int]:
    """A study whose branch plays, at a card of the play, a card worth a different number of
    tricks than the one played, then four more cards."""
    for seed in range(40):
        study = StudyGame.new(GAME.selfplay(seed=seed))
        main = study.line("main")
        plays = [n for n, s in enumerate(main.replay.steps) if s.kind == "play"]
        if len(plays) < 12:
            continue
        marks = _marks(main.replay)
        for step in plays[4:10]:
            values = marks[step]["values"]
            played = marks[step]["card"]
            other = next((c for c, v in values.items() if v != values[played]), None)
            if other is None:
                continue
            move = next(m for m in study.moves("main", step - 1) if m.event["card"] == other)
            study, branch = study.with_branch("main", step - 1, [move.event], title="another card")
            for _ in range(4):
                line = study.line(branch)
                more = study.moves(branch, line.last)
                data = study.to_json()
                data["branches"][0]["moves"].append(more[0].event)
                study = StudyGame.load(data)
            return study, branch, step
    raise AssertionError("no seed in 0-39 gives a card with a different value")


def test_branch_marks_are_the_solvers(branched: tuple[StudyGame, str, int]) -> None:
    study, branch, step = branched
    line = study.line(branch)
    marks = _marks(line.replay)
    played = [n for n, s in enumerate(line.replay.steps) if s.kind == "play"]
    assert set(marks) == set(played) and played[-1] == step + 4
    for card_step in played:
        best, values = _solver_marks(line.replay, card_step)
        mark = marks[card_step]
        assert mark["values"] == values, card_step
        assert mark["before"] == best
        assert mark["after"] == values[mark["card"]]
        assert mark["card"] == str(line.replay.steps[card_step].action)


def test_branch_marks_differ_from_the_game_as_played_where_the_card_changed(branched) -> None:
    study, branch, step = branched
    main_marks = _marks(study.line("main").replay)
    branch_marks = _marks(study.line(branch).replay)
    for shared in range(1, step):
        if shared in main_marks:
            assert branch_marks[shared] == main_marks[shared]  # the same cards before the branch
    changed, played = branch_marks[step], main_marks[step]
    assert changed["card"] != played["card"]
    assert changed["values"] == played["values"]  # the same position before the card
    assert changed["after"] != played["after"]  # ... and a card worth another number of tricks
    later = [s for s in branch_marks if s > step]
    assert later and any(branch_marks[s] != main_marks.get(s) for s in later)
