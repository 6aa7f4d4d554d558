"""Fixtures: a viewer app on a fresh archive per test, and a browser-like client with a CSRF cookie."""

from __future__ import annotations

import pytest
from sqlalchemy import func, select

ADMIN = "admin-token-for-tests"


@pytest.fixture
def app(tmp_path):
    from viewer.app import create_app

    return create_app({"TESTING": True, "DB": f"sqlite:///{tmp_path / 'archive.db'}", "ADMIN_TOKEN": ADMIN,
                       "UPLOAD_RATE_PER_MINUTE": 6000, "UPLOAD_RATE_BURST": 1000})


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def archive(app):
    with app.app_context():
        from viewer.app import get_archive

        return get_archive()


def form_token(client) -> str:
    """Open the upload page as a browser would and return the form's CSRF token."""
    response = client.get("/upload")
    assert response.status_code == 200
    return client.get_cookie("csrf").value


def table_counts(archive) -> dict[str, int]:
    """Rows in every archive table: 'the archive is unchanged' means these are equal."""
    from archive.models import Base

    with archive.engine.connect() as conn:
        return {t.name: conn.execute(select(func.count()).select_from(t)).scalar_one()
                for t in Base.metadata.sorted_tables}
