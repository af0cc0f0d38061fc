"""A row that takes a retrieved value back is retrieved by that value: "the finance batch now
starts at 04:15, not 03:00 anymore" names the invoice export in none of the question's words,
yet the concierge's fleet read hands it to the gate beside the row that says 03:00, and the
question goes to the human (docs/concierge.md, "A value superseded"). A row that only repeats
the value, taking nothing back, is not added."""

from __future__ import annotations

from pathlib import Path

from crewline.policy import Fact, judge
from tests.e2e.fleet_kit import fleet_read

QUESTION = "When does the invoice export kick off?"
ANSWER = "invoice export kicks off at 03:00 (job inv_daily)."
TAKEN_BACK = "fyi the finance batch now starts at 04:15, not 03:00 anymore."
REPEATED = "the maintenance window runs from 03:00 to 05:00."


async def _facts(tmp_path: Path, said: list[tuple[str, str]]) -> list[Fact]:
    """Rows said by members whose display name is their slug."""
    return await fleet_read(tmp_path, QUESTION, [(m, m, t) for m, t in said])


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
