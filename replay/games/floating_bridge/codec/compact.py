"""Replay codes for floating bridge: the whole game in about 35 URL-safe characters.

The format is specified in ``docs/code-format.md``; this module is its reference
implementation. In short: every choice is written as its index among the options the engine
says were legal at that point, all packed into one integer (mixed radix); the deal and the set
of bids use enumerative ranks; the integer is multiplied by a prime (the checksum) and written
in base 62 behind a marker character that names the format version.

Codes are written in version 2 (marker ``0``); version 1 codes (markers ``A``..``P``), which
earlier releases printed, are still read.

>>> from replay.games.floating_bridge.bots import play_game
>>> log = play_game(seed=7)
>>> code = encode(log)
>>> code[0] == V2_MARKER, MIN_CODE_LENGTH <= len(code) < 45
(True, True)
>>> decode_code(code).hands == log.hands
True
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..cards import CARDS, CALLS, FULL_DECK_MASK, PASS_VALUE, SEATS, Card, hand_points
from ..engine import AUCTION, OVER, PARTNER, PLAY, Game
from ..log import (
    FORMAT,
    MAX_EVENTS,
    BidEvent,
    End,
    GameLog,
    Hands,
    PartnerEvent,
    PlayEvent,
    TrickEvent,
)
from ..game import GameReplay
from ..rules import PRESETS, Rules
from replay.codec.errors import CodeError
from replay.log import _model
from replay.codec.intcode import ALPHABET, BINOMIAL, CHAR_VALUE, DigitReader, DigitWriter, rank_subset, unrank_subset

# --- the text layer --------------------------------------------------------------------------
#: The checksum: the code's integer leaves a fixed remainder when divided by this prime.
CHECK_PRIME = 127
#: Version 2 (written): the marker ``0``, then the body: the base-62 digits of
#: ``127 * payload + V2_REMAINDER``, padded with leading ``0``s to ``V2_MIN_BODY`` characters.
V2_MARKER = "0"
V2_REMAINDER = 89
V2_MIN_BODY = 16
MIN_CODE_LENGTH = 1 + V2_MIN_BODY
#: Version 1 (read only): one of 16 marker letters ``A``..``P`` that also holds the integer's
#: lowest 4 bits. Such codes shorter than ``V1_MIN_LENGTH`` are refused (no shuffled deal
#: makes one; see ``docs/code-format.md`` section 9).
MARKER_FIRST = CHAR_VALUE["A"]
MARKER_BLOCK = 16
MARKERS = ALPHABET[MARKER_FIRST:MARKER_FIRST + MARKER_BLOCK]
V1_MARKERS = MARKERS
CHECK_REMAINDER = 89  # version 1's remainder
V1_MIN_LENGTH = 14
#: Longest text decode() looks at (a fallback code of a 5,000-event log fits well inside).
MAX_CODE_LENGTH = 16000

# --- the header ------------------------------------------------------------------------------
KIND_BRIDGEBOT = 0   # clean game, preset bridgebot, ended as the rules say
KIND_ALL_TRICKS = 1  # clean game, preset all-tricks, ended as the rules say
KIND_EXTENDED = 2    # clean game: any rules, any end, how far it went
KIND_FALLBACK = 3    # a game with findings: every event kept
KINDS = 4
PRESET_ORDER = ("bridgebot", "all-tricks")
WASH_RADIX = 41  # wash_threshold 0..40

# extended end digit: 0 no end logged (game finished), 1 the end the rules give, then for a
# game that stopped early: 2 + reason * STOP_POINTS + stop point
END_ABSENT_FINISHED, END_NATURAL = 0, 1
STOP_REASONS = (None, "cancelled", "timeout", "abandoned")
STOP_IN_AUCTION = 53  # stop points 0..52: actions after a complete auction; 53: during it
STOP_POINTS = 54
EXT_END_RADIX = 2 + len(STOP_REASONS) * STOP_POINTS
# fallback end digit
FALLBACK_ENDS = (None, "completed", "passed_out", "cancelled", "timeout", "abandoned")

# fallback raw events
RAW_BID, RAW_PARTNER, RAW_PLAY, RAW_TRICK = 0, 144, 352, 560
RAW_END = 564
RAW_RADIX = 565

_DEAL_RADICES = (BINOMIAL[52][13], BINOMIAL[39][13], BINOMIAL[26][13])


# --- encoding --------------------------------------------------------------------------------

def encode(game: "GameLog | GameReplay") -> str:
    """The code (version 2) of a game (a ``GameLog`` or a ``GameReplay``).

    Clean games get the compact form; games with findings get the flagged fallback form,
    which keeps every call, card and trick announcement so that the findings come back.
    Player names, times, chat and meta are never in a code.
    """
    if isinstance(game, GameReplay):
        log = game.log
        has_findings = bool(game.findings)
        final_phase, plays = (game.final_phase, None) if has_findings else _judge(log)[1:]
    elif isinstance(game, GameLog):
        log = game
        has_findings, final_phase, plays = _judge(log)
    else:
        raise TypeError(f"encode() takes a GameLog or a GameReplay, not {type(game).__name__}")
    rules = log.rules
    if rules.preset not in PRESET_ORDER:
        raise CodeError(f"a replay code cannot carry the rules preset {rules.preset!r}")
    writer = DigitWriter()
    if has_findings:
        _encode_fallback(writer, log)
    else:
        _encode_clean(writer, log, final_phase, plays)
    return _to_text(writer.value())


def _judge(log: GameLog) -> tuple[bool, str, list[tuple[int, int]]]:
    """Whether the engine finds anything in a log, the phase it ends in, and each card played
    as its digit: (index among the legal cards, how many were legal), the engine's own
    ``legal_mask`` just before the card.

    The same pass as ``GameReplay.from_log`` without building its steps (tests check that
    the two agree on every game).
    """

    game = Game(log.hands.by_seat(), log.first_bidder, log.rules)
    findings = game.check_deal()
    plays: list[tuple[int, int]] = []
    for event in log.events:
        if game.stopped:
            break
        if isinstance(event, PlayEvent):
            card = event.card
            seat = event.seat
            if game.phase == PLAY and seat == game.to_act:
                legal = game.legal_mask(seat)
                plays.append(((legal & ((1 << card) - 1)).bit_count(), legal.bit_count()))
            found = game.push_play(seat, card)
        elif isinstance(event, BidEvent):
            found = game.push_call(event.seat, event.bid)
        elif isinstance(event, PartnerEvent):
            found = game.push_partner(event.seat, event.card)
        elif isinstance(event, TrickEvent):
            found = game.announce_trick(event.winner)
        else:
            continue
        if found:
            return True, game.phase, plays
    if findings:
        return True, game.phase, plays
    GameReplay._end_reason(game, log, findings, 0)
    return bool(findings), game.phase, plays


def _to_text(payload: int) -> str:
    """The version 2 text of a payload: ``0``, then ``127 * payload + 89`` in base 62 (16+ digits)."""
    return V2_MARKER + _base62(payload * CHECK_PRIME + V2_REMAINDER).rjust(V2_MIN_BODY, "0")


def _v1_text(payload: int) -> str:
    """The version 1 text of a payload, as earlier releases wrote it (kept for tests and tools)."""
    total = payload * CHECK_PRIME + CHECK_REMAINDER
    rest, marker = divmod(total, MARKER_BLOCK)
    return ALPHABET[MARKER_FIRST + marker] + _base62(rest)


def _base62(value: int) -> str:
    out = []
    while value:
        value, digit = divmod(value, 62)
        out.append(ALPHABET[digit])
    return "".join(reversed(out))


def _put_rules(w: DigitWriter, rules: Rules, wash_radix: int = WASH_RADIX) -> None:
    """Preset, then 0 for "no overrides" or 1 + the flags (three bits and the wash threshold).

    In a clean game the wash threshold cannot exceed the lowest hand's points, so the deal
    (written first) bounds its radix.
    """
    w.put(PRESET_ORDER.index(rules.preset), len(PRESET_ORDER))
    if not rules.overrides:
        w.put(0, 1 + 8 * wash_radix)
        return
    bits = int(rules.play_all_tricks) | int(rules.trump_in_first_trick) << 1 | int(rules.self_partner) << 2
    w.put(1 + bits * wash_radix + rules.wash_threshold, 1 + 8 * wash_radix)


def _wash_radix(hands) -> int:
    return min(min(hand_points(h) for h in hands), WASH_RADIX - 1) + 1


def _put_deal(w: DigitWriter, masks: list[int]) -> None:
    """Three combination ranks: N's 13 of 52 cards, E's 13 of the other 39, S's 13 of 26."""
    taken = 0
    for seat in range(3):
        mask = masks[seat]
        positions = []
        m = mask
        while m:
            low = m & -m
            card = low.bit_length() - 1
            positions.append(card - (taken & (low - 1)).bit_count())
            m ^= low
        w.put(rank_subset(positions, 52 - 13 * seat), _DEAL_RADICES[seat])
        taken |= mask


