"""The hold'em payload codec: round trips over generated hands (unknown cards, all-ins, shows,
stopped hands, any card order), the raw form for what the compact form cannot say, damaged
codes and garbage payloads refused with ``CodeError``, and the information bound."""

from __future__ import annotations

import json
import random
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay.codec import generic
from replay.codec.errors import CodeError
from replay.games import names
from replay.games.holdem.cards import cards_text, parse_cards
from replay.games.holdem.codec import CODEC, Model, Reader, Writer, _raw_object, information_bits
from replay.games.holdem.engine import HoldemState
from replay.games.holdem.log import parse


def table(n=6, stacks=10000, blinds=(50, 100), antes=0, min_bet=None, variant="NT"):
    forced = list(blinds) + [0] * (n - len(blinds))
    data = {"format": "holdem/1", "variant": variant, "antes": [antes] * n, "blinds_or_straddles": forced,
            "starting_stacks": [stacks] * n if not isinstance(stacks, list) else stacks}
    if variant == "NT":
        data["min_bet"] = min_bet or max(blinds)
    else:
        data.update(small_bet=max(blinds), big_bet=2 * max(blinds))
    return data


def play(rng: random.Random, data: dict, unknown: float = 0.0, shows: float = 0.5, stop: float = 0.0,
         sort: bool = False, sizes: str = "mixed") -> dict:
    """A random legal hand on ``data``'s table, driven by the engine: ``data`` with its events and end."""
    state, findings = HoldemState.from_setup(data["variant"], data["antes"], data["blinds_or_straddles"],
                                             data["starting_stacks"], min_bet=data.get("min_bet"),
                                             small_bet=data.get("small_bet"), big_bet=data.get("big_bet"))
    assert not findings
    deck = list(range(52))
    rng.shuffle(deck)
    actions: list[str] = []

    def push(text: str) -> None:
        assert not state.push_action(text, len(actions)), text
        actions.append(text)

    stop_at = rng.randrange(0, 30) if rng.random() < stop else None
    while not state.over and (stop_at is None or len(actions) < stop_at):
        if state.to_act is None:
            kind, what = state.dealer_due
            cards = [deck.pop() for _ in range(2 if kind == "dh" else what)]
            if sort:
                cards.sort(reverse=True)
            if kind == "dh" and rng.random() < unknown:
                cards[rng.randrange(2)] = None
                if rng.random() < 0.7:
                    cards = [None, None]
            push(f"d dh {what} {cards_text(cards)}" if kind == "dh" else f"d db {cards_text(cards)}")
            continue
        seat, legal = state.to_act, state.legal()
        choices = (["f"] if legal.fold else []) + ["cc", "cc"] + (["cbr", "cbr"] if legal.min_to is not None else [])
        choice = rng.choice(choices)
        if choice != "cbr":
            push(f"{seat} {choice}")
            continue
        top, pot = max(state.bets), state.pot_total()
        call = top - state.bets[state.seats.index(seat)]
        common = [legal.min_to, top + (pot + call) // 2, top + (pot + call) * 2 // 3, top + pot + call, legal.max_to]
        if isinstance(legal.min_to, Decimal) or isinstance(legal.max_to, Decimal):  # in cents
            odd = Decimal(rng.randint(int(legal.min_to * 100), int(legal.max_to * 100))) / 100
        else:
            odd = rng.randint(legal.min_to, legal.max_to)
        to = rng.choice(common) if sizes == "common" else odd if sizes == "odd" else rng.choice(common + [odd])
        push(f"{seat} cbr {min(max(to, legal.min_to), legal.max_to)}")
    if state.over and rng.random() < shows:
        for i, seat in enumerate(state.seats):
            hole = state.hole[i]
            if state.folded[i] or hole is None or rng.random() < 0.2:
                continue
            if None in hole:
                rest = [c for c in deck if c not in state.board]
                text = f"{seat} sm {cards_text([rest.pop() if c is None else c for c in hole])}"
            else:
                texts = [f"{seat} sm {cards_text(hole)}", f"{seat} sm -"]
                if all(len([s for s in pot.seats if not state.folded[state.seats.index(s)]]) > 1
                       for pot in state.pots() if seat in pot.seats):
                    texts.append(f"{seat} sm")  # a muck (never of a pot's last contender: the engine's open case)
                text = rng.choice(texts)
            if not state.copy().push_action(text):
                push(text)
    end: dict = {"reason": "completed" if state.over else rng.choice(["cancelled", "timeout"])}
    if state.over and rng.random() < 0.5:
        settlement = state.settle()
        if settlement.settled:
            end["finishing_stacks"] = list(settlement.stacks)
            if rng.random() < 0.5:
                end["winnings"] = list(settlement.winnings)
    if rng.random() < 0.1:
        end = None
    return dict(data, events=[{"action": a} for a in actions], **({"end": end} if end else {}))


def same(log, value: int):
    again = parse(CODEC.from_payload(value), "code")
    assert _raw_object(again) == _raw_object(log)
    return again


hands = st.builds(
    lambda seed, n, stacks, unknown, stop, sort, sizes: play(
        random.Random(seed), table(n=n, stacks=([500, 10000] * 5)[:n] if stacks == "mixed" else stacks), unknown=unknown, stop=stop, sort=sort, sizes=sizes),
    st.integers(0, 2 ** 32), st.integers(2, 10), st.sampled_from([10000, 200, 1000, 12345, "mixed"]),
    st.sampled_from([0.0, 0.0, 0.5, 1.0]), st.sampled_from([0.0, 0.3]), st.booleans(),
    st.sampled_from(["mixed", "common", "odd"]))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands)
