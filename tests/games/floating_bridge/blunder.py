"""A floating-bridge game with a known blunder, built for the analysis tests.

The deal, the auction and the first 9 tricks come from a seeded self-play game (all-tricks
rules, so every card is played); the last four tricks are then played by the solver's best
cards, except that the first defender who holds a cashing ace (the only card that keeps the
count) and a smaller card of its suit ducks: plays the small card, which costs the defenders
a trick. Seed 51 gives East ducking ♥A with ♥7 (and its analysis is quick to solve).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

SEED = 51
#: the solver plays from this card on (the 10th trick)
FROM_CARD = 36


@dataclass
class Blunder:
    data: dict[str, Any]  # the log, ready to save or ingest
    step: int  # the blunder's step in the replay (step 0 is the deal)
    seat: str
    card: str  # the duck
    ace: str  # the card that held the count

    def bytes(self) -> bytes:
        return json.dumps(self.data, ensure_ascii=False).encode("utf-8")


def blunder_game(seed: int = SEED) -> Blunder:
    from replay.games.floating_bridge.bots import play_game
    from replay.games.floating_bridge.engine import PLAY, Game
    from replay.games.floating_bridge.solver import Position, card_values
    from replay.games.floating_bridge.log import PlayEvent

    log = play_game(seed, rules="all-tricks")
    game = Game(log.hands.by_seat(), log.first_bidder, log.rules)
    game.check_deal()
    events: list[dict[str, Any]] = []
    plays = 0
    for event in log.events:
        if event.type == "play" and plays == FROM_CARD:
            break
        if event.type not in ("bid", "partner", "play"):
            continue  # announced trick winners and chat are optional
        game.push(event)
        plays += event.type == "play"
        events.append({k: v for k, v in json.loads(event.model_dump_json(exclude_none=True)).items() if k != "t"})
    assert plays == FROM_CARD and game.phase == PLAY, "the seeded game must reach its 10th trick"
    found = None
    while game.phase == PLAY:
        position = Position.from_game(game)
        values = card_values(position)
        seat = game.to_act
        declarer_side = int(seat) in position.declarer_side
        best = (max if declarer_side else min)(values.values())
        choice = min(c for c, v in values.items() if v == best)
        if found is None and not declarer_side:
            aces = [c for c, v in values.items() if v == best and str(c)[1] == "A"]
            ducks = sorted(c for c, v in values.items() if v > best and aces and str(c)[0] == str(aces[0])[0])
            if ducks:
                choice = ducks[0]
                found = (len(events) + 1, seat.name, str(choice), str(aces[0]))
        game.push(PlayEvent.model_construct(type="play", seat=seat, card=choice))
        events.append({"type": "play", "seat": seat.name, "card": str(choice)})
    assert found is not None, f"seed {seed}: no defender could duck a cashing ace in the last four tricks"
    data = json.loads(log.canonical_json())
    data["events"] = events
    data["game_id"] = f"blunder-{seed}"
    step, seat, card, ace = found
    return Blunder(data=data, step=step, seat=seat, card=card, ace=ace)
