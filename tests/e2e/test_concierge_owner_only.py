"""Only the owner sets the concierge's policy, on each platform's own command: someone who
owns nothing runs `/concierge answer always` (Slack's slash command, Telegram's bot command,
Discord's application command) and is refused privately, with an SEL record; nothing is
kept, and the owner's same command then is.
"""

from __future__ import annotations

import pytest

from crewline.models import Receipt
from tests.driver import Crew
from tests.harness import Harness
from tests.harnesses.discord import DiscordHarness
from tests.harnesses.slack import SlackHarness
from tests.harnesses.telegram import TelegramHarness

pytestmark = pytest.mark.parametrize("harness", ["slack", "telegram", "discord"], indirect=True)


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
    assert (await crew.crewline.bot.concierge.policy()).answer.value == "never"
    said = await crew.harness.command("concierge", "answer", "routine")  # the owner's
    assert said is not None and "answer routine" in said
    assert (await crew.crewline.bot.concierge.policy()).answer.value == "routine"
