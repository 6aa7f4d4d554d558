"""PHH hand histories: the samples are legal under pokerkit, .phh and .phhs read (liberally) and
written (canonically) to the same game, .phhs read hand by hand, errors name their place."""

from __future__ import annotations

import json
import tomllib
import warnings
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay.games.holdem import phh
from replay.games.holdem.cards import cards_text
from replay.games.holdem.log import HoldemLog, parse
from replay.log import LogFormatError

SAMPLES = Path(__file__).resolve().parents[3] / "sample_logs" / "holdem"
PHH_FILES = sorted(p.name for p in SAMPLES.glob("*.phh"))
JSON_FILES = sorted(p.name for p in SAMPLES.glob("*.json"))

HAND = """\
variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [50, 100, 0]
min_bet = 100
starting_stacks = [10000, 10000, 10000]
actions = ["d dh p1 Ac2d", "d dh p2 ????", "d dh p3 7h7s", "p3 cbr 300", "p1 cc", "p2 f",
           "d db 7c8d2s", "p1 cc", "p3 cbr 400", "p1 f"]
players = ["Alice", "Bob", "callbot"]
finishing_stacks = [9700, 9900, 10400]
"""


def game(log: HoldemLog) -> dict:
    """What PHH holds of a log: everything but the times and the chat."""
    data = log.to_json_dict()
    data["events"] = [{"action": e["action"]} for e in data["events"] if "action" in e]
    if "end" in data:
        data["end"].pop("t", None)
    data["players"] = {seat: {"name": p["name"]} for seat, p in data["players"].items() if p.get("name")}
    return data


# --- pokerkit agrees with every sample ---------------------------------------------------------

def pokerkit_stacks(text: str) -> list:
    """The hand played through pokerkit action by action, each one legal (no repair)."""
    from pokerkit.notation import HandHistory, parse_action

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PHH's optional fields pokerkit does not know
        history = HandHistory.loads(text)
    state = history.create_state()

    def automatic():
        while True:
            for can, do in ((state.can_post_ante, state.post_ante), (state.can_collect_bets, state.collect_bets),
                            (state.can_post_blind_or_straddle, state.post_blind_or_straddle),
                            (state.can_burn_card, lambda: state.burn_card("??")),
                            (state.can_kill_hand, state.kill_hand), (state.can_push_chips, state.push_chips),
                            (state.can_pull_chips, state.pull_chips)):
                if can():
                    do()
                    break
            else:
                return

    for action in history.actions:
        automatic()
        parse_action(state, action)  # raises ValueError on an illegal action
    automatic()
    return list(state.stacks)


def sample_texts():
    for name in PHH_FILES:
        yield name, (SAMPLES / name).read_text(encoding="utf-8")
    for part in phh.read_games((SAMPLES / "bot-table-session.phhs").read_text(encoding="utf-8")):
        yield f"bot-table-session.phhs:{part.first}", phh.write(part.log)
    for name in JSON_FILES:
        yield name, phh.write(parse(json.loads((SAMPLES / name).read_text(encoding="utf-8"))))


@pytest.mark.parametrize("name, text", list(sample_texts()), ids=lambda v: v if len(v) < 60 else "")
def test_every_sample_is_legal_under_pokerkit_and_its_stacks_are_pokerkits(name, text):
    stacks = pokerkit_stacks(text)
    log = phh.read(text, name)
    assert len(stacks) == len(log.seats)
    if log.end is None or log.end.finishing_stacks is None:
        return
    finishing = log.end.finishing_stacks
    # pokerkit takes no rake: the house's share is the only difference, and only at the winners
    rake = sum(log.starting_stacks) - sum(finishing)
    assert rake >= 0 and sum(stacks) - sum(finishing) == rake
    winnings = log.end.winnings or [0] * len(finishing)
    for mine, theirs, won in zip(finishing, stacks, winnings):
        assert mine == theirs or (won and theirs > mine)