def test_generated_hands_round_trip_in_the_compact_form(data):
    log = parse(data)
    value = CODEC.payload(log)
    assert value & 1 == 0, "a hand without findings takes the compact form"
    same(log, value)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2 ** 32), st.sampled_from(["FT", "NT"]), st.integers(0, 25), st.integers(2, 10))
def test_other_tables_round_trip(seed, variant, ante, n):
    rng = random.Random(seed)
    data = table(n=n, stacks=[rng.randrange(1, 5000) * 10 for _ in range(n)], blinds=(rng.choice([0, 5, 10]), 20),
                 antes=ante, variant=variant)
    if rng.random() < 0.3:
        data["blinds_or_straddles"][2 % n] = 40  # a straddle
    log = parse(play(rng, data, unknown=0.2, stop=0.2))
    value = CODEC.payload(log)
    assert value & 1 == 0
    same(log, value)


def test_the_spec_example_and_what_a_code_keeps():
    actions = ["d dh p1 Ac2d", "d dh p2 ????", "d dh p3 7h7s", "p3 cbr 300", "p1 cc", "p2 f", "d db 7c8d2s",
               "p1 cc", "p3 cbr 400", "p1 f"]
    data = dict(table(n=3), players={"p1": {"name": "Alice"}}, game_id="t/1", started_at="2026-11-28T20:15:00Z",
                meta={"x": 1}, events=[{"action": a, "t": i * 100} for i, a in enumerate(actions)][:4]
                + [{"type": "chat", "seat": "p1", "text": "hi"}]
                + [{"action": a} for a in actions[4:]],
                end={"reason": "completed", "finishing_stacks": [9700, 9900, 10400], "t": 5})
    log = parse(data)
    value = CODEC.payload(log)
    again = same(log, value)
    assert value & 1 == 0 and again.players == {} and again.game_id is None and again.meta == {}
    assert again.actions == actions and again.end.finishing_stacks == [9700, 9900, 10400]
    assert value.bit_length() < information_bits(log) < 120


@pytest.mark.parametrize("change, why", [
    (lambda d: d["events"].insert(4, {"action": "p3 cbr 99999"}), "bet_too_large"),
    (lambda d: d["events"].__setitem__(1, {"action": "d dh p2 AcKd"}), "duplicate_card"),
    (lambda d: d["events"].append({"action": "p1 cc"}), "event_after_end"),
    (lambda d: d["end"].__setitem__("finishing_stacks", [9700, 9900, 10300]), "stacks_mismatch"),
    (lambda d: d["end"].__setitem__("reason", "timeout"), "end_mismatch (a finished hand 'timed out')"),
    (lambda d: d["events"][0].update(extra="kept"), "an unknown field of an event"),
])
def test_the_raw_form_keeps_what_the_compact_form_cannot_say(change, why):
    actions = ["d dh p1 Ac2d", "d dh p2 ????", "d dh p3 7h7s", "p3 cbr 300", "p1 cc", "p2 f", "d db 7c8d2s",
               "p1 cc", "p3 cbr 400", "p1 f"]
    data = dict(table(n=3), events=[{"action": a} for a in actions], end={"reason": "completed",
                                                                          "finishing_stacks": [9700, 9900, 10400]})
    change(data)
    log = parse(data)
    value = CODEC.payload(log)
    assert value & 1 == 1, why
    same(log, value)


