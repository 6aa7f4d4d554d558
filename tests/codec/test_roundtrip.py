"""decode(encode(game)) gives the same game back: 20,000 seeded games, and hypothesis games."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay.codec import decode, encode
from replay.games.floating_bridge.codec.compact import MIN_CODE_LENGTH, V2_MARKER
from replay.games.floating_bridge.engine import OVER, PARTNER, PLAY, Game
from replay.logger import GameLogger
from replay.games.floating_bridge.rules import PRESETS, Rules

from .games import assert_same_game, passed_out_log, seeded_corpus

CORPUS_SIZE = 20_000


def test_twenty_thousand_seeded_games_round_trip():
    logs = seeded_corpus(CORPUS_SIZE)
    ends: dict[str, int] = {}
    presets: dict[str, int] = {}
    for number, log in enumerate(logs):
        code = encode(log)
        assert code[0] == V2_MARKER and code.isalnum() and len(code) >= MIN_CODE_LENGTH
        back = decode(code)
        judge = number % 10 == 0  # the engine's judgement of every tenth game (the rest: the events)
        assert_same_game(log, back, judge=judge)
        if judge:
            assert back.replay().findings == []
        reason = log.end.reason if log.end is not None else "none"
        ends[reason] = ends.get(reason, 0) + 1
        presets[log.rules.name] = presets.get(log.rules.name, 0) + 1
    # the corpus really holds every kind of ending and both presets
    assert set(ends) == {"completed", "passed_out", "cancelled", "timeout", "none"}
    assert min(ends.values()) >= 100
    assert presets["bridgebot"] > 5000 and presets["all-tricks"] > 5000
    assert len(presets) >= 5  # plus rule overrides


def test_decoded_log_is_a_valid_canonical_log():
    from replay.log import parse_log

    for log in seeded_corpus(CORPUS_SIZE)[:300]:
        back = decode(encode(log))
        again = parse_log(back.to_json_dict())
        assert again.canonical_json() == back.canonical_json()
        # and encoding the decoded game gives the same code (one code per game)
        assert encode(again) == encode(log)


def test_passed_out_under_both_presets_and_without_an_end():
    for seed in range(20):
        for rules in ("bridgebot", "all-tricks"):
            log = passed_out_log(seed, rules)
            back = decode(encode(log))
            assert_same_game(log, back)
            assert back.end.reason == "passed_out"
        unended = passed_out_log(seed, end=None)
        assert decode(encode(unended)).end is None


def test_a_game_with_no_events_round_trips():
    game = Game.new_random(seed=5)
    logger = GameLogger(clock=None)
    logger.deal(game.deal, first_bidder=game.first_bidder)
    for end in ("cancelled", "timeout", "abandoned", None):
        log = logger.to_log() if end is None else logger.to_log().model_copy(
            update={"end": type(passed_out_log(0).end).model_construct(reason=end)})
        back = decode(encode(log))
        assert_same_game(log, back)


def test_names_never_go_into_the_code():
    log = passed_out_log(3)
    renamed = log.model_copy(update={"players": {}})
    assert encode(log) == encode(renamed)
    assert encode(log) == encode(log.replay())


# --- hypothesis: any sequence of legal choices, any rules, stopped anywhere ---------------------

rules_strategy = st.builds(
    lambda preset, flags, wash: Rules.from_spec({"preset": preset, **flags, **wash}),
    st.sampled_from(sorted(PRESETS)),
    st.fixed_dictionaries({}, optional={
        "play_all_tricks": st.booleans(), "trump_in_first_trick": st.booleans(),
        "self_partner": st.booleans()}),
    st.one_of(st.just({}), st.builds(lambda w: {"wash_threshold": w}, st.integers(0, 6))),
)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), rules=rules_strategy, seed=st.integers(0, 2**32 - 1))
def test_any_legal_game_round_trips(data, rules, seed):
    rng = random.Random(seed)
    game = Game.new_random(rules=rules, rng=rng)
    logger = GameLogger(rules=rules, clock=None)
    logger.deal(game.deal, first_bidder=game.first_bidder)
    stop_at = data.draw(st.one_of(st.none(), st.integers(0, 160)), label="stop_at")
    prefer_pass = data.draw(st.floats(0, 0.95), label="pass_rate")
    done = 0
    while game.phase != OVER and (stop_at is None or done < stop_at):
        seat = game.to_act
        if game.phase == PARTNER:
            options = game.legal_partner_cards()
            card = options[data.draw(st.integers(0, len(options) - 1))]
            logger.partner(seat, card)
            game.push_partner(seat, card)
        elif game.phase == PLAY:
            options = game.legal_cards()
            card = options[data.draw(st.integers(0, len(options) - 1))]
            logger.play(seat, card)
            game.push_play(seat, card)
            if not game.trick and data.draw(st.booleans()):
                logger.trick(game.trick_winners[-1])
        else:
            options = game.legal_calls()
            call = options[0] if rng.random() < prefer_pass else options[data.draw(st.integers(0, len(options) - 1))]
            logger.bid(seat, call)
            game.push_call(seat, call)
        done += 1
    if game.phase == OVER:
        end = data.draw(st.sampled_from(["natural", None]))
        if end == "natural":
            end = "passed_out" if game.passed_out else "completed"
    else:
        end = data.draw(st.sampled_from(["cancelled", "timeout", "abandoned", None]))
    log = logger.to_log() if end is None else logger.end(end).log
    code = encode(log)
    back = decode(code)
    assert_same_game(log, back)
    assert back.replay().findings == []


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 10**9), bot=st.sampled_from(["random", "greedy"]),
       preset=st.sampled_from(["bridgebot", "all-tricks"]), interrupt=st.sampled_from([0.0, 0.5, 1.0]))
def test_any_seeded_self_play_game_round_trips(seed, bot, preset, interrupt):
    from replay.games.floating_bridge.bots import play_game

    log = play_game(seed, bot, preset, interrupt_rate=interrupt)
    assert_same_game(log, decode(encode(log)))


def _constructed(log):
    """The same log built by ``model_construct``, as decoders did before they built models directly."""
    from replay.games.floating_bridge.log import End, GameLog, Hands

    return GameLog.model_construct(
        format=log.format, game_id=None, started_at=None, players={}, meta={}, rules=log.rules,
        first_bidder=log.first_bidder,
        hands=Hands.model_construct(N=log.hands.N, E=log.hands.E, S=log.hands.S, W=log.hands.W),
        events=log.events,
        end=None if log.end is None else End.model_construct(reason=log.end.reason),
    )


def test_a_decoded_log_is_built_as_model_construct_builds_it():
    # the decoder builds its models without model_construct: every part must still be the same
    # (fields in order, fields set, extras), for every end and for the shared End objects
    logs = list(seeded_corpus(400)) + [passed_out_log(1), passed_out_log(2, end=None)]
    seen_ends = set()
    for log in logs:
        back = decode(encode(log))
        model = _constructed(back)
        assert back == model
        for mine, theirs in ((back, model), (back.hands, model.hands)) + (
                ((back.end, model.end),) if back.end is not None else ()):
            assert type(mine) is type(theirs)
            assert list(mine.__dict__.items()) == list(theirs.__dict__.items())
            assert mine.__pydantic_fields_set__ == theirs.__pydantic_fields_set__
            assert mine.__pydantic_extra__ == theirs.__pydantic_extra__
            assert mine.__pydantic_private__ == theirs.__pydantic_private__
        assert back.canonical_json() == model.canonical_json()
        seen_ends.add(None if back.end is None else back.end.reason)
    assert seen_ends == {"completed", "passed_out", "cancelled", "timeout", None}
    # each decoded log has its own players and meta (never one dict shared between logs)
    first, second = decode(encode(logs[0])), decode(encode(logs[1]))
    assert first.players is not second.players and first.meta is not second.meta
