"""PartyLogger: what a party-cards bot calls while a game is played.

>>> logger = PartyLogger(game_id="grp-9/cah/4", players={"p1": "Ann", "p2": "Bo", "p3": {"name": "Cy", "id": "tg:3"}},
...                      score_limit=1, hand_size=2, clock=None)
>>> logger.deal({"p1": [("a1", "Bees?"), ("a2", "Soup.")], "p2": [("a3", "A goose."), ("a4", "Glitter.")],
...              "p3": [{"id": "a5", "text": "Jazz hands."}, {"id": "a6", "text": "A kazoo solo."}]})
>>> for seat in ("p1", "p2", "p3"):
...     logger.join(seat)
>>> logger.round("p1", ("q1", "Why can't I sleep at night? ___", 1))
>>> logger.answer("p2", ["a3"]); logger.answer("p3", ["a6"])
>>> logger.reveal(["p3", "p2"]); logger.pick("p1", 2)
>>> replay = logger.end("completed", winner="p2")
>>> replay.findings, replay.winners, replay.scores
([], ['p2'], {'p1': 0, 'p2': 1, 'p3': 0})

``end()`` saves the log (when the logger has a directory) atomically with
``replay.logger.save_log``, so a half-written file is never visible, and returns the
``PartyReplay``. ``link(base)`` gives the "View the replay" link: ``{base}/r/<code>``, or, when
the code would be longer than ``LINK_CODE_LIMIT`` (2,000) characters (long games with long
card texts), the game stored through a viewer's upload API and linked by its short id
(``{base}/g/<id>``); the returned :class:`ReplayLink` says which, and the fallback is logged:

>>> link = logger.link("https://replays.example")
>>> link.stored, link.url.startswith("https://replays.example/r/g"), str(link) == link.url
(False, True, True)

Nothing refuses an illegal action: a buggy bot's game is logged as it
happened, and the engine reports its breaches. The logger refuses only what the format cannot
hold: a seat that is not in ``players``, a card that is not an id and a text, an unknown end
reason, and calls out of order. Cards are ``(id, text)`` pairs or ``{"id", "text"}`` objects;
a question is ``(id, text, pick)`` or ``{"id", "text", "pick"}``.
"""

from __future__ import annotations

import json
import logging
import os
import re
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Callable, Iterable, Mapping

from urllib.error import HTTPError, URLError
from urllib.request import Request, urlopen

from replay.codec import encode
from replay.errors import ReplayError
from replay.logger import BaseLogger, LoggerInputError, LoggerStateError

from .log import DEFAULT_HAND_SIZE, END_REASONS, FORMAT, MAX_CARD_TEXT, MAX_ID, MAX_SEAT, MAX_SEATS, MAX_TEXT


class ArchiveLinkError(ReplayError):
    """A game too long for a code could not be stored in the archive (unreachable, refused,
    or an answer without a link). ``code_url`` is the long code's link, a last resort: the
    viewer opens codes of up to 4,096 characters."""

    def __init__(self, message: str, code_url: str):
        super().__init__(message)
        self.code_url = code_url


#: codes longer than this are not put in links: the game is stored in an archive instead
LINK_CODE_LIMIT = 2000
log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ReplayLink:
    """The "View the replay" link of a game, and how it was made.

    ``stored`` is False for a code link (``code`` set) and True when the game was stored
    through an archive's upload API (``public_id`` set when the link is ``/g/<id>``; an upload
    left unlisted links ``/u/<token>``); ``delete_token`` (stored games) lets the bot delete or
    publish the upload later; ``notice`` says in words what happened. ``str(link)`` is the URL.
    """

    url: str
    stored: bool
    code: str | None = None
    public_id: str | None = None
    delete_token: str | None = None
    notice: str = ""

    def __str__(self) -> str:
        return self.url


def _card(value: Any) -> dict[str, str]:
    if isinstance(value, Mapping):
        card_id, text = value.get("id"), value.get("text")
    elif isinstance(value, (tuple, list)) and len(value) == 2:
        card_id, text = value
    else:
        raise LoggerInputError(f"{value!r} is not a card: give (id, text) or {{'id': ..., 'text': ...}}")
    if not isinstance(card_id, str) or not 0 < len(card_id) <= MAX_ID:
        raise LoggerInputError(f"{card_id!r} is not a card id (text of 1-{MAX_ID} characters)")
    if not isinstance(text, str) or len(text) > MAX_CARD_TEXT:
        raise LoggerInputError(f"the text of card {card_id!r} must be text of at most {MAX_CARD_TEXT} characters")
    return {"id": card_id, "text": text}


def _cards(values: Iterable[Any]) -> list[dict[str, str]]:
    return [_card(v) for v in values]


def _ids(values: Iterable[Any]) -> list[str]:
    out = []
    for value in values:
        if not isinstance(value, str) or not 0 < len(value) <= MAX_ID:
            raise LoggerInputError(f"{value!r} is not a card id (text of 1-{MAX_ID} characters)")
        out.append(value)
    return out


