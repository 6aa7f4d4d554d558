"""archive: ingest every log bots save, keep every byte, find any game fast.

The database comes from the ``url`` argument, else ``GAME_REPLAY_DB``, else
``sqlite:///var/game-replay.db`` (relative to the working directory; ``var/`` is created).
``postgresql+psycopg://user@host/db`` works the same. Opening an ``Archive`` brings the schema
up to date (Alembic ``upgrade head``; the migrations ship inside this package).

>>> from archive import Archive
>>> from replay.games.floating_bridge.bots import play_game
>>> archive = Archive("sqlite://")            # in memory
>>> data = play_game(seed=1).canonical_json(indent=1).encode()
>>> [r.status for r in archive.ingest_bytes(data, "game-1.json")]
['stored']
>>> [r.status for r in archive.ingest_bytes(data.replace(b"\\n ", b"\\n  "), "copy.json")]
['duplicate']
>>> page = archive.list(limit=10)
>>> page.total, len(page.items)
(1, 1)
>>> game = archive.get(page.items[0].public_id)
>>> game.raw == data, game.replay().result.winner is not None
(True, True)

API (all in ``archive.store`` unless said):

- ``Archive(url=None, salt=None)``. ``salt`` for the public ids: argument, else
  ``GAME_REPLAY_SALT``, else one generated on first open and kept in the ``settings`` table,
  so ids stay stable for the life of a deployment.
The facade composes parts, one per job (``archive/store.py``): ``archive.blobs`` (raw bytes,
dictionaries), ``archive.ingest`` (batches, one transaction each), ``archive.queries``,
``archive.admin`` (quarantine, retries, exports, codes, deleting and publishing) and
``archive.summaries`` (tags and counters).

- ``Archive.ingest_bytes(data, source, *, origin="file", listed=True) -> list[IngestResult]``:
  every game in one input (JSON, JSON lines, zstd of either, a game's own text format; read by
  ``replay.log.read_logs``). ``IngestResult`` has ``source`` (``path`` or ``path:line``),
  ``status`` (``"stored"``, ``"stored_with_findings"``, ``"duplicate"``, ``"quarantined"``,
  ``"rejected"``), ``public_id`` (of the stored game, or of the game a duplicate repeats),
  ``findings`` (count), ``error`` (why it was quarantined or rejected), ``new`` (False when a
  re-run found the same input already there). An input is one transaction; ``ingest_paths``
  commits batches of 512 games, each game in the batch kept apart should the database refuse it.
- ``Archive.ingest_paths(paths, progress=None) -> list[IngestResult]``: files, folders
  (recursive) and ``-`` for standard input. ``progress(done_files, total_files, results)`` is
  called after each file. Inputs over ``max_input_bytes`` (default 16 MiB) are rejected
  unread; zstd input that inflates past ``max_decompressed`` (default 16 MiB) is quarantined.
- ``Archive.get(public_id) -> ArchivedGame | None``. ``ArchivedGame`` has ``public_id``,
  ``raw`` (bytes, exactly as received), ``log`` (the game's log model), ``replay()`` (its judged
  replay), and the index fields: ``game`` (the registry's name), ``game_id``, ``started_at``
  (datetime or None), ``rules``, ``players`` (per seat ``{"name", "id", "bot", "role", "won"}``:
  the seat's role in the game's ``Outcome.roles``, None if it has none, and whether it won, None
  when nobody did), ``facts`` (every fact the game's ``Outcome.facts`` gave, ints as ints),
  ``end_reason``, ``findings`` (count), ``finding_kinds`` (sorted list), ``source``, ``origin``
  ("file" or "upload"), ``ingested_at``, ``code`` (replay code or None), ``listed`` (bool).
  ``ArchivedGame.summary()`` is the same as a JSON-ready dict.
- ``Archive.list(*, game=None, player=None, bot=None, winner=None, rules=None, end_reason=None,
  has_findings=None, finding_kind=None, started_from=None, started_to=None, listed=None,
  fact=None, <fact name>=..., sort="-started_at", limit=50, offset=0) -> Page``: the filters are
  ``archive/filters.py``'s spec (``filter_fields(game)``, checked by ``clean_filters``): the
  neutral ones, and each game's facts by name (an int fact also as a range, ``turns=">=30"``;
  ``fact`` takes them written out, ``"turns>=30"``, or a list of them). An unknown filter, a
  fact no game (or not ``game``) has and a value its ``Fact.clean`` refuses are an
  ``ArchiveError`` that says so. ``Page.items`` are ``GameSummary`` (the index fields above, no
  raw bytes). ``Page.total`` counts the matches: exactly without filters, and with filters
  exactly up to 1,000; past that it says 1,000 and ``Page.total_exact`` is False
  (``list(..., exact_total=True)`` always counts, at the cost of a scan over every match).
  ``player`` matches a seat's name or platform id exactly, case-insensitive; with ``*`` in it,
  it is a wildcard pattern (``"ali*"``, a prefix, uses the index). ``bot`` matches a bot name
  exactly (``"greedy-1"``) or by name without version (``"greedy"`` matches ``"greedy-1"``);
  ``winner`` a player or bot that won. ``started_*`` datetimes (inclusive from, exclusive to).
  ``sort`` is one of ``started_at``, ``ingested_at``, ``findings`` with an optional ``-`` for
  descending. ``Page.next_cursor`` passed back as ``cursor=`` gives the next page without
  counting through the ones before (keyset paging; ``CursorError``, an ``ArchiveError``, for a
  cursor this archive did not give). Sorted by start time, every filter but a wildcard player
  and a numeric fact range reads one range of the ``game_tags`` index (``archive/queries.py``);
  games without a start time come last, newest first, on every backend.
- ``Archive.recent(limit=20) -> list[GameSummary]``: the latest listed games (for a home
  page): ``list(listed=True, sort="-ingested_at")``.
- ``Archive.stats(by="player"|"bot", game=None) -> list[dict]``: per name ``games``, ``seats``,
  ``wins``, ``findings`` (findings tied to that name's seats) and ``think_ms`` (mean think time,
  or None); read from the ``counters`` ingest keeps up to date, never recomputed. With
  ``game``, that game's figures, and for a game with a counted role (``GameModule.counted_role``)
  ``role_games`` and ``role_won`` (seats in that role, and won in it).
- ``Archive.iter_ingest(paths) -> Iterator[(path, results)]``: what ``ingest_paths`` does,
  streaming: folders are walked as they are read and results are handed out batch by batch
  (``game-replay ingest`` uses it; memory does not grow with the number of files).
- ``Archive.count() -> int`` games stored. ``Archive.quarantine(limit=50, offset=0) -> Page``
  of ``QuarantinedInput`` (``id``, ``source``, ``origin``, ``error``, ``received_at``,
  ``size``, ``raw``). ``Archive.retry_quarantine() -> list[IngestResult]`` reads every
  quarantined input again (after a fix to the reader) and moves what now reads to the games.
- ``Archive.export(directory, inputs=False)``: every game's raw bytes, one file each
  (``<public_id>.<ext>``); with ``inputs=True`` every received input file instead, under its
  received name, byte for byte (JSON lines batches, duplicates and quarantined files included).
  ``Archive.export_jsonl(fh)`` writes canonical JSON lines. ``Archive.iter_games()`` yields
  ``(public_id, raw)`` and ``Archive.iter_inputs()`` ``(source, bytes)``.
- Upkeep: ``Archive.fill_codes()`` fills the replay code of any game stored without one;
  ``Archive.train_dictionary()`` trains a new dictionary (done automatically at 256 blobs and
  at each eightfold growth); ``Archive.recompress()``.
- Analyses (``archive/analyses.py``): ``Archive.analysis(log, replay=None, public_id=None)``
  is a game's analysis (``GameModule.analyse``), computed on first asking and kept, shared by
  every copy of the same game; ``Archive.analyse_pending(limit=None, progress=None)`` fills it
  for archived games; ``Archive.analysis_stats(by)`` gives per player or bot the analysed
  games, mistakes and what they lost (``lost``, ``lost_per_game``). Never done at ingest.
- Duplicate deals (``archive/deals.py``, ``docs/archive.md``): ingest keeps each game's deal key
  (``GameModule.deal_key``, ``games.deal_key``) and each seat's result (``deal_scores``,
  ``game_players.deal_score``). ``Archive.deal_key_of(row_id)``, ``Archive.deal_tables(key)``
  (every game of a deal, each seat's result and duplicate score),
  ``Archive.duplicate_leaderboard(game, by="bot"|"player")`` (``replay.duplicate.Leaderboard``),
  ``Archive.duplicated_games()``; ``Archive.fill_deals()`` fills archives made before them.
- CLI (``archive/cli.py``): ``game-replay ingest PATH... [--watch DIR] [-v] [--json]`` and
  ``game-replay archive list|show|stats|analyse|export|retry|fill-codes|fill-deals|retrain``, each with
  ``--db``.

How raw bytes are kept: content-addressed ``blobs`` (SHA-256 of the bytes), zstd-compressed
with a dictionary trained on the archive's own logs (``dictionaries`` table, versioned; a blob
names the dictionary it was written with, so old blobs stay readable after retraining). A
single-game file is one blob, the game's raw bytes. A JSON lines batch keeps one blob per line
(the line's bytes without its ``\\n``) and a ``receipts`` row listing the line blobs in
order, so the batch file comes back as the lines joined with ``\\n``. A zstd-compressed batch
is kept whole as received, and each game's raw bytes are its decompressed line.

Deduplication is by the SHA-256 of the game's canonical JSON (the bytes of
``GameLog.canonical_json()``), so the same game in another file, encoding or indentation is
one game. A duplicate's bytes are still kept (for its input's receipt), never as a second game.

Unlisted uploads (``archive/uploads.py``) use three columns of ``games``: ``listed`` (default
true), ``upload_token`` (nullable, unique) and ``delete_token_hash`` (nullable).
"""

from __future__ import annotations

from .store import Archive, ArchiveError, ArchivedGame, GameSummary, IngestResult, Page, QuarantinedInput

__all__ = [
    "Archive", "ArchiveError", "ArchivedGame", "GameSummary", "IngestResult", "Page",
    "QuarantinedInput",
]


