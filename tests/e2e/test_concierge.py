"""The concierge end to end (SPEC §4), over every transport harness: suggestions with their
buttons, the owner's policy commands, answers said in the thread, undo in both session
states, and the ledger.
"""

from __future__ import annotations

from typing import Any

import pytest

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


async def test_dismiss_hides_the_suggestion_and_edit_answers_nothing(crew: Crew) -> None:
    """Edit answers nothing; Dismiss hides the suggestion and its buttons."""
    key = await crew.add_member()
    await crew.escalate(key, message=WITH_DEFAULT)
    await _settled(crew)
    card = await _card_with(crew, "concierge suggests:")
    # What Edit opens differs per platform (tests/e2e/test_concierge_edit.py); it answers nothing.
    await crew.harness.press("radar", card, card.buttons.index("Edit"))
    assert (await crew.conversation())["escalations"][0]["state"] == "pending"
    await crew.harness.press("radar", card, card.buttons.index("Dismiss"))
    await crew.delivered()
    shown = crew.harness.cards("radar")[0]
    assert "concierge suggests" not in shown.text
    assert "Send suggestion" not in shown.buttons


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


async def test_an_irreversible_question_is_not_answered_even_under_always(crew: Crew) -> None:
    """`always` still sends an irreversible question to the human, saying why."""
    key = await crew.add_member()
    await crew.harness.command("concierge", "answer", "always")
    await crew.escalate(key, message="Force-push to main?")
    await _settled(crew)
    await _card_with(crew, "needs you: irreversible: it force-pushes to main")
    assert (await crew.conversation())["escalations"][0]["state"] == "pending"


async def test_undo_before_the_session_read_the_answer_withdraws_it_unseen(crew: Crew) -> None:
    """Undo of an unread answer: the event never reaches the session; the card is pending."""
    key = await crew.add_member()
    await crew.harness.command("concierge", "answer", "routine")
    await crew.escalate(key, message="Shall I proceed with the plan?")
    await _settled(crew)
    line = await _card_with(crew, "concierge answered:")
    notice = await crew.harness.press("radar", line, line.buttons.index("Undo"))
    assert notice is not None and "never reached the session" in notice
    kinds = [e["kind"] for e in await crew.events(key)]
    assert "escalation_answered" not in kinds
    assert "concierge_answer_withdrawn" not in kinds
    await crew.delivered()
    assert (await crew.conversation())["escalations"][0]["state"] == "pending"
    card = crew.harness.cards("radar")[0]
    assert "Reply in this thread to answer." in card.text
    assert "Withdrawn" in (await _card_with(crew, "concierge answered:")).text


async def test_undo_after_the_session_read_the_answer_tells_it_to_disregard_it(
    crew: Crew,
) -> None:
    """Undo of a read answer: a concierge_answer_withdrawn event; the record reopens."""
    key = await crew.add_member()
    await crew.harness.command("concierge", "answer", "routine")
    await crew.escalate(key, message="Shall I proceed with the plan?")
    await crew.wait_for_event(key, "escalation_answered")
    said = await crew.harness.command("concierge", "undo")
    assert said is not None and "told to disregard" in said
    event = await crew.wait_for_event(key, "concierge_answer_withdrawn")
    assert event["body"]["delivery"] == "steer"
    assert "Disregard it" in event["body"]["text"]
    assert (await crew.conversation())["escalations"][0]["state"] == "pending"
    again = await crew.harness.command("concierge", "undo")
    assert again is not None and "no answer left to undo" in again


async def test_after_a_restart_undo_of_an_unread_answer_still_withdraws_it_unseen(
    crew: Crew,
) -> None:
    """Whether the session read the answer is kept in the store: a restart between the
    answer and the undo still withdraws an unread answer silently."""
    key = await crew.add_member()
    await crew.harness.command("concierge", "answer", "routine")
    await crew.escalate(key, message="Shall I proceed with the plan?")
    await _settled(crew)
    assert (await crew.conversation())["escalations"][0]["answered_by"] == "concierge"
    await crew.restart()
    notice = await crew.harness.command("concierge", "undo")
    assert notice is not None and "never reached the session" in notice
    kinds = [e["kind"] for e in await crew.events(key)]
    assert "escalation_answered" not in kinds
    assert "concierge_answer_withdrawn" not in kinds
    assert (await crew.conversation())["escalations"][0]["state"] == "pending"


async def test_after_a_restart_undo_of_a_read_answer_tells_the_session(crew: Crew) -> None:
    """A read recorded before the restart still counts after it: the session is told."""
    key = await crew.add_member()
    await crew.harness.command("concierge", "answer", "routine")
    await crew.escalate(key, message="Shall I proceed with the plan?")
    answered = await crew.wait_for_event(key, "escalation_answered")
    await _settled(crew)
    await crew.restart()
    said = await crew.harness.command("concierge", "undo")
    assert said is not None and "told to disregard" in said
    events = await crew.events(key, after=answered["cursor"])
    assert [e["kind"] for e in events] == ["escalation_reopened", "concierge_answer_withdrawn"]
    assert events[1]["body"]["answer"] == answered["body"]["answer"]
    assert (await crew.conversation())["escalations"][0]["state"] == "pending"


