"""Regenerate sample_logs/party-cards/ (deterministic: the same bytes every time).

    python sample_logs/party-cards/make_samples.py

Self-play games come from ``GAME.selfplay``; the others are written through ``PartyLogger``
as a bot would, with texts from the bundled pool, hostile or very long texts, and one broken
log per fatal finding kind. Each log is checked here to give what it was made for.
"""

from __future__ import annotations

import sys
from datetime import datetime, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from replay.games.party_cards import GAME  # noqa: E402
from replay.games.party_cards.cards import card_pool  # noqa: E402
from replay.games.party_cards.logger import PartyLogger  # noqa: E402
from replay.logger import save_log  # noqa: E402

START = datetime(2026, 11, 21, 20, 0, tzinfo=timezone.utc)
POOL = card_pool()
PEOPLE = {"p1": {"name": "Ann", "id": "tg:101"}, "p2": {"name": "Bo", "id": "tg:102"},
          "p3": {"name": "Cy", "id": "tg:103"}, "p4": {"name": "Di", "id": "tg:104"}}


def hands(size: int = 3, texts=None, seats=("p1", "p2", "p3", "p4")) -> dict[str, list[tuple[str, str]]]:
    texts = list(texts or POOL.answers)
    return {seat: [(f"a{i * size + k + 1}", texts[(i * size + k) % len(texts)]) for k in range(size)]
            for i, seat in enumerate(seats)}


def logger(game_id: str, players=None, score_limit: int = 2, hand_size: int = 3) -> PartyLogger:
    return PartyLogger(game_id=game_id, players=players or PEOPLE, score_limit=score_limit, hand_size=hand_size,
                       started_at=START, clock=None)


def q(n: int, qid: str | None = None):
    text, pick = POOL.questions[n]
    return (qid or f"q{n + 1}", text, pick)


def play_round(lg: PartyLogger, czar: str, question, answers: dict[str, list[str]], order: list[str], choice: int):
    lg.round(czar, question)
    for seat, ids in answers.items():
        lg.answer(seat, ids)
    lg.reveal(order)
    lg.pick(czar, choice)


def lobby_only():
    lg = logger("grp-9/cah/1")
    lg.deal(hands())
    lg.join("p1", t=1200)
    lg.decline("p2", t=4000)
    lg.join("p3", t=9000)  # p4 never answers
    return lg.end("not_enough_players", t=60000), "only Ann and Cy join; Bo declines, Di never answers"


def swaps_and_a_leave():
    lg = logger("grp-9/cah/2", score_limit=2)
    lg.deal(hands())
    for seat in ("p1", "p2", "p3", "p4"):
        lg.join(seat)
    lg.swap("p2", ["a4", "a5"], [("a13", POOL.answers[20]), ("a14", POOL.answers[21])])
    lg.swap("p4", ["a10"], [("a15", POOL.answers[22])])
    play_round(lg, "p1", q(0), {"p2": ["a13"], "p3": ["a7"], "p4": ["a15"]}, ["p4", "p2", "p3"], 2)
    lg.draw("p2", [("a16", POOL.answers[30])]); lg.draw("p3", [("a17", POOL.answers[31])])
    lg.draw("p4", [("a18", POOL.answers[32])])
    lg.leave("p3")
    lg.chat("gotta go, bye!", seat="p3")
    # Cy left: Bo is next after Ann anyway; then Di
    play_round(lg, "p2", q(2), {"p1": ["a1"], "p4": ["a11"]}, ["p1", "p4"], 2)
    lg.draw("p1", [("a19", POOL.answers[33])]); lg.draw("p4", [("a20", POOL.answers[34])])
    play_round(lg, "p4", q(3), {"p1": ["a2"], "p2": ["a14"]}, ["p2", "p1"], 1)
    return lg.end("completed", winner="p2"), "Bo and Di swap before round 1; Cy leaves after round 1; Bo wins 2-0"


