"""Studies in the archive (``archive/studies.py``), on SQLite and on a real PostgreSQL server:
revisions, stale saves refused with nothing lost, two saves racing from one revision, owner
tokens, listings, ids that never open a game, and migration 0014 over an archive with data.
"""

from __future__ import annotations

import json
import shutil
import threading
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import create_engine, insert, inspect, select, text, update

from archive import Archive
from archive.ids import MAX_ROW_ID, PublicIds
from archive.models import StudyRevision, StudyRow
from archive.studies import (CreatedStudy, StudyConflict, StudyIds, StudyNotFound, Studies, StudySourceError,
                             StudyStoreError, StudyTokenError, StudyTooLarge, first_move, hash_token)
from replay.codec import encode
from replay.games import get
from replay.study import MAX_COMMENT_BYTES, StudyError, StudyGame

from .test_migrate_release_0_1 import FIXTURES, _copy_every_table, _upgrade_to


def _study(game: str = "uno-lite", seed: int = 3, title: str = "") -> StudyGame:
    return StudyGame.new(get(game).selfplay(seed=seed), title=title)


@pytest.fixture
def studies(archive) -> Studies:
    return Studies(archive)


def _revision_rows(archive: Archive, row_id: int) -> list[int]:
    with archive.engine.connect() as conn:
        return list(conn.execute(select(StudyRevision.rev).where(StudyRevision.study_id == row_id)
                                 .order_by(StudyRevision.rev)).scalars())


# -- create, get, save --------------------------------------------------------------------------

def test_a_study_comes_back_as_it_was_stored(studies):
    study = _study(title="Hostile <script>alert(1)</script> \u202eRTL")
    created = studies.create(study)
    assert isinstance(created, CreatedStudy) and created.rev == 1 and created.url == f"/s/{created.id}"
    stored = studies.get(created.id)
    assert stored.data == study.to_json()
    assert (stored.rev, stored.latest, stored.listed, stored.game) == (1, 1, False, "uno-lite")
    assert stored.title == study.study.title
    assert stored.study.export_json() == study.export_json()
    assert stored.created_at == stored.updated_at == stored.saved_at
    # only a hash of the owner token is kept
    with studies.engine.connect() as conn:
        kept = conn.execute(select(StudyRow.owner_token_hash)).scalar_one()
    assert kept == hash_token(created.owner_token) and created.owner_token not in kept
    assert studies.get(created.id, rev=2) is None and studies.get(created.id, rev=0) is None


