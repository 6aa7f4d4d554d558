"""The archive's tables (SQLAlchemy 2 declarative models).

The schema itself is created and changed only by the Alembic migrations in
``archive/migrations/versions``; these models describe the head revision for queries.
``tests/archive/test_store.py::test_schema_matches_models`` checks that the two agree.

Datetimes are stored as naive UTC.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
    false,
    text,
    true,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

#: An auto-incrementing 64-bit key that is SQLite's rowid there.
BigId = BigInteger().with_variant(Integer(), "sqlite")


class Base(DeclarativeBase):
    pass


class Setting(Base):
    """Per-deployment settings kept in the database (the hashids salt)."""

    __tablename__ = "settings"
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class Dictionary(Base):
    """A zstd dictionary trained on the archive's own logs. Never deleted: blobs name theirs."""

    __tablename__ = "dictionaries"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    created_at: Mapped[datetime] = mapped_column(DateTime)
    samples: Mapped[int] = mapped_column(Integer)
    data: Mapped[bytes] = mapped_column(LargeBinary)


class Blob(Base):
    """Raw bytes as received, content-addressed by SHA-256, zstd-compressed."""

    __tablename__ = "blobs"
    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    sha256: Mapped[str] = mapped_column(String(64), unique=True)
    size: Mapped[int] = mapped_column(BigInteger)
    dictionary_id: Mapped[int | None] = mapped_column(ForeignKey("dictionaries.id"))
    data: Mapped[bytes] = mapped_column(LargeBinary)


class Game(Base):
    """One game: where its raw bytes are, and the fields it is found by."""

    __tablename__ = "games"
    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    canonical_sha256: Mapped[str] = mapped_column(String(64), unique=True)
    # the registry's name (the server default: release 0.1's rows, migration 0002)
    game: Mapped[str] = mapped_column(String(40))  # the registry's name (migration 0002 named release 0.1's rows)
    raw_blob_id: Mapped[int] = mapped_column(ForeignKey("blobs.id"))
    game_id: Mapped[str | None] = mapped_column(String(200))
    started_at: Mapped[datetime | None] = mapped_column(DateTime)
    rules: Mapped[str] = mapped_column(String(100))  # Rules.name: preset plus overrides
    players: Mapped[str] = mapped_column(Text)  # JSON {"N": {"name", "id", "bot"}, ...}
    end_reason: Mapped[str] = mapped_column(String(20))
    findings: Mapped[int] = mapped_column(Integer, default=0)
    finding_kinds: Mapped[str] = mapped_column(Text, default="")  # comma-separated, sorted
    source: Mapped[str] = mapped_column(Text)
    origin: Mapped[str] = mapped_column(String(10))
    ingested_at: Mapped[datetime] = mapped_column(DateTime)
    code: Mapped[str | None] = mapped_column(Text)
    listed: Mapped[bool] = mapped_column(Boolean, server_default=true(), default=True)
    upload_token: Mapped[str | None] = mapped_column(String(64), unique=True)
    delete_token_hash: Mapped[str | None] = mapped_column(String(128))
    #: the deal's fingerprint (``GameModule.deal_key``; migration 0015): games of one deal share it
    deal_key: Mapped[str | None] = mapped_column(String(24))

    __table_args__ = (
        Index("ix_games_started", "started_at", "id"),
        Index("ix_games_game_started", "game", "started_at", "id"),
        Index("ix_games_ingested", "ingested_at", "id"),
        Index("ix_games_rules_started", "rules", "started_at"),
        Index("ix_games_end_reason", "end_reason", "started_at"),
        Index("ix_games_findings", "findings"),
        Index("ix_games_raw_blob", "raw_blob_id"),
        # every table of one deal; the keyed games of one game (``archive/deals.py``, migration 0015)
        Index("ix_games_deal_key", "deal_key", "id", postgresql_where=text("deal_key IS NOT NULL"),
              sqlite_where=text("deal_key IS NOT NULL")),
        Index("ix_games_game_deal_key", "game", "deal_key", "id", postgresql_where=text("deal_key IS NOT NULL"),
              sqlite_where=text("deal_key IS NOT NULL")),
    )


