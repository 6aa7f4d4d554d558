"""Replay code figures: length against the information bound and the legacy code, and speed.

    python bench/codes.py                 # 10,000 random-legal + 10,000 greedy games
    python bench/codes.py --games 2000    # quicker
    python bench/codes.py --against 42bbf35 [--games 2000] [--rounds 5]   # beside that commit
    python bench/codes.py --damage 1000000 [--damage-seconds 600]   # damaged codes of the other games

For each corpus (seeded self-play games, bridgebot rules, as ``play_game(seed, bot)`` makes
them: completed and passed-out games) it prints, measured in the same run:
- the code length: mean, p99 and max, in characters;
- the information bound: the sum of log2 of each choice's option count (deal, first bidder,
  every call, partner card, every card), in base-62 characters, and the mean distance to it;
- the original BridgeBot code's length for the same games (57 + one letter per written call;
  games with a contract) and the mean ratio of the new length to it;
- encode and decode speed in games/s on one core: ``encode(GameLog)`` (which judges the game
  to pick the compact or the fallback form) and ``decode(code)`` (back to a ``GameLog``).
With ``--against REV``: floating bridge's codes of the same games beside the code of commit
``REV`` (``bench/against.py``: both in worker processes, rounds taken in turn, medians and
new/old ratios): each game's code length, how many codes are identical, encode and decode speed.
Then the longest code among adversarial games (long auctions, each hand a whole suit, NT,
all 13 tricks, some cancelled in the last trick). Then every other game's codes (UNO Lite, Coup,
party cards): mean length (version 2, and version 1 as the release before wrote them), p99, the
information bound and the log's JSON.

With ``--damage N``: for each game with generic codes, N damaged codes of its version 2 codes
(and ``--damage-before M``, default 20,000, of its version 1 codes, which are still read), made
by ``tests/codec/damage.py``: substitutions, deletions, insertions and truncations, equally
likely, anywhere (the first character too), from a fixed seed; how many open a game (decode
without ``CodeError``), the rate, and the mean length of the codes damaged. ``--damage-seconds``
stops a game's run after that many seconds and reports how many were tried.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from replay.games.floating_bridge.bots import play_game  # noqa: E402
from replay.codec import decode, encode  # noqa: E402
from replay.games.floating_bridge.codec.measure import information_characters, legacy_length  # noqa: E402


def percentile(values: list[int], share: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def best_time(func, repeats: int = 3) -> float:
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        func()
        best = min(best, time.perf_counter() - start)
    return best


def corpus_figures(bot: str, games: int) -> dict:
    logs = [play_game(seed, bot) for seed in range(games)]
    codes = [encode(log) for log in logs]
    lengths = [len(c) for c in codes]
    bounds = [information_characters(log) for log in logs]
    legacy = [(len(c), legacy_length(log)) for c, log in zip(codes, logs) if legacy_length(log)]
    encode_time = best_time(lambda: [encode(log) for log in logs])
    decode_time = best_time(lambda: [decode(code) for code in codes])
    return {
        "bot": bot, "games": games,
        "mean": statistics.fmean(lengths), "p99": percentile(lengths, 0.99), "max": max(lengths),
        "bound": statistics.fmean(bounds),
        "over": statistics.fmean(a - b for a, b in zip(lengths, bounds)),
        "legacy": statistics.fmean(b for _, b in legacy),
        "ratio": statistics.fmean(a / b for a, b in legacy),
        "encode": games / encode_time, "decode": games / decode_time,
        "both": games / (encode_time + decode_time),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=10_000, help="games per corpus (default 10,000)")
    parser.add_argument("--against", metavar="REV",
                        help="floating bridge only, side by side with commit REV's code (e.g. 42bbf35)")
    parser.add_argument("--rounds", type=int, default=5, help="rounds per side with --against (default 5)")
    parser.add_argument("--damage", type=int, metavar="N",
                        help="only the damaged-code figures: N damaged version 2 codes per game")
    parser.add_argument("--damage-before", type=int, default=20_000, metavar="M",
                        help="with --damage: M damaged version 1 codes per game (default 20,000)")
    parser.add_argument("--damage-seconds", type=float, metavar="S",
                        help="with --damage: stop each game's run after S seconds (the count tried is reported)")
    args = parser.parse_args()
    if args.damage is not None:
        damage_figures(args.damage, args.damage_before, args.damage_seconds)
        return
    if args.against:
        from against import print_codes

        print_codes(args.against, args.games, args.rounds)
        return
    try:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
        pinned = "pinned to one core"
    except (AttributeError, OSError):
        pinned = "not pinned"
    print(f"{args.games:,} seeded games per corpus, bridgebot rules, {pinned}, Python {sys.version.split()[0]}, "
          f"load average {os.getloadavg()[0]:.2f}")
    header = (f"{'corpus':<8} {'mean':>6} {'p99':>4} {'max':>4} {'bound':>6} {'over':>5} "
              f"{'legacy':>7} {'ratio':>6} {'encode/s':>9} {'decode/s':>9} {'enc+dec/s':>9}")
    print(header)
    rows = [corpus_figures(bot, args.games) for bot in ("random", "greedy")]
    for r in rows:
        print(f"{r['bot']:<8} {r['mean']:>6.2f} {r['p99']:>4} {r['max']:>4} {r['bound']:>6.2f} {r['over']:>+5.2f} "
              f"{r['legacy']:>7.2f} {r['ratio']:>6.3f} {r['encode']:>9,.0f} {r['decode']:>9,.0f} {r['both']:>9,.0f}")
    print("(lengths in characters; bound = information bound in base-62 characters; over = mean code "
          "length minus bound; legacy = original BridgeBot code, ratio = mean new/legacy)")
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))
    try:
        from codec.games import adversarial_games  # type: ignore[import-not-found]
    except ImportError:
        adversarial_games = None
    if adversarial_games is not None:
        games = adversarial_games(240)
        lengths = [len(encode(log)) for log in games]
        print(f"adversarial games (long auctions, a whole suit per hand, NT, all tricks): "
              f"max {max(lengths)}, mean {statistics.fmean(lengths):.1f} characters (limit 57)")
    ok = all(r["mean"] <= 38 and r["over"] <= 3 and r["ratio"] <= 0.65 and r["both"] >= 2000 for r in rows)
    print("targets (mean <= 38, over <= 3, ratio <= 0.65, encode+decode >= 2,000 games/s): "
          + ("all met" if ok else "NOT all met"))
    other_games(max(200, args.games // 10))


def other_games(games: int) -> None:
    """Every other registered game's codes beside its information bound and its compact JSON."""
    import zstandard

    from replay.codec import decode
    from replay.codec.generic import encode_game_v1, information_bits
    from replay.games import get, names

    print(f"\nother games ({games:,} seeded self-play games per corpus): code length beside the "
          "information bound and the log's compact JSON (raw, and zstd -19 without a dictionary)")
    print(f"{'game':<12} {'corpus':<26} {'mean':>7} {'v1':>7} {'p99':>5} {'bound':>7} {'over':>6} {'json':>7} "
          f"{'json.zst':>8} {'code/json':>9} {'enc+dec/s':>9}")
    corpora = {
        "uno-lite": [("random v random", {"bots": ("random", "random")}),
                     ("greedy v greedy", {"bots": ("greedy", "greedy")})],
        "coup": [(f"{n} seats, 3 bots", {"bots": ("honest", "bluffer", "random"), "players": n}) for n in (2, 3, 5)],
        "party-cards": [(f"{r} rounds", {"bots": ("random",), "rounds": r, "score_limit": r + 1}) for r in (5, 10)],
    }
    zstd = zstandard.ZstdCompressor(level=19)
    for name in names():
        if name not in corpora:
            continue
        game = get(name)
        for label, options in corpora[name]:
            logs = [game.selfplay(seed, **options) for seed in range(games)]
            start = time.perf_counter()
            codes = [encode(log) for log in logs]
            for code in codes:
                decode(code)
            rate = games / (time.perf_counter() - start)
            lengths = [len(c) for c in codes]
            v1_mean = statistics.fmean(len(encode_game_v1(log)) for log in logs)
            texts = [log.canonical_json().encode() for log in logs]
            json_mean = statistics.fmean(len(t) for t in texts)
            zst_mean = statistics.fmean(len(zstd.compress(t)) for t in texts)
            if getattr(game, "setup_codec", None) is not None:
                bounds = [information_bits(log) / 5.954196310386876 for log in logs]
                bound, over = f"{statistics.fmean(bounds):7.2f}", f"{statistics.fmean(a - b for a, b in zip(lengths, bounds)):+6.2f}"
            else:
                bound, over = f"{'—':>7}", f"{'—':>6}"
            print(f"{name:<12} {label:<26} {statistics.fmean(lengths):>7.1f} {v1_mean:>7.1f} {percentile(lengths, 0.99):>5} {bound} {over} "
                  f"{json_mean:>7.0f} {zst_mean:>8.0f} {statistics.fmean(lengths) / json_mean:>9.3f} {rate:>9,.0f}")
    print("(mean: version 2 codes; v1: the same games' version 1 codes, as the release before wrote them. Party "
          "cards carry their free-text cards: their code is their own payload compressed with a "
          "dictionary shipped with the format, so the bound of moves alone does not apply)")


