"""Per-client rate limits (uploads, admin log-ins, analyses, pictures and animations drawn): a
token bucket per client address and purpose, in memory.

Each client (``request.remote_addr``; behind a reverse proxy, deploy with werkzeug's
``ProxyFix`` so that this is the real client) gets ``burst`` requests at once and then
``per_minute`` more each minute. A refused request gets a ``429`` with ``Retry-After``.
The buckets live in the worker process: with N gunicorn workers a client gets at most N
times the limit, which is still a bound.

>>> limiter = RateLimiter(per_minute=60, burst=2, clock=lambda: 100.0)
>>> [limiter.hit("1.2.3.4") for _ in range(3)]
[0.0, 0.0, 1.0]
"""

from __future__ import annotations

import threading
import time
from typing import Callable

from flask import Response, current_app, jsonify, request
from flask import render_template
from .app import DEFAULTS, wants_json


class RateLimiter:
    """Token buckets by key. ``hit(key)`` takes a token: 0.0 if allowed, else seconds to wait."""

    def __init__(self, per_minute: float, burst: int, clock: Callable[[], float] = time.monotonic,
                 max_keys: int = 100_000):
        if per_minute <= 0 or burst < 1:
            raise ValueError("a rate limit needs per_minute > 0 and burst >= 1")
        self.rate = per_minute / 60.0
        self.burst = float(burst)
        self.clock = clock
        self.max_keys = max_keys
        self.buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, last time)
        self.lock = threading.Lock()

    def hit(self, key: str, cost: float = 1.0) -> float:
        now = self.clock()
        with self.lock:
            tokens, last = self.buckets.get(key, (self.burst, now))
            tokens = min(self.burst, tokens + (now - last) * self.rate)
            if tokens >= cost:
                self.buckets[key] = (tokens - cost, now)
                wait = 0.0
            else:
                self.buckets[key] = (tokens, now)
                wait = (cost - tokens) / self.rate
            if len(self.buckets) > self.max_keys:
                self._prune(now)
        return wait

    def _prune(self, now: float) -> None:
        """Drop buckets that have refilled completely (they hold no state worth keeping)."""
        full_after = self.burst / self.rate
        for key in [k for k, (_, last) in self.buckets.items() if now - last > full_after]:
            del self.buckets[key]


#: Each limiter's config keys and defaults: ``<PREFIX>_PER_MINUTE`` and ``<PREFIX>_BURST``.
LIMITS = {"uploads": ("UPLOAD_RATE", 30, 10), "admin": ("ADMIN_LOGIN_RATE", 6, 5),
          # studies made and saved (each save judges every line of the study)
          "studies": ("STUDY_RATE", 30, 10),
          # games solved for the analysis toggle (a stored analysis costs nothing)
          "analysis": ("ANALYSIS_RATE", 20, 10),
          # images drawn (viewer/services/picture.py): a PNG is cheap, an animation is not, so
          # each has its own bucket; answers from the cache and 304s take no token
          "pictures": ("PICTURE_RATE", DEFAULTS["PICTURE_RATE_PER_MINUTE"], DEFAULTS["PICTURE_RATE_BURST"]),
          "animations": ("ANIMATION_RATE", DEFAULTS["ANIMATION_RATE_PER_MINUTE"], DEFAULTS["ANIMATION_RATE_BURST"])}


def limiter(name: str = "uploads") -> RateLimiter:
    """The app's limiter for ``name`` (uploads: ``UPLOAD_RATE_PER_MINUTE``/``UPLOAD_RATE_BURST``;
    admin log-ins: ``ADMIN_LOGIN_RATE_PER_MINUTE``/``ADMIN_LOGIN_RATE_BURST``; pictures:
    ``PICTURE_RATE_*``; animations: ``ANIMATION_RATE_*``)."""
    key = f"ratelimit:{name}"
    found = current_app.extensions.get(key)
    if found is None:
        prefix, per_minute, burst = LIMITS[name]
        cfg = current_app.config
        found = current_app.extensions.setdefault(key, RateLimiter(
            float(cfg.get(f"{prefix}_PER_MINUTE", per_minute)), int(cfg.get(f"{prefix}_BURST", burst))))
    return found


def client_key() -> str:
    return request.remote_addr or "unknown"


def check(name: str = "uploads") -> Response | None:
    """``None`` if this client may go on, else the ``429`` response to send."""
    wait = limiter(name).hit(client_key())
    if wait <= 0:
        return None
    seconds = max(1, int(wait + 0.999))
    what = {"uploads": "uploads", "analysis": "analyses of new games", "pictures": "pictures drawn",
            "animations": "animations made", "studies": "study saves"}.get(name, "attempts")
    message = f"too many {what} from your address: try again in {seconds} s"
    response = jsonify({"error": message, "status": 429})
    if not _wants_json():

        response = Response(render_template("error.html", title="Slow down", message=message,
                                            status=429, paste=""), mimetype="text/html")
    response.status_code = 429
    response.headers["Retry-After"] = str(seconds)
    response.headers["Cache-Control"] = "no-store"
    return response


def _wants_json() -> bool:

    return wants_json()
