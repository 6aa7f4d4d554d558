"""The kit: what every game shares, so that a game package writes only what is its own.

- ``replay.kit.log``: the base of a log format: ``LogFormat`` (``parse``, the error places and
  messages every format writes alike, the JSON Schema and the ``python -m ...log --schema``
  tool), the ``chat`` event and the ``end`` object every format has (``chat_event``,
  ``end_model``), and the shared field types (``Open``, ``Millis``, ``short_repr``). The envelope itself
  (``started_at``, ``game_id``, canonical JSON, ``replay()``) is ``replay.envelope.Envelope``.
- ``replay.kit.replay``: the base of a judged game: ``SeatError`` (a perspective seat the game
  does not have) and ``BaseReplay`` (``game``, the steps on first use, ``winners``,
  ``is_clean``, the summary line).
- ``replay.logger.BaseLogger``: the logger's shared methods (``chat``, ``end``, ``to_dict``,
  ``to_log``, closing, stamping times, saving atomically, ``link``) and ``LoggerInputError``.
- ``replay.kit.selfplay``: one self-play loop over the engine's legal moves
  (``play_legal`` over ``GameModule.legal_events``), for bots that choose among them.
- ``replay.codec.intcode``: integer coding (mixed-radix digits, subsets, multisets).

``docs/adding-a-game.md`` says which of these a new game uses.
"""
