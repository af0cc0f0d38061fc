"""Edit on the concierge's suggestion: the reply opens prefilled, and nothing is answered."""

from __future__ import annotations

from typing import Any

import pytest

from crewline.config import Config
from crewline.testing import FakeClock
from tests.driver import Crew
from tests.harness import Harness, MemoryHarness, Shown
from tests.harnesses.local import LocalHarness


async def _two_open(crew: Crew) -> tuple[str, Shown]:
    """Two requests open (so a typed reply answers neither); the second's card, which
    carries the concierge's suggestion. Returns the member's key and that card."""
    key = await crew.add_member()
    await crew.escalate(key, message="Ship v2 tonight?", options=["yes", "no"])
    await crew.escalate(key, message="Delete the old migrations directory? Default: keep.")
    await crew.crewline.bot.concierge.idle()
    await crew.delivered()
    card = next(
        m
        for m in crew.harness.messages("radar")
        if "migrations" in m.text and "concierge suggests:" in m.text
    )
    return key, card


async def _second_answered(crew: Crew) -> None:
    records = (await crew.conversation())["escalations"]
    assert [(r["state"], r["answer"]) for r in records] == [
        ("pending", None),
        ("answered", "no, keep them"),
    ]


async def _open_slack_modal(harness: Harness, card: Shown) -> dict[str, Any]:
    """The owner presses Edit on a Slack card; the modal Slack was asked to open."""
    from crewline.transports.slack.blocks import ACTION_PREFIX
    from tests.harnesses.slack import SlackHarness

    assert isinstance(harness, SlackHarness)
    edit = card.buttons.index("Edit")
    click = harness.fake.block_actions_payload(
        user_id=harness.owner,
        channel=harness.dm,
        message_ts=card.ref,
        action_id=f"{ACTION_PREFIX}{edit}",
        value=card.payloads[edit],
        thread_ts=harness.root("radar"),
    )
    assert await harness.send_interaction(click) == 200
    await harness.fake.wait_until(lambda: bool(harness.fake.modals))
    modal: dict[str, Any] = harness.fake.modals[-1]
    return modal


@pytest.mark.parametrize("harness", ["memory", "local"], indirect=True)
async def test_edit_opens_the_reply_prefilled_with_the_suggestion(crew: Crew) -> None:
    """The receipt of Edit carries the suggestion's text for the reply box."""
    key = await crew.add_member()
    await crew.escalate(
        key,
        message="Delete the old migrations directory? Default: keep.",
        options=["keep", "delete"],
    )
    await crew.crewline.bot.concierge.idle()
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


@pytest.mark.parametrize("harness", ["telegram"], indirect=True)
async def test_telegram_edit_opens_a_reply_holding_the_suggestion(crew: Crew) -> None:
    """Edit on Telegram: a ForceReply prompt in the card's thread shows the suggestion (tap
    to copy, and as the placeholder); the edited reply sent to it answers the request."""
    from tests.harnesses.telegram import TelegramHarness

    harness = crew.harness
    assert isinstance(harness, TelegramHarness)
    key = await crew.add_member()
    await crew.escalate(key, message="Delete the old migrations directory? Default: keep.")
    await crew.crewline.bot.concierge.idle()
    await crew.delivered()
    card = next(m for m in harness.messages("radar") if "concierge suggests:" in m.text)
    suggestion = await crew.crewline.store.suggestion(
        (await crew.conversation())["escalations"][0]["escalation_id"]
    )
    assert suggestion is not None
    await harness.press("radar", card, card.buttons.index("Edit"))
    prompts = [
        m
        for m in harness.fake.calls_to("sendMessage")
        if "force_reply" in str(m.params.get("reply_markup"))
    ]
    assert len(prompts) == 1
    assert suggestion.text in prompts[0].params["text"]
    assert suggestion.text[:64] in str(prompts[0].params["reply_markup"])
    await harness.say("radar", "No: keep them until Friday")
    view = (await crew.conversation())["escalations"][0]
    assert (view["state"], view["answer"], view["answered_via"]) == (
        "answered",
        "No: keep them until Friday",
        "text",
    )


@pytest.mark.parametrize("harness", ["slack"], indirect=True)
async def test_slack_edit_opens_a_modal_whose_send_answers_the_question(crew: Crew) -> None:
    """Edit on Slack opens a modal prefilled with the suggestion; its Send is the owner's
    reply naming the question card, which it answers (with two requests open, too)."""
    from tests.harnesses.slack import SlackHarness

    harness = crew.harness
    assert isinstance(harness, SlackHarness)
    key = await crew.add_member()
    await crew.escalate(key, message="Ship v2 tonight?", options=["yes", "no"])
    asked = await crew.call(
        key,
        "POST",
        "/api/session-control/ask",
        json={
            "question": "Delete the old migrations directory? Default: keep.",
            "options": ["keep", "delete"],
        },
    )
    question_id = asked.json()["question_id"]
    await crew.crewline.bot.concierge.idle()
    await crew.delivered()
    card = next(
        m
        for m in harness.messages("radar")
        if "migrations" in m.text and "concierge suggests:" in m.text
    )
    suggestion = await crew.crewline.store.suggestion(question_id)
    assert suggestion is not None
    modal = await _open_slack_modal(harness, card)
    assert modal["blocks"][0]["element"]["initial_value"] == suggestion.text
    payload = harness.fake.view_submission_payload(
        user_id=harness.owner, view=modal, value="no, keep them"
    )
    assert await harness.send_interaction(payload) == 200
    answered = await crew.wait_for_event(key, "question_answered")
    assert (answered["body"]["answer"], answered["body"]["by"]) == ("no, keep them", "user")
    assert (await crew.conversation())["escalations"][0]["state"] == "pending"


