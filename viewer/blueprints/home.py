"""``/``: paste a code or any replay link (legacy ones too), and see recent public games.

The legacy viewer's links are ``/#<code>``. A fragment never reaches the server, so the home
page's script sends ``/#<code>`` on to ``/?code=<code>``; the server reads ``?code=`` (a bare
code, ``#code``, or a whole link) and redirects to the replay.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, Response, current_app, jsonify, redirect, render_template, request

from replay.codec import parse_link

from ..app import PageError, get_archive
from ..games import game_titles
from ..rows import listed_rows
from ..services.replay import canonical_code, decode_code, players_query

bp = Blueprint("home", __name__)
GAME_LINK = re.compile(r"^(?:/embed)?/g/([A-Za-z0-9_-]{1,64})/?$")


def target_for(text: str) -> str:
    """Where pasted text leads: ``/r/<code>?names`` or ``/g/<id>``; ``PageError`` if nowhere."""
    text = text.strip()
    if not text:
        raise PageError("paste a replay code or a replay link", 400, "Nothing to open")
    parts = urlsplit(text) if ("/" in text or text.startswith("?")) else None
    if parts is not None:
        game = GAME_LINK.match(parts.path or "")
        if game:
            return f"/g/{game.group(1)}"
    log = decode_code(text)  # bare codes, #code, new and legacy links, with players=... (checked)
    given, _ = parse_link(text)
    code = canonical_code(decode_code(given), given)  # the code's own game: link names stay in the query
    query = players_query(log)
    return f"/r/{code}" + (f"?{query}" if query else "")


def recent_games() -> tuple[list[dict[str, Any]], str | None]:
    try:
        archive = get_archive()
        items = archive.recent(limit=current_app.config["RECENT_GAMES"])
    except Exception as exc:  # noqa: BLE001 - the home page still works without an archive
        current_app.logger.warning("recent games unavailable: %r", exc)
        return [], "the archive is not available right now"
    # newest game first (by when it was played; games with no date last)
    items = sorted(items, key=lambda item: (item.started_at is not None, item.started_at or 0), reverse=True)
    out = []
    for row in listed_rows(archive, items):
        out.append({
            "id": row["id"], "path": row["url"], "game": row["game"], "title": row["title"],
            "started_at": row["started_at"][:16].replace("T", " ") if row["started_at"] else None,
            "facts": row["facts"], "shown": row["shown"], "end": row["end_reason"], "findings": row["findings"],
            "players": [(seat, (row["players"].get(seat) or {}).get("name") or "") for seat in row["seats"]],
        })
    return out, None


@bp.get("/")
def index() -> Response:
    code = request.args.get("code")
    if code is not None:
        return redirect(target_for(code), 303)
    games, problem = recent_games()
    html = render_template("home.html", games=games, titles=list(game_titles().values()), problem=problem, theme=request.args.get("theme", "auto"))
    response = Response(html, mimetype="text/html")
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/index.json")
def index_json() -> Response:
    code = request.args.get("code")
    if code is not None:
        return jsonify({"location": target_for(code)})
    games, problem = recent_games()
    return jsonify({"recent": games, "problem": problem})
