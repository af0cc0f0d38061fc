"""The concierge end to end (SPEC §4), over every transport harness: what each platform
draws of it and what its buttons do there — a suggestion with its buttons, Send suggestion
pressed, an answer said in the thread with its Undo. The concierge's rules (its policy, the
presses' outcomes, undo, the ledger, what drops a suggestion) are tested in-process, in
tests/core/test_concierge.py.
"""

from __future__ import annotations

from typing import Any

from tests.driver import Crew
from tests.harness import Shown

SUGGESTION_BUTTONS = ("Send suggestion", "Edit", "Dismiss")
# Careful, with evidence for a pick: the default the question states.
WITH_DEFAULT = "Delete the old migrations directory? Default: keep."


async def _settled(crew: Crew) -> None:
    """Every judgement the concierge started is written, and every outbox is drained."""
    await crew.crewline.bot.concierge.idle()
    await crew.delivered()


async def _card_with(crew: Crew, words: str, member: str = "radar") -> Shown:
    harness = crew.harness
    await harness.wait_until(lambda: any(words in m.text for m in harness.messages(member)))
    return next(m for m in harness.messages(member) if words in m.text)


async def _ledger(crew: Crew) -> list[dict[str, Any]]:
    response = await crew.call(await crew.owner_token(), "GET", "/api/concierge/ledger")
    assert response.status_code == 200, response.text
    entries: list[dict[str, Any]] = response.json()["entries"]
    return entries


async def test_under_never_a_careful_question_gets_a_suggestion_with_its_buttons(
    crew: Crew,
) -> None:
    """The default policy answers nothing. With evidence (a default the question states) the
    card says the suggestion and offers Send, Edit and Dismiss after the answers; with none
    it picks nothing and says why the question needs the human, with Dismiss only."""
    key = await crew.add_member()
    result = await crew.escalate(key, message="Force-push to main?", options=["yes", "no"])
    await _settled(crew)
    card = await _card_with(crew, "needs you:")
    assert "it force-pushes to main" in card.text and "concierge suggests" not in card.text
    assert card.buttons == ("yes", "no", "Dismiss")
    ledger = await _ledger(crew)
    assert (ledger[0]["record_id"], ledger[0]["decision"]) == (result["escalation_id"], "escalated")
    assert ledger[0]["policy"] == "never"
    await crew.escalate(key, message=WITH_DEFAULT, options=["keep", "delete"])
    await _settled(crew)
    card = await _card_with(crew, "concierge suggests: keep")
    assert card.buttons == ("keep", "delete", *SUGGESTION_BUTTONS)
    records = (await crew.conversation())["escalations"]
    assert [r["state"] for r in records] == ["pending", "pending"]
    assert (await _ledger(crew))[0]["decision"] == "suggested"


async def test_send_suggestion_answers_as_the_human_via_suggestion(crew: Crew) -> None:
    """Send suggestion answers the record as the human (by user, via suggestion)."""
    key = await crew.add_member()
    await crew.escalate(key, message=WITH_DEFAULT)
    await _settled(crew)
    card = await _card_with(crew, "concierge suggests:")
    assert "Send suggestion" in card.buttons
    await crew.harness.press("radar", card, card.buttons.index("Send suggestion"))
    event = await crew.wait_for_event(key, "escalation_answered")
    assert (event["body"]["by"], event["body"]["via"]) == ("user", "suggestion")
    await crew.delivered()
    answered = await _card_with(crew, "Answered: ")
    assert answered.settled
    assert "concierge suggests" not in answered.text


async def test_under_routine_a_routine_question_is_answered_and_said_in_the_thread(
    crew: Crew,
) -> None:
    """With `/concierge answer routine` a go-ahead is answered by the concierge, visibly."""
    key = await crew.add_member()
    said = await crew.harness.command("concierge", "answer", "routine")
    assert said is not None and "answer routine" in said
    await crew.escalate(key, message="Shall I proceed with the plan?")
    event = await crew.wait_for_event(key, "escalation_answered")
    assert (event["body"]["by"], event["body"]["via"]) == ("concierge", "concierge")
    await _settled(crew)
    line = await _card_with(crew, "concierge answered:")
    assert line.buttons == ("Undo",)
    record = (await crew.conversation())["escalations"][0]
    assert (record["state"], record["answered_by"]) == ("answered", "concierge")
