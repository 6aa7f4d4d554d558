"""``/stats`` takes think times from ``game_players.think_ms`` (kept at ingest), not from raw logs."""

from __future__ import annotations

from sqlalchemy import update

from archive.models import GamePlayer
from tests.conftest import SAMPLE_LOGS


def test_stats_think_times_come_from_the_rows_and_old_rows_from_their_logs(app, client, monkeypatch):
    from archive.uploads import Uploads
    from viewer.app import get_archive

    with app.app_context():
        get_archive().ingest_paths([str(SAMPLE_LOGS / "selfplay")])
    kept = {r["name"]: r for r in client.get("/stats.json").get_json()["rows"]}
    assert kept["greedy-1"]["think_ms_median"] is not None

    def no_raw(self, row_id):
        raise AssertionError("a raw log was read for think times kept at ingest")

    monkeypatch.setattr(Uploads, "raw_by_row", no_raw)
    app.extensions.pop("think_cache", None)
    assert {r["name"]: r for r in client.get("/stats.json").get_json()["rows"]} == kept
    monkeypatch.undo()
    with app.app_context():  # as a row stored before revision 0006 is: worked out from its log
        with get_archive().engine.begin() as conn:
            conn.execute(update(GamePlayer).values(think_ms=None))
    app.extensions.pop("think_cache", None)
    assert {r["name"]: r for r in client.get("/stats.json").get_json()["rows"]} == kept
