"""PBN and LIN exports write every logged call and card, even after a fatal finding (issue 14,
item 4), and the PBN export keeps to PBN 2.1's export format: CRLF line ends, lines of at most
255 characters, ISO-8859-1 text (issue 14, item 7)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from replay.games.floating_bridge.bots import play_game
from replay.games.floating_bridge.cards import SEATS, Seat
from replay.games.floating_bridge.formats.lin import export_lin, to_lin
from replay.games.floating_bridge.formats import pbn
from replay.games.floating_bridge.formats.pbn import export_pbn, to_pbn
from replay.log import parse_log
from replay.games.floating_bridge.log import GameLog

ROOT = Path(__file__).resolve().parents[2]
BROKEN = ROOT / "sample_logs" / "broken"


# --- games with a fatal finding -------------------------------------------------------------------

def _tampered(seed: int, how: str) -> GameLog:
    """A self-play game with one event changed so that rule checking stops at it."""
    log = play_game(seed)
    data = log.to_json_dict()
    events = data["events"]
    plays = [i for i, e in enumerate(events) if e["type"] == "play"]
    bids = [i for i, e in enumerate(events) if e["type"] == "bid"]
    if how == "card_not_in_hand":
        # the sixth card: a card its player never held (one of the next player's cards)
        i = plays[5]
        seat = Seat[events[i]["seat"]]
        other = log.hands.by_seat()[seat.next]
        events[i]["card"] = str(other[0])
    elif how == "card_played_twice":
        # the seventh card: one its player already played in the first trick
        i = plays[6]
        events[i]["card"] = next(events[j]["card"] for j in plays[:4] if events[j]["seat"] == events[i]["seat"])
    elif how == "out_of_turn":
        # the second call is made by the seat after the one whose turn it is
        i = bids[1]
        events[i]["seat"] = Seat[events[i]["seat"]].next.name
    else:  # pragma: no cover - a typo in the parametrisation
        raise AssertionError(how)
    return parse_log(data)


FATAL_GAMES = {
    **{f"{how}-{seed}": (lambda seed=seed, how=how: _tampered(seed, how))
       for seed in (3, 8, 11) for how in ("card_not_in_hand", "card_played_twice", "out_of_turn")},
    "sample-card-not-in-hand": lambda: parse_log((BROKEN / "card-not-in-hand.json").read_bytes()),
    "sample-bid-out-of-turn": lambda: parse_log((BROKEN / "bid-out-of-turn.json").read_bytes()),
}


@pytest.fixture(params=sorted(FATAL_GAMES))
def fatal_game(request) -> GameLog:
    log = FATAL_GAMES[request.param]()
    replay = log.replay()
    assert not replay.checked and any(f.fatal for f in replay.findings), request.param
    return log


def _logged_calls(log: GameLog) -> list[tuple[Seat, str]]:
    return [(e.seat, "Pass" if e.bid.is_pass else str(e.bid)) for e in log.events if e.type == "bid"]


def _logged_cards(log: GameLog) -> list[tuple[Seat, str]]:
    return [(e.seat, str(e.card)) for e in log.events if e.type == "play"]


def _section(lines: list[str], tag: str) -> tuple[str, list[str]]:
    """The value of ``[tag "..."]`` and the lines after it up to the next tag or comment."""
    for n, line in enumerate(lines):
        match = re.fullmatch(rf'\[{tag} "(.*)"\]', line)
        if match:
            body = []
            for rest in lines[n + 1:]:
                if rest.startswith("[") or rest.startswith("{") or not rest:
                    break
                body.append(rest)
            return match.group(1), body
    return "", []


def _pbn_calls(lines: list[str]) -> list[tuple[Seat, str]]:
    """The calls of the Auction section with the seat of their column (``^S`` skips a seat)."""
    first, body = _section(lines, "Auction")
    seat = Seat[first]
    calls = []
    for line in body:
        for token in re.findall(r"\^S|(?:\^I )?\S+", line):
            if token == "*":
                continue
            if token != "^S":
                calls.append((seat, token.removeprefix("^I ")))
            seat = seat.next
    return calls


def _pbn_card_lines(lines: list[str]) -> list[list[tuple[Seat, str]]]:
    """The cards of each line of the Play section, with the seat of their column."""
    leader, body = _section(lines, "Play")
    rows = []
    for line in body:
        if line == "*":
            continue
        rows.append([(SEATS[(Seat[leader] + column) & 3], token)
                     for column, token in enumerate(line.split()) if token != "-"])
    return rows


def _same_cards_in_logged_order(rows: list[list[tuple[Seat, str]]], logged: list[tuple[Seat, str]]) -> bool:
    """Each line holds the next run of logged cards (a line lists them by column, not by time)."""
    position = 0
    for row in rows:
        if sorted(row) != sorted(logged[position:position + len(row)]):
            return False
        position += len(row)
    return position == len(logged)


def test_pbn_writes_every_logged_call_and_card_after_a_fatal_finding(fatal_game):
    text = to_pbn(fatal_game)
    lines = text.splitlines()
    # every call in logged order, each in the column of the seat that made it
    assert _pbn_calls(lines) == _logged_calls(fatal_game)
    # every card in the column of the seat that played it, line by line in logged order
    assert _same_cards_in_logged_order(_pbn_card_lines(lines), _logged_cards(fatal_game))
    stop = next(f for f in fatal_game.replay().findings if f.fatal)
    comment = " ".join(re.findall(r"\{([^}]*)\}", text, re.S)).replace("\r\n", " ").replace("\n", " ")
    assert "rule checking stopped" in comment.lower() and stop.kind in comment


def test_lin_writes_every_logged_call_and_card_after_a_fatal_finding(fatal_game):
    text = to_lin(fatal_game)
    fields = text.rstrip("\n").split("|")
    pairs = list(zip(fields[0::2], fields[1::2]))
    calls = [value for key, value in pairs if key == "mb"]
    cards = [value for key, value in pairs if key == "pc"]
    lin_call = {"Pass": "p"}
    assert calls == [lin_call.get(c, c.replace("NT", "N")) for _, c in _logged_calls(fatal_game)]
    assert cards == [c for _, c in _logged_cards(fatal_game)]
    note = dict(pairs)["nt"]
    assert "rule checking stopped" in note.lower()


def test_cli_exports_every_logged_card_of_the_broken_sample(tmp_path):
    log = parse_log((BROKEN / "card-not-in-hand.json").read_bytes())
    logged = _logged_cards(log)
    assert len(logged) > len([s for s in log.replay().steps if s.kind == "play"])  # it did stop
    out = tmp_path / "game.pbn"
    _run_cli("export", str(BROKEN / "card-not-in-hand.json"), "--to", "pbn", "-o", str(out))
    lines = out.read_bytes().decode("latin-1").splitlines()
    assert _same_cards_in_logged_order(_pbn_card_lines(lines), logged)
    lin = _run_cli("export", str(BROKEN / "card-not-in-hand.json"), "--to", "lin").decode("utf-8")
    assert lin.count("|pc|") == len(logged)


def test_a_clean_game_exports_as_before():
    log = play_game(7)
    lines = to_pbn(log).splitlines()
    assert _pbn_calls(lines) == _logged_calls(log)
    assert _same_cards_in_logged_order(_pbn_card_lines(lines), _logged_cards(log))
    assert all(len(row) == 4 for row in _pbn_card_lines(lines)[:-1])  # one trick a line
    assert "rule checking stopped" not in (to_pbn(log) + to_lin(log)).lower()


# --- PBN 2.1 export format: CRLF, 255 characters, ISO-8859-1 -------------------------------------

NAMES = {
    "N": "Hana 花子",
    "E": "Zoë Ærø",
    "S": "Łukasz Żółw",
    "W": 'Иван "the \\ dealer"\t\x85\u200b😀',
}


def _named(log: GameLog, names: dict[str, str], game_id: str | None = None) -> GameLog:
    data = log.to_json_dict()
    data["players"] = {seat: {"name": name} for seat, name in names.items()}
    if game_id is not None:
        data["game_id"] = game_id
    return parse_log(data)


def _many_findings() -> GameLog:
    """A game with many (non-fatal) findings: every announced trick winner is wrong."""
    log = play_game(5)
    data = log.to_json_dict()
    for event in data["events"]:
        if event["type"] == "trick":
            event["winner"] = Seat[event["winner"]].next.name
    game = parse_log(data)
    assert len(game.replay().findings) >= 5
    return game


def _pbn_bytes(logs: list[GameLog]) -> bytes:
    """The PBN file as ISO-8859-1 bytes (the export's text must encode without loss)."""
    return export_pbn(logs).encode("latin-1")


def _lines(data: bytes) -> list[bytes]:
    assert data.endswith(b"\r\n")
    return data[:-2].split(b"\r\n")


def test_pbn_lines_end_in_crlf():
    data = _pbn_bytes([play_game(1), _many_findings(), play_game(2)])
    assert data.count(b"\n") == data.count(b"\r\n") == data.count(b"\r")
    lines = _lines(data)
    assert lines[:2] == [b"% PBN 2.1", b"% EXPORT"]
    assert lines.count(b"") == 2  # one empty line before each game but the first
    assert to_pbn(play_game(1)).count("\n") == to_pbn(play_game(1)).count("\r\n") > 20


def test_pbn_lines_fit_255_characters_and_the_findings_comment_is_wrapped():
    long_names = {"N": '"\\' * 100, "E": "x" * 200, "S": "é" * 200, "W": "y " * 100}
    game = _named(_many_findings(), long_names, game_id='"' * 200)
    data = _pbn_bytes([game, _tampered(3, "card_not_in_hand")])
    for line in _lines(data):
        assert len(line) + 2 <= 255, line[:60]
    text = data.decode("latin-1")
    comments = re.findall(r"\{[^}]*\}", text)
    assert len(comments) == 2 and text.count("{") == text.count("}") == 2  # one per game, no stray braces
    wrapped = comments[0].split("\r\n")
    assert len(wrapped) > 2, "the findings comment spans several lines"
    assert all(len(line) < 80 for comment in comments for line in comment.split("\r\n"))
    # the long values are cut, and the escapes in them are still whole
    north = re.search(r'^\[North "(.*)"\]\r$', text, re.M).group(1)
    assert re.fullmatch(r'(\\"\\\\)*(\\")?\.\.\.', north) and len(north) > 200
    assert '[East "' + "x" * 200 + '"]' in text  # short enough to stay whole


def test_pbn_text_is_iso_8859_1():
    game = _named(play_game(4), NAMES, game_id="Ставка 1")
    data = _pbn_bytes([game])
    text = data.decode("latin-1")
    # no control characters but CR LF, nothing from DEL to 0x9f
    assert not re.search(r"[\x00-\x09\x0b\x0c\x0e-\x1f\x7f-\x9f]", text)
    assert '[East "Zoë Ærø"]' in text and "Zo\xeb \xc6r\xf8".encode("latin-1") in data  # Latin-1 as is
    assert '[South "Lukasz Zólw"]' in text  # other Latin letters lose their marks (Ż, ł); ó stays
    assert '[North "Hana ??"]' in text  # other scripts: a question mark per character
    assert '[West "???? \\"the \\\\ dealer\\"  ?"]' in text
    assert '[Event "?????? 1"]' in text
    assert to_pbn(game) == text[len("% PBN 2.1\r\n% EXPORT\r\n"):]
    assert pbn.export_pbn_bytes([game]) == data


def _run_cli(*args: str) -> bytes:
    result = subprocess.run([sys.executable, "-m", "viewer.cli", *args], cwd=ROOT, capture_output=True,
                            timeout=120)
    assert result.returncode == 0, result.stderr.decode("utf-8", "replace")
    return result.stdout


def test_cli_writes_latin_1_and_crlf_to_stdout_and_to_a_file(tmp_path):
    source = tmp_path / "named.json"
    source.write_text(_named(play_game(6), NAMES).canonical_json(), encoding="utf-8")
    stdout = _run_cli("export", str(source), "--to", "pbn")
    assert b"\r\n" in stdout and stdout.count(b"\n") == stdout.count(b"\r\n")
    assert b'[East "Zo\xeb \xc6r\xf8"]\r\n' in stdout  # one byte per character, not UTF-8
    target = tmp_path / "out.pbn"
    _run_cli("export", str(source), "--to", "pbn", "-o", str(target))
    assert target.read_bytes() == stdout
    lin = _run_cli("export", str(source), "--to", "lin")
    assert lin == export_lin([parse_log(source.read_bytes())]).encode("utf-8")
