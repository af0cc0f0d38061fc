"""The concierge's rules (SPEC §4) in-process: its judgement under each policy, its buttons
and their presses, undo in both session states (across a restart too), the ledger, and what
drops a suggestion. The platforms' drawing of its line and buttons stays in
tests/e2e/test_concierge.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from crewline.bot.concierge import ConciergeSettings, feature
from crewline.models import JUDGEMENTS, Session
from tests.core.kit import STRANGER, HeldStore, Kit, labels, running

SUGGESTION_BUTTONS = ("Send suggestion", "Edit", "Dismiss")
ROUTINE = "Shall I proceed with the plan?"
# Careful, with evidence for a pick: the default the question states.
WITH_DEFAULT = "Delete the old migrations directory? Default: keep."


async def _routine_answered(kit: Kit) -> Session:
    """Radar, under ``answer routine``, with a routine question the concierge answered."""
    radar = await kit.add_member()
    said = await kit.command("concierge", "answer", "routine")
    assert said.notice is not None and "answer routine" in said.notice
    await kit.escalate(radar, ROUTINE)
    await kit.delivered()
    assert [(e.state.value, e.answered_by) for e in await kit.store.escalations("radar")] == [
        ("answered", "concierge")
    ]
    return radar


async def test_dismiss_hides_the_suggestion_and_edit_answers_nothing(kit: Kit) -> None:
    """Edit answers nothing; Dismiss hides the suggestion and its buttons."""
    radar = await kit.add_member()
    await kit.escalate(radar, WITH_DEFAULT)
    await kit.delivered()
    card = await kit.shown_with("concierge suggests:")
    await kit.press(card, "Edit")
    assert await kit.states() == ["pending"]
    await kit.press(card, "Dismiss")
    await kit.delivered()
    shown = kit.memory.cards("radar")[0]
    assert "concierge suggests" not in shown.current.text
    assert "Send suggestion" not in labels(shown)


async def test_an_irreversible_question_is_not_answered_even_under_always(kit: Kit) -> None:
    """`always` still sends an irreversible question to the human, saying why."""
    radar = await kit.add_member()
    await kit.command("concierge", "answer", "always")
    await kit.escalate(radar, "Force-push to main?")
    await kit.delivered()
    await kit.shown_with("needs you: irreversible: it force-pushes to main")
    assert await kit.states() == ["pending"]


async def test_undo_before_the_session_read_the_answer_withdraws_it_unseen(kit: Kit) -> None:
    """Undo of an unread answer: the event never reaches the session; the card is pending."""
    radar = await _routine_answered(kit)
    line = await kit.shown_with("concierge answered:")
    notice = (await kit.press(line, "Undo")).notice
    assert notice is not None and "never reached the session" in notice
    kinds = [e.kind for e in await kit.read(radar)]
    assert "escalation_answered" not in kinds
    assert "concierge_answer_withdrawn" not in kinds
    await kit.delivered()
    assert await kit.states() == ["pending"]
    assert "Reply in this thread to answer." in kit.memory.cards("radar")[0].current.text
    assert "Withdrawn" in (await kit.shown_with("concierge answered:")).current.text


async def test_undo_after_the_session_read_the_answer_tells_it_to_disregard_it(kit: Kit) -> None:
    """Undo of a read answer: a concierge_answer_withdrawn event; the record reopens."""
    radar = await _routine_answered(kit)
    await kit.event(radar, "escalation_answered")
    said = (await kit.command("concierge", "undo")).notice
    assert said is not None and "told to disregard" in said
    event = await kit.event(radar, "concierge_answer_withdrawn")
    assert event.body["delivery"] == "steer"
    assert "Disregard it" in event.body["text"]
    assert await kit.states() == ["pending"]
    again = (await kit.command("concierge", "undo")).notice
    assert again is not None and "no answer left to undo" in again


async def test_after_a_restart_undo_of_an_unread_answer_still_withdraws_it_unseen(
    tmp_path: Path,
) -> None:
    """Whether the session read the answer is kept in the store: a restart between the
    answer and the undo still withdraws an unread answer silently."""
    async with running(tmp_path) as kit:
        radar = await _routine_answered(kit)
    async with running(tmp_path, clock=kit.clock, memory=kit.memory) as again:
        notice = (await again.command("concierge", "undo")).notice
        assert notice is not None and "never reached the session" in notice
        kinds = [e.kind for e in await again.read(radar)]
        assert "escalation_answered" not in kinds
        assert "concierge_answer_withdrawn" not in kinds
        assert await again.states() == ["pending"]


async def test_after_a_restart_undo_of_a_read_answer_tells_the_session(tmp_path: Path) -> None:
    """A read recorded before the restart still counts after it: the session is told."""
    async with running(tmp_path) as kit:
        radar = await _routine_answered(kit)
        answered = await kit.event(radar, "escalation_answered")
    async with running(tmp_path, clock=kit.clock, memory=kit.memory) as again:
        said = (await again.command("concierge", "undo")).notice
        assert said is not None and "told to disregard" in said
        again.read_to[radar.id] = answered.cursor
        events = await again.read(radar)
        assert [e.kind for e in events] == ["escalation_reopened", "concierge_answer_withdrawn"]
        assert events[1].body["answer"] == answered.body["answer"]
        assert await again.states() == ["pending"]


async def test_identical_questions_are_judged_twice(kit: Kit) -> None:
    """No answer becomes a standing grant: each question has its own ledger decision."""
    radar = await kit.add_member()
    await kit.command("concierge", "answer", "routine")
    for _ in range(2):
        await kit.escalate(radar, ROUTINE)
    await kit.delivered()
    answered = [e for e in await kit.store.ledger() if e.decision == "answered"]
    assert len({e.record_id for e in answered}) == 2


async def test_status_says_the_policy_and_it_survives_a_restart(tmp_path: Path) -> None:
    """`/concierge` says the policy in force; the owner's choice is kept over a restart."""
    async with running(tmp_path) as kit:
        await kit.add_member()
        before = (await kit.command("concierge", "status")).notice
        assert before is not None and "answer never" in before
        await kit.command("concierge", "act", "on")
    async with running(tmp_path, clock=kit.clock, memory=kit.memory) as again:
        after = (await again.command("concierge", "status")).notice
        assert after is not None and "act on" in after


