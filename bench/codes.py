"""Replay code figures of every registered game: length against the information bound and
the log's JSON, and speed; and damaged codes.

    python bench/codes.py                 # 1,000 seeded self-play games per corpus
    python bench/codes.py --games 200     # quicker
    python bench/codes.py --damage 1000000 [--damage-seconds 600]   # damaged codes of every game with generic codes

For each game with generic codes (``GameModule.code_marker``) and each of its bench corpora
(``GameModule.bench_corpora``: self-play options), measured in the same run: mean length
(version 2, and version 1 as the release before wrote them), p99, the information bound and
the log's JSON (raw and zstd). A game whose codes have a shape of their own
(``GameModule.text_codec``) has its own code bench in ``bench/<its package>/codes.py``.

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

import zstandard

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from replay.codec import decode, encode  # noqa: E402
from replay.codec.generic import encode_game_v1, information_bits, markers  # noqa: E402
from replay.games import get, names  # noqa: E402


def percentile(values: list[int], share: float) -> int:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1_000, help="games per corpus (default 1,000)")
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
    print(f"Python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.2f}")
    generic_games(args.games)
    own = [get(n) for n in names() if get(n).text_codec is not None]
    if own:
        print("codes of their own shape (their own benches): " + ", ".join(
            f"{g.title}: python bench/{type(g).__module__.rsplit('.', 1)[-1]}/codes.py" for g in own))


def generic_games(games: int) -> None:
    """Every game with generic codes: its codes beside their information bound and its compact JSON."""
    print(f"\ngames with generic codes ({games:,} seeded self-play games per corpus): code length beside the "
          "information bound and the log's compact JSON (raw, and zstd -19 without a dictionary)")
    print(f"{'game':<12} {'corpus':<26} {'mean':>7} {'v1':>7} {'p99':>5} {'bound':>7} {'over':>6} {'json':>7} "
          f"{'json.zst':>8} {'code/json':>9} {'enc+dec/s':>9}")
    zstd = zstandard.ZstdCompressor(level=19)
    for name in names():
        game = get(name)
        if game.code_marker is None:
            continue
        for label, options in game.bench_corpora:
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
            if game.setup_codec is not None:
                bounds = [information_bits(log) / 5.954196310386876 for log in logs]
                bound, over = f"{statistics.fmean(bounds):7.2f}", f"{statistics.fmean(a - b for a, b in zip(lengths, bounds)):+6.2f}"
            else:
                bound, over = f"{'—':>7}", f"{'—':>6}"
            print(f"{name:<12} {label:<26} {statistics.fmean(lengths):>7.1f} {v1_mean:>7.1f} {percentile(lengths, 0.99):>5} {bound} {over} "
                  f"{json_mean:>7.0f} {zst_mean:>8.0f} {statistics.fmean(lengths) / json_mean:>9.3f} {rate:>9,.0f}")
    print("(mean: version 2 codes; v1: the same games' version 1 codes, as the release before wrote them; "
          "a game whose code is a payload of its own (GameModule.payload_codec) has no bound of moves: '—')")


def damage_figures(count: int, before: int, seconds: float | None) -> None:
    """Damaged codes of every game with generic codes: how many open a game, version 2 beside 1."""
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
