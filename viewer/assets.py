"""Static files with content hashes in their names, and plotly.js from the plotly package.

Besides ``viewer/static``, each game's board folder contributes its ``static/`` files under
``games/<game>/`` (``games/floating-bridge/board.js``; see ``viewer.games``).

Every asset is served as ``/static/<stem>.<hash><suffix>`` (``viewer.3f9a1c0b2e.js``), so it
can be cached for a year: a changed file gets a new name. ``plotly.min.js`` is not copied into
the repository; it is read from the installed ``plotly`` package's data.

>>> assets = Assets()
>>> assets.url("viewer.css").startswith("/static/viewer.")
True
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from .games import static_files

STATIC_DIR = Path(__file__).resolve().parent / "static"
PLOTLY_NAME = "plotly.min.js"
COMPRESSIBLE = ("text/", "application/javascript", "application/json", "image/svg+xml")


def plotly_path() -> Path:
    """Where the installed plotly package keeps its bundled plotly.js."""
    return Path(str(resources.files("plotly") / "package_data" / PLOTLY_NAME))


@dataclass
class Asset:
    """One static file: its logical name, hashed name, bytes and (lazily) gzipped bytes."""

    name: str
    path: Path
    digest: str
    mimetype: str
    _data: bytes | None = field(default=None, repr=False)
    _gzipped: bytes | None = field(default=None, repr=False)

    @property
    def hashed_name(self) -> str:
        stem, dot, suffix = self.name.rpartition(".")
        if stem.endswith(".min"):  # plotly.min.js -> plotly.<hash>.min.js
            return f"{stem[:-4]}.{self.digest}.min.{suffix}"
        return f"{stem}.{self.digest}.{suffix}" if dot else f"{self.name}.{self.digest}"

    @property
    def data(self) -> bytes:
        if self._data is None:
            self._data = self.path.read_bytes()
        return self._data

    @property
    def compressible(self) -> bool:
        return self.mimetype.startswith(COMPRESSIBLE)

    @property
    def gzipped(self) -> bytes:
        if self._gzipped is None:
            self._gzipped = gzip.compress(self.data, compresslevel=9, mtime=0)
        return self._gzipped


class Assets:
    """The static files the viewer serves, by logical name."""

    def __init__(self, directory: Path = STATIC_DIR, extra: dict[str, Path] | None = None, games: bool = True):
        self.by_name: dict[str, Asset] = {}
        files = {p.relative_to(directory).as_posix(): p for p in sorted(directory.rglob("*")) if p.is_file()}
        files.setdefault(PLOTLY_NAME, plotly_path())
        if games:

            files.update(static_files())
        files.update(extra or {})
        for name, path in files.items():
            if name.startswith(".") or path.suffix == ".pyc":
                continue
            digest = hashlib.sha256(path.read_bytes()).hexdigest()[:10]
            mimetype = mimetypes.guess_type(name)[0] or "application/octet-stream"
            if mimetype == "text/javascript":
                mimetype = "application/javascript"
            self.by_name[name] = Asset(name, path, digest, mimetype)
        self.by_hashed = {a.hashed_name: a for a in self.by_name.values()}
        combined = hashlib.sha256("".join(sorted(a.digest for a in self.by_name.values())).encode())
        #: Changes whenever any asset changes: part of every page's ETag.
        self.version = combined.hexdigest()[:12]

    def url(self, name: str) -> str:
        """The content-hashed URL of a static file (``KeyError`` for an unknown name)."""
        return "/static/" + self.by_name[name].hashed_name

    def find(self, hashed_name: str) -> Asset | None:
        return self.by_hashed.get(hashed_name)
