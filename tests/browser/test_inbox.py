"""The local inbox in a real browser: cards, clicks, typed replies, the veto countdown, the
bell, commands and edits, each checked on the page and, where it matters, at the agent."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import expect

from tests.browser.conftest import NEEDS_YOU_BUTTONS, InboxPage
from tests.driver import Crew
from tests.e2e.boundary_scene import EDITED_ANSWER_EVENTS

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


# The concierge's suggestion on every pending card (docs/concierge.md), after its options.


async def test_a_card_appears_live_with_its_buttons(crew: Crew, inbox: InboxPage) -> None:
    """An escalation made while the page is open shows as a card with buttons, no reload."""
    key = await crew.add_member()
    await crew.call(key, "POST", "/api/session/messages", json={"text": "Starting the deploy."})
    await inbox.open("radar")
    await expect(inbox.page.get_by_text("Starting the deploy.")).to_be_visible()
    await expect(inbox.cards()).to_have_count(0)
    await crew.escalate(key, message="Ship v2 tonight?", options=["yes", "no"])
    card = inbox.cards().first
    await expect(card).to_contain_text("Ship v2 tonight?")
    await expect(card.get_by_role("button")).to_have_text(["yes", "no", *NEEDS_YOU_BUTTONS])
    await expect(inbox.member("radar")).to_contain_text("needs you · 1 open")
    await inbox.shot("card-live")


async def test_a_click_answers_the_card_and_the_agent_hears_it(
    crew: Crew, inbox: InboxPage
) -> None:
    """Pressing a button answers the record, the agent gets the event, the card is settled."""
    key = await crew.add_member()
    result = await crew.escalate(key, message="Which region?", options=["eu-west", "us-east"])
    await inbox.open("radar")
    card = inbox.cards().first
    await expect(card.get_by_role("button")).to_have_count(2 + len(NEEDS_YOU_BUTTONS))
    await inbox.shot("before-click")
    await card.get_by_role("button", name="us-east").click()
    event = await crew.wait_for_event(key, "escalation_answered")
    assert event["body"]["escalation_id"] == result["escalation_id"]
    assert event["body"]["answer"] == "us-east"
    await expect(card.get_by_role("button")).to_have_count(0)
    await expect(card).to_contain_text("Answered: us-east — by you")
    await expect(inbox.member("radar")).not_to_contain_text("needs you")
    await inbox.shot("answered")


async def test_a_typed_answer_with_one_pending_answers_it(crew: Crew, inbox: InboxPage) -> None:
    """With exactly one open request, a reply typed in the thread answers it."""
    key = await crew.add_member()
    await crew.escalate(key, message="Which port?", options=["8080", "9090"])
    await inbox.open("radar")
    await expect(inbox.cards().first.get_by_role("button")).to_have_count(
        2 + len(NEEDS_YOU_BUTTONS)
    )
    await inbox.type("9090")
    event = await crew.wait_for_event(key, "escalation_answered")
    assert (event["body"]["answer"], event["body"]["via"]) == ("9090", "text")
    mine = inbox.page.locator("li.msg.mine")
    await expect(mine).to_have_count(1)
    await expect(mine).to_contain_text("9090")
    await expect(inbox.cards().first).to_contain_text("Answered: 9090 — by you")
    await expect(inbox.cards().first.get_by_role("button")).to_have_count(0)
    await inbox.shot("typed-answer")


async def test_two_pending_a_typed_reply_shows_the_ambiguity_and_answers_nothing(
    crew: Crew, inbox: InboxPage
) -> None:
    """With two open requests a typed reply answers neither; the thread says which are open."""
    key = await crew.add_member()
    await crew.escalate(key, message="Deploy the API?", options=["yes", "no"])
    await crew.escalate(key, message="Deploy the worker?", options=["yes", "no"])
    await inbox.open("radar")
    await expect(inbox.cards()).to_have_count(2)
    await inbox.type("yes")
    notice = inbox.page.locator("li.msg[data-kind=notice]")
    await expect(notice).to_contain_text("2 requests are open")
    await expect(notice).to_contain_text("Deploy the API?")
    await expect(notice).to_contain_text("Deploy the worker?")
    for n in range(2):
        await expect(inbox.cards().nth(n).get_by_role("button")).to_have_count(2)
    conversation = await crew.conversation()
    assert [e["state"] for e in conversation["escalations"]] == ["pending", "pending"]
    await inbox.shot("ambiguous")


async def test_the_countdown_reaches_zero_and_the_card_shows_the_window_closed(
    crew: Crew, inbox: InboxPage
) -> None:
    """The veto line names its time once, in the reader's zone, counting down beside it; at
    zero the card says what will run."""
    key = await crew.add_member()
    await inbox.open("radar")
    await crew.escalate(
        key,
        message="Rotate the keys?",
        deadline="PT3S",
        default_action="rotate them",
        options=["rotate", "wait"],
    )
    card = inbox.cards().first
    countdown = card.locator(".countdown")
    deadline = card.locator("time.moment[data-deadline]")
    await expect(deadline).to_contain_text(re.compile(r"\bCES?T\b"))  # the page is in Berlin
    await expect(deadline).to_have_attribute("title", re.compile(r"UTC$"))
    await expect(countdown).to_contain_text("left")
    await expect(card).not_to_contain_text(" UTC")
    await inbox.shot("counting-down")
    await expect(card).to_contain_text(
        "Window closed — Radar said it would: rotate them", timeout=15_000
    )
    await expect(card.get_by_role("button")).to_have_count(0)
    await expect(countdown).to_have_count(0)
    event = await crew.wait_for_event(key, "window_closed")
    assert event["body"]["state"] == "defaulted"
    await inbox.shot("window-closed")


async def test_the_bell_stacks_two_escalations_of_one_goal_into_one_entry(
    crew: Crew, inbox: InboxPage
) -> None:
    """Two requests of one goal make one bell entry; it opens the member's thread."""
    key = await crew.add_member()
    await inbox.open()
    await crew.escalate(
        key, message="Cut the release branch?", options=["yes", "no"], goal="release"
    )
    await crew.escalate(key, message="Tag it v2.0?", options=["yes", "no"], goal="release")
    await expect(inbox.page.locator("#bell-count")).to_have_text("2")
    await inbox.page.get_by_role("button", name="Notifications").click()
    entries = inbox.page.locator("#bells .bell-item")
    await expect(entries).to_have_count(1)
    await expect(entries.first).to_contain_text("2 requests about release")
    await inbox.shot("bell-drawer")
    await entries.first.click()
    await expect(inbox.page).to_have_url(f"{crew.url}/#/m/radar")
    await expect(inbox.page.locator("#thread-title")).to_have_text("Radar")
    await expect(inbox.cards()).to_have_count(2)
    await expect(inbox.page.locator("#drawer")).to_be_hidden()


