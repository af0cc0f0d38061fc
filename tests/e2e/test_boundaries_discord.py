"""Boundaries on Discord's loopback fake: the context-menu command, /rewind n, edits, marks."""

from __future__ import annotations

import pytest

from crewline.transports.discord.client import REWIND_TO_HERE
from tests.driver import Crew
from tests.e2e.boundary_scene import Scene, edited_answer_heard, scene, typed_answer
from tests.harnesses.discord import DiscordHarness

pytestmark = pytest.mark.parametrize("harness", ["discord"], indirect=True)


async def _id(s: Scene, text: str) -> int:
    shown = await s.crew.crewline.store.platform_message("discord", f"row:{s.rows[text].id}")
    assert shown is not None
    return int(shown.message_ref)


async def test_rewind_to_here_strikes_crewlines_rewound_messages(
    crew: Crew, harness: DiscordHarness
) -> None:
    """The message command on m2: h2 and m3 leave; crewline's m3 is struck through."""
    s = await scene(crew, stateless=True)
    m3 = await _id(s, "m3")
    assert "~~" not in harness.fake.message(m3)["content"]
    run = await harness.fake.run_message_command(
        REWIND_TO_HERE, await _id(s, "m2"), channel_id=harness.thread_id("radar")
    )
    receipt = await harness.receipt(str(run.id))
    assert receipt.accepted, receipt
    assert harness.notice(run) == "Rewound: 2 messages left Radar's conversation."
    await crew.delivered()
    assert "~~" in harness.fake.message(m3)["content"]
    assert (await s.live())[:3] == ["m1", "h1", "m2"] and "h2" not in await s.live()


async def test_rewind_n_as_a_slash_command(crew: Crew, harness: DiscordHarness) -> None:
    """/rewind n:2 in the member's thread continues from h1."""
    s = await scene(crew, stateless=True)
    answer = await harness.command("rewind", "2", member="radar")
    assert answer == "Rewound: 3 messages left Radar's conversation."
    assert (await s.live())[:2] == ["m1", "h1"] and "m2" not in await s.live()


async def test_an_edit_resends_and_the_same_text_starts_nothing(
    crew: Crew, harness: DiscordHarness
) -> None:
    """A MESSAGE_UPDATE with new content is edit-resend; the same content is nothing."""
    s = await scene(crew, stateless=True)
    thread, h2 = harness.thread_id("radar"), await _id(s, "h2")
    same = await harness.fake.edit_message(thread, h2, "h2")
    edited_at = same.data["edited_timestamp"]
    assert (await harness.receipt(f"{h2}@{edited_at}")).code == "unchanged"
    assert not [e for e in await s.read() if e["kind"] == "context_boundary"]
    changed = await harness.fake.edit_message(thread, h2, "h2 edited")
    receipt = await harness.receipt(f"{h2}@{changed.data['edited_timestamp']}")
    assert receipt.accepted, receipt
    await harness.wait_until(lambda: any("h2 edited" in m.text for m in harness.messages("radar")))
    assert (await s.live())[-1] == "h2 edited" and "h2" not in await s.live()


async def test_someone_else_is_refused_privately(crew: Crew, harness: DiscordHarness) -> None:
    """The message command used by another person says why, to them alone; nothing changes."""
    s = await scene(crew, stateless=True)
    run = await harness.fake.run_message_command(
        REWIND_TO_HERE,
        await _id(s, "m2"),
        channel_id=harness.thread_id("radar"),
        user=harness.user(harness.stranger),
    )
    receipt = await harness.receipt(str(run.id))
    assert not receipt.accepted
    assert harness.notice(run) == receipt.notice
    assert await s.live() == ["m1", "h1", "m2", "h2", "m3"]


async def test_an_edited_answer_answers_again(crew: Crew, harness: DiscordHarness) -> None:
    """8080 answered the card; a MESSAGE_UPDATE to 9090: the card says 9090, and the agent
    reads the boundary, the reopening and the new answer, in that order."""
    typed = await typed_answer(crew)
    shown = await crew.crewline.store.platform_message("discord", f"row:{typed.row_id}")
    assert shown is not None
    thread, message_id = harness.thread_id("radar"), int(shown.message_ref)
    changed = await harness.fake.edit_message(thread, message_id, "9090")
    receipt = await harness.receipt(f"{message_id}@{changed.data['edited_timestamp']}")
    assert receipt.accepted, receipt
    await edited_answer_heard(crew, typed)
