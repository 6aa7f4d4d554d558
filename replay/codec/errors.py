"""The one error the codec raises."""

from __future__ import annotations

from ..errors import ReplayError


class CodeError(ReplayError, ValueError):
    """Text that is not a replay code, or a damaged one; the message says what is wrong.

    ``decode`` raises it for any input that is not a code; it is raised only where a check
    finds the problem, never put over another exception, so a bug is never disguised as one.
    """
