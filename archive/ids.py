"""Public ids: short, non-sequential-looking ids made from row ids with hashids.

>>> ids = PublicIds("a salt")
>>> ids.decode(ids.encode(42))
42
>>> ids.decode("not-an-id") is None
True
>>> ids.decode("0" * 64) is None   # would decode past any 64-bit row id
True
"""

from __future__ import annotations

from hashids import Hashids

MIN_LENGTH = 8
#: Row ids are 64-bit signed integers in both SQLite and PostgreSQL.
MAX_ROW_ID = 2**63 - 1


class PublicIds:
    """Encode row ids as hashids with a per-deployment salt, and decode them strictly."""

    def __init__(self, salt: str):
        self._hashids = Hashids(salt=salt, min_length=MIN_LENGTH)

    @property
    def hashids(self) -> Hashids:
        """The coder itself, for ids of other things made with the same salt (``archive.studies``:
        a study id codes two numbers, so it can never decode as a game id)."""
        return self._hashids

    def encode(self, row_id: int) -> str:
        return self._hashids.encode(row_id)

    def decode(self, public_id: str) -> int | None:
        """The row id, or None for anything that is not exactly an id this salt made."""
        if not isinstance(public_id, str) or not 0 < len(public_id) <= 64 or not public_id.isalnum():
            return None
        try:
            numbers = self._hashids.decode(public_id)
        except Exception:
            return None
        if len(numbers) != 1 or not 0 < numbers[0] <= MAX_ROW_ID or self._hashids.encode(numbers[0]) != public_id:
            return None  # (a long id can decode to a number no database row can have)
        return numbers[0]
