"""parse_text_log: every line type, emoji variants, liberal input, errors that name the line,
and an Updates section that never makes reading fail."""

from __future__ import annotations

import re

import pytest

from replay.games.floating_bridge.bots import play_game
from replay.games.floating_bridge.cards import Card, Seat, sort_hand
from replay.games.floating_bridge.engine import OVER, Game
from replay.games.floating_bridge.formats.bridgebot_text import parse_text_log
from replay.log import LogFormatError, read_logs
from replay.games.floating_bridge.log import GameLog
from replay.games.floating_bridge.rules import PRESETS

# A deal of one suit per seat, for short hand-written logs: E passes, S bids 1S (the closing
# passes of W, N and E are not written).
HANDS = {
    "N": "C2 C3 C4 C5 C6 C7 C8 C9 CT CJ CQ CK CA",
    "E": "D2 D3 D4 D5 D6 D7 D8 D9 DT DJ DQ DK DA",
    "S": "H2 H3 H4 H5 H6 H7 H8 H9 HT HJ HQ HK HA",
    "W": "S2 S3 S4 S5 S6 S7 S8 S9 ST SJ SQ SK SA",
}


def symbols(cards: str, fe0f: bool = False) -> str:
    out = []
    for text in cards.split():
        symbol = Card.parse(text).symbol
        if fe0f:
            symbol = symbol[0] + "\ufe0f" + symbol[1:]
        out.append(symbol)
    return ", ".join(out)


def hands_section(fe0f: bool = False) -> list[str]:
    return ["Player hands: "] + [f"P{i + 1}: {symbols(HANDS[s], fe0f)}" for i, s in enumerate("NESW")]


def text_of(game: GameLog, *, fe0f: bool = False, final: str | None = None, updates: list[str] | None = None,
            stop_after_tricks: int | None = None, unplayed: bool = True) -> str:
    """Write a legally played log in the BridgeBot layout (a test helper: the project never
    writes this format)."""
    hands = game.hands.by_seat()

    def sym(card: Card) -> str:
        s = card.symbol
        return s[0] + "\ufe0f" + s[1:] if fe0f else s

    state = Game(hands, game.first_bidder, PRESETS["bridgebot"])
    lines = ["Player hands: "]
    lines += [f"P{i + 1}: " + ", ".join(sym(c) for c in sorted(h)) for i, h in enumerate(hands)]
    lines += ["", "Bidding: "]
    calls = [e for e in game.events if e.type == "bid"]
    last_bid = max(i for i, e in enumerate(calls) if e.bid.is_bid)
    for e in calls[:last_bid + 1]:
        lines.append(f"Player {e.seat + 1} passes." if e.bid.is_pass
                     else f"Player {e.seat + 1} bids {e.bid.level}{'NT' if e.bid.strain == 4 else sym(Card(e.bid.strain * 13))[:-1]}")
    for e in calls:
        state.push_call(e.seat, e.bid)
    partner = next(e for e in game.events if e.type == "partner")
    lines.append(f"Player {state.declarer + 1} wins the bid with a bid of {state.contract.symbol}")
    lines.append(f"Player {state.declarer + 1} chooses {sym(partner.card)} as the partner card")
    state.push_partner(partner.seat, partner.card)
    lines += ["", "Trick-taking Play: "]
    played: list[set[Card]] = [set(), set(), set(), set()]
    for e in (e for e in game.events if e.type == "play"):
        if not state.trick:
            if stop_after_tricks is not None and len(state.trick_winners) == stop_after_tricks:
                break
            lines.append(f"Player {state.to_act + 1} goes first" if not state.trick_winners
                         else f"Player {state.trick_winners[-1] + 1} wins trick {len(state.trick_winners)}")
        lines.append(f"Player {e.seat + 1} plays {sym(e.card)}")
        state.push_play(e.seat, e.card)
        played[e.seat].add(e.card)
    if stop_after_tricks is not None:
        return "\n".join(lines) + "\n"
    if len(state.trick_winners) < 13:
        lines.append(f"Player {state.trick_winners[-1] + 1} wins trick {len(state.trick_winners)}")
    lines.append(final or "Partners P1 and P3 are your winners!")
    if unplayed:
        lines += ["", "Unplayed cards: "]
        lines += [f"P{i + 1}: " + ", ".join(sym(c) for c in sorted(set(h) - played[i])) for i, h in enumerate(hands)]
    lines += ["", "Updates: "] + (updates or ["[0: P1 passes Type: SEND_UPDATE]"])
    return "\n".join(lines)


