"""Texas hold'em replay codes: mean length of 6-seat 10,000-chip no-limit hands beside the
information bound, the hand as PHH text (and its zstd), and as compact JSON.

    python bench/holdem/codes.py                    # 1,000 self-play hands a round, 3 rounds
    python bench/holdem/codes.py --hands 200 --rounds 1
    python bench/holdem/codes.py --source engine    # hands of a random policy on the engine

Each round plays its own seeded hands (``--source bots``: ``replay.games.holdem.bots.play_game``
with every bot; ``--source engine``: a random policy on the engine's legal actions that bets
the usual sizes most of the time and any legal size otherwise) and reports, per hand on
average:

- ``code``: characters of the whole replay code (marker, payload in base 62, checksum: what a
  link carries), and ``body``: the payload's own characters (the code less its marker and its
  3 checksum characters), both against ``bound``: ``information_bits`` in base-62 characters
  (log2 of the deal's possibilities plus log2 of each decision's legal count), and ``cards``
  the deal's share of it (what no code of a random deal can save);
- ``phh``: the hand as a ``.phh`` file (``phh.write``) in characters and ``phh.zst`` its zstd -19
  in bytes (in base-62 characters: bytes * 8 / log2 62); ``json``/``json.zst``: the log's
  canonical JSON without names, times, chat and meta (what a code keeps) and its zstd;
- ``raw``: hands that took the raw form; ``enc+dec/s``: codes encoded and decoded a second.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import time

import zstandard

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", ".."))

from replay.codec.generic import _body_length  # noqa: E402
from replay.games.holdem import phh  # noqa: E402
from replay.games.holdem.cards import cards_text  # noqa: E402
from replay.games.holdem.codec import CODEC, _raw_object, information_parts  # noqa: E402
from replay.games.holdem.engine import HoldemState  # noqa: E402
from replay.games.holdem.log import parse  # noqa: E402

CHAR_BITS = math.log2(62)
SEATS, STACK, BLINDS = 6, 10000, (50, 100)


def engine_hand(seed: int):
    """A 6-seat hand of a random policy on the engine: fold a third of the time when facing a
    bet, bet or raise a quarter of the time, to a usual size (the minimum, half, two thirds or
    the whole pot, three times the bet, all-in) nine times in ten, else to any legal size."""
    rng = random.Random(seed)
    blinds = list(BLINDS) + [0] * (SEATS - 2)
    state, _ = HoldemState.from_setup("NT", [0] * SEATS, blinds, [STACK] * SEATS, min_bet=BLINDS[1])
    deck = list(range(52))
    rng.shuffle(deck)
    actions = []
    while not state.over:
        if state.to_act is None:
            kind, what = state.dealer_due
            cards = [deck.pop() for _ in range(2 if kind == "dh" else what)]
            text = f"d dh {what} {cards_text(cards)}" if kind == "dh" else f"d db {cards_text(cards)}"
        else:
            seat, legal = state.to_act, state.legal()
            roll = rng.random()
            if legal.min_to is not None and roll < 0.25:
                top, pot = max(state.bets), state.pot_total()
                grown = pot + top - state.bets[state.seats.index(seat)]
                usual = [legal.min_to, top + grown // 2, top + grown * 2 // 3, top + grown, top * 3, legal.max_to]
                to = rng.choice(usual) if rng.random() < 0.9 else rng.randint(legal.min_to, legal.max_to)
                text = f"{seat} cbr {min(max(to, legal.min_to), legal.max_to)}"
            elif legal.fold and roll < 0.6:
                text = f"{seat} f"
            else:
                text = f"{seat} cc"
        assert not state.push_action(text, len(actions)), text
        actions.append(text)
    data = {"format": "holdem/1", "variant": "NT", "antes": [0] * SEATS, "blinds_or_straddles": blinds,
            "min_bet": BLINDS[1], "starting_stacks": [STACK] * SEATS, "events": [{"action": a} for a in actions],
            "end": {"reason": "completed", "finishing_stacks": list(state.settle().stacks)}}
    return parse(data)


def bots_hand(seed: int):
    from replay.games.holdem.bots import BOTS, play_game

    return play_game(seed, list(BOTS), players=SEATS, stacks=STACK, blinds=BLINDS)


def measure(logs: list) -> dict[str, float]:
    zstd = zstandard.ZstdCompressor(level=19)
    start = time.perf_counter()
    payloads = [CODEC.payload(log) for log in logs]
    for value in payloads:
        CODEC.from_payload(value)
    rate = len(logs) / (time.perf_counter() - start)
    codes = [1 + _body_length(v) for v in payloads]
    phh_texts = [phh.write(log).encode() for log in logs]
    jsons = [json.dumps(_raw_object(log), ensure_ascii=False, separators=(",", ":")).encode() for log in logs]
    return {
        "code": statistics.fmean(codes),
        "body": statistics.fmean(c - 4 for c in codes),
        "payload": statistics.fmean(v.bit_length() / CHAR_BITS for v in payloads),
        "bound": statistics.fmean(sum(information_parts(log)) / CHAR_BITS for log in logs),
        "cards": statistics.fmean(information_parts(log)[0] / CHAR_BITS for log in logs),
        "phh": statistics.fmean(len(t) for t in phh_texts),
        "phh.zst": statistics.fmean(len(zstd.compress(t)) for t in phh_texts),
        "json": statistics.fmean(len(t) for t in jsons),
        "json.zst": statistics.fmean(len(zstd.compress(t)) for t in jsons),
        "raw": sum(v & 1 for v in payloads),
        "rate": rate,
        "actions": statistics.fmean(len(log.actions) for log in logs),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=1000, help="hands a round (default 1,000)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, each with its own seeds (default 3)")
    parser.add_argument("--source", choices=("bots", "engine"), default="bots",
                        help="self-play bots (default) or a random policy on the engine")
    args = parser.parse_args()
    print("$ python " + " ".join([sys.argv[0]] + sys.argv[1:]))
    print(f"Python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.2f} (2 cores shared)")
    make = bots_hand if args.source == "bots" else engine_hand
    print(f"{args.hands:,} hands a round, {SEATS} seats, {STACK:,} chips, blinds {BLINDS[0]}/{BLINDS[1]}, "
          f"no-limit, source {args.source}")
    head = (f"{'round':>5} {'actions':>7} {'code':>6} {'body':>6} {'bound':>6} {'body-bound':>10} {'cards':>6} {'phh':>6} "
            f"{'phh.zst':>7} {'(chars)':>7} {'json':>6} {'json.zst':>8} {'raw':>4} {'enc+dec/s':>9}")
    print(head)
    rows = []
    for r in range(args.rounds):
        logs = [make(r * 1_000_000 + seed) for seed in range(args.hands)]
        m = measure(logs)
        rows.append(m)
        print(f"{r + 1:>5} {m['actions']:>7.1f} {m['code']:>6.1f} {m['body']:>6.1f} {m['bound']:>6.1f} "
              f"{m['body'] - m['bound']:>+10.1f} {m['cards']:>6.1f} {m['phh']:>6.0f} {m['phh.zst']:>7.0f} "
              f"{m['phh.zst'] * 8 / CHAR_BITS:>7.0f} {m['json']:>6.0f} {m['json.zst']:>8.0f} {m['raw']:>4} "
              f"{m['rate']:>9,.0f}", flush=True)
    mean = {k: statistics.fmean(row[k] for row in rows) for k in rows[0]}
    print(f"{'mean':>5} {mean['actions']:>7.1f} {mean['code']:>6.1f} {mean['body']:>6.1f} {mean['bound']:>6.1f} "
          f"{mean['body'] - mean['bound']:>+10.1f} {mean['cards']:>6.1f} {mean['phh']:>6.0f} {mean['phh.zst']:>7.0f} "
          f"{mean['phh.zst'] * 8 / CHAR_BITS:>7.0f} {mean['json']:>6.0f} {mean['json.zst']:>8.0f} "
          f"{mean['raw']:>4.0f} {mean['rate']:>9,.0f}")
    print("(code: whole replay code in characters, marker and 3 checksum characters included; body: code less "
          "those 4; bound: information_bits in base-62 characters, cards: the deal's share of it; phh: .phh text in characters, phh.zst its "
          "zstd -19 in bytes and in base-62 characters; json: canonical JSON without names/times/chat/meta)")


if __name__ == "__main__":
    main()
