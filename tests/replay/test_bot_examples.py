"""The Telegram bot examples (docs/examples/ptb_bot.py on python-telegram-bot, aiogram_bot.py on
aiogram 3) build a "View the replay" button whose URL is the game's link, offline: no token, no
network. Their libraries come with the ``bots`` extra, and the ``test`` extra so CI runs this."""

from __future__ import annotations

import importlib.util
import json
import socket
import tomllib

import pytest

from replay.codec import decode, replay_url
from replay.log import parse_log
from tests.conftest import ROOT

EXAMPLES = {"ptb": "ptb_bot.py", "aiogram": "aiogram_bot.py"}
BASE = "https://replays.example.org"


def _no_network(*args, **kwargs):
    raise AssertionError("the example touched the network")


def load(name: str, monkeypatch):
    """Import an example the way `python docs/examples/...` would, with the network cut off."""
    monkeypatch.setattr(socket.socket, "connect", _no_network)
    monkeypatch.setattr(socket, "create_connection", _no_network)
    monkeypatch.setattr(socket, "getaddrinfo", _no_network)
    spec = importlib.util.spec_from_file_location(f"example_{name}_bot", ROOT / "docs" / "examples" / EXAMPLES[name])
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def as_bot_api(markup) -> dict:
    """The reply markup as the Bot API JSON the library would send."""
    if hasattr(markup, "to_dict"):  # python-telegram-bot
        return json.loads(markup.to_json())
    return json.loads(markup.model_dump_json(exclude_none=True))  # aiogram (pydantic)


@pytest.mark.parametrize("name", EXAMPLES)
def test_the_reply_has_a_view_the_replay_button_with_the_games_link(name, monkeypatch, tmp_path):
    import random

    example = load(name, monkeypatch)
    logger = example.play_table("tg-42/7", tmp_path, random.Random(5))
    text, markup = example.game_reply(logger, BASE)

    assert text.startswith("Game over: tg-42/7  bridgebot")
    link = logger.link(BASE)
    assert as_bot_api(markup) == {"inline_keyboard": [[{"text": "View the replay", "url": link}]]}
    assert link.startswith(f"{BASE}/r/")

    # the button opens this very game: the link decodes to the log the bot saved
    [saved] = tmp_path.glob("*.json")
    log = parse_log(saved.read_bytes())
    assert log.replay().findings == [] and log.game_id == "tg-42/7"
    assert all(p.bot == "greedy-1" for p in log.players.values())
    decoded = decode(link)
    assert decoded.hands == log.hands and decoded.first_bidder == log.first_bidder
    def moves(game):
        return [(e.type, e.seat, str(getattr(e, "card", getattr(e, "bid", None))))
                for e in game.events if e.type in ("bid", "partner", "play")]

    assert moves(decoded) == moves(log) != []


def test_the_ptb_bot_answers_play(monkeypatch, tmp_path):
    from telegram.ext import CommandHandler

    example = load("ptb", monkeypatch)
    application = example.build_application("123456:TEST-TOKEN", str(tmp_path), BASE)
    handlers = [h for group in application.handlers.values() for h in group]
    assert [(type(h), sorted(h.commands), h.callback) for h in handlers] == [(CommandHandler, ["play"], example.play)]
    assert application.bot_data == {"log_dir": str(tmp_path), "viewer": BASE}


def test_the_aiogram_bot_answers_play(monkeypatch, tmp_path):
    from aiogram.filters import Command

    example = load("aiogram", monkeypatch)
    dispatcher = example.build_dispatcher(str(tmp_path), BASE)
    handlers = [h for router in dispatcher.sub_routers for h in router.message.handlers]
    assert [h.callback for h in handlers] == [example.play]
    [command] = [f.callback for f in handlers[0].filters]
    assert isinstance(command, Command) and command.commands == ("play",)
    assert dispatcher["log_dir"] == str(tmp_path) and dispatcher["viewer"] == BASE
    example.build_dispatcher(str(tmp_path), BASE)  # a second bot in the same process: a new router


