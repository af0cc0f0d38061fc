"""Bad or hostile input on Telegram: each refused or ignored as it should be, nothing written,
and a SEL record where it is a security event."""

from __future__ import annotations

import pytest

from crewline.config import Config
from crewline.testing import FakeClock
from crewline.transports.refusals import AUDIT_EVERY
from crewline.transports.telegram.refs import TopicThread
from tests.harnesses.telegram import telegram_crew

MODES = pytest.mark.parametrize("webhook", [False, True], ids=["polling", "webhook"])


async def test_a_webhook_push_without_or_with_a_wrong_secret_is_refused_and_audited(
    config: Config, clock: FakeClock
) -> None:
    """Pushes lacking the registered secret get 403, reach nothing, and are audited: once
    per kind per ``AUDIT_EVERY`` of crewline's clock, the next record counting the others
    (the clock stands still here however long the flood takes)."""
    async with telegram_crew(config, clock, webhook=True) as (harness, crew):
        fake = harness.fake
        key = await crew.add_member()
        await crew.escalate(key, message="Ship?", options=["yes"])
        await harness.wait_until(lambda: len(harness.cards("radar")) == 1)
        thread = harness.thread("radar")
        assert isinstance(thread, TopicThread)
        rows = len(await crew.crewline.store.live_rows("radar"))
        wrong = await fake.send_text(
            fake.owner, "yes", message_thread_id=thread.topic_id, secret="not-the-secret"
        )
        missing = await fake.send_text(
            fake.owner, "yes", message_thread_id=thread.topic_id, secret=None
        )
        assert (wrong.status, missing.status) == (403, 403)
        assert not fake.is_confirmed(wrong.update_id)
        assert len(await crew.crewline.store.live_rows("radar")) == rows
        assert (await crew.conversation())["escalations"][0]["state"] == "pending"
        audit = await crew.crewline.store.sel(action_prefix="request:")
        assert [r.action for r in audit] == [
            "request:webhook_secret_wrong",
            "request:webhook_secret_missing",
        ]
        flood = [await fake.send_text(fake.owner, "yes", secret=f"guess-{n}") for n in range(10)]
        assert {sent.status for sent in flood} == {403}
        audit = await crew.crewline.store.sel(action_prefix="request:")
        assert len(audit) == 2  # a flood of forged pushes does not flood the log
        clock.advance(AUDIT_EVERY)
        after = await fake.send_text(fake.owner, "yes", secret="one-more-guess")
        assert after.status == 403
        audit = await crew.crewline.store.sel(action_prefix="request:")
        assert [(r.action, r.details["unrecorded_since"]) for r in audit] == [
            ("request:webhook_secret_wrong", 0),
            ("request:webhook_secret_missing", 0),
            ("request:webhook_secret_wrong", len(flood)),
        ]
        good = await fake.send_text(fake.owner, "yes", message_thread_id=thread.topic_id)
        assert good.status == 200
        await crew.wait_for_event(key, "escalation_answered")


async def test_a_strangers_press_in_the_forum_gets_an_alert_only_they_see(
    config: Config, clock: FakeClock
) -> None:
    """In a shared forum, a non-owner's press is refused with an alert and changes nothing."""
    async with telegram_crew(config, clock, has_topics_enabled=False, forum=True) as (
        harness,
        crew,
    ):
        fake = harness.fake
        key = await crew.add_member()
        result = await crew.escalate(key, message="Ship?", options=["yes", "no"])
        await harness.wait_until(lambda: len(harness.cards("radar")) == 1)
        card = harness.cards("radar")[0]
        shown_before = len(fake.messages(fake.forum or 0))
        notice = await harness.press("radar", card, 0, user=harness.stranger)
        assert notice == "Only this member's owner can answer its requests."
        query = fake.callback_query(
            fake.calls_to("answerCallbackQuery")[-1].params["callback_query_id"]
        )
        assert (query.from_user.id, query.show_alert) == (int(harness.stranger), True)
        assert len(fake.messages(fake.forum or 0)) == shown_before
        record = await crew.crewline.store.escalation(result["escalation_id"])
        assert record is not None and record.is_pending
        assert not harness.cards("radar")[0].settled
        audit = await crew.crewline.store.sel(action_prefix="click:")
        assert [(r.action, r.actor) for r in audit] == [
            ("click:not_owner", f"telegram:{harness.stranger}")
        ]


