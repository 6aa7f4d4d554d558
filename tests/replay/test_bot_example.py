"""The README's bot example runs, saves its log and posts a link that decodes to the same game."""

import importlib.util

from replay.codec import decode
from replay.log import parse_log
from tests.conftest import ROOT


def test_example_bot_posts_a_link_to_its_own_game(tmp_path, capsys):
    spec = importlib.util.spec_from_file_location("example_bot", ROOT / "docs" / "examples" / "telegram_style_bot.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    link = module.run_game(str(tmp_path))
    posted = capsys.readouterr().out
    assert f"View the replay: {link}" in posted
    assert link.startswith("https://replay.example.org/r/")
    [saved] = list(tmp_path.glob("*.json"))
    log = parse_log(saved.read_bytes())
    decoded = decode(link)
    assert decoded.hands == log.hands and decoded.first_bidder == log.first_bidder
    moves = lambda l: [(e.type, getattr(e, "seat", None), str(getattr(e, "card", getattr(e, "bid", "")))) for e in l.events
                       if e.type in ("bid", "partner", "play")]
    assert moves(decoded) == moves(log)
    assert decoded.players[log.first_bidder.__class__.S].name == "Chen Wei"  # names travel in the link
    assert log.replay().findings == []