@pytest.mark.parametrize("name", EXAMPLES)
def test_main_without_a_token_or_with_a_bad_viewer_says_so(name, monkeypatch, tmp_path):
    example = load(name, monkeypatch)
    monkeypatch.delenv("TELEGRAM_BOT_TOKEN", raising=False)
    with pytest.raises(SystemExit, match="set TELEGRAM_BOT_TOKEN"):
        example.main([str(tmp_path / "logs")])
    assert not (tmp_path / "logs").exists()  # nothing done
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", "123456:TEST-TOKEN")
    monkeypatch.setenv("REPLAY_VIEWER", "replays.example.org")
    with pytest.raises(SystemExit, match="REPLAY_VIEWER must be an http"):
        example.main([str(tmp_path / "logs")])
    assert not (tmp_path / "logs").exists()


def test_the_bot_libraries_are_an_extra_and_in_the_test_extra():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    names = lambda reqs: {r.split(">")[0].split("[")[0].strip() for r in reqs}
    assert {"python-telegram-bot", "aiogram"} <= names(extras["bots"])
    assert {"python-telegram-bot", "aiogram"} <= names(extras["test"])


# --- the animation the bots post (issue 27) ------------------------------------------------------

CHAT = {"id": 42, "type": "private", "first_name": "Ann"}
SENT = {"message_id": 8, "date": 1_700_000_000, "chat": CHAT}
#: the Bot API's limits for sendAnimation: a file a bot uploads is at most 50 MB, a caption at most
#: 1,024 characters; the animation is a GIF or an H.264 MPEG-4 video without sound
TELEGRAM_UPLOAD_LIMIT = 50 * 1000 * 1000
TELEGRAM_CAPTION_LIMIT = 1024


def check_animation(data: bytes) -> None:
    """An H.264 MP4 with one video stream, no sound, 720x378, that decodes."""
    import io

    import av

    assert len(data) <= TELEGRAM_UPLOAD_LIMIT
    with av.open(io.BytesIO(data)) as container:
        assert container.format.name.startswith("mov,mp4")
        assert not container.streams.audio
        [video] = container.streams.video
        assert video.codec_context.name == "h264"
        assert (video.codec_context.width, video.codec_context.height) == (720, 378)
        assert sum(1 for _ in container.decode(video)) > 10


def run_async(make_coroutine) -> None:
    """Run a coroutine to its end on an event loop of its own, in a thread of its own: earlier
    tests (Playwright's sync API) may leave a loop running in this one, where asyncio.run refuses."""
    import asyncio
    import threading

    failure = []

    def target():
        try:
            asyncio.run(make_coroutine())
        except BaseException as exc:  # handed back to the test below, whatever it is
            failure.append(exc)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join(120)
    assert not thread.is_alive(), "the bot's handler did not finish in 120 s"
    if failure:
        raise failure[0]


def check_caption(caption: str, link: str, summary: str) -> None:
    assert len(caption) <= TELEGRAM_CAPTION_LIMIT
    assert caption == f"Game over: {summary}\n{link}"


