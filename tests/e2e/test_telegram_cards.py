"""Cards, commands, the bell and the pinned status on Telegram, seen at the Bot API."""

from __future__ import annotations

import pytest

from crewline.config import Config
from crewline.models import OutboundMessage
from crewline.testing import FakeClock
from crewline.transports.telegram import TelegramTransport
from crewline.transports.telegram.refs import parse_message_ref
from tests.harness import Shown
from tests.harnesses.telegram import TelegramHarness, telegram_crew

MODES = pytest.mark.parametrize("webhook", [False, True], ids=["polling", "webhook"])


@MODES
async def test_a_card_is_an_inline_keyboard_answered_at_once_and_settled_in_place(
    config: Config, clock: FakeClock, webhook: bool
) -> None:
    """Buttons carry e:<id>:<n>; a press is answered with a toast and the card loses them."""
    async with telegram_crew(config, clock, webhook=webhook) as (harness, crew):
        fake = harness.fake
        key = await crew.add_member()
        result = await crew.escalate(key, message="Ship v2?", options=["yes", "no"])
        # The concierge's suggestion may land before or after the card is first drawn:
        # let it, and the redraw it queues, settle, so the card is read in its final state.
        await crew.crewline.bot.concierge.idle()
        await crew.delivered()
        await harness.wait_until(lambda: len(harness.cards("radar")) == 1)
        card = harness.cards("radar")[0]
        chat_id, message_id = parse_message_ref(card.ref)
        stored = fake.message(chat_id, message_id)
        assert stored.parse_mode == "HTML"
        options = [data for data in stored.callback_data if data.startswith("e:")]
        assert options == [
            f"e:{result['escalation_id']}:0",
            f"e:{result['escalation_id']}:1",
        ]
        assert all(len(data.encode()) <= 64 for data in stored.callback_data)

        notice = await harness.press("radar", card, 0)
        assert notice == "Answered: yes"
        answer = fake.calls_to("answerCallbackQuery")[-1]
        assert answer.params.get("show_alert") in (None, False)
        await harness.wait_until(lambda: stored.reply_markup is None)
        assert "Answered: yes — by you" in (stored.text or "")
        assert [m.ref for m in harness.messages("radar")] == [card.ref]


async def test_hostile_text_is_escaped_for_html_and_markdown_is_drawn(
    config: Config, clock: FakeClock
) -> None:
    """Angle brackets and ampersands reach the reader as typed; **bold** becomes bold."""
    async with telegram_crew(config, clock) as (harness, crew):
        key = await crew.add_member("radar", "R&D <Radar>")
        message = "Run `rm -rf </tmp>`? <script>alert(1)</script> & **really**"
        await crew.escalate(key, message=message, options=["<b>yes</b>"])
        await harness.wait_until(lambda: len(harness.cards("radar")) == 1)
        card = harness.cards("radar")[0]
        stored = harness.fake.message(*parse_message_ref(card.ref))
        assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp; <b>really</b>" in (stored.text or "")
        assert "<code>rm -rf &lt;/tmp&gt;</code>" in (stored.text or "")
        assert "Run rm -rf </tmp>? <script>alert(1)</script> & really" in card.text
        assert card.choices == ("<b>yes</b>",)
        assert [t.name for t in harness.fake.chat(harness.fake.owner).topics.values()] == [
            "R&D <Radar>"
        ]


async def test_an_unchanged_redraw_is_a_success(config: Config, clock: FakeClock) -> None:
    """Telegram's 'message is not modified' is what an unchanged redraw gets: no error."""
    async with telegram_crew(config, clock) as (harness, crew):
        key = await crew.add_member()
        await crew.call(key, "POST", "/api/session/messages", json={"text": "same"})
        await harness.wait_until(lambda: len(harness.messages("radar")) == 1)
        shown = harness.messages("radar")[0]
        transport = crew.crewline.transport("telegram")
        assert isinstance(transport, TelegramTransport)
        thread = transport.opened_threads["radar"]
        message = OutboundMessage(author="Radar", text="same")
        await transport.update(thread, shown.ref, message)
        await transport.update(thread, shown.ref, message)
        edits = harness.fake.calls_to("editMessageText")
        assert [c.status for c in edits][-1] == 400
        assert "message is not modified" in str(edits[-1].response)


async def test_commands_are_registered_and_answered_to_the_person(
    config: Config, clock: FakeClock
) -> None:
    """set_my_commands lists concierge, roster, help; /start is answered like /help."""
    async with telegram_crew(config, clock) as (harness, crew):
        fake = harness.fake
        assert [c["command"] for c in fake.commands()] == ["concierge", "roster", "help"]
        await crew.add_member()
        answer = await harness.command("start")
        assert answer is not None and "/roster" in answer and "/help" in answer
        nothing = await harness.command("concierge", "undo")
        assert nothing is not None and "no answer left to undo" in nothing


async def test_the_status_message_is_pinned_and_edited_in_place(
    config: Config, clock: FakeClock
) -> None:
    """One pinned status message in the owner's chat follows needs-you and open counts."""
    async with telegram_crew(config, clock) as (harness, crew):
        fake = harness.fake
        key = await crew.add_member()
        await crew.escalate(key, message="Ship?", options=["yes"])
        chat = fake.chat(fake.owner)
        await harness.wait_until(lambda: chat.pinned_message_id is not None)
        status = fake.message(fake.owner, chat.pinned_message_id or 0)
        await harness.wait_until(lambda: "Radar</b>: needs you, 1 open" in (status.text or ""))
        await harness.press("radar", await _card(harness), 0)
        await harness.wait_until(lambda: "Radar</b>: all clear" in (status.text or ""))
        statuses = [m for m in fake.messages(fake.owner) if "crew status" in (m.text or "")]
        assert statuses == [status]
        assert status.message_thread_id is None and len(status.edits) >= 1


async def test_the_bell_is_one_message_per_goal_edited_as_requests_stack(
    config: Config, clock: FakeClock
) -> None:
    """Two escalations of one goal: one bell outside the topic, saying two (redraws of one
    bell collapse, so it may have been edited or drawn with both at once)."""
    async with telegram_crew(config, clock) as (harness, crew):
        fake = harness.fake
        key = await crew.add_member()
        await crew.escalate(key, message="Tag it?", goal="release", options=["yes"])
        await crew.escalate(key, message="Publish notes?", goal="release")
        await crew.escalate(key, message="Unrelated", goal="cleanup")
        await harness.wait_until(
            lambda: any("2 requests" in versions[-1] for versions in harness.bells().values())
        )
        await crew.delivered()
        bells = [m for m in fake.messages(fake.owner) if "needs you</b>" in (m.text or "")]
        assert len(bells) == 2
        assert all(m.message_thread_id is None for m in bells)
        release = harness.bells()["escalation:radar:release"]
        assert "Tag it?" in release[-1] and "Publish notes?" in release[-1]


async def _card(harness: TelegramHarness) -> Shown:
    await harness.wait_until(lambda: len(harness.cards("radar")) == 1)
    return harness.cards("radar")[0]
