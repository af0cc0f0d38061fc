"""Edit on the concierge's suggestion: the reply opens prefilled, and nothing is answered."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from crewline.config import Config
from crewline.testing import FakeClock
from tests.driver import Crew
from tests.harness import MemoryHarness
from tests.harnesses.local import LocalHarness


@pytest.fixture(params=["memory", "local"])
async def crew(
    request: pytest.FixtureRequest, config: Config, clock: FakeClock
) -> AsyncIterator[Crew]:
    harness = MemoryHarness() if request.param == "memory" else LocalHarness()
    async with harness.running() as running:
        driver = Crew(config, clock, [running])
        await driver.start()
        yield driver
        await driver.stop()


async def test_edit_opens_the_reply_prefilled_with_the_suggestion(crew: Crew) -> None:
    """The receipt of Edit carries the suggestion's text for the reply box."""
    key = await crew.add_member()
    await crew.escalate(key, message="Delete the old migrations directory?", options=["yes", "no"])
    await crew.crewline.hub.concierge.idle()
    await crew.delivered()
    harness = crew.harness
    card = next(m for m in harness.messages("radar") if "concierge suggests:" in m.text)
    suggestion = await crew.crewline.store.suggestion(
        (await crew.conversation())["escalations"][0]["escalation_id"]
    )
    assert suggestion is not None
    payload = card.payloads[card.buttons.index("Edit")]
    if isinstance(harness, MemoryHarness):
        receipt = await harness.memory.press_payload(
            harness.owner, harness.memory.threads["radar"], payload
        )
        prefill = receipt.prefill
    else:
        assert isinstance(harness, LocalHarness)
        prefill = (await harness.post("/inbox/click", {"thread": "radar", "payload": payload}))[
            "prefill"
        ]
    assert prefill == suggestion.text
    assert (await crew.conversation())["escalations"][0]["state"] == "pending"