def test_the_ptb_bot_sends_the_animation_with_the_link_as_caption(monkeypatch, tmp_path):
    from telegram import Update
    from telegram.ext import CallbackContext
    from telegram.request import BaseRequest

    example = load("ptb", monkeypatch)
    calls = []

    class Recorder(BaseRequest):
        """The HTTP layer python-telegram-bot sends through: records each Bot API call and answers
        as Telegram would, without a network."""

        async def initialize(self):
            pass

        async def shutdown(self):
            pass

        @property
        def read_timeout(self):
            return None

        async def do_request(self, url, method, request_data=None, **timeouts):
            endpoint = url.rsplit("/", 1)[1]
            calls.append((endpoint, request_data))
            result = {"id": 1, "is_bot": True, "first_name": "Replays", "username": "replays_bot"} \
                if endpoint == "getMe" else SENT
            return 200, json.dumps({"ok": True, "result": result}).encode()

    application = (example.Application.builder().token("123456:TEST-TOKEN").request(Recorder())
                   .get_updates_request(Recorder()).build())
    application.bot_data.update(log_dir=str(tmp_path), viewer=BASE)

    async def run():
        await application.initialize()
        update = Update.de_json({"update_id": 1, "message": {**SENT, "message_id": 7, "text": "/play",
                                                             "from": {"id": 9, "is_bot": False, "first_name": "Ann"}}},
                                application.bot)
        await example.play(update, CallbackContext.from_update(update, application))
        await application.shutdown()

    run_async(run)
    [(endpoint, request)] = [c for c in calls if c[0] != "getMe"]
    assert endpoint == "sendAnimation"
    parameters = request.parameters
    assert parameters["chat_id"] == 42
    [saved] = tmp_path.glob("*.json")
    log = parse_log(saved.read_bytes())
    markup = json.loads(parameters["reply_markup"]) if isinstance(parameters["reply_markup"], str) \
        else parameters["reply_markup"]
    [[button]] = markup["inline_keyboard"]
    assert button == {"text": "View the replay", "url": replay_url(log.replay(), BASE, names=True)}
    check_caption(parameters["caption"], button["url"], log.replay().summary_line())
    files = request.multipart_data
    [(filename, data, media_type)] = files.values()
    assert (filename, media_type) == ("replay.mp4", "video/mp4")
    check_animation(data)


def test_the_aiogram_bot_sends_the_animation_with_the_link_as_caption(monkeypatch, tmp_path):
    from aiogram import Bot
    from aiogram.client.session.base import BaseSession
    from aiogram.methods import SendAnimation
    from aiogram.types import BufferedInputFile, Message

    example = load("aiogram", monkeypatch)
    calls = []

    class Recorder(BaseSession):
        """The session aiogram sends through: records each Bot API method and answers as Telegram
        would, without a network."""

        async def make_request(self, bot, method, timeout=None):
            calls.append(method)
            return Message.model_validate(SENT, context={"bot": bot})

        async def stream_content(self, *args, **kwargs):  # pragma: no cover (never downloads)
            raise AssertionError("the example downloaded a file")

        async def close(self):
            pass

    async def run():
        bot = Bot("123456:TEST-TOKEN", session=Recorder())
        message = Message.model_validate({**SENT, "message_id": 7, "text": "/play"}, context={"bot": bot})
        await example.play(message, str(tmp_path), BASE)

    run_async(run)
    [method] = calls
    assert isinstance(method, SendAnimation) and method.chat_id == 42
    [saved] = tmp_path.glob("*.json")
    log = parse_log(saved.read_bytes())
    [[button]] = method.reply_markup.inline_keyboard
    assert (button.text, button.url) == ("View the replay", replay_url(log.replay(), BASE, names=True))
    check_caption(method.caption, button.url, log.replay().summary_line())
    assert isinstance(method.animation, BufferedInputFile) and method.animation.filename == "replay.mp4"
    import mimetypes
    assert mimetypes.guess_type(method.animation.filename)[0] == "video/mp4"  # what aiohttp sends it as
    check_animation(method.animation.data)
    assert (method.width, method.height) == (720, 378)


@pytest.mark.parametrize("name", EXAMPLES)
def test_a_long_result_is_cut_and_the_link_always_goes_whole(name, monkeypatch, tmp_path):
    import random

    example = load(name, monkeypatch)
    logger = example.play_table("tg-42/8", tmp_path, random.Random(6))
    real = example.game_reply
    monkeypatch.setattr(example, "game_reply", lambda lg, base: ("Game over: " + "🂡 spades " * 300, real(lg, base)[1]))
    caption, _, animation = example.game_post(logger, BASE)
    link = logger.link(BASE)
    assert caption.endswith("\n" + link) and caption.startswith("Game over: 🂡")
    assert len(caption.encode("utf-16-le")) // 2 <= TELEGRAM_CAPTION_LIMIT  # as Telegram counts
    assert len(caption.encode("utf-16-le")) // 2 > TELEGRAM_CAPTION_LIMIT - 10  # cut, not emptied
    assert animation is not None