async def test_a_strangers_press_on_the_concierges_buttons_is_refused_and_audited(
    kit: Kit,
) -> None:
    """Only the owner sends, edits, dismisses or undoes; anyone else changes nothing."""
    radar = await kit.add_member()
    await kit.escalate(radar, WITH_DEFAULT)
    await kit.delivered()
    card = await kit.shown_with("concierge suggests:")
    refused = await kit.press(card, "Send suggestion", user=STRANGER)
    assert not refused.accepted
    assert await kit.states() == ["pending"]
    assert len(await kit.store.sel(action_prefix="click:not_owner")) == 1


async def test_a_question_card_carries_the_suggestion_and_send_answers_it(kit: Kit) -> None:
    """A blocking question gets the same suggestion line and buttons; Send answers it."""
    radar = await kit.add_member()
    await kit.bot.questions.ask(radar, ROUTINE, ["yes", "no"])
    await kit.delivered()
    card = await kit.shown_with("concierge suggests:")
    assert labels(card)[-3:] == SUGGESTION_BUTTONS
    await kit.press(card, "Send suggestion")
    event = await kit.event(radar, "question_answered")
    assert event.body["by"] == "user"


async def test_another_sessions_message_drops_the_suggestions_it_reached(kit: Kit) -> None:
    """SPEC §4: a suggestion is dropped when a reply reaches the session — anyone's, so also
    another session's session_send. The cards lose it; the records still wait; a message to
    another member drops nothing, and a question asked after the message is suggested anew."""
    radar = await kit.add_member()
    await kit.add_member("hawk", "Hawk")
    sender = await kit.add_session("plain")
    first = (await kit.escalate(radar, WITH_DEFAULT)).id
    second = (await kit.escalate(radar, "Force-push to main?")).id
    await kit.delivered()
    store = kit.store
    assert await store.suggestion(first) is not None
    assert await store.suggestion(second) is not None
    stale = await kit.shown_with("migrations")
    stale_send = stale.current.buttons[labels(stale).index("Send suggestion")].payload

    await kit.bot.messages.send(sender, "hawk", "Hawk: the scan is done")
    await kit.delivered()
    assert await store.suggestion(first) is not None  # another member's message reached not radar

    await kit.bot.messages.send(sender, "radar", "I took care of the migrations; hold the push")
    await kit.event(radar, "message")
    await kit.delivered()
    assert await store.suggestion(first) is None
    assert await store.suggestion(second) is None
    cards = kit.memory.cards("radar")
    assert len(cards) == 2
    assert all("concierge suggests" not in c.current.text for c in cards)
    assert all("Send suggestion" not in labels(c) for c in cards)
    assert await kit.states() == ["pending"] * 2
    notice = (await kit.press_payload(stale_send)).notice
    assert notice == "There is no suggestion to use here any more."
    assert await kit.states() == ["pending"] * 2

    third = (await kit.escalate(radar, "Drop the users table?")).id
    await kit.delivered()
    assert await store.suggestion(third) is not None


