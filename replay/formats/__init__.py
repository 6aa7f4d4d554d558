"""Readers for game records written by other programs, into log format v1 (``GameLog``).

- ``bridgebot_text``: the text log the original Java BridgeBot appends after each game
  (``Player hands:`` / ``Bidding:`` / ``Trick-taking Play:`` / ``Unplayed cards:`` /
  ``Updates:``), see ``shared/spec/bridgebot-legacy.md``. ``replay.log.read_logs`` uses it for
  any file whose content starts with ``Player hands:``.
- ``pbn``: Portable Bridge Notation.
- ``lin``: BBO's LIN records.

Every reader raises ``replay.log.LogFormatError`` naming the place it could not read, and
leaves rule breaches to the engine, which reports them as findings.
"""
