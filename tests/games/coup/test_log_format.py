"""coup/1 models: precise errors, kept extras, the schema on disk; doctests; the selfplay CLI."""

from __future__ import annotations

import doctest
import importlib
import json

import pytest

from replay.games.coup import GAME
from replay.games.coup.log import parse
from replay.log import LogFormatError

from .helpers import SPEC_EVENTS, log_dict



def errors_of(data):
    with pytest.raises(LogFormatError) as info:
        parse(data, "x.json")
    return info.value.errors


def test_the_schema_requires_the_setup():
    schema = GAME.json_schema()  # the file on disk: tests/games/test_conformance.py
    assert set(schema["required"]) == {"format", "first_player", "hands", "events"}


@pytest.mark.parametrize("change, expected", [
    (lambda d: d["hands"]["1"].__setitem__(0, "King"),
     [("hands.1[0]", "'King' is not a Coup card (D, A, B, C, E or a character's name)")]),
    (lambda d: d.__setitem__("events", [{"type": "action", "seat": "1", "action": "Z"}]),
     [("events[0].action", "'Z' is not a Coup action (I, F, C, T, A, S or X)")]),
    (lambda d: d.__setitem__("events", [{"type": "fold", "seat": "1"}]),
     [("events[0]", "unknown event type 'fold' (expected one of action, challenge, block, reveal, replace, lose, "
                    "exchange, illegal, leave, chat, coins)")]),
    (lambda d: d.__setitem__("events", [{"type": "action", "seat": "1", "action": "S", "target": "9"}]),
     [("events[0].target", "'9' is not a seat of this game (1, 2, 3)")]),
    (lambda d: d.__setitem__("events", [{"type": "exchange", "seat": "3", "drawn": ["D"], "kept": ["D"]}]),
     [("events[0].drawn", "List should have at least 2 items after validation, not 1")]),
    (lambda d: d["hands"].pop("3"), [("", "hands name the seats 1, 2 but players names 1, 2, 3")]),
    (lambda d: d.__setitem__("format", "coup/2"), [("format", "'coup/2' is not a known format (expected 'coup/1')")]),
])
def test_precise_errors(change, expected):
    data = log_dict(SPEC_EVENTS)
    change(data)
    assert errors_of(data) == expected


def test_seven_seats_and_extras():
    data = log_dict([], players={str(i): {"name": str(i)} for i in range(1, 8)},
                    hands={str(i): ["D", "A"] for i in range(1, 8)})
    assert errors_of(data) == [("", "7 seats: Coup has 2 to 6")]
    out = parse(log_dict([dict(SPEC_EVENTS[0], emoji="💰")], room="7Q2", seat_names_as_ints=True)).to_json_dict()
    assert out["room"] == "7Q2" and out["events"][0]["emoji"] == "💰"


MODULES = ["replay.games.coup", "replay.games.coup.cards", "replay.games.coup.log", "replay.games.coup.engine",
           "replay.games.coup.replay", "replay.games.coup.logger", "replay.games.coup.bots",
           "replay.games.coup.root_log"]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0


def test_selfplay_cli_with_players(tmp_path, cli_runner):
    code, out, err = cli_runner("selfplay", "--game", "coup", "--players", "5", "--bots", "honest,bluffer,random",
                                "--games", "3", "-o", str(tmp_path))
    assert code == 0, err
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 3
    log = GAME.parse(json.loads(files[0].read_text()))
    assert [log.players[s].bot for s in log.seat_order] == ["honest-1", "bluffer-1", "random-1", "honest-1",
                                                            "bluffer-1"]
    code, out, err = cli_runner("selfplay", "--game", "uno-lite", "--players", "3", "-o", str(tmp_path / "u"))
    assert code == 2 and "UNO Lite has a fixed table" in err
    code, out, err = cli_runner("selfplay", "--game", "coup", "--bots", "honest", "--players", "7", "-o",
                                str(tmp_path / "c"))
    assert code == 2 and "Coup has 2 to 6 seats, not 7" in err
