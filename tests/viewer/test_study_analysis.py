"""A branch's analysis (the analysis toggle's ``/s/<id>/analysis.json?line=``): for floating
bridge, the double-dummy marks recomputed along the branch. Checked against the game's own
``analyse`` hook run on the branch's game (the solver, directly), against the main line's
(different where the branch plays another card), and it is never kept as the main game's."""

from __future__ import annotations

from pathlib import Path

import pytest

from replay.codec import encode
from replay.games import get
from replay.study import StudyGame
from viewer.games.floating_bridge.view import analysis_view
from viewer.view import ViewedGame


@pytest.fixture
def app(tmp_path: Path):
    from viewer.app import create_app

    return create_app({"TESTING": True, "DB": f"sqlite:///{tmp_path / 'archive.db'}",
                       "UPLOAD_RATE_PER_MINUTE": 100000, "UPLOAD_RATE_BURST": 100000,
                       "STUDY_RATE_PER_MINUTE": 100000, "STUDY_RATE_BURST": 100000,
                       "ANALYSIS_RATE_PER_MINUTE": 100000, "ANALYSIS_RATE_BURST": 100000})


@pytest.fixture
def client(app):
    return app.test_client()


def branched_bridge_study(client):
    """A bridge study with a branch that plays another card in mid play, then goes on for a trick."""
    bridge = get("floating-bridge")
    made = client.post("/api/studies", json={"source": {"kind": "code", "ref": encode(bridge.selfplay(seed=3))}})
    assert made.status_code == 201
    made = made.get_json()
    study = StudyGame.load(client.get(f"/api/studies/{made['id']}").get_json()["study"])
    main = study.line("main")
    for step in range(main.last // 2, main.last):
        moves = client.get(f"/api/studies/{made['id']}/moves?step={step}").get_json()["moves"]
        if len(moves) >= 2:
            break
    else:
        raise AssertionError("no step with a choice of cards")
    played_event = main.log.events[main.cuts[step]].model_dump(mode="json", exclude_none=True, by_alias=True)
    played_event.pop("t", None)
    other = next(m for m in moves if m["event"] != played_event)
    branched, branch = study.with_branch("main", step, [other["event"]])
    for _ in range(4):  # and on for a trick, the engine's first legal card each time
        line = branched.line(branch)
        more = branched.moves(branch, line.last)
        if not more:
            break
        moves_so_far = [dict(m) for m in branched.study.branches[-1].moves] + [more[0].event]
        branched = branched.without_branch(branch)
        branched, branch = branched.with_branch("main", step, moves_so_far)
    saved = client.put(f"/api/studies/{made['id']}", json={"base": 1, "study": branched.to_json()},
                       headers={"X-Study-Token": made["owner_token"]})
    assert saved.status_code == 200, saved.get_json()
    return made, branched, branch, step


def test_a_branch_analysis_is_the_solver_on_the_branch_and_differs_from_the_main_line(app, client):
    made, study, branch, step = branched_bridge_study(client)
    bridge = get("floating-bridge")
    line = study.line(branch)

    on_branch = client.get(f"/s/{made['id']}/analysis.json?line={branch}")
    assert on_branch.status_code == 200, on_branch.get_json()
    on_main = client.get(f"/s/{made['id']}/analysis.json")
    assert on_main.status_code == 200
    branch_data, main_data = on_branch.get_json(), on_main.get_json()

    # the oracle: the game's analyse hook (the double-dummy solver) on the branch's own game
    oracle = analysis_view(ViewedGame(line.replay), bridge.analyse(line.replay))
    assert branch_data == oracle
    assert main_data == analysis_view(ViewedGame(study.line("main").replay), bridge.analyse(study.line("main").replay))

    # the same up to the branch point, different where the branch plays another card
    by_step_branch = {c["step"]: c for c in branch_data["cards"]}
    by_step_main = {c["step"]: c for c in main_data["cards"]}
    shared = [s for s in by_step_branch if s <= step and s in by_step_main]
    assert shared and all(by_step_branch[s] == by_step_main[s] for s in shared)
    assert by_step_branch[step + 1]["card"] != by_step_main[step + 1]["card"]
    assert branch_data["cards"] != main_data["cards"]

    # the archive keeps each under its own game's content: the main game's stays the main game's
    with app.app_context():
        from viewer.app import get_archive

        analyses = get_archive().analyses
        assert analyses.stored(line.log) and analyses.stored(study.line("main").log)
        assert get_archive().analysis(study.line("main").log) == bridge.analyse(study.line("main").replay)


def test_the_branch_page_asks_for_the_branch_analysis(client):
    made, _, branch, _ = branched_bridge_study(client)
    html = client.get(f"/s/{made['id']}?line={branch}").get_data(as_text=True)
    assert f'data-src="/s/{made["id"]}/analysis.json?line={branch}"' in html
    main = client.get(f"/s/{made['id']}").get_data(as_text=True)
    assert f'data-src="/s/{made["id"]}/analysis.json"' in main
    revision = client.get(f"/s/{made['id']}/1").get_data(as_text=True)
    assert f'data-src="/s/{made["id"]}/1/analysis.json"' in revision
    assert client.get(f"/s/{made['id']}/1/analysis.json?line={branch}").status_code == 404  # rev 1 had no branch


def test_a_game_without_analysis_answers_404(client):
    made = client.post("/api/studies", json={"source": {"kind": "code", "ref": encode(get("uno-lite").selfplay(seed=1))}})
    response = client.get(f"/s/{made.get_json()['id']}/analysis.json")
    assert response.status_code == 404 and "no analysis" in response.get_json()["error"]