def _is_partition(hands) -> bool:
    seen = 0
    for cards in hands:
        if len(cards) != 13:
            return False
        for c in cards:
            if seen >> c & 1:
                return False
            seen |= 1 << c
    return True


def _hand_masks(hands) -> list[int]:
    masks = []
    for cards in hands:
        m = 0
        for c in cards:
            m |= 1 << c
        masks.append(m)
    return masks


def _encode_clean(w: DigitWriter, log: GameLog, final_phase: str, plays: list[tuple[int, int]]) -> None:
    rules = log.rules
    actions = [e for e in log.events if isinstance(e, (BidEvent, PartnerEvent, PlayEvent))]
    hands = log.hands.by_seat()
    finished = final_phase == OVER
    logged = log.end.reason if log.end is not None else None
    natural = logged is not None and finished
    masks = _hand_masks(hands)
    if natural and not rules.overrides:
        w.put(PRESET_ORDER.index(rules.preset), KINDS)  # KIND_BRIDGEBOT / KIND_ALL_TRICKS
        w.put(log.first_bidder, 4)
        _put_deal(w, masks)
    else:
        w.put(KIND_EXTENDED, KINDS)
        w.put(log.first_bidder, 4)
        _put_deal(w, masks)
        _put_rules(w, rules, _wash_radix(hands))
        if natural:
            w.put(END_NATURAL, EXT_END_RADIX)
        elif logged is None and finished:
            w.put(END_ABSENT_FINISHED, EXT_END_RADIX)
        else:
            calls_made = sum(1 for e in actions if isinstance(e, BidEvent))
            if final_phase == AUCTION:
                point = STOP_IN_AUCTION
            else:
                point = len(actions) - calls_made
            w.put(2 + STOP_REASONS.index(logged) * STOP_POINTS + point, EXT_END_RADIX)
    # the auction: how many bids, which ones (a set: they only go up), and the passes between
    calls = [e.bid for e in actions if isinstance(e, BidEvent)]
    bids = [c for c in calls if c != PASS_VALUE]
    k = len(bids)
    w.put(k, 36)
    w.put(rank_subset(bids, 35), BINOMIAL[35][k])
    if k:
        run = 0
        runs = []
        for c in calls:
            if c == PASS_VALUE:
                run += 1
            else:
                runs.append(run)
                run = 0
        w.put(runs[0], 4)
        for r in runs[1:]:
            w.put(r, 3)
    if final_phase == AUCTION:  # stopped during the auction: the passes since the last bid
        trailing = len(calls) - 1 - max((i for i, c in enumerate(calls) if c != PASS_VALUE), default=-1)
        w.put(trailing, 3 if k else 4)
        return
    # partner card and plays: each an index among the legal options
    rest = actions[len(calls):]
    if not rest:
        return
    declarer = (log.first_bidder + len(calls) - 1 - (3 if bids[-1] != 34 else 0)) & 3
    card = rest[0].card
    if rules.self_partner:
        w.put(card, 52)
    else:
        own = masks[declarer]
        w.put(card - (own & ((1 << card) - 1)).bit_count(), 52 - own.bit_count())
    put = w.put
    for digit, radix in plays:  # each card's index among the engine's legal cards (``_judge``)
        put(digit, radix)


