"""``game-replay serve``: run the viewer (flask is imported only when the command runs)."""

from __future__ import annotations

import os
from pathlib import Path

import click

import viewer

SAMPLE_LOGS = Path(viewer.__file__).resolve().parent.parent / "sample_logs"


def fill_if_empty(archive, folder: Path = SAMPLE_LOGS) -> int:
    """Ingest ``sample_logs/`` into an empty archive (first start); returns games stored."""
    if archive.count() > 0 or not folder.is_dir():
        return 0
    results = archive.ingest_paths([str(folder)])
    return sum(1 for r in results if r.status in ("stored", "stored_with_findings"))


@click.command("serve")
@click.option("--db", "db", metavar="URL", default=None,
              help="Archive database URL (default: GAME_REPLAY_DB, else SQLite in var/).")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", "-p", default=8000, show_default=True, type=click.IntRange(0, 65535),
              help="Port (0 picks a free one).")
@click.option("--no-samples", is_flag=True, help="Do not fill an empty archive from sample_logs/.")
def serve_command(db: str | None, host: str, port: int, no_samples: bool) -> None:
    """Run the viewer: replay pages, embeds and the archive's games.

    On first start (an empty archive) the games in sample_logs/ are ingested. For production
    use gunicorn behind a reverse proxy (docs/deploy.md).
    """
    from werkzeug.serving import make_server

    from archive.cli import check_db_url

    from .app import create_app, get_archive

    check_db_url(db or os.environ.get("GAME_REPLAY_DB"))

    app = create_app({"DB": db} if db else None)
    with app.app_context():
        archive = get_archive()
        if not no_samples:
            stored = fill_if_empty(archive)
            if stored:
                click.echo(f"filled the empty archive with {stored} games from {SAMPLE_LOGS}")
        total = archive.count()
    try:
        server = make_server(host, port, app, threaded=True)
    except OSError as exc:
        raise click.ClickException(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"game-replay viewer on http://{shown}:{server.server_port}/ ({total} archived games); Ctrl-C stops it")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
