"""A Telegram bot on python-telegram-bot (v21+) that answers each game with a "View the replay" button.

    pip install 'game-replay[bots]'
    TELEGRAM_BOT_TOKEN=123456:ABC... REPLAY_VIEWER=https://replays.example.org \\
        python docs/examples/ptb_bot.py [LOG_DIR]

In a chat with the bot, /play deals a hand and lets four bundled greedy bots play it out at once,
logging every call and card with GameLogger into LOG_DIR (default ``logs``); the answer is the
result and an inline keyboard button whose URL is the game's link (``GameLogger.link``). A real
game bot calls the same GameLogger methods from its handlers, as each bid and card happens in the
chat, and sends the same button when the game ends.

REPLAY_VIEWER is the address of your viewer (``game-replay serve``, docs/deploy.md); Telegram
refuses buttons that point at localhost, so use a public address. Importing this file does
nothing on the network: ``main()`` builds the bot and runs it.
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
from pathlib import Path

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, InputFile, Update
from telegram.ext import Application, CommandHandler, ContextTypes

from replay import GameLogger
from replay.games.floating_bridge.engine import Game
from replay.games.floating_bridge.bots import GreedyBot

DEFAULT_VIEWER = "https://replay.example.org"
BUTTON_TEXT = "View the replay"
#: what the Bot API takes in sendAnimation: a file a bot uploads may be up to 50 MB, a caption
#: up to 1,024 characters; the chat plays an H.264 MP4 without sound as a GIF
MAX_ANIMATION_BYTES = 50 * 1000 * 1000
MAX_CAPTION = 1024
ANIMATION_NAME = "replay.mp4"


def viewer_base() -> str:
    """The viewer's address, from REPLAY_VIEWER: an http(s) URL, or a clear error."""
    base = os.environ.get("REPLAY_VIEWER", DEFAULT_VIEWER).strip().rstrip("/")
    if not base.startswith(("https://", "http://")) or not base.split("/", 3)[2]:
        raise SystemExit(f"REPLAY_VIEWER must be an http(s) address such as {DEFAULT_VIEWER}, not {base!r}")
    return base


def play_table(game_id: str, log_dir: str | os.PathLike[str], rng: random.Random) -> GameLogger:
    """Deal, let four greedy bots play, log it all with GameLogger; returns the ended logger."""
    game = Game.new_random(rng=rng)
    bots = [GreedyBot(rng) for _ in range(4)]
    players = {seat: {"name": f"greedy-{seat}", "bot": "greedy-1"} for seat in "NESW"}
    logger = GameLogger(game_id=game_id, rules="bridgebot", players=players, out_dir=log_dir)
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
            if not game.trick:
                logger.trick(game.trick_winners[-1])
    logger.end("passed_out" if game.passed_out else "completed")
    return logger


def replay_keyboard(link: str) -> InlineKeyboardMarkup:
    """One row, one button: it opens the replay in the browser."""
    return InlineKeyboardMarkup([[InlineKeyboardButton(BUTTON_TEXT, url=link)]])


def game_reply(logger: GameLogger, base: str) -> tuple[str, InlineKeyboardMarkup]:
    """The text and the keyboard the bot sends when a game ends (plain text: no markup to escape)."""
    return f"Game over: {logger.replay.summary_line()}", replay_keyboard(logger.link(base))


def telegram_length(text: str) -> int:
    """A text's length as Telegram counts it: in UTF-16 code units (an emoji counts two)."""
    return len(text.encode("utf-16-le")) // 2


def game_post(logger: GameLogger, base: str) -> tuple[str, InlineKeyboardMarkup, bytes | None]:
    """What the bot posts when a game ends: the caption (the result, cut to fit Telegram's 1,024
    characters, and the replay's link, whole), the "View the replay" button, and the game's animation (an
    H.264 MP4 of every step, 720x378; ``None`` if it is over Telegram's 50 MB, never for a
    game of cards: a whole bridge game is about 100 KB)."""
    text, keyboard = game_reply(logger, base)
    link = logger.link(base)
    room = MAX_CAPTION - telegram_length(link) - 1  # the link always goes whole; the result is cut
    while telegram_length(text) > room:
        text = text[:-2] + "…"
    caption = f"{text}\n{link}"
    animation = logger.animation(format="mp4")
    return caption, keyboard, animation if len(animation) <= MAX_ANIMATION_BYTES else None


async def play(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    message = update.effective_message
    game_id = f"tg-{message.chat_id}/{message.message_id}"
    logger = play_table(game_id, context.bot_data["log_dir"], random.Random())
    # drawn in a thread: the MP4 takes most of a second, and the bot keeps answering meanwhile
    caption, keyboard, animation = await asyncio.to_thread(game_post, logger, context.bot_data["viewer"])
    if animation is None:
        await message.reply_text(caption, reply_markup=keyboard)
        return
    await message.reply_animation(InputFile(animation, filename=ANIMATION_NAME), caption=caption,
                                  reply_markup=keyboard, width=720, height=378)


def build_application(token: str, log_dir: str, viewer: str) -> Application:
    """The bot, ready to run (building it does not touch the network)."""
    application = Application.builder().token(token).build()
    application.bot_data.update(log_dir=log_dir, viewer=viewer)
    application.add_handler(CommandHandler("play", play))
    return application


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    token = os.environ.get("TELEGRAM_BOT_TOKEN", "").strip()
    if not token:
        raise SystemExit("set TELEGRAM_BOT_TOKEN to the token @BotFather gave your bot")
    viewer = viewer_base()
    log_dir = argv[0] if argv else "logs"
    Path(log_dir).mkdir(parents=True, exist_ok=True)
    build_application(token, log_dir, viewer).run_polling()


if __name__ == "__main__":
    main()