def short_game(*extra_bidding: str, play: list[str] | None = None) -> str:
    lines = hands_section() + ["", "Bidding: ", "Player 2 passes.", "Player 3 bids 1♠", *extra_bidding]
    if play is not None:
        lines += ["", "Trick-taking Play: ", *play]
    return "\n".join(lines) + "\n"


def error_of(text: str) -> str:
    with pytest.raises(LogFormatError) as info:
        parse_text_log(text)
    return str(info.value)


# --- each line type ------------------------------------------------------------------------

def test_hands_bids_partner_and_closing_passes():
    log = parse_text_log(short_game("Player 3 wins the bid with a bid of 1♠",
                                    "Player 3 chooses ♠A as the partner card"))
    assert {s.name: " ".join(map(str, h)) for s, h in zip(Seat, log.hands.by_seat())} == HANDS
    assert log.first_bidder == Seat.E  # the player of the first bidding line
    calls = [(e.seat.name, str(e.bid)) for e in log.events if e.type == "bid"]
    assert calls == [("E", "pass"), ("S", "1S"), ("W", "pass"), ("N", "pass"), ("E", "pass")]
    assert log.meta["bridgebot"]["closing_passes_added"] == 3
    partner = [e for e in log.events if e.type == "partner"]
    assert [(e.seat, str(e.card)) for e in partner] == [(Seat.S, "SA")]
    assert log.rules.name == "bridgebot" and log.meta["source_format"] == "bridgebot-text"
    replay = log.replay()
    assert str(replay.contract) == "1S" and replay.declarer == Seat.S and replay.partner_seat == Seat.W
    assert replay.findings == [] and replay.end_reason == "abandoned" and log.end is None


def test_plays_trick_claims_and_final_message():
    play = ["Player 4 goes first", "Player 4 plays ♠2", "Player 1 plays ♣2", "Player 2 plays ♦2",
            "Player 3 plays ♥2", "Player 4 wins trick 1", "Player 4 plays ♠3",
            "Somebody left the group"]
    log = parse_text_log(short_game("Player 3 wins the bid with a bid of 1♠",
                                    "Player 3 chooses ♠A as the partner card", play=play))
    kinds = [e.type for e in log.events]
    assert kinds[-7:] == ["play", "play", "play", "play", "trick", "play", "chat"]
    assert [e.winner for e in log.events if e.type == "trick"] == [Seat.W]
    assert log.events[-1].text == "Somebody left the group" and log.events[-1].seat is None
    assert log.meta["bridgebot"]["first_leader"] == "W"
    assert log.meta["bridgebot"]["final_message"] == "Somebody left the group"
    replay = log.replay()
    assert replay.findings == [] and replay.trick_winners == [Seat.W]


def test_a_wrong_trick_claim_is_a_finding_not_an_error():
    play = ["Player 4 goes first", "Player 4 plays ♠2", "Player 1 plays ♣2", "Player 2 plays ♦2",
            "Player 3 plays ♥2", "Player 1 wins trick 1"]
    log = parse_text_log(short_game("Player 3 chooses ♠A as the partner card", play=play))
    assert [f.kind for f in log.replay().findings] == ["wrong_trick_winner"]


def test_some_closing_passes_written_and_7nt():
    log = parse_text_log(short_game("Player 4 passes.", "Player 3 chooses ♠A as the partner card"))
    assert [str(e.bid) for e in log.events if e.type == "bid"] == ["pass", "1S", "pass", "pass", "pass"]
    assert log.meta["bridgebot"]["closing_passes_added"] == 2
    log = parse_text_log(short_game("Player 4 bids 7NT", "Player 4 wins the bid with a bid of 7NT",
                                    "Player 4 chooses ♥A as the partner card"))
    assert [str(e.bid) for e in log.events if e.type == "bid"] == ["pass", "1S", "7NT"]
    assert "closing_passes_added" not in log.meta["bridgebot"]
    replay = log.replay()
    assert str(replay.contract) == "7NT" and replay.declarer == Seat.W and replay.findings == []


def test_a_log_that_stops_in_the_auction_gets_no_invented_passes():
    log = parse_text_log(short_game())
    assert [str(e.bid) for e in log.events] == ["pass", "1S"]
    assert log.end is None and log.replay().end_reason == "abandoned"


def test_passed_out():
    lines = hands_section() + ["Bidding:"] + [f"Player {n} passes." for n in (3, 4, 1, 2)]
    log = parse_text_log("\n".join(lines))
    assert log.end.reason == "passed_out" and log.first_bidder == Seat.S
    assert log.replay().findings == []


