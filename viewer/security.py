"""Security headers for every response, and the one switch that lets a page be framed.

Pages carry a Content Security Policy with no inline script: per-page data travels in
``<script type="application/json">`` blocks that static scripts read. Only views marked with
:func:`frameable` (the embed routes) send ``frame-ancestors`` that allow other sites; every
other page refuses framing (``frame-ancestors 'none'`` plus ``X-Frame-Options: DENY``).
"""

from __future__ import annotations

from functools import wraps
from typing import Any, Callable

from flask import Flask, Response, g
from flask import current_app

BASE_POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    # plotly.js adds <style> elements and style attributes at run time
    "style-src": "'self' 'unsafe-inline'",
    "img-src": "'self' data:",
    "font-src": "'self'",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
}


def frameable(view: Callable[..., Any]) -> Callable[..., Any]:
    """Mark a view as one that other sites may put in an iframe (embeds only)."""

    @wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        g.frameable = True
        return view(*args, **kwargs)

    wrapper.frameable = True  # type: ignore[attr-defined]
    return wrapper


def content_security_policy(frame_ancestors: str) -> str:
    policy = dict(BASE_POLICY)
    policy["frame-ancestors"] = frame_ancestors
    return "; ".join(f"{k} {v}" for k, v in policy.items())


def add_security_headers(response: Response) -> Response:
    """``after_request`` hook: CSP, framing, sniffing and referrer headers."""

    if getattr(g, "frameable", False):
        ancestors = current_app.config.get("EMBED_FRAME_ANCESTORS", "*")
        response.headers.pop("X-Frame-Options", None)
    else:
        ancestors = "'none'"
        response.headers["X-Frame-Options"] = "DENY"
    if "Content-Security-Policy" not in response.headers:  # a view may send a stricter one (an SVG's)
        response.headers["Content-Security-Policy"] = content_security_policy(ancestors)
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers.setdefault("Referrer-Policy", "strict-origin-when-cross-origin")  # a page may ask for less
    response.headers.setdefault("Cross-Origin-Opener-Policy", "same-origin")
    return response


def init_app(app: Flask) -> None:
    app.after_request(add_security_headers)
