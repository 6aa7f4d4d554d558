"""Writes ``generic_v1_codes.tsv``: version 1 codes of UNO Lite, Coup and party-cards games, as
the release before generic version 2 printed them, each with a digest of the game it opened to.

    PYTHONPATH=. python tests/codec/make_generic_v1_codes.py > tests/codec/generic_v1_codes.tsv

The file was written at commit c028692, whose ``encode`` wrote version 1 codes; this script now
writes them with ``replay.codec.generic.v1_text`` (the version 1 text layer, kept for this) over
the same payloads, so it gives the same bytes. ``test_code_versions.py`` checks that every row
still opens to the game of its digest.

Rows: code, the first 16 hex digits of sha256(decoded log's canonical JSON), a note (where the
game comes from). The games: every readable sample log of the three games (their broken
samples give raw codes), and seeded self-play games of every bot mix and size, some cut short,
some with an end taken away, some with findings added after the end.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from replay.games import get  # noqa: E402
from replay.log import parse_log, read_path  # noqa: E402

GAMES = ("uno-lite", "coup", "party-cards")
SAMPLES = {"uno-lite": "sample_logs/uno-lite", "coup": "sample_logs/coup", "party-cards": "sample_logs/party-cards"}


def encode_v1(log) -> str:
    """The version 1 code of a log (what ``encode`` wrote before generic version 2)."""
    from replay.codec import generic

    writer = getattr(generic, "encode_game_v1", None)
    return writer(log) if writer is not None else generic.encode_game(log)


def digest(log) -> str:
    return hashlib.sha256(log.canonical_json().encode()).hexdigest()[:16]


def sample_logs(name: str):
    for path in sorted((ROOT / SAMPLES[name]).rglob("*")):
        if path.suffix not in (".json", ".jsonl", ".zst", ".log") or not path.is_file():
            continue
        for entry in read_path(str(path)):
            if entry.log is not None and entry.log.format.startswith(name + "/"):
                yield entry.log, f"sample {path.relative_to(ROOT / 'sample_logs')}"


def variants(name: str):
    game = get(name)
    bots = list(game.bots)
    if name == "uno-lite":
        setups = [({"bots": (a, b)}, f"{a} v {b}") for a in bots for b in bots]
        setups.append(({"bots": ("greedy", "random"), "interrupt_rate": 0.5}, "greedy v random, some cut short"))
        seeds = range(12)
    elif name == "coup":
        setups = [({"bots": tuple(bots[(n + i) % len(bots)] for i in range(n)), "players": n}, f"{n} seats")
                  for n in range(2, 7)]
        setups.append(({"bots": tuple(bots), "players": 4, "interrupt_rate": 0.5}, "4 seats, some cut short"))
        seeds = range(10)
    else:
        setups = [({"bots": ("random",), "rounds": r, "score_limit": r + 1}, f"{r} rounds") for r in (3, 5, 8)]
        setups.append(({"bots": tuple(bots) * 2, "rounds": 5, "chat": True}, "5 rounds, every bot, chat"))
        setups.append(({"bots": ("random",), "rounds": 5, "interrupt_rate": 0.5}, "5 rounds, some cut short"))
        seeds = range(6)
    for options, label in setups:
        for seed in seeds:
            yield game.selfplay(seed, **options), f"selfplay {label}, seed {seed}"


def edited(name: str, log, note: str):
    """The game with its end taken away and cut after a third of its moves (a compact code's
    *stop*), and the game with its last move repeated after the end (a raw code: findings)."""
    data = log.to_json_dict()
    if data.get("events"):
        cut = dict(data)
        cut["events"] = data["events"][: max(1, len(data["events"]) // 3)]
        cut.pop("end", None)
        yield parse_log(cut), note + ", cut to a third, no end"
        moves = [e for e in data["events"] if e.get("type") not in ("chat",)]
        if moves and "end" in data:
            after = json.loads(json.dumps(data))
            again = dict(moves[-1])
            if "t" in after["end"]:
                again["t"] = after["end"]["t"] + 1000
            after["events"].append(again)
            yield parse_log(after), note + ", last move repeated after the end"


def rows():
    from replay.codec import decode

    seen = set()
    for name in GAMES:
        logs = list(sample_logs(name))
        played = list(variants(name))
        logs += played
        for log, note in played[::7]:
            logs += list(edited(name, log, note))
        for log, note in logs:
            code = encode_v1(log)
            if code in seen:
                continue
            seen.add(code)
            yield code, digest(decode(code)), f"{name} {note}"


if __name__ == "__main__":
    for row in rows():
        print("\t".join(row))
