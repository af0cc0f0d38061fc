"""Boundaries started from chat (memory transport): commands, message actions, edits, marks."""

from __future__ import annotations

from dataclasses import replace

import pytest

from crewline import crew as crew_admin
from crewline.transports.memory import MemoryTransport
from tests.driver import Crew
from tests.e2e.boundary_scene import Scene, scene

pytestmark = pytest.mark.parametrize("harness", ["memory"], indirect=True)


def _memory(crew: Crew) -> MemoryTransport:
    transport = crew.harness.transport()
    assert isinstance(transport, MemoryTransport)
    return transport


async def _ref(s: Scene, text: str) -> str:
    shown = await s.crew.crewline.store.platform_message("memory", f"row:{s.rows[text].id}")
    assert shown is not None
    return shown.message_ref


async def test_rewind_in_the_thread_is_done_and_marks_the_rewound_messages(crew: Crew) -> None:
    """/rewind continues from the owner's last message; m3 is marked rewound on the platform."""
    s = await scene(crew, stateless=True)
    memory = _memory(crew)
    m3 = await _ref(s, "m3")
    assert not memory.messages[m3].rewound
    receipt = await memory.command("alice", "rewind", member="radar")
    assert receipt.accepted and receipt.notice == "Rewound: 1 message left Radar's conversation."
    assert (await s.live())[-2:] == ["h2", receipt.notice]
    await memory.wait_until(lambda: memory.messages[m3].rewound)
    await memory.wait_until(
        lambda: any(m.current.text == receipt.notice for m in memory.thread_messages("radar"))
    )


async def test_rewind_n_goes_back_n_messages_of_the_owner(crew: Crew) -> None:
    """/rewind 2 continues from h1; the owner's own h2 gets a mark it can show (a reaction)."""
    s = await scene(crew, stateless=True)
    memory = _memory(crew)
    h2 = await _ref(s, "h2")
    receipt = await memory.command("alice", "rewind", "2", member="radar")
    assert receipt.accepted, receipt
    assert (await s.live())[:2] == ["m1", "h1"] and "m2" not in await s.live()
    await memory.wait_until(lambda: memory.reactions.get(h2) == ["rewound"])


async def test_rewind_to_here_on_a_message(crew: Crew) -> None:
    """The message action continues from the message it was used on."""
    s = await scene(crew, stateless=True)
    memory = _memory(crew)
    receipt = await memory.command(
        "alice", "rewind", member="radar", message_ref=await _ref(s, "m2")
    )
    assert receipt.accepted, receipt
    assert (await s.live())[:3] == ["m1", "h1", "m2"] and "h2" not in await s.live()


async def test_a_stateful_session_makes_the_rewind_queued_then_done_in_the_thread(
    crew: Crew,
) -> None:
    """The command answers "queued"; the session acks; the outcome appears in the thread."""
    s = await scene(crew)
    memory = _memory(crew)
    receipt = await memory.command("alice", "rewind", member="radar")
    assert receipt.accepted and receipt.notice is not None
    assert receipt.notice.startswith("Queued:")
    assert "h2" in await s.live() and "m3" in await s.live()  # nothing yet
    assert await s.ack(await s.boundary_id()) == 200
    await memory.wait_until(
        lambda: any(m.current.text.startswith("Rewound:") for m in memory.thread_messages("radar"))
    )
    assert "m3" not in await s.live()


async def test_an_edit_of_the_owners_message_resends_it(crew: Crew) -> None:
    """A changed text is edit-resend: the new text appears as a new message."""
    s = await scene(crew, stateless=True)
    memory = _memory(crew)
    receipt = await memory.edit("alice", "radar", await _ref(s, "h2"), "h2 edited")
    assert receipt.accepted, receipt
    await memory.wait_until(
        lambda: any(m.current.text == "h2 edited" for m in memory.thread_messages("radar"))
    )
    assert (await s.live())[-1] == "h2 edited"
    assert "h2" not in await s.live()


async def test_an_edit_that_does_not_change_the_text_starts_nothing(crew: Crew) -> None:
    """A re-emitted edit or a metadata change (same text) is not a boundary."""
    s = await scene(crew, stateless=True)
    memory = _memory(crew)
    receipt = await memory.edit("alice", "radar", await _ref(s, "h2"), "h2")
    assert not receipt.accepted and receipt.code == "unchanged"
    assert not [e for e in await s.read() if e["kind"] == "context_boundary"]
    assert await s.live() == ["m1", "h1", "m2", "h2", "m3"]


async def test_a_redelivered_edit_starts_nothing_twice(crew: Crew) -> None:
    """The platform delivers one edit twice: one boundary."""
    s = await scene(crew)
    memory = _memory(crew)
    ref = await _ref(s, "h2")
    first = await memory.edit("alice", "radar", ref, "h2 edited", event_id="e-1")
    again = await memory.edit("alice", "radar", ref, "h2 edited", event_id="e-1")
    assert first.accepted and again == replace(first, repeat=True)  # the same receipt
    assert len([e for e in await s.read() if e["kind"] == "context_boundary"]) == 1