async def test_a_strangers_undo_press_is_refused_privately_and_the_answer_stands(
    kit: Kit,
) -> None:
    """Only the owner undoes: a stranger's press on Undo is refused to them alone (audited),
    and the concierge's answer stands."""
    await _routine_answered(kit)
    line = await kit.shown_with("concierge answered:")
    receipt = await kit.press(line, "Undo", user=STRANGER)
    assert (receipt.accepted, receipt.code) == (False, "not_owner")
    assert receipt.notice and "owner" in receipt.notice  # said to the presser alone
    assert await kit.store.sel(action_prefix="click:not_owner")
    assert [(e.state.value, e.answered_by) for e in await kit.store.escalations("radar")] == [
        ("answered", "concierge")
    ]
    assert [a.undone_at for a in await kit.store.concierge_answers()] == [None]


async def test_the_humans_answer_and_a_defaulted_window_are_ledger_records_too(kit: Kit) -> None:
    """Decisions the concierge did not make are on the record: one entry each, with the
    policy in force."""
    radar = await kit.add_member()
    typed = (await kit.escalate(radar, "Force-push to main?")).id
    await kit.delivered()
    said = await kit.say("no")
    assert said.escalation_id == typed
    windowed = (await kit.escalate(radar, "Quick one", deadline="PT1S", default_action="go")).id
    kit.clock.advance(2)
    await kit.windows.rearm()  # the window is due by the clock: closed now, not by its timer
    closed = await kit.event(radar, "window_closed")
    assert closed.body["state"] == "defaulted"
    await kit.delivered()
    mine = [
        (e.record_id, e.decision, e.policy)
        for e in await kit.store.ledger()
        if e.decision in ("human", "defaulted")
    ]
    assert sorted(mine) == sorted([(typed, "human", "never"), (windowed, "defaulted", "never")])


async def test_a_new_question_is_judged_while_an_answers_ledger_record_waits_to_be_written(
    tmp_path: Path,
) -> None:
    """The domain-event task hands each new question to the judging, in commit order; the
    ledger record of a human's answer is written by a task of the concierge's, never there:
    one write after another there put every later question (and the first draw of its card,
    which waits for the judgement) behind them, seconds behind under many agents."""
    async with running(tmp_path, store_type=HeldStore) as kit:
        store = kit.store
        assert isinstance(store, HeldStore)
        radar = await kit.add_member()
        first = (await kit.escalate(radar, "Force-push to main?", options=["yes", "no"])).id
        await kit.delivered()
        store.writes.clear()  # from here the domain-event task's writes wait
        try:
            said = await kit.say("no")
            assert said.escalation_id == first
            second = (await kit.escalate(radar, "Drop the legacy users table?")).id
            await kit.wait_until(
                lambda: any(
                    "Drop the legacy" in m.current.text and "needs you:" in m.current.text
                    for m in kit.shown()
                )
            )
            judged = [e.decision for e in await kit.store.ledger() if e.record_id == second]
            assert judged == ["escalated"]
        finally:
            store.writes.set()
        await kit.delivered()
        assert "human" in [e.decision for e in await kit.store.ledger() if e.record_id == first]


