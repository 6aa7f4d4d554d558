"""The viewer over a real PostgreSQL archive (the deployment in docs/deploy.md)."""

from __future__ import annotations

import pytest


from .conftest import SAMPLES

pytestmark = pytest.mark.postgres


def test_archived_games_and_home_page_on_postgresql(postgres_server):
    from viewer.app import create_app, get_archive

    name = postgres_server.create_database()
    try:
        app = create_app({"DB": postgres_server.url(name)})
        with app.app_context():
            public_id = get_archive().ingest_paths([str(SAMPLES["revoke"])])[0].public_id
        client = app.test_client()
        home = client.get("/").get_data(as_text=True)
        assert f'href="/g/{public_id}"' in home
        page = client.get(f"/g/{public_id}")
        assert page.status_code == 200
        assert "a revoke" in page.get_data(as_text=True)
        assert client.get(f"/g/{public_id}.json").get_json()["names"]["S"] == "Ясмина"
        assert client.get("/g/nosuchgame").status_code == 404
    finally:
        postgres_server.drop_database(name)
