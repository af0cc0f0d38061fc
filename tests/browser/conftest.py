"""Headless Chromium on the local inbox: one browser per test session, one context per test.

The browser is Debian's ``chromium`` (``apt-get install chromium``), driven by Playwright for
Python; Playwright never downloads a browser here. Without it the browser tests fail with
that instruction, unless ``CREWLINE_SKIP_BROWSER=1`` says to skip them.

Each test gets crewline serving the local inbox on a free loopback port with the wall clock
(the page counts veto windows down in real time), and a page whose screenshots go to
``artifacts/screenshots/`` (not committed).
"""

from __future__ import annotations

import os
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from playwright.async_api import Browser, Locator, Page, async_playwright, expect

from crewline.config import Config
from crewline.models import SystemClock
from tests.driver import Crew
from tests.harnesses.local import LocalHarness

# The buttons the concierge adds under every pending card's own answers.
SUGGESTION_BUTTONS = ["Send suggestion", "Edit", "Dismiss"]
# A card that needs the human with no evidence for a pick: only why, and Dismiss.
NEEDS_YOU_BUTTONS = ["Dismiss"]

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts" / "screenshots"
DOC_IMG = ROOT / "docs" / "img"
CHROMIUM = Path(os.environ.get("CREWLINE_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_FOUND = CHROMIUM.exists()
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TIMEOUT_MS = 10_000

expect.set_options(timeout=TIMEOUT_MS)


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def browser() -> AsyncIterator[Browser]:
    """Chromium, launched once (Playwright gives it a fresh temporary profile)."""
    if not CHROMIUM_FOUND:
        if os.environ.get("CREWLINE_SKIP_BROWSER") == "1":
            pytest.skip(f"{CHROMIUM} is missing and CREWLINE_SKIP_BROWSER=1")
        pytest.fail(
            f"{CHROMIUM} is missing: install chromium (apt-get install chromium) to run the "
            "browser tests, or set CREWLINE_SKIP_BROWSER=1 to skip them",
            pytrace=False,
        )
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        yield launched
        await launched.close()


@pytest.fixture
def inbox_harness() -> LocalHarness:
    """The human's side; a test module overrides it to change the bind address."""
    return LocalHarness()


@pytest_asyncio.fixture(loop_scope="session")
async def crew(config: Config, inbox_harness: LocalHarness) -> AsyncIterator[Crew]:
    """crewline with the local inbox on a free loopback port, on the wall clock."""
    async with inbox_harness.running():
        driver = Crew(config, SystemClock(), [inbox_harness])  # the wall clock, not a fake one
        await driver.start()
        yield driver
        await driver.stop()


class InboxPage:
    """One browser tab on the inbox, with the few gestures the tests repeat."""

    def __init__(self, page: Page, url: str, test: str) -> None:
        self.page = page
        self.url = url
        self.test = re.sub(r"[^\w-]+", "-", test).strip("-")
        self.shots = 0
        self.errors: list[str] = []
        page.on("pageerror", lambda error: self.errors.append(str(error)))

    async def open(self, member: str | None = None) -> None:
        await self.page.goto(f"{self.url}/#/m/{member}" if member else f"{self.url}/")
        await expect(self.page.locator("#status")).to_have_text("live")

    def cards(self) -> Locator:
        return self.page.locator("li.msg[data-kind=card]")

    def member(self, slug: str) -> Locator:
        return self.page.locator(f"#roster a.member[data-slug={slug}]")

    async def type(self, text: str) -> None:
        box = self.page.get_by_role("textbox", name="Message")
        await box.fill(text)
        await box.press("Enter")
        await expect(box).to_have_value("")

    async def shot(self, state: str) -> Path:
        """Save what the page shows now as an artifact of this test."""
        self.shots += 1
        path = ARTIFACTS / f"{self.test}-{self.shots:02d}-{state}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        await self.page.screenshot(path=str(path))
        return path

    async def doc_shot(self, name: str) -> Path:
        """An artifact like ``shot``; with ``CREWLINE_DOC_SHOTS=1`` also ``docs/img/<name>.png``
        (how the documentation's pictures of the inbox are made)."""
        path = await self.shot(name)
        if os.environ.get("CREWLINE_DOC_SHOTS") == "1":
            DOC_IMG.mkdir(parents=True, exist_ok=True)
            (DOC_IMG / f"{name}.png").write_bytes(path.read_bytes())
        return path


@pytest_asyncio.fixture(loop_scope="session")
async def inbox(
    browser: Browser, crew: Crew, request: pytest.FixtureRequest
) -> AsyncIterator[InboxPage]:
    """A fresh browser context (no cookies) on the running crewline's inbox."""
    context = await browser.new_context(
        viewport={"width": 1200, "height": 820}, timezone_id="Europe/Berlin", locale="en-GB"
    )
    page = await context.new_page()
    shown = InboxPage(page, crew.url, request.node.name)
    yield shown
    await context.close()
    assert shown.errors == [], f"the page raised: {shown.errors}"
