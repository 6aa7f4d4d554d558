"""The words "try another move" lists (``GameModule.move_text``) are the words the game's
record gives the step the move makes: for UNO Lite, Coup and hold'em, each move tried is
judged by the engine and its step's text compared; party cards name answers by their texts."""

from __future__ import annotations

import json
import random

import pytest

from replay.games import get
from replay.study import MAIN, StudyGame

#: (game, how the step's text may go on after the move's words)
GAMES = {"uno-lite": "", "coup": "; ", "holdem": ""}


def _judged_step_text(game, log, upto: int, event: dict) -> str:
    data = json.loads(log.canonical_json())
    data.pop("end", None)
    data["events"] = data["events"][:upto] + [event]
    replay = game.judge(game.parse(data, "test"))
    assert replay.findings == []
    return replay.steps_json()[-1]["text"]


@pytest.mark.parametrize("name", GAMES)
def test_a_moves_words_are_the_words_of_the_step_it_makes(name):
    game = get(name)
    rng = random.Random(name)
    compared = 0
    for seed in (0, 1):
        study = StudyGame.new(game.selfplay(seed=seed))
        main = study.line(MAIN)
        for k in range(0, main.last, 3):
            moves = study.moves(MAIN, k)
            for move in rng.sample(moves, min(4, len(moves))):
                text = _judged_step_text(game, main.log, main.cuts[k], move.event)
                assert text == move.text or text.startswith(move.text + GAMES[name]) and GAMES[name], (k, move.text, text)
                compared += 1
    assert compared > 20


def test_party_cards_answers_and_picks_read_by_their_cards_texts():
    game = get("party-cards")
    study = StudyGame.new(game.selfplay(seed=31))
    main = study.line(MAIN)
    texts = {card["id"]: card["text"] for step in main.replay.steps_json() for seat in step["hands"].values()
             for card in seat or ()}
    kinds = set()
    for k in range(main.last + 1):
        state = study.position(MAIN, k)
        for move in study.moves(MAIN, k):
            kinds.add(move.event["type"])
            if move.event["type"] == "answer":
                shown = [" ".join(texts[c].split()) for c in move.event["cards"]]
                assert all(t[:79] in move.text for t in shown), (move.text, shown)
                assert move.text.startswith(f"{move.event['seat']} answers “")
            elif move.event["type"] == "pick":
                order = state.order
                author = order[move.event["choice"] - 1]
                cards = state.submissions[author]
                assert move.text.startswith(f"{move.event['seat']} picks answer {move.event['choice']}: “")
                assert all(" ".join(texts[c].split())[:79] in move.text for c in cards)
                assert state.seats[author] not in move.text.split(":", 1)[1]
    assert {"join", "answer", "pick"} <= kinds
