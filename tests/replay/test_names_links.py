"""Player names in links for every game (issue 24, item 2): the library and the CLI.

A link's ``players=`` lists the names in the game's own seat order (``seat_order``): bridge N
E S W, UNO P1 P2, every seat of a Coup or party table as its log lists them. Fewer names leave
the later seats unnamed, empty entries leave their seat unnamed, more names than seats raise
``NamesError`` (the CLI: exit 2 with the reason). docs/code-format.md, section 6.
"""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import quote

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay.codec import CodeError, NamesError, decode, encode, replay_url, seat_order
from replay.codec.links import format_names, names_by_seat, parse_link, parse_names
from replay.log import parse_log

from tests.conftest import SAMPLE_LOGS

BASE = "https://replays.example"
GAMES = ("floating-bridge", "uno-lite", "coup", "party-cards")


def selfplay(game: str):
    """A seeded game with a name for every seat (Coup at a 5-seat table)."""
    from replay.games import get

    module = get(game)
    if game == "floating-bridge":
        return module.selfplay(3, ("random",) * 4)
    if game == "uno-lite":
        return module.selfplay(3, ("random", "greedy"))
    if game == "coup":
        return module.selfplay(3, ("honest", "bluffer", "random"), players=5)
    return module.selfplay(3, ("random", "greedy", "random", "greedy"))


def names(log) -> dict[str, str]:
    return {getattr(seat, "name", seat): p.name for seat, p in log.players.items() if p.name}


def stripped(log) -> str:
    """The code of ``log`` with every name taken out of it (party codes carry names)."""
    from replay.log import Player

    party = log.format.startswith("party-cards/")  # its players list its seats: keep them, unnamed
    return encode(log.model_copy(update={"players": {k: Player() for k in log.players} if party else {}}))


EXPECTED_SEATS = {"floating-bridge": ("N", "E", "S", "W"), "uno-lite": ("P1", "P2"),
                  "coup": ("1", "2", "3", "4", "5"), "party-cards": ("p1", "p2", "p3", "p4")}


@pytest.mark.parametrize("game", GAMES)
def test_replay_url_names_every_seat_in_seat_order_and_decode_reads_them_back(game):
    log = selfplay(game)
    assert seat_order(log) == EXPECTED_SEATS[game]
    every = names(log)
    assert set(every) == set(EXPECTED_SEATS[game])  # the bots named every seat
    url = replay_url(log, BASE, names=True)
    assert url.endswith("?players=" + ",".join(quote(every[s], safe="") for s in seat_order(log)))
    back = decode(url)
    assert names(back) == every
    assert back.replay().to_json()["winners"] == log.replay().to_json()["winners"]
    # a name's bidi override and control characters are not written into a link
    from replay.log import Player

    players = dict(log.players)
    first = next(iter(players))
    players[first] = Player(name="\u202eAnn\x07")
    hostile = log.model_copy(update={"players": players})
    assert replay_url(hostile, BASE, names=True).split("?players=")[1].split(",")[0] == "Ann"


@pytest.mark.parametrize("game", GAMES)
def test_too_few_and_empty_names_leave_seats_unnamed_and_the_log_stays_valid(game):
    log = selfplay(game)
    code = stripped(log)
    seats = seat_order(log)
    for value, expected in (
        ("Ann", {seats[0]: "Ann"}),
        (",Bo%2C%20Jr", {seats[1]: "Bo, Jr"}),
        ("", {}),
        (",%E2%80%AE,%20", {}),  # a bidi override and a space name nobody
    ):
        decoded = decode(f"{BASE}/r/{code}?players={value}")
        assert names(decoded) == expected, value
        again = parse_log(decoded.canonical_json())  # a log the format accepts, names and all
        assert names(again) == expected and seat_order(again) == seats
        assert again.replay().findings == log.replay().findings


@pytest.mark.parametrize("game", GAMES)
def test_more_names_than_seats_are_refused_saying_why(game):
    log = selfplay(game)
    code = stripped(log)
    seats = seat_order(log)
    value = ",".join(f"N{i}" for i in range(len(seats) + 1))
    with pytest.raises(NamesError, match=f"names {len(seats) + 1} players but this game has {len(seats)} seats"):
        decode(f"{BASE}/r/{code}?players={value}")
    assert issubclass(NamesError, CodeError)
    # trailing empty entries are no names: they do not count
    assert names(decode(f"{code}?players=A" + "," * (len(seats) + 3))) == {seats[0]: "A"}


