"""parse_card reads every spelling the spec lists and refuses everything else."""

from __future__ import annotations

import pytest

from replay.errors import ReplayError
from replay.games.uno_lite.cards import (
    CARD_TEXT, CardParseError, DECK_SIZE, KINDS, card_emoji, card_text, full_deck, parse_card, playable, to_card,
)


@pytest.mark.parametrize("text", [
    "R5", "r5", "5R", "5r", "red 5", "Red5", "RED 5", "5 red", " R5 ", "R 5",
    "🔴5", "🔴 5", "🔴5️⃣", "🔴 5️⃣", "🔴 5\u20e3",
])
def test_every_spelling_of_red_five(text):
    assert card_text(parse_card(text)) == "R5"


@pytest.mark.parametrize("text, expected", [
    ("G9", "G9"), ("b1", "B1"), ("2y", "Y2"), ("green 3", "G3"), ("Blue7", "B7"), ("yellow 9", "Y9"),
    ("🟢1", "G1"), ("🔵 9️⃣", "B9"), ("🟡4", "Y4"),
])
def test_other_colours(text, expected):
    assert card_text(parse_card(text)) == expected


@pytest.mark.parametrize("text", [
    "R0", "R10", "X5", "5", "R", "", "  ", "RR5", "R55", "purple 5", "5️⃣🔴", "🔴", "🔴0", "⚫5",
    "R5 G7", "reds 5", "R-5", "R5!", "S5", "♥5",
])
def test_refusals(text):
    with pytest.raises(CardParseError) as info:
        parse_card(text)
    assert str(info.value) == f"{text!r} is not a card"
    assert isinstance(info.value, ReplayError) and isinstance(info.value, ValueError)


@pytest.mark.parametrize("value", [5, None, 5.0, ["R5"], True])
def test_non_text_is_refused(value):
    with pytest.raises(CardParseError, match="is not a card"):
        parse_card(value)


def test_card_values_and_canonical_text_round_trip():
    assert [parse_card(t) for t in CARD_TEXT] == list(range(KINDS))
    assert [parse_card(card_emoji(k)) for k in range(KINDS)] == list(range(KINDS))
    assert parse_card("R1") == 0 and parse_card("Y9") == 35 and parse_card("G1") == 9


def test_to_card_takes_values_and_refuses_out_of_range():
    assert to_card(35) == 35 and to_card("y9") == 35
    with pytest.raises(CardParseError, match="36 is not a card value"):
        to_card(36)
    with pytest.raises(CardParseError):
        to_card(True)


def test_deck_has_two_of_each():
    deck = full_deck()
    assert len(deck) == DECK_SIZE == 72
    assert all(deck.count(k) == 2 for k in range(KINDS))


def test_playable_matches_colour_or_number():
    r5 = parse_card("R5")
    assert playable(parse_card("R9"), r5)  # colour
    assert playable(parse_card("B5"), r5)  # number
    assert playable(r5, r5)
    assert not playable(parse_card("B4"), r5)
