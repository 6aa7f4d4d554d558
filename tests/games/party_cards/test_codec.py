"""The codec: every log round-trips exactly; bad payloads give a clear error."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay.games.party_cards.bots import play_game
from replay.games.party_cards.codec import (
    DICTIONARY_FILE, PayloadError, decode_payload, dictionary, encode_payload, log_body,
)
from replay.games.party_cards.log import parse

from .helpers import won_dict

TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)
#: names and ids: no NUL (every reader refuses it there: replay.envelope.no_nul)
NAME = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=30)
SEAT = st.text(st.characters(blacklist_categories=("Cs", "Zs", "Zl", "Zp", "Cc")), min_size=1, max_size=6).filter(
    lambda s: not any(ch.isspace() for ch in s))
CARD_ID = st.one_of(st.integers(0, 10**6).map(lambda n: f"a{n}"), st.integers(0, 300).map(str),
                    st.sampled_from(["a007", "q-1", "x", "é9", "a1b"]), TEXT.filter(bool))
TIME = st.one_of(st.none(), st.integers(0, 10**10))
EXTRA = st.dictionaries(st.sampled_from(["mood", "x", "lang"]), st.one_of(st.integers(), TEXT, st.none()), max_size=2)


@st.composite
def logs(draw):
    seats = draw(st.lists(SEAT, min_size=1, max_size=5, unique=True))
    card = st.fixed_dictionaries({"id": CARD_ID, "text": st.one_of(TEXT, st.sampled_from(["Bubble wrap.", "Jazz hands."]))})
    players = {s: draw(st.fixed_dictionaries({}, optional={"name": NAME, "id": NAME, "bot": NAME})) for s in seats}
    if draw(st.booleans()):
        players[seats[0]].update(draw(EXTRA))
    seat = st.sampled_from(seats)
    ids = st.lists(CARD_ID, max_size=3)

    def event(kind, **fields):
        return st.fixed_dictionaries({"type": st.just(kind), **fields}, optional={"t": st.integers(0, 10**10)})

    events = draw(st.lists(st.one_of(
        event("join", seat=seat), event("decline", seat=seat), event("leave", seat=seat),
        event("swap", seat=seat, discard=ids, draw=st.lists(card, max_size=3)),
        event("round", czar=seat, question=st.fixed_dictionaries({"id": CARD_ID, "text": TEXT,
                                                                  "pick": st.integers(1, 3)})),
        event("answer", seat=seat, cards=ids), event("reveal", order=st.lists(seat, max_size=4)),
        event("pick", seat=seat, choice=st.integers(-5, 2**31)), event("draw", seat=seat, cards=st.lists(card, max_size=3)),
        st.fixed_dictionaries({"type": st.just("chat"), "text": TEXT}, optional={"seat": seat, "t": TIME.filter(
            lambda t: t is not None)}),
    ), max_size=25))
    if events and draw(st.booleans()):
        events[0] = {**events[0], **draw(EXTRA)}
    data = {"format": "party-cards/1", "players": players, "score_limit": draw(st.integers(1, 1000)),
            "hand_size": draw(st.integers(1, 100)),
            "hands": {s: draw(st.lists(card, max_size=4)) for s in seats if draw(st.booleans())}, "events": events}
    data.update(draw(st.fixed_dictionaries({}, optional={
        "game_id": NAME, "started_at": st.sampled_from(["2026-11-21T10:00:00Z", "2026-01-02T03:04:05+08:00"]),
        "meta": st.dictionaries(TEXT, st.one_of(st.integers(), TEXT), max_size=2),
        "end": st.fixed_dictionaries({"reason": st.sampled_from(["completed", "cancelled", "timeout",
                                                                 "not_enough_players"])},
                                     optional={"winner": seat, "t": st.integers(0, 10**10)}),
        "room": TEXT})))
    return parse(data)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(log=logs())
def test_any_log_round_trips_exactly(log):
    assert decode_payload(encode_payload(log)).canonical_json() == log.canonical_json()


@settings(max_examples=150, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), rounds=st.sampled_from([None, 1, 5, 10]), chat=st.booleans())
def test_self_played_logs_round_trip(seed, rounds, chat):
    log = play_game(seed, rounds=rounds, chat=chat, interrupt_rate=0.2)
    assert decode_payload(encode_payload(log)).canonical_json() == log.canonical_json()


def test_a_hand_written_log_with_extras_round_trips():
    data = won_dict(meta={"bot": "cah-2.1"}, room="grp 9")
    data["hands"]["p1"][0]["rarity"] = "rare"
    data["events"][4]["question"]["pack"] = "base"
    log = parse(data)
    assert decode_payload(encode_payload(log)).canonical_json() == log.canonical_json()


def test_pool_cards_cost_less_than_their_text():
    log = play_game(5, rounds=5)
    assert len(encode_payload(log)) * 8 < len(log.canonical_json())
    assert len(log_body(log)) < len(log.canonical_json()) // 4


def test_the_dictionary_is_the_shipped_file():
    from importlib import resources

    raw = resources.files("replay.games.party_cards").joinpath("data", DICTIONARY_FILE).read_bytes()
    assert dictionary().as_bytes() == raw and len(raw) == 16 * 1024


@pytest.mark.parametrize("payload, message", [
    (b"", "an empty payload"),
    (b"\x02abc", "payload version 2 is not one this release reads"),
    (b"\x01not zstd", "the payload does not decompress"),
])
def test_bad_payloads(payload, message):
    with pytest.raises(PayloadError, match=message):
        decode_payload(payload)


def test_a_truncated_body_is_refused():
    import zstandard

    body = log_body(play_game(2))
    cut = bytes([1]) + zstandard.ZstdCompressor(dict_data=dictionary()).compress(body[: len(body) // 2])
    with pytest.raises(PayloadError, match="cut short|out of range"):
        decode_payload(cut)