def damage_figures(count: int, before: int, seconds: float | None) -> None:
    """Damaged codes of every game with generic codes: how many open a game, version 2 beside 1."""
    from replay.codec.generic import encode_game_v1, markers

    sys.path.append(os.path.join(os.path.dirname(__file__), "..", "tests"))
    from codec.damage import corpus_logs, damaged_codes, opened, with_findings  # type: ignore[import-not-found]

    games = sorted({game for game, version, _ in markers().values() if version == 2})
    print(f"damaged codes: substitutions, deletions, insertions and truncations, equally likely, anywhere "
          f"(seed 24); codes of 100 seeded self-play games per corpus of tests/codec/damage.py and of a game "
          f"with findings for every tenth; Python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.2f}")
    print(f"{'game':<12} {'version':>7} {'codes':>6} {'mean len':>8} {'damaged':>10} {'opened':>7} {'rate':>10} "
          f"{'seconds':>8}")
    for name in games:
        logs = corpus_logs(name, 100)
        logs += [with_findings(log) for log in logs[::10]]
        for version, writer, n in (("1", encode_game_v1, before), ("2", encode, count)):
            codes = [writer(log) for log in logs]
            start = time.perf_counter()
            tried = hits = 0
            examples = []
            for _, _, text in damaged_codes(codes, n, seed=24):
                tried += 1
                if opened(decode, text):
                    hits += 1
                    if len(examples) < 2:
                        examples.append(text)
                if seconds is not None and tried % 1000 == 0 and time.perf_counter() - start > seconds:
                    break
            took = time.perf_counter() - start
            print(f"{name:<12} {version:>7} {len(codes):>6} {statistics.fmean(map(len, codes)):>8.2f} {tried:>10,} "
                  f"{hits:>7,} {hits / tried:>10.2e} {took:>8.0f}" + (f"  e.g. {', '.join(examples)}" if examples else ""),
                  flush=True)
    print("(opened: the damaged text decodes to a game; rate = opened / damaged; target for version 2: at most "
          "1e-05 over 1,000,000 per game)")


if __name__ == "__main__":
    main()
