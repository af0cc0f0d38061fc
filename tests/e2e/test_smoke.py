from __future__ import annotations

from crewline.server import Crewline
from crewline.transports.memory import MemoryTransport
from tests.conftest import add_member, api


async def test_escalation_card_lands_on_both_transports(crewline: Crewline) -> None:
    """An escalation by a member's session lands as a card on every bound transport."""
    key = await add_member(crewline)
    async with api(crewline, key) as client:
        response = await client.post("/api/session-control/escalate",
                                     json={"message": "Ship v2?", "options": ["yes", "no"]})
    assert response.status_code == 200, response.text
    for name in ("memory", "memory-b"):
        transport = crewline.transport(name)
        assert isinstance(transport, MemoryTransport)
        await crewline.outboxes[name].wait_idle()
        cards = transport.cards("radar")
        assert len(cards) == 1
        assert [b.label for b in cards[0].current.buttons] == ["yes", "no"]
