"""/docs is served whole by crewline: the pages and every script, style and icon
they reference load from crewline itself (no CDN), so they work on a machine offline."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

from tests.driver import Crew

pytestmark = pytest.mark.parametrize("harness", ["memory"], indirect=True)

KINDS = {".js": "javascript", ".css": "text/css", ".png": "image/png"}


class _References(HTMLParser):
    """Every ``src`` and ``href`` of a page, and the spec URLs its inline script names."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []
        self._script = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found += [
            value for name, value in attrs if name in ("src", "href", "spec-url") and value
        ]

    def handle_data(self, data: str) -> None:
        self.found += re.findall(r"url: '([^']+)'", data)


def _references(html: str) -> list[str]:
    parser = _References()
    parser.feed(html)
    return parser.found


async def test_the_docs_page_and_each_asset_it_references_load_from_crewline(crew: Crew) -> None:
    """Each reference is a path on crewline (no scheme, no host), and each answers 200 with
    a body of its kind: the page is complete with no other server reachable."""
    page = "/docs"
    response = await crew.call(None, "GET", page)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    references = _references(response.text)
    assert "/openapi.json" in references
    assets = [r for r in references if r != "/openapi.json"]
    assert any(a.endswith(".js") for a in assets), references
    assert not re.search(r"(?:https?:)?//\w", response.text), "an absolute URL on the page"
    for asset in assets:
        assert asset.startswith("/docs/assets/"), f"{page} references {asset}"
        loaded = await crew.call(None, "GET", asset)
        assert loaded.status_code == 200, asset
        kind = KINDS[asset[asset.rindex(".") :]]
        assert kind in loaded.headers["content-type"], (asset, loaded.headers["content-type"])
        assert len(loaded.content) > 1000, asset


async def test_the_docs_assets_are_not_listed_as_operations(crew: Crew) -> None:
    """The pages and their assets are not API operations: /openapi.json does not list them."""
    schema = (await crew.call(None, "GET", "/openapi.json")).json()
    assert not [p for p in schema["paths"] if p.startswith(("/docs", "/redoc"))]


async def test_there_is_no_redoc_page(crew: Crew) -> None:
    """ReDoc's page loads its logo from its vendor's CDN, so crewline does not serve it."""
    assert (await crew.call(None, "GET", "/redoc")).status_code == 404
