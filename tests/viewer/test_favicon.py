"""``/favicon.ico``: browsers, feed readers and link previews ask for it whatever a page names, so
it answers with the site's icon instead of a 404 (issue 24, "Small errors")."""

from __future__ import annotations

from pathlib import Path

import viewer

ICON = Path(viewer.__file__).parent / "static" / "favicon.svg"


def test_favicon_ico_is_the_sites_icon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    assert response.get_data() == ICON.read_bytes()
    assert "max-age=86400" in response.headers["Cache-Control"]
    # revalidation costs no body
    again = client.get("/favicon.ico", headers={"If-None-Match": response.headers["ETag"]})
    assert again.status_code == 304 and again.get_data() == b""


def test_favicon_ico_is_gzipped_for_clients_that_take_it(client):
    import gzip

    response = client.get("/favicon.ico", headers={"Accept-Encoding": "gzip"})
    assert response.status_code == 200 and response.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(response.get_data()) == ICON.read_bytes()


def test_a_head_request_answers_too(client):
    response = client.head("/favicon.ico")
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
