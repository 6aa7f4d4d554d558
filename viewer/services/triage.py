"""Triage for bot developers: ``/g/<id>/triage`` (and ``/u/<token>/triage`` for uploads).

What a developer needs to see why a bot broke a rule or disagreed with the engine: every
finding with a link to its step on the board (``#<step>``), a timeline of every logged event
(time, think time, the trick winner the bot announced against the engine's, chat lines), the
engine's state at the selected step (``?step=N``) as JSON, the raw log, and a repro block.
Each page has a JSON twin (``/triage.json``).

The timeline is paged, ``TIMELINE_PAGE`` events a page (``?page=N``, from 1), so a long log
makes a page of bounded size. Without ``?page=`` the page holding the selected step's event is
shown, and every finding links to the page of its own event.

Admin pages (quarantined inputs with their errors and an escaped preview, deleting inputs and
games) need the ``ADMIN_TOKEN`` from config (``GAME_REPLAY_ADMIN_TOKEN``): sent as
``Authorization: Bearer <token>``, or entered once on ``/admin`` (kept in an ``HttpOnly``
cookie that holds an HMAC of it, never the token). Without an admin token configured, the
admin pages are off."""

from __future__ import annotations

import hashlib
import hmac
import json
import shlex
from typing import Any

from flask import Response, current_app, render_template, request

from .. import csrf
from ..app import PageError, error_response, get_archive
from ..games import NoBoardError, board_of, seat_order
from ..rows import shown_facts
from flask import has_request_context
ADMIN_COOKIE = "admin"
PREVIEW_BYTES = 600
QUARANTINE_PAGE = 50
TIMELINE_PAGE = 200


# --- the triage data ---------------------------------------------------------------------------

#: the fields the timeline has columns for (or that say nothing to a reader)
_NOT_DESCRIBED = ("type", "seat", "t")


def _written(event) -> dict[str, Any]:
    """An event's fields as the log writes them (a game's card may be a number inside, "R5" in
    its log)."""
    return event.model_dump(mode="json") if hasattr(event, "model_dump") else dict(vars(event))


def _event_text(event) -> tuple[str, str | None]:
    """An event's type and what it carries, for any game: the first field the log writes after
    its type and seat (a call, a card, a chat line...), when that is a plain value."""
    kind = getattr(event, "type", None) or "?"
    written = _written(event)
    for attribute, value in written.items():
        if attribute in _NOT_DESCRIBED or value is None:
            continue
        return (kind, str(value)) if isinstance(value, (str, int, float)) and not isinstance(value, bool) else (kind, None)
    return kind, None


def _field_text(value: Any) -> str:
    if isinstance(value, (list, tuple)):
        return " ".join(_field_text(v) for v in value) or "none"
    if isinstance(value, dict):  # a card with an id and a text...: its own words, if it has any
        for words in ("text", "name", "id"):
            if value.get(words) not in (None, ""):
                return str(value[words])
        return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    return str(value)


def describe_event(event) -> str:
    """An event in words, from its own fields, for any game: its type, then every field it has a
    value for (the event's subject, or a field named like the event, by value alone; ``None``
    and absent fields are left out, so nothing reads "None"). A game's board may word its
    events itself (``Board.event_text``); this is what the timeline shows otherwise.

    >>> from types import SimpleNamespace as E
    >>> describe_event(E(type="coins", seat="1", coins=2, t=5))
    'coins 2'
    >>> describe_event(E(type="action", seat="1", action="S", target="3"))
    'action S, target 3'
    >>> describe_event(E(type="illegal", seat="2", message="ACT|2|C|1", reason="needs 7 coins"))
    'illegal: message ACT|2|C|1, reason needs 7 coins'
    >>> describe_event(E(type="challenge", seat="3", target=None)), describe_event(E(type="play", card="H7"))
    ('challenge', 'play H7')
    >>> describe_event(E(type="draw", seat="p1", cards=[{"id": "a31", "text": "Jazz hands."}]))
    'draw: cards Jazz hands.'
    """
    kind = str(getattr(event, "type", None) or "event")
    fields = {k: v for k, v in _written(event).items() if k not in _NOT_DESCRIBED and v is not None}
    # the event's subject by value alone: the field named like the event (``coins 2``), or its
    # one plain field (a card played, a chat line, a trick's winner)
    plain = [k for k, v in fields.items() if isinstance(v, (str, int)) and not isinstance(v, bool)]
    bare = [k for k in plain if k == kind] or (plain if len(fields) == 1 else [])
    parts = [_field_text(fields[k]) for k in bare]
    parts += [f"{k} {_field_text(v)}" for k, v in fields.items() if k not in bare]
    if not parts:
        return kind
    return f"{kind} {', '.join(parts)}" if bare else f"{kind}: {', '.join(parts)}"


