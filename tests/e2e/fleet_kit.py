"""What the fleet-read tests share: a server whose crew said some rows, and what the
concierge's fleet read hands the gate for a question asked after them."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from crewline import crew as crew_admin
from crewline.app.server import Crewline
from crewline.config import Config
from crewline.policy import Fact
from crewline.transports.memory import MemoryTransport

OWNER = "memory:owner"


async def fleet_read(
    tmp_path: Path, question: str, said: Sequence[tuple[str, str, str]]
) -> list[Fact]:
    """The rows the concierge's fleet read hands the gate for ``question`` asked by a member
    of its own, after each ``(member slug, display name, text)`` of ``said`` was posted."""
    config = Config(data_dir=tmp_path, port=0, transports=(), concierge_answer="routine")
    async with Crewline(config, transports=[MemoryTransport()]) as running:
        sessions: dict[str, str] = {}
        for member, name, text in said:
            if member not in sessions:
                added = await crew_admin.add_member(
                    running.store, slug=member, name=name, owners=[OWNER], transports=["memory"]
                )
                sessions[member] = added.session
            await running.bot.messages.post(sessions[member], text)
        return await running.bot.concierge.facts("asker", question)