async def test_slash_commands_typed_in_the_composer_show_their_receipts(
    crew: Crew, inbox: InboxPage
) -> None:
    """/roster and /help reach the core; the answer shows to the reader alone."""
    key = await crew.add_member()
    await crew.escalate(key, message="One open request", options=["ok"])
    await inbox.open("radar")
    await expect(inbox.cards()).to_have_count(1)
    await inbox.type("/roster")
    notes = inbox.page.locator("#private .private-note")
    await expect(notes.last).to_contain_text("Radar (radar): needs you, 1 open")
    await inbox.type("/help")
    await expect(notes.last).to_contain_text("/roster")
    await expect(notes.last).to_contain_text("Only you see this")
    await expect(inbox.page.locator("li.msg.mine")).to_have_count(0)
    await inbox.shot("commands")


async def test_editing_your_own_message_reaches_the_member_as_an_edit(
    crew: Crew, inbox: InboxPage
) -> None:
    """The Edit action redraws your message and tells the member's session."""
    key = await crew.add_member()
    await crew.call(key, "POST", "/api/session/messages", json={"text": "Anything for me?"})
    await inbox.open("radar")
    await inbox.type("Please check teh logs")
    mine = inbox.page.locator("li.msg.mine")
    await expect(mine).to_contain_text("Please check teh logs")
    await mine.hover()
    await mine.get_by_role("button", name="Edit this message").click()
    await expect(inbox.page.get_by_role("textbox", name="Message")).to_have_value(
        "Please check teh logs"
    )
    await inbox.type("Please check the logs")
    await expect(mine).to_contain_text("Please check the logs")
    await expect(mine.locator(".edited")).to_have_text("edited")
    event = await crew.wait_for_event(key, "human_edit")
    assert event["body"]["text"] == "Please check the logs"
    await inbox.shot("edited")


