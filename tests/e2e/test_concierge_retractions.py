"""A row that takes a retrieved value back is retrieved by that value: "the finance batch now
starts at 04:15, not 03:00 anymore" names the invoice export in none of the question's words,
yet the concierge's fleet read hands it to the gate beside the row that says 03:00, and the
question goes to the human (docs/concierge.md, "A value superseded"). A row that only repeats
the value, taking nothing back, is not added."""

from __future__ import annotations

from pathlib import Path

from crewline import crew as crew_admin
from crewline.app.server import Crewline
from crewline.config import Config
from crewline.policy import Fact, judge
from crewline.transports.memory import MemoryTransport

OWNER = "memory:owner"
QUESTION = "When does the invoice export kick off?"
ANSWER = "invoice export kicks off at 03:00 (job inv_daily)."
TAKEN_BACK = "fyi the finance batch now starts at 04:15, not 03:00 anymore."
REPEATED = "the maintenance window runs from 03:00 to 05:00."


async def _facts(tmp_path: Path, said: list[tuple[str, str]]) -> list[Fact]:
    """What the concierge's fleet read hands the gate for ``QUESTION`` after ``said``."""
    config = Config(data_dir=tmp_path, port=0, transports=(), concierge_answer="routine")
    async with Crewline(config, transports=[MemoryTransport()]) as running:
        sessions: dict[str, str] = {}
        for member, text in said:
            if member not in sessions:
                added = await crew_admin.add_member(
                    running.store, slug=member, name=member, owners=[OWNER], transports=["memory"]
                )
                sessions[member] = added.session
            await running.bot.messages.post(sessions[member], text)
        return await running.bot.concierge.facts("asker", QUESTION)


async def test_alone_the_row_answers_and_a_repeated_value_is_not_read(tmp_path: Path) -> None:
    facts = await _facts(tmp_path, [("billing-bot", ANSWER), ("ops", REPEATED)])
    assert [f.text for f in facts] == [ANSWER]
    assert judge(QUESTION, facts=facts).answer == "03:00"


async def test_a_row_taking_the_value_back_is_read_beside_it(tmp_path: Path) -> None:
    said = [("billing-bot", ANSWER), ("finance", TAKEN_BACK), ("ops", REPEATED)]
    facts = await _facts(tmp_path, said)
    assert [f.text for f in facts] == [ANSWER, TAKEN_BACK]
    verdict = judge(QUESTION, facts=facts)
    assert verdict.answer is None and "not 03:00 anymore" in verdict.why, verdict
