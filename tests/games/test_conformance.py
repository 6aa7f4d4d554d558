"""The conformance suite: what every registered game must do, through the registry alone.

A new game passes this file without any edit here: the tests are parametrised over
``replay.games.names()``.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest

from replay.games import game_for_format, get, names
from replay.kit.selfplay import play_legal
from replay.log import parse_log, read_logs

GAMES = names()
ROOT = Path(__file__).resolve().parents[2]
SEEDS = range(40)


def selfplay_logs(name: str, seeds=SEEDS) -> list:
    game = get(name)
    bots = list(game.bots)
    logs = []
    for seed in seeds:
        seats = len(game.seats) or 1  # a game whose seats are named per log: one bot for every seat
        chosen = tuple(bots[(seed + i) % len(bots)] for i in range(seats))
        logs.append(game.selfplay(seed, bots=chosen))
    return logs


@pytest.fixture(scope="module", params=GAMES)
def game_logs(request):
    return request.param, selfplay_logs(request.param)


def test_every_game_is_registered_under_its_format(game_logs):
    name, logs = game_logs
    game = get(name)
    assert game.name == name
    assert game_for_format(f"{name}/{game.major}") is game
    assert all(log.format == f"{name}/{game.major}" for log in logs)
    for kind, fatal in game.finding_kinds.items():
        assert isinstance(kind, str) and isinstance(fatal, bool)


def test_selfplay_log_judge_gives_no_findings(game_logs):
    name, logs = game_logs
    game = get(name)
    for log in logs:
        replay = game.judge(log)
        assert replay.findings == [], (log.game_id, [f.to_json() for f in replay.findings])
        assert replay.game.name == name
        data = replay.to_json()
        assert data["game"] == name
        assert data["end"] == replay.end_reason
        assert data["winners"] == list(replay.winners)
        assert set(data["winners"]) <= set(game.seats or (getattr(s, "name", s) for s in log.players))
        assert replay.end_reason in game.end_reasons
        outcome = replay.outcome()
        assert outcome.end == replay.end_reason and list(outcome.winners) == list(replay.winners)


def test_the_canonical_text_reads_back_to_the_same_game(game_logs):
    name, logs = game_logs
    for log in logs:
        text = log.canonical_json()
        again = parse_log(text)
        assert again.canonical_json() == text
        assert type(again) is type(log)
        (entry,) = read_logs(text.encode(), "x.json")
        assert entry.ok and entry.log.canonical_json() == text


#: the most legal events tried at one point (a game with thousands, such as every bet size, is sampled)
MAX_TRIED = 60


def test_every_legal_action_replays_without_a_finding(game_logs):
    """From positions along self-played games, each legal event (each chance outcome too) is
    taken by the engine without a finding."""
    name, logs = game_logs
    game = get(name)
    rng = random.Random(name)
    tried = 0
    for log in logs[:8]:
        state, findings = game.start(log)
        assert findings == []
        for index, event in enumerate(log.events):
            if state.to_act is not None and not state.over:
                candidates = game.legal_events(state)
                if len(candidates) > MAX_TRIED:  # every bet size, every flop: a fair sample of them
                    candidates = rng.sample(candidates, MAX_TRIED)
                for candidate in candidates:
                    trial = state.copy()
                    found = trial.push(candidate, index)
                    assert found == [], (name, log.game_id, index, candidate, found)
                    tried += 1
            assert state.push(event, index) == [] or event.type not in ("play", "bid", "partner", "draw", "pass")
    assert tried > 100


def _after_the_end(game, logs) -> dict:
    """A completed game with its last move logged again after the end."""
    log = next(log for log in logs if log.end is not None and log.end.reason == "completed"
               and len(log.events) > 4)
    data = json.loads(log.canonical_json())
    # an event's type as the game's model reads it (a format may leave it out of the JSON)
    moves = [e for e, model in zip(data["events"], log.events) if model.type in game.action_events]
    again = dict(moves[-1])
    if "t" in data.get("end", {}):  # a game that tells the end by its time (party cards)
        again["t"] = data["end"]["t"] + 1000
    data["events"].append(again)
    return data


def test_a_fatal_finding_stops_rule_checking(game_logs):
    """A move after the game is over is fatal in every game, found at its event."""
    name, logs = game_logs
    game = get(name)
    data = _after_the_end(game, logs)
    broken = game.judge(parse_log(data))
    found = [f for f in broken.findings if f.kind == "event_after_end"]
    assert found and found[0].event == len(data["events"]) - 1
    assert found[0].fatal and game.finding_kinds["event_after_end"] and not broken.checked


def test_archive_ingest_and_export_are_lossless(game_logs, tmp_path):
    from archive import Archive

    name, logs = game_logs
    with Archive(f"sqlite:///{tmp_path / 'a.db'}") as archive:
        raws = {}
        for log in logs[:10]:
            raw = (json.dumps(log.to_json_dict(), ensure_ascii=False, indent=1) + "\n").encode()
            (result,) = archive.ingest_bytes(raw, f"{log.game_id}.json")
            assert result.status == "stored", result
            raws[result.public_id] = (raw, log)
        page = archive.list(game=name, limit=50)
        assert page.total == len(raws)
        for public_id, (raw, log) in raws.items():
            stored = archive.get(public_id)
            assert stored.game == name and stored.raw == raw
            assert stored.replay().to_json() == get(name).judge(log).to_json()
        out = tmp_path / "export"
        assert archive.export(out) == len(raws)
        exported = sorted(p.read_bytes() for p in out.rglob("*") if p.is_file())
        assert exported == sorted(raw for raw, _ in raws.values())


def _game_content(log) -> dict:
    """What a replay code keeps: the setup, the actions and how the game ended (no names,
    times, chat, announcements or meta); hands as sets of cards."""
    data = log.to_json_dict()
    for key in ("players", "game_id", "started_at", "meta"):
        data.pop(key, None)
    data["events"] = [{k: sorted(v, key=json.dumps) if isinstance(v, list) else v for k, v in e.items() if k != "t"}
                      for e in data["events"] if e.get("type") not in ("chat", "trick")]
    if isinstance(data.get("hands"), dict):
        data["hands"] = {seat: sorted(cards, key=json.dumps) for seat, cards in data["hands"].items()}
    if isinstance(data.get("end"), dict):
        data["end"].pop("t", None)
    return data


def test_log_to_code_to_log_gives_the_same_game(game_logs):
    from replay.codec import decode, encode

    name, logs = game_logs
    game = get(name)
    for log in logs:
        code = encode(log)
        again = decode(code)
        assert _game_content(again) == _game_content(log), (name, log.game_id, code)
        assert game.judge(again).to_json()["winners"] == game.judge(log).to_json()["winners"]


def test_a_game_with_findings_keeps_them_through_its_code(game_logs):
    from replay.codec import decode, encode

    name, logs = game_logs
    game = get(name)
    broken = parse_log(_after_the_end(game, logs))
    before = [(f.kind, f.event) for f in game.judge(broken).findings]
    assert before
    again = decode(encode(broken))
    assert [(f.kind, f.event) for f in game.judge(again).findings] == before


@pytest.mark.parametrize("name", GAMES)
def test_the_published_schema_is_current(name):
    """``docs/<stem>.schema.json`` (the stem named by the schema's ``$id``) is what the game's
    models give (regenerate: ``python -m <the game's log module> --schema > docs/<stem>.schema.json``).
    A game from another distribution publishes it in its own ``docs/``, beside its package."""
    game = get(name)
    schema = game.json_schema()
    stem = schema["$id"].rstrip("/").split("/")[-2]
    package = Path(sys.modules[type(game).__module__].__file__).resolve().parent
    docs = ROOT / "docs" if ROOT / "replay" in package.parents else package.parent / "docs"
    on_disk = (docs / f"{stem}.schema.json").read_text(encoding="utf-8")
    assert json.loads(on_disk) == schema
    assert on_disk == json.dumps(schema, indent=2, ensure_ascii=False) + "\n"
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert "format" in schema["required"] and "events" in schema["required"]


@pytest.mark.parametrize("name", GAMES)
def test_random_legal_play_from_any_setup_is_clean(name):
    """The kit's self-play loop (``replay.kit.selfplay.play_legal``) plays every game from its
    setups through ``GAME.legal_events`` alone; every game it plays judges clean and codes."""
    game = get(name)
    for log in selfplay_logs(name, range(6)):
        played = play_legal(game, log, random.Random(log.game_id))
        replay = game.judge(played)
        assert replay.findings == [], (name, log.game_id, replay.findings[:1])
        assert replay.end_reason in ("completed", "abandoned")
        assert parse_log(played.canonical_json()).canonical_json() == played.canonical_json()
