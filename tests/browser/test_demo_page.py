"""`crewline demo` in a real browser: the page the command prints shows the demo crew."""

from __future__ import annotations

import importlib.util
import time
from collections.abc import Iterator
from importlib.machinery import SourceFileLoader
from types import ModuleType

import pytest
from playwright.async_api import Browser, expect

from tests.browser.conftest import ARTIFACTS, DOC_IMG, ROOT
from tests.e2e.test_demo import DEMO_MEMBERS, Demo, start_demo, stop_demo

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Demo]:
    """One demo for the module: its tests only look (the Atlas click changes no state)."""
    running = start_demo(tmp_path_factory.mktemp("demo"))
    yield running
    stop_demo(running)


def _screenshot_script() -> ModuleType:
    """scripts/screenshot, whose CONTROLS_JS read the controls the picture was shot with."""
    loader = SourceFileLoader("screenshot", str(ROOT / "scripts" / "screenshot"))
    spec = importlib.util.spec_from_loader("screenshot", loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


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
        # The concierge's controls stand apart; its suggestion names no option, so no
        # answer is drawn as the recommended one.
        await expect(cards.first.locator(".controls button")).to_have_text(
            ["Send suggestion", "Edit", "Dismiss"]
        )
        await expect(cards.first.locator(".choice.recommended")).to_have_count(0)
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


async def test_the_readme_picture_shows_the_inbox_controls_of_today(
    browser: Browser, demo: Demo
) -> None:
    """The controls of the demo's Radar thread, read as scripts/screenshot reads them, are
    those listed beside docs/img/inbox.png, and the picture is the one they were listed
    with: a control added to (or renamed in) the inbox fails here until `make screenshot`
    draws the picture again."""
    script = _screenshot_script()
    picture = DOC_IMG / "inbox.png"
    recorded_hash, recorded = script.read_controls(picture)
    assert script.picture_hash(picture) == recorded_hash, (
        "docs/img/inbox.png is not the picture docs/img/inbox.controls.txt was written with:"
        " run make screenshot"
    )
    context = await browser.new_context(viewport={"width": 1280, "height": 920})
    try:
        page = await context.new_page()
        await page.goto(f"{demo.url}/#/m/radar")
        await expect(page.locator("#roster a.member")).to_have_count(4)
        cards = page.locator("li.msg[data-kind=card]")
        await expect(cards).to_have_count(2)
        for card in await cards.all():
            await expect(card.get_by_role("button", name="Dismiss")).to_be_visible()
        live = await page.evaluate(script.CONTROLS_JS)
    finally:
        await context.close()
    assert recorded, "the list of the picture's controls is empty"
    assert live == recorded, "the inbox's controls changed: run make screenshot"