def test_each_save_is_a_revision_and_old_ones_stay_readable(studies, archive):
    study = _study()
    created = studies.create(study)
    move = study.moves("main", 4)[-1]
    branched, line = study.with_branch("main", 4, [move.event], title="what if")
    noted = branched.with_note(line, 5, comment="**keep** the colour", glyph="!",
                               highlights=[{"kind": "seat", "id": "P1"}])
    assert studies.save(created.id, created.owner_token, 1, branched) == 2
    assert studies.save(created.id, created.owner_token, 2, noted.to_json()) == 3
    latest = studies.get(created.id)
    assert (latest.rev, latest.latest) == (3, 3) and latest.data == noted.to_json()
    assert latest.study.note(line, 5).glyph == "!"
    assert [studies.get(created.id, rev=n).data for n in (1, 2)] == [study.to_json(), branched.to_json()]
    assert studies.get(created.id, rev=1).url == f"/s/{created.id}/1"
    assert [r.rev for r in studies.revisions(created.id)] == [1, 2, 3]
    assert [r.size for r in studies.revisions(created.id)] == [
        len(json.dumps(s.to_json(), ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode())
        for s in (study, branched, noted)]
    summary = studies.summary(created.id)
    assert (summary.rev, summary.notes, summary.branches) == (3, 1, 1)


def test_a_stale_save_is_refused_and_nothing_is_lost(studies, archive):
    study = _study()
    created = studies.create(study)
    first = study.with_note("main", 2, comment="saved first")
    second = study.with_note("main", 3, comment="made from revision 1, saved late")
    assert studies.save(created.id, created.owner_token, 1, first) == 2
    with pytest.raises(StudyConflict) as caught:
        studies.save(created.id, created.owner_token, 1, second)
    assert caught.value.latest == 2 and "revision 2" in str(caught.value)
    with pytest.raises(StudyConflict):  # a base from the future is no better
        studies.save(created.id, created.owner_token, 5, second)
    assert studies.get(created.id).data == first.to_json()
    assert studies.get(created.id, rev=1).data == study.to_json()
    assert _revision_rows(archive, studies.ids.decode(created.id)) == [1, 2]
    # the refused editor loads the latest and applies the change again
    again = studies.get(created.id).study.with_note("main", 3, comment="made from revision 1, saved late")
    assert studies.save(created.id, created.owner_token, 2, again) == 3
    assert studies.get(created.id).study.note("main", 2).comment == "saved first"


def test_two_saves_from_one_revision_exactly_one_wins(studies, archive):
    """Threads save against the same base at once, round after round: one wins each round, the
    other gets the conflict, and each revision holds its winner's study."""
    study = _study()
    created = studies.create(study)
    rounds, racers = 6, 3
    won: list[tuple[int, int]] = []
    for round_ in range(rounds):
        base = round_ + 1
        barrier = threading.Barrier(racers)
        outcomes: list[object] = [None] * racers
        edits = [study.with_note("main", 1, comment=f"round {round_} racer {n}") for n in range(racers)]

        def race(n: int) -> None:
            barrier.wait()
            try:
                outcomes[n] = studies.save(created.id, created.owner_token, base, edits[n])
            except StudyConflict as exc:
                outcomes[n] = exc

        threads = [threading.Thread(target=race, args=(n,)) for n in range(racers)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        winners = [n for n, o in enumerate(outcomes) if o == base + 1]
        assert len(winners) == 1, outcomes
        assert all(isinstance(o, StudyConflict) and o.latest == base + 1
                   for n, o in enumerate(outcomes) if n != winners[0]), outcomes
        won.append((base + 1, winners[0]))
        study = edits[winners[0]]
    assert _revision_rows(archive, studies.ids.decode(created.id)) == list(range(1, rounds + 2))
    for rev, n in won:
        assert studies.get(created.id, rev=rev).study.note("main", 1).comment.endswith(f"racer {n}")


def test_a_save_waiting_on_another_save_is_refused_once_that_one_commits(studies, archive):
    """The guard itself: another save's transaction has moved the revision on but not committed
    yet; this save waits for it (SQLite: for the write lock; PostgreSQL: at the conditional
    UPDATE, having read the old revision) and is then refused, storing nothing."""
    study = _study()
    created = studies.create(study)
    row_id = studies.ids.decode(created.id)
    theirs = study.with_note("main", 2, comment="theirs")
    mine = study.with_note("main", 2, comment="mine")
    raw = json.dumps(theirs.to_json(), ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode()
    dictionary_id, data = archive.compressor.compress(raw)
    outcome: list[object] = []

    def save_mine() -> None:
        try:
            outcome.append(studies.save(created.id, created.owner_token, 1, mine))
        except StudyConflict as exc:
            outcome.append(exc)

    with archive.engine.execution_options(write=True).begin() as conn:
        conn.execute(update(StudyRow).where(StudyRow.id == row_id).values(rev=2))
        conn.execute(insert(StudyRevision).values(study_id=row_id, rev=2, dictionary_id=dictionary_id, data=data,
                                                  size=len(raw), created_at=studies.get(created.id).created_at))
        waiting = threading.Thread(target=save_mine)
        waiting.start()
        time.sleep(1.0)
        assert waiting.is_alive() and outcome == []  # it waits for this transaction
    waiting.join(60)
    assert len(outcome) == 1 and isinstance(outcome[0], StudyConflict) and outcome[0].latest == 2
    assert studies.get(created.id).study.note("main", 2).comment == "theirs"
    assert _revision_rows(archive, row_id) == [1, 2]


# -- owner tokens ------------------------------------------------------------------------------

def test_a_wrong_token_changes_nothing(studies, archive):
    study = _study()
    created = studies.create(study)
    other = studies.create(_study(seed=4))
    changed = study.with_note("main", 1, comment="not mine to write")
    for token in ("wrong", other.owner_token, "", created.owner_token[:-1], None, 42):
        with pytest.raises(StudyTokenError, match="owner token does not belong to this study"):
            studies.save(created.id, token, 1, changed)
        with pytest.raises(StudyTokenError):
            studies.set_listed(created.id, token, True)
        with pytest.raises(StudyTokenError):
            studies.delete(created.id, token)
    stored = studies.get(created.id)
    assert (stored.rev, stored.listed, stored.data) == (1, False, study.to_json())
    with pytest.raises(StudyNotFound):
        studies.save("nostudy1", created.owner_token, 1, changed)


def test_the_owner_deletes_a_study_with_every_revision(studies, archive):
    study = _study()
    created = studies.create(study)
    kept = studies.create(study)
    studies.save(created.id, created.owner_token, 1, study.with_note("main", 1, comment="x"))
    studies.delete(created.id, created.owner_token)
    assert studies.get(created.id) is None and studies.get(created.id, rev=1) is None
    assert studies.revisions(created.id) is None and studies.summary(created.id) is None
    assert _revision_rows(archive, studies.ids.decode(created.id)) == []
    with pytest.raises(StudyNotFound):
        studies.save(created.id, created.owner_token, 2, study)
    assert studies.get(kept.id).data == study.to_json()
    # an admin removes any study, no token needed
    assert studies.remove(kept.id) is True and studies.get(kept.id) is None
    assert studies.remove(kept.id) is False and studies.remove("not an id") is False
    assert _revision_rows(archive, studies.ids.decode(kept.id)) == []


# -- what a save may hold -----------------------------------------------------------------------

def test_a_save_keeps_the_study_of_its_game(studies):
    created = studies.create(_study())
    with pytest.raises(StudyStoreError, match="a save cannot make it one of a coup game"):
        studies.save(created.id, created.owner_token, 1, _study("coup", seed=1))
    assert studies.get(created.id).rev == 1


def test_bad_input_gets_its_own_message(studies):
    created = studies.create(_study())
    with pytest.raises(StudyStoreError, match="base must be a revision number"):
        studies.save(created.id, created.owner_token, "1", _study())
    with pytest.raises(StudyStoreError, match="base must be a revision number"):
        studies.save(created.id, created.owner_token, True, _study())
    with pytest.raises(StudyError, match="format must be 'study/1'"):
        studies.save(created.id, created.owner_token, 1, {"format": "pgn", "log": {}})
    with pytest.raises(StudyStoreError, match="limit must be"):
        studies.listing(limit=10_000)
    assert studies.get(created.id).rev == 1


def test_sizes_are_checked_before_anything_is_stored(studies, archive, monkeypatch):
    """A study near the limit is kept byte for byte; over the limit nothing is written."""
    import replay.study

    # the size a store must take (a study's comments are capped lower for its page's sake)
    monkeypatch.setattr(replay.study, "MAX_COMMENTS_BYTES", replay.study.MAX_STUDY_BYTES)
    study = _study()
    big = study
    comment = "é" * (MAX_COMMENT_BYTES // 2 - 8)  # two bytes each: just under a comment's limit
    for step in range(1, 30):
        big = big.with_note("main", step, comment=comment + str(step))
    created = studies.create(big)
    stored = studies.get(created.id)
    assert stored.data == big.to_json() and studies.revisions(created.id)[0].size > 3_700_000
    with archive.engine.connect() as conn:
        compressed = conn.execute(select(StudyRevision.data)).scalar_one()
    assert len(compressed) < 100_000  # kept compressed
    import archive.studies as module

    monkeypatch.setattr(module, "MAX_STUDY_BYTES", 10_000)
    with pytest.raises(StudyTooLarge, match="at most 10,000 may be stored"):
        studies.save(created.id, created.owner_token, 1, big.with_note("main", 40, comment="more"))
    with pytest.raises(StudyTooLarge):
        studies.create(big)
    assert _revision_rows(archive, studies.ids.decode(created.id)) == [1]
    with archive.engine.connect() as conn:
        assert conn.execute(text("SELECT COUNT(*) FROM studies")).scalar_one() == 1


# -- listings -----------------------------------------------------------------------------------

def test_only_listed_studies_are_listed_latest_saved_first(studies):
    one = studies.create(_study(title="one"), listed=True)
    two = studies.create(_study("coup", seed=2, title="two"), listed=True)
    hidden = studies.create(_study(title="hidden"))
    page = studies.listing()
    assert page.total == 2 and [s.id for s in page.items] == [two.id, one.id]
    assert hidden.id not in {s.id for s in page.items}
    assert [s.id for s in studies.listing(game="uno-lite").items] == [one.id]
    assert studies.listing(game="coup").items[0].title == "two"
    time.sleep(0.01)
    studies.save(one.id, one.owner_token, 1, _study(title="one, again"))
    listed = studies.listing().items
    assert [s.id for s in listed] == [one.id, two.id] and listed[0].title == "one, again" and listed[0].rev == 2
    studies.set_listed(hidden.id, hidden.owner_token, True)
    studies.set_listed(one.id, one.owner_token, False)
    assert {s.id for s in studies.listing().items} == {two.id, hidden.id}
    assert studies.get(one.id).listed is False and studies.get(hidden.id).listed is True
    assert [s.id for s in studies.listing(limit=1, offset=1).items] == [two.id]
    assert studies.listing(limit=1).total == 2
    assert studies.listing(offset=2).items == [] and studies.listing(offset=2**70).items == []


# -- ids ----------------------------------------------------------------------------------------

def test_study_ids_and_game_ids_never_open_each_other(studies, archive):
    from replay.games.floating_bridge.bots import play_game

    (game,) = archive.ingest_bytes(play_game(seed=1).canonical_json().encode(), "1.json")
    created = studies.create(_study())
    assert archive.ids.decode(game.public_id) == studies.ids.decode(created.id) == 1  # the same row number
    assert created.id != game.public_id
    assert archive.get(created.id) is None and studies.get(game.public_id) is None
    assert studies.revisions(game.public_id) is None and studies.summary(game.public_id) is None
    with pytest.raises(StudyNotFound):
        studies.save(game.public_id, created.owner_token, 1, _study())
    for bad in ("", "a" * 65, "../x", "ÄÖÜ12345", None, 12):
        assert studies.get(bad) is None


@settings(max_examples=300, deadline=None)
@given(row=st.integers(1, MAX_ROW_ID), salt=st.text(min_size=1, max_size=30))
def test_a_hashid_is_a_study_id_or_a_game_id_never_both(row, salt):
    games = PublicIds(salt)
    studies = StudyIds(games)
    assert studies.decode(studies.encode(row)) == row and games.decode(games.encode(row)) == row
    assert games.decode(studies.encode(row)) is None
    assert studies.decode(games.encode(row)) is None


# -- studies of archived games, codes and uploads -----------------------------------------------

def test_a_study_of_a_code_a_game_or_an_upload(studies, archive):
    from archive.uploads import Uploads

    log = get("coup").selfplay(seed=5)
    from_code = studies.from_source("code", encode(log), title="from a code")
    assert from_code.study.source.kind == "code" and from_code.line("main").replay.step_count > 1
    (game,) = archive.ingest_bytes(log.canonical_json().encode(), "coup.json")
    from_game = studies.from_source("game", game.public_id)
    assert from_game.study.source.ref == game.public_id and from_game.to_json()["log"] == json.loads(log.canonical_json())
    [upload] = Uploads(archive).ingest(get("uno-lite").selfplay(seed=8).canonical_json().encode(), "u.json")
    from_upload = studies.from_source("upload", upload.token)
    assert from_upload.study.source.kind == "upload" and from_upload.study.source.ref is None  # a secret
    unlisted_id = Uploads(archive).by_token(upload.token).public_id
    with pytest.raises(StudySourceError, match="there is no game"):
        studies.from_source("game", unlisted_id)  # an unlisted upload opens by its token only
    assert studies.from_source("game", unlisted_id, listed_only=False).game.name == "uno-lite"
    with pytest.raises(StudySourceError, match="not a replay code"):
        studies.from_source("code", "!!not a code!!")
    with pytest.raises(StudySourceError, match="no upload with that token"):
        studies.from_source("upload", "x" * 32)
    with pytest.raises(StudySourceError, match="not 'file'"):
        studies.from_source("file", "a.json")


def test_the_first_move_of_each_line():
    study = _study()
    moves = study.moves("main", 6)
    branched, b1 = study.with_branch("main", 6, [moves[-1].event])
    follow = branched.moves(b1, 7)
    nested, b2 = branched.with_branch(b1, 7, [follow[0].event])
    assert first_move(nested, "main") == ""
    assert first_move(nested, b1) == moves[-1].text and first_move(nested, b2) == follow[0].text


# -- migration 0014 ------------------------------------------------------------------------------

@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def archive_at_0013(request, tmp_path):
    """An archive with every sample game of four games (the main-1f49517 fixture) at revision 0013."""
    copy = tmp_path / "archive-main-1f49517.db"
    shutil.copy(FIXTURES / "archive-main-1f49517.db", copy)
    sqlite_url = f"sqlite:///{copy}"
    _upgrade_to(sqlite_url, "0013")
    if request.param == "sqlite":
        yield sqlite_url
        return
    server = request.getfixturevalue("postgres_server")
    name = server.create_database()
    try:
        url = server.url(name)
        _upgrade_to(url, "0013")
        _copy_every_table(sqlite_url, url)
        yield url
    finally:
        server.drop_database(name)


def _table_rows(url: str) -> dict[str, int]:
    engine = create_engine(url)
    with engine.connect() as conn:
        names = [n for n in inspect(conn).get_table_names() if n != "alembic_version"]
        counts = {n: conn.execute(text(f"SELECT COUNT(*) FROM {n}")).scalar_one() for n in names}
    engine.dispose()
    return counts


def test_migration_0014_adds_studies_to_an_archive_with_games(archive_at_0013):
    url = archive_at_0013
    before = _table_rows(url)
    assert before["games"] > 50 and "studies" not in before
    with Archive(url) as archive:  # opening runs 0014
        with archive.engine.connect() as conn:
            assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar_one() >= "0014"  # or later
            indexes = {i["name"] for i in inspect(conn).get_indexes("studies")}
        assert {"ix_studies_listed_updated", "ix_studies_game_listed_updated"} <= indexes
        after = _table_rows(url)
        assert {k: v for k, v in after.items() if k not in ("studies", "study_revisions")} == before
        assert after["studies"] == after["study_revisions"] == 0
        studies = Studies(archive)
        assert archive.count() == before["games"]
        page = archive.list(limit=500)
        game = next(g for g in page.items if g.game == "floating-bridge")
        study = studies.from_source("game", game.public_id, title="an old game studied")
        created = studies.create(study, listed=True)
        assert studies.get(created.id).study.line("main").replay.step_count == archive.get(
            game.public_id).replay().step_count
        assert archive.get(created.id) is None and archive.get(game.public_id).public_id == game.public_id
        assert studies.listing(game="floating-bridge").items[0].id == created.id
    # and back down: the two tables go, the games stay
    from alembic import command
    from alembic.config import Config

    engine = create_engine(url)
    config = Config()
    config.set_main_option("script_location", str(Path(__import__("archive").__file__).parent / "migrations"))
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.downgrade(config, "0013")
    engine.dispose()
    assert _table_rows(url) == before
