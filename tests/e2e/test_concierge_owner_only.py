"""Only the owner sets the concierge's policy, on each platform's own command: someone who
owns nothing runs `/concierge answer always` (Slack's slash command, Telegram's bot command,
Discord's application command) and is refused privately, with an SEL record; nothing is
kept, and the owner's same command then is.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from crewline.config import Config
from crewline.models import Receipt
from crewline.testing import FakeClock
from tests.driver import Crew
from tests.harness import Harness
from tests.harnesses.discord import DiscordHarness
from tests.harnesses.slack import SlackHarness
from tests.harnesses.telegram import TelegramHarness


@pytest.fixture(params=["slack", "telegram", "discord"])
async def harness(request: pytest.FixtureRequest) -> AsyncIterator[Harness]:
    made: Harness
    if request.param == "slack":
        made = SlackHarness()
    elif request.param == "telegram":
        made = TelegramHarness()
    else:
        made = DiscordHarness()
    async with made.running() as running:
        yield running


@pytest.fixture
async def crew(config: Config, clock: FakeClock, harness: Harness) -> AsyncIterator[Crew]:
    driver = Crew(config, clock, [harness])
    await driver.start()
    yield driver
    await driver.stop()


async def _strangers_command(harness: Harness) -> Receipt | None:
    """The stranger runs `/concierge answer always` where that platform takes commands."""
    if isinstance(harness, SlackHarness):
        form = harness.fake.slash_command_payload(
            "/concierge", "answer always", user_id=harness.stranger, channel_id=harness.dm
        )
        assert await harness.post_signed(form) == 200
        return await harness.receipt(f"command:{form['trigger_id']}")
    if isinstance(harness, TelegramHarness):
        stranger = int(harness.stranger)
        sent = await harness.fake.send_command(
            stranger, "/concierge answer always", from_user=stranger
        )
        return await harness.handled(sent)
    assert isinstance(harness, DiscordHarness)
    run = await harness.fake.run_command(
        "concierge answer", {"policy": "always"}, user=harness.user(harness.stranger)
    )
    return await harness.receipt(str(run.id))


async def test_a_strangers_concierge_command_is_refused_and_audited(crew: Crew) -> None:
    await crew.add_member()
    receipt = await _strangers_command(crew.harness)
    assert receipt is not None and (receipt.accepted, receipt.code) == (False, "not_owner")
    assert await crew.crewline.store.sel(action_prefix="command:not_owner")
    assert (await crew.crewline.hub.concierge.policy()).answer.value == "never"
    said = await crew.harness.command("concierge", "answer", "routine")  # the owner's
    assert said is not None and "answer routine" in said
    assert (await crew.crewline.hub.concierge.policy()).answer.value == "routine"
