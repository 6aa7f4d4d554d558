"""Regenerate the self-play part of sample_logs/ (deterministic: the same seeds give the same bytes).

    python sample_logs/make_samples.py

It rewrites ``selfplay/``, ``batch/`` and the generated files of ``broken/`` (the ``.json``
ones), then the table between the ``generated`` markers in ``README.md``. The legacy text logs
(``legacy/*.txt`` and ``broken/*.txt``) are written by hand and left alone.

Each game is played by ``replay.games.floating_bridge.bots.play_game`` (the bundled greedy and random bots, through
``GameLogger``) and saved with ``replay.logger.save_log``, as a bot would. Only the game ids and
some of the players are then changed to look like a real Telegram group's: in most games one to
three seats are taken by people (a name and a Telegram id), the others keep the bot that played
them (``players.<seat>.bot``, e.g. ``greedy-1``, which ``/stats`` counts per bot); some games are
all bots. ``meta.selfplay`` still names the bot and the seed. Every deliberately broken log is checked here to produce the finding
it was made for, so a regeneration cannot silently lose one.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from replay.games.floating_bridge.bots import BOTS, play_game  # noqa: E402
from replay.games.floating_bridge.cards import SEATS, SUIT_MASKS, Card, cards_of  # noqa: E402
from replay.games.floating_bridge.engine import AUCTION, OVER, PARTNER, Game  # noqa: E402
from replay.log import parse_log, read_path  # noqa: E402
from replay.games.floating_bridge.log import GameLog
from replay.logger import GameLogger, save_log  # noqa: E402
from replay.games.floating_bridge.rules import Rules  # noqa: E402

NAMES = [
    "Wei Ling", "Zoë Tan", "Arjun Menon", "Nur Aisyah", "김민준", "陈伟", "Ясмина", "José Ramírez",
    "Siti 🌺", "Kai", "Mei-Ling Ong", "Darius", "Ahmad Faiz", "Chloé", "Thảo Nguyễn", "Ravi K.",
    "ben_tan", "Hana 花子", "Søren", "Priya S", "Jun Hao", "Farah", "Łukasz", "Ng Boon Keat",
    "xiaoyu 🐟", "Marcus", "愛子", "Dmitri", "Gabriel O'Neill", "Shu Fen",
]
GROUPS = ["kopi-bridge", "hall7-bridge", "family-bridge", "office-lunch"]

# (bot, rules, seed, interrupt_rate): interrupted games end "cancelled" or "timeout"
SELFPLAY: list[tuple[str, str, int, float]] = (
    [("greedy", "bridgebot", s, 0.0) for s in range(1, 13)]
    + [("random", "bridgebot", s, 0.0) for s in range(101, 107)]
    + [("greedy", "all-tricks", s, 0.0) for s in range(201, 209)]
    + [("random", "all-tricks", s, 0.0) for s in range(301, 304)]
    + [("greedy", "bridgebot", 13, 1.0), ("greedy", "bridgebot", 14, 1.0),
       ("random", "all-tricks", 15, 1.0), ("greedy", "all-tricks", 16, 1.0)]
)
PASSED_OUT_SEEDS = (41, 42)
BATCH = [("greedy", "bridgebot", s, 0.0) for s in range(501, 505)] + [
    ("random", "bridgebot", 505, 0.0), ("greedy", "all-tricks", 506, 0.0), ("greedy", "bridgebot", 26, 1.0)]
ZST = ("greedy", "all-tricks", 601, 0.0)

BEGIN = "<!-- generated: begin (make_samples.py writes the rows below) -->"
END = "<!-- generated: end -->"


#: how many seats of a self-play game people take (drawn per game): mostly mixed tables
PEOPLE_AT_TABLE = (0, 1, 1, 2, 2, 3)


def people(key: str) -> dict[str, dict[str, Any]]:
    """Four distinct names and Telegram user ids, the same for the same key."""
    rng = random.Random(f"names/{key}")
    chosen = rng.sample(NAMES, 4)
    return {seat.name: {"name": name, "id": f"tg:{rng.randrange(10**8, 10**10)}"}
            for seat, name in zip(SEATS, chosen)}


_counters: dict[str, int] = {}


def game_id(log: GameLog, key: str, group: str | None = None) -> str:
    group = group or GROUPS[random.Random(f"group/{key}").randrange(len(GROUPS))]
    day = log.started_at.strftime("%Y-%m-%d")
    _counters[f"{group}/{day}"] = n = _counters.get(f"{group}/{day}", 0) + 1
    return f"{group}/{day}/{n}"


def human_seats(key: str) -> list[str]:
    """The seats people take at a self-play table, the same for the same key."""
    rng = random.Random(f"people-at-table/{key}")
    return sorted(rng.sample([s.name for s in SEATS], rng.choice(PEOPLE_AT_TABLE)))


def dress(log: GameLog, key: str, group: str | None = None) -> GameLog:
    """The log with a group's game id, and people in some seats: the other seats keep the bot
    that played them (its name and ``bot``, as ``play_game`` logged them)."""
    data = log.to_json_dict()
    data["game_id"] = game_id(log, key, group)
    names, humans = people(key), human_seats(key)
    data["players"] = {seat: names[seat] if seat in humans else data["players"][seat] for seat in data["players"]}
    return parse_log(data)


def selfplay(bot: str, rules: str, seed: int, interrupt: float, group: str | None = None) -> GameLog:
    key = f"{bot}/{rules}/{seed}/{interrupt}"
    return dress(play_game(seed, bot=bot, rules=rules, interrupt_rate=interrupt, chat=True), key, group)


def passed_out(seed: int) -> GameLog:
    """A deal that everyone passes: bots redeal, but the log of the passed-out game stays."""
    rng = random.Random(seed)
    game = Game.new_random(rng=rng)
    started = datetime(2026, 6, 1, tzinfo=timezone.utc) + timedelta(seconds=rng.randrange(90 * 86400))
    logger = GameLogger(game_id=f"kopi-bridge/{started:%Y-%m-%d}/{seed % 10}", players=people(f"passed/{seed}"),
                        started_at=started, clock=None, meta={"selfplay": {"bot": "human-like", "seed": seed}})
    logger.deal(game.deal, first_bidder=game.first_bidder)
    seat, t = game.first_bidder, 0
    for _ in range(4):
        t += rng.randrange(2000, 20000)
        logger.bid(seat, "pass", t=t)
        seat = seat.next
    logger.chat("redeal pls 🙏", seat=seat, t=t + 1500)
    return logger.end("passed_out", t=t + 3000).log


def revoking_game(seed: int, at_trick: int) -> GameLog:
    """A greedy game in which one player revokes once (plays off-suit while holding the suit led)."""
    rng = random.Random(seed)
    rules = Rules.from_spec("bridgebot")
    game = Game.new_random(rules=rules, rng=rng)
    bots = [BOTS["greedy"](rng) for _ in range(4)]
    players = people(f"revoke/{seed}")
    for seat in ("E", "W"):  # East, who revokes, and West are the greedy bot; N and S are people
        players[seat] = {"name": f"greedy-{players[seat]['name'].split()[0]}", "bot": f"greedy-{bots[0].version}"}
    logger = GameLogger(game_id="broken/revoke", rules=rules, players=players, clock=None,
                        started_at=datetime(2026, 5, 9, 20, 15, tzinfo=timezone.utc), meta={"selfplay": {"bot": "greedy", "seed": seed},
                                               "tampered": f"one revoke in trick {at_trick}"})
    logger.deal(game.deal, first_bidder=game.first_bidder)
    revoked, t = False, 0
    while game.phase != OVER:
        seat = game.to_act
        t += rng.randrange(400, 9000)
        if game.phase == AUCTION:
            call = bots[seat].call(game, seat)
            logger.bid(seat, call, t=t)
            game.push_call(seat, call)
        elif game.phase == PARTNER:
            card = bots[seat].partner_card(game, seat)
            logger.partner(seat, card, t=t)
            game.push_partner(seat, card)
        else:
            card = bots[seat].card(game, seat)
            if not revoked and len(game.trick_winners) + 1 >= at_trick and game.trick:
                led = game.trick[0][1] // 13
                off_suit = [c for c in cards_of(game.hands[seat]) if c // 13 != led]
                if game.hands[seat] & SUIT_MASKS[led] and off_suit:
                    card, revoked = min(off_suit, key=lambda c: c % 13), True
            logger.play(seat, card, t=t)
            game.push_play(seat, card)
            if not game.trick:
                logger.trick(game.trick_winners[-1], t=t + 50)
    return logger.end("passed_out" if game.passed_out else "completed", t=t + 500).log


def tamper(log: GameLog, new_id: str, change: Callable[[dict[str, Any]], None], note: str) -> GameLog:
    data = log.to_json_dict()
    data["game_id"] = new_id
    data.setdefault("meta", {})["tampered"] = note
    change(data)
    return parse_log(data)


def card_not_in_hand(data: dict[str, Any]) -> None:
    """The 13th card played (the lead to trick 4) becomes a card another seat still holds."""
    plays = [e for e in data["events"] if e["type"] == "play"]
    event = plays[12]
    seen = {Card.parse(e["card"]) for e in plays[:12]}
    other = next(s for s in SEATS if s.name != event["seat"])
    event["card"] = next(str(c) for c in map(Card.parse, data["hands"][other.name]) if c not in seen)


def bid_out_of_turn(data: dict[str, Any]) -> None:
    """The second call is made by the seat after the one whose turn it was."""
    event = [e for e in data["events"] if e["type"] == "bid"][1]
    event["seat"] = SEATS[(SEATS.index(next(s for s in SEATS if s.name == event["seat"])) + 1) % 4].name


def wrong_trick_winner(data: dict[str, Any]) -> None:
    """The bot announces the wrong winner of trick 5."""
    event = [e for e in data["events"] if e["type"] == "trick"][4]
    event["winner"] = next(s.name for s in SEATS if s.name != event["winner"])


def not_a_card(data: dict[str, Any]) -> None:
    """A card written 'S1O' (letter O for zero): the log is not well-formed."""
    [e for e in data["events"] if e["type"] == "play"][0]["card"] = "S1O"


def xss_name(data: dict[str, Any]) -> None:
    data["players"]["N"]["name"] = "<script>alert(1)</script>"


def end_mismatch(data: dict[str, Any]) -> None:
    data["end"]["reason"] = "completed"


def write_json(log: GameLog, path: Path) -> None:
    path.write_text(json.dumps(log.to_json_dict(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def outcome(path: Path) -> list[tuple[str, str, str, str, str]]:
    """README rows for one file: (source, end, contract, winner, findings)."""
    rows = []
    for entry in read_path(str(path)):
        source = os.path.relpath(entry.source, HERE)
        if entry.error is not None:
            rows.append((source, "rejected", "—", "—", f"rejected: {entry.error}"))
            continue
        replay = entry.log.replay()
        contract = "—" if replay.contract is None else f"{replay.contract} by {replay.declarer.name}"
        kinds = ", ".join(f.kind for f in replay.findings) or "none"
        rows.append((source, replay.end_reason, contract, replay.result.winner or "—", kinds))
    return rows


#: the championship sample: these deals, each at every table of the two bots' rotation
CHAMPIONSHIP_DEALS = (11, 20, 37)  # deals where the two bots' bidding gives different results
CHAMPIONSHIP_BOTS = ("greedy", "cautious")


def main() -> None:
    notes: dict[str, str] = {}
    for folder in ("selfplay", "batch", "championship"):
        shutil.rmtree(HERE / folder, ignore_errors=True)
        (HERE / folder).mkdir()
    broken = HERE / "broken"
    broken.mkdir(exist_ok=True)
    for old in broken.glob("*.json"):
        old.unlink()

    files: list[Path] = []
    for bot, rules, seed, interrupt in SELFPLAY:
        log = selfplay(bot, rules, seed, interrupt)
        path = save_log(log, HERE / "selfplay")
        files.append(path)
        notes[path.name] = f"{bot} bots, {rules}, seed {seed}" + (", interrupted" if interrupt else "")
        assert not log.replay().findings, path
    for seed in PASSED_OUT_SEEDS:
        path = save_log(passed_out(seed), HERE / "selfplay")
        files.append(path)
        notes[path.name] = "four passes: passed out (GameLogger by hand)"

    batch_logs = [selfplay(*spec, group="kopi-bridge") for spec in BATCH]
    batch = HERE / "batch" / "kopi-bridge-export.jsonl"
    batch.write_text("".join(log.canonical_json() + "\n" for log in batch_logs), encoding="utf-8")
    files.append(batch)
    for n, spec in enumerate(BATCH, start=1):
        notes[f"{batch.name}:{n}"] = f"{spec[0]} bots, {spec[1]}, seed {spec[2]}" + (", interrupted" if spec[3] else "")
    import zstandard

    zst = HERE / "batch" / "hall7-bridge-finals.json.zst"
    raw = (json.dumps(selfplay(*ZST, group="hall7-bridge").to_json_dict(), ensure_ascii=False, indent=1) + "\n").encode()
    zst.write_bytes(zstandard.ZstdCompressor(level=19).compress(raw))
    files.append(zst)
    notes[zst.name] = f"zstd-compressed; {ZST[0]} bots, {ZST[1]}, seed {ZST[2]}"

    # a small bot championship on duplicated deals (``game-replay championship``'s tables): each
    # deal at the four tables of the rotation, so the viewer's "Other tables" panel, /deal/<key>
    # and the duplicate scores on /stats have something to show on first start
    from replay.duplicate import rotation
    from replay.games import get

    bridge = get("floating-bridge")
    for deal in CHAMPIONSHIP_DEALS:
        for table, seating in enumerate(rotation(4, CHAMPIONSHIP_BOTS)):
            path = HERE / "championship" / f"deal-{deal:04d}-table-{table}.json"
            write_json(bridge.play_table(deal, seating, table=table), path)
            files.append(path)
            notes[path.name] = f"championship deal {deal}, table {table}: {', '.join(seating)} (N, E, S, W)"

    # deliberately broken logs, each checked for the finding it was made for
    clean = selfplay("greedy", "bridgebot", 9001, 0.0)
    cut = selfplay("greedy", "bridgebot", 9006, 1.0)
    specials: list[tuple[str, GameLog | None, list[str], str]] = [
        ("revoke.json", revoking_game(9003, at_trick=3), ["revoke"], "a player discards while holding the suit led"),
        ("card-not-in-hand.json", tamper(clean, "broken/card-not-in-hand", card_not_in_hand,
                                         "lead to trick 4 replaced by another seat's card"),
         ["card_not_in_hand"], "the lead to trick 4 is a card another seat holds"),
        ("bid-out-of-turn.json", tamper(clean, "broken/bid-out-of-turn", bid_out_of_turn,
                                        "second call made by the wrong seat"),
         ["out_of_turn"], "the second call comes from the seat after the one to call"),
        ("wrong-trick-winner.json", tamper(clean, "broken/wrong-trick-winner", wrong_trick_winner,
                                           "trick 5 announced for the wrong seat"),
         ["wrong_trick_winner"], "the bot announces the wrong winner of trick 5"),
        ("end-mismatch.json", tamper(cut, "broken/end-mismatch", end_mismatch,
                                     "an interrupted game logged as completed"),
         ["end_mismatch"], "an interrupted game whose log claims it was completed"),
        ("script-player-name.json", tamper(clean, "broken/script-player-name", xss_name,
                                           "player N's name is a script tag"),
         [], "clean game; North is named `<script>alert(1)</script>`: every page must escape it"),
    ]
    for name, log, kinds, note in specials:
        path = broken / name
        write_json(log, path)
        got = [f.kind for f in log.replay().findings]
        assert got == kinds, (name, got)
        files.append(path)
        notes[name] = note
    # not well-formed: rejected with an error that names the place
    text = json.dumps(tamper(clean, "broken/not-a-card", lambda d: None, "S1O").to_json_dict(), ensure_ascii=False, indent=1)
    bad = json.loads(text)
    not_a_card(bad)
    (broken / "not-a-card.json").write_text(json.dumps(bad, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    files.append(broken / "not-a-card.json")
    notes["not-a-card.json"] = "the first card is written `S1O` (letter O)"
    # one line, as GameLog.canonical_json() writes it (see the README on pretty-printed files)
    # (a table of people only: the same bytes, and so the same error, as the docs quote)
    whole = tamper(clean, "broken/truncated", lambda d: d.update(players=people("greedy/bridgebot/9001/0.0")),
                   "cut short").canonical_json()
    (broken / "truncated.json").write_text(whole[: len(whole) * 3 // 5], encoding="utf-8")
    files.append(broken / "truncated.json")
    notes["truncated.json"] = "the file stops part way (as after a full disk)"

    rows = []
    for path in files:
        for row in outcome(path):
            note = notes.get(Path(row[0]).name, "")
            rows.append("| " + " | ".join([f"`{row[0]}`", *row[1:], note]) + " |")
    readme = HERE / "README.md"
    text = readme.read_text(encoding="utf-8")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    table = "\n| file | end | contract | winner | findings | notes |\n|---|---|---|---|---|---|\n" + "\n".join(rows) + "\n"
    readme.write_text(head + BEGIN + "\n" + table + END + tail, encoding="utf-8")
    print(f"wrote {len(rows)} games in {len(files)} files")


if __name__ == "__main__":
    main()
