"""Fixtures for the viewer: a real app per test over a real SQLite archive."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import SAMPLE_LOGS

SAMPLES = {
    "seed3": SAMPLE_LOGS / "selfplay" / "family-bridge_2026-05-30_1.json",
    "revoke": SAMPLE_LOGS / "broken" / "revoke.json",
    "script": SAMPLE_LOGS / "broken" / "script-player-name.json",
    "worked": SAMPLE_LOGS / "legacy" / "worked-example.txt",
}
LEGACY_WORKED_EXAMPLE = "0DzHzIMzzN-y-mfJFZNDnrCzxwvbKMXWIlqeTGVgmABOYHdyjPohiaELQRScpkUsut"


@pytest.fixture
def app(tmp_path: Path):
    from viewer.app import create_app

    return create_app({"TESTING": True, "DB": f"sqlite:///{tmp_path / 'archive.db'}"})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def archived(app) -> dict[str, str]:
    """A few sample games in the app's archive: name -> public id."""
    from viewer.app import get_archive

    ids = {}
    with app.app_context():
        archive = get_archive()
        for name, path in SAMPLES.items():
            results = archive.ingest_paths([str(path)])
            assert results and results[0].public_id, (name, results)
            ids[name] = results[0].public_id
    return ids


def load(name: str):
    """The ``GameLog`` of a sample."""
    from replay.log import read_path

    return read_path(str(SAMPLES[name]))[0].log


def code_of(name: str) -> str:
    from replay.codec import encode

    return encode(load(name))