def _encode_fallback(w: DigitWriter, log: GameLog) -> None:
    rules = log.rules
    w.put(KIND_FALLBACK, KINDS)
    _put_rules(w, rules)
    w.put(FALLBACK_ENDS.index(log.end.reason if log.end is not None else None), len(FALLBACK_ENDS))
    w.put(log.first_bidder, 4)
    hands = log.hands.by_seat()
    if _is_partition(hands):
        w.put(1, 2)
        _put_deal(w, _hand_masks(hands))
    else:
        w.put(0, 2)
        for cards in hands:
            w.put(len(cards), 53)
            for c in cards:
                w.put(c, 52)
    game = Game(hands, log.first_bidder, rules)
    game.check_deal()
    for e in log.events:
        if isinstance(e, BidEvent):
            raw, value = RAW_BID + e.seat * 36 + e.bid, e.bid
        elif isinstance(e, PartnerEvent):
            raw, value = RAW_PARTNER + e.seat * 52 + e.card, e.card
        elif isinstance(e, PlayEvent):
            raw, value = RAW_PLAY + e.seat * 52 + e.card, e.card
        elif isinstance(e, TrickEvent):
            raw, value = RAW_TRICK + e.winner, None
        else:
            continue  # chat is not part of a code
        options = _expected(game)
        expected_seat, kind, option_count, index_of, announce = options
        radix = option_count + (1 if announce is not None else 0) + 1
        digit = None
        if isinstance(e, TrickEvent):
            if announce is not None and e.winner == announce:
                digit = option_count
        elif kind is not None and e.type == kind and e.seat == expected_seat:
            digit = index_of(value)
        if digit is None:
            w.put(radix - 1, radix)
            w.put(raw, RAW_RADIX)
        else:
            w.put(digit, radix)
        _apply(game, e)
    options = _expected(game)
    w.put(options[2] + (1 if options[4] is not None else 0), options[2] + (1 if options[4] is not None else 0) + 1)
    w.put(RAW_END, RAW_RADIX)


