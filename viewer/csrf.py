"""CSRF protection for the site's forms: a double-submit token plus an origin check.

A form page calls :func:`token` (in templates: ``{{ csrf_token() }}``), which gives the
browser a random ``csrf`` cookie (``HttpOnly``, ``SameSite=Strict``) and puts the same value
in a hidden field; :func:`verify` accepts a POST only when the field (or the
``X-CSRF-Token`` header that the page's script sends) equals the cookie, and when the
request's ``Origin``/``Sec-Fetch-Site`` say it comes from this site. Another site can neither
read the cookie nor make the browser send it along with a forged form.
"""

from __future__ import annotations

import hmac
import secrets
from urllib.parse import urlsplit

from flask import Blueprint, Response, g, request

COOKIE = "csrf"
FIELD = "csrf_token"
HEADER = "X-CSRF-Token"


class CsrfError(Exception):
    """A form post without a valid CSRF token or from another site."""


def token() -> str:
    """The CSRF token for this browser (made, and set as a cookie, on first use)."""
    found = getattr(g, "csrf_token", None)
    if found:
        return found
    cookie = request.cookies.get(COOKIE, "")
    if len(cookie) == 43 and cookie.replace("-", "").replace("_", "").isalnum():
        g.csrf_token = cookie
    else:
        g.csrf_token = secrets.token_urlsafe(32)
        g.csrf_new = True
    return g.csrf_token


def cross_site() -> str | None:
    """Why this request looks cross-site (a reason), or ``None`` when it is same-site."""
    fetch_site = request.headers.get("Sec-Fetch-Site")
    if fetch_site and fetch_site not in ("same-origin", "none"):
        return f"the request came from another site (Sec-Fetch-Site: {fetch_site[:20]})"
    origin = request.headers.get("Origin")
    if origin and origin != "null":
        try:
            netloc = urlsplit(origin).netloc
        except ValueError:  # e.g. "http://[::1": not an origin this server has
            netloc = ""
        if netloc.lower() != request.host.lower():
            return "the request came from another site (its Origin is not this server)"
    elif origin == "null":
        return "the request came from an opaque origin"
    return None


def verify() -> None:
    """Raise :class:`CsrfError` unless this POST carries this browser's token from this site."""
    reason = cross_site()
    if reason:
        raise CsrfError(reason)
    cookie = request.cookies.get(COOKIE, "")
    sent = request.headers.get(HEADER) or request.form.get(FIELD, "")
    if not cookie:
        raise CsrfError("the form's security cookie is missing: reload the page and try again "
                        "(cookies must be enabled)")
    if not sent or not hmac.compare_digest(cookie.encode(), sent.encode()):
        raise CsrfError("the form's security token does not match: reload the page and try again")


def _set_cookie(response: Response) -> Response:
    if getattr(g, "csrf_new", False):
        response.set_cookie(COOKIE, g.csrf_token, httponly=True, samesite="Strict",
                            secure=request.is_secure, path="/", max_age=7 * 24 * 3600)
        response.headers["Cache-Control"] = "no-store"
        g.csrf_new = False  # every blueprint that uses the token adds this hook: send the cookie once
    return response


def init_blueprint(bp: Blueprint) -> None:
    """Let ``bp``'s pages use ``csrf_token()`` in templates and send the cookie when made."""
    bp.app_context_processor(lambda: {"csrf_token": token})
    bp.after_app_request(_set_cookie)