def test_the_winning_bid_line_is_checked_against_the_auction():
    log = parse_text_log(short_game("Player 1 wins the bid with a bid of 2♠"))
    assert "won the bid with 2S" in log.meta["bridgebot"]["warnings"][0]


# --- liberal input ---------------------------------------------------------------------------

@pytest.mark.parametrize("seed", [3, 8, 15])
def test_crlf_bom_trailing_spaces_and_emoji_variants_read_the_same(seed):
    game = play_game(seed, bot="greedy")
    plain = text_of(game)
    variants = [
        "\ufeff" + plain,
        plain.replace("\n", "\r\n"),
        plain.replace("\n", "\r"),
        "\n".join(line + "  \t" for line in plain.split("\n")),
        text_of(game, fe0f=True),
        re.sub("([♣♦♥♠])10", r"\1T", plain),
    ]
    expected = parse_text_log(plain)
    for text in variants:
        assert parse_text_log(text).model_dump() == expected.model_dump()


@pytest.mark.parametrize("seed", range(40))
def test_round_trip_of_self_play_games(seed):
    """A game written in the BridgeBot layout reads back to the same calls, cards and result."""
    game = play_game(seed, bot="random" if seed % 2 else "greedy")
    log = parse_text_log(text_of(game))
    original, read = game.replay(), log.replay()
    assert read.findings == []
    assert read.calls == original.calls
    strip = lambda events: [(e.type, e.seat, getattr(e, "card", None)) for e in events if e.type in ("play", "partner")]
    assert strip(log.events) == strip(game.events)
    assert read.trick_winners == original.trick_winners
    assert read.result == original.result and log.end.reason == "completed"


def test_a_text_log_that_stops_early_is_abandoned():
    game = play_game(4, bot="greedy")
    log = parse_text_log(text_of(game, stop_after_tricks=3))
    replay = log.replay()
    assert log.end is None and replay.end_reason == "abandoned"
    assert len(replay.trick_winners) == 3 and replay.findings == []


def test_the_older_layout_without_hands_takes_played_plus_unplayed():
    game = play_game(6, bot="greedy")
    text = text_of(game)
    start = text.index("Bidding:")
    log = parse_text_log(text[start:])
    assert [sorted(h) for h in log.hands.by_seat()] == [sorted(h) for h in game.hands.by_seat()]
    assert log.meta["bridgebot"]["hands_from"] == "played and unplayed cards"
    assert log.replay().findings == []


def test_read_logs_routes_text_logs_here():
    game = play_game(5, bot="greedy")
    [entry] = read_logs(("\ufeff" + text_of(game)).encode(), "5.txt")
    assert entry.ok and entry.log.meta["source_format"] == "bridgebot-text"
    [entry] = read_logs(short_game().replace("♠1", "♠1O").encode(), "bad.txt")
    assert not entry.ok and entry.error.source == "bad.txt"


# --- the Updates section never fails -------------------------------------------------------

def test_updates_are_kept_and_never_parsed():
    game = play_game(9, bot="greedy")
    hostile = ["[0: Bid starting!", "P3 starts the bid! Type: SEND_BID]", "Player hands:", "Bidding:",
               "Player 9 plays ♠1O", "P7: nothing", "\x00\x07 odd bytes ☃", "", "Updates:", "]["]
    log = parse_text_log(text_of(game, updates=hostile))
    assert log.meta["bridgebot"]["updates"] == hostile
    plain = parse_text_log(text_of(game, updates=["x"]))
    assert log.events == plain.events and log.replay().findings == []


def test_an_empty_updates_section():
    game = play_game(9, bot="greedy")
    log = parse_text_log(text_of(game, updates=[""]))
    assert "updates" not in log.meta["bridgebot"]


# --- errors name the line ---------------------------------------------------------------------