def _question(value: Any) -> dict[str, Any]:
    if isinstance(value, Mapping):
        card_id, text, pick = value.get("id"), value.get("text"), value.get("pick", 1)
    elif isinstance(value, (tuple, list)) and len(value) == 3:
        card_id, text, pick = value
    else:
        raise LoggerInputError(f"{value!r} is not a question: give (id, text, pick) or {{'id', 'text', 'pick'}}")
    card = _card((card_id, text))
    if not isinstance(pick, int) or isinstance(pick, bool) or not 1 <= pick <= 3:
        raise LoggerInputError(f"{pick!r} is not a pick count (1-3)")
    return {**card, "pick": pick}


class PartyLogger(BaseLogger):
    """Record one party-cards game as ``party-cards/1``."""

    format = FORMAT
    end_reasons = END_REASONS
    max_chat = MAX_TEXT
    before_deal = "call deal() before logging the lobby, rounds or chat"

    def __init__(
        self,
        *,
        players: Mapping[str, Any],
        score_limit: int,
        hand_size: int = DEFAULT_HAND_SIZE,
        game_id: str | None = None,
        out_dir: "str | os.PathLike[str] | None" = None,
        archive_url: str | None = None,
        started_at: datetime | None = None,
        meta: Mapping[str, Any] | None = None,
        clock: Callable[[], float] | None = time.monotonic,
    ):
        if not players or len(players) > MAX_SEATS:
            raise LoggerInputError(f"players must list 1-{MAX_SEATS} invited seats in table order")
        self.players: dict[str, dict[str, Any]] = {}
        for seat, player in players.items():
            if not isinstance(seat, str) or not 0 < len(seat) <= MAX_SEAT or any(ch.isspace() for ch in seat):
                raise LoggerInputError(f"{seat!r} is not a seat name (1-{MAX_SEAT} characters, no spaces)")
            self.players[seat] = {"name": player} if isinstance(player, str) else dict(player or {})
        for name, value in (("score_limit", score_limit), ("hand_size", hand_size)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise LoggerInputError(f"{name} must be a positive whole number, not {value!r}")
        self.score_limit = score_limit
        self.hand_size = hand_size
        self._open(game_id, out_dir, started_at, meta, clock)
        self.archive_url = archive_url  # the viewer whose POST /api/logs stores long games

    def _seat(self, value: Any) -> str:
        if isinstance(value, str) and value in self.players:
            return value
        raise LoggerInputError(f"{value!r} is not a seat of this game ({', '.join(self.players)})")

    # -- recording ---------------------------------------------------------------------------
    def deal(self, hands: Mapping[str, Iterable[Any]]) -> None:
        """The answer cards dealt to every invited seat (a hand of another size is logged as it is)."""
        self._check_open()
        by_seat = {self._seat(seat): _cards(cards) for seat, cards in hands.items()}
        self._hands = {seat: by_seat[seat] for seat in self.players if seat in by_seat}
        if self.started_at is None:
            self.started_at = datetime.now(timezone.utc).replace(microsecond=0)
        self._start = self.clock() if self.clock else None

    def join(self, seat: Any, t: int | None = None) -> None:
        self._event({"type": "join", "seat": self._seat(seat)}, t)

    def decline(self, seat: Any, t: int | None = None) -> None:
        self._event({"type": "decline", "seat": self._seat(seat)}, t)

    def swap(self, seat: Any, discard: Iterable[Any], draw: Iterable[Any], t: int | None = None) -> None:
        """The seat throws away ``discard`` (ids) and draws ``draw`` (cards)."""
        self._event({"type": "swap", "seat": self._seat(seat), "discard": _ids(discard), "draw": _cards(draw)}, t)

    def round(self, czar: Any, question: Any, t: int | None = None) -> None:
        """A round starts: its czar and its question ``(id, text, pick)``."""
        self._event({"type": "round", "czar": self._seat(czar), "question": _question(question)}, t)

    def answer(self, seat: Any, cards: Iterable[Any], t: int | None = None) -> None:
        """A submission: the ids of the cards played, in the order they fill the blanks."""
        self._event({"type": "answer", "seat": self._seat(seat), "cards": _ids(cards)}, t)

    def reveal(self, order: Iterable[Any], t: int | None = None) -> None:
        """The seats whose submissions the czar sees, in the shuffled order shown (numbered from 1)."""
        self._event({"type": "reveal", "order": [self._seat(s) for s in order]}, t)

    def pick(self, seat: Any, choice: int, t: int | None = None) -> None:
        """The czar's pick: a 1-based number in the reveal's order."""
        if not isinstance(choice, int) or isinstance(choice, bool) or abs(choice) > 2**31:
            raise LoggerInputError(f"{choice!r} is not a choice number")
        self._event({"type": "pick", "seat": self._seat(seat), "choice": choice}, t)

    def draw(self, seat: Any, cards: Iterable[Any], t: int | None = None) -> None:
        """Cards drawn after a round."""
        self._event({"type": "draw", "seat": self._seat(seat), "cards": _cards(cards)}, t)

    def leave(self, seat: Any, t: int | None = None) -> None:
        self._event({"type": "leave", "seat": self._seat(seat)}, t)


    def link(self, base: str, *, archive_url: str | None = None, publish: bool = True,
             limit: int = LINK_CODE_LIMIT, timeout: float = 10.0) -> ReplayLink:
        """The "View the replay" link of the ended game, on the viewer at ``base``.

        ``{base}/r/<code>`` when the code has at most ``limit`` characters. Past that, the game
        is uploaded to the archive at ``archive_url`` (this call's, else the logger's, else
        ``base``) with ``POST /api/logs``; with ``publish`` (the default) the upload is made
        public (``POST /api/uploads/<token>/publish``) and the link is ``{base}/g/<id>``,
        otherwise the unlisted ``{archive}/u/<token>``. The fallback is logged (INFO, logger
        ``replay.games.party_cards.logger``) and told in the result's ``notice``. Raises
        ``ArchiveLinkError`` when the archive cannot store it (its ``code_url`` is the long link).
        """
        if self.replay is None:
            raise LoggerStateError("link() needs an ended game: call end() first")
        base = base.rstrip("/")
        code = encode(self.replay.log)
        code_url = f"{base}/r/{code}"
        if len(code) <= limit:
            return ReplayLink(url=code_url, stored=False, code=code, notice="linked by its code")
        archive = (archive_url or self.archive_url or base).rstrip("/")
        body = self.replay.log.canonical_json().encode("utf-8")
        name = (re.sub(r"[^A-Za-z0-9._-]+", "_", self.game_id or "party-cards").strip("._") or "party-cards")[:80]
        answer = _post_json(f"{archive}/api/logs?name={name}.json", body, {"Content-Type": "application/json"},
                            timeout, code_url)
        try:
            game = answer["files"][0]["games"][0]
        except (KeyError, IndexError, TypeError):
            reason = _reason(answer)
            raise ArchiveLinkError(f"the archive at {archive} did not store the game: {reason}", code_url) from None
        delete_token = game.get("delete_token")
        public_id = game.get("id")
        url = None
        if public_id:
            url = f"{base}/g/{public_id}"
        elif game.get("token") and delete_token and publish:
            published = _post_json(f"{archive}/api/uploads/{game['token']}/publish", b"",
                                   {"X-Delete-Token": delete_token}, timeout, code_url)
            public_id = published.get("id")
            if not public_id:
                raise ArchiveLinkError(f"the archive at {archive} stored the game but did not publish it: "
                                       f"{_reason(published)}", code_url)
            url = f"{base}/g/{public_id}"
        elif game.get("url"):
            url = archive + game["url"]
        if url is None:
            raise ArchiveLinkError(f"the archive at {archive} answered {game.get('status', 'without a status')} "
                                   f"but gave no link to the game", code_url)
        notice = (f"the replay code would be {len(code)} characters long (over {limit}): the game was stored "
                  f"in the archive at {archive} and is linked as {url}")
        log.info("%s", notice)
        return ReplayLink(url=url, stored=True, public_id=public_id, delete_token=delete_token, notice=notice)

    # -- output ------------------------------------------------------------------------------
    def seat_name(self, value: Any) -> str:
        return self._seat(value)

    def _fields(self) -> dict[str, Any]:
        """The setup's fields of the log (``BaseLogger.to_dict`` adds the envelope's and events)."""
        data: dict[str, Any] = {}
        data["players"] = self.players
        data["score_limit"] = self.score_limit
        data["hand_size"] = self.hand_size
        data["hands"] = self._hands
        return data


def _reason(answer: Any) -> str:
    if isinstance(answer, Mapping):
        if answer.get("error"):
            return str(answer["error"])
        files = answer.get("files") or []
        if files and isinstance(files[0], Mapping) and files[0].get("reason"):
            return str(files[0]["reason"])
    return "no game in its answer"


def _post_json(url: str, body: bytes, headers: dict[str, str], timeout: float, code_url: str) -> Any:
    """POST to the archive and read its JSON answer; ``ArchiveLinkError`` says what failed."""
    if not url.startswith(("http://", "https://")):
        raise ArchiveLinkError(f"the archive address must start with http:// or https://, not {url[:40]!r}", code_url)
    request = Request(url, data=body, method="POST", headers={"Accept": "application/json", **headers})
    try:
        with urlopen(request, timeout=timeout) as response:  # noqa: S310 (http(s) only, checked above)
            return json.loads(response.read().decode("utf-8"))
    except HTTPError as exc:
        try:
            detail = _reason(json.loads(exc.read().decode("utf-8")))
        except ValueError:
            detail = exc.reason
        raise ArchiveLinkError(f"the archive refused the game ({exc.code}): {detail}", code_url) from None
    except (URLError, TimeoutError, OSError) as exc:
        raise ArchiveLinkError(f"the archive at {url.split('/api/')[0]} could not be reached: "
                               f"{getattr(exc, 'reason', exc)}", code_url) from None
    except ValueError as exc:
        raise ArchiveLinkError(f"the archive's answer is not JSON: {exc}", code_url) from None
