import pytest

from replay.games.floating_bridge.cards import Call, CallParseError, Card, CardParseError, Seat, hand_points, sort_hand
from replay.games.floating_bridge.rules import Rules, RulesError, legal_calls, legal_cards_mask, targets, trick_winner_index
from replay.games.floating_bridge.cards import mask_of, cards_of


@pytest.mark.parametrize("text", ["SA", "sa", "As", "AS", "♠A", "♠️A", "A♠", "a♠️", " SA "])
def test_ace_of_spades_in_every_spelling(text):
    assert Card.parse(text) == Card.parse("SA") == 51
    assert str(Card.parse(text)) == "SA"


@pytest.mark.parametrize("text,canonical", [("10h", "HT"), ("H10", "HT"), ("♥10", "HT"), ("10♥️", "HT"),
                                            ("c2", "C2"), ("♦Q", "DQ"), ("kd", "DK"), ("TD", "DT")])
def test_tens_and_other_forms(text, canonical):
    assert str(Card.parse(text)) == canonical


@pytest.mark.parametrize("bad", ["S1O", "", "S", "X5", "S11", "1S", "♠", None, 52, "SAA"])
def test_not_cards(bad):
    with pytest.raises(CardParseError, match="is not a card"):
        Card.parse(bad)


def test_card_values_match_the_legacy_order():
    assert Card.parse("C2") == 0 and Card.parse("CA") == 12 and Card.parse("D2") == 13
    assert Card.parse("H2") == 26 and Card.parse("S2") == 39
    assert Card.parse("HT").symbol == "♥10" and Card.parse("HT").rank == 10


@pytest.mark.parametrize("text,canonical", [("pass", "pass"), ("P", "pass"), ("Pass", "pass"), ("1s", "1S"),
                                            ("1♠", "1S"), ("2nt", "2NT"), ("2N", "2NT"), ("3 NT", "3NT"),
                                            ("7NT", "7NT"), ("6♦️", "6D")])
def test_calls(text, canonical):
    assert str(Call.parse(text)) == canonical


@pytest.mark.parametrize("bad", ["8C", "0S", "1X", "NT", "", "double"])
def test_not_calls(bad):
    with pytest.raises(CallParseError, match="is not a call"):
        Call.parse(bad)


def test_call_order_is_level_then_strain():
    order = [str(c) for c in legal_calls(None)[1:]]
    assert order[:6] == ["1C", "1D", "1H", "1S", "1NT", "2C"] and order[-1] == "7NT" and len(order) == 35
    assert [str(c) for c in legal_calls(Call.parse("7S"))] == ["pass", "7NT"]


def test_seat_parse_and_order():
    assert [Seat.parse(x) for x in ("n", "East", 3, "P4")] == [Seat.N, Seat.E, Seat.S, Seat.W]
    assert Seat.W.next == Seat.N


def test_hand_points_counts_length_beyond_four():
    hand = [Card.parse(c) for c in "SA SK SQ SJ S9 S8 H2 H3 D2 D3 C2 C3 C4".split()]
    assert hand_points(hand) == 4 + 3 + 2 + 1 + 2
    assert [str(c) for c in sort_hand([Card.parse("C2"), Card.parse("SA"), Card.parse("HK")])] == ["SA", "HK", "C2"]


def test_rules_presets_and_overrides():
    assert Rules.from_spec(None).name == "bridgebot"
    r = Rules.from_spec({"preset": "bridgebot", "trump_in_first_trick": False})
    assert r.name == "bridgebot-trump_in_first_trick" and r.to_spec() == {"preset": "bridgebot", "trump_in_first_trick": False}
    assert Rules.from_spec("all-tricks").play_all_tricks is True
    with pytest.raises(RulesError, match="unknown rules preset 'rubber'"):
        Rules.from_spec("rubber")
    with pytest.raises(RulesError, match="unknown rules flag 'dummy'"):
        Rules.from_spec({"dummy": True})
    with pytest.raises(RulesError, match="must be bool"):
        Rules.from_spec({"self_partner": "yes"})


def test_targets_sum_to_fourteen():
    for level in range(1, 8):
        need, need_def = targets(Call.bid(level, 0))
        assert need == 6 + level and need_def == 8 - level


def test_legal_cards_follow_suit_and_trump_rules():
    hand = mask_of(Card.parse(c) for c in ["SA", "S2", "H5", "D7"])
    rules = Rules()
    follow = cards_of(legal_cards_mask(hand, led_suit=3, trump=2, trump_broken=False, first_trick=False, rules=rules))
    assert [str(c) for c in follow] == ["S2", "SA"]
    # leading: trumps (spades) not broken, other suits held: no spade leads
    lead = cards_of(legal_cards_mask(hand, None, 3, False, False, rules))
    assert [str(c) for c in lead] == ["D7", "H5"]
    only_trumps = mask_of([Card.parse("SA"), Card.parse("S2")])
    assert legal_cards_mask(only_trumps, None, 3, False, False, rules) == only_trumps
    # trump_in_first_trick false: void in clubs, may not trump the first trick
    strict = Rules(trump_in_first_trick=False)
    void = cards_of(legal_cards_mask(hand, 0, 3, False, True, strict))
    assert [str(c) for c in void] == ["D7", "H5"]
    assert len(cards_of(legal_cards_mask(hand, 0, 3, False, True, rules))) == 4


def test_trick_winner():
    cards = [Card.parse(c) for c in ["H2", "HA", "S2", "HK"]]
    assert trick_winner_index(cards, 3) == 2
    assert trick_winner_index(cards, None) == 1
    assert trick_winner_index([Card.parse(c) for c in ["D9", "C2", "DT", "D3"]], 2) == 2
