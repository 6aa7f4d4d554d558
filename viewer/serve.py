"""``game-replay serve``: run the viewer (flask is imported only when the command runs)."""

from __future__ import annotations

import os
from pathlib import Path

import click

import viewer
from werkzeug.serving import make_server
from archive.cli import check_db_url
from .app import create_app, get_archive

_PACKAGE = Path(viewer.__file__).resolve().parent
#: Where the bundled sample logs are looked for, in order: inside the installed package (a wheel
#: ships the repository's top-level ``sample_logs/`` as ``viewer/sample_logs/``, see
#: pyproject.toml), then beside the package (a checkout or an editable install).
SAMPLE_LOG_PLACES = (_PACKAGE / "sample_logs", _PACKAGE.parent / "sample_logs")


def find_sample_logs(places: tuple[Path, ...] | None = None) -> Path | None:
    """The first folder of ``places`` (default :data:`SAMPLE_LOG_PLACES`) that holds the sample
    logs (their README.md and selfplay/), or None."""
    for folder in SAMPLE_LOG_PLACES if places is None else places:
        if (folder / "README.md").is_file() and (folder / "selfplay").is_dir():
            return folder
    return None


SAMPLE_LOGS = find_sample_logs() or SAMPLE_LOG_PLACES[0]


def fill_if_empty(archive, folder: Path | None = None) -> int:
    """Ingest the sample logs into an empty archive (first start); returns games stored.

    ``folder`` defaults to the bundled sample logs (:func:`find_sample_logs`); a missing folder
    stores nothing.
    """
    folder = folder if folder is not None else find_sample_logs()
    if archive.count() > 0 or folder is None or not folder.is_dir():
        return 0
    results = archive.ingest_paths([str(folder)])
    return sum(1 for r in results if r.status in ("stored", "stored_with_findings"))


def first_start(archive, samples: bool = True) -> list[str]:
    """Fill an empty archive from the sample logs (unless ``samples`` is false) and return the
    lines to tell the user: what was filled, or why the archive is still empty."""
    if archive.count() > 0:
        return []
    if not samples:
        return ["the archive is empty (--no-samples): add games with `game-replay ingest PATH`"]
    folder = find_sample_logs()
    if folder is None:
        places = ", ".join(str(p) for p in SAMPLE_LOG_PLACES)
        return [f"the archive is empty: no sample logs found (looked in {places}); "
                "add games with `game-replay ingest PATH`"]
    stored = fill_if_empty(archive, folder)
    if not stored:
        return [f"the archive is empty: the sample logs in {folder} gave no games; "
                "add games with `game-replay ingest PATH`"]
    return [f"filled the empty archive with {stored} games from {folder}"]


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



    check_db_url(db or os.environ.get("GAME_REPLAY_DB"))

    app = create_app({"DB": db} if db else None)
    with app.app_context():
        archive = get_archive()
        for line in first_start(archive, samples=not no_samples):
            click.echo(line)
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
