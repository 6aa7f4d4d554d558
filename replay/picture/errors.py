"""The one error of pictures and animations (its own module: every module here raises it)."""

from __future__ import annotations

from ..errors import ReplayError


class PictureError(ReplayError, ValueError):
    """A picture that cannot be drawn as asked: no such step or view, a game with no drawing,
    no scenes to animate, a bad size or speed."""
