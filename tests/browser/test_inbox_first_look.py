"""What a person noticed on a first look at the inbox, each checked where they saw it: the
bell's words, question cards counted, the deadline said once in the reader's zone, the typed
hint said once, lists, long messages folded, and the ambiguity notice.

With ``CREWLINE_DOC_SHOTS=1`` each test also refreshes its picture in ``docs/img/``.
"""

from __future__ import annotations

import asyncio
import os
import re
import shlex
import subprocess
import sys

import pytest
from playwright.async_api import expect

from tests.bounds import WAIT
from tests.browser.conftest import SUGGESTION_BUTTONS, InboxPage
from tests.driver import Crew

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


async def test_the_bell_drawer_reads_as_plain_sentences(crew: Crew, inbox: InboxPage) -> None:
    """Markdown in a request is said in words in the drawer; "UTC?" gets no extra "."."""
    key = await crew.add_member("quill", "Quill")
    await inbox.open()
    await crew.escalate(
        key,
        message="Run the **orders** `migrate` job before the 02:00 UTC backup?",
        deadline="PT2H",
        default_action="run it.",
        options=["run", "hold"],
    )
    await expect(inbox.page.locator("#bell-count")).to_have_text("1")
    await inbox.page.get_by_role("button", name="Notifications").click()
    body = inbox.page.locator("#bells .bell-item .bell-body")
    await expect(body).to_contain_text("Run the orders migrate job before the 02:00 UTC backup?")
    await expect(body).to_contain_text("Quill will: run it. Options: run or hold.")
    words = await body.inner_text()
    assert "**" not in words and "`" not in words
    assert "?." not in words and ".." not in words
    await inbox.doc_shot("inbox-bell-words")


async def test_a_waiting_question_is_in_the_bell_and_the_roster_counts(
    crew: Crew, inbox: InboxPage
) -> None:
    """A question card rings the bell and counts as open: never "needs you, 0 open"."""
    key = await crew.add_member("quill", "Quill")
    await inbox.open("quill")
    asked = await crew.call(
        key,
        "POST",
        "/api/session-control/ask",
        json={"question": "Which branch do I rebase onto?", "options": ["main", "dev"]},
    )
    assert asked.status_code == 200, asked.text
    await expect(inbox.page.locator("li.msg[data-kind=question]")).to_have_count(1)
    await expect(inbox.member("quill")).to_contain_text("needs you · 1 open")
    await expect(inbox.page.locator("#thread-sub")).to_have_text("needs you · 1 open")
    await expect(inbox.page.locator("#bell-count")).to_have_text("1")
    await inbox.page.get_by_role("button", name="Notifications").click()
    entry = inbox.page.locator("#bells .bell-item")
    await expect(entry).to_contain_text("Quill waits for your answer to a question.")
    await expect(entry).to_contain_text("Options: main or dev.")
    await inbox.doc_shot("inbox-question-counted")
    await inbox.page.get_by_role("button", name="Notifications").click()
    await inbox.page.locator("li.msg[data-kind=question]").get_by_role("button", name="dev").click()
    await expect(inbox.member("quill")).not_to_contain_text("needs you")
    await expect(inbox.page.locator("#bell-count")).to_be_hidden()


async def test_a_card_names_its_deadline_once_in_the_readers_zone_and_the_hint_once(
    crew: Crew, inbox: InboxPage
) -> None:
    """One time on the card, in the page's zone with a live countdown beside it; the typed
    hint does not repeat the buttons' labels."""
    key = await crew.add_member("quill", "Quill")
    await inbox.open("quill")
    await crew.escalate(
        key,
        message="Ship the **orders** service tonight?",
        deadline="PT90M",
        default_action="ship it",
        options=["ship", "hold"],
    )
    card = inbox.cards().first
    await expect(card.get_by_role("button")).to_have_text(["ship", "hold", *SUGGESTION_BUTTONS])
    moments = card.locator("time.moment")
    await expect(moments).to_have_count(1)
    await expect(moments).to_contain_text(re.compile(r"\bCES?T\b"))  # the page is in Berlin
    await expect(card.locator(".countdown")).to_contain_text(re.compile(r"^\(1h 2\dm left\)$"))
    await expect(card).not_to_contain_text("UTC")
    await expect(card).not_to_contain_text("your time")
    await expect(card).to_contain_text(
        "To answer, tap a button or type its label as a reply in this thread."
    )
    assert "ship · hold" not in await card.locator(".body").inner_text()
    await inbox.doc_shot("inbox-deadline-once")