async def test_an_edited_answer_answers_the_card_again(crew: Crew, inbox: InboxPage) -> None:
    """Editing the message that answered a card: the card is answered with the new text, and
    the agent reads the boundary, the reopening, then the new answer (via edit)."""
    key = await crew.add_member()
    asked = await crew.escalate(key, message="Which port?")
    await inbox.open("radar")
    card = inbox.cards().first
    await expect(card).to_contain_text("Reply in this thread to answer.")
    await inbox.type("8080")
    await expect(card).to_contain_text("Answered: 8080 — by you")
    heard = await crew.events(key)
    assert (heard[-1]["kind"], heard[-1]["body"]["answer"]) == ("escalation_answered", "8080")
    mine = inbox.page.locator("li.msg.mine")
    await mine.hover()
    await mine.get_by_role("button", name="Edit this message").click()
    await inbox.type("9090")
    asked_to_let_go = await crew.wait_for_event(key, "context_boundary")
    boundary = asked_to_let_go["body"]["boundary_id"]
    acked = await crew.call(key, "POST", f"/api/session/boundaries/{boundary}/ack")
    assert acked.status_code == 200, acked.text
    await expect(card).to_contain_text("Answered: 9090 — by you")
    await expect(card.get_by_role("button")).to_have_count(0)
    after = await crew.events(key, after=heard[-1]["cursor"])
    assert [e["kind"] for e in after] == EDITED_ANSWER_EVENTS
    answered = after[-1]["body"]
    assert (answered["escalation_id"], answered["answer"], answered["via"]) == (
        asked["escalation_id"],
        "9090",
        "edit",
    )
    await inbox.shot("edited-answer")


async def test_a_question_card_is_answered_by_its_button(crew: Crew, inbox: InboxPage) -> None:
    """A blocking question shows its options as buttons; a press answers the waiting agent."""
    key = await crew.add_member()
    await inbox.open("radar")
    await crew.call(
        key,
        "POST",
        "/api/session-control/ask",
        json={"question": "Pick a database", "options": ["sqlite", "postgres"]},
    )
    question = inbox.page.locator("li.msg[data-kind=question]")
    await expect(question).to_contain_text("Needs input")
    await question.get_by_role("button", name="postgres").click()
    event = await crew.wait_for_event(key, "question_answered")
    assert event["body"]["answer"] == "postgres"
    await expect(question).to_contain_text("Answered: postgres — by you")
    await expect(question.get_by_role("button")).to_have_count(0)


async def test_the_concierges_keys_edit_and_send_the_suggestion(
    crew: Crew, inbox: InboxPage
) -> None:
    """On an empty composer Ctrl+E puts the suggestion in it; Ctrl+Y sends it as yours."""
    key = await crew.add_member()
    result = await crew.escalate(key, message="Delete the old migrations directory? Default: keep.")
    await inbox.open("radar")
    card = inbox.cards().first
    await expect(card).to_contain_text("concierge suggests:")
    suggestion = await crew.crewline.store.suggestion(result["escalation_id"])
    assert suggestion is not None
    composer = inbox.page.locator("#composer-text")
    await composer.focus()
    await composer.press("Control+e")
    await expect(composer).to_have_value(suggestion.text)
    await composer.fill("")
    await composer.press("Control+y")
    event = await crew.wait_for_event(key, "escalation_answered")
    assert (event["body"]["answer"], event["body"]["via"]) == (suggestion.text, "suggestion")
    await expect(card.get_by_role("button")).to_have_count(0)
    await inbox.shot("concierge-keys")