class GamePlayer(Base):
    """A seat of a game, lower-cased copies for case-insensitive search."""

    __tablename__ = "game_players"
    # no foreign key (migration 0011): written with its game, deleted with it by Admin.delete_row
    game_id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=False)
    seat: Mapped[str] = mapped_column(String(10), primary_key=True)
    name: Mapped[str | None] = mapped_column(String(200))
    name_lc: Mapped[str | None] = mapped_column(String(200))
    player_id: Mapped[str | None] = mapped_column(String(200))
    player_id_lc: Mapped[str | None] = mapped_column(String(200))
    bot: Mapped[str | None] = mapped_column(String(200))
    bot_lc: Mapped[str | None] = mapped_column(String(200))
    bot_base_lc: Mapped[str | None] = mapped_column(String(200))  # bot name without "-version"
    role: Mapped[str | None] = mapped_column(String(20))  # the game's role for the seat, if any
    won: Mapped[bool | None] = mapped_column(Boolean)  # None: nobody won (cancelled, passed out...)
    # the seat's think times in ms, comma-separated ("" none logged; NULL: stored before 0006)
    think_ms: Mapped[str | None] = mapped_column(Text)
    #: the seat's result on the game's scale (``GameModule.deal_scores``; None: none; migration 0015)
    deal_score: Mapped[float | None] = mapped_column(Float)

    __table_args__ = (
        Index("ix_players_name", "name_lc", "game_id"),
        Index("ix_players_id", "player_id_lc", "game_id"),
        Index("ix_players_bot", "bot_lc", "game_id"),
        Index("ix_players_bot_base", "bot_base_lc", "bot_lc", "game_id"),
    )


class GameFinding(Base):
    """One finding of a game (kind and seat), for filters and stats."""

    __tablename__ = "game_findings"
    # no foreign key (migration 0011): written with its game, deleted with it by Admin.delete_row
    game_id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=False)
    number: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    kind: Mapped[str] = mapped_column(String(40))
    seat: Mapped[str | None] = mapped_column(String(10))

    __table_args__ = (Index("ix_findings_kind", "kind", "game_id"),)


class GameFact(Base):
    """One of a game's own values worth filtering on (``GameModule.facts``: turns, winner...).

    Each game module names its facts (``Outcome.facts``); numbers are also kept in ``num`` so
    that ranges (``turns>=30``) use an index. No migration is needed for a new game's facts.
    """

    __tablename__ = "game_facts"
    # no foreign key (migration 0011): written with its game, deleted with it by Admin.delete_row
    game_id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=False)
    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(String(200))
    num: Mapped[int | None] = mapped_column(BigInteger)

    __table_args__ = (
        Index("ix_facts_value", "name", "value", "game_id"),
        Index("ix_facts_num", "name", "num", "game_id"),
    )


class GameSeatCount(Base):
    """One counter of one seat of a game (``Outcome.counts``): what a game's ``seat_figures``
    (hands dealt, hands played, showdowns won...) are summed from. Written with its game,
    deleted with it by Admin.delete_row; no migration is needed for a new game's counters."""

    __tablename__ = "game_seat_counts"
    game_id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=False)
    seat: Mapped[str] = mapped_column(String(10), primary_key=True)
    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[int] = mapped_column(BigInteger)


class Receipt(Base):
    """One input as received: its bytes come back as the listed blobs joined by ``\\n``."""

    __tablename__ = "receipts"
    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    sha256: Mapped[str] = mapped_column(String(64), unique=True)
    source: Mapped[str] = mapped_column(Text)
    origin: Mapped[str] = mapped_column(String(10))
    received_at: Mapped[datetime] = mapped_column(DateTime)
    size: Mapped[int] = mapped_column(BigInteger)
    blob_ids: Mapped[str] = mapped_column(Text)  # JSON list of blob ids, one per line