def _seat(value) -> str | None:
    return None if value is None else (getattr(value, "name", None) or str(value))


def clock(ms: int | None) -> str | None:
    if ms is None:
        return None
    minutes, rest = divmod(ms, 60_000)
    return f"{minutes}:{rest / 1000:04.1f}"


def _readable(replay, message: str) -> str:
    """A finding's message as the game's board writes it for readers (``♥2`` for ``H2``)."""
    try:
        return board_of(replay).readable(message)
    except NoBoardError:  # a game this viewer has no board for keeps the engine's words
        return message


def _noter(replay):
    """The game's board's ``timeline_note``, or None."""
    try:
        return board_of(replay).timeline_note
    except NoBoardError:
        return None


def _describer(replay):
    """The game's own wording of its events (``Board.event_text``), else the neutral one."""
    try:
        own = board_of(replay).event_text
    except NoBoardError:
        own = None
    if own is None:
        return describe_event
    return lambda event: own(event) or describe_event(event)


def timeline(replay) -> list[dict[str, Any]]:
    """One row per logged event: time, think time, step, and what the engine made of it.

    Any game: a move is an event with a seat that is not chat; an event the game's board notes
    (``Board.timeline_note``: an announcement the engine checks) shows that note instead, with
    ``disagrees`` when the engine disagrees, and is not a move."""
    by_event: dict[int, list[dict[str, Any]]] = {}
    for number, f in enumerate(replay.findings):
        if f.event is not None:
            by_event.setdefault(f.event, []).append({"number": number, "kind": f.kind, "message": _readable(replay, f.message)})
    event_steps = getattr(replay, "event_steps", None) or []
    rows = []
    previous: int | None = None
    describe = _describer(replay)
    note = _noter(replay)
    for i, event in enumerate(replay.log.events):
        kind, text = _event_text(event)
        t = getattr(event, "t", None)
        step = event_steps[i] if i < len(event_steps) else None
        seat = _seat(getattr(event, "seat", None))
        row: dict[str, Any] = {
            "event": i, "type": kind, "seat": seat, "text": text, "description": describe(event),
            "t": t, "clock": clock(t), "think_ms": None, "step": step, "findings": by_event.get(i, []),
        }
        noted = note(replay, event, step) if note is not None else None
        if noted is not None:
            row["note"], row["disagrees"] = noted
        if t is not None:
            if seat is not None and kind != "chat" and noted is None:
                row["think_ms"] = t - (previous or 0)
            previous = t
        rows.append(row)
    return rows


def step_state(replay, index: int) -> dict[str, Any]:
    """The engine's position at one step, as the JSON the board uses plus the step's findings."""
    state = replay.steps_json()[index]
    state["findings"] = [f.to_json() for f in replay.findings if f.step == index]
    return state


def _number_arg(value: str | None, name: str, low: int, last: int, title: str) -> int | None:
    """A whole number from the query string (range checked by the caller); None when absent."""
    if value in (None, ""):
        return None
    if not (value.isascii() and value.isdigit()) or len(value) > 6:
        raise PageError(f"{name} must be a {name} number from {low} to {last}, not {value[:20]!r}", 400, title)
    return int(value)


