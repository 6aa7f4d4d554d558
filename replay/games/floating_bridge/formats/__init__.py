"""Other programs' game records: one reader into log format v1, two writers out of it.

- ``bridgebot_text`` (reader): the text log the original Java BridgeBot appends after each game
  (``Player hands:`` / ``Bidding:`` / ``Trick-taking Play:`` / ``Unplayed cards:`` /
  ``Updates:``), see ``shared/spec/bridgebot-legacy.md``. ``replay.log.read_logs`` uses it for
  any file whose content starts with ``Player hands:`` or ``Bidding:``. It raises
  ``replay.log.LogFormatError`` naming the line it could not read, and leaves rule breaches to
  the engine, which reports them as findings.
- ``pbn`` (writer): Portable Bridge Notation 2.1, with custom tags for the partner card, the
  partner's seat and the rules (``docs/exports.md``).
- ``lin`` (writer): BBO's LIN records, for BBO's Handviewer (``docs/exports.md`` says what
  neither format can express: floating partnerships).
"""
