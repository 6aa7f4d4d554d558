"""Regenerate sample_logs/coup/ (deterministic: the same seeds give the same bytes).

    python sample_logs/coup/make_coup_samples.py

``selfplay/`` holds championships of 2, 3 and 5 seats played by the bundled bots through
``CoupLogger``; ``broken/`` holds one log per fatal finding kind (and a few others), each made
from the same small game with one event changed, and checked here to give its finding.
``root/*.log`` are written by hand from the spec and left alone.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from replay.games.coup import GAME  # noqa: E402
from replay.games.coup.bots import play_game  # noqa: E402
from replay.logger import save_log  # noqa: E402

CHAMPIONSHIPS = [(2, ("honest", "bluffer"), range(1, 4)), (3, ("honest", "bluffer", "random"), range(11, 14)),
                 (5, ("bluffer", "random", "honest"), range(21, 24))]

BASE = {
    "format": "coup/1", "players": {"1": {"name": "Ana", "bot": "bluffer-1"}, "2": {"name": "Ben", "bot": "honest-1"},
                                    "3": {"name": "<b>Chi</b>", "id": "tg:11"}},
    "first_player": "1", "hands": {"1": ["D", "C"], "2": ["E", "E"], "3": ["A", "B"]},
}


def act(seat, action, target=None):
    e = {"type": "action", "seat": seat, "action": action}
    if target:
        e["target"] = target
    return e


def ev(kind, seat, card=None, **more):
    e = {"type": kind, "seat": seat}
    if card:
        e["card"] = card
    e.update(more)
    return e


OPEN = [act("1", "T"), ev("challenge", "3"), ev("reveal", "1", "D"), ev("lose", "3", "B"), ev("replace", "1", "A")]
BROKEN = {
    "invalid-setup": ({"hands": {"1": ["D", "D"], "2": ["D", "D"], "3": ["A", "B"]}}, [], "invalid_setup",
                      "four Dukes dealt"),
    "event-after-end": ({}, OPEN + [ev("leave", "2"), act("3", "I"), ev("leave", "3"), act("1", "I")],
                        "event_after_end", "1 moves on after the others left"),
    "out-of-turn": ({}, OPEN + [act("3", "I")], "out_of_turn", "3 moves when 2 is to move"),
    "not-enough-coins": ({}, OPEN + [act("2", "A", "1")], "not_enough_coins", "an assassination with 2 coins"),
    "invalid-target": ({}, OPEN + [act("2", "S", "2")], "invalid_target", "2 steals from itself"),
    "invalid-block": ({}, OPEN + [act("2", "S", "1"), ev("block", "3", "C")], "invalid_block",
                      "a bystander blocks a steal"),
    "invalid-challenge": ({}, OPEN + [act("2", "I"), ev("challenge", "3")], "invalid_challenge",
                          "income challenged"),
    "card-not-held": ({}, OPEN + [act("2", "T"), ev("challenge", "1"), ev("reveal", "2", "D")], "card_not_held",
                      "2 reveals a Duke it does not hold"),
    "card-not-in-deck": ({"hands": {"1": ["D", "C"], "2": ["E", "E"], "3": ["E", "B"]}},
                         [act("1", "T"), ev("challenge", "2"), ev("reveal", "1", "D"), ev("lose", "2", "E"),
                          ev("replace", "1", "E")], "card_not_in_deck", "a fourth Contessa drawn"),
    "wrong-card": ({}, OPEN + [act("2", "I"), act("3", "S", "1"), ev("challenge", "2"), ev("reveal", "3", "A")],
                   "wrong_card", "3 claims Captain and reveals its Assassin"),
    "missing-step": ({}, OPEN + [act("2", "I"), act("3", "X"), act("1", "I")], "missing_step",
                     "an exchange never carried out"),
    "must-coup-and-more": ({}, [act("1", "T"), act("2", "I"), act("3", "I")] * 3 + [act("1", "T"),
                           ev("illegal", "2", message="ACT|2|C|1", reason="needs 7 coins"),
                           ev("coins", "1", coins=11)], None, "tax at 11 coins, a refused message, a host "
                           "count that disagrees"),
    "wrong-winner": ({"end": {"reason": "completed", "winner": "2"}},
                     OPEN + [ev("leave", "2"), act("3", "I"), ev("leave", "3")], "wrong_winner", "the log names 2"),
}


def main() -> None:
    rows = []
    out = HERE / "selfplay"
    shutil.rmtree(out, ignore_errors=True)
    for players, bots, seeds in CHAMPIONSHIPS:
        for seed in seeds:
            log = play_game(seed, bots=bots, players=players, game_id=f"champ-{players}p/g{seed}", chat=seed % 2 == 1)
            path = save_log(log, out)
            replay = GAME.judge(log)
            rows.append((f"coup/selfplay/{path.name}", replay, f"{players} seats: {', '.join(bots)}; seed {seed}"))
    out = HERE / "broken"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir()
    for name, (fields, events, kind, note) in BROKEN.items():
        data = json.loads(json.dumps(BASE)) | {"game_id": f"broken/{name}", "events": events} | fields
        log = GAME.parse(data)
        replay = GAME.judge(log)
        kinds = [f.kind for f in replay.findings]
        assert kind is None or kinds[0] == kind, (name, kinds)
        (out / f"{name}.json").write_text(json.dumps(log.to_json_dict(), ensure_ascii=False, indent=1) + "\n",
                                          encoding="utf-8")
        rows.append((f"coup/broken/{name}.json", replay, note))
    for row in rows:
        print(" | ".join([row[0], row[1].end_reason, ",".join(row[1].winners) or "—",
                          ", ".join(f.kind for f in row[1].findings) or "none", row[2]]))


if __name__ == "__main__":
    main()