async def test_the_concierges_keys_act_on_an_empty_composer_only_and_esc_dismisses(
    crew: Crew, inbox: InboxPage
) -> None:
    """With words in the composer Ctrl+Y sends nothing; on an empty one Esc dismisses."""
    key = await crew.add_member()
    result = await crew.escalate(key, message="Delete the old migrations directory? Default: keep.")
    await inbox.open("radar")
    card = inbox.cards().first
    await expect(card).to_contain_text("concierge suggests:")
    composer = inbox.page.locator("#composer-text")
    await composer.fill("my own words")
    await composer.press("Control+y")
    await composer.press("Escape")
    await expect(composer).to_have_value("my own words")
    await expect(card).to_contain_text("concierge suggests:")  # neither sent nor dismissed
    assert (await crew.conversation())["escalations"][0]["state"] == "pending"
    suggestion = await crew.crewline.store.suggestion(result["escalation_id"])
    assert suggestion is not None and not suggestion.dismissed
    await composer.fill("")
    await composer.press("Escape")
    await expect(card).not_to_contain_text("concierge suggests:")
    await expect(card.get_by_role("button", name="Dismiss")).to_have_count(0)
    dismissed = await crew.crewline.store.suggestion(result["escalation_id"])
    assert dismissed is not None and dismissed.dismissed
    assert (await crew.conversation())["escalations"][0]["state"] == "pending"


async def test_the_concierges_answer_shows_in_the_thread_header_until_undone(
    crew: Crew, inbox: InboxPage
) -> None:
    """An answer of the concierge's shows under the thread's status, as on the roster, and
    leaves both when the owner undoes it (its minute passing is the server's roster, tested
    with the injected clock in tests/e2e/test_concierge_status.py)."""
    key = await crew.add_member()
    await inbox.open("radar")
    line = inbox.page.get_by_test_id("thread-concierge")
    await expect(line).to_be_hidden()
    await inbox.type("/concierge answer routine")
    await crew.escalate(key, message="Shall I proceed with the plan?")
    said = "concierge · answered radar: yes"
    await expect(line).to_contain_text(said)
    await expect(line).to_contain_text("/concierge undo")
    await expect(inbox.page.locator("#thread-sub")).to_have_text("all clear")
    await expect(inbox.member("radar")).to_contain_text(said)
    await inbox.shot("concierge-answered")
    await inbox.type("/concierge undo")
    await expect(line).to_be_hidden()
    await expect(inbox.page.locator("#thread-sub")).to_have_text("needs you · 1 open")
    await expect(inbox.member("radar")).not_to_contain_text(said)


async def test_rewind_to_here_marks_what_followed_as_rewound(crew: Crew, inbox: InboxPage) -> None:
    """The Rewind to here action: what followed is shown rewound; a note says what left."""
    key = await crew.add_member(stateless=True)
    await crew.call(key, "POST", "/api/session/messages", json={"text": "Plan A is ready."})
    await inbox.open("radar")
    await inbox.type("Go with plan B")
    await crew.call(key, "POST", "/api/session/messages", json={"text": "Doing plan B."})
    later = inbox.page.locator("li.msg", has_text="Doing plan B.")
    await expect(later).to_be_visible()
    first = inbox.page.locator("li.msg", has_text="Plan A is ready.")
    await first.get_by_role("button", name="Rewind the conversation to this message").click()
    await expect(later).to_have_class("msg kind-row rewound")
    await expect(inbox.page.locator("li.msg.mine")).to_contain_text("rewound")
    await expect(
        inbox.page.get_by_text("Rewound: 2 messages left Radar's conversation.").first
    ).to_be_visible()
