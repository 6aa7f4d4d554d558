"""Damaged replay codes, as chat apps and people damage them: a character changed, lost or
added, the code cut short, the first character changed. Shared by ``test_damage.py`` and
``bench/codes.py --damage``.

>>> import random
>>> rng = random.Random(1)
>>> kind, text = damage("e0123456789abc", rng)
>>> kind in KINDS and text != "e0123456789abc"
True
"""

from __future__ import annotations

import random
from typing import Callable, Iterator

from replay.codec.intcode import ALPHABET

KINDS = ("substitution", "deletion", "insertion", "truncation")


def damage(code: str, rng: random.Random) -> tuple[str, str]:
    """One random damage of a code (each kind equally likely; any place, the first character
    too): (kind, damaged text). The text always differs from the code."""
    kind = KINDS[rng.randrange(len(KINDS))]
    n = len(code)
    if kind == "substitution":
        place = rng.randrange(n)
        other = ALPHABET.replace(code[place], "")
        return kind, code[:place] + other[rng.randrange(len(other))] + code[place + 1:]
    if kind == "deletion":
        place = rng.randrange(n)
        return kind, code[:place] + code[place + 1:]
    if kind == "insertion":
        place = rng.randrange(n + 1)
        return kind, code[:place] + ALPHABET[rng.randrange(len(ALPHABET))] + code[place:]
    return kind, code[:rng.randrange(1, n)]


def damaged_codes(codes: list[str], count: int, seed: int) -> Iterator[tuple[str, str, str]]:
    """``count`` damaged codes (kind, original, damaged), the originals taken in turn, the
    damage drawn from ``random.Random(seed)``: the same sample every time."""
    rng = random.Random(seed)
    for i in range(count):
        code = codes[i % len(codes)]
        kind, text = damage(code, rng)
        yield kind, code, text


def marker_changes(code: str) -> list[str]:
    """The code with its first character changed to every other code character."""
    return [ch + code[1:] for ch in ALPHABET if ch != code[0]]


def opened(decode: Callable[[str], object], text: str) -> bool:
    """Whether a text opens a game (``decode`` returns one) rather than being refused with
    ``CodeError``; any other exception propagates (a decoder bug is not a refusal)."""
    from replay.codec import CodeError

    try:
        decode(text)
    except CodeError:
        return False
    return True


#: Seeded self-play corpora of the games with generic codes (what ``bench/codes.py`` measures).
CORPORA: dict[str, list[tuple[str, dict]]] = {
    "uno-lite": [("random v random", {"bots": ("random", "random")}),
                 ("greedy v greedy", {"bots": ("greedy", "greedy")})],
    "coup": [(f"{n} seats, 3 bots", {"bots": ("honest", "bluffer", "random"), "players": n}) for n in (2, 3, 5)],
    "party-cards": [(f"{r} rounds", {"bots": ("random",), "rounds": r, "score_limit": r + 1}) for r in (5, 10)],
}


def corpus_logs(name: str, per_corpus: int, first_seed: int = 0) -> list:
    """``per_corpus`` seeded self-play games of each of a game's corpora, in turn."""
    from replay.games import get

    game = get(name)
    return [game.selfplay(seed, **options) for _, options in CORPORA[name]
            for seed in range(first_seed, first_seed + per_corpus)]


def with_findings(log):
    """The game with its last move repeated after its end: a game with findings (a raw code)."""
    from replay.log import parse_log

    data = log.to_json_dict()
    moves = [e for e in data["events"] if e.get("type") != "chat"]
    again = dict(moves[-1])
    if "t" in data.get("end", {}):
        again["t"] = data["end"]["t"] + 1000
    data["events"].append(again)
    return parse_log(data)