async def test_a_strangers_message_in_the_forum_is_refused_in_their_own_chat(
    config: Config, clock: FakeClock
) -> None:
    """A non-owner typing in a member's topic answers nothing; only they are told why."""
    async with telegram_crew(config, clock, has_topics_enabled=False, forum=True) as (
        harness,
        crew,
    ):
        fake = harness.fake
        key = await crew.add_member()
        await crew.escalate(key, message="Proceed?")
        await harness.wait_until(lambda: len(harness.cards("radar")) == 1)
        rows = len(await crew.crewline.store.live_rows("radar"))
        receipt = await harness.say("radar", "yes", user=harness.stranger)
        assert receipt is not None and receipt.code == "not_owner"
        told = fake.messages(int(harness.stranger))
        assert [m.text for m in told] == ["Only this member's owner can talk to it here."]
        assert len(await crew.crewline.store.live_rows("radar")) == rows
        assert (await crew.conversation())["escalations"][0]["state"] == "pending"
        assert [r.action for r in await crew.crewline.store.sel(action_prefix="message:")] == [
            "message:not_owner"
        ]


@MODES
@pytest.mark.parametrize(
    "payload",
    ["e:zzzz:0", "e:" + "f" * 100 + ":0", "q:0123456789abcdef:0;drop"],
    ids=["malformed", "oversized", "trailing"],
)
async def test_a_forged_callback_payload_is_refused_and_audited(
    config: Config, clock: FakeClock, webhook: bool, payload: str
) -> None:
    """Callback data no crewline button carries answers nothing; SEL records the attempt."""
    async with telegram_crew(config, clock, webhook=webhook) as (harness, crew):
        key = await crew.add_member()
        await crew.escalate(key, message="Ship?", options=["yes"])
        await harness.wait_until(lambda: len(harness.cards("radar")) == 1)
        notice = await harness.press_payload("radar", payload)
        assert notice == "This button is not one of crewline's."
        assert (await crew.conversation())["escalations"][0]["state"] == "pending"
        audit = await crew.crewline.store.sel(action_prefix="click:")
        assert [r.action for r in audit] == ["click:malformed_payload"]


@MODES
async def test_an_edited_command_is_never_run_again(
    config: Config, clock: FakeClock, webhook: bool
) -> None:
    """Editing '/roster' (an edited_message) reaches the core as an edit and runs nothing."""
    async with telegram_crew(config, clock, webhook=webhook) as (harness, crew):
        fake = harness.fake
        key = await crew.add_member()
        await crew.call(key, "POST", "/api/session/messages", json={"text": "hello"})
        await harness.wait_until(lambda: len(harness.messages("radar")) == 1)
        thread = harness.thread("radar")
        assert isinstance(thread, TopicThread)
        sent = await fake.send_command(fake.owner, "/roster", message_thread_id=thread.topic_id)
        await harness.handled(sent)
        replies = [m for m in fake.messages(fake.owner) if m.reply_to_message_id == sent.message_id]
        assert len(replies) == 1 and "Radar" in (replies[0].text or "")
        rows = len(await crew.crewline.store.live_rows("radar"))

        edited = await fake.edit_text(fake.owner, sent.message_id, "/help")
        receipt = await harness.handled(edited)
        assert receipt is not None and (receipt.accepted, receipt.code) == (
            False,
            "unknown_message",
        )
        replies = [m for m in fake.messages(fake.owner) if m.reply_to_message_id == sent.message_id]
        assert len(replies) == 1
        assert len(await crew.crewline.store.live_rows("radar")) == rows
        assert await crew.crewline.store.sel() == []