def _expected(game: Game):
    """What the engine expects next: (seat, event type, option count, index function, winner).

    ``index function`` gives a value's index among the legal options, or None when it is not
    legal. ``winner`` is the seat a correct trick announcement would name, when one is due.
    """
    announce = game.trick_winners[-1] if (game.pending_announcement and not game.stopped) else None
    if game.stopped or game.phase == OVER or game.to_act is None:
        return None, None, 0, None, announce
    seat = game.to_act
    if game.phase == AUCTION:
        start = 0 if game.highest_bid is None else game.highest_bid + 1

        def call_index(call: int, start: int = start) -> int | None:
            if call == PASS_VALUE:
                return 0
            return call - start + 1 if call >= start else None

        return seat, "bid", 1 + 35 - start, call_index, announce
    if game.phase == PARTNER:
        if game.rules.self_partner:
            return seat, "partner", 52, (lambda card: card), announce
        own = _hand_masks([game.deal[game.declarer]])[0]

        def partner_index(card: int, own: int = own) -> int | None:
            if own >> card & 1:
                return None
            return card - (own & ((1 << card) - 1)).bit_count()

        return seat, "partner", 52 - own.bit_count(), partner_index, announce
    legal = game.legal_mask(seat)

    def play_index(card: int, legal: int = legal) -> int | None:
        if not legal >> card & 1:
            return None
        return (legal & ((1 << card) - 1)).bit_count()

    return seat, "play", legal.bit_count(), play_index, announce


def _apply(game: Game, e) -> None:
    """Push one event the way ``GameReplay.from_log`` does."""
    if game.stopped:
        return
    if isinstance(e, PlayEvent):
        game.push_play(e.seat, e.card)
    elif isinstance(e, BidEvent):
        game.push_call(e.seat, e.bid)
    elif isinstance(e, PartnerEvent):
        game.push_partner(e.seat, e.card)
    elif isinstance(e, TrickEvent):
        game.announce_trick(e.winner)


KIND_NAMES = ("bridgebot", "all-tricks", "extended", "fallback")


