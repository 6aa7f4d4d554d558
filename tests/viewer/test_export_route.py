"""Issue 25 item 4 "One export route": ``/r/<code>.<fmt>``, ``/g/<id>.<fmt>`` and ``/u/<token>.<fmt>``
serve any of the game's ``GameModule.exports`` by name; links on pages come from the same list."""

from __future__ import annotations

from replay.games import get

from .conftest import code_of
from .test_rows_from_game import COUP


def _coup_code() -> str:
    from replay.codec import encode
    from replay.log import read_path

    return encode(read_path(str(COUP))[0].log)


def test_every_declared_export_is_served_with_its_media_type_and_suffix(client):
    code = code_of("seed3")
    for export in get("floating-bridge").exports:
        response = client.get(f"/r/{code}.{export.name}")
        assert response.status_code == 200, export.name
        assert response.mimetype == export.media_type
        assert response.headers["Content-Disposition"].endswith(f'{export.suffix}"')
        from replay.codec import decode

        body = export.write(decode(code))
        assert response.data == (body.encode(export.encoding) if isinstance(body, str) else body)


def test_a_format_the_game_has_not_is_a_404_that_says_so(client):
    code = _coup_code()
    for fmt in ("pbn", "lin", "xyz"):
        response = client.get(f"/r/{code}.{fmt}", headers={"Accept": "application/json"})
        assert response.status_code == 404, fmt
        assert "Coup" in response.json["error"] and fmt in response.json["error"]
    unknown = client.get(f"/r/{code_of('seed3')}.xyz", headers={"Accept": "application/json"})
    assert unknown.status_code == 404 and "pbn" in unknown.json["error"]  # it says what there is


def test_export_links_come_from_the_games_exports(client):
    bridge = client.get(f"/r/{code_of('seed3')}").get_data(as_text=True)
    for export in get("floating-bridge").exports:
        assert f'.{export.name}" download>{export.label}</a>' in bridge
    coup = client.get(f"/r/{_coup_code()}").get_data(as_text=True)
    assert "download>PBN<" not in coup and "download>LIN<" not in coup


def test_archived_game_exports_through_the_same_route(client, archived):
    response = client.get(f"/g/{archived['seed3']}.lin")
    assert response.status_code == 200 and response.mimetype == get("floating-bridge").exports[1].media_type