@pytest.mark.parametrize(("change", "message"), [
    (lambda t: t.replace("♥10", "♥1O"), "line 4: '♥1O' is not a card"),
    (lambda t: t.replace("Player 3 bids 1♠", "Player 3 bids 8♠"), "line 9: '8♠' is not a bid"),
    (lambda t: t.replace("Player 3 bids 1♠", "Player 3 bids pass"), "line 9: 'pass' is not a bid"),
    (lambda t: t.replace("Player 2 passes.", "Player 5 passes."), "line 8: 'Player 5' is not a player"),
    (lambda t: t.replace("P4:", "P5:"), "line 5: 'P5' is not a player"),
    (lambda t: t.replace("P4:", "P1:"), "line 5: a second line for P1"),
    (lambda t: t.replace("Player 2 passes.", "Player 2 doubles"), "line 8: cannot read 'Player 2 doubles'"),
    (lambda t: t + "Bidding:\n", "line 10: a second 'Bidding:' section (the first is on line 7)"),
    (lambda t: t + "Unplayed cards:\nP1: ♣2\nTrick-taking Play:\n",
     "line 12: 'Trick-taking Play:' must come before 'Unplayed cards:' (line 10)"),
    (lambda t: "Hello\n" + t, "line 1: not a BridgeBot text log"),
    (lambda t: t.split("P4:")[0], "line 5: the hands section has no line for P4 (the file looks truncated)"),
    (lambda t: t.split("Player 2 passes.")[0], "no bidding lines, so the first bidder is unknown"),
    (lambda t: t.replace("P2: ", "P2 "), "line 3: cannot read"),
])
def test_errors_name_the_line(change, message):
    assert message in error_of(change(short_game()))


@pytest.mark.parametrize(("line", "message"), [
    ("Player 4 plays ♠1O", "line 13: '♠1O' is not a card"),
    ("Player 4 plays ♠", "line 13: '♠' is not a card"),
    ("Player 4 wins trick fourteen", "line 13: 'fourteen' is not a trick number"),
    ("Player 4 wins trick 14", "line 13: '14' is not a trick number"),
    ("Player 0 goes first", "line 13: 'Player 0' is not a player"),
])
def test_play_errors_name_the_line(line, message):
    text = short_game("Player 3 chooses ♠A as the partner card", play=[line])
    assert message in error_of(text)


def test_the_sample_bad_card_is_reported_with_its_line(sample_logs):
    assert error_of((sample_logs / "broken" / "not-a-card.txt").read_text("utf-8")) == \
        "line 24: '♠1O' is not a card"


def test_a_card_not_in_hand_is_a_finding():
    play = ["Player 4 goes first", "Player 4 plays ♥2"]
    log = parse_text_log(short_game("Player 3 chooses ♠A as the partner card", play=play))
    assert [f.kind for f in log.replay().findings] == ["card_not_in_hand"]


def test_unplayed_cards_that_contradict_the_hands_are_noted_not_fatal():
    game = play_game(12, bot="greedy")
    text = text_of(game)
    head, tail = text.split("Unplayed cards:")
    first, rest = tail.split("\nP2:", 1)
    log = parse_text_log(head + "Unplayed cards:\nP1: ♣2, ♦2\nP2:" + rest)
    assert any("P1's unplayed cards" in w for w in log.meta["bridgebot"]["warnings"])
    assert log.replay().findings == []


# --- anything else is a LogFormatError, never another exception --------------------------------

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_BASE = text_of(play_game(21, bot="greedy")).split("\n")
_PIECES = ["Player 2 plays ♠", "Player ² wins trick ²", "P1:", "Player 3 bids 7", "♥️10", "wins trick 13",
           "Bidding:", "Unplayed cards:", "Player 1 passes.", ",", "\r", "\ufeff", "\x00", "Player 4 chooses"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, len(_BASE) - 1), st.sampled_from(["drop", "dup", "cut", "add"]),
                          st.sampled_from(_PIECES), st.integers(0, 40)), max_size=6))
def test_mangled_text_logs_read_or_raise_log_format_error(edits):
    lines = list(_BASE)
    for index, kind, piece, at in edits:
        index %= len(lines)
        if kind == "drop":
            del lines[index]
        elif kind == "dup":
            lines.insert(index, lines[index])
        elif kind == "cut":
            lines[index] = lines[index][:at]
        else:
            lines[index] = lines[index][:at] + piece + lines[index][at:]
        if not lines:
            lines = [""]
    try:
        log = parse_text_log("\n".join(lines))
    except LogFormatError as exc:
        assert str(exc).startswith("line ") or "hands" in str(exc) or "events" in str(exc)
        return
    log.replay()  # judged, never raising


def test_a_trick_number_of_thousands_of_digits_is_refused_not_a_crash():
    """Found by hypothesis (tests/replay/test_reader_properties.py): int() of a 5,001-digit
    trick number raised ValueError past Python's digit limit, instead of the reader's error."""
    from pathlib import Path

    sample = (Path(__file__).resolve().parents[2] / "sample_logs" / "legacy" / "seven-no-trump.txt").read_text(encoding="utf-8")
    cut = sample.index("wins trick 1")
    damaged = sample[:cut] + "wins trick " + "9" * 5001 + sample[cut + len("wins trick 1"):]
    with pytest.raises(LogFormatError, match="is not a trick number"):
        parse_text_log(damaged, "damaged.txt")
