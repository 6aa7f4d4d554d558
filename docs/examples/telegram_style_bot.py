"""A chat bot's game loop, logging with GameLogger and posting a "View the replay" link.

Run it:  python docs/examples/telegram_style_bot.py [LOG_DIR]

The "chat" here is print(); the players are the bundled greedy bots. A real bot calls the same
GameLogger methods from its handlers, at the moment each thing happens in the chat.
"""

from __future__ import annotations

import random
import sys

from replay import GameLogger
from replay.games.floating_bridge.engine import Game
from replay.games.floating_bridge.bots import GreedyBot

VIEWER = "https://replay.example.org"


def send(text: str) -> None:  # stands in for bot.send_message(chat_id, text)
    print(text)


def run_game(log_dir: str, seed: int = 2026) -> str:
    rng = random.Random(seed)
    game = Game.new_random(rng=rng)  # the bot's own table state; redeals washed hands
    players = {"N": "Alice", "E": "Bob", "S": "Chen Wei", "W": {"name": "greedy", "bot": "greedy-1"}}
    bots = [GreedyBot(rng) for _ in range(4)]

    logger = GameLogger(game_id=f"chat-42/{seed}", rules="bridgebot", players=players, out_dir=log_dir)
    logger.deal(game.deal, first_bidder=game.first_bidder)

    while not game.is_over:
        seat = game.to_act
        if game.phase == "auction":
            call = bots[seat].call(game, seat)
            game.push_call(seat, call)
            logger.bid(seat, call)
        elif game.phase == "partner":
            card = bots[seat].partner_card(game, seat)
            game.push_partner(seat, card)
            logger.partner(seat, card)
        else:
            card = bots[seat].card(game, seat)
            game.push_play(seat, card)
            logger.play(seat, card)
            if not game.trick:  # the trick is complete: the bot announces its winner
                send(f"{game.trick_winners[-1].full_name} wins trick {len(game.trick_winners)}")
                logger.trick(game.trick_winners[-1])

    replay = logger.end("passed_out" if game.passed_out else "completed")
    send(f"Game over: {replay.summary_line()}")
    link = logger.link(VIEWER)
    send(f"View the replay: {link}")
    send(f"(log saved to {logger.path})")
    return link


if __name__ == "__main__":
    run_game(sys.argv[1] if len(sys.argv) > 1 else "logs")
