"""A bug while ingesting one game quarantines that game's bytes and lets the batch go on."""

from archive import ingest as store_module

from .conftest import write_selfplay


def test_a_bug_in_one_game_keeps_its_bytes_and_spares_the_batch(archive, tmp_path, monkeypatch):
    files = write_selfplay(tmp_path / "logs", 3, seed=40)
    poisoned = files[1].read_bytes()
    real = store_module.canonical_sha256

    def buggy(log):  # stands in for a bug that only one game triggers
        if log.game_id and log.game_id in poisoned.decode():
            raise RuntimeError("boom")
        return real(log)

    monkeypatch.setattr(store_module, "canonical_sha256", buggy)
    results = archive.ingest_paths([str(tmp_path / "logs")])
    assert [r.status for r in results] == ["stored", "quarantined", "stored"]
    assert "internal error while ingesting (a bug" in results[1].error and "boom" in results[1].error
    assert archive.count() == 2
    [kept] = archive.quarantine().items
    assert "boom" in kept.error
    # nothing the bot sent is lost: once the bug is gone, retry stores it
    monkeypatch.setattr(store_module, "canonical_sha256", real)
    archive.retry_quarantine()
    assert archive.count() == 3
