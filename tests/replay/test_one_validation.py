"""Issue 24, item 7: one validation, in the log models and the reader, for every entry point.

A NUL in ``game_id`` (which PostgreSQL text cannot hold) or JSON nested deeper than 32 levels
passed ``validate`` and ``ingest`` and got a 422 only on upload; UNO Lite kept ``p1`` beside
``P1`` in ``players``. Each is now refused where a log is read, with one message, the same from
``validate``, ``ingest`` (SQLite and PostgreSQL) and an upload, and nothing is stored.
"""

from __future__ import annotations

import json
from typing import Any, Callable

import pytest

from replay.games import get
from replay.log import MAX_DEPTH, LogFormatError, parse_log, read_logs

NUL = "contains a NUL character (\\u0000), which a game log's names and ids may not hold"
DEEP = "JSON nested deeper than 32 levels: not a game log"


def _nested(depth: int) -> Any:
    value: Any = "bottom"
    for level in range(depth):
        value = [value] if level % 2 else {"down": value}
    return value


def _with(game: str, change: Callable[[dict], None]) -> bytes:
    log = get(game).selfplay(5).to_json_dict()
    change(log)
    return json.dumps(log, indent=1).encode()


def _set(path: tuple, value: Any) -> Callable[[dict], None]:
    def change(log: dict) -> None:
        node = log
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    return change


def _twin_seat(log: dict) -> None:
    log["players"] = {"P1": {"name": "Ann"}, "p1": {"name": "Bob"}, "P2": {"name": "Cy"}}


#: name -> (file bytes, the one message every entry point gives)
CASES = {
    "nul-game-id": (_with("floating-bridge", _set(("game_id",), "g\u00001")), f"game_id: {NUL}"),
    "nul-player-name": (_with("coup", _set(("players", "1", "name"), "A\u0000nn")), f"players.1.name: {NUL}"),
    "nul-bot": (_with("party-cards", _set(("players", "p2", "bot"), "bot\u0000")), f"players.p2.bot: {NUL}"),
    "deep-meta": (_with("uno-lite", _set(("meta",), _nested(MAX_DEPTH))), DEEP),
    "deep-extra-field": (_with("floating-bridge", _set(("note",), _nested(40))), DEEP),
    "uno-twin-seat": (_with("uno-lite", _twin_seat), "players: 'P1' and 'p1' are the same seat (P1): a seat has one entry"),
}


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def db_url(request, tmp_path):
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'archive.db'}"
        return
    server = request.getfixturevalue("postgres_server")
    name = server.create_database()
    try:
        yield server.url(name)
    finally:
        server.drop_database(name)


def test_the_limit_is_exactly_32_levels():
    fits = _with("uno-lite", _set(("meta",), _nested(MAX_DEPTH - 1)))  # the log object is a level itself
    assert read_logs(fits, "fits.json")[0].ok
    assert str(read_logs(CASES["deep-meta"][0], "deep.json")[0].error) == DEEP


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_reader_refuses_it_from_text_bytes_and_decoded_json(case):
    data, message = CASES[case]
    for given in (data, data.decode(), json.loads(data)):
        with pytest.raises(LogFormatError) as refused:
            parse_log(given, "x.json")
        assert str(refused.value) == message
    assert str(read_logs(data, "x.json")[0].error) == message
    line = json.dumps(json.loads(data)).encode()
    assert [str(e.error) for e in read_logs(line + b"\n" + line + b"\n", "batch.jsonl")] == [message, message]


@pytest.mark.parametrize("case", sorted(CASES))
def test_validate_refuses_it(cli_runner, tmp_path, case):
    data, message = CASES[case]
    path = tmp_path / f"{case}.json"
    path.write_bytes(data)
    code, out, err = cli_runner("validate", str(path))
    assert code == 2 and f"{path}: not a valid log: {message}" in out and "Traceback" not in out + err


@pytest.mark.parametrize("case", sorted(CASES))
def test_ingest_quarantines_it_with_the_same_message(cli_runner, db_url, tmp_path, case):
    from archive import Archive

    data, message = CASES[case]
    path = tmp_path / f"{case}.json"
    path.write_bytes(data)
    code, out, err = cli_runner("ingest", str(path), "--db", db_url)
    assert code == 1 and f"quarantined: {message}" in out, (out, err)
    with Archive(db_url) as archive:
        [held] = archive.quarantine().items
        assert archive.count() == 0 and held.error == message and held.raw == data


@pytest.mark.parametrize("case", sorted(CASES))
def test_upload_refuses_it_with_the_same_message(db_url, case):
    from viewer.app import create_app

    data, message = CASES[case]
    app = create_app({"TESTING": True, "DB": db_url, "UPLOAD_RATE_PER_MINUTE": 6000, "UPLOAD_RATE_BURST": 1000})
    response = app.test_client().post(f"/api/logs?name={case}.json", data=data, content_type="application/json")
    assert response.status_code == 422 and response.json["files"][0]["reason"] == message
    with app.app_context():
        from viewer.app import get_archive

        assert get_archive().count() == 0
        get_archive().close()
