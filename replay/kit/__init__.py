"""The kit: what every game shares, so that a game package writes only what is its own.

- ``replay.kit.log``: the base of a log format: ``LogFormat`` (``parse``, the error places and
  messages every format writes alike, the JSON Schema and the ``python -m ...log --schema``
  tool), and the shared field types (``Open``, ``Millis``, ``short_repr``). The envelope itself
  (``started_at``, ``game_id``, canonical JSON, ``replay()``) is ``replay.envelope.Envelope``.
- ``replay.kit.replay``: the base of a judged game: ``SeatError`` (a perspective seat the game
  does not have) and ``BaseReplay`` (``game``, ``winners``, ``is_clean``).
- ``replay.logger.BaseLogger``: the logger's shared methods (closing, stamping times, saving,
  ``chat``, ``to_dict``, ``link``).
- ``replay.kit.selfplay``: one self-play loop over the engine's legal moves
  (``GameModule.legal_events``), for games whose bots choose among them.
- ``replay.codec.intcode``: integer coding (mixed-radix digits, subsets, multisets).

``docs/adding-a-game.md`` says which of these a new game uses.
"""
