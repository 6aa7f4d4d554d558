"""A page's title names the game and who played, seat by seat, for every game: the log's own
seats where a game's seats vary (a 3-seat Coup game names three players, not six)."""

from __future__ import annotations

from replay.log import read_path
from tests.conftest import SAMPLE_LOGS
from viewer.view import ViewedGame


def _viewed(path):
    log = read_path(str(SAMPLE_LOGS / path))[0].log
    names = {getattr(s, "name", s): p.name for s, p in log.players.items() if p.name}
    return ViewedGame(log.replay(), names=names)


def test_a_three_seat_coup_game_names_three_players():
    viewed = _viewed("coup/selfplay/champ-3p_g11.json")
    assert viewed.seats == ("1", "2", "3")
    assert viewed.title == "Coup: honest-1, bluffer-2, random-3"


def test_party_cards_name_the_log_seats_and_bridge_its_four():
    assert _viewed("party-cards/selfplay-random-31.json").title.count(",") == 2
    assert _viewed("selfplay/kopi-bridge_2026-05-18_1.json").seats == ("N", "E", "S", "W")


def test_a_listed_coup_game_lists_only_its_seats():
    from viewer.games import seat_order

    assert seat_order("coup", {"1": {}, "2": {}, "3": {}}) == ["1", "2", "3"]
    assert seat_order("floating-bridge", {"N": {}}) == ["N", "E", "S", "W"]
