"""The encode/decode/export commands, links with player names, and the PBN/LIN exports."""

from __future__ import annotations

import json

import pytest

from replay.games.floating_bridge.bots import play_game
from replay.codec import decode, encode, parse_link, replay_url
from replay.games.floating_bridge.formats.lin import handviewer_url, lin_hand, to_lin
from replay.games.floating_bridge.formats.pbn import pbn_hand, to_pbn
from replay.logger import GameLogger, save_log

from .games import assert_same_game, passed_out_log
from .test_legacy import EXAMPLE


@pytest.fixture
def saved(tmp_path):
    logs = [play_game(seed, "greedy", "bridgebot" if seed % 2 else "all-tricks", interrupt_rate=0.3)
            for seed in range(6)]
    paths = [save_log(log, tmp_path) for log in logs]
    return logs, paths


def test_encode_prints_one_code_per_game_and_decode_gives_canonical_json(cli_runner, saved, tmp_path):
    logs, paths = saved
    code, out, err = cli_runner("encode", *map(str, paths))
    assert code == 0
    codes = out.split()
    assert codes == [encode(log) for log in logs]
    code, out, _ = cli_runner("decode", codes[0], "--json")
    assert code == 0
    assert json.loads(out) == decode(codes[0]).to_json_dict()
    assert_same_game(logs[0], decode(codes[0]))
    code, out, _ = cli_runner("decode", "https://replays.example/r/" + codes[1])
    assert code == 0 and "replay code" in out and "rules" in out


def test_encode_a_folder_and_a_url(cli_runner, saved, tmp_path):
    logs, _ = saved
    code, out, _ = cli_runner("encode", str(tmp_path), "--url", "https://h.example/", "--names")
    assert code == 0
    links = out.split()
    assert len(links) == len(logs)
    assert all(link.startswith("https://h.example/r/") and "?players=" in link for link in links)
    names = {decode(link).player_name(s) for link in links for s in decode(link).players}
    assert any(name.startswith("greedy-") for name in names)


def test_bad_code_exits_2_with_a_message_and_no_traceback(cli_runner):
    code, out, err = cli_runner("decode", encode(play_game(2))[:-1])
    assert code == 2
    assert "checksum mismatch" in err and "Traceback" not in err + out
    code, out, err = cli_runner("decode", EXAMPLE[:-3])
    assert code == 2 and "wrong length" in err
    code, out, err = cli_runner("encode", "/no/such/file.json")
    assert code == 2 and "no such file" in err


def test_encode_reports_unreadable_logs_and_exits_2(cli_runner, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "floating-bridge/1"}')
    code, out, err = cli_runner("encode", str(bad))
    assert code == 2 and "not a valid log" in err


def test_decode_legacy_link_prints_the_game(cli_runner):
    code, out, _ = cli_runner("decode", "https://old.example/#" + EXAMPLE)
    assert code == 0 and "original BridgeBot code" in out and "3S by N" in out


def test_export_pbn_and_lin_from_a_file_and_from_a_code(cli_runner, saved, tmp_path):
    logs, paths = saved
    code, out, _ = cli_runner("export", str(paths[0]), "--to", "pbn")
    assert code == 0 and out.startswith("% PBN 2.1") and "[Deal " in out
    code, out, _ = cli_runner("export", EXAMPLE, "--to", "lin")
    assert code == 0 and out.startswith("pn|") and "|mb|1S|" in out
    target = tmp_path / "out.pbn"
    code, _, _ = cli_runner("export", str(tmp_path), "--to", "pbn", "-o", str(target))
    data = target.read_bytes()  # PBN export format: ISO-8859-1 with CRLF line ends
    assert code == 0 and data.decode("latin-1").count("[Board ") == len(logs)
    assert data.count(b"\n") == data.count(b"\r\n") > 0
    code, _, err = cli_runner("export", str(paths[0]), "--to", "xml")
    assert code == 2


# --- links and names ----------------------------------------------------------------------------

