"""`crewline demo` in a real browser: the page the command prints shows the demo crew."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.async_api import Browser, expect

from tests.browser.conftest import ARTIFACTS
from tests.e2e.test_demo import DEMO_MEMBERS, Demo, start_demo, stop_demo

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


@pytest.fixture
def demo(tmp_path: Path) -> Iterator[Demo]:
    running = start_demo(tmp_path)
    yield running
    stop_demo(running)


async def test_the_demo_page_shows_the_crew_within_30_seconds(browser: Browser, demo: Demo) -> None:
    """Within 30 s of the command the browser shows the four members, who needs the reader,
    and Radar's cards with their buttons and live countdown."""
    context = await browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = await context.new_page()
        await page.goto(f"{demo.url}/#/m/radar")
        left_ms = max(1000.0, (demo.started + 30 - time.monotonic()) * 1000)
        await expect(page.locator("#roster a.member")).to_have_count(4, timeout=left_ms)
        for name in DEMO_MEMBERS:
            await expect(page.locator("#roster")).to_contain_text(name)
        await expect(page.locator("#roster a.member[data-slug=radar]")).to_contain_text(
            "needs you · 2 open"
        )
        cards = page.locator("li.msg[data-kind=card]")
        await expect(cards).to_have_count(2)
        await expect(cards.first.get_by_role("button")).to_have_text(
            ["Run tonight", "Postpone a week", "Cancel it", "Send suggestion", "Edit", "Dismiss"]
        )
        await expect(cards.first.locator(".countdown")).to_contain_text("left")
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        await page.screenshot(path=str(ARTIFACTS / "demo-01-radar.png"))
        await page.get_by_role("link", name="Atlas").click()
        await expect(page.locator("#thread-title")).to_have_text("Atlas")
        await expect(cards).to_have_count(1)
        await expect(cards).to_contain_text("refactor/auth-7")
        await page.screenshot(path=str(ARTIFACTS / "demo-02-atlas-worker.png"))
    finally:
        await context.close()