def leave_ends_the_game():
    lg = logger("grp-9/cah/3", players={k: PEOPLE[k] for k in ("p1", "p2", "p3")}, score_limit=3)
    lg.deal(hands(seats=("p1", "p2", "p3")))
    for seat in ("p1", "p2", "p3"):
        lg.join(seat)
    play_round(lg, "p3", q(5), {"p1": ["a1"], "p2": ["a4"]}, ["p2", "p1"], 1)
    lg.draw("p1", [("a10", POOL.answers[40])]); lg.draw("p2", [("a11", POOL.answers[41])])
    lg.leave("p1")
    return lg.end("not_enough_players"), "three seats; Ann leaves after round 1, leaving two"


def long_texts():
    long_answer = ("An answer that goes on and on, " * 40)[:1000]
    long_question = ("A question so long that the board must wrap it many times over " * 15)[:990] + " ___"
    players = {"p1": {"name": "Maximilian Alexander Bartholomew von Longname-Smythe the Third"},
               "p2": {"name": "Bo"}, "p3": {"name": "Cy"}}
    lg = logger("grp-9/cah/long " + "x" * 150, players=players, score_limit=1, hand_size=2)
    texts = [long_answer, "Short.", long_answer[::-1], "Tiny.", "Mid-length answer card text.", long_answer.upper()]
    lg.deal(hands(2, texts, seats=("p1", "p2", "p3")))
    for seat in ("p1", "p2", "p3"):
        lg.join(seat)
    play_round(lg, "p1", ("q1", long_question, 1), {"p2": ["a3"], "p3": ["a5"]}, ["p2", "p3"], 1)
    lg.chat("y" * 4000, seat="p2")
    return lg.end("completed", winner="p2"), "1,000-character cards, a 994-character question, a 4,000-character chat"


HOSTILE = ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "\u202eRTL override\u202c and \u200fmark",
           "Emoji 🐐🔥👩‍👩‍👧 and 漢字", "\"quotes\" & 'apostrophes' ]]> </svg>", "{{7*7}} ${7*7} %s",
           "javascript:alert(1)", "\u0000NUL\u0007bell", "line one\nline two", "مرحبا بالعالم", "😂", "&amp; &lt;"]


def hostile_texts():
    players = {"p1": {"name": "<script>alert(1)</script>"}, "p2": {"name": "<img src=x onerror=alert(1)>"},
               "p3": {"name": "\u202eBo\u202c 🐐"}, "p4": {"name": "Di & \"co\""}}
    lg = logger("<b>grp</b>/\u202ecah/6", players=players, score_limit=1)
    lg.deal(hands(3, HOSTILE))
    for seat in ("p1", "p2", "p3", "p4"):
        lg.join(seat)
    play_round(lg, "p1", ("q<1>", "<b>Bold</b> ___ & ___ \u202e</text>", 2),
               {"p2": ["a4", "a5"], "p3": ["a7", "a8"], "p4": ["a10", "a11"]}, ["p3", "p2", "p4"], 2)
    lg.chat("<iframe src=javascript:alert(1)>", seat="p4")
    return lg.end("completed", winner="p2"), "markup, RTL marks, emoji and control characters in names, cards, chat"


def base_game(game_id: str, hand_size: int = 3):
    lg = logger(game_id, hand_size=hand_size)
    lg.deal(hands(hand_size))
    for seat in ("p1", "p2", "p3", "p4"):
        lg.join(seat, t=1000 * (int(seat[1]) + 1))
    return lg


def broken_invalid_setup():
    lg = logger("grp-9/cah/broken-1")
    dealt = hands()
    dealt["p3"][0] = ("a1", "A card whose id Ann already holds.")
    lg.deal(dealt)
    for seat in ("p1", "p2", "p3", "p4"):
        lg.join(seat)
    return lg.end("cancelled"), "Cy's first card has Ann's id a1"