@pytest.mark.parametrize("harness", ["discord"], indirect=True)
@pytest.mark.parametrize("restart", [False, True], ids=["same-process", "after-a-restart"])
async def test_a_discord_edit_modal_answers_the_request_it_was_opened_for(
    crew: Crew, restart: bool
) -> None:
    """Edit on Discord answers the press with a modal holding the suggestion; its Submit is
    the owner's reply naming the escalation, which it answers. The modal's custom_id names
    the record, so a process restarted since it opened (which never saw it) routes it too."""
    from tests.harnesses.discord import DiscordHarness

    harness = crew.harness
    assert isinstance(harness, DiscordHarness)
    _, card = await _two_open(crew)
    await harness.press("radar", card, card.buttons.index("Edit"))
    assert len(harness.fake.modals) == 1
    modal = harness.fake.modals[0]
    text_input = modal["components"][0]["components"][0]
    records = (await crew.conversation())["escalations"]
    suggestion = await crew.crewline.store.suggestion(records[1]["escalation_id"])
    assert suggestion is not None and text_input["value"] == suggestion.text
    if restart:
        await crew.restart()
    submitted = await harness.fake.submit_modal(modal, {text_input["custom_id"]: "no, keep them"})
    receipt = await harness.receipt(str(submitted.id))
    assert receipt.accepted, receipt
    await _second_answered(crew)


@pytest.mark.parametrize("harness", ["slack"], indirect=True)
async def test_a_slack_edit_modal_opened_before_a_restart_answers_after_it(crew: Crew) -> None:
    """Slack's modal carries the record and thread in its private_metadata: its Send after a
    restart answers the record it was opened for."""
    from tests.harnesses.slack import SlackHarness

    harness = crew.harness
    assert isinstance(harness, SlackHarness)
    key, card = await _two_open(crew)
    modal = await _open_slack_modal(harness, card)
    await crew.restart()
    payload = harness.fake.view_submission_payload(
        user_id=harness.owner, view=modal, value="no, keep them"
    )
    assert await harness.send_interaction(payload) == 200
    await crew.wait_for_event(key, "escalation_answered")
    await _second_answered(crew)


@pytest.mark.parametrize("harness", ["telegram"], indirect=True)
async def test_a_telegram_edit_prompt_sent_before_a_restart_is_answered_after_it(
    crew: Crew,
) -> None:
    """Telegram's Edit keeps nothing in the process: the reply to the prompt is a typed reply
    in the card's thread, so it answers the request after a restart too."""
    from tests.harnesses.telegram import TelegramHarness

    harness = crew.harness
    assert isinstance(harness, TelegramHarness)
    key = await crew.add_member()
    await crew.escalate(key, message="Delete the old migrations directory? Default: keep.")
    await crew.crewline.bot.concierge.idle()
    await crew.delivered()
    card = next(m for m in harness.messages("radar") if "concierge suggests:" in m.text)
    await harness.press("radar", card, card.buttons.index("Edit"))
    prompts = [
        m
        for m in harness.fake.calls_to("sendMessage")
        if "force_reply" in str(m.params.get("reply_markup"))
    ]
    assert len(prompts) == 1
    await crew.restart()
    await harness.say("radar", "No: keep them until Friday")
    view = (await crew.conversation())["escalations"][0]
    assert (view["state"], view["answer"]) == ("answered", "No: keep them until Friday")


@pytest.mark.parametrize("topics", [True, False], ids=["topic", "chain"])
async def test_a_telegram_edit_prompt_answers_its_own_record_of_two_after_a_restart(
    config: Config, clock: FakeClock, topics: bool
) -> None:
    """With two requests open (where a typed reply answers neither) the reply to the Edit
    prompt answers the one it was opened for — the prompt names it, and the process that
    reads the reply after a restart never saw the prompt sent."""
    from crewline.transports.telegram.refs import parse_message_ref
    from tests.harnesses.telegram import telegram_crew

    async with telegram_crew(config, clock, has_topics_enabled=topics) as (harness, crew):
        key = await crew.add_member()
        await crew.escalate(key, message="Ship v2 tonight?", options=["yes", "no"])
        await crew.escalate(key, message="Delete the old migrations directory? Default: keep.")
        await crew.crewline.bot.concierge.idle()
        await crew.delivered()
        card = next(
            m
            for m in harness.messages("radar")
            if "migrations" in m.text and "concierge suggests:" in m.text
        )
        await harness.press("radar", card, card.buttons.index("Edit"))
        prompt = next(m for m in harness.messages("radar") if "Edit the concierge's" in m.text)
        records = (await crew.conversation())["escalations"]
        assert [r["state"] for r in records] == ["pending", "pending"]
        assert records[1]["escalation_id"] in prompt.text
        await crew.restart()
        said = await harness.say(
            "radar", "no, keep them", reply_to=parse_message_ref(prompt.ref)[1]
        )
        assert said is not None and said.accepted, said
        assert said.escalation_id == records[1]["escalation_id"]
        event = await crew.wait_for_event(key, "escalation_answered")
        assert event["body"]["escalation_id"] == records[1]["escalation_id"]
        records = (await crew.conversation())["escalations"]
        assert [(r["state"], r["answer"]) for r in records] == [
            ("pending", None),
            ("answered", "no, keep them"),
        ]