def event_page(event: int) -> int:
    """The timeline page (from 1) that shows an event."""
    return event // TIMELINE_PAGE + 1


def _page_of_step(replay, step: int) -> int:
    for i, event_step in enumerate(replay.event_steps):
        if event_step == step:
            return event_page(i)
    return 1


def triage_data(archived, base: str, log_url: str, step_arg: str | None,
                page_arg: str | None = None, past_end_status: int = 400) -> dict[str, Any]:
    replay = archived.replay()
    last = replay.step_count - 1
    selected = _number_arg(step_arg, "step", 0, last, "Bad step")
    if selected is not None and selected > last:
        raise PageError(f"this game has steps 0 to {last}; there is no step {selected}", past_end_status,
                        "Bad step")
    if selected is None:
        selected = replay.findings[0].step if replay.findings else last
    total = len(replay.log.events)
    pages = max(1, -(-total // TIMELINE_PAGE))
    page = _number_arg(page_arg, "page", 1, pages, "Bad page")
    if page is not None and not 1 <= page <= pages:
        raise PageError(f"this game's timeline has pages 1 to {pages}; there is no page {page}", 400, "Bad page")
    if page is None:
        page = _page_of_step(replay, selected)
    findings = []
    for number, f in enumerate(replay.findings):
        item = f.to_json()
        item["message"] = _readable(replay, f.message)
        on_page = event_page(f.event) if f.event is not None else _page_of_step(replay, f.step)
        anchor = f"#event-{f.event}" if f.event is not None else "#state"
        item.update(number=number, board_url=f"{base}#{f.step}", page=on_page,
                    select_url=f"{base}/triage?step={f.step}&page={on_page}#state",
                    event_url=f"{base}/triage?step={f.step}&page={on_page}{anchor}")
        findings.append(item)
    first = (page - 1) * TIMELINE_PAGE
    rows = timeline(replay)[first:first + TIMELINE_PAGE]

    def page_url(number: int) -> str:
        return f"{base}/triage?step={selected}&page={number}#timeline-title"

    name = (archived.public_id or "game") + ".json" if archived.listed else "game.json"
    facts = replay.outcome().facts
    return {
        "title": f"Triage: {archived.game_id or 'game'}",
        "game": {"game": archived.game, "title": replay.game.title,
                 "seats": seat_order(archived.game, archived.players),
                 "game_id": archived.game_id, "rules": archived.rules, "players": archived.players,
                 "facts": dict(facts), "shown": shown_facts(archived.game, facts, archived.players or {}),
                 "end_reason": archived.end_reason, "checked": replay.checked, "listed": archived.listed,
                 "started_at": archived.started_at.isoformat() if archived.started_at else None},
        "board_url": base,
        "log_url": log_url,
        "code_url": f"/r/{archived.code}" if archived.code else None,
        "repro": {"download": f"curl -o {shlex.quote(name)} {shlex.quote(_site() + log_url)}", "validate": f"game-replay validate {name}",
                  "replay": f"game-replay replay {name} --steps"},
        "findings": findings,
        "timeline": rows,
        # a log whose events carry no times (``t``) has nothing for Time and Think: say so
        "timed": any(getattr(event, "t", None) is not None for event in replay.log.events),
        "timeline_page": {
            "page": page, "pages": pages, "per_page": TIMELINE_PAGE, "events": total,
            "first_event": first if rows else None, "last_event": first + len(rows) - 1 if rows else None,
            "previous_url": page_url(page - 1) if page > 1 else None,
            "next_url": page_url(page + 1) if page < pages else None,
        },
        "selected": selected,
        "last_step": last,
        "state": step_state(replay, selected),
    }


def _site() -> str:
    """This site's address as the request reached it (``https://replays.example``): the repro
    line is copied into a shell, so it names the real host."""

    return request.host_url.rstrip("/") if has_request_context() else ""


def compact_json(value: dict[str, Any]) -> str:
    """An object as JSON with one line per key (hands and tricks stay on their line)."""
    lines = [f"  {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in value.items()]
    return "{\n" + ",\n".join(lines) + "\n}"


def _triage_page(data: dict[str, Any], delete_action: str | None) -> Response:
    html = render_template("triage.html", data=data, state_json=compact_json(data["state"]),
                           admin=is_admin(), delete_action=delete_action)
    response = Response(html, mimetype="text/html")
    response.headers["Cache-Control"] = "private, no-cache"
    return response


def listed_game(public_id: str):
    archived = get_archive().get(public_id) if len(public_id) <= 64 else None
    if archived is None or not archived.listed:
        raise PageError(f"there is no archived game with id {public_id!r}", 404, "No such game")
    return archived


def archived_triage_data(public_id: str) -> dict[str, Any]:
    """The triage of a listed archived game at ``?step=`` (page, .json and API alike)."""
    base = f"/g/{public_id}"
    return triage_data(listed_game(public_id), base, f"{base}/log.json", request.args.get("step"),
                       request.args.get("page"))


# --- admin -------------------------------------------------------------------------------------

def admin_token() -> str | None:
    token = current_app.config.get("ADMIN_TOKEN")
    return token if isinstance(token, str) and len(token) >= 8 else None


def _cookie_value(token: str) -> str:
    return hmac.new(token.encode(), b"game-replay admin session", hashlib.sha256).hexdigest()


def is_admin() -> bool:
    """True when this request carries the configured admin token (header or login cookie)."""
    token = admin_token()
    if token is None:
        return False
    header = request.headers.get("Authorization", "")
    if header.startswith("Bearer ") and hmac.compare_digest(header[7:].strip().encode(), token.encode()):
        return True
    cookie = request.cookies.get(ADMIN_COOKIE, "")
    return bool(cookie) and hmac.compare_digest(cookie.encode(), _cookie_value(token).encode())


def require_admin() -> None:
    """``PageError`` 403 (or 404 when admin is off) unless the request is an admin's."""
    if admin_token() is None:
        raise PageError("admin pages are off: set GAME_REPLAY_ADMIN_TOKEN to turn them on", 404, "Not found")
    if not is_admin():
        raise PageError("this needs the admin token: log in on /admin or send Authorization: Bearer <token>",
                        403, "Admin only")


def preview(raw: bytes, size: int = PREVIEW_BYTES) -> str:
    """The start of an input as text, with control characters shown as escapes (HTML-escaped later)."""
    text = raw[:size].decode("utf-8", "replace")
    out = []
    for ch in text:
        if ch in "\n\t":
            out.append(ch)
        elif ord(ch) < 32 or 0x7f <= ord(ch) < 0xa0 or ch in "\u2028\u2029\u202e\u202d\u200e\u200f":
            out.append(f"\\x{ord(ch):02x}" if ord(ch) < 256 else f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    if len(raw) > size:
        out.append(f"… ({len(raw) - size:,} more bytes)")
    return "".join(out)


def quarantine_json(offset: int) -> dict[str, Any]:
    page = get_archive().quarantine(limit=QUARANTINE_PAGE, offset=offset)
    items = []
    for q in page.items:
        item = q.to_json()
        item["preview"] = preview(q.raw)
        items.append(item)
    return {"total": page.total, "offset": offset, "items": items}


def _offset() -> int:
    value = request.args.get("offset", "0")
    if not (value.isascii() and value.isdigit()) or len(value) > 7:
        raise PageError("offset must be a whole number", 400, "Bad parameter")
    return int(value)


def _refused_admin_form() -> Response | None:
    """An admin form post needs the admin token and a valid CSRF token; the refusal, or None."""
    require_admin()
    try:
        csrf.verify()
    except csrf.CsrfError as exc:
        return error_response(str(exc), 403, "Refused")
    return None