async def test_identical_questions_are_judged_twice(crew: Crew) -> None:
    """No answer becomes a standing grant: each question has its own ledger decision."""
    key = await crew.add_member()
    await crew.harness.command("concierge", "answer", "routine")
    for _ in range(2):
        await crew.escalate(key, message="Shall I proceed with the plan?")
    await _settled(crew)
    answered = [e for e in await _ledger(crew) if e["decision"] == "answered"]
    assert len({e["record_id"] for e in answered}) == 2


async def test_status_says_the_policy_and_it_survives_a_restart(crew: Crew) -> None:
    """`/concierge` says the policy in force; the owner's choice is kept over a restart."""
    await crew.add_member()
    before = await crew.harness.command("concierge", "status")
    assert before is not None and "answer never" in before
    await crew.harness.command("concierge", "act", "on")
    await crew.restart()
    after = await crew.harness.command("concierge", "status")
    assert after is not None and "act on" in after


async def test_a_strangers_press_on_the_concierges_buttons_is_refused_and_audited(
    crew: Crew,
) -> None:
    """Only the owner sends, edits, dismisses or undoes; anyone else changes nothing."""
    key = await crew.add_member()
    await crew.escalate(key, message=WITH_DEFAULT)
    await _settled(crew)
    card = await _card_with(crew, "concierge suggests:")
    harness = crew.harness
    await harness.press("radar", card, card.buttons.index("Send suggestion"), user=harness.stranger)
    assert (await crew.conversation())["escalations"][0]["state"] == "pending"
    audited = await crew.crewline.store.sel(action_prefix="click:not_owner")
    assert len(audited) == 1


async def test_a_question_card_carries_the_suggestion_and_send_answers_it(crew: Crew) -> None:
    """A blocking question gets the same suggestion line and buttons; Send answers it."""
    key = await crew.add_member()
    asked = await crew.call(
        key,
        "POST",
        "/api/session-control/ask",
        json={"question": "Shall I proceed with the plan?", "options": ["yes", "no"]},
    )
    assert asked.status_code == 200, asked.text
    await _settled(crew)
    card = await _card_with(crew, "concierge suggests:")
    assert card.buttons[-3:] == SUGGESTION_BUTTONS
    await crew.harness.press("radar", card, card.buttons.index("Send suggestion"))
    event = await crew.wait_for_event(key, "question_answered")
    assert event["body"]["by"] == "user"


@pytest.mark.parametrize("harness", ["memory", "telegram"], indirect=True)
async def test_another_sessions_message_drops_the_suggestions_it_reached(crew: Crew) -> None:
    """SPEC §4: a suggestion is dropped when a reply reaches the session — anyone's, so also
    another session's session_send. The cards lose it; the records still wait; a message to
    another member drops nothing, and a question asked after the message is suggested anew."""
    key = await crew.add_member()
    await crew.add_member("hawk", "Hawk")
    sender = await crew.add_session("plain")
    first = (
        await crew.escalate(key, message="Delete the old migrations directory? Default: keep.")
    )["escalation_id"]
    second = (await crew.escalate(key, message="Force-push to main?"))["escalation_id"]
    await _settled(crew)
    store = crew.crewline.store
    assert await store.suggestion(first) is not None
    assert await store.suggestion(second) is not None
    stale = await _card_with(crew, "migrations")
    assert "Send suggestion" in stale.buttons

    async def send(target: str, message: str) -> None:
        sent = await crew.call(
            sender,
            "POST",
            "/api/session-control/send",
            json={"target": target, "message": message},
        )
        assert sent.status_code == 200, sent.text

    await send("hawk", "Hawk: the scan is done")
    await _settled(crew)
    assert await store.suggestion(first) is not None  # another member's message reached not radar

    await send("radar", "I took care of the migrations; hold the push")
    await crew.wait_for_event(key, "message")
    await _settled(crew)
    assert await store.suggestion(first) is None
    assert await store.suggestion(second) is None
    cards = crew.harness.cards("radar")
    assert len(cards) == 2
    assert all("concierge suggests" not in c.text for c in cards)
    assert all("Send suggestion" not in c.buttons for c in cards)
    assert [r["state"] for r in (await crew.conversation())["escalations"]] == ["pending"] * 2
    notice = await crew.harness.press_payload(
        "radar", stale.payloads[stale.buttons.index("Send suggestion")]
    )
    assert notice == "There is no suggestion to use here any more."
    assert [r["state"] for r in (await crew.conversation())["escalations"]] == ["pending"] * 2

    third = (await crew.escalate(key, message="Drop the users table?"))["escalation_id"]
    await _settled(crew)
    assert await store.suggestion(third) is not None
