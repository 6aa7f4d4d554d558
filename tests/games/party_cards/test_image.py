"""round_svg: sized for chat previews, wraps long text, and escapes every untrusted text."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from replay.games.party_cards import GAME
from replay.games.party_cards.image import HEIGHT, WIDTH, round_svg
from replay.games.party_cards.replay import RoundError

from .helpers import LOBBY, log_dict, won_dict

SVG = "{http://www.w3.org/2000/svg}"
HOSTILE = "<img src=x onerror=alert(1)> & \"quotes\" 'single' ]]> \x07bell\x1b \u202eRTL 🐐"


def hostile_game():
    data = log_dict(LOBBY + [
        {"type": "round", "czar": "p1", "question": {"id": "q1", "text": "<script>alert(1)</script> ___ &amp;", "pick": 1}},
        {"type": "answer", "seat": "p2", "cards": ["a3"]}, {"type": "answer", "seat": "p3", "cards": ["a5"]},
        {"type": "answer", "seat": "p4", "cards": ["a7"]}, {"type": "reveal", "order": ["p2", "p3", "p4"]},
        {"type": "pick", "seat": "p1", "choice": 1}], game_id="]]><x>")
    data["hands"]["p2"][0]["text"] = HOSTILE
    data["players"]["p2"]["name"] = "<b>Bo</b> & \"co\""
    return GAME.judge(GAME.parse(data))


def texts(svg: str) -> str:
    root = ET.fromstring(svg)
    return " ".join("".join(node.itertext()) for node in root.iter(f"{SVG}text"))


def test_the_svg_parses_and_keeps_hostile_text_as_escaped_text():
    svg = round_svg(hostile_game(), 1)
    root = ET.fromstring(svg)  # parses as XML: nothing broke out
    assert root.tag == f"{SVG}svg" and (root.get("width"), root.get("height")) == (str(WIDTH), str(HEIGHT))
    assert [el.tag for el in root.iter()] == [el.tag for el in root.iter() if el.tag.startswith(SVG)]
    assert not [el for el in root.iter() if el.tag in (f"{SVG}img", f"{SVG}script", f"{SVG}b", f"{SVG}x")]
    assert "&lt;img src=x onerror=alert(1)&gt;" in svg and "&lt;script&gt;" in svg
    assert "&amp;amp;" in svg and "&quot;quotes&quot;" in svg and "]]&gt;" in svg
    assert "<img" not in svg and "<script" not in svg and "]]>" not in svg and "\x07" not in svg
    shown = texts(svg)
    assert "<img src=x onerror=alert(1)>" in shown and "\ufffdbell\ufffd" in shown
    assert "🐐" in shown and "\u202eRTL" in shown
    assert "<b>Bo</b> & \"co\"" in shown and "<script>alert(1)</script>" in shown


def test_the_winning_answer_is_filled_in():
    svg = round_svg(GAME.judge(GAME.parse(won_dict())), 1)
    shown = texts(svg)
    assert "Why can't I sleep at night? Answer 3." in shown and "Winner: Bo" in shown and "Czar: Ann" in shown


def test_long_text_wraps_and_stays_inside():
    data = won_dict()
    data["hands"]["p2"][0]["text"] = ("An extremely long answer " * 60)[:1000]
    svg = round_svg(GAME.judge(GAME.parse(data)), 1)
    root = ET.fromstring(svg)
    lines = [el for el in root.iter(f"{SVG}text") if el.get("font-size") not in ("30",)]
    assert len(lines) > 3
    assert all(float(el.get("y")) < HEIGHT - 90 for el in lines)
    assert "…" in texts(svg)


def test_a_round_without_a_pick_shows_the_blank():
    data = log_dict(LOBBY + [{"type": "round", "czar": "p1", "question": {"id": "q1", "text": "Why? ___", "pick": 1}}])
    shown = texts(round_svg(GAME.judge(GAME.parse(data)), 1))
    assert "Why? ___" in shown and "no pick" in shown


def test_unknown_round():
    with pytest.raises(RoundError):
        round_svg(GAME.judge(GAME.parse(won_dict())), 9)
