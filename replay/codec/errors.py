"""The one error the codec raises."""

from __future__ import annotations

from ..cards import ReplayError


class CodeError(ReplayError, ValueError):
    """Text that is not a replay code, or a damaged one; the message says what is wrong.

    ``decode`` raises nothing else, whatever the input.
    """