class Quarantined(Base):
    """Input that could not be read as a game: its raw bytes, its error and its source."""

    __tablename__ = "quarantine"
    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    blob_id: Mapped[int] = mapped_column(ForeignKey("blobs.id"), unique=True)
    source: Mapped[str] = mapped_column(Text)
    origin: Mapped[str] = mapped_column(String(10))
    error: Mapped[str] = mapped_column(Text)
    received_at: Mapped[datetime] = mapped_column(DateTime)
    resolved_at: Mapped[datetime | None] = mapped_column(DateTime)
    resolved: Mapped[bool] = mapped_column(Boolean, server_default=false(), default=False)

    __table_args__ = (Index("ix_quarantine_open", "resolved", "id"),)


class Rating(Base):
    """A bot's or a player's current rating within one game (``archive/ratings.py``).

    ``kind`` is ``bot`` (keyed by the bot as stored, name and version) or ``player`` (keyed by
    the player's name, people and bots alike). Kept up to date by ``Archive.refresh_ratings``.
    """

    __tablename__ = "ratings"
    game: Mapped[str] = mapped_column(String(40), primary_key=True)
    kind: Mapped[str] = mapped_column(String(10), primary_key=True)
    name: Mapped[str] = mapped_column(String(200), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float)  # mu - 3 sigma: what the leaderboard sorts by
    games: Mapped[int] = mapped_column(Integer)  # decided games played (nobody-won games left out)
    wins: Mapped[int] = mapped_column(Integer)
    rated: Mapped[int] = mapped_column(Integer)  # games that moved the rating (see ratings.py)
    score: Mapped[float] = mapped_column(Float)  # the zero-sum championship score
    last_game_id: Mapped[int] = mapped_column(BigInteger)

    __table_args__ = (Index("ix_ratings_rank", "game", "kind", "ordinal"),)