def broken_event_after_end():
    lg = base_game("grp-9/cah/broken-2")
    lg.round("p1", q(0), t=6000)
    lg.answer("p2", ["a4"], t=9000)
    lg.answer("p3", ["a7"], t=95000)
    return lg.end("timeout", t=90000), "Cy answers at t=95000, after the end (t=90000)"


def broken_not_in_game():
    lg = logger("grp-9/cah/broken-3")
    lg.deal(hands())
    for seat in ("p1", "p2", "p3"):
        lg.join(seat)
    lg.decline("p4")
    lg.round("p1", q(0))
    lg.answer("p2", ["a4"]); lg.answer("p4", ["a10"])
    return lg.end("cancelled"), "Di declined, then answers"


def broken_card_not_in_hand():
    lg = base_game("grp-9/cah/broken-4")
    lg.round("p1", q(0))
    lg.answer("p2", ["a7"])
    return lg.end("cancelled"), "Bo plays a7, one of Cy's cards"


def broken_pick_out_of_range():
    lg = base_game("grp-9/cah/broken-5")
    play_round(lg, "p1", q(0), {"p2": ["a4"], "p3": ["a7"], "p4": ["a10"]}, ["p4", "p3", "p2"], 4)
    return lg.end("cancelled"), "the czar picks answer 4 of 3"


def broken_not_the_czar():
    lg = base_game("grp-9/cah/broken-6")
    lg.round("p1", q(0))
    lg.answer("p2", ["a4"]); lg.answer("p3", ["a7"]); lg.answer("p4", ["a10"])
    lg.reveal(["p2", "p3", "p4"])
    lg.pick("p3", 1)
    return lg.end("cancelled"), "Cy picks, but Ann is the czar"


MADE = [
    ("lobby-only-not-enough-players", lobby_only), ("swaps-and-a-leave", swaps_and_a_leave),
    ("leave-ends-the-game", leave_ends_the_game), ("long-texts", long_texts), ("hostile-texts", hostile_texts),
    ("broken/invalid-setup", broken_invalid_setup), ("broken/event-after-end", broken_event_after_end),
    ("broken/not-in-game", broken_not_in_game), ("broken/card-not-in-hand", broken_card_not_in_hand),
    ("broken/pick-out-of-range", broken_pick_out_of_range), ("broken/not-the-czar", broken_not_the_czar),
]
SELFPLAY = [(31, ("random",), {}), (32, ("greedy",), {"chat": True}), (33, ("random", "greedy", "random", "greedy"), {}),
            (34, ("random",), {"rounds": 5, "score_limit": 9})]


def write(name: str, log) -> Path:
    path = HERE / f"{name}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = save_log(log, path.parent)
    tmp.replace(path)
    return path


def main() -> list[tuple[str, object, str]]:
    for old in list(HERE.glob("*.json")) + list(HERE.glob("broken/*.json")):
        old.unlink()
    rows = []
    for seed, bots, options in SELFPLAY:
        log = GAME.selfplay(seed, bots=bots, **options)
        name = f"selfplay-{'-'.join(dict.fromkeys(bots))}-{seed}"
        write(name, log)
        rows.append((name, GAME.judge(log), f"{', '.join(dict.fromkeys(bots))} bots, seed {seed}"))
    for name, make in MADE:
        replay, note = make()
        write(name, replay.log)
        fatal = [f.kind for f in replay.findings if f.fatal]
        if name.startswith("broken/"):
            assert fatal == [name.split("/")[1].replace("-", "_")], (name, replay.findings)
        else:
            assert replay.findings == [], (name, replay.findings)
        rows.append((name, replay, note))
    return rows


if __name__ == "__main__":
    for name, replay, note in main():
        kinds = ", ".join(f.kind for f in replay.findings) or "none"
        print(f"| `party-cards/{name}.json` | {replay.end_reason} | {', '.join(replay.winners) or '—'} | "
              f"{replay.rounds} | {kinds} | {note} |")
