"""The ``game-replay`` entry point: the library's commands plus the archive's and the viewer's.

Imports point one way (viewer -> archive -> replay), so the full command line is assembled
here, at the top.
"""

from __future__ import annotations

from replay.cli import cli, run

# Each part adds its commands to the one group (one line each).
from archive.cli import archive_group, ingest_command  # noqa: E402
cli.add_command(ingest_command); cli.add_command(archive_group)  # noqa: E702
from archive.cli import study_group; cli.add_command(study_group)  # noqa: E402,E702
from archive.championship import championship_command; cli.add_command(championship_command)  # noqa: E402,E702
from viewer.serve import serve_command; cli.add_command(serve_command)  # noqa: E402,E702


def main() -> None:
    run(cli)


if __name__ == "__main__":  # pragma: no cover
    main()