class RatingHistory(Base):
    """A rating after one rated game: one row per bot (or player) per rated game."""

    __tablename__ = "rating_history"
    # no foreign key (migration 0011): written with its game, deleted with it by Admin.delete_row
    game_id: Mapped[int] = mapped_column(BigId, primary_key=True, autoincrement=False)
    kind: Mapped[str] = mapped_column(String(10), primary_key=True)
    name: Mapped[str] = mapped_column(String(200), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    ordinal: Mapped[float] = mapped_column(Float)

    __table_args__ = (Index("ix_rating_history_name", "kind", "name", "game", "game_id"),)


class RatingWatermark(Base):
    """How far the ratings got: one row (id 1). ``last_game_id`` is the last game row looked at;
    ``games`` and ``id_sum`` are the count and id sum of the listed games up to it, so that a
    game committed late with a lower id, one published or deleted since, shows as a change."""

    __tablename__ = "rating_watermark"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    last_game_id: Mapped[int] = mapped_column(BigInteger)
    games: Mapped[int] = mapped_column(BigInteger)
    id_sum: Mapped[int] = mapped_column(BigInteger)
    updated_at: Mapped[datetime] = mapped_column(DateTime)


class GameTag(Base):
    """One thing a game is found by, in listing order: the index every filter pages through.

    A tag is ``kind:value`` (``bot:greedy``, ``player:alice``, ``fact:turns=30``,
    ``kind:out_of_turn``, ``findings:yes``, ``game:<name>``, ``*`` for every game). Its rows are
    kept in (tag, start time, game) order, so a page of any filter, however common or rare,
    and however deep, is one range of this index (``archive/queries.py``). ``started_key`` is
    the start time, or ``NO_START`` for a game without one (listed as the oldest).
    """

    __tablename__ = "game_tags"
    tag: Mapped[str] = mapped_column(String(250), primary_key=True)
    started_key: Mapped[datetime] = mapped_column(DateTime, primary_key=True)
    # no foreign key (migration 0009): derived rows, written and deleted with their game's own
    game_id: Mapped[int] = mapped_column(BigId, primary_key=True)
    listed: Mapped[bool] = mapped_column(Boolean)
    #: a ``number:<fact>`` tag's number (the game's ``game_facts.num``), None on every other tag:
    #: a wide range (``turns>=40``) walking the tag checks it in the row (migration 0008)
    num: Mapped[int | None] = mapped_column(BigInteger)

    __table_args__ = (
        # a numeric range's games (number: rows only; migration 0008)
        Index("ix_tags_number", "tag", "num", "listed", postgresql_include=["started_key", "game_id"],
              postgresql_where=text("num IS NOT NULL"), sqlite_where=text("num IS NOT NULL")),
        {"sqlite_with_rowid": False},
    )


class Counter(Base):
    """Totals kept up to date at ingest: games per tag, and per player and bot the figures
    ``Archive.stats`` gives (each also over listed games only).

    ``kind`` is ``tag``, ``player`` or ``bot``. Ingest appends to ``counter_deltas`` (no row
    is ever contended by two ingesters) and folds them into this table after each batch.
    """

    __tablename__ = "counters"
    kind: Mapped[str] = mapped_column(String(10), primary_key=True)
    key: Mapped[str] = mapped_column(String(250), primary_key=True)
    key_lc: Mapped[str] = mapped_column(String(250))
    games: Mapped[int] = mapped_column(BigInteger, default=0)
    seats: Mapped[int] = mapped_column(BigInteger, default=0)
    #: seats taken in the game's counted role (``GameModule.counted_role``), and won in it
    role_games: Mapped[int] = mapped_column(BigInteger, default=0)
    role_won: Mapped[int] = mapped_column(BigInteger, default=0)
    findings: Mapped[int] = mapped_column(BigInteger, default=0)
    listed_games: Mapped[int] = mapped_column(BigInteger, default=0)
    listed_seats: Mapped[int] = mapped_column(BigInteger, default=0)
    listed_role_games: Mapped[int] = mapped_column(BigInteger, default=0)
    listed_role_won: Mapped[int] = mapped_column(BigInteger, default=0)
    listed_findings: Mapped[int] = mapped_column(BigInteger, default=0)
    #: games won (``game_players.won``; migration 0012)
    wins: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    listed_wins: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")

    # for the player and bot counters (leaderboards, one name); on PostgreSQL the tag counters
    # are left out, so that folding a tag's delta writes no entry in them (migration 0010)
    __table_args__ = (
        Index("ix_counters_games", "kind", "games", "key", postgresql_where=text("kind <> 'tag'")),
        Index("ix_counters_listed_games", "kind", "listed_games", "key", postgresql_where=text("kind <> 'tag'")),
        Index("ix_counters_key_lc", "kind", "key_lc", postgresql_where=text("kind <> 'tag'")),
    )


class CounterDelta(Base):
    """Changes to ``counters`` not folded in yet (see ``Counter``)."""

    __tablename__ = "counter_deltas"
    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    kind: Mapped[str] = mapped_column(String(10))
    key: Mapped[str] = mapped_column(String(250))
    key_lc: Mapped[str] = mapped_column(String(250))
    games: Mapped[int] = mapped_column(BigInteger, default=0)
    seats: Mapped[int] = mapped_column(BigInteger, default=0)
    #: seats taken in the game's counted role (``GameModule.counted_role``), and won in it
    role_games: Mapped[int] = mapped_column(BigInteger, default=0)
    role_won: Mapped[int] = mapped_column(BigInteger, default=0)
    findings: Mapped[int] = mapped_column(BigInteger, default=0)
    listed_games: Mapped[int] = mapped_column(BigInteger, default=0)
    listed_seats: Mapped[int] = mapped_column(BigInteger, default=0)
    listed_role_games: Mapped[int] = mapped_column(BigInteger, default=0)
    listed_role_won: Mapped[int] = mapped_column(BigInteger, default=0)
    listed_findings: Mapped[int] = mapped_column(BigInteger, default=0)
    #: games won (``game_players.won``; migration 0012)
    wins: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")
    listed_wins: Mapped[int] = mapped_column(BigInteger, default=0, server_default="0")

    __table_args__ = (Index("ix_counter_deltas_key", "kind", "key"),)


class StoredAnalysis(Base):
    """A game's analysis (``GameModule.analyse``), kept once computed
    (``archive/analyses.py``). Keyed by the game's content (``analysis_key``: the deal, rules
    and actions, not names or times), so the same game opened from its replay code or from the
    archive shares it. ``data`` is the analysis JSON, zstd-compressed like blobs (with the
    dictionary ``dictionary_id`` names, if any); ``version`` the analyser's: another version
    is computed again."""

    __tablename__ = "analyses"
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    version: Mapped[str] = mapped_column(String(40))
    dictionary_id: Mapped[int | None] = mapped_column(ForeignKey("dictionaries.id"))
    data: Mapped[bytes] = mapped_column(LargeBinary)
    cards: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime)