async def test_markdown_lists_are_lists_and_long_messages_fold(
    crew: Crew, inbox: InboxPage
) -> None:
    """Lines starting "- " are a bulleted list; a long message folds with Show more."""
    key = await crew.add_member("quill", "Quill")
    await inbox.open("quill")
    await crew.call(
        key,
        "POST",
        "/api/session/messages",
        json={"text": "Plan for tonight:\n- back up **orders**\n- run `migrate`\n- tell you"},
    )
    listed = inbox.page.locator("li.msg .body ul li")
    await expect(listed).to_have_text(["back up orders", "run migrate", "tell you"])
    await expect(inbox.page.locator("li.msg .body")).not_to_contain_text("- back up")
    await inbox.doc_shot("inbox-lists")
    report = "\n\n".join(f"Step {n}: checked shard {n} of the orders table." for n in range(40))
    await crew.call(key, "POST", "/api/session/messages", json={"text": report})
    long = inbox.page.locator("li.msg", has_text="Step 0: checked shard 0")
    more = long.get_by_role("button", name="Show more")
    await expect(more).to_be_visible()
    await expect(long.locator(".body.folded")).to_have_count(1)
    shown, whole = await long.locator(".body").evaluate("b => [b.clientHeight, b.scrollHeight]")
    assert shown <= 240 < whole  # folded to its first lines
    await inbox.doc_shot("inbox-show-more")
    await more.click()
    await expect(long.locator(".body.folded")).to_have_count(0)
    await expect(long.get_by_role("button", name="Show less")).to_be_visible()
    shown, whole = await long.locator(".body").evaluate("b => [b.clientHeight, b.scrollHeight]")
    assert shown == whole > 240  # all of it


async def test_the_ambiguity_notice_says_what_to_do_in_the_inbox(
    crew: Crew, inbox: InboxPage
) -> None:
    """Two open requests, a typed reply: the notice points at the cards' buttons, not at
    "the inbox" the reader is already in."""
    key = await crew.add_member("quill", "Quill")
    await crew.escalate(key, message="Deploy the API?", options=["yes", "no"])
    await crew.escalate(key, message="Write the release notes?")
    await inbox.open("quill")
    await expect(inbox.cards()).to_have_count(2)
    await inbox.type("sounds good")  # no option of either: ambiguous
    notice = inbox.page.locator("li.msg[data-kind=notice]")
    await expect(notice).to_contain_text("2 requests are open")
    await expect(notice).to_contain_text("To answer one, tap a button on its card.")
    await expect(notice).to_contain_text("once it is the only one open")
    await expect(notice).not_to_contain_text("from the inbox")
    await inbox.doc_shot("inbox-ambiguity")


async def test_the_empty_inbox_shows_the_command_that_adds_a_member_and_it_works(
    crew: Crew, inbox: InboxPage
) -> None:
    """With no member, the roster says how to add one, for this inbox's user; that command,
    run as shown while crewline serves, puts the member on the roster."""
    await inbox.open()
    empty = inbox.page.get_by_test_id("roster-empty")
    await expect(empty).to_contain_text("No members yet.")
    command = await inbox.page.locator("#roster-add").inner_text()
    user = crew.harness.owner
    assert command == (
        f"crewline member add radar --name Radar --owner local:{user} --transport local"
    )
    data_dir = crew.config.data_dir
    (data_dir / "crewline.toml").write_text(f'[local]\nuser = "{user}"\n')  # the server's user
    env = {k: v for k, v in os.environ.items() if not k.startswith("CREWLINE_")}
    ran = await asyncio.to_thread(
        subprocess.run,
        [sys.executable, "-m", *shlex.split(command)],
        env={**env, "CREWLINE_DATA_DIR": str(data_dir)},
        capture_output=True, text=True, check=False, timeout=WAIT,
    )  # fmt: skip
    assert ran.returncode == 0, ran.stderr
    await expect(inbox.member("radar")).to_be_visible(timeout=WAIT * 1000)
    await expect(empty).to_be_hidden()