async def test_a_reply_reaching_the_session_drops_its_suggestions(kit: Kit) -> None:
    """The owner's typed reply with two requests open answers neither but reaches the
    session, so both suggestions (made for what it waited on) leave their cards; a Send on
    a card drawn before is refused."""
    radar = await kit.add_member()
    first = (await kit.escalate(radar, WITH_DEFAULT)).id
    second = (await kit.escalate(radar, "Force-push to main? Default: no.")).id
    await kit.delivered()
    assert await kit.store.suggestion(first) is not None
    assert await kit.store.suggestion(second) is not None
    stale = await kit.shown_with("migrations")
    stale_send = stale.current.buttons[labels(stale).index("Send suggestion")].payload
    said = await kit.say("hold on, I am looking at both")
    assert said.escalation_id is None  # ambiguous: answered neither
    await kit.event(radar, "human_message")
    assert await kit.store.suggestion(first) is None
    assert await kit.store.suggestion(second) is None
    await kit.delivered()
    assert all("concierge suggests" not in c.current.text for c in kit.memory.cards("radar"))
    receipt = await kit.press_payload(stale_send)
    assert (receipt.accepted, receipt.code) == (False, "no_suggestion")
    assert await kit.states() == ["pending"] * 2


async def test_a_strangers_concierge_command_is_refused_privately_and_audited(kit: Kit) -> None:
    """Someone who owns nothing types /concierge answer always: refused, SEL, nothing kept."""
    await kit.add_member()
    receipt = await kit.memory.command(STRANGER, "concierge", "answer", "always")
    assert (receipt.accepted, receipt.code) == (False, "not_owner")
    assert await kit.store.sel(action_prefix="command:not_owner")
    assert (await kit.bot.concierge.policy()).answer.value == "never"


async def test_a_fact_another_member_said_answers_a_which_question(kit: Kit) -> None:
    """Fleet retrieval through the store's full-text search: under routine, "which port"
    is answered with the value another member said; the asker's own rows are not facts,
    and with no member having said it the question waits for the human."""
    probe = await kit.add_member("probe", "Probe")
    radar = await kit.add_member()
    await kit.command("concierge", "answer", "routine")
    await kit.bot.messages.post(probe, "Scan done: staging answered on port 4321, not 8080.")
    await kit.escalate(radar, "Which port did the probe session find?")
    event = await kit.event(radar, "escalation_answered")
    assert event.body["by"] == "concierge"
    assert "4321" in event.body["answer"]
    scout = await kit.add_member("scout", "Scout")
    await kit.escalate(scout, "Which version did the release session tag?")
    await kit.delivered()
    assert await kit.states("scout") == ["pending"]


async def test_a_start_judges_every_unjudged_open_record_a_page_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Records made while the concierge was off have no judgement: the next start with it
    on judges each of them once, over more than one page, and the start after judges
    none again."""
    monkeypatch.setattr(feature, "RESUME_PAGE", 2)
    async with running(tmp_path, concierge=ConciergeSettings(enabled=False)) as kit:
        radar = await kit.add_member()
        for n in range(5):
            await kit.escalate(radar, f"Shall I run step {n}?")
        await kit.delivered()
        assert await kit.store.ledger() == []
        records = {e.id for e in await kit.store.escalations("radar", pending_only=True)}
    assert len(records) == 5
    for _ in range(2):
        async with running(tmp_path, clock=kit.clock, memory=kit.memory) as again:
            await again.delivered()
            judged = [e.record_id for e in await again.store.ledger() if e.decision in JUDGEMENTS]
            assert sorted(judged) == sorted(records)


@pytest.mark.parametrize(
    ("question", "lazy"),
    [
        ("Force-push to main?", True),  # irreversible: never answered, under any policy
        (WITH_DEFAULT, True),  # careful: suggested only
        (ROUTINE, False),  # may be answered (under `answer routine`): an agent waits for it
    ],
)
async def test_a_judgement_no_policy_lets_answer_shares_the_next_commit(
    kit: Kit, monkeypatch: pytest.MonkeyPatch, question: str, lazy: bool
) -> None:
    """A judgement that cannot answer is written ``lazy`` (it may share the commit of the
    change that comes next: the press's answer, mostly); one that may answer is not, under
    every policy (the owner may change it meanwhile), `never` the default included."""
    hub = kit.bot.hub
    written: list[bool] = []
    change = hub.change

    async def spied(transaction: Any, *, heavy: bool = False, lazy: bool = False) -> Any:
        if getattr(transaction, "__qualname__", "").startswith("Concierge._write."):
            written.append(lazy)
        return await change(transaction, heavy=heavy, lazy=lazy)

    monkeypatch.setattr(hub, "change", spied)
    radar = await kit.add_member()
    await kit.escalate(radar, question)
    await kit.delivered()
    await kit.bot.concierge.idle()
    assert written == [lazy]
    assert await kit.states() == ["pending"]  # `never`: nothing answered either way
