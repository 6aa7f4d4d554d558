"""Reading at the speed ingest needs (issue 13): plain logs take a fast path in ``replay.log``
(and UNO Lite's reader) that must build exactly the models full pydantic validation builds,
and leave every other log, and every error, to full validation.

(A reading test, kept beside the archive tests that needed the speed.)
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from pydantic import BaseModel, ValidationError

from replay.games.floating_bridge.bots import play_game
from replay.games import get as get_game
from replay.games.uno_lite.log import UnoLog
from replay.games.uno_lite.log import _read_plain as uno_plain
from replay.log import LogFormatError, parse_log, read_logs
from replay.games.floating_bridge.log import GameLog
from replay.games.floating_bridge.log import _read_plain as bridge_plain


def _same(a, b, where="log") -> None:
    """Equal models, field by field, with the same fields set and the same extras, all the way down."""
    assert type(a) is type(b), where
    if isinstance(a, BaseModel):
        assert a == b, where
        assert a.model_fields_set == b.model_fields_set, where
        assert a.__pydantic_extra__ == b.__pydantic_extra__, where
        assert list(a.__dict__) == list(b.__dict__), where
        for name in a.__dict__:
            _same(a.__dict__[name], b.__dict__[name], f"{where}.{name}")
    elif isinstance(a, dict):
        assert list(a) == list(b), where
        for key in a:
            _same(a[key], b[key], f"{where}[{key!r}]")
    elif isinstance(a, list):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b)):
            _same(x, y, f"{where}[{i}]")
    else:
        assert a == b and type(a) is type(b), where


def _variants(data: dict) -> list[dict]:
    """The plain log, and the shapes bots also write: extra fields, no times, null times,
    chat without a seat, players with extras, meta, a partial end."""
    out = [data]
    more = copy.deepcopy(data)
    more["extra_top"] = {"x": 1}
    more["meta"] = {"table": "t1", "nested": [1, 2]}
    for i, event in enumerate(more["events"]):
        if i % 3 == 0:
            event.pop("t", None)
        elif i % 3 == 1:
            event["t"] = None
        if i % 5 == 0:
            event["note"] = "kept"
    more["events"].append({"type": "chat", "text": "gg"})
    more["events"].append({"type": "chat", "seat": next(iter(more["players"] or {"N": 0})), "text": "wp", "t": 5})
    for player in more.get("players", {}).values():
        player["rating"] = 1500
    if more.get("end"):
        more["end"] = {**more["end"], "why": "done"}
        more["end"].pop("t", None)
    out.append(more)
    return out


def _bridge_logs() -> list[dict]:
    return [play_game(seed, interrupt_rate=0.2).to_json_dict() for seed in range(40)]


def _uno_logs() -> list[dict]:
    game = get_game("uno-lite")
    bots = list(game.bots)
    return [game.selfplay(seed, bots=(bots[seed % len(bots)], bots[0])).to_json_dict() for seed in range(40)]


@pytest.mark.parametrize("game", ["floating-bridge", "uno-lite"])
def test_the_fast_path_builds_the_models_validation_builds(game):
    logs, model, plain = ((_bridge_logs(), GameLog, bridge_plain) if game == "floating-bridge"
                          else (_uno_logs(), UnoLog, uno_plain))
    taken = 0
    for data in logs:
        for variant in _variants(data):
            text = json.dumps(variant)
            fast = plain(json.loads(text))
            full = model.model_validate(json.loads(text))
            assert fast is not None  # every one of these shapes is plain
            taken += 1
            _same(fast, full)
            _same(parse_log(text), full)
            assert fast.canonical_json() == full.canonical_json()
    assert taken == 2 * len(logs)


def test_every_sample_log_reads_as_full_validation_reads_it(sample_logs):
    checked = 0
    for path in sorted(Path(sample_logs).rglob("*")):
        if not path.is_file() or path.suffix not in (".json", ".jsonl"):
            continue
        for entry in read_logs(path.read_bytes(), str(path)):
            if entry.log is None:
                continue
            text = entry.raw.decode("utf-8-sig")
            data = json.loads(text)
            model = UnoLog if data.get("format") == "uno-lite/1" else GameLog
            if model is GameLog and data.get("format") != "floating-bridge/1":
                continue
            _same(entry.log, model.model_validate(data))
            checked += 1
    assert checked > 40


@pytest.mark.parametrize("change, message", [
    (lambda d: d["hands"].__setitem__("N", ["S1O"] + d["hands"]["N"][1:]), "hands.N[0]: 'S1O' is not a card"),
    (lambda d: d["events"][0].__setitem__("t", -1), "events[0].t: Input should be greater than or equal to 0"),
    (lambda d: d["events"][0].__setitem__("seat", "Q"), "events[0].seat: 'Q' is not a seat (N, E, S or W)"),
    (lambda d: d["events"][0].__setitem__("type", "dance"), "events[0]: unknown event type 'dance'"),
    (lambda d: d.__setitem__("first_bidder", ["N"]), "first_bidder: ['N'] is not a seat"),
    (lambda d: d["events"].__setitem__(0, ["not", "an", "event"]), "events[0]"),
    (lambda d: d["players"].__setitem__("N", {"name": "x" * 201}), "players.N.name"),
])
def test_what_the_fast_path_leaves_gets_full_validation_and_its_errors(change, message):
    data = play_game(seed=3).to_json_dict()
    change(data)
    assert bridge_plain(copy.deepcopy(data)) is None  # left to full validation
    with pytest.raises(LogFormatError) as fast_path:
        parse_log(json.dumps(data))
    with pytest.raises(LogFormatError) as direct:
        try:
            GameLog.model_validate(data)
        except ValidationError as exc:
            from replay.games.floating_bridge.log import errors_from_validation

            raise LogFormatError(errors_from_validation(exc)) from None
    assert str(fast_path.value) == str(direct.value)
    assert message in str(fast_path.value)


def test_lenient_spellings_still_read_and_agree():
    data = play_game(seed=4).to_json_dict()
    data["first_bidder"] = " n "
    data["hands"]["N"] = [c.lower() for c in data["hands"]["N"]]
    data["events"][0]["seat"] = "e"
    text = json.dumps(data)
    _same(parse_log(text), GameLog.model_validate(json.loads(text)))