class AnalysisSeat(Base):
    """Per seat of an analysed game: moves analysed, mistakes and what they cost (for stats)."""

    __tablename__ = "analysis_seats"
    key: Mapped[str] = mapped_column(ForeignKey("analyses.key", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[str] = mapped_column(String(10), primary_key=True)
    cards: Mapped[int] = mapped_column(Integer)
    mistakes: Mapped[int] = mapped_column(Integer)
    lost: Mapped[int] = mapped_column(Integer)


class GameAnalysisLink(Base):
    """Which analysis an archived game has (the stats join games to ``analysis_seats`` here)."""

    __tablename__ = "game_analyses"
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    key: Mapped[str] = mapped_column(ForeignKey("analyses.key", ondelete="CASCADE"))

    __table_args__ = (Index("ix_game_analyses_key", "key"),)


class StudyRow(Base):
    """A study (``replay.study``: a game with notes and what-if branches), as ``archive/studies.py``
    keeps it: its latest revision ``rev`` and what listings show, each revision's document in
    ``study_revisions``. ``owner_token_hash`` is the SHA-256 (hex) of the owner token, which is
    handed out once and never kept. ``notes`` and ``branches`` count the latest revision's."""

    __tablename__ = "studies"
    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    game: Mapped[str] = mapped_column(String(40))  # the registry's name
    title: Mapped[str] = mapped_column(Text)
    listed: Mapped[bool] = mapped_column(Boolean, server_default=false(), default=False)
    owner_token_hash: Mapped[str] = mapped_column(String(64))
    rev: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime)
    updated_at: Mapped[datetime] = mapped_column(DateTime)
    notes: Mapped[int] = mapped_column(Integer, default=0)
    branches: Mapped[int] = mapped_column(Integer, default=0)

    __table_args__ = (
        # listed studies, latest first: of every game, and of one game
        Index("ix_studies_listed_updated", "listed", "updated_at", "id"),
        Index("ix_studies_game_listed_updated", "game", "listed", "updated_at", "id"),
    )


class StudyRevision(Base):
    """One saved revision of a study: its ``study/1`` JSON, zstd-compressed like blobs (with the
    dictionary ``dictionary_id`` names, if any). Never changed once written; deleted only with
    its study."""

    __tablename__ = "study_revisions"
    study_id: Mapped[int] = mapped_column(ForeignKey("studies.id", ondelete="CASCADE"), primary_key=True,
                                          autoincrement=False)
    rev: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    dictionary_id: Mapped[int | None] = mapped_column(ForeignKey("dictionaries.id"))
    data: Mapped[bytes] = mapped_column(LargeBinary)
    size: Mapped[int] = mapped_column(Integer)  # bytes of the JSON before compression
    created_at: Mapped[datetime] = mapped_column(DateTime)
