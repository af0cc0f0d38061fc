"""Bound to a non-loopback address, the inbox asks for the login token printed at start.

The inbox decides from the address crewline binds; the test tells the transport it is bound
to 0.0.0.0 while the server itself stays on loopback (no test reaches outside it).
"""

from __future__ import annotations

import httpx
import pytest
from playwright.async_api import expect

from tests.bounds import HTTP_TIMEOUT
from tests.browser.conftest import InboxPage
from tests.driver import Crew
from tests.harnesses.local import LocalHarness

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]

TOKEN = "crw_l_test-token-for-the-browser-suite"


@pytest.fixture
def inbox_harness() -> LocalHarness:
    return LocalHarness(host="0.0.0.0", login_token=TOKEN)


async def test_the_login_token_is_required_off_loopback(crew: Crew, inbox: InboxPage) -> None:
    """Without the token the page and its data stay closed; with it the inbox opens."""
    key = await crew.add_member()
    await crew.call(key, "POST", "/api/session/messages", json={"text": "Hello from Radar."})
    async with httpx.AsyncClient(base_url=crew.url, timeout=HTTP_TIMEOUT) as stranger:
        assert (await stranger.get("/inbox/state")).status_code == 401
        sent = await stranger.post("/inbox/send", json={"thread": "radar", "text": "hi"})
        assert sent.status_code == 401
        refused = await stranger.post("/inbox/login", json={"token": "guess"})
        assert (refused.status_code, refused.json()["error"]["code"]) == (401, "invalid_token")

    await inbox.page.goto(f"{crew.url}/")
    login = inbox.page.get_by_label("Login token")
    await expect(login).to_be_visible()
    await expect(inbox.page.locator("#roster")).to_have_count(0)
    await login.fill("not-the-token")
    await inbox.page.get_by_role("button", name="Log in").click()
    await expect(inbox.page.get_by_role("alert")).to_contain_text("not the token")
    await inbox.shot("login-refused")

    await login.fill(TOKEN)
    await inbox.page.get_by_role("button", name="Log in").click()
    await expect(inbox.page.locator("#status")).to_have_text("live")
    await expect(inbox.page.locator("#roster a.member")).to_have_text(["Radar"])
    await inbox.shot("logged-in")
