"""Embeds, oEmbed (https://oembed.com, type rich) and who may frame which page."""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import parse_qs, urlsplit

from .conftest import code_of

HOST = "http://localhost"


def oembed(client, **params):
    return client.get("/oembed", query_string=params)


def test_oembed_rich_json_follows_the_spec(client):
    code = code_of("seed3")
    response = oembed(client, url=f"{HOST}/r/{code}", format="json")
    assert response.status_code == 200 and response.mimetype == "application/json"
    body = response.get_json()
    # required for every type, and for type rich (oEmbed 1.0, section 2.3.4)
    assert body["version"] == "1.0" and body["type"] == "rich"
    assert isinstance(body["width"], int) and isinstance(body["height"], int)
    iframe = re.fullmatch(r'<iframe src="([^"]+)" width="(\d+)" height="(\d+)"[^>]*></iframe>', body["html"])
    assert iframe, body["html"]
    assert unescape(iframe.group(1)) == f"{HOST}/embed/r/{code}"
    assert (int(iframe.group(2)), int(iframe.group(3))) == (body["width"], body["height"])
    assert body["provider_name"] and body["provider_url"] == f"{HOST}/"
    assert body["title"].startswith("Floating bridge") and "1♠" not in body["title"]  # no spoiler in previews
    # the embed it points to renders
    assert client.get(f"/embed/r/{code}").status_code == 200


def test_oembed_honours_maxwidth_and_maxheight(client):
    url = f"{HOST}/r/{code_of('seed3')}"
    full = oembed(client, url=url).get_json()
    small = oembed(client, url=url, maxwidth=320, maxheight=240).get_json()
    assert small["width"] <= 320 and small["height"] <= 240
    assert (small["width"], small["height"]) != (full["width"], full["height"])
    assert f'width="{small["width"]}" height="{small["height"]}"' in small["html"]
    large = oembed(client, url=url, maxwidth=5000, maxheight=5000).get_json()
    assert (large["width"], large["height"]) == (full["width"], full["height"])
    assert oembed(client, url=url, maxwidth="wide").status_code == 400


def test_oembed_unknown_urls_are_404_and_other_formats_501(client, archived):
    code = code_of("seed3")
    assert oembed(client, url=f"{HOST}/r/not-a-code!!").status_code == 404
    assert oembed(client, url=f"https://elsewhere.example/r/{code}").status_code == 404
    assert oembed(client, url=f"{HOST}/about").status_code == 404
    assert oembed(client, url=f"{HOST}/g/zzzzzzzz").status_code == 404
    assert oembed(client, url=f"{HOST}/r/{code}", format="xml").status_code == 501
    assert oembed(client).status_code == 400
    archived_game = oembed(client, url=f"{HOST}/g/{archived['revoke']}").get_json()
    assert f"/embed/g/{archived['revoke']}" in archived_game["html"]


def test_replay_pages_carry_oembed_discovery(client, archived):
    code = code_of("seed3")
    for path in (f"/r/{code}", f"/g/{archived['seed3']}"):
        html = client.get(path).get_data(as_text=True)
        link = re.search(r'<link rel="alternate" type="application/json\+oembed" href="([^"]+)"', html)
        assert link, path
        href = urlsplit(unescape(link.group(1)))
        assert href.path == "/oembed"
        query = parse_qs(href.query)
        assert query["url"] == [f"{HOST}{path}"] and query["format"] == ["json"]
        assert client.get(f"{href.path}?{href.query}").get_json()["type"] == "rich"


def test_only_embeds_may_be_framed(client, archived):
    code = code_of("seed3")
    for path in ("/", f"/r/{code}", f"/g/{archived['seed3']}", f"/r/{code}.json", "/r/bad!!", "/oembed?url=x"):
        response = client.get(path)
        csp = response.headers["Content-Security-Policy"]
        assert "frame-ancestors 'none'" in csp, path
        assert response.headers["X-Frame-Options"] == "DENY", path
    for path in (f"/embed/r/{code}", f"/embed/g/{archived['seed3']}"):
        response = client.get(path)
        assert response.status_code == 200
        assert "frame-ancestors *" in response.headers["Content-Security-Policy"]
        assert "X-Frame-Options" not in response.headers


def test_embed_is_compact_with_stepping_and_theme(client):
    code = code_of("seed3")
    html = client.get(f"/embed/r/{code}?theme=dark").get_data(as_text=True)
    assert 'data-theme="dark"' in html
    assert 'class="site"' not in html  # no site header or footer
    assert 'id="replay-data"' in html and 'data-go="next"' in html
    assert f'href="/r/{code}"' in html  # a way out to the full replay
