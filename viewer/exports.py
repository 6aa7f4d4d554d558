"""The one export route's answer: a judged game written in one of its game's ``GameModule.exports``
(bridge: PBN, LIN), by the export's name, with its media type, encoding and suffix.

The replay blueprint (``/r/<code>.<fmt>``, ``/g/<id>.<fmt>``) and the upload blueprint
(``/u/<token>.<fmt>``) both answer through :func:`export_response`; pages link to
:func:`export_links`. No game's format is named here.
"""

from __future__ import annotations

from typing import Any

from flask import Response

from replay.errors import ReplayError
from replay.games import get, names

from .errors import PageError


def export_media_types() -> tuple[str, ...]:
    """Every registered game's export media types (compressible text)."""
    return tuple(dict.fromkeys(e.media_type for name in names() for e in get(name).exports))


def export_suffixes() -> tuple[str, ...]:
    return tuple(dict.fromkeys(e.suffix for name in names() for e in get(name).exports))


def export_links(game: Any, path: str, query: str) -> list[dict[str, str]]:
    """``[{name, label, url}]``: the page's download links, one per export its game declares."""
    return [{"name": e.name, "label": e.label, "url": f"{path}.{e.name}" + (f"?{query}" if query else "")}
            for e in game.replay.game.exports]


def download(body: str | bytes, mimetype: str, filename: str) -> Response:
    response = Response(body, mimetype=mimetype)
    response.headers["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def export_response(game: Any, fmt: str) -> Response:
    """``game`` (a ``ViewedGame``) written as its game's export ``fmt``; 404 naming the exports
    there are when the game has no such export, 422 when this game cannot be written in it."""
    module = game.replay.game
    export = next((e for e in module.exports if e.name == fmt), None)
    if export is None:
        there = ", ".join(e.name for e in module.exports)
        raise PageError(f"{module.title} games have no {fmt[:20]!r} export "
                        + (f"(they have: {there})" if there else "(they have none)"), 404, "No such export")
    try:
        body = export.write(game.replay.log)
    except ReplayError as exc:
        raise PageError(f"this game cannot be written as {export.label}: {exc}", 422, "Cannot export") from None
    data = body.encode(export.encoding) if isinstance(body, str) else body
    name = (game.code or game.public_id or "game")[:40]
    response = download(data, export.media_type, f"{name}{export.suffix}")
    response.charset = export.encoding
    return response