@pytest.mark.parametrize("reason", ["completed", "cancelled"])
def test_commentaries_travel_in_the_compact_form(reason):
    data = play(random.Random(6), table(n=4))
    events = data["events"] = data["events"] if reason == "completed" else data["events"][:5]
    events[2] = {"action": events[2]["action"] + " # dealt late, the dealer said"}
    events.insert(1, {"action": "# Burn card 6s is exposed ♠"})
    events.append({"action": "# the hand is over"})
    if reason == "cancelled":
        data["end"] = {"reason": "cancelled"}
    log = parse(data)
    value = CODEC.payload(log)
    assert value & 1 == 0
    assert same(log, value).actions[1] == "# Burn card 6s is exposed ♠"


def test_phh_fields_travel_in_the_compact_form():
    data = play(random.Random(4), table(n=6))
    data.update(hand=17, table="Nice", venue="Online ♠", time="20:15:00", ante_trimming_status=True)
    log = parse(data)
    value = CODEC.payload(log)
    assert value & 1 == 0
    assert same(log, value).phh_fields["venue"] == "Online ♠"
    plain = CODEC.payload(parse(play(random.Random(4), table(n=6))))
    assert value.bit_length() < plain.bit_length() + 8 * 100


SAMPLES = Path(__file__).resolve().parents[3] / "sample_logs" / "holdem"


def sample_logs():
    from replay.games.holdem import phh

    for path in sorted(SAMPLES.glob("*")):
        if path.suffix == ".json":
            yield path.name, parse(json.loads(path.read_text(encoding="utf-8")))
        elif path.suffix == ".phh":
            yield path.name, phh.read(path.read_text(encoding="utf-8"))
        elif path.suffix == ".phhs":
            for i, part in enumerate(phh.read_games(path.read_text(encoding="utf-8"))):
                yield f"{path.name}[{i}]", getattr(part, "log", part)


def test_every_sample_log_round_trips():
    seen = 0
    for name, log in sample_logs():
        value = CODEC.payload(log)
        same(log, value)
        seen += 1
    assert seen >= 8


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2 ** 32), st.integers(2, 9), st.sampled_from(["0.25/0.5", "0.05/0.10", "1/2", "0.5/1"]))
def test_dollars_and_cents_round_trip_in_the_compact_form(seed, n, stakes):
    rng = random.Random(seed)
    small, big = (Decimal(x) for x in stakes.split("/"))
    stacks = [Decimal(rng.randrange(2000, 20000)) / 100 for _ in range(n)]
    log = parse(play(rng, table(n=n, stacks=stacks, blinds=(small, big)), unknown=0.2, stop=0.2))
    value = CODEC.payload(log)
    assert value & 1 == 0
    same(log, value)
    assert information_bits(log) >= 0


def test_rake_and_winnings_the_cards_cannot_tell_are_coded():
    base = ["d dh p1 AcAd", "d dh p2 KcKd", "d dh p3 ????", "p3 cc", "p1 cc", "p2 cc", "d db 2c7d9h", "p1 cc",
            "p2 cc", "p3 cc", "d db Js", "p1 cc", "p2 cc", "p3 cc", "d db 3h", "p1 cc", "p2 cc", "p3 cc"]
    data = dict(table(n=3, stacks=100, blinds=(Decimal("0.5"), 1)), events=[{"action": a} for a in base])
    raked = dict(data, end={"reason": "completed", "winnings": [Decimal("2.85"), 0, 0],
                            "finishing_stacks": [Decimal("101.85"), 99, 99]})
    unknown = dict(data, end={"reason": "completed", "winnings": [0, 0, 3], "finishing_stacks": [99, 99, 102]})
    for case in (raked, unknown):
        log = parse(case)
        value = CODEC.payload(log)
        assert value & 1 == 0
        same(log, value)