@pytest.mark.parametrize("game", GAMES)
def test_decode_takes_names_in_seat_order_or_by_seat(game):
    log = selfplay(game)
    code = stripped(log)
    seats = seat_order(log)
    assert names(decode(code, names=["Ann", "Bo"])) == {seats[0]: "Ann", seats[1]: "Bo"}
    assert names(decode(code, names={seats[-1]: "Zed"})) == {seats[-1]: "Zed"}
    with pytest.raises(NamesError, match="no seat"):
        decode(code, names={"nobody": "Zed"})


def test_a_coup_table_whose_seats_are_not_1_to_n_keeps_every_name():
    data = json.loads((SAMPLE_LOGS / "coup" / "selfplay" / "champ-3p_g11.json").read_text())
    text = json.dumps(data).replace('"1"', '"a1"').replace('"3"', '"c3"')
    log = parse_log(text)
    assert seat_order(log) == ("a1", "2", "c3")
    url = replay_url(log, BASE, names=True)
    assert url.endswith("?players=honest-1,bluffer-2,random-3")
    assert names(decode(url)) == {"a1": "honest-1", "2": "bluffer-2", "c3": "random-3"}


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.text(max_size=12), st.text(min_size=195, max_size=215)), max_size=6),
       st.integers(min_value=1, max_value=8))
def test_names_survive_a_link_in_seat_order(given_names, extra):
    """Any names (commas, percent signs, controls, bidi marks...) written into a link read back
    as the same names, cleaned, on the same seats."""
    from replay.codec.links import clean_name

    seats = tuple(f"s{i}" for i in range(len(given_names) + extra - 1))
    by_seat = {seat: name for seat, name in zip(seats, given_names)}
    if len(given_names) > len(seats):
        return
    value = format_names(by_seat, seats)
    code, read = parse_link(f"{BASE}/r/Xabc?players={value}")
    assert code == "Xabc" and read == parse_names(value)
    expected = {seat: clean_name(name) for seat, name in by_seat.items() if clean_name(name)}
    assert names_by_seat(seats, read) == expected


# --- the CLI -------------------------------------------------------------------------------------

def write_log(tmp_path: Path, game: str) -> tuple[str, object]:
    log = selfplay(game)
    path = tmp_path / f"{game}.json"
    path.write_text(log.canonical_json(), encoding="utf-8")
    return str(path), log


@pytest.mark.parametrize("game", GAMES)
def test_cli_encode_url_names_then_decode_with_all_too_few_and_too_many_names(cli_runner, tmp_path, game):
    path, log = write_log(tmp_path, game)
    seats = seat_order(log)
    # encode --url --names: every seat's name, in seat order
    status, out, err = cli_runner("encode", "--url", BASE, "--names", path)
    assert status == 0, err
    link = out.strip()
    assert link.endswith("?players=" + ",".join(quote(names(log)[s], safe="") for s in seats))
    status, out, err = cli_runner("decode", link)
    assert status == 0 and "Traceback" not in out + err
    status, out, err = cli_runner("decode", link, "--json")
    assert status == 0 and names(parse_log(out)) == names(log)
    # too few names: the first seat named, the log valid
    fewer = f"{BASE}/r/{stripped(log)}?players=Ann"
    status, out, err = cli_runner("decode", fewer, "--json")
    assert status == 0, err
    back = parse_log(out)
    assert names(back) == {seats[0]: "Ann"} and seat_order(back) == seats
    assert back.replay().findings == [] and back.replay().end_reason == log.replay().end_reason
    status, out, err = cli_runner("decode", fewer)
    assert status == 0 and "Traceback" not in out + err
    assert f"{seats[0]} Ann" in out or f"{seats[0]} (Ann)" in out  # the link's name on its seat
    # too many: exit 2 with the reason, no traceback
    more = f"{BASE}/r/{stripped(log)}?players=" + ",".join(f"N{i}" for i in range(len(seats) + 1))
    for args in ((more,), (more, "--json")):
        status, out, err = cli_runner("decode", *args)
        assert status == 2
        assert f"the link names {len(seats) + 1} players but this game has {len(seats)} seats" in out + err
        assert "Traceback" not in out + err