def code_kind(code: str) -> str | None:
    """The kind a code announces, without decoding it (``None``: not a version 1 or 2 code).

    Version 2: the body is ``127 * payload + 89`` in base 62, and 62 is a multiple of 2, so its
    last two characters give it modulo 4, and with it the kind digit (the payload modulo 4).
    Version 1: the integer is ``127 * payload + 89`` and the first letter holds it modulo 16,
    so the letter fixes the kind: ``B F J N`` bridgebot, ``A E I M`` all-tricks, ``D H L P``
    extended, ``C G K O`` fallback (a game with findings).
    """
    if code[:1] == V2_MARKER:
        tail = code[-2:]
        if len(code) < MIN_CODE_LENGTH or any(ch not in CHAR_VALUE for ch in tail):
            return None
        low = (CHAR_VALUE[tail[0]] * 62 + CHAR_VALUE[tail[1]]) % KINDS
        payload_low = (low - V2_REMAINDER) * pow(CHECK_PRIME, -1, KINDS) % KINDS
        return KIND_NAMES[payload_low]
    marker = CHAR_VALUE.get(code[:1], -1) - MARKER_FIRST
    if not 0 <= marker < MARKER_BLOCK:
        return None
    inverse = pow(CHECK_PRIME, -1, MARKER_BLOCK)
    payload_low = (marker - CHECK_REMAINDER) * inverse % MARKER_BLOCK
    return KIND_NAMES[payload_low % KINDS]


# --- decoding --------------------------------------------------------------------------------

DAMAGED = "the code is damaged (a character mistyped, lost, added or swapped?)"


def decode_code(code: str) -> GameLog:
    """The game of a version 2 or version 1 code (a bare code: no link, no ``#``).

    Raises ``CodeError`` for anything that is not exactly one game's code.
    """
    reader = DigitReader(read_payload(code))
    kind = reader.get(KINDS)
    if kind == KIND_FALLBACK:
        log = _decode_fallback(reader)
    else:
        log = _decode_clean(reader, kind)
    if reader.value:
        raise CodeError(f"{DAMAGED}: it holds more than one game")
    return log


def read_payload(code: str) -> int:
    """The text layer alone: the payload integer of a code whose characters, length and
    checksum are right (version 2, or version 1 as earlier releases wrote it); else ``CodeError``.
    """
    if not code:
        raise CodeError("empty code")
    if len(code) > MAX_CODE_LENGTH:
        raise CodeError(f"a code is at most {MAX_CODE_LENGTH} characters; this text has {len(code)}")
    first = code[0]
    if first != V2_MARKER and first not in V1_MARKERS:
        raise CodeError(
            f"{first!r} does not start a replay code (codes start with {V2_MARKER}, or with a letter "
            f"{MARKERS[0]}-{MARKERS[-1]} in codes of earlier releases; original BridgeBot codes with a "
            "digit 0-3 and hold two '-')")
    rest = code[1:]
    if not (rest.isascii() and rest.isalnum()):
        for i, ch in enumerate(rest, start=2):
            if ch not in CHAR_VALUE:
                raise CodeError(f"character {i} of the code, {ch!r}, is not allowed (codes use only 0-9, A-Z, a-z)")
    if first == V2_MARKER:
        if len(code) < MIN_CODE_LENGTH:
            raise CodeError(f"too short: a replay code has at least {MIN_CODE_LENGTH} characters, "
                            f"this one {len(code)} ({DAMAGED})")
        if len(rest) > V2_MIN_BODY and rest[0] == "0":
            raise CodeError(f"{DAMAGED}: a 0 cannot follow the first character here "
                            f"(only codes of {MIN_CODE_LENGTH} characters are padded with 0s)")
        payload, check = divmod(_from_base62(rest), CHECK_PRIME)
        if check != V2_REMAINDER:
            raise CodeError(f"checksum mismatch: {DAMAGED}")
        return payload
    if len(code) < V1_MIN_LENGTH:
        raise CodeError(f"too short: a replay code has at least {MIN_CODE_LENGTH} characters "
                        f"({V1_MIN_LENGTH} in codes of earlier releases), this one {len(code)} ({DAMAGED})")
    if rest.startswith("0"):
        raise CodeError(f"{DAMAGED}: a 0 cannot follow the first character")
    total = _from_base62(rest) * MARKER_BLOCK + CHAR_VALUE[first] - MARKER_FIRST
    payload, check = divmod(total, CHECK_PRIME)
    if check != CHECK_REMAINDER:
        raise CodeError(f"checksum mismatch: {DAMAGED}")
    return payload