def test_the_rake_and_the_dollars_of_the_cash_sample():
    log = phh.read((SAMPLES / "cash-6max-dollars.phh").read_text(encoding="utf-8"))
    assert log.blinds_or_straddles[:2] == [Decimal("0.25"), Decimal("0.5")]
    assert log.starting_stacks[1] == Decimal("62.35") and type(log.starting_stacks[0]) is int
    assert sum(log.starting_stacks) - sum(log.end.finishing_stacks) == Decimal("0.58")
    assert log.end.winnings[4] == Decimal("11.17")
    assert log.players["p5"].name == "hero_seat5" and log.events[4].action == "d dh p5 AhKd"
    assert log.phh_fields["time"] == "21:47:09" and log.phh_fields["currency"] == "USD"
    assert log.events[20].action == "p2 cbr 3 # a small blocking bet"


# --- reading and writing ----------------------------------------------------------------------

def test_a_hand_reads_to_the_log_the_spec_shows():
    log = phh.read(HAND, "hand.phh")
    assert log.seats == ("p1", "p2", "p3")
    assert {s: p.name for s, p in log.players.items()} == {"p1": "Alice", "p2": "Bob", "p3": "callbot"}
    assert log.actions[3] == "p3 cbr 300" and log.end.reason == "completed"
    assert log.end.finishing_stacks == [9700, 9900, 10400] and log.end.winnings is None


@pytest.mark.parametrize("name", PHH_FILES)
def test_write_then_read_is_the_same_game_and_tomllib_reads_it(name):
    log = phh.read((SAMPLES / name).read_text(encoding="utf-8"))
    text = phh.write(log)
    assert phh.read(text) == log
    table = tomllib.loads(text, parse_float=Decimal)
    assert table["actions"] == log.actions and table["variant"] == log.variant
    assert table["starting_stacks"] == log.starting_stacks


@pytest.mark.parametrize("name", JSON_FILES)
def test_a_json_log_written_as_phh_reads_back_to_the_same_game(name):
    log = parse(json.loads((SAMPLES / name).read_text(encoding="utf-8")))
    again = phh.read(phh.write(log))
    assert game(again) == game(log)


def test_the_envelope_and_an_end_the_rule_would_not_tell_are_kept():
    log = parse({"format": "holdem/1", "game_id": "t/1", "started_at": "2026-11-28T20:15:00Z", "variant": "NT",
                 "meta": {"host": "h"}, "antes": [0, 0], "blinds_or_straddles": [50, 100], "min_bet": 100,
                 "starting_stacks": [500, 500], "events": [{"action": "d dh p1 ????"}, {"action": "d dh p2 ????"}],
                 "end": {"reason": "cancelled"}})
    text = phh.write(log)
    assert '_end_reason = "cancelled"' in text and '_game_id = "t/1"' in text
    assert phh.read(text) == log
    unfinished = log.model_copy(update={"end": None})
    folded = parse({**unfinished.to_json_dict(), "events": [{"action": "d dh p1 ????"}, {"action": "d dh p2 ????"},
                                                             {"action": "p2 f"}]})
    assert folded.end is None and '_end_reason = ""' in phh.write(folded)  # the rule would say completed
    assert phh.read(phh.write(folded)) == folded
    done = parse({**folded.to_json_dict(), "end": {"reason": "completed"}})
    assert "_end_reason" not in phh.write(done) and phh.read(phh.write(done)) == done


def test_cards_are_read_liberally_and_written_canonically():
    text = HAND.replace('"d dh p1 Ac2d"', '"d dh p1 A♣ 2d"').replace('"d db 7c8d2s"', '"d db 7C 8♦ 2s"')
    log = phh.read(text)
    assert log == phh.read(HAND)
    assert '"d dh p1 Ac2d"' in phh.write(log) and '"d db 7c8d2s"' in phh.write(log)