async def test_someone_else_is_refused_privately_and_nothing_changes(crew: Crew) -> None:
    """A human who does not own the member: refused with why, a SEL record, no boundary."""
    s = await scene(crew, stateless=True)
    memory = _memory(crew)
    await crew_admin.add_member(
        crew.crewline.store, slug="other", name="Other", owners=["memory:bob"], transports=[]
    )
    refused = await memory.command("bob", "rewind", member="radar")
    assert not refused.accepted and refused.code == "not_owner"
    assert refused.notice == "Only Radar's owner can rewind or edit its conversation."
    edited = await memory.edit("bob", "radar", await _ref(s, "h2"), "hijacked")
    assert not edited.accepted and edited.code == "not_owner"
    assert await s.live() == ["m1", "h1", "m2", "h2", "m3"]
    denied = [r for r in await crew.crewline.store.sel() if r.outcome == "denied"]
    assert [r.action for r in denied] == ["command:not_owner", "edit:not_owner"]


async def test_regenerate_and_reset_from_chat(crew: Crew) -> None:
    """/regenerate gives the member the last message again; /reset empties the thread."""
    s = await scene(crew, stateless=True)
    memory = _memory(crew)
    regenerated = await memory.command("alice", "regenerate", member="radar")
    assert regenerated.accepted, regenerated
    assert "m3" not in await s.live()
    again = [e for e in await s.read() if e["kind"] == "human_message"][-1]
    assert again["body"]["regenerate"] is True
    reset = await memory.command("alice", "reset", member="radar")
    assert reset.accepted, reset
    assert [t for t in await s.live() if t.startswith(("m", "h"))] == []


async def test_a_command_outside_a_thread_names_the_member(crew: Crew) -> None:
    """At the root, /rewind needs the member named; /rewind radar 2 works."""
    await scene(crew, stateless=True)
    memory = _memory(crew)
    unnamed = await memory.command("alice", "rewind")
    assert unnamed.code == "not_in_thread"
    named = await memory.command("alice", "rewind", "radar", "2")
    assert named.accepted, named


async def test_fork_copies_the_conversation_into_a_new_member(crew: Crew) -> None:
    """/fork radar-b: a new member whose transcript is radar's up to the owner's last
    message; radar is unchanged; the fork's agent gets a key from `member key`."""
    s = await scene(crew)
    await s.ask("Proceed?")  # a card after h2: not copied (the fork ends at h2)
    memory = _memory(crew)
    receipt = await memory.command("alice", "fork", "radar-b", member="radar")
    assert receipt.accepted, receipt
    assert receipt.notice is not None and receipt.notice.startswith("Forked from Radar: 4")
    store = crew.crewline.store
    copied = [r.text for r in await store.live_rows("radar-b")]
    assert copied[:4] == ["m1", "h1", "m2", "h2"] and copied[4] == receipt.notice
    assert (await s.live())[:5] == ["m1", "h1", "m2", "h2", "m3"]
    forked = await store.member("radar-b")
    assert forked is not None and forked.transports == ("memory",)
    created = await crew_admin.issue_member_key(store, "radar-b")
    posted = await s.post("hello from the fork", key=created.key)
    row = await store.row(posted)
    assert row is not None and row.conversation == "radar-b"
    taken = await memory.command("alice", "fork", "radar-b", member="radar")
    assert taken.code == "member_exists"


async def test_fork_by_someone_else_is_refused(crew: Crew) -> None:
    """Only the owner forks; nothing is created otherwise."""
    await scene(crew, stateless=True)
    memory = _memory(crew)
    await crew_admin.add_member(
        crew.crewline.store, slug="other", name="Other", owners=["memory:bob"], transports=[]
    )
    refused = await memory.command("bob", "fork", "stolen", member="radar")
    assert refused.code == "not_owner"
    assert await crew.crewline.store.member("stolen") is None


async def test_an_unheard_answer_rewound_away_is_not_announced_as_reopened(crew: Crew) -> None:
    """The press's answer is withdrawn unread by the rewind: the session hears neither the
    answer nor a reopening. (Found by tests/reliability/test_properties.py.)"""
    memory = _memory(crew)
    key = await crew.add_member("radar", "Radar", stateless=True)
    result = await crew.escalate(key, message="Go?", options=["yes", "no"])
    await crew.delivered()
    card = memory.cards("radar")[0]
    assert (await memory.press("alice", card.ref, 0)).accepted
    receipt = await memory.command("alice", "rewind", member="radar", message_ref=card.ref)
    assert receipt.accepted, receipt
    record = (await crew.conversation())["escalations"][0]
    assert (record["escalation_id"], record["state"]) == (result["escalation_id"], "pending")
    kinds = [e["kind"] for e in await crew.events(key)]
    assert "escalation_answered" not in kinds and "escalation_reopened" not in kinds


async def test_undo_of_a_concierge_answer_a_rewind_took_away_tells_nobody_again(
    crew: Crew,
) -> None:
    """A rewind reopened the record already; undo then withdraws nothing and the session
    gets no second notice. (Found by tests/reliability/test_properties.py.)"""
    memory = _memory(crew)
    key = await crew.add_member("radar", "Radar", stateless=True)
    await memory.command("alice", "concierge", "answer", "routine")
    await crew.escalate(key, message="Shall I proceed with the plan?")
    await crew.wait_for_event(key, "escalation_answered")  # read: a rewind tells it
    await crew.crewline.bot.concierge.idle()
    await crew.delivered()
    card = memory.cards("radar")[0]
    receipt = await memory.command("alice", "rewind", member="radar", message_ref=card.ref)
    assert receipt.accepted, receipt
    await crew.wait_for_event(key, "escalation_reopened")
    undone = await memory.command("alice", "concierge", "undo")
    assert undone.notice is not None and undone.notice.startswith("Nothing withdrawn")
    kinds = [e["kind"] for e in await crew.events(key)]
    assert "concierge_answer_withdrawn" not in kinds