_PAIR_VALUE = {a + b: CHAR_VALUE[a] * 62 + CHAR_VALUE[b] for a in ALPHABET for b in ALPHABET}


def _from_base62(text: str) -> int:
    """Base 62 digits to an integer, two characters at a time."""
    pairs = _PAIR_VALUE
    start = len(text) % 2
    value = CHAR_VALUE[text[0]] if start else 0
    for i in range(start, len(text), 2):
        value = value * 3844 + pairs[text[i:i + 2]]
    return value


def _get_rules(r: DigitReader, wash_radix: int = WASH_RADIX) -> Rules:
    preset = PRESETS[PRESET_ORDER[r.get(len(PRESET_ORDER))]]
    digit = r.get(1 + 8 * wash_radix)
    if not digit:
        return preset
    bits, wash = divmod(digit - 1, wash_radix)
    rules = replace(preset, play_all_tricks=bool(bits & 1), trump_in_first_trick=bool(bits & 2),
                    self_partner=bool(bits & 4), wash_threshold=wash)
    if not rules.overrides:
        raise CodeError(f"{DAMAGED}: its rules flags repeat the preset")
    return rules


def _get_deal(r: DigitReader) -> list[list[Card]]:
    remaining = list(CARDS)
    hands: list[list[Card]] = []
    for seat in range(3):
        positions = unrank_subset(r.get(_DEAL_RADICES[seat]), 13, 52 - 13 * seat)
        hands.append(list(map(remaining.__getitem__, positions)))
        for p in reversed(positions):  # positions are sorted: later indices go first
            del remaining[p]
    hands.append(remaining)
    return hands


_EVENT_CACHE: dict[tuple[str, int, int], Any] = {}
#: The bid and play events by seat and call or card, and the trick events by winner, filled as the decoder
#: meets them (the same objects as ``_event`` gives; list lookups instead of a tuple key).
_PLAY_EVENTS: list[list[Any]] = [[None] * 52 for _ in range(4)]
_BID_EVENTS: list[list[Any]] = [[None] * 36 for _ in range(4)]
_TRICK_EVENTS: list[Any] = [None] * 4
#: The card of each one-card mask (``mask.bit_length() - 1`` without a method call).
_CARD_OF_BIT: dict[int, int] = {1 << card: card for card in range(52)}


def _event(kind: str, seat: int, value: int) -> Any:
    """A shared, frozen event object (events carry no time in a decoded log)."""
    key = (kind, seat, value)
    event = _EVENT_CACHE.get(key)
    if event is None:
        if kind == "bid":
            event = BidEvent.model_construct(type="bid", seat=SEATS[seat], bid=CALLS[value])
        elif kind == "partner":
            event = PartnerEvent.model_construct(type="partner", seat=SEATS[seat], card=CARDS[value])
        elif kind == "play":
            event = PlayEvent.model_construct(type="play", seat=SEATS[seat], card=CARDS[value])
        else:
            event = TrickEvent.model_construct(type="trick", winner=SEATS[seat])
        _EVENT_CACHE[key] = event
    return event


#: The fields a decoded log sets, as ``GameLog.model_construct`` of them would record them.
_LOG_FIELDS_SET = frozenset(("format", "game_id", "started_at", "players", "meta", "rules", "first_bidder",
                             "hands", "events", "end"))
_HAND_FIELDS_SET = frozenset("NESW")
#: The ``End`` of each reason, made once and shared (frozen, as the events are).
_ENDS: dict[str, Any] = {}


