"""/docs in a real browser with every other host unreachable: the page draws the API from
crewline alone."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest
from playwright.async_api import Browser, Route, expect

from tests.browser.conftest import ARTIFACTS
from tests.driver import Crew

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


DRAWN = "#swagger-ui .opblock-summary-path[data-path='/api/session-control/escalate']"


async def test_the_api_docs_draw_offline_from_crewline_alone(browser: Browser, crew: Crew) -> None:
    """Requests to any other origin are refused; the page still draws the escalate operation,
    and every request it made went to crewline."""
    origin = urlsplit(crew.url).netloc
    context = await browser.new_context(viewport={"width": 1200, "height": 820})
    requested: list[str] = []
    errors: list[str] = []

    async def only_crewline(route: Route) -> None:
        requested.append(route.request.url)
        if urlsplit(route.request.url).netloc == origin:
            await route.continue_()
        else:
            await route.abort()

    try:
        await context.route("**/*", only_crewline)
        page = await context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        await page.goto(f"{crew.url}/docs")
        await expect(page.locator(DRAWN)).to_be_visible()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        await page.screenshot(path=str(ARTIFACTS / "api-docs.png"))
    finally:
        await context.close()
    assert len(requested) >= 3, requested  # the page, its script, the schema
    assert [url for url in requested if urlsplit(url).netloc != origin] == []
    assert errors == []