def test_replay_url_and_names_parameter():
    logger = GameLogger(players={"N": "Ann", "E": "Bo, Jr & co", "W": "<b>Dee</b>"}, clock=None)
    log = play_game(4)
    logger.deal(log.hands.by_seat(), first_bidder=log.first_bidder)
    for event in log.events:
        if event.type == "bid":
            logger.bid(event.seat, event.bid)
        elif event.type == "partner":
            logger.partner(event.seat, event.card)
        elif event.type == "play":
            logger.play(event.seat, event.card)
    logger.end(log.end.reason)
    bare = logger.link("https://h.example", names=False)
    assert bare == "https://h.example/r/" + encode(logger.replay)
    link = logger.link("https://h.example/")
    assert "?players=Ann,Bo%2C%20Jr%20%26%20co,,%3Cb%3EDee%3C%2Fb%3E" in link
    back = decode(link)
    assert {s.name: p.name for s, p in back.players.items()} == {"N": "Ann", "E": "Bo, Jr & co", "W": "<b>Dee</b>"}
    assert_same_game(logger.replay.log, back)
    assert replay_url(logger.replay.log, "https://h.example") == bare
    # names never change the code
    assert parse_link(link)[0] == parse_link(bare)[0]


@pytest.mark.parametrize("wrap", ["{}", "#{}", " {} ", "<{}>", "https://h.example/r/{}", "https://h.example/r/{}/",
                                  "http://localhost:5000/r/{}?players=A", "{}?players=A,B",
                                  "https://h.example/#{}", "https://h.example/r/{}#", "{}).",
                                  "'https://h.example/r/{}?players=Ann'"])
def test_every_link_form_decodes(wrap):
    log = play_game(9)
    code = encode(log)
    assert_same_game(log, decode(wrap.format(code)))


def test_names_are_cleaned_and_capped():
    code = encode(play_game(1))
    back = decode(f"{code}?players=%00Ann%0A," + "x" * 500)
    assert back.player_name(back.first_bidder.__class__["N"]) == "Ann"
    assert len(back.players[back.first_bidder.__class__["E"]].name) == 200


# --- exports -------------------------------------------------------------------------------------

def test_pbn_hand_and_tags():
    from replay.games.floating_bridge.cards import Card

    hand = [Card.parse(c) for c in "SA SK S3 HQ HT H2 D8 CJ C7 C6 C5 C4 S9".split()]
    assert pbn_hand(hand) == "AK93.QT2.8.J7654"
    assert lin_hand(hand) == "SAK93HQT2D8CJ7654"
    text = to_pbn(decode(EXAMPLE))
    for tag in ('[Contract "3S"]', '[Declarer "N"]', '[Result "9"]', '[PartnerCard "SK"]',
                '[PartnerSeat "S"]', '[Rules "bridgebot"]', '[Auction "N"]', '[Play "E"]', '[Dealer "N"]'):
        assert tag in text, tag
    lines = text.splitlines()
    play = lines.index('[Play "E"]')
    assert lines[play + 1] == "H3 HA H2 H7"  # columns E, S, W, N
    assert lines[play + 2].split()[1] == "C2"  # South's C2 stays in South's column
    auction = lines.index('[Auction "N"]')
    assert lines[auction + 1:auction + 4] == ["1S Pass 2H Pass", "2S 3H Pass Pass", "3S Pass Pass Pass"]


def test_pbn_escapes_untrusted_names_and_handles_passed_out():
    log = passed_out_log(3).model_copy(update={"game_id": 'evil "id" \\ ]['})
    text = to_pbn(log)
    assert '[Event "evil \\"id\\" \\\\ ]["]' in text
    assert '[Contract "Pass"]' in text and "[Play " not in text


def test_lin_for_the_worked_example_and_handviewer_link():
    text = to_lin(decode(EXAMPLE))
    assert text.startswith("pn|,,,|st||md|3")  # dealer N is LIN's 3
    assert "|mb|1S|mb|p|mb|2H|" in text
    assert "|pc|H3|pc|HA|pc|H2|pc|H7|pg||pc|C2|" in text
    assert "partner card SK held by South" in text
    assert handviewer_url(decode(EXAMPLE)).startswith("https://www.bridgebase.com/tools/handviewer.html?lin=pn%7C")


def test_lin_strips_field_separators_from_names():
    log = play_game(5)
    data = log.to_json_dict()
    data["players"] = {"N": {"name": "a|b,c"}}
    from replay.log import parse_log

    assert "pn|,,a b c," in to_lin(parse_log(data))