def test_common_sizes_cost_less_than_odd_ones():
    base = ["d dh p1 AcAd", "d dh p2 KcKd"]
    pot, odd = [parse(dict(table(n=2), events=[{"action": a} for a in base + [f"p2 cbr {to}", "p1 f"]],
                           end={"reason": "completed"})) for to in (300, 4321)]
    assert CODEC.payload(pot).bit_length() + 8 < CODEC.payload(odd).bit_length()
    assert information_bits(pot) > CODEC.payload(pot).bit_length()


def test_card_order_is_kept():
    rng = random.Random(8)
    for sort in (True, False):
        log = parse(play(rng, table(n=4), sort=sort))
        same(log, CODEC.payload(log))
    assert parse_cards("AcKd") != sorted(parse_cards("AcKd"))


def test_the_range_coder_reads_back_what_it_wrote():
    rng = random.Random(5)
    steps = []
    w = Writer()
    for _ in range(300):
        if rng.random() < 0.5:
            radix = rng.randrange(1, 2000)
            d = rng.randrange(radix)
            w.put(d, radix)
            steps.append(("put", radix, d))
        else:
            model = Model([rng.randrange(1, 50) for _ in range(rng.randrange(1, 9))])
            i = rng.randrange(len(model.freqs))
            w.choose(i, model)
            steps.append(("choose", model, i))
    r = Reader(w.value())
    for kind, arg, expected in steps:
        assert (r.get(arg) if kind == "put" else r.choose(arg)) == expected
    assert r.value == 0
    assert w.value().bit_length() <= w.bits() + 12


@settings(max_examples=400, deadline=None)
@given(st.integers(min_value=0, max_value=2 ** 400))
def test_garbage_payloads_raise_code_error_or_decode(value):
    try:
        data = CODEC.from_payload(value)
    except CodeError:
        return
    parse(data, "code")  # what decodes is a hand


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2 ** 32), st.integers(0, 400), st.integers(1, 2 ** 24))
def test_damaged_payloads_raise_code_error_or_decode(seed, shift, change):
    """Payloads near real ones (a bit pattern added somewhere) reach deep into the decoder."""
    rng = random.Random(seed)
    value = CODEC.payload(parse(play(rng, table(n=rng.choice([2, 6, 10])), unknown=0.3, stop=0.2)))
    damaged = value ^ (change << min(shift, value.bit_length()))
    try:
        data = CODEC.from_payload(damaged)
    except CodeError:
        return
    parse(data, "code")


@settings(max_examples=100, deadline=None)
@given(st.binary(min_size=1, max_size=60))
def test_garbage_raw_payloads_raise_code_error(blob):
    value = (int.from_bytes(b"\x01" + blob, "big") << 1) | 1
    try:
        data = CODEC.from_payload(value)
    except CodeError:
        return
    assert data["format"] == "holdem/1"


# --- whole codes: the generic layer's checksum refuses damaged ones -------------------------

@pytest.fixture
def codes(monkeypatch):
    """(encode, decode) of whole codes: the registered game's, or (before the game is
    registered) the generic text layer with a stand-in marker."""
    if "holdem" in names():
        from replay.codec import decode, encode
        return (lambda log: encode(log)), (lambda code: decode(code))
    letter = "k"
    monkeypatch.setattr(generic, "markers", lambda: {letter: ("holdem", 2, False)})
    monkeypatch.setattr(generic, "_forms", lambda name: 1)

    def decode(code):
        _, _, payload = generic.from_text(code)
        return parse(CODEC.from_payload(payload), "code")

    return (lambda log: generic.to_text(letter, CODEC.payload(log))), decode


def test_damaged_codes_are_refused(codes):
    encode, decode = codes
    rng = random.Random(11)
    alphabet = generic.ALPHABET
    refused = 0
    for trial in range(40):
        log = parse(play(rng, table(n=rng.choice([2, 6, 9])), unknown=0.2))
        code = encode(log)
        assert _raw_object(decode(code)) == _raw_object(log)
        i = rng.randrange(1, len(code))
        damaged = [code[:i] + rng.choice(alphabet.replace(code[i], "")) + code[i + 1:],  # mistyped
                   code[:i] + code[i + 1:],                                            # lost
                   code[:i] + rng.choice(alphabet) + code[i:]]                         # added
        if i + 1 < len(code) and code[i] != code[i + 1]:
            damaged.append(code[:i] + code[i + 1] + code[i] + code[i + 2:])          # swapped
        for text in damaged:
            with pytest.raises(CodeError):
                decode(text)
            refused += 1
    assert refused >= 120
