"""The viewer's user-facing error: what every module raises for a request it cannot answer."""

from __future__ import annotations


class PageError(Exception):
    """A request the viewer cannot answer, with a status (4xx) and a message for the user (and,
    for a game too large to show, ``download``: where its log is)."""

    download: str | None = None

    def __init__(self, message: str, status: int = 400, title: str | None = None):
        super().__init__(message)
        self.message = message
        self.status = status
        self.title = title or {400: "That is not a replay", 404: "Not found"}.get(status, "Cannot show that")
