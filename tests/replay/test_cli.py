import json

import pytest

from replay.games.floating_bridge.bots import play_game
from replay.games import get, names
from replay.log import parse_log


def write(path, text):
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_validate_exit_codes(cli_runner, tmp_path):
    clean = write(tmp_path / "clean.json", play_game(1).canonical_json())
    data = play_game(2).to_json_dict()
    for e in data["events"]:
        if e["type"] == "trick":
            e["winner"] = {"N": "E", "E": "S", "S": "W", "W": "N"}[e["winner"]]
            break
    broken = write(tmp_path / "broken.json", json.dumps(data))
    garbage = write(tmp_path / "garbage.json", "{not json")
    code, out, _ = cli_runner("validate", clean)
    assert code == 0 and "0 findings" in out
    code, out, _ = cli_runner("validate", clean, broken)
    assert code == 1 and "wrong_trick_winner" in out and "1 finding" in out
    code, out, err = cli_runner("validate", clean, broken, garbage)
    assert code == 2 and "garbage.json: not a valid log: not JSON" in out
    assert "Traceback" not in out + err


def test_replay_json_has_the_promised_fields(cli_runner, tmp_path):
    logs = [play_game(s, rules="all-tricks" if s else "bridgebot") for s in range(3)]
    path = write(tmp_path / "batch.jsonl", "\n".join(l.canonical_json() for l in logs) + "\n")
    code, out, _ = cli_runner("replay", path, "--json")
    assert code == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["game_id"] for r in rows] == [l.game_id for l in logs]  # input order
    for row, log in zip(rows, logs):
        replay = log.replay()
        assert row["rules"] == replay.rules.name
        assert row["contract"] == str(replay.contract) and row["declarer"] == replay.declarer.name
        assert row["partner_card"] == str(replay.partner_card) and row["partner_seat"] == replay.partner_seat.name
        assert row["trick_winners"] == [s.name for s in replay.trick_winners]
        assert sum(row["tricks"].values()) == len(row["trick_winners"])
        assert set(row["result"]) >= {"winner", "declarer_tricks", "needed"}
        assert row["end"] == "completed" and row["findings"] == []


def test_selfplay_writes_logs_a_bot_would(cli_runner, tmp_path):
    code, out, _ = cli_runner("selfplay", "--games", "6", "--seed", "10", "--out", str(tmp_path), "--rules", "all-tricks")
    assert code == 0 and "saved 6 games" in out
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 6
    for f in files:
        log = parse_log(f.read_bytes())
        assert log.rules.play_all_tricks and log.replay().findings == []
    # seeded: the same seed gives the same games
    again = tmp_path / "again"
    cli_runner("selfplay", "--games", "6", "--seed", "10", "--out", str(again), "--rules", "all-tricks")
    assert [f.read_bytes() for f in files] == [f.read_bytes() for f in sorted(again.glob("*.json"))]


def test_bad_options_are_messages(cli_runner):
    code, out, err = cli_runner("selfplay", "--games", "0", "--out", "x")
    assert code == 2 and "Traceback" not in out + err


@pytest.mark.parametrize("game", names())
def test_selfplay_without_bot_seats_the_games_own_bots(cli_runner, tmp_path, game):
    """``selfplay --game coup`` once failed with "greedy: not a Coup bot": the default bot was
    bridge's. Without ``--bot`` every game seats its own ``default_bots``."""
    code, out, err = cli_runner("selfplay", "--game", game, "--games", "2", "--out", str(tmp_path))
    assert code == 0, err
    logs = sorted(tmp_path.glob("*.json"))
    assert len(logs) == 2
    assert all(parse_log(p.read_bytes()).format.startswith(game + "/") for p in logs)


def test_selfplay_rules_only_for_a_game_with_presets(cli_runner, tmp_path):
    games = [name for name in names() if not get(name).rule_presets]
    code, _, err = cli_runner("selfplay", "--game", games[0], "--games", "1", "--out", str(tmp_path),
                              "--rules", "x")
    assert code == 2 and "--rules is for games with several sets of rules" in err
    with_presets = next(name for name in names() if get(name).rule_presets)
    code, _, err = cli_runner("selfplay", "--game", with_presets, "--games", "1", "--out", str(tmp_path),
                              "--rules", "no-such-preset")
    assert code == 2 and "no-such-preset: not a" in err