def _make_log(rules: Rules, first_bidder: int, hands, events: list, end: str | None) -> GameLog:
    """The log, built as ``GameLog.model_construct(...)`` builds it (the same fields in the same
    order, the same fields set, no extras; a test checks they are equal in every part), with
    the core's model helper: ``model_construct`` looks up every field's aliases and defaults."""
    if end is not None:
        shared = _ENDS.get(end)
        if shared is None:
            shared = _ENDS[end] = _model(End, {"reason": end, "t": None}, {"reason"}, {})
        end = shared
    return _model(GameLog, {
        "format": FORMAT,
        "notation": "standard",
        "game_id": None,
        "started_at": None,
        "rules": rules,
        "players": {},
        "first_bidder": SEATS[first_bidder],
        "hands": _model(Hands, {"N": hands[0], "E": hands[1], "S": hands[2], "W": hands[3]},
                        set(_HAND_FIELDS_SET), None),
        "events": events,
        "end": end,
        "meta": {},
    }, set(_LOG_FIELDS_SET), {})


def _decode_clean(r: DigitReader, kind: int) -> GameLog:
    first_bidder = r.get(4)
    hands = _get_deal(r)
    stop_point: int | None = None
    end: str | None
    if kind == KIND_EXTENDED:
        rules = _get_rules(r, _wash_radix(hands))
        end_digit = r.get(EXT_END_RADIX)
        if end_digit == END_ABSENT_FINISHED:
            end = None
        elif end_digit == END_NATURAL:
            end = "completed"  # or passed_out: fixed below
        else:
            reason, stop_point = divmod(end_digit - 2, STOP_POINTS)
            end = STOP_REASONS[reason]
    else:
        rules = PRESETS[PRESET_ORDER[kind]]
        end = "completed"
    for seat, cards in enumerate(hands):
        if hand_points(cards) < rules.wash_threshold:
            raise CodeError(f"{DAMAGED}: it deals {SEATS[seat].full_name} a hand below the wash threshold")
    k = r.get(36)
    bids = unrank_subset(r.get(BINOMIAL[35][k]), k, 35)
    calls: list[int] = []
    if k:
        calls.extend([PASS_VALUE] * r.get(4))
        calls.append(bids[0])
        for bid in bids[1:]:
            calls.extend([PASS_VALUE] * r.get(3))
            calls.append(bid)
    last_bid_at = len(calls)
    stop_after: int | None = None
    if stop_point == STOP_IN_AUCTION:
        calls.extend([PASS_VALUE] * r.get(3 if k else 4))
        stop_after = len(calls)
    else:
        if k == 0:
            calls = [PASS_VALUE] * 4
        elif bids[-1] != 34:
            calls.extend([PASS_VALUE] * 3)
        if stop_point is not None:
            stop_after = len(calls) + stop_point
    if stop_after is not None and stop_after < len(calls):
        calls = calls[:stop_after]
    events: list[Any] = []
    append = events.append
    bid_events = _BID_EVENTS
    seat = first_bidder
    for call in calls:
        event = bid_events[seat][call]
        if event is None:
            event = bid_events[seat][call] = _event("bid", seat, call)
        append(event)
        seat = (seat + 1) & 3
    done = len(calls)
    limit = 10_000 if stop_after is None else stop_after
    finished = k == 0 and done == 4
    if k and done < limit:
        declarer = (first_bidder + last_bid_at - 1) & 3
        # the play, through the engine's own rules: its legal cards and its play of a card
        game = Game(hands, first_bidder, rules)
        if rules.self_partner:
            partner = r.get(52)
        else:
            own = game.hands[declarer]  # the declarer's cards, as a mask (nothing is played yet)
            partner = _select(~own & FULL_DECK_MASK, r.get(52 - own.bit_count()))
        events.append(_event("partner", declarer, partner))
        done += 1
        seat = first_bidder
        push_call = game.push_call
        for call in calls:
            push_call(seat, call)
            seat = (seat + 1) & 3
        game.push_partner(declarer, partner)
        # the reader's digits are taken inline (``DigitReader.get``: a radix of 1 reads 0)
        value = r.value
        legal_mask = game.legal_mask
        play_card = game.play_card
        play_events = _PLAY_EVENTS
        trick_events = _TRICK_EVENTS
        card_of_bit = _CARD_OF_BIT
        played = 0
        # the partner call left the game in its play; at most ``limit - done`` cards, until it ends
        for played in range(1, limit - done + 1):
            seat = game.to_act
            legal = legal_mask(seat)
            count = legal.bit_count()
            if count > 1:
                value, index = divmod(value, count)
                for _ in range(index):  # the index-th lowest legal card (``_select``)
                    legal &= legal - 1
            card = card_of_bit[legal & -legal]
            event = play_events[seat][card]
            if event is None:
                event = play_events[seat][card] = _event("play", seat, card)
            append(event)
            winner = play_card(seat, card)
            if winner is not None:  # the card finished a trick
                event = trick_events[winner]
                if event is None:
                    event = trick_events[winner] = _event("trick", winner, 0)
                append(event)
                if game.phase == OVER:
                    break
        done += played
        r.value = value
        finished = game.phase == OVER
    if stop_after is None:
        if not finished:  # cannot happen: a natural game always runs to its end
            raise CodeError(f"{DAMAGED}: the game does not reach its end")
        if end is not None and k == 0:
            end = "passed_out"
    elif done != stop_after or finished:
        raise CodeError(f"{DAMAGED}: it says the game stopped after {stop_after} actions, "
                        "which does not fit the game")
    return _make_log(rules, first_bidder, hands, events, end)


