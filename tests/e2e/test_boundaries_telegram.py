"""Boundaries on Telegram's loopback fake: edited_message, /rewind as a reply, /rewind N, and
crewline's own rewound messages redrawn."""

from __future__ import annotations

import pytest

from crewline.transports.telegram.refs import TopicThread, parse_message_ref
from crewline.transports.telegram.render import REWOUND_LABEL
from tests.driver import Crew
from tests.e2e.boundary_scene import Scene, edited_answer_heard, scene, typed_answer
from tests.harnesses.telegram import TelegramHarness

pytestmark = pytest.mark.parametrize("harness", ["telegram"], indirect=True)


async def _where(s: Scene, text: str) -> tuple[int, int]:
    shown = await s.crew.crewline.store.platform_message("telegram", f"row:{s.rows[text].id}")
    assert shown is not None
    return parse_message_ref(shown.message_ref)


def _topic(harness: TelegramHarness) -> int | None:
    where = harness.thread("radar")
    return where.topic_id if isinstance(where, TopicThread) else None


async def test_an_edited_message_resends_and_an_unchanged_one_starts_nothing(
    crew: Crew, harness: TelegramHarness
) -> None:
    """edited_message with new text is edit-resend; the same text (a re-emit) is nothing."""
    s = await scene(crew, stateless=True)
    chat, h2 = await _where(s, "h2")
    same = await harness.handled(await harness.fake.edit_text(chat, h2, "h2"))
    assert same is not None and same.code == "unchanged"
    assert not [e for e in await s.read() if e["kind"] == "context_boundary"]
    edited = await harness.handled(await harness.fake.edit_text(chat, h2, "h2 edited"))
    assert edited is not None and edited.accepted, edited
    await harness.wait_until(lambda: any("h2 edited" in m.text for m in harness.messages("radar")))
    assert (await s.live())[-1] == "h2 edited" and "h2" not in await s.live()


async def test_rewind_sent_as_a_reply_rewinds_to_that_message(
    crew: Crew, harness: TelegramHarness
) -> None:
    """Reply to m2 with /rewind: the conversation continues from m2."""
    s = await scene(crew, stateless=True)
    chat, m2 = await _where(s, "m2")
    sent = await harness.fake.send_command(
        chat, "/rewind", reply_to_message_id=m2, message_thread_id=_topic(harness)
    )
    receipt = await harness.handled(sent)
    assert receipt is not None and receipt.accepted, receipt
    assert receipt.notice == "Rewound: 2 messages left Radar's conversation."
    assert (await s.live())[:3] == ["m1", "h1", "m2"] and "h2" not in await s.live()


async def test_rewind_n_in_the_thread(crew: Crew, harness: TelegramHarness) -> None:
    """/rewind 2 in the member's thread continues from the owner's second-to-last message."""
    s = await scene(crew, stateless=True)
    if _topic(harness) is None:
        pytest.skip("reply chains: tests/e2e/test_boundaries_telegram_chain.py")
    answer = await harness.command("rewind", "2", member="radar")
    assert answer == "Rewound: 3 messages left Radar's conversation."
    assert (await s.live())[:2] == ["m1", "h1"] and "m2" not in await s.live()


async def test_someone_else_is_refused_and_nothing_changes(
    crew: Crew, harness: TelegramHarness
) -> None:
    """An edit by a person who does not own the member starts nothing."""
    s = await scene(crew, stateless=True)
    chat, m2 = await _where(s, "m2")
    sent = await harness.fake.send_command(
        chat,
        "/rewind",
        from_user=int(harness.stranger),
        reply_to_message_id=m2,
        message_thread_id=_topic(harness),
    )
    receipt = await harness.handled(sent)
    assert receipt is None or not receipt.accepted
    assert await s.live() == ["m1", "h1", "m2", "h2", "m3"]


async def test_crewline_s_rewound_messages_are_redrawn_and_the_person_s_are_not(
    crew: Crew, harness: TelegramHarness
) -> None:
    """Rewind to m2: m3 (crewline's post, with its Regenerate button) is edited to say it was
    rewound, struck through, without buttons; h2 (the owner's own message) is not edited."""
    s = await scene(crew, stateless=True)
    await crew.delivered()
    chat, m2 = await _where(s, "m2")
    _, m3 = await _where(s, "m3")
    _, h2 = await _where(s, "h2")
    assert harness.fake.message(chat, m3).buttons, "m3 should carry the Regenerate button"
    edits_before = len(harness.fake.message(chat, m3).edits)
    sent = await harness.fake.send_command(
        chat, "/rewind", reply_to_message_id=m2, message_thread_id=_topic(harness)
    )
    receipt = await harness.handled(sent)
    assert receipt is not None and receipt.accepted, receipt
    await harness.wait_until(
        lambda: (
            len(harness.fake.message(chat, m3).edits) > edits_before
            and REWOUND_LABEL in (harness.fake.message(chat, m3).text or "")
        )
    )
    shown = harness.fake.message(chat, m3)
    assert "<s>m3</s>" in (shown.text or "") and not shown.buttons
    assert harness.fake.message(chat, h2).edits == []
    assert harness.fake.message(chat, m2).edits == [] or REWOUND_LABEL not in (
        harness.fake.message(chat, m2).text or ""
    )


async def test_an_edited_answer_answers_again(crew: Crew, harness: TelegramHarness) -> None:
    """8080 answered the card; edited_message to 9090: the card says 9090, and the agent
    reads the boundary, the reopening and the new answer, in that order."""
    typed = await typed_answer(crew)
    shown = await crew.crewline.store.platform_message("telegram", f"row:{typed.row_id}")
    assert shown is not None
    chat, message_id = parse_message_ref(shown.message_ref)
    edited = await harness.handled(await harness.fake.edit_text(chat, message_id, "9090"))
    assert edited is not None and edited.accepted, edited
    await edited_answer_heard(crew, typed)
