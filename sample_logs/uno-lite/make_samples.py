"""Regenerate the UNO Lite sample logs (``python sample_logs/uno-lite/make_samples.py``).

Every file comes from fixed seeds, so the same bytes come out each time: self-play games saved
by ``UnoLogger`` exactly as a bot saves them (some with people in a seat, some cut short), a
``.jsonl`` batch and a zstd file, a game that reshuffles the discard pile, and broken logs: one
per fatal finding kind, a few non-fatal ones, and two files that cannot be read. The table in
``sample_logs/README.md`` (UNO Lite section) says what each must give; tests/games check it.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from replay.games import get  # noqa: E402
from replay.logger import save_log  # noqa: E402

UNO = get("uno-lite")
PEOPLE = [("Ann", "tg:101"), ("Bao", "tg:102"), ("Chidi", "tg:103"), ("Dana", "tg:104"), ("Éloïse", "tg:105"),
          ("Kenji 健二", "tg:106")]


def game(seed: int, bots=("greedy", "random"), people: int = 0, interrupt: float = 0.0, room: str = "uno-room"):
    log = UNO.selfplay(seed, bots=bots, interrupt_rate=interrupt, game_id=f"{room}/{seed}", chat=seed % 3 == 0)
    data = json.loads(log.canonical_json())
    for i, seat in enumerate(("P1", "P2")[:people]):
        name, pid = PEOPLE[(seed + i) % len(PEOPLE)]
        data["players"][seat] = {"name": name, "id": pid}
    return UNO.parse(data)


def write(path: Path, data) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    path.write_text(text, encoding="utf-8")


def broken_from(seed: int, change) -> dict:
    data = json.loads(UNO.selfplay(seed, bots=("greedy", "greedy"), game_id=f"uno-broken/{seed}").canonical_json())
    change(data)
    return data


def main() -> None:
    for folder in ("selfplay", "batch", "broken"):
        shutil.rmtree(HERE / folder, ignore_errors=True)
    selfplay = HERE / "selfplay"
    for seed in range(1, 9):
        save_log(game(seed, ("greedy", "random") if seed % 2 else ("random", "greedy"), people=seed % 3), selfplay)
    for seed in (11, 12):
        save_log(game(seed, ("greedy", "greedy"), people=1), selfplay)
    for seed in range(20, 40):  # cut short: the first two with an interruption
        log = game(seed, ("random", "random"), interrupt=1.0, room="uno-cut")
        if log.end is not None and log.end.reason in ("cancelled", "timeout") and len(list((selfplay).glob("uno-cut*"))) < 2:
            save_log(log, selfplay)
    reshuffle = next(s for s in range(200) if UNO.judge(UNO.selfplay(s, bots=("random", "random"))).to_json().get("reshuffles", 0) > 0
                     or _reshuffles(UNO.selfplay(s, bots=("random", "random"))))
    save_log(game(reshuffle, ("random", "random"), room="uno-reshuffle"), selfplay)

    batch = [game(seed, ("greedy", "random"), people=1, room="uno-batch").canonical_json() for seed in range(50, 55)]
    write(HERE / "batch" / "uno-night.jsonl", "\n".join(batch) + "\n")
    import zstandard

    packed = zstandard.ZstdCompressor(level=19).compress(game(60, ("greedy", "greedy"), room="uno-zst").canonical_json().encode())
    (HERE / "batch" / "uno-final.json.zst").write_bytes(packed)

    broken = HERE / "broken"

    def first(data, kind, seat=None):
        return next(i for i, e in enumerate(data["events"]) if e["type"] == kind and (seat is None or e["seat"] == seat))

    def invalid_deal(data):
        data["hands"]["P1"] = data["hands"]["P1"][:6]

    def out_of_turn(data):
        i = first(data, "play")
        data["events"][i]["seat"] = "P2" if data["events"][i]["seat"] == "P1" else "P1"

    def card_not_in_hand(data):
        i = first(data, "play")
        seat = data["events"][i]["seat"]
        held = set(data["hands"][seat])
        data["events"][i]["card"] = next(c for c in ("R1", "G2", "B3", "Y4", "R9", "G8") if c not in held)

    def card_not_in_pile(data):
        # a draw of a card both of whose copies were dealt (so it cannot be in the pile)
        i = first(data, "draw")
        dealt = data["hands"]["P1"] + data["hands"]["P2"] + [data["starter"]]
        data["events"][i]["card"] = next(c for c in dealt if dealt.count(c) == 2)

    def event_after_end(data):
        last = data["events"][-1]
        data["events"].append({"type": "pass", "seat": "P1" if last.get("seat") == "P2" else "P2"})

    def wrong_winner(data):
        data["end"]["winner"] = "P2" if data["end"].get("winner") == "P1" else "P1"

    def end_mismatch(data):
        data["end"] = {"reason": "cancelled"}

    def draw_while_playable(data):
        i = first(data, "play")
        seat = data["events"][i]["seat"]
        data["events"][i:i + 1] = [{"type": "draw", "seat": seat, "card": _a_pile_card(data, i)},
                                   {"type": "play", "seat": seat, "card": data["events"][i]["card"]}]

    cases = {
        "invalid-deal.json": (3, invalid_deal),
        "out-of-turn.json": (4, out_of_turn),
        "card-not-in-hand.json": (5, card_not_in_hand),
        "card-not-in-pile.json": (_seed_with_a_pair(), card_not_in_pile),
        "event-after-end.json": (7, event_after_end),
        "wrong-winner.json": (8, wrong_winner),
        "end-mismatch.json": (9, end_mismatch),
        "draw-while-playable.json": (10, draw_while_playable),
    }
    for name, (seed, change) in cases.items():
        write(broken / name, broken_from(seed, change))
    text = json.dumps(broken_from(13, lambda d: None), ensure_ascii=False)
    write(broken / "truncated.json", text[: len(text) * 2 // 3])
    bad = broken_from(14, lambda d: None)
    bad["hands"]["P2"][3] = "R0"
    write(broken / "not-a-card.json", bad)


def _seed_with_a_pair() -> int:
    """A seed whose deal holds both copies of some card, and that has a draw."""
    for seed in range(100):
        log = UNO.selfplay(seed, bots=("greedy", "greedy"))
        dealt = list(log.hands.P1) + list(log.hands.P2) + [log.starter]
        if any(dealt.count(c) == 2 for c in dealt) and any(e.type == "draw" for e in log.events):
            return seed
    raise RuntimeError("no seed with a pair")


def _reshuffles(log) -> bool:
    from replay.games.uno_lite.engine import UnoState

    state = UnoState(log.hands.by_seat(), log.starter, log.first_player)
    for i, e in enumerate(log.events):
        state.push(e, i)
        if state.reshuffles:
            return True
    return False


def _a_pile_card(data, index) -> str:
    """A card that can still be drawn before event ``index`` (not both copies in sight)."""
    from replay.games.uno_lite.cards import CARD_TEXT

    seen = data["hands"]["P1"] + data["hands"]["P2"] + [data["starter"]]
    seen += [e["card"] for e in data["events"][:index] if e["type"] == "draw"]
    return next(c for c in CARD_TEXT if seen.count(c) < 2)


if __name__ == "__main__":
    main()