def _select(mask: int, index: int) -> int:
    """The index-th lowest card of a mask."""
    for _ in range(index):
        mask &= mask - 1
    return (mask & -mask).bit_length() - 1


def _decode_fallback(r: DigitReader) -> GameLog:
    rules = _get_rules(r)
    end = FALLBACK_ENDS[r.get(len(FALLBACK_ENDS))]
    first_bidder = r.get(4)
    if r.get(2):
        hands = _get_deal(r)
    else:
        hands = []
        for _ in range(4):
            hands.append([CARDS[r.get(52)] for _ in range(r.get(53))])
    game = Game(hands, first_bidder, rules)
    game.check_deal()
    events: list[Any] = []
    while True:
        seat, kind, count, index_of, announce = _expected(game)
        radix = count + (1 if announce is not None else 0) + 1
        digit = r.get(radix)
        if digit < count:
            if kind == "bid":
                start = 0 if game.highest_bid is None else game.highest_bid + 1
                event = _event("bid", seat, PASS_VALUE if digit == 0 else start + digit - 1)
            elif kind == "partner":
                if rules.self_partner:
                    card = digit
                else:
                    own = _hand_masks([game.deal[game.declarer]])[0]
                    card = _select(~own & ((1 << 52) - 1), digit)
                event = _event("partner", seat, card)
            else:
                event = _event("play", seat, _select(game.legal_mask(seat), digit))
        elif announce is not None and digit == count:
            event = _event("trick", announce, 0)
        else:
            raw = r.get(RAW_RADIX)
            if raw == RAW_END:
                break
            if raw < RAW_PARTNER:
                event = _event("bid", raw // 36, raw % 36)
            elif raw < RAW_PLAY:
                raw -= RAW_PARTNER
                event = _event("partner", raw // 52, raw % 52)
            elif raw < RAW_TRICK:
                raw -= RAW_PLAY
                event = _event("play", raw // 52, raw % 52)
            else:
                event = _event("trick", raw - RAW_TRICK, 0)
            # an event the compact digit could have said is never written raw
            if _compact_digit(game, event, seat, kind, index_of, announce) is not None:
                raise CodeError(f"{DAMAGED}: an event is written in a long form it never takes")
        events.append(event)
        if len(events) > MAX_EVENTS:
            raise CodeError(f"{DAMAGED}: it holds more than {MAX_EVENTS} events")
        _apply(game, event)
    return _make_log(rules, first_bidder, hands, events, end)


def _compact_digit(game: Game, event, seat, kind, index_of, announce) -> int | None:
    if isinstance(event, TrickEvent):
        return 0 if announce is not None and event.winner == announce else None
    if kind is None or event.type != kind or event.seat != seat:
        return None
    return index_of(event.bid if kind == "bid" else event.card)
