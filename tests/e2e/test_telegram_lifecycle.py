"""Starting and stopping the Telegram transport: what it registers, what it refuses."""

from __future__ import annotations

import pytest

from crewline.app.server import Crewline
from crewline.config import Config
from crewline.errors import ConfigError
from crewline.testing import FakeClock
from crewline.transports.telegram import TelegramTransport
from crewline.transports.telegram.webhook import SECRET_HEADER
from tests.harnesses.telegram import WEBHOOK_SECRET, TelegramHarness, telegram_crew


async def test_a_refused_token_stops_crewline_at_start_naming_the_setting(
    config: Config, clock: FakeClock
) -> None:
    """A token Telegram answers 401 for is a ConfigError on telegram.bot_token, cleanly."""
    harness = TelegramHarness()
    async with harness.running():
        settings = harness.settings()
        wrong = TelegramTransport(
            type(settings)(bot_token="987654:SecretValue_x", api_url=settings.api_url)
        )
        with pytest.raises(ConfigError) as refused:
            async with Crewline(config, transports=[wrong], clock=clock):
                pass
        assert refused.value.details["key"] == "telegram.bot_token"
        assert "SecretValue" not in refused.value.message
        assert harness.fake.calls_to("getMe")[-1].status == 401


async def test_webhook_mode_registers_the_secret_and_one_connection(
    config: Config, clock: FakeClock
) -> None:
    """setWebhook gets the public URL, the secret and max_connections=1 (updates in order)."""
    async with telegram_crew(config, clock, webhook=True) as (harness, crew):
        fake = harness.fake
        call = fake.calls_to("setWebhook")[-1]
        assert call.params["url"] == harness.relay.url
        assert call.params["secret_token"] == WEBHOOK_SECRET
        assert call.params["max_connections"] == 1
        assert sorted(call.params["allowed_updates"]) == [
            "callback_query",
            "edited_message",
            "message",
        ]
        assert fake.webhook_secret == WEBHOOK_SECRET
        assert fake.calls_to("getUpdates") == []
        async with crew.client() as client:
            get = await client.get("/telegram/webhook")
            junk = await client.post(
                "/telegram/webhook", content=b"{not json", headers={SECRET_HEADER: WEBHOOK_SECRET}
            )
            elsewhere = await client.post("/telegram/other", headers={SECRET_HEADER: "x"})
        assert (get.status_code, junk.status_code, elsewhere.status_code) == (405, 400, 404)


async def test_polling_mode_drops_the_webhook_and_stops_cleanly(
    config: Config, clock: FakeClock
) -> None:
    """Polling deletes any webhook first; stopping closes the long poll."""
    async with telegram_crew(config, clock) as (harness, crew):
        fake = harness.fake
        assert fake.calls_to("deleteWebhook")
        await fake.wait_for(lambda: fake.long_poll_open)
        await crew.stop()
        assert not fake.long_poll_open
        assert crew.running is None
