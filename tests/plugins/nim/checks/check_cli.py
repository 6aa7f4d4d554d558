"""The CLI knows Nim through its entry point: replay, validate, encode, decode, schema,
selfplay, ingest, and the archive's listing filtered by Nim's own facts."""

from __future__ import annotations

import json

from .conftest import BROKEN, CLEAN, SAMPLES, expected_winners


def test_replay_judges_a_log(cli):
    code, out, err = cli("replay", str(CLEAN[0]))
    assert code == 0, err
    assert "  nim  " in out and "0 findings" in out
    code, out, err = cli("replay", "--json", str(CLEAN[0]))
    assert code == 0, err
    data = json.loads(out.splitlines()[0])
    assert data["game"] == "nim" and data["end"] == "completed" and data["findings"] == []


def test_replay_reports_the_broken_log(cli):
    code, out, err = cli("replay", str(BROKEN))
    assert "event_after_end" in out + err


def test_validate(cli):
    code, out, err = cli("validate", *map(str, CLEAN))
    assert code == 0, out + err
    assert out.count("  nim  ") == len(CLEAN)


def test_encode_then_decode(cli):
    code, out, err = cli("encode", str(CLEAN[0]))
    assert code == 0, err
    replay_code = out.split()[-1]
    code, out, err = cli("decode", replay_code)
    assert code == 0, err
    winner = expected_winners()[json.loads(CLEAN[0].read_text())["game_id"]]
    assert f"nim  {winner} won" in out


def test_schema(cli):
    code, out, err = cli("schema", "--game", "nim")
    assert code == 0, err
    assert json.loads(out)["properties"]["format"]["const"] == "nim/1"


def test_selfplay(cli, tmp_path):
    code, out, err = cli("selfplay", "--game", "nim", "--games", "2", "--bots", "greedy,random",
                         "--out", str(tmp_path))
    assert code == 0, err
    assert len(list(tmp_path.glob("*.json"))) == 2


def test_ingest_then_list_by_its_facts(cli, tmp_path):
    db = f"sqlite:///{tmp_path / 'a.db'}"
    code, out, err = cli("ingest", "--db", db, str(SAMPLES))
    assert "stored 6," in out and "stored with findings 1," in out, out + err  # 6 clean, 1 broken
    winners = expected_winners()
    p2_wins = sorted(g for g, w in winners.items() if w == "P2")
    assert p2_wins  # the samples hold games each seat won
    code, out, err = cli("archive", "list", "--db", db, "--game", "nim", "--fact", "winner=p2", "--json")
    assert code == 0, err
    items = json.loads(out)["items"]
    assert sorted(i["game_id"] for i in items) == p2_wins
    assert all(i["facts"]["winner"] == "P2" for i in items)
    code, out, err = cli("archive", "list", "--db", db, "--game", "nim", "--fact", "moves>=7", "--json")
    assert code == 0, err
    assert {i["facts"]["moves"] >= 7 for i in json.loads(out)["items"]} == {True}
    # the neutral --winner is a winning player's name (greedy-2: P2 in the random-greedy games)
    code, out, err = cli("archive", "list", "--db", db, "--game", "nim", "--winner", "greedy-2", "--json")
    assert code == 0, err
    assert sorted(i["game_id"] for i in json.loads(out)["items"]) == p2_wins


def test_a_bad_fact_value_is_a_message(cli, tmp_path):
    db = f"sqlite:///{tmp_path / 'a.db'}"
    code, out, err = cli("archive", "list", "--db", db, "--game", "nim", "--fact", "heaps=3-x")
    assert code != 0 and "heaps" in err and "Traceback" not in out + err


def test_stats_for_the_game(cli, tmp_path):
    db = f"sqlite:///{tmp_path / 'a.db'}"
    cli("ingest", "--db", db, *map(str, CLEAN))
    code, out, err = cli("archive", "stats", "--db", db, "--game", "nim")
    assert code == 0, err
    assert "greedy" in out
    for word in ("declarer", "contract", "trick"):
        assert word not in out.lower()