def test_decimals_are_exact():
    text = HAND.replace("blinds_or_straddles = [50, 100, 0]", "blinds_or_straddles = [0.1, 0.2, 0]") \
               .replace("min_bet = 100", "min_bet = 0.2").replace("p3 cbr 300", "p3 cbr 0.30")
    log = phh.read(text)
    assert log.blinds_or_straddles[0] + log.blinds_or_straddles[1] == Decimal("0.3")
    assert log.actions[3] == "p3 cbr 0.3"
    written = phh.write(log)
    assert "blinds_or_straddles = [0.1, 0.2, 0]" in written and "min_bet = 0.2" in written
    assert phh.read(written) == log


def test_players_name_the_seats():
    log = phh.read(HAND.replace('["Alice", "Bob", "callbot"]', '["Alice", "", "callbot"]'))
    assert set(log.players) == {"p1", "p3"}
    assert 'players = ["Alice", "", "callbot"]' in phh.write(log)
    assert phh.read(HAND.replace('players = ["Alice", "Bob", "callbot"]\n', "")).players == {}


@pytest.mark.parametrize("actions, seats, given, reason", [
    (["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "p3 f", "p1 f"], 3, False, "completed"),
    (["d dh p1 ????", "d dh p2 ????", "d dh p3 ????", "p3 f", "p1 cc"], 3, False, None),
    (["d dh p1 ????", "d dh p2 ????", "p2 cc", "p1 cc", "d db AcKcQc", "d db 2d", "d db 3h", "p1 cc"], 2, False,
     "completed"),
    (["d dh p1 ????", "d dh p2 ????", "p2 cbr 500", "p1 cc", "p1 sm AcAd", "p2 sm KcKd"], 2, False, "completed"),
    (["d dh p1 ????", "d dh p2 ????", "p2 cc", "p1 cc", "d db AcKcQc"], 2, False, None),
    (["d dh p1 ????"], 2, True, "completed"),
    ([], 2, False, None),
])
def test_the_end_rule(actions, seats, given, reason):
    assert phh.end_reason(actions, seats, given) == reason


# --- errors -----------------------------------------------------------------------------------

def errors_of(text):
    with pytest.raises(LogFormatError) as info:
        phh.read(text, "bad.phh")
    return info.value.errors


@pytest.mark.parametrize("variant", ["PO", "NS", "F7S", "FO/8"])
def test_other_variants_are_a_clear_error_naming_the_supported_codes(variant):
    assert errors_of(HAND.replace('"NT"', f'"{variant}"')) == [
        ("variant", f"'{variant}' is not a variant of this game: the supported codes are NT (no-limit Texas hold'em) "
                    "and FT (fixed-limit Texas hold'em)")]


@pytest.mark.parametrize("change, expected", [
    (lambda t: t.replace('"p1 cc", "p2 f"', '"p1 cc", "p2 fold"'),
     [("actions[5]", "'fold' is not a hold'em action (f, cc, cbr amount, sm [cards]; the dealer: d dh pN cards, "
                     "d db cards)")]),
    (lambda t: t.replace('"p3 cbr 300"', '"p9 cbr 300"'), [("actions[3]", "p9 is not a seat of this game (p1..p3)")]),
    (lambda t: t.replace('"p3 cbr 300"', "300"),
     [("actions[3]", "300 is not an action (a PHH notation text such as 'p1 cc')")]),
    (lambda t: t.replace("[9700, 9900, 10400]", '[9700, "x", 10400]'),
     [("finishing_stacks[1]", "'x' is not an amount (a number)")]),
    (lambda t: t.replace("[10000, 10000, 10000]", "[10000, inf, 10000]"),
     [("starting_stacks[1]", "Infinity is not a finite amount")]),
    (lambda t: t.replace('"Bob"', "7"), [("players[1]", "7 is not a name (text)")]),
    (lambda t: t + 'players2 = ["x"]\nactions = []\n', None),
    (lambda t: t.replace('variant = "NT"\n', ""), [("variant", "required field is missing")]),
    (lambda t: t.replace("actions = [", "actionz = ["), [("actions", "required field is missing")]),
    (lambda t: t.replace("min_bet = 100", "min_bet = = 100"),
     [("line 4", "Invalid value (column 11): not valid TOML")]),
])
def test_errors_name_the_phh_place(change, expected):
    text = change(HAND)
    if expected is None:  # a key given twice: TOML's own error, with its line
        [(place, message)] = errors_of(text)
        assert place == "line 11" and "not valid TOML" in message
    else:
        assert errors_of(text) == expected


def test_a_text_cut_short_says_so():
    [(place, message)] = errors_of(HAND[:HAND.index("players") - 20])
    assert place.startswith("line ") and "not valid TOML" in message


def test_looks_like():
    assert phh.looks_like(HAND) and phh.looks_like("[1]\n" + HAND)
    assert not phh.looks_like('{"format": "holdem/1"}') and not phh.looks_like("variant = 'NT'\n")
    assert not phh.looks_like("[root] DECK 1 2\n")


# --- .phhs: several hands, read one at a time ---------------------------------------------------

def phhs(count: int, bad: int | None = None) -> str:
    hands = []
    for number in range(1, count + 1):
        hand = HAND.replace("players", f"hand = {number}\nplayers")
        if number == bad:
            hand = hand.replace("min_bet = 100", "min_bet = = 100")
        hands.append(f"[{number}]\n{hand}")
    return "# a session\n\n" + "\n".join(hands)


def test_a_phhs_is_one_game_per_hand_each_with_its_lines():
    text = phhs(3, bad=2)
    parts = phh.read_games(text, "s.phhs")
    assert len(parts) == 3
    assert [(p.first, p.last, p.section) for p in parts] == [(1, 14, "1"), (15, 26, "2"), (27, 38, "3")]
    assert parts[0].log.model_extra["hand"] == 1 and parts[2].log.model_extra["hand"] == 3
    assert parts[1].log is None and parts[1].error.errors == [("line 19", "Invalid value (column 11): not valid TOML")]
    lines = text.split("\n")
    for part in parts:  # each hand's lines, read alone, read as that hand
        alone = phh.read_games("\n".join(lines[part.first - 1:part.last]))
        assert len(alone) == 1 and (alone[0].log == part.log if part.log else alone[0].error is not None)
    with pytest.raises(LogFormatError, match="3 hands in one PHH text"):
        phh.read(text)


def test_a_phhs_streams():
    read_lines = []

    def lines():
        for number in range(1, 10 ** 6):  # as good as endless: reading all of it would never finish
            read_lines.append(number)
            yield f"[{number}]\n"
            yield from (line + "\n" for line in HAND.splitlines())

    hands = phh.iter_games(lines(), "big.phhs")
    first = next(hands)
    second = next(hands)
    assert first.log.actions == second.log.actions and (first.first, second.first) == (1, 11)
    assert len(read_lines) <= 3  # it read as far as the third hand's header, no further
    import gc
    import weakref
    gone = weakref.ref(first.log)
    del first
    next(hands)
    gc.collect()
    assert gone() is None  # nothing holds the hands already given


def test_a_phhs_with_nested_tables_and_brackets_in_strings():
    text = ('[1]\nvariant = "NT"\nantes = [\n  0,\n  0,\n]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n'
            'starting_stacks = [100, 100]\nactions = [\n"d dh p1 ????",\n"# [2] is not a table here",\n]\n'
            'note = """\n[3]\n"""\n[1.extra]\nx = 1\n[2]\n' + HAND)
    parts = list(phh.read_games(text))
    assert [(p.first, p.section) for p in parts] == [(1, "1"), (19, "2")]
    assert parts[0].log.model_extra["extra"] == {"x": 1} and parts[0].log.model_extra["note"] == "[3]\n"
    assert parts[0].log.actions == ["d dh p1 ????", "# [2] is not a table here"]


def test_write_games_reads_back():
    logs = [phh.read(HAND), phh.read((SAMPLES / "fixed-limit.phh").read_text(encoding="utf-8"))]
    parts = list(phh.read_games(phh.write_games(logs)))
    assert [p.log for p in parts] == logs and [p.section for p in parts] == ["1", "2"]


# --- any game written reads back to itself ------------------------------------------------------

names = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=12)
cents = st.decimals(min_value=Decimal("0.01"), max_value=Decimal("99999.99"), places=2)
amounts = st.one_of(st.integers(0, 10 ** 9), cents)
cards = st.lists(st.one_of(st.none(), st.integers(0, 51)), min_size=1, max_size=5).map(cards_text)


@st.composite
def hands(draw):
    seats = draw(st.integers(2, 10))
    seat = st.integers(1, seats).map(lambda n: f"p{n}")
    action = st.one_of(
        st.builds(lambda s, c: f"d dh {s} {c}", seat, cards), st.builds(lambda c: f"d db {c}", cards),
        st.builds(lambda s: f"{s} f", seat), st.builds(lambda s: f"{s} cc", seat),
        st.builds(lambda s, a: f"{s} cbr {a}", seat, amounts), st.builds(lambda s: f"{s} sm", seat),
        st.builds(lambda s, c: f"{s} sm {c}", seat, cards), st.builds(lambda s: f"{s} sm -", seat),
        names.filter(lambda t: t.strip() and "#" not in t).map(lambda t: f"p1 cc # {t}"))
    per_seat = st.lists(amounts, min_size=seats, max_size=seats)
    data = {"format": "holdem/1", "variant": draw(st.sampled_from(["NT", "FT"])), "antes": draw(per_seat),
            "blinds_or_straddles": draw(per_seat), "starting_stacks": draw(per_seat),
            "events": [{"action": a} for a in draw(st.lists(action, max_size=12))],
            "players": {f"p{i}": {"name": draw(names.filter(bool))} for i in range(1, seats + 1) if draw(st.booleans())}}
    if data["variant"] == "NT":
        data["min_bet"] = draw(amounts)
    else:
        data["small_bet"], data["big_bet"] = draw(amounts), draw(amounts)
    if draw(st.booleans()):
        data["end"] = {"reason": draw(st.sampled_from(["completed", "cancelled", "timeout"]))}
        if draw(st.booleans()):
            data["end"]["winnings"] = draw(per_seat)
    for key in draw(st.lists(st.sampled_from(["hand", "table", "venue", "x y", "_ü"]), unique=True)):
        data[key] = draw(st.one_of(names, st.integers(-5, 5), st.booleans(), st.lists(st.integers(0, 9), max_size=3)))
    return parse(json.loads(json.dumps(data, default=float)))


@given(hands())
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_any_hand_written_as_phh_reads_back_to_the_same_game(log):
    text = phh.write(log)
    assert game(phh.read(text)) == game(log)
    assert tomllib.loads(text)["actions"] == log.actions


@pytest.mark.parametrize("name, text", list(sample_texts()), ids=lambda v: v if len(v) < 60 else "")
def test_no_sample_deals_a_known_card_twice(name, text):
    from replay.games.holdem.log import parse_action

    dealt: dict[int, str] = {}
    for action in (parse_action(a) for a in phh.read(text).actions):
        if action.verb in ("dh", "db"):
            for card in action.cards:
                if card is not None:
                    assert card not in dealt, f"{name}: {cards_text([card])} dealt twice"
                    dealt[card] = action.verb


@pytest.mark.parametrize("text, place, message", [
    ("", "line 1", "no hand here (no variant, no actions)"),
    ('variant = "NT"\nactions = []\nstarting_stacks = [1e-30, 2]\n', "starting_stacks[0]",
     "1E-30 has more than 8 decimal places"),
    ('variant = "NT"\nactions = []\nz = ' + "[" * 5000 + "]" * 5000 + "\n", "line 1",
     "JSON nested deeper than 32 levels: not a game log"),
    ('variant = "NT"\nactions = []\nz = ' + "[" * 40 + "]" * 40 + "\n", "line 1",
     "JSON nested deeper than 32 levels: not a game log"),
])
def test_hostile_hands_are_refused_cheaply(text, place, message):
    assert errors_of(text) == [(place, message)]


# --- the samples give what sample_logs/holdem/README.md promises --------------------------------

def readme_rows() -> dict[str, list[str]]:
    rows, in_table = {}, False
    for line in (SAMPLES / "README.md").read_text(encoding="utf-8").splitlines():
        if not line.startswith("|"):
            in_table = False
            continue
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if cells[:2] == ["holdem file", "end"]:
            assert cells == ["holdem file", "end", "winners", "findings", "notes"]
            in_table = True
        elif in_table and not set(line) <= set("|-: "):
            rows[cells[0].strip("`")] = cells[1:4]
    return rows


ROWS = readme_rows()


def sample_entries():
    for path in sorted(SAMPLES.rglob("*")):
        rel = str(path.relative_to(SAMPLES.parent))
        text = path.read_text(encoding="utf-8") if path.suffix in (".json", ".phh", ".phhs") else None
        if path.suffix == ".json":
            try:
                yield rel, parse(json.loads(text))
            except LogFormatError as exc:
                yield rel, exc
        elif path.suffix == ".phh":
            try:
                yield rel, phh.read(text)
            except LogFormatError as exc:
                yield rel, exc
        elif path.suffix == ".phhs":
            for part in phh.read_games(text):
                yield f"{rel}:{part.first}", part.log or part.error


def test_every_sample_has_a_row_and_every_row_a_sample():
    assert {rel for rel, _ in sample_entries()} == set(ROWS)


@pytest.mark.parametrize("rel, log", list(sample_entries()), ids=lambda v: v if isinstance(v, str) else "")
def test_each_sample_gives_what_the_readme_promises(rel, log):
    from replay.games.holdem.engine import FINDING_KINDS
    from replay.games.holdem.replay import HoldemReplay

    end, winners, findings = ROWS[rel]
    if isinstance(log, LogFormatError):
        assert (end, winners, findings) == ("rejected", "—", f"rejected: {log}")
        return
    replay = HoldemReplay.from_log(log)
    assert (replay.end_reason or "abandoned") == end
    assert (", ".join(replay.winners) or "—") == winners
    kinds = [f"{f.kind}@{f.event}" if f.event is not None else f.kind for f in replay.findings]
    assert (", ".join(kinds) or "none") == findings
    assert {f.kind for f in replay.findings} <= set(FINDING_KINDS)


def test_the_start_time_comes_from_phhs_date_time_and_zone():
    log = phh.read((SAMPLES / "cash-6max-dollars.phh").read_text(encoding="utf-8"))
    assert log.to_json_dict()["started_at"] == "2026-11-14T21:47:09-05:00"
    assert phh.read(phh.write(log)) == log
    for zone in ("Mars/Olympus", "../../etc/passwd", "a" * 300, "[1]", "UTC\\u0000"):
        text = HAND + f'year = 2026\nmonth = 1\nday = 2\ntime = 10:00:00\ntime_zone = "{zone}"\n'
        assert phh.read(text).started_at is None
    assert phh.read(HAND + "year = 2026\nmonth = 1\nday = 2\ntime = 10:00:00\ntime_zone = [1]\n").started_at is None
    assert phh.read(HAND + 'year = 2026\nmonth = 2\nday = 30\ntime = 10:00:00\ntime_zone = "UTC"\n').started_at is None
